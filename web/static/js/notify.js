// The "Notifications" card of the table page (docs/notifications.md): the seat's own e-mail
// address for "your move" notices, when the server sends e-mail, and, for the table's
// creator, the table's webhook URL. A page with a seat link loads this module when the
// player unfolds the card; the addresses are read and written with that seat's token and
// shown to nobody else.
//
// A new address waits until its owner opens the link mailed to it. That happens in a mail
// program, maybe on another device, so while the card is open and the address waits, the
// card reads the settings again every few seconds and when the page comes back into view,
// and says "confirmed" as soon as the server does.
import { errorText, h, t } from "./i18n.js";
import { api } from "./conn.js";

let here = null; // {tableId, token, settings, status, drafts}
const POLL_MS = 10000;
let polling = null;

export function showNotifications(tableId, token) {
  read(tableId, token)
    .then((settings) => {
      // drafts: what was typed into a field the server refused, kept for correcting it.
      here = { tableId, token, settings, status: "", drafts: {} };
      draw();
      watch();
    })
    .catch(() => {
      /* a seat link that no longer works shows no card */
    });
}

function read(tableId, token) {
  return api("GET", "/api/tables/" + tableId + "/notifications", undefined, token);
}

function waiting(s) {
  return Boolean(s.email) && !s.email_confirmed;
}

function watch() {
  if (polling) return;
  polling = setInterval(refresh, POLL_MS);
  window.addEventListener("focus", refresh);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
}

// Read the settings again while an address waits and the card is open; redraw only when
// what it shows has changed (a redraw keeps what is being typed as a draft).
function refresh() {
  const card = document.getElementById("notify");
  if (!here || !waiting(here.settings) || document.hidden || (card && !card.open)) return;
  read(here.tableId, here.token)
    .then((settings) => {
      const before = here.settings;
      if (settings.email === before.email && settings.email_confirmed === before.email_confirmed)
        return;
      keepDrafts();
      here.settings = settings;
      if (settings.email_confirmed) here.status = "";
      draw();
    })
    .catch(() => {
      /* the next look will tell */
    });
}

function keepDrafts() {
  ["email", "webhook"].forEach((kind) => {
    const input = document.getElementById("notify-" + kind);
    if (input && input.value !== (here.settings[kind] || "")) here.drafts[kind] = input.value;
  });
}

function draw() {
  const el = document.getElementById("notify-body");
  const s = here.settings;
  const parts = [
    s.email_on
      ? field("email", s.email)
      : h("p", { id: "notify-email-off", class: "muted" }, t("notify.email_off")),
    s.email_on && s.email ? emailState(s) : null,
    s.creator ? field("webhook", s.webhook) : null,
    h(
      "p",
      { id: "notify-status", class: "muted", role: "status", "aria-live": "polite" },
      here.status,
    ),
  ];
  el.replaceChildren.apply(el, parts.filter(Boolean));
}

// Whether e-mails go to the address yet: confirmed, or waiting for the link to be opened
// (with the link sent again on request, while the seat may have more sent).
function emailState(s) {
  if (s.email_confirmed) {
    return h(
      "p",
      { id: "notify-email-state", class: "notify-state confirmed" },
      t("notify.email_confirmed", { email: s.email }),
    );
  }
  return h(
    "div",
    { id: "notify-email-state", class: "notify-state waiting" },
    h("p", {}, t("notify.email_waiting", { email: s.email })),
    s.email_links_left > 0
      ? h(
          "button",
          {
            type: "button",
            id: "notify-email-resend",
            onclick() {
              save("email", s.email);
            },
          },
          t("notify.email_resend"),
        )
      : h("p", { class: "muted" }, t("notify.email_no_links")),
  );
}

function field(kind, value) {
  const id = "notify-" + kind;
  const input = h("input", {
    id,
    type: kind === "email" ? "email" : "url",
    autocomplete: kind === "email" ? "email" : "off",
    maxlength: kind === "email" ? 254 : 2000,
    value: kind in here.drafts ? here.drafts[kind] : value || "",
    "aria-describedby": id + "-help",
  });
  // The server checks the value and says why in the page's language: no browser check first.
  return h(
    "form",
    {
      class: "notify-field",
      novalidate: true,
      onsubmit(ev) {
        ev.preventDefault();
        save(kind, input.value.trim() || null);
      },
    },
    h("label", { for: id }, t("notify." + kind + "_label")),
    h(
      "div",
      { class: "notify-row" },
      input,
      h("button", { type: "submit", id: id + "-save" }, t("notify.save")),
      value
        ? h(
            "button",
            {
              type: "button",
              id: id + "-remove",
              onclick() {
                save(kind, null);
              },
            },
            t("notify.remove"),
          )
        : null,
    ),
    h("p", { id: id + "-help", class: "muted" }, t("notify." + kind + "_help")),
  );
}

function save(kind, value) {
  const base = "/api/tables/" + here.tableId;
  const request =
    kind === "email"
      ? api("POST", base + "/seats/" + here.settings.seat + "/email", { email: value }, here.token)
      : api("POST", base + "/webhook", { url: value }, here.token);
  request
    .then((settings) => {
      const linkSent = kind === "email" && value && !settings.email_confirmed;
      here.settings = settings;
      delete here.drafts[kind];
      here.status = linkSent
        ? t("notify.email_link_sent", { email: value })
        : t(value ? "notify.saved" : "notify.removed");
      draw();
    })
    .catch((err) => {
      here.drafts[kind] = value || "";
      here.status = t("error.prefix") + " " + errorText(err);
      // A link the mail server did not take leaves the address waiting: show that too.
      read(here.tableId, here.token).then((settings) => {
        here.settings = settings;
        draw();
      }, draw);
    });
}
