"""web/static/js/conn.js in Chromium: a command is done when its ack arrives, alone or carried
by the document message that brings the page to the command's version."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

# Feeds ``messages`` to a TableConnection that has command c1 pending, with no socket: what it
# would send is recorded instead. ``take`` is how the socket hands them over (a patch waits
# for patch.js, and what comes after it waits behind it); ``receive`` once patch.js is here.
RECEIVE = """async ([messages, how]) => {
  const { TableConnection, loadPatch } = await import("/static/js/conn.js");
  if (how === "receive") await loadPatch();
  const acks = [], sent = [], pending = [], pendingAtDoc = [];
  const conn = new TableConnection("t", "token", {
    onAck: (id) => acks.push(id),
    onDoc: () => pendingAtDoc.push(conn.pending && conn.pending.id),
  });
  conn.sendRaw = (message) => sent.push(message);
  conn.pending = { id: "c1", cmd: { type: "pass" } };
  for (const message of messages) {
    conn[how](message);
    pending.push(conn.pending && conn.pending.id);
  }
  await loadPatch();
  await new Promise((resolve) => setTimeout(resolve, 0));
  clearInterval(conn.pinger);
  return { acks, sent, pending, pendingAtDoc, version: conn.version, doc: conn.doc };
}"""
SNAPSHOT = {"type": "snapshot", "version": 3, "doc": {"n": 1}}


def receive(script_page: Any, *messages: dict[str, Any], how: str = "receive") -> dict[str, Any]:
    result: dict[str, Any] = script_page.evaluate(RECEIVE, [list(messages), how])
    return result


def test_a_patch_carrying_the_ack_is_applied_then_ends_the_command(script_page: Any) -> None:
    ops = [{"op": "replace", "path": "/n", "value": 2}]
    seen = receive(
        script_page, SNAPSHOT, {"type": "patch", "base": 3, "version": 4, "ops": ops, "ack": "c1"}
    )
    assert seen["pending"] == ["c1", None] and seen["acks"] == ["c1"]
    assert seen["doc"] == {"n": 2} and seen["version"] == 4
    # The page draws the new document as no longer in flight (one draw for the message).
    assert seen["pendingAtDoc"] == ["c1", None]


def test_a_snapshot_can_carry_the_ack_too(script_page: Any) -> None:
    seen = receive(script_page, {**SNAPSHOT, "ack": "c1"})
    assert seen["pending"] == [None] and seen["acks"] == ["c1"] and seen["version"] == 3


def test_an_ack_on_a_patch_that_cannot_be_applied_still_counts(script_page: Any) -> None:
    """The command is committed; the page asks for a snapshot for its document."""
    gap = {"type": "patch", "base": 1, "version": 4, "ops": [], "ack": "c1"}
    seen = receive(script_page, SNAPSHOT, gap)
    assert seen["pending"] == ["c1", None] and seen["acks"] == ["c1"]
    # (the first snapshot brought the page online, which resends the pending command)
    assert seen["sent"][-1] == {"type": "snapshot_request"} and seen["version"] == 3


def test_an_ack_alone_ends_the_command_and_another_ids_ack_does_not(script_page: Any) -> None:
    other = {"type": "patch", "base": 3, "version": 4, "ops": [], "ack": "c0"}
    seen = receive(script_page, SNAPSHOT, other, {"type": "ack", "id": "c1", "version": 4})
    assert seen["pending"] == ["c1", "c1", None] and seen["acks"] == ["c0", "c1"]


def test_messages_after_a_patch_wait_for_patch_js_and_keep_their_order(script_page: Any) -> None:
    """The page loads patch.js with the first patch; an ack right behind that patch is not
    counted before the patch that carries the document to the command's version."""
    ops = [{"op": "replace", "path": "/n", "value": 2}]
    patch = {"type": "patch", "base": 3, "version": 4, "ops": ops}
    seen = receive(script_page, SNAPSHOT, patch, {"type": "ack", "id": "c1"}, how="take")
    assert seen["doc"] == {"n": 2} and seen["version"] == 4
    assert seen["acks"] == ["c1"] and seen["pendingAtDoc"] == ["c1", "c1"]


GIVEN_UP = """async () => {
  const { TableConnection, loadPatch } = await import("/static/js/conn.js");
  await loadPatch();
  const seen = [];
  const conn = new TableConnection("t", "old-token", {
    onDoc: (doc) => seen.push(["doc", doc]),
    onAck: (id) => seen.push(["ack", id]),
    onError: (err) => seen.push(["error", err.code]),
    onChat: (msg) => seen.push(["chat", msg.type]),
  });
  conn.sendRaw = () => {};
  conn.receive({ type: "snapshot", version: 3, doc: { you: 1 } });
  clearInterval(conn.pinger);
  conn.close();
  const ops = [{ op: "replace", path: "/you", value: null }];
  conn.take({ type: "patch", base: 3, version: 4, ops });
  conn.take({ type: "snapshot", version: 5, doc: { you: null }, ack: "c9" });
  conn.take({ type: "error", code: "bad_token" });
  conn.take({ type: "chat_history", messages: [] });
  return { seen, version: conn.version };
}"""


def test_a_connection_given_up_hands_the_page_nothing_more(script_page: Any) -> None:
    """The page closes a connection when it opens another (a seat taken back, a new token);
    what the old socket still delivers speaks for the old token and is dropped (a late
    document once put a player who took her seat back in the spectators' chat room)."""
    seen = script_page.evaluate(GIVEN_UP)
    assert seen["seen"] == [["doc", {"you": 1}]] and seen["version"] == 3
