"""Hand-made records with an obvious blunder are called blunders; forced moves never get a class.

The records (tests/data/analysis) say in their ``description`` field what
happens; ``replay`` ignores that field.
"""

from __future__ import annotations

import json

from cardtable.analysis.run import analyze_record
from tests.analysis.conftest import play, record_text, to_text

BUDGET = 0.05


def _last(text: str, seat: int) -> tuple[str, str]:
    analyses = analyze_record(text, seats=[seat], budget=BUDGET, seed=1)
    last = analyses[-1]
    assert last.fair is not None and last.label is not None
    best = last.fair.groups[last.fair.best]
    return last.label, " = ".join(str(last.decision.legal[i]) for i in best.moves)


def test_mt_6_2_ducking_the_trick_that_wins_lets_the_opponent_out_a_blunder() -> None:
    label, best = _last(record_text("mt_lets_the_opponent_out.json"), seat=0)
    assert label == "blunder"
    assert best == "Y12"


def test_mt_6_2_taking_that_trick_instead_is_the_best_move() -> None:
    record = json.loads(record_text("mt_lets_the_opponent_out.json"))
    record["rounds"][0]["moves"][-1] = {"seat": 0, "play": "Y12"}
    label, best = _last(json.dumps(record), seat=0)
    assert (label, best) == ("best", "Y12")


def test_mr_6_2_declaring_a_hand_just_unsorted_is_a_blunder() -> None:
    label, best = _last(record_text("mr_declares_a_broken_hand.json"), seat=0)
    assert label == "blunder"
    assert best.startswith("place 6 right")  # 60 between 59 and 68: the hand stays sorted


def test_forced_moves_are_never_classified() -> None:
    # Marshmallow Test: following with a single card of the lead colour is forced (MT-5.3).
    state = play("marshmallow-test", 3, seed=4)
    analyses = analyze_record(to_text(state), budget=0.01, seed=0)
    forced = [a for a in analyses if a.decision.forced]
    assert forced, "the game should have at least one forced decision"
    assert all(a.label is None and a.fair is None for a in forced)
    assert all(a.label is not None for a in analyses if not a.decision.forced)
