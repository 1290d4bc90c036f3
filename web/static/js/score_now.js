// "If the game ended now" on a seat's card (docs/ui.md): the view's score_now holds every
// seat's part of the final scoring that everyone can see, and in one's own view what one's
// own hidden money adds ("own"); score_rules names each category's clause. The total is a
// <summary>: a tap, a click or Enter opens the breakdown, each category with its rule link.
import { h, t } from "./i18n.js";
import { ruleLink } from "./pieces.js";

// Which seats' breakdowns are open: the cards are drawn anew at every change of the game.
var opened = {};

function pointsOf(parts) {
  return Object.keys(parts || {}).reduce(function (a, c) { return a + parts[c]; }, 0);
}

function categoryLine(c, vp, own, clause) {
  return h("li", { "data-category": c },
    h("span", { class: "now-name" }, t("score." + c), " ", h("b", { class: "now-vp" }, vp),
      own ? h("span", { class: "now-own" }, " ", t("now.own_part", { n: own })) : null),
    " ", ruleLink(clause));
}

// The line under ``seat``'s card (its own row, so that the card's list of holdings keeps its
// columns), or null when the view has no score_now: the game is over, the final scores say it.
export function scoreNow(game, seat, mySeat) {
  var now = game.score_now;
  if (!now) return null;
  var rules = game.score_rules || {};
  var parts = now.seats[seat] || {};
  var own = seat === mySeat && now.own ? now.own : null;
  var ownTotal = pointsOf(own);
  var total = pointsOf(parts);
  var lines = Object.keys(rules).filter(function (c) { return now.hidden.indexOf(c) < 0; }).map(function (c) {
    return categoryLine(c, parts[c] || 0, own && own[c], rules[c]);
  });
  var hidden = now.hidden.map(function (c) {
    return h("li", { class: "now-hidden", "data-category": c },
      h("span", { class: "now-name" }, t("score." + c), h("span", { class: "now-why" }, " ", t("now.hidden_part"))),
      " ", ruleLink(rules[c]));
  });
  var details = h("details", { class: "score-now", id: "score-now-" + seat, open: !!opened[seat],
    ontoggle: function () { opened[seat] = details.open; } },
  h("summary", { "data-watch": "score-now-" + seat },
    h("span", { class: "now-title" }, t("now.title")), " ", h("b", { class: "now-total" }, t("now.total", { n: total })),
    ownTotal ? h("span", { class: "now-own" }, " ", t("now.own_total", { n: ownTotal })) : null),
  h("ul", { class: "now-lines" }, lines, hidden),
  own ? h("p", { class: "now-own-note" }, t("now.own_note")) : null);
  return details;
}
