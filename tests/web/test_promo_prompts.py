"""The Bonus Townsmen choices (historian, duchess) reach the player as prompts built from `legal`.

The state is reached by the real engine: seeded random play until seat 0 must answer a
historian or a duchess, then the page is opened on it and the choice made by clicking.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from .fake_table import FakeTable
from .test_table_client import AUTOPLAY, IDLE, commands_sent, open_table, pages_server

pytestmark = pytest.mark.browser
__all__ = ["open_table", "pages_server"]  # fixtures used by name below


def table_waiting_on(choice: str) -> FakeTable:
    """A promo table where seat 0 (the browser) must answer ``choice`` now."""
    for n in range(400):
        fake = FakeTable(seed=f"promo-{choice}-{n}", options={"promo": True})
        fake.names = [None] * len(fake.names)  # everyone random until the choice comes up
        rng = random.Random(n)
        while fake.game.result(fake.state) is None:
            seat = min(fake.game.to_act(fake.state))
            legal = fake.game.legal(fake.state, seat)
            if seat == 0 and any(c["type"] == choice for c in legal):
                fake.names = ["Ada"] + [None] * (len(fake.names) - 1)
                return fake
            fake.state, events = fake.game.apply(fake.state, seat, rng.choice(legal))
            fake.events.extend(events)
    raise AssertionError(f"no seeded game offered seat 0 a {choice} choice")


@pytest.mark.parametrize("choice", ["historian", "duchess"])
def test_a_promo_choice_is_offered_and_sent_on_confirm(open_table: Any, choice: str) -> None:
    fake = table_waiting_on(choice)
    offered = [c for c in fake.game.legal(fake.state, 0) if c["type"] == choice]
    page = open_table(fake)
    assert page.locator(f'[data-focus^="{choice}-"]').count() == len(offered)
    summary = page.evaluate(AUTOPLAY, [choice])
    assert summary, "the page shows no prompt for the choice"
    page.wait_for_function(IDLE)
    sent = commands_sent(fake)[-1]["cmd"]
    assert sent["type"] in (choice, "decline"), sent
    assert sent in offered or sent["type"] == "decline"
