// The table chat's panel (chat.js keeps the chat; this draws it, loaded when the chat is
// first opened): the rooms, the messages with who wrote them and when, mute and (for the
// creator) hide, older messages on request, and the form: Enter sends, Shift+Enter breaks the
// line, quick phrases from a list. Every text a person wrote goes in as text, never markup.
import { api, newId } from "./conn.js";
import { errorText, h, t } from "./i18n.js";
import { mark } from "./pieces.js";
import { chatForm } from "./chat_form.js";

let core = null;
let state = null;

// Muting is this browser's own choice, kept per table.
function setMuted(person, on) {
  const list = core.muted().filter((p) => p !== person);
  if (on) list.push(person);
  localStorage.setItem(core.muteKey(), JSON.stringify(list));
  core.draw();
}

function timeOf(at) {
  const d = new Date(at * 1000);
  return d.toLocaleTimeString(document.documentElement.lang || undefined, {
    hour: "2-digit",
    minute: "2-digit",
  });
}

export function drawPanel(chat) {
  core = chat;
  state = chat.state;
  const panel = document.getElementById("chat");
  panel.hidden = false;
  // On a phone the panel is a sheet from under the top bar down to the prompt's sheet.
  const bar = document.querySelector(".topbar");
  if (bar)
    panel.style.setProperty(
      "--chat-top",
      Math.max(0, bar.getBoundingClientRect().bottom) + 4 + "px",
    );
  let list = document.getElementById("chat-list");
  const stick = !list || list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const typed = document.getElementById("chat-input");
  const draft = typed ? typed.value : "";
  const focused = typed && document.activeElement === typed;
  // A spectator typing their name keeps the focus there while messages arrive.
  const naming =
    document.activeElement && document.activeElement.id === "chat-name"
      ? document.activeElement.value
      : null;
  core.fill(
    panel,
    h(
      "div",
      { class: "chat-head" },
      h("h2", { id: "chat-title" }, t("chat.title")),
      h(
        "button",
        {
          type: "button",
          class: "icon chat-close",
          "aria-label": t("chat.close"),
          onclick() {
            core.setOpen(false);
          },
        },
        "×",
      ),
    ),
    rooms(),
    state.finished
      ? h(
          "button",
          { type: "button", class: "icon chat-download", id: "chat-download", onclick: download },
          t("chat.download"),
        )
      : null,
    messageList(),
    mutedLine(),
    state.error ? h("p", { class: "error", role: "alert" }, state.error) : null,
    chatForm(core, draft),
  );
  list = document.getElementById("chat-list");
  if (stick) list.scrollTop = list.scrollHeight;
  const name = document.getElementById("chat-name");
  if (naming !== null && name) {
    name.value = naming;
    name.focus();
  }
  const input = document.getElementById("chat-input");
  if (input && (focused || state.focus) && !input.disabled) {
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }
  state.focus = false;
}

function readsPlayers() {
  return state.seat !== null || state.isPublic;
}

function rooms() {
  const tabs = [];
  if (readsPlayers()) tabs.push("players");
  tabs.push("spectators");
  if (tabs.length < 2) return h("p", { class: "muted chat-room-note" }, t("chat.room.spectators"));
  return h(
    "div",
    { class: "chat-rooms", role: "tablist", "aria-label": t("chat.rooms") },
    tabs.map((room) => {
      return h(
        "button",
        {
          type: "button",
          role: "tab",
          class: "chat-room",
          id: "chat-room-" + room,
          "aria-selected": state.room === room ? "true" : "false",
          onclick() {
            state.room = room;
            state.error = null;
            core.draw();
          },
        },
        t("chat.room." + room),
      );
    }),
  );
}

