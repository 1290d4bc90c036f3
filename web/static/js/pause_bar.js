// The pause bar (docs/clocks.md): a proposed pause and who agreed, or the paused table with
// what each seat keeps. table.js loads it with the first table it draws that has either:
// most games never pause.
import { h, t } from "./i18n.js";
import { countdown, serverNow } from "./clocks.js";
import { seatNames } from "./pieces.js";
import { isPerson, live, when } from "./table_acts.js";

// Draw the pause state of ``table`` into ``el``: hidden while nothing is proposed or paused.
export function renderPause(el, table, me, act, seatName) {
  const clock = live(table) ? table.clock : null;
  // Redrawn only on a change (patches arrive often, and the bar is a live region).
  const key = JSON.stringify(
    clock
      ? [
          clock.paused,
          clock.proposal,
          clock.seats,
          me,
          table.seats,
          clock.proposal && isPast(clock.proposal.until),
        ]
      : null,
  );
  if (el.dataset.key === key) return;
  el.dataset.key = key;
  const content =
    clock && clock.paused
      ? pausedBar(clock, table, me, act, seatName)
      : clock && clock.proposal
        ? proposalBar(clock.proposal, table, me, act, seatName)
        : null;
  el.hidden = !content;
  el.innerHTML = "";
  if (content)
    content.forEach((c) => {
      if (c) el.appendChild(c);
    });
}

function pausedBar(clock, table, me, act, seatName) {
  const until = clock.paused.until;
  const held = clock.seats
    .map((entry, seat) => {
      if (!entry.held) return null;
      const left = clock.mode === "untimed" ? null : entry.free + entry.bank;
      return h(
        "li",
        { class: "clock-chip", "data-seat": seat },
        h("span", { class: "clock-name" }, seatName(seat)),
        left === null
          ? null
          : [" ", h("span", { class: "clock-time" }, t("pause.keeps", { left: countdown(left) }))],
      );
    })
    .filter(Boolean);
  return [
    h(
      "p",
      { class: "pause-state", id: "pause-state" },
      h("strong", null, t("pause.paused")),
      " ",
      until ? t("pause.until", { when: when(until) }) : t("pause.no_date"),
    ),
    held.length ? h("ol", { class: "clock-list", "aria-label": t("pause.held") }, held) : null,
    isPerson(table, me)
      ? h(
          "button",
          {
            type: "button",
            class: "small-btn primary",
            id: "pause-resume",
            "data-focus": "pause-resume",
            onclick() {
              act("/resume", {});
            },
          },
          t("pause.resume"),
        )
      : null,
  ];
}

// Whether a proposed resume date has passed: agreeing then is refused (bad_time).
function isPast(until) {
  return !!until && until <= serverNow();
}

function proposalBar(proposal, table, me, act, seatName) {
  const people = (table.seats || [])
    .filter((s) => {
      return isPerson(table, s.seat);
    })
    .map((s) => {
      return s.seat;
    });
  const waiting = people.filter((s) => {
    return proposal.agreed.indexOf(s) < 0;
  });
  const answer = (path) => {
    return () => {
      act("/pause/" + path, { proposal: proposal.id });
    };
  };
  const mine = isPerson(table, me);
  const past = isPast(proposal.until);
  // Past its date a proposal can only be withdrawn or declined: agreeing would be refused.
  const agreed = proposal.agreed.indexOf(me) >= 0;
  return [
    h(
      "p",
      { class: "pause-state", id: "pause-proposal" },
      t(proposal.until ? "pause.proposed_until" : "pause.proposed", {
        name: seatName(proposal.by),
        when: proposal.until ? when(proposal.until) : "",
      }),
      " ",
      h(
        "span",
        { class: "muted" },
        t("pause.agreed", { names: seatNames(proposal.agreed, seatName) }),
        waiting.length
          ? [" · ", t("pause.waiting", { names: seatNames(waiting, seatName) })]
          : null,
      ),
      past ? [" ", h("span", { class: "muted", id: "pause-past" }, t("pause.past"))] : null,
    ),
    mine && !agreed && !past
      ? h(
          "button",
          {
            type: "button",
            class: "small-btn primary",
            id: "pause-agree",
            "data-focus": "pause-agree",
            onclick: answer("agree"),
          },
          t("pause.agree"),
        )
      : null,
    mine && !agreed
      ? h(
          "button",
          {
            type: "button",
            class: "small-btn",
            id: "pause-decline",
            "data-focus": "pause-decline",
            onclick: answer("decline"),
          },
          t("pause.decline"),
        )
      : null,
    mine && proposal.by === me
      ? h(
          "button",
          {
            type: "button",
            class: "small-btn",
            id: "pause-withdraw",
            "data-focus": "pause-withdraw",
            onclick: answer("decline"),
          },
          t("pause.withdraw"),
        )
      : null,
  ];
}
