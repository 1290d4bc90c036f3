// The table chat's form, below the panel's messages (chat_panel.js): Enter sends, Shift+Enter
// breaks the line, quick phrases from a list; the spectators' room's switch for the creator and
// a spectator's name.
import { newId } from "./conn.js";
import { h, t } from "./i18n.js";

const PHRASES = [
  "hello",
  "good_luck",
  "good_game",
  "well_played",
  "my_turn_soon",
  "back_tonight",
  "thanks_for_waiting",
  "sorry_slow",
  "thinking",
  "rematch",
];
const MAX_TEXT = 500;

function spectatorName() {
  return localStorage.getItem("gh_chat_name") || "";
}

// A message in the room shown, as this seat or spectator (a spectator's name with it).
function post(core, fields) {
  const state = core.state;
  const msg = { type: "chat", id: newId(), room: state.room };
  Object.keys(fields).forEach((k) => {
    msg[k] = fields[k];
  });
  if (state.seat === null && state.room === "spectators") msg.name = spectatorName();
  state.error = null;
  core.send(msg);
}

export function chatForm(core, draft) {
  const state = core.state;
  const room = state.room;
  if (room === "players" && state.seat === null)
    return h("p", { class: "muted chat-room-note" }, t("chat.players_only"));
  const closed = room === "spectators" && !state.spectatorsOpen;
  const parts = [];
  if (state.creator && room === "spectators") {
    parts.push(
      h(
        "label",
        { class: "chat-switch" },
        h("input", {
          type: "checkbox",
          id: "chat-spectators-open",
          checked: state.spectatorsOpen,
          onchange(ev) {
            core.send({ type: "chat_room", id: newId(), spectators: ev.target.checked });
          },
        }),
        " ",
        t("chat.room_open"),
      ),
    );
  }
  if (closed) {
    parts.push(h("p", { class: "muted chat-room-note" }, t("chat.room_closed")));
    if (!state.creator) return h("div", { class: "chat-form" }, parts);
  }
  if (state.seat === null && room === "spectators") {
    parts.push(
      h(
        "label",
        { class: "chat-name" },
        t("chat.your_name"),
        " ",
        h("input", {
          id: "chat-name",
          maxlength: "40",
          autocomplete: "nickname",
          value: spectatorName(),
          onchange(ev) {
            localStorage.setItem("gh_chat_name", ev.target.value.trim());
          },
        }),
      ),
    );
  }
  const input = h("textarea", {
    id: "chat-input",
    rows: "2",
    maxlength: String(MAX_TEXT),
    "aria-label": t("chat.input"),
    placeholder: t("chat.placeholder"),
    disabled: closed,
    onkeydown(ev) {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
        ev.preventDefault();
        submit(core);
      }
    },
  });
  input.value = draft;
  const phrases = h(
    "select",
    {
      id: "chat-phrases",
      "aria-label": t("chat.phrases"),
      disabled: closed,
      onchange(ev) {
        if (!ev.target.value) return;
        post(core, { phrase: ev.target.value });
        ev.target.value = "";
      },
    },
    h("option", { value: "" }, t("chat.phrases")),
    PHRASES.map((id) => {
      return h("option", { value: id }, t("chat.phrase." + id));
    }),
  );
  parts.push(
    input,
    h(
      "div",
      { class: "chat-send-row" },
      phrases,
      h(
        "button",
        {
          type: "button",
          class: "primary",
          id: "chat-send",
          disabled: closed,
          onclick: () => submit(core),
        },
        t("chat.send"),
      ),
    ),
  );
  return h("div", { class: "chat-form" }, parts);
}

function submit(core) {
  const input = document.getElementById("chat-input");
  const text = input.value.trim();
  if (!text) return;
  post(core, { text });
  input.value = "";
  core.draw();
}