function messageList() {
  const shown = state.messages.filter((m) => {
    return m.room === state.room && !core.isMuted(m);
  });
  const items = shown.map((m) => {
    const actions = [];
    if (!core.mine(m))
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "icon chat-act",
            "aria-label": t("chat.mute", { name: core.authorName(m) }),
            title: t("chat.mute", { name: core.authorName(m) }),
            onclick() {
              setMuted(core.personOf(m), true);
            },
          },
          t("chat.mute_short"),
        ),
      );
    if (state.creator && !m.hidden)
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "icon chat-act",
            "aria-label": t("chat.hide"),
            title: t("chat.hide"),
            onclick() {
              hideForEveryone(m.seq);
            },
          },
          t("chat.hide_short"),
        ),
      );
    return h(
      "li",
      {
        class: "chat-msg" + (m.hidden ? " hidden-msg" : "") + (core.mine(m) ? " own" : ""),
        "data-seq": m.seq,
      },
      h(
        "div",
        { class: "chat-meta" },
        h(
          "span",
          { class: "chat-author" + (m.seat === null ? " spectator" : " p" + m.seat) },
          m.seat === null ? null : mark(m.seat),
          " ",
          core.authorName(m),
        ),
        h("time", { class: "chat-time muted" }, timeOf(m.at)),
        actions,
      ),
      h("p", { class: "chat-text" + (m.phrase ? " phrase" : "") }, core.bodyText(m)),
    );
  });
  const pending = Object.keys(state.pending)
    .map((id) => {
      return state.pending[id];
    })
    .filter((p) => {
      return p.type === "chat" && p.room === state.room && state.echoed[p.id] === undefined;
    })
    .map((p) => {
      return h(
        "li",
        { class: "chat-msg own sending" },
        h("div", { class: "chat-meta muted" }, t("chat.sending")),
        h("p", { class: "chat-text" }, p.phrase ? t("chat.phrase." + p.phrase) : p.text),
      );
    });
  const older = state.more
    ? h(
        "li",
        { class: "chat-older" },
        h(
          "button",
          { type: "button", class: "icon", onclick: fetchOlder, disabled: state.fetching },
          t("chat.older"),
        ),
      )
    : null;
  const empty =
    !items.length && !pending.length
      ? h("li", { class: "muted chat-empty" }, t("chat.empty"))
      : null;
  return h(
    "ol",
    { id: "chat-list", class: "chat-list", tabindex: "0", "aria-labelledby": "chat-title" },
    older,
    items,
    pending,
    empty,
  );
}

// How a muted person reads in the line of those muted: a seat's name; a spectator's newest
// name (a spectator is muted by the server's mark of them, whatever name they give).
function mutedLabel(person) {
  const kind = person.slice(0, 2);
  if (kind === "s:") return state.names[Number(person.slice(2))] || person;
  if (kind === "n:") return person.slice(2) || t("chat.spectator");
  const theirs = state.messages.filter((m) => {
    return m.seat === null && core.personOf(m) === person;
  });
  const last = theirs[theirs.length - 1];
  return (last && last.name) || t("chat.spectator");
}

function mutedLine() {
  const list = core.muted();
  if (!list.length) return null;
  return h(
    "p",
    { class: "muted chat-muted" },
    t("chat.muted"),
    " ",
    list.map((person) => {
      const label = mutedLabel(person);
      return h(
        "button",
        {
          type: "button",
          class: "icon chat-act",
          "aria-label": t("chat.unmute", { name: label }),
          onclick() {
            setMuted(person, false);
          },
        },
        label,
        " ✕",
      );
    }),
  );
}

// After the end the chat is saved beside the record, as a file of its own (with our seat
// token: a private table's players' room is only for its seats).
function download() {
  const id = state.tableId;
  api(
    "GET",
    "/api/tables/" + encodeURIComponent(id) + "/chat",
    undefined,
    state.conn && state.conn.token,
  )
    .then((chat) => {
      const link = h("a", {
        href: URL.createObjectURL(
          new Blob([JSON.stringify(chat, null, 1)], { type: "application/json" }),
        ),
        download: "guildhall-" + id + "-chat.json",
      });
      document.body.appendChild(link);
      link.click();
      link.remove();
    })
    .catch((err) => {
      state.error = errorText(err);
      core.draw();
    });
}

function hideForEveryone(seq) {
  core.send({ type: "chat_hide", id: newId(), seq });
}

function fetchOlder() {
  const first = state.messages[0];
  if (!first || !state.conn) return;
  state.fetching = true;
  state.conn.sendRaw({ type: "chat_history", before: first.seq });
  core.draw();
}
