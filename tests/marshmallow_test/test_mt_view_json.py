"""Reading a Marshmallow Test view from JSON (the view format, MT-9): each
field's exact range, with the path and the reason the error gives.

The generic refusals (wrong types, missing keys, ...) are tested for every
game in ``tests/conformance/test_view_json_refusals.py``; here is what only
Marshmallow Test knows: 2 to 5 players (MT-2.1), seats 0 … players - 1, hands
of at most 12 cards (MT-3.1), the five colours (MT-1.1), one trick winner per
completed trick, one entry per seat. Each bound is tried just outside
(refused) and just inside (read back unchanged).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cardtable.core.errors import RecordError
from cardtable.games.marshmallow_test import MarshmallowTest
from tests.json_edits import Change, put

N = 3  # seats 0, 1, 2
GAME = MarshmallowTest(players=N)


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    """Seat 1's view in round 1 after two completed tricks and two cards of
    the third (every list filled in)."""
    state = GAME.new_game(random.Random(1))
    for _ in range(8):
        state.apply(state.legal_moves()[0])
    view = state.view(1).to_json()
    assert len(view["tricks"]) == 2 and len(view["current_trick"]) == 2 and view["round_scores"]
    return view


REFUSED: list[tuple[str, Change, str, str]] = [
    # (what, change, where, reason)
    ("players 6", put("players", value=6), "view.players", "expected 2 to 5, got 6"),
    ("players 1", put("players", value=1), "view.players", "expected 2 to 5, got 1"),
    ("seat = players", put("seat", value=N), "view.seat", "expected 0 to 2, got 3"),
    ("dealer -1", put("dealer", value=-1), "view.dealer", "expected 0 to 2, got -1"),
    ("to_move = players", put("to_move", value=N), "view.to_move", "expected 0 to 2, got 3"),
    ("target 0", put("target", value=0), "view.target", "expected 1 or more, got 0"),
    (
        "round_number -1",
        put("round_number", value=-1),
        "view.round_number",
        "expected 0 or more, got -1",
    ),
    (
        "trump",
        put("trump", value="orange"),
        "view.trump",
        "null or one of red, yellow, green, blue, purple, not 'orange'",
    ),
    (
        "ruff",
        put("trump_after_ruff", value="sometimes"),
        "view.trump_after_ruff",
        "one of may, must, not 'sometimes'",
    ),
    ("hand a str", put("hand", value="R1"), "view.hand", "expected a list, got str"),
    (
        "hand card",
        put("hand", 1, value="R13"),
        "view.hand[1]",
        "a card is written like 'G12', not 'R13'",
    ),
    (
        "hand_sizes 13",
        put("hand_sizes", 2, value=13),
        "view.hand_sizes[2]",
        "expected 0 to 12, got 13",
    ),
    (
        "hand_sizes of 2",
        put("hand_sizes", value=[1, 2]),
        "view.hand_sizes",
        "expected 3 entries, got 2",
    ),
    ("tricks a dict", put("tricks", value={}), "view.tricks", "expected a list, got dict"),
    ("trick a str", put("tricks", 1, value="x"), "view.tricks[1]", "expected a list, got str"),
    (
        "played card keys",
        put("tricks", 0, 1, value={"seat": 1}),
        "view.tricks[0][1]",
        'a played card is {"seat": 0, "card": "G12"}',
    ),
    (
        "played seat",
        put("tricks", 1, 2, "seat", value=N),
        "view.tricks[1][2].seat",
        "expected 0 to 2, got 3",
    ),
    (
        "played card",
        put("tricks", 1, 0, "card", value="G0"),
        "view.tricks[1][0].card",
        "a card is written like 'G12', not 'G0'",
    ),
    (
        "current card",
        put("current_trick", 1, "card", value=7),
        "view.current_trick[1].card",
        "a card is written like 'G12', not 7",
    ),
    (
        "current seat",
        put("current_trick", 0, "seat", value=-1),
        "view.current_trick[0].seat",
        "expected 0 to 2, got -1",
    ),
    (
        "current a dict",
        put("current_trick", value={}),
        "view.current_trick",
        "expected a list, got dict",
    ),
    (
        "winners short",
        put("trick_winners", value=[1]),
        "view.trick_winners",
        "expected 2 entries, got 1",
    ),
    (
        "winners long",
        put("trick_winners", value=[1, 1, 1]),
        "view.trick_winners",
        "expected 2 entries, got 3",
    ),
    (
        "winner = players",
        put("trick_winners", 1, value=N),
        "view.trick_winners[1]",
        "expected 0 to 2, got 3",
    ),
    (
        "trick_counts 13",
        put("trick_counts", 0, value=13),
        "view.trick_counts[0]",
        "expected 0 to 12, got 13",
    ),
    ("out of 4", put("out", value=[False] * 4), "view.out", "expected 3 entries, got 4"),
    ("out 0", put("out", 2, value=0), "view.out[2]", "expected true or false, got 0"),
    ("out a str", put("out", value="no"), "view.out", "expected a list, got str"),
    ("scores -1", put("scores", 0, value=-1), "view.scores[0]", "expected 0 or more, got -1"),
    (
        "round_scores a str",
        put("round_scores", value="0"),
        "view.round_scores",
        "expected a list, got str",
    ),
    (
        "round_scores row",
        put("round_scores", 0, value=[0, 0]),
        "view.round_scores[0]",
        "expected 3 entries, got 2",
    ),
    (
        "round_scores -1",
        put("round_scores", 0, 1, value=-1),
        "view.round_scores[0][1]",
        "expected 0 or more, got -1",
    ),
    ("finished", put("finished", value="no"), "view.finished", "expected true or false, got 'no'"),
    ("winners a dict", put("winners", value={}), "view.winners", "expected a list, got dict"),
    ("winner seat", put("winners", value=[0, N]), "view.winners[1]", "expected 0 to 2, got 3"),
    ("winner a bool", put("winners", value=[True]), "view.winners[0]", "expected an int, got True"),
    # a view of another game (MT-10 options) names the option that differs
    (
        "other target",
        put("target", value=21),
        "view.target",
        "21, not 20: a view of a game with other options",
    ),
    (
        "other ruff",
        put("trump_after_ruff", value="must"),
        "view.trump_after_ruff",
        "'must', not 'may': a view of a game with other options",
    ),
]


@pytest.mark.parametrize(
    ("change", "where", "reason"),
    [pytest.param(c, w, r, id=what) for what, c, w, r in REFUSED],
)
def test_mt_view_fields_out_of_range_are_refused_saying_where_and_why(
    base: dict[str, Any], change: Change, where: str, reason: str
) -> None:
    obj = copy.deepcopy(base)
    change(obj)
    with pytest.raises(RecordError) as info:
        GAME.view_from_json(obj)
    assert info.value.where == where
    assert (info.value.reason, str(info.value)) == (reason, f"{where}: {reason}")


ACCEPTED: list[tuple[str, Change]] = [
    ("seat: the last seat", put("seat", value=N - 1)),
    ("seat: a spectator", put("seat", value=None)),
    ("dealer: none yet", put("dealer", value=None)),
    ("dealer: the last seat", put("dealer", value=N - 1)),
    ("round_number 0", put("round_number", value=0)),
    ("trump purple", put("trump", value="purple")),
    ("hand_sizes 12", put("hand_sizes", 2, value=12)),
    ("hand_sizes 0", put("hand_sizes", 2, value=0)),
    ("trick_counts 12", put("trick_counts", 0, value=12)),
    ("trick winner: the last seat", put("trick_winners", 1, value=N - 1)),
    ("played by the last seat", put("current_trick", 0, "seat", value=N - 1)),
    ("winners: the last seat", put("winners", value=[N - 1])),
    ("scores 0", put("scores", 0, value=0)),
]


@pytest.mark.parametrize("change", [pytest.param(c, id=what) for what, c in ACCEPTED])
def test_mt_view_fields_at_their_bounds_read_back_unchanged(
    base: dict[str, Any], change: Change
) -> None:
    obj = copy.deepcopy(base)
    change(obj)
    assert GAME.view_from_json(obj).to_json() == obj


def test_mt_10_a_view_reads_back_only_in_a_game_with_its_options() -> None:
    """MT-10: a view of a 4-player game, or of target 1 (the smallest), reads
    back in its own game; another game names the option that differs."""
    for game in (MarshmallowTest(players=4), MarshmallowTest(players=N, target=1)):
        view = game.new_game(random.Random(0)).view(0)
        assert game.view_from_json(view.to_json()) == view
        with pytest.raises(RecordError) as info:
            GAME.view_from_json(view.to_json())
        key = "players" if game.num_players != N else "target"
        assert info.value.where == f"view.{key}"
        assert "a view of a game with other options" in info.value.reason
