"""Take-backs (issue 29, item 5; docs/server.md, "Take-backs"): who may ask
when, the state they return to (the record replayed without the move), a
``seq`` that only grows, and the stored events read back across a restart."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable.core.game import State
from cardtable.server.tables.facts import SeatFacts, TableFacts
from cardtable.server.tables.journal import Journal
from cardtable.server.tables.messages import ended_rounds, round_end
from cardtable.server.tables.table import Refused, Table, TakebackRequest, build_table
from cardtable.server.tables.takeback import (
    adopt_takeback,
    takeback_event,
    undone_state,
)
from tests.server.helpers import QUICK, running

MT = "marshmallow-test"


def table_of(
    name: str, rated: bool = False, seed: int = 1, players: int = 2, **options: Any
) -> Table:
    game = cardtable.load(name, players=players, **(options or QUICK[name]))
    state = game.new_game(random.Random(seed))
    journal = Journal()
    journal.new_events(state)
    seats = [SeatFacts(i, "human", name=f"P{i}") for i in range(players)]
    facts = TableFacts(
        "t1", name, game.options_json, False, None, 0, "easy", "playing", 0, seats, rated=rated
    )
    return build_table(facts, game, state, journal)


def play(table: Table, pick: int = 0) -> int:
    """Play the ``pick``-th legal move (the last one if fewer); the seat that moved."""
    seat = table.state.to_move
    assert seat is not None
    moves = [m for m in table.state.legal_moves() if not m.to_json().get("declare")]
    after, new = table.prepare(seat, moves[min(pick, len(moves) - 1)])
    table.adopt(after, new)
    return seat


def views(state: State, n: int) -> list[Any]:
    return [state.view(s).to_json() for s in [None, *range(n)]]


def refusal(table: Table, seat: int | None) -> str | None:
    with pytest.raises(Refused) as caught:
        undone_state(table, seat, random.Random(0))
    return caught.value.key


def take_back(table: Table, seat: int) -> None:
    before = undone_state(table, seat, random.Random(0))
    adopt_takeback(table, before, [takeback_event(seat)])


def test_a_take_back_returns_every_seat_to_what_it_saw_before_the_move() -> None:
    table = table_of(MT, players=3)
    play(table)
    seen, events, seq = views(table.state, 3), list(table.journal.events), table.seq
    ann = play(table, pick=1)
    take_back(table, ann)
    assert views(table.state, 3) == seen
    assert table.journal.events == events
    # It equals the record without the move, replayed.
    replayed = cardtable.load_record(table.journal.record(MT, table.game.options_json))
    assert views(replayed, 3) == seen
    # The seq is a new number: past the taken-back move's.
    assert table.seq == seq + 2
    assert table.state.to_move == ann


def test_seq_only_grows_across_moves_and_take_backs() -> None:
    table = table_of(MT)
    seen = [table.seq]
    for _ in range(3):
        seat = play(table)
        seen.append(table.seq)
        take_back(table, seat)
        seen.append(table.seq)
        play(table, pick=1)
        seen.append(table.seq)
    assert seen == sorted(set(seen))
    assert table.journal.moves == 3 and table.journal.takebacks == 3


def test_a_rated_table_never_allows_one() -> None:
    table = table_of(MT, rated=True)
    play(table)
    assert refusal(table, 0) == "takeback.rated"


def test_only_the_last_move_and_only_by_its_mover() -> None:
    table = table_of(MT)
    assert refusal(table, 0) == "takeback.nothing"
    ann = play(table)
    bob = play(table)
    assert refusal(table, ann) == "takeback.moved"  # another seat moved since
    assert refusal(table, None) == "takeback.spectator"
    undone_state(table, bob, random.Random(0))  # the last mover may ask


def test_one_request_at_a_time() -> None:
    table = table_of(MT)
    ann = play(table)
    table.takeback = TakebackRequest(ann, table.seq, {1}, 0)
    assert refusal(table, ann) == "takeback.pending"


def test_no_take_back_past_a_new_deal() -> None:
    table = table_of(MT, target=60)
    # Play until a move ends a round: its deal follows it in the journal.
    while table.journal.rounds == 1:
        seat = play(table)
    assert table.journal.events[-1][0] == "deal"
    assert refusal(table, seat) == "takeback.deal"


def test_no_take_back_of_a_move_that_drew_on_chance() -> None:
    # A refresh that reshuffles the discards (MR-4.6) stores the new order as chance.
    game = cardtable.load("myrummy-111", players=5, hand_sizes=[14] * 5, rounds=2)
    seats = [SeatFacts(i, "human") for i in range(5)]
    facts = TableFacts(
        "t", game.name, game.options_json, False, None, 0, "easy", "playing", 0, seats, rated=False
    )
    state = game.new_game(random.Random(0))
    journal = Journal()
    journal.new_events(state)
    table = build_table(facts, game, state, journal)
    rng = random.Random(0)
    while "reshuffle" not in str(table.journal.events[-1][1]):
        moves = table.state.legal_moves()
        refresh = [m for m in moves if m.to_json().get("refresh")]
        calm = [m for m in moves if not m.to_json().get("declare")]
        seat = table.state.to_move
        assert seat is not None and not table.state.finished
        after, new = table.prepare(seat, rng.choice(refresh or calm))
        table.adopt(after, new)
    assert refusal(table, seat) == "takeback.chance"


def test_a_move_that_showed_the_asker_a_hidden_card_stays() -> None:
    # MyRummy 111: taking from the middle may turn up the draw pile's next
    # card; taking that back would let the asker see it and choose again.
    table = table_of("myrummy-111")
    rng = random.Random(2)
    found: dict[str | None, set[str]] = {}  # refusal key -> the kinds of move it met
    for _ in range(40):
        seat = play(table, pick=rng.randrange(4))
        kind = "take" if "take" in table.journal.events[-1][1] else "place"
        try:
            undone_state(table, seat, random.Random(0))
            key = None
        except Refused as exc:
            key = exc.key
        found.setdefault(key, set()).add(kind)
    # Some takes showed a card, others did not; placing a card never shows one.
    assert found == {None: {"take", "place"}, "takeback.hidden": {"take"}}


def test_the_round_summary_forgets_a_taken_back_move() -> None:
    # The summary's walk through the events (messages.RoundEnds) had walked
    # the move; a new move since leaves as many events as it walked.
    table = table_of(MT, target=60)
    ann = play(table)
    assert round_end(table, 0) is None
    take_back(table, ann)
    play(table, pick=1)
    while table.journal.rounds == 1:
        play(table)
    ended = ended_rounds(table.game, table.journal.events)[-1]
    assert round_end(table, 0) == ended.view(0).to_json()


def test_the_journal_reads_a_take_back_back_the_same() -> None:
    table = table_of(MT)
    play(table)
    ann = play(table)
    stored = [*table.journal.events, takeback_event(ann)]
    take_back(table, ann)
    again = Journal(stored)
    assert again.events == table.journal.events
    assert (again.seq, again.stored, again.moves) == (table.seq, 4, 1)


def test_a_take_back_after_no_move_is_a_broken_record() -> None:
    with pytest.raises(cardtable.RecordError):
        Journal([("deal", {}), takeback_event(0)])


def test_a_take_back_survives_a_restart_on_sqlite(db_url: str) -> None:
    with running(db_url) as server:
        table_id = server.create(MT, ["human", "human"], rated=False)
        tokens = [server.join(table_id, 0, "Ann"), server.join(table_id, 1, "Bob")]
        with server.connect(table_id, tokens[0]) as ann, server.connect(table_id, tokens[1]) as bob:
            first = ann.until_state(lambda m: m["to_move"] == 0)
            ann.move(first["legal"][0])
            ann.until_state(lambda m: m["seq"] == 1)
            ann.send({"type": "takeback"})
            bob.until_state(lambda m: m["takeback"] is not None)
            bob.send({"type": "takeback-answer", "accept": True})
            done = ann.until_state(lambda m: m["seq"] == 2)
        kept = server.table(table_id)
        seen = views(kept.state, 2)
    with running(db_url) as server:
        with server.connect(table_id, tokens[0]) as ann:
            assert ann.state is not None
            assert ann.state["seq"] == 2 and ann.state["view"] == done["view"]
        again = server.table(table_id)
        assert views(again.state, 2) == seen
        assert again.journal.takebacks == 1 and again.journal.moves == 0
        assert again.seq == 2
