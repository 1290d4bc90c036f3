// The waiting room, before the game starts: the seats, the invite link, joining, the start.
// Loaded by table_draw.js for a table still open: a game under way never needs it.
import { api, rememberTable } from "./conn.js";
import { h, t } from "./i18n.js";
import { $ } from "./page.js";
import { pollTable, reclaim, reconnect, startWaitingPoll } from "./table_conn.js";
import { mySeat, replaceChildren, seatName, showNotice, state } from "./table_state.js";

export function renderWaitingRoom(table) {
  const room = $("waiting-room");
  room.hidden = false;
  const me = mySeat();
  // Polling redraws the room; skip unchanged redraws so a name being typed survives.
  const key = JSON.stringify([
    table.seats,
    me,
    state.notice,
    state.invite,
    state.lost,
    table.public,
  ]);
  if (room.dataset.key === key) return startWaitingPoll();
  room.dataset.key = key;
  const free = table.seats.filter((s) => {
    return !s.name && !s.bot;
  });
  const open =
    free.length ||
    (state.invite &&
      table.seats.some((s) => {
        return s.bot && !s.stand_in;
      }));
  const canJoin = me === null && !state.lost && open && (state.invite || table.public);
  // The invite secret stays in the fragment: browsers never send it to a server.
  const link =
    location.origin + "/t/" + state.tableId + (state.invite ? "#invite=" + state.invite : "");
  replaceChildren(room, [
    h("h1", null, t("wait.title")),
    state.invite ? h("p", null, t("wait.invite")) : null,
    state.invite
      ? h(
          "div",
          { class: "copy-row" },
          h("input", {
            readonly: true,
            value: link,
            id: "wait-link",
            "aria-label": t("lobby.copy"),
          }),
          h(
            "button",
            {
              type: "button",
              onclick() {
                copyText(link);
              },
            },
            t("lobby.copy"),
          ),
        )
      : null,
    h("p", { class: "muted", id: "wait-access" }, t(table.public ? "wait.public" : "wait.private")),
    h(
      "ol",
      { class: "seat-roll" },
      table.seats.map((s) => {
        return h(
          "li",
          null,
          h("span", { class: "seat-no" }, t("lobby.seat_n", { n: s.seat + 1 })),
          " ",
          s.stand_in
            ? t("seat.stand_in", { kind: t("bot." + s.bot), name: s.name })
            : s.name || (s.bot ? t("bot." + s.bot) : t("lobby.free_seat")),
          s.seat === me ? " (" + t("lobby.you") + ")" : "",
        );
      }),
    ),
    canJoin ? joinForm() : null,
    state.lost
      ? h(
          "button",
          { type: "button", class: "primary", id: "reclaim-seat", onclick: reclaim },
          t("seat.reclaim"),
        )
      : null,
    me === 0
      ? h(
          "button",
          { type: "button", class: "primary", id: "start-game", onclick: startGame },
          t("lobby.start"),
        )
      : h("p", { class: "muted" }, t("wait.for_start", { name: seatName(0) })),
    state.notice ? h("p", { class: "error", role: "alert" }, state.notice.text) : null,
  ]);
  startWaitingPoll();
}

function joinForm() {
  const typed = $("join-name") ? $("join-name").value : localStorage.getItem("gh_name") || "";
  const input = h("input", {
    id: "join-name",
    "data-focus": "join-name",
    required: true,
    maxlength: 24,
    value: typed,
  });
  return h(
    "form",
    {
      class: "join",
      onsubmit(ev) {
        ev.preventDefault();
        localStorage.setItem("gh_name", input.value.trim());
        const body = { name: input.value.trim() };
        if (state.invite) body.invite = state.invite;
        api("POST", "/api/tables/" + state.tableId + "/join", body)
          .then((res) => {
            state.token = res.token;
            location.hash = "seat=" + state.token;
            rememberTable({
              id: state.tableId,
              seat: res.seat,
              token: state.token,
              title: state.doc.table.title || state.doc.table.game,
            });
            reconnect();
          })
          .catch(showNotice);
      },
    },
    h("label", null, t("lobby.your_name"), " ", input),
    h("button", { type: "submit", class: "primary" }, t("wait.join")),
  );
}

function startGame() {
  api("POST", "/api/tables/" + state.tableId + "/start", {}, state.token)
    .then(pollTable)
    .catch(showNotice);
}

function copyText(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
}
