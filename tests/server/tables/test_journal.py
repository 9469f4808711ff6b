"""A game as stored events: replaying them rebuilds the game exactly, chance
outcomes (MR-4.6 reshuffles) and new rounds included; the events ``apply``
returns are the record's new tail, and a state that returns none is read
from its record."""

from __future__ import annotations

import json
import random

import pytest

import cardtable
from cardtable.core.errors import RecordError
from cardtable.core.game import Game, State
from cardtable.server.tables.journal import (
    DEADLINE,
    DROP,
    END,
    STAND_IN,
    Journal,
    deadline_event,
)


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


# --- deadlines (issue 30, item 5; docs/records.md, "Turn-based tables") ------


def played(game: Game, seed: int, moves: int) -> tuple[State, Journal]:
    """A game ``moves`` moves in, every move written."""
    state, journal = dealt(game, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        journal.commit(journal.applied(state.apply(rng.choice(state.legal_moves())), state))
    return state, journal


def test_a_deadline_event_names_its_place_seat_action_and_times() -> None:
    game = cardtable.load("marshmallow-test", players=3, target=60)
    _, journal = played(game, 5, 4)
    kind, data = deadline_event(journal, 2, STAND_IN, at_ms=7_000, deadline_ms=6_500)
    assert kind == DEADLINE == "deadline"
    assert data == {
        "round": 1,
        "move": 5,  # the next move of the round: the stand-in's
        "seat": 2,
        "action": "stand-in",
        "at_ms": 7_000,
        "deadline_ms": 6_500,
    }


def test_deadlines_are_kept_apart_from_the_rounds_and_read_back_in_order() -> None:
    game = cardtable.load("marshmallow-test", players=3, target=60)
    state, journal = played(game, 6, 3)
    rounds, seq, moves, stored = (
        rounds_of(game, journal),
        journal.seq,
        journal.moves,
        journal.stored,
    )
    events = [
        deadline_event(journal, 1, STAND_IN, at_ms=10, deadline_ms=9),
        deadline_event(journal, 0, DROP, at_ms=20, deadline_ms=19),
    ]
    journal.commit(events)
    assert rounds_of(game, journal) == rounds  # no part of the game's rounds
    assert (journal.seq, journal.moves, journal.stored) == (seq, moves, stored + 2)
    assert journal.deadlines == [data for _, data in events]
    assert journal.pending(state) == []  # the game itself is all written
    again = Journal([*journal.events[:2], events[0], *journal.events[2:], events[1]])
    assert again.deadlines == [data for _, data in events]
    assert again.moves == journal.moves and again.rounds == journal.rounds
    assert journal.ended is None and again.ended is None  # neither ended the game


def test_the_game_ended_by_a_deadline_is_the_end_event() -> None:
    game = cardtable.load("marshmallow-test", players=2, target=60)
    _, journal = played(game, 7, 2)
    stand_in = deadline_event(journal, 0, STAND_IN, at_ms=1, deadline_ms=1)
    end = deadline_event(journal, 1, END, at_ms=2, deadline_ms=2)
    journal.commit([stand_in, end])
    assert journal.ended == end[1]


def test_a_taken_back_stand_in_move_takes_its_deadline_with_it() -> None:
    """The stand-in's move is the record's; taken back, the deadline that made
    it names a move that is no more. A drop at that place, or a stand-in's
    entry of another move, stays."""
    game = cardtable.load("marshmallow-test", players=3, target=60)
    state, journal = played(game, 8, 2)
    earlier = deadline_event(journal, 0, STAND_IN, at_ms=1, deadline_ms=1)
    journal.commit([earlier])
    journal.commit(journal.applied(state.apply(state.legal_moves()[0]), state))
    seat = state.to_move
    assert seat is not None
    made = deadline_event(journal, seat, STAND_IN, at_ms=2, deadline_ms=2)
    dropped = deadline_event(journal, seat, DROP, at_ms=2, deadline_ms=2)
    journal.commit([made, dropped])
    journal.commit(journal.applied(state.apply(state.legal_moves()[0]), state))
    journal.commit([("takeback", {"seat": seat})])
    assert journal.deadlines == [earlier[1], dropped[1]]


def test_a_takeback_that_follows_no_move_of_its_seat_is_refused_in_words() -> None:
    game = cardtable.load("marshmallow-test", players=3, target=60)
    for journal in (Journal(), dealt(game, 9)[1]):  # nothing written; a deal, no move yet
        with pytest.raises(RecordError) as nothing:
            journal.commit([("takeback", {"seat": 0})])
        assert (nothing.value.where, nothing.value.reason) == (
            "takeback",
            "it follows no move of this round",
        )
    _, journal = played(game, 9, 1)
    mover = journal.events[-1][1]["seat"]
    with pytest.raises(RecordError) as other:
        journal.commit([("takeback", {"seat": (mover + 1) % 3})])
    assert (other.value.where, other.value.reason) == (
        "takeback.seat",
        "the move before it is another seat's",
    )


def test_a_takeback_undoes_one_move_and_counts_itself() -> None:
    """The move it follows stands no more; the journal's counts say so, and
    ``seq`` still grows (a take-back is a new number), whatever follows it in
    the same write."""
    game = cardtable.load("marshmallow-test", players=3, target=60)
    _, journal = played(game, 10, 3)
    last = journal.events[-1]
    assert (journal.moves, journal.moves_in_round, journal.takebacks, journal.stored) == (
        3,
        3,
        0,
        4,
    )
    redo = deadline_event(journal, 0, DROP, at_ms=1, deadline_ms=1)
    journal.commit([("takeback", {"seat": last[1]["seat"]}), redo])
    assert (journal.moves, journal.moves_in_round, journal.takebacks) == (2, 2, 1)
    assert (journal.seq, journal.stored) == (4, 6)
    assert journal.events[-1] != last and len(journal.events) == 3  # the deal and two moves
    assert journal.deadlines == [redo[1]]  # what came after the take-back was read too
    again = Journal(journal.events)  # read back: the moves that stand
    assert (again.moves, again.takebacks) == (2, 0)
