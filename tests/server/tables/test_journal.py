"""A game as stored events: replaying them rebuilds the game exactly, chance
outcomes (MR-4.6 reshuffles) and new rounds included; the events ``apply``
returns are the record's new tail, and a state that returns none is read
from its record."""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable.core.game import Game, State
from cardtable.server.tables.journal import Journal


def dealt(game: Game, seed: int) -> tuple[State, Journal]:
    """A new game and its journal, which holds the first deal."""
    state = game.new_game(random.Random(seed))
    journal = Journal()
    journal.new_events(state)
    return state, journal


def rounds_of(game: Game, journal: Journal) -> object:
    return journal.record(game.name, game.options_json)["rounds"]


def test_events_rebuild_every_position_of_a_long_game_with_reshuffles() -> None:
    # Five players who refresh whenever they may exhaust the draw pile (MR-4.6).
    game = cardtable.load("myrummy-111", players=5, hand_sizes=[14] * 5, rounds=2)
    state = game.new_game(random.Random(0))
    rng = random.Random(0)
    journal = Journal()
    journal.new_events(state)
    for step in range(1500):
        moves = state.legal_moves()
        refresh = [m for m in moves if m.to_json().get("refresh")]
        calm = [m for m in moves if not m.to_json().get("declare")]
        journal.commit(
            journal.applied(state.apply(rng.choice(refresh or calm or list(moves))), state)
        )
        if step % 100 == 0 or state.finished:
            assert rounds_of(game, journal) == state.record()["rounds"]
        if state.finished:
            break
    assert journal.moves == sum(len(r["moves"]) for r in state.record()["rounds"])
    assert any("reshuffle" in json.dumps(data) for kind, data in journal.events if kind == "move")
    resumed = cardtable.load_record(journal.record(game.name, game.options_json))
    assert all(resumed.view(s) == state.view(s) for s in range(5))


def test_a_journal_read_back_counts_what_it_holds() -> None:
    game = cardtable.load("marshmallow-test", players=3, target=60)
    state, journal = dealt(game, 4)
    rng = random.Random(4)
    while state.round_number < 2:
        journal.commit(journal.applied(state.apply(rng.choice(state.legal_moves())), state))
    again = Journal(journal.events)
    assert (again.rounds, again.moves_in_round, again.moves) == (
        journal.rounds,
        journal.moves_in_round,
        journal.moves,
    )
    assert again.rounds == 2 and again.pending(state) == []


def test_a_new_journal_has_written_nothing() -> None:
    journal = Journal()
    assert (journal.events, journal.rounds, journal.moves_in_round, journal.moves) == ([], 0, 0, 0)


def test_a_journal_behind_by_any_number_of_events_catches_up_from_the_record() -> None:
    # Whatever was written last (a deal, a move in the middle of a round), the
    # record's events past it are what is pending: the rest of that round,
    # then every later round's deal and all of its moves.
    game = cardtable.load("marshmallow-test", players=3, target=60)
    state = game.new_game(random.Random(4))
    rng = random.Random(4)
    while state.round_number < 4:
        state.apply(rng.choice(state.legal_moves()))
    events = [
        event
        for r in state.record()["rounds"]
        for event in [("deal", r["deal"]), *(("move", m) for m in r["moves"])]
    ]
    assert sum(kind == "deal" for kind, _ in events) == 4  # three rounds of moves, one just dealt
    for written in range(len(events) + 1):
        assert Journal(events[:written]).pending(state) == events[written:], written


@pytest.mark.parametrize("name", cardtable.game_names())
def test_the_events_of_a_move_are_what_apply_returned_not_a_rebuilt_record(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A move's events cost the same however long the game is (journal.py):
    # the record, which grows with the game, is not rebuilt for them.
    game = cardtable.load(name)
    state, journal = dealt(game, 3)
    rebuilt = []
    record = type(state).record

    def counted(self: State) -> dict[str, object]:
        rebuilt.append(self)
        return record(self)

    monkeypatch.setattr(type(state), "record", counted)
    rng = random.Random(3)
    while not state.finished and journal.moves < 20:
        applied = state.apply(rng.choice(state.legal_moves()))
        assert applied is not None
        new = journal.applied(applied, state)
        assert new == applied.events()
        journal.commit(new)
    assert rebuilt == []


@pytest.mark.parametrize("name", cardtable.game_names())
def test_the_events_apply_returns_are_what_the_record_gained(name: str) -> None:
    # Whatever a state's apply returns, the journal stores what its record
    # gained: every move, the chance drawn with it and each new round's deal.
    game = cardtable.load(name)
    rng = random.Random(7)
    for seed in range(3):
        state, journal = dealt(game, seed)
        while not state.finished:
            applied = state.apply(rng.choice(state.legal_moves()))
            new = journal.applied(applied, state)
            assert new == journal.pending(state)
            journal.commit(new)
        assert rounds_of(game, journal) == state.record()["rounds"]


def test_a_state_whose_apply_returns_nothing_is_read_from_its_record() -> None:
    game = cardtable.load("marshmallow-test", players=2, target=4)
    state, journal = dealt(game, 2)
    rng = random.Random(2)
    while not state.finished:
        state.apply(rng.choice(state.legal_moves()))
        journal.commit(journal.applied(None, state))  # as a bare-protocol plugin answers
    assert journal.rounds > 1  # new rounds' deals came from the record too
    assert rounds_of(game, journal) == state.record()["rounds"]
