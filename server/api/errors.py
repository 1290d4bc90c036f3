"""The HTTP status of each error code: the one place a refusal becomes a status.

The services below (``tables``, ``chat``, ``notify``, ``timekeeping``) refuse with a code and
a message (``ServiceError``, the clock model's ``ClockError`` passed on as one) and know
nothing of HTTP; the websocket answers with the code alone. ``tests/server/test_error_statuses.py``
checks that every code the server raises has its status here.
"""

from __future__ import annotations

BAD_REQUEST = 400  # the request itself is wrong; the same request will fail again

_BY_STATUS: dict[int, tuple[str, ...]] = {
    400: (
        "bad_bot", "bad_bots", "bad_clock", "bad_email", "bad_message", "bad_seat", "bad_seats",
        "bad_subscription", "bad_time", "bad_webhook", "own_seat", "players_only",
        "private_endpoint", "private_webhook", "room_closed", "too_long", "unknown_chat",
        "unknown_phrase", "unknown_push_service",
    ),
    401: ("no_token",),
    403: ("bad_token", "invite_required", "not_creator", "not_your_seat", "seat_lost"),
    404: ("bad_step", "unknown_link", "unknown_subscription", "unknown_table"),
    409: (
        # the table (or the address) is not in a state where the request can be done
        "already_started", "already_voted", "conflict", "email_off", "finished", "moved_on",
        "no_proposal", "not_a_learning_table", "not_days", "not_finished", "not_paused",
        "not_stand_in", "not_started", "not_to_act", "not_your_turn", "paused",
        "player_present", "proposal_open", "seat_kept", "seat_taken", "seats_open",
        "table_full", "timed", "too_many_devices", "too_soon", "untimed",
    ),
    410: ("link_expired",),
    429: (
        "mail_budget", "rate_limited", "too_many_links", "too_many_own_bot_tables",
        "too_many_tables", "too_many_unjoined_tables",
    ),
    503: ("email_not_sent", "server_full", "too_many_bot_tables"),
}  # fmt: skip


def _by_code(groups: dict[int, tuple[str, ...]]) -> dict[str, int]:
    table: dict[str, int] = {}
    for status, codes in groups.items():
        for code in codes:
            if code in table:
                raise ValueError(f"{code!r} has two statuses, {table[code]} and {status}")
            table[code] = status
    return table


STATUS: dict[str, int] = _by_code(_BY_STATUS)
"""Error code → HTTP status."""


def status_of(code: str) -> int:
    """The HTTP status a refusal with ``code`` is answered with (400 for a code not listed)."""
    return STATUS.get(code, BAD_REQUEST)
