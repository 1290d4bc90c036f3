// "If the game ended now" on a seat's card (docs/ui.md): the view's score_now holds every
// seat's part of the final scoring that everyone can see, and in one's own view what one's
// own hidden money adds ("own"); score_rules names each category's clause. The total is a
// <summary>: a tap, a click or Enter opens the breakdown, each category with its rule link.
import { h, t } from "../../i18n.js";
import { ruleLink } from "../../pieces.js";

// Which seats' breakdowns are open: the cards are drawn anew at every change of the game.
const opened = {};

function pointsOf(parts) {
  return Object.keys(parts || {}).reduce((a, c) => {
    return a + parts[c];
  }, 0);
}

function categoryLine(c, vp, own, clause) {
  return h(
    "li",
    { "data-category": c },
    h(
      "span",
      { class: "now-name" },
      t("score." + c),
      " ",
      h("b", { class: "now-vp" }, vp),
      own ? h("span", { class: "now-own" }, " ", t("now.own_part", { n: own })) : null,
    ),
    " ",
    ruleLink(clause),
  );
}

// The line under ``seat``'s card (its own row, so that the card's list of holdings keeps its
// columns), or null when the view has no score_now: the game is over, the final scores say it.
export function scoreNow(game, seat, mySeat) {
  const now = game.score_now;
  if (!now) return null;
  const rules = game.score_rules || {};
  const parts = now.seats[seat] || {};
  const own = seat === mySeat && now.own ? now.own : null;
  const ownTotal = pointsOf(own);
  const total = pointsOf(parts);
  const lines = Object.keys(rules)
    .filter((c) => {
      return now.hidden.indexOf(c) < 0;
    })
    .map((c) => {
      return categoryLine(c, parts[c] || 0, own && own[c], rules[c]);
    });
  const hidden = now.hidden.map((c) => {
    return h(
      "li",
      { class: "now-hidden", "data-category": c },
      h(
        "span",
        { class: "now-name" },
        t("score." + c),
        h("span", { class: "now-why" }, " ", t("now.hidden_part")),
      ),
      " ",
      ruleLink(rules[c]),
    );
  });
  const details = h(
    "details",
    {
      class: "score-now",
      id: "score-now-" + seat,
      open: !!opened[seat],
      ontoggle() {
        opened[seat] = details.open;
      },
    },
    h(
      "summary",
      { "data-watch": "score-now-" + seat },
      h("span", { class: "now-title" }, t("now.title")),
      " ",
      h("b", { class: "now-total" }, t("now.total", { n: total })),
      ownTotal ? h("span", { class: "now-own" }, " ", t("now.own_total", { n: ownTotal })) : null,
    ),
    h("ul", { class: "now-lines" }, lines, hidden),
    own ? h("p", { class: "now-own-note" }, t("now.own_note")) : null,
  );
  return details;
}
