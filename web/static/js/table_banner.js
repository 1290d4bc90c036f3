// The banner (whose turn, the notice, a lost seat's way back), what a screen reader is told,
// nudges for this player, and the turn signal (the tab's title, a flash, a beep).
import * as follow from "./follow.js";
import { h, t } from "./i18n.js";
import { $ } from "./page.js";
import { ruleLink } from "./pieces.js";
import { reclaim } from "./table_conn.js";
import { logText, seatChangeLine } from "./table_log.js";
import { mySeat, replaceChildren, state } from "./table_state.js";

export function renderBanner(renderer, ctx) {
  const el = $("banner");
  const paused = !state.replay && ctx.table && ctx.table.clock && ctx.table.clock.paused;
  const info = state.replay
    ? { text: t("replay.banner", { step: state.replay.step, of: state.replay.steps }), mine: false }
    : paused
      ? { text: t("pause.banner"), mine: false }
      : renderer.status(ctx.game, ctx);
  // Redraw only on change (patches arrive often). The banner is not a live region: #announce
  // speaks only what concerns this player; refusals are alerts.
  const key = JSON.stringify([info, state.notice, ctx.busy]);
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  el.className = "banner" + (info.mine ? " mine" : "") + (state.notice ? " has-notice" : "");
  replaceChildren(el, [
    h("span", { class: "banner-text", id: "banner-text" }, info.text),
    state.notice
      ? h(
          "span",
          { class: "notice " + state.notice.kind, role: "alert" },
          state.notice.text,
          ruleLink(state.notice.rule),
        )
      : null,
    // Once the game is over there is no seat to take back (the server says "finished").
    state.lost && ctx.table && ctx.table.status === "playing"
      ? h(
          "button",
          { type: "button", class: "primary small-btn", id: "reclaim-seat", onclick: reclaim },
          t("seat.reclaim"),
        )
      : null,
    ctx.busy ? h("span", { class: "sending" }, t("table.sending")) : null,
  ]);
}

// A notice that the table moved past says nothing true any more: a refusal because the table
// was paused, once it has resumed; "your seat link can take it back", once the game is over.
// (The refusal may come before the document that shows the pause: it stays until then.)
// While the game goes on, the one about a lost seat also says why a bot plays it.
let pausedDrawn = false;

export function dropStaleNotice(table) {
  const paused = !!(table.clock && table.clock.paused);
  if (pausedDrawn && !paused && state.notice && state.notice.code === "paused") state.notice = null;
  pausedDrawn = paused;
  if (!state.notice || state.notice.code !== "seat_lost") return;
  const why = table.status === "playing" && state.lost ? lostBecause(table, state.lost.seat) : null;
  state.notice.text =
    table.status === "finished" ? t("seat.lost_end") : t("seat.lost") + (why ? " " + why : "");
}

// The seat log's line that gave ``seat`` to a bot (the creator's or its player's hand-over, a
// second timeout in a row, the others' vote), the latest; null if none is shown.
const HANDED_OVER = ["bot_took_over", "timeout_handover", "vote_handover"];

function lostBecause(table, seat) {
  let found = null;
  (table.seat_log || []).forEach((c) => {
    if (c.seat === seat && HANDED_OVER.indexOf(c.type) >= 0) found = c;
  });
  return found ? seatChangeLine(found).text : null;
}

// A nudge for this player (docs/clocks.md) arriving while the page is open: said in the
// banner, with the turn's beep. One already in the log when the page opened is only logged.
let seatLogSeen = null;

export function noticeNudges(table) {
  const entries = table.seat_log || [];
  // The document carries the newest entries only; seatLogSeen counts the whole log.
  const skipped = table.seat_log_skipped || 0;
  const me = mySeat();
  if (seatLogSeen !== null && me !== null) {
    entries.slice(Math.max(0, seatLogSeen - skipped)).forEach((e) => {
      if (e.type !== "nudged" || e.seat !== me) return;
      state.notice = { kind: "info", text: t("nudge.you", { by: e.by_name || "" }) };
      beep();
    });
  }
  seatLogSeen = skipped + entries.length;
}

// What a screen reader hears (polite): the player's own turn, once, and what just happened
// to this player; never other seats' turns or "Sending…" (the banner says those visually).
const announced = { turn: null, log: null };

export function announce(status, summaryTitle, since) {
  const parts = summaryTitle ? [summaryTitle] : [];
  const me = mySeat();
  const all = state.doc.log || [];
  if (announced.log !== null && me !== null) {
    all.slice(announced.log).forEach((e) => {
      const p = e.params || {};
      if (p.seat === me || p.victim === me) parts.push(logText(e));
    });
  }
  announced.log = all.length;
  const mine = !!status.mine;
  // A turn is told once: a new list of legal commands is a new turn, even when the turn
  // comes straight back to this player (nothing is told while a command is in flight).
  const turn = mine ? JSON.stringify((state.doc.game && state.doc.game.legal) || []) : null;
  if (mine && turn !== announced.turn && !(state.conn && state.conn.busy())) {
    announced.turn = turn;
    parts.push(status.text);
    // What the others did since this player's last move, as the digest card shows it.
    const told = follow.digestShown(since);
    if (told.length) parts.push(t("digest.title") + " " + told.map(logText).join("; "));
  }
  if (!mine) announced.turn = null;
  if (parts.length) $("announce").textContent = parts.join(". ");
}

let wasMyTurn = false;

// ---- turn signal: tab title, flash, sound -----------------------------------------
export function updateTurnSignal(renderer) {
  const mine = !state.replay && renderer.isMyTurn(state.doc.game, mySeat());
  document.title =
    (mine ? "● " + t("table.your_turn_short") + " — " : "") +
    (state.doc.table.title || "Guildhall");
  if (mine && !wasMyTurn) {
    const banner = $("banner");
    banner.classList.remove("flash");
    void banner.offsetWidth; // restart the CSS animation
    banner.classList.add("flash");
    beep();
  }
  wasMyTurn = mine;
}

// ---- the turn's beep, and the button that turns it on and off (kept in this browser) ----

let soundOn = localStorage.getItem("gh_sound") !== "off";
let audio = null;

function beep() {
  if (!soundOn || !audio) return;
  try {
    const osc = audio.createOscillator(),
      gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch (err) {
    audio = null;
  }
}

// Browsers allow audio only after a user gesture; create the context on the first one.
function unlockAudio() {
  if (audio || !window.AudioContext) return;
  try {
    audio = new AudioContext();
  } catch (err) {
    audio = null;
  }
}

function renderSoundToggle() {
  const b = $("sound-toggle");
  b.textContent = soundOn ? "♪" : "♪̸";
  b.setAttribute("aria-pressed", String(soundOn));
  b.title = t(soundOn ? "table.sound_on" : "table.sound_off");
  b.setAttribute("aria-label", b.title);
}

// The button's state as this browser keeps it; the audio starts with the first gesture.
export function startSound() {
  renderSoundToggle();
  $("sound-toggle").addEventListener("click", () => {
    soundOn = !soundOn;
    localStorage.setItem("gh_sound", soundOn ? "on" : "off");
    renderSoundToggle();
  });
  document.addEventListener("pointerdown", unlockAudio, { once: true });
  document.addEventListener("keydown", unlockAudio, { once: true });
}
