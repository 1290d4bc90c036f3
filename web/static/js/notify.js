// The "Notifications" card of the table page (docs/notifications.md): the seat's own e-mail
// address for "your move" notices, when the server sends e-mail, and, for the table's
// creator, the table's webhook URL. A page with a seat link loads this module when the
// player unfolds the card; the addresses are read and written with that seat's token and
// shown to nobody else.
import { errorText, h, t } from "./i18n.js";
import { api } from "./conn.js";

var here = null; // {tableId, token, settings, status}

export function showNotifications(tableId, token) {
  api("GET", "/api/tables/" + tableId + "/notifications", undefined, token).then(function (settings) {
    // drafts: what was typed into a field the server refused, kept for correcting it.
    here = { tableId: tableId, token: token, settings: settings, status: "", drafts: {} };
    draw();
  }).catch(function () { /* a seat link that no longer works shows no card */ });
}

function draw() {
  var el = document.getElementById("notify-body");
  var s = here.settings;
  var parts = [
    s.email_on ? field("email", s.email) : h("p", { id: "notify-email-off", class: "muted" }, t("notify.email_off")),
    s.creator ? field("webhook", s.webhook) : null,
    h("p", { id: "notify-status", class: "muted", role: "status", "aria-live": "polite" }, here.status),
  ];
  el.replaceChildren.apply(el, parts.filter(Boolean));
}

function field(kind, value) {
  var id = "notify-" + kind;
  var input = h("input", {
    id: id,
    type: kind === "email" ? "email" : "url",
    autocomplete: kind === "email" ? "email" : "off",
    maxlength: kind === "email" ? 254 : 2000,
    value: kind in here.drafts ? here.drafts[kind] : value || "",
    "aria-describedby": id + "-help",
  });
  // The server checks the value and says why in the page's language: no browser check first.
  return h("form", { class: "notify-field", novalidate: true, onsubmit: function (ev) {
    ev.preventDefault();
    save(kind, input.value.trim() || null);
  } },
  h("label", { for: id }, t("notify." + kind + "_label")),
  h("div", { class: "notify-row" }, input,
    h("button", { type: "submit", id: id + "-save" }, t("notify.save")),
    value ? h("button", { type: "button", id: id + "-remove", onclick: function () { save(kind, null); } }, t("notify.remove")) : null),
  h("p", { id: id + "-help", class: "muted" }, t("notify." + kind + "_help")));
}

function save(kind, value) {
  var base = "/api/tables/" + here.tableId;
  var request = kind === "email"
    ? api("POST", base + "/seats/" + here.settings.seat + "/email", { email: value }, here.token)
    : api("POST", base + "/webhook", { url: value }, here.token);
  request.then(function (settings) {
    here.settings = settings;
    delete here.drafts[kind];
    here.status = t(value ? "notify.saved" : "notify.removed");
    draw();
  }).catch(function (err) {
    here.drafts[kind] = value || "";
    here.status = t("error.prefix") + " " + errorText(err);
    draw();
  });
}
