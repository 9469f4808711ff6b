"""Duplicate comparison: round starts from real games, both bots on the same seeds."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.arena.duplicate import (
    Contender,
    DuplicateSpec,
    Outcome,
    PairResult,
    pair_schedule,
    parse_contender,
    round_start,
    run_duplicate,
    seat_outcome,
)
from cardtable.arena.run import ArenaError
from cardtable.bots import Budget

RANDOM = Contender("random")


def spec(game: str = "marshmallow-test", players: int = 3, **changes: Any) -> DuplicateSpec:
    fields: dict[str, Any] = {"x": RANDOM, "y": RANDOM, "field": RANDOM, "source": RANDOM}
    fields.update(changes)
    return DuplicateSpec(game, (("players", players),), **fields)


@pytest.mark.parametrize(
    ("text", "contender"),
    [
        ("heuristic", Contender("heuristic")),
        ("pimc@1000", Contender("pimc", Budget(iterations=1000))),
        ("medium@0.1s", Contender("medium", Budget(seconds=0.1))),
        ("hard@250ms", Contender("hard", Budget(seconds=0.25))),
    ],
)
def test_a_bot_is_named_with_an_optional_budget(text: str, contender: Contender) -> None:
    assert parse_contender(text) == contender


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("pimc@", "write NAME, NAME@ITERATIONS"),
        ("pimc@1.5", "iterations are a whole number"),
        ("pimc@0", "iterations are a whole number"),
        ("pimc@0ms", "a time above 0"),
        ("@100", "write NAME"),
    ],
)
def test_a_malformed_budget_is_refused_saying_how_to_write_it(text: str, words: str) -> None:
    with pytest.raises(ArenaError, match=words) as caught:
        parse_contender(text)
    assert repr(text) in str(caught.value)


@pytest.mark.parametrize(
    ("scores", "winners", "seat", "outcome"),
    [
        ([20, 7, 7, 11], [0], 0, Outcome(1.0, 1.0)),
        ([20, 7, 7, 11], [0], 3, Outcome(0.0, 2 / 3)),
        ([20, 7, 7, 11], [0], 1, Outcome(0.0, 0.0)),  # a tie for last is ahead of nobody
        ([20, 20, 7, 11], [0, 1], 1, Outcome(0.5, 2 / 3)),  # a shared win: half, ahead of two
        ([60, 60, 10], [1], 0, Outcome(0.0, 0.5)),  # MR-7.1 broke the tie: second
    ],
)
def test_a_seats_outcome_follows_the_finishing_order(
    scores: list[int], winners: list[int], seat: int, outcome: Outcome
) -> None:
    assert seat_outcome(scores, winners, seat) == outcome


def test_the_tested_seat_turns_and_every_pair_has_its_own_seeds() -> None:
    tasks = pair_schedule(seed=1, pairs=8, seats=4)
    assert [t.seat for t in tasks] == [0, 1, 2, 3, 0, 1, 2, 3]
    for name in ("source_seed", "pick_seed", "deal_seed", "bot_seed"):
        assert len({getattr(t, name) for t in tasks}) == 8, name


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_round_starts_are_first_decisions_of_rounds_drawn_from_whole_games(game: str) -> None:
    sampled = spec(game)
    starts = [round_start(sampled, task) for task in pair_schedule(2, 12, 3)]
    assert all(s.moves_in_round == 0 and not s.finished for s in starts)
    assert len({s.round_number for s in starts}) > 1  # not always the first round
    whole = spec(game, first_rounds=True)
    assert {round_start(whole, task).round_number for task in pair_schedule(2, 12, 3)} == {1}


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_the_same_bot_in_both_plays_of_a_pair_plays_the_same_game(game: str) -> None:
    # Random bots draw from their generators at every decision, and the later
    # deals from the state's: identical outcomes need identical seeds.
    results = run_duplicate(spec(game, players=2), seed=3, pairs=12)
    assert [r.x for r in results] == [r.y for r in results]
    assert len({r.x for r in results}) > 1  # the outcomes do vary between pairs


def test_a_seed_fixes_the_pairs_whatever_the_jobs() -> None:
    heuristic = spec(x=Contender("heuristic"), source=Contender("heuristic"))
    assert run_duplicate(heuristic, seed=4, pairs=6, jobs=2) == run_duplicate(
        heuristic, seed=4, pairs=6
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_sees_every_finished_pair_in_order_and_the_last_call_is_the_result(
    jobs: int,
) -> None:
    seen: list[list[PairResult]] = []
    results = run_duplicate(spec(), seed=5, pairs=4, jobs=jobs, progress=seen.append)
    assert seen[-1] == results
    assert [len(done) for done in seen] == list(range(1, 5))  # one pair a chunk here
    for done in seen:  # pairs in pair order, each as it is in the result
        assert [r.index for r in done] == sorted(r.index for r in done)
        assert all(r == results[r.index] for r in done)


def test_a_longer_run_keeps_its_first_pairs() -> None:
    assert run_duplicate(spec(), seed=6, pairs=5)[:3] == run_duplicate(spec(), seed=6, pairs=3)


@pytest.mark.parametrize(
    ("changes", "pairs", "words"),
    [
        ({"x": Contender("nobody")}, 2, "--x: unknown bot 'nobody'"),
        ({"field": Contender("nobody")}, 2, "--field: unknown bot 'nobody'"),
        ({}, 0, "--pairs 0: play at least 1 pair"),
    ],
)
def test_a_request_that_cannot_be_played_is_refused_before_any_game(
    changes: dict[str, Any], pairs: int, words: str
) -> None:
    with pytest.raises(ArenaError, match=words):
        run_duplicate(spec(**changes), seed=1, pairs=pairs)
