"""The Norenberc bots choose exactly what they chose before their policy was made cheaper.

The digests below were recorded (``python -m tests.bots.norenberc_trace``) with the policy as
it stood before the play-outs were optimized; every part (the greedy commands, the search's
candidates, the gains, the play-out move, determinizations, evaluations, short searches) must
still give the very same answers on these games. A change that is meant to change how the
bots play records them anew, and says so.
"""

from __future__ import annotations

import pytest

from .norenberc_trace import GAMES, trace

RECORDED: dict[tuple[int, str, bool], dict[str, str]] = {
    (2, "trace-2-0", False): {
        "greedy": "344c6166657dcb0a",
        "ranked": "c858c45bcdccadcf",
        "gains": "fd9b1d219fb10349",
        "rollout": "400f90469696f8fb",
        "determinize": "584a41e47c5a8a07",
        "evaluate": "fdf17b90d29a84cf",
        "mcts": "ef239527573da504",
    },
    (2, "trace-2-1", True): {
        "greedy": "2443eeef140fdfd9",
        "ranked": "d4f40865557fb1a2",
        "gains": "63db5011106e528c",
        "rollout": "c4f769679b23d67f",
        "determinize": "3c9349d6078adb3a",
        "evaluate": "d680a5b52636fd59",
        "mcts": "2b7a6dc66dc54e20",
    },
    (3, "trace-3-0", False): {
        "greedy": "e8a86d17b6cde7fe",
        "ranked": "5ea96992ae6c22d4",
        "gains": "a9182ca551d9e078",
        "rollout": "749d5a0d28ead155",
        "determinize": "5fa427711174eea2",
        "evaluate": "a543af010769fca7",
        "mcts": "c112a3c3f356dfdf",
    },
    (3, "trace-3-1", True): {
        "greedy": "fbdda225d2078efb",
        "ranked": "5c99452e06fd4710",
        "gains": "358f095da7f51d29",
        "rollout": "3ac5e597fb215662",
        "determinize": "f88d33bc875dbe0e",
        "evaluate": "65ec8552fb9ca117",
        "mcts": "a5313d42eda1103e",
    },
    (4, "trace-4-0", False): {
        "greedy": "d5c2933e14f41188",
        "ranked": "88e065a95f502792",
        "gains": "2401692cb1eb1a3a",
        "rollout": "985c2e1993917415",
        "determinize": "9c96b7566c2dbe55",
        "evaluate": "9775c557bfb24352",
        "mcts": "d569b76ba9cdc22d",
    },
    (4, "trace-4-1", True): {
        "greedy": "3c26f3af778afa2f",
        "ranked": "7819d16917d0c00a",
        "gains": "5e7bfa06b934fad2",
        "rollout": "82cdc4a772547528",
        "determinize": "a3434999ddb65a7f",
        "evaluate": "c03bbc1ab72bcd74",
        "mcts": "8060e34e31718322",
    },
    (5, "trace-5-0", False): {
        "greedy": "2f556e1355a0a34f",
        "ranked": "8731223b8a3ae9cf",
        "gains": "804ab9025c28ef56",
        "rollout": "5663666326762169",
        "determinize": "870271d133970ba5",
        "evaluate": "b384f096831b8f2d",
        "mcts": "b90941b85f8f94e8",
    },
    (5, "trace-5-1", True): {
        "greedy": "dc708de5f97def4d",
        "ranked": "0a994abb24dbb768",
        "gains": "96e187669a226803",
        "rollout": "ef107eab3f185012",
        "determinize": "2ad75b926d8b8c9c",
        "evaluate": "71faa5898ab2f071",
        "mcts": "170c229c7df54128",
    },
}


@pytest.mark.parametrize(("seats", "seed", "promo"), GAMES)
def test_the_bots_answer_as_recorded(seats: int, seed: str, promo: bool) -> None:
    assert trace(seats, seed, promo) == RECORDED[(seats, seed, promo)]
