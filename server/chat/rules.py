"""What a chat message may be, decided in one place: its length, its characters, the quick
phrases, the rooms, and how many a person may send.

A message only carries what a person typed (or a quick phrase's id): the server adds their
seat, the name the table shows for it and the time, never anything of the game.
"""

from __future__ import annotations

import time
import unicodedata
from typing import Final, Literal

from server.tables import ServiceError
from server.tables.data import hash_token

MAX_TEXT: Final = 500  # characters (code points) a message may hold
HISTORY: Final = 200  # messages a reader is sent on hello, and per request for older ones
MAX_NAME: Final = 40  # a spectator's chosen name, as a seat's

Room = Literal["players", "spectators"]
ROOMS: Final = ("players", "spectators")

# The quick phrases, by id: sent as ids and shown in each reader's language (the page's
# dictionaries carry ``chat.phrase.<id>``). Adding one is adding an id here and four strings.
PHRASES: Final = (
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
)

# Per person (a seat's owner, or a spectator's address) and table: bursts of BURST messages,
# then one every 1/RATE seconds. A person chats; a flood is refused. Each process keeps a
# bucket per person (``Limiter``: a flood stops before the database), and the write itself
# replays the person's messages of the last LOOKBACK seconds from the database
# (``allows``), which every process shares: a person writing through two processes (two
# tabs behind a proxy) is held to one limit.
RATE: Final = 0.5
BURST: Final = 5
LOOKBACK: Final = 60.0


def clean_text(text: str) -> str:
    """The text as stored: line ends made ``\\n``, outer blank space dropped. Refuses empty
    text ('bad_message'), more than MAX_TEXT characters ('too_long') and control or
    direction-override characters, which could hide text or turn a line around
    ('bad_message'). HTML is not refused: it is text, and every reader shows it as text."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not text:
        raise ServiceError("bad_message", "a chat message needs some text")
    if len(text) > MAX_TEXT:
        raise ServiceError("too_long", f"a chat message holds at most {MAX_TEXT} characters")
    for char in text:
        if char in "\n\t":
            continue
        if unicodedata.category(char) in ("Cc", "Cf") and char not in "\u200d\u200c":
            # Cf holds the bidirectional overrides (U+202E) and invisible marks; ZWJ/ZWNJ
            # stay, they join emoji and some scripts' letters.
            raise ServiceError(
                "bad_message", "chat text may not hold control or formatting characters"
            )
    return text


def check_phrase(phrase: str) -> str:
    if phrase not in PHRASES:
        known = ", ".join(PHRASES)
        raise ServiceError("unknown_phrase", f"no quick phrase {phrase!r} (known: {known})")
    return phrase


def clean_name(name: str | None) -> str:
    """A spectator's name as shown: blank space collapsed, at most MAX_NAME characters
    ('' when none: the page says "Spectator")."""
    name = " ".join((name or "").split())[:MAX_NAME]
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in name):
        raise ServiceError("bad_message", "a name may not hold control or formatting characters")
    return name


def person_key(secret_key: str, table_id: str, person: str) -> str:
    """What the database keeps of who wrote a message at a table, for the rate limit (and,
    cut short, a spectator's ``who``): a keyed hash of the table and ``person`` (a token
    hash, or ``a:`` and a spectator's address), never the address; unlike at another table."""
    return hash_token(secret_key, f"chat-person:{table_id}:{person}")


def allows(times: list[float], now: float) -> bool:
    """Whether a bucket that saw messages at ``times`` (ascending, the last LOOKBACK seconds;
    full before the first) has room for one more at ``now``.

    >>> allows([0.0] * BURST, 0.5), allows([0.0] * BURST, 2.0)
    (False, True)
    """
    tokens, last = float(BURST), times[0] if times else now
    for at in times:
        tokens = min(float(BURST), tokens + max(0.0, at - last) * RATE)
        last = max(last, at)
        tokens -= 1  # below zero too: what another process let through still counts
    return min(float(BURST), tokens + max(0.0, now - last) * RATE) >= 1


class Bucket:
    """Token bucket: BURST messages at once, then RATE a second."""

    def __init__(self, now: float) -> None:
        self.tokens, self.at = float(BURST), now

    def take(self, now: float) -> bool:
        self.tokens = min(float(BURST), self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Limiter:
    """The buckets of every person chatting in this process, by (table, person)."""

    KEEP: Final = 2000  # buckets kept before full ones are forgotten

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, str], Bucket] = {}

    def allow(self, table_id: str, person: str) -> bool:
        now = time.monotonic()
        if len(self._buckets) >= self.KEEP:
            # A bucket refilled to the brim says nothing a new one would not.
            full = BURST / RATE
            self._buckets = {k: b for k, b in self._buckets.items() if now - b.at < full}
        bucket = self._buckets.setdefault((table_id, person), Bucket(now))
        return bucket.take(now)
