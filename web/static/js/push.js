// "Notify me when it is my move": the seat's notifications card offers Web Push notices
// (docs/push.md); table.js loads this module when the player opens that card.
// The browser's push subscription belongs to the site (one service worker, scope "/"); the
// server keeps one row per seat and device, added and removed with the seat's own token, so
// turning notices off here stops them for this seat only.
import { LANG, errorText, h, t } from "./i18n.js";
import { api } from "./conn.js";

let state = { key: null, status: "idle", id: null, why: "" };
let box = null; // the control, kept between redraws of the seat cards

function route(tableId, seat) {
  return "/api/tables/" + encodeURIComponent(tableId) + "/seats/" + seat + "/push";
}

// Why this browser cannot take notices, or null when it can.
export function unsupported() {
  if (!window.isSecureContext) return "push.insecure";
  if ("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)
    return null;
  // iPhone and iPad Safari offer push only to a page opened from the home screen.
  const ios =
    /iPad|iPhone|iPod/.test(navigator.userAgent) ||
    (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  return ios && !navigator.standalone ? "push.ios" : "push.unsupported";
}

function keyBytes(base64url) {
  const text = atob(
    base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4),
  );
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function sameKey(buffer, bytes) {
  if (!buffer) return false;
  const have = new Uint8Array(buffer);
  return (
    have.length === bytes.length &&
    have.every((b, i) => {
      return b === bytes[i];
    })
  );
}

// 16 hex digits of the SHA-256 of the endpoint: how the server names a device in its list.
function deviceOf(endpoint) {
  return crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint)).then((digest) => {
    return Array.from(new Uint8Array(digest).slice(0, 8))
      .map((b) => {
        return b.toString(16).padStart(2, "0");
      })
      .join("");
  });
}

function registration() {
  return navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

function set(status, extra) {
  state = Object.assign({}, state, { status }, extra || {});
  draw();
}

// On the first draw for a seat: is this device already on the seat's list? Nothing is
// installed or asked for until the player presses the button (no worker, no request).
function look(tableId, seat, token) {
  const why = unsupported();
  if (why) return set("unsupported", { why });
  if (Notification.permission === "denied") return set("denied");
  set("working");
  navigator.serviceWorker
    .getRegistration("/")
    .then((reg) => {
      return reg ? reg.pushManager.getSubscription() : null;
    })
    .then((sub) => {
      if (!sub) return set("off");
      return Promise.all([
        deviceOf(sub.endpoint),
        api("GET", route(tableId, seat), undefined, token),
      ]).then((found) => {
        const mine = found[1].devices.filter((d) => {
          return d.device === found[0];
        })[0];
        set(mine ? "on" : "off", { id: mine ? mine.id : null });
      });
    })
    .catch((err) => {
      set("off", { error: String((err && err.message) || err) });
    });
}

function enable(tableId, seat, token) {
  set("working", { error: "" });
  Notification.requestPermission()
    .then((permission) => {
      if (permission !== "granted") return set(permission === "denied" ? "denied" : "off");
      return Promise.all([
        registration().then(() => {
          return navigator.serviceWorker.ready;
        }),
        api("GET", "/api/push/key"),
      ])
        .then((got) => {
          const reg = got[0],
            key = keyBytes(got[1].public_key);
          return reg.pushManager.getSubscription().then((old) => {
            // A subscription made with another server key (a new database) cannot carry ours.
            if (old && sameKey(old.options && old.options.applicationServerKey, key)) return old;
            return (old ? old.unsubscribe() : Promise.resolve()).then(() => {
              return reg.pushManager.subscribe({
                userVisibleOnly: true,
                applicationServerKey: key,
              });
            });
          });
        })
        .then((sub) => {
          const body = sub.toJSON();
          return api(
            "POST",
            route(tableId, seat),
            { endpoint: body.endpoint, keys: body.keys, lang: LANG },
            token,
          );
        })
        .then((device) => {
          set("on", { id: device.id });
        });
    })
    .catch((err) => {
      set("off", { error: errorText(err) });
    });
}

// Only this seat stops; the browser's subscription stays for the site's other tables.
function disable(tableId, seat, token) {
  if (state.id === null) return set("off");
  set("working", { error: "" });
  api("DELETE", route(tableId, seat) + "/" + state.id, undefined, token)
    .then(() => {
      set("off", { id: null });
    })
    .catch((err) => {
      set("on", { error: errorText(err) });
    });
}

let current = null; // {tableId, seat, token}

function draw() {
  if (!box || !current) return;
  const c = current;
  const s = state.status;
  box.innerHTML = "";
  const parts = [h("strong", null, t("push.heading")), " "];
  if (s === "unsupported") parts.push(h("span", { class: "muted", id: "push-why" }, t(state.why)));
  else if (s === "denied")
    parts.push(h("span", { class: "muted", id: "push-why" }, t("push.denied")));
  else if (s === "on") {
    parts.push(
      h("span", { id: "push-on" }, t("push.on")),
      " ",
      h(
        "button",
        {
          type: "button",
          class: "small-btn",
          id: "push-off",
          "data-focus": "push-off",
          onclick() {
            disable(c.tableId, c.seat, c.token);
          },
        },
        t("push.disable"),
      ),
    );
  } else {
    parts.push(
      h(
        "button",
        {
          type: "button",
          class: "small-btn",
          id: "push-enable",
          "data-focus": "push-enable",
          disabled: s === "working" || s === "idle",
          onclick() {
            enable(c.tableId, c.seat, c.token);
          },
        },
        s === "working" ? t("push.working") : t("push.enable"),
      ),
      h("span", { class: "muted push-explain" }, t("push.explain")),
    );
  }
  if (state.error)
    parts.push(
      h(
        "span",
        { class: "error", role: "alert", id: "push-error" },
        t("push.failed", { why: state.error }),
      ),
    );
  box.append.apply(box, parts);
}

// The control for the own seat, put into ``card`` (the notifications card's place for it,
// each time the card is opened); the same element, so its state survives a fold.
export function place(card, tableId, seat, token) {
  if (!card || seat === null || !token) return;
  const key = tableId + "/" + seat + "/" + token;
  if (!box) box = h("p", { class: "push-control", id: "push-control" });
  if (state.key !== key) {
    state = { key, status: "idle", id: null, why: "", error: "" };
    current = { tableId, seat, token };
    draw();
    look(tableId, seat, token);
  }
  card.appendChild(box);
}
