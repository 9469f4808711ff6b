"""A game as stored events: replaying them rebuilds the game exactly, chance
outcomes (MR-4.6 reshuffles) and new rounds included."""

from __future__ import annotations

import json
import random

import cardtable
from cardtable.server.journal import Journal, record_of


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
        state.apply(rng.choice(refresh or calm or list(moves)))
        journal.new_events(state)
        if step % 100 == 0 or state.finished:
            rebuilt = record_of(game.name, game.options_json, journal.events)
            assert rebuilt["rounds"] == state.record()["rounds"]
        if state.finished:
            break
    assert journal.moves == sum(len(r["moves"]) for r in state.record()["rounds"])
    assert any("reshuffle" in json.dumps(data) for kind, data in journal.events if kind == "move")
    resumed = cardtable.load_record(record_of(game.name, game.options_json, journal.events))
    assert all(resumed.view(s) == state.view(s) for s in range(5))


def test_a_journal_read_back_counts_what_it_holds() -> None:
    game = cardtable.load("marshmallow-test", players=3, target=60)
    state = game.new_game(random.Random(4))
    journal = Journal()
    journal.new_events(state)
    rng = random.Random(4)
    while state.round_number < 2:
        state.apply(rng.choice(state.legal_moves()))
        journal.new_events(state)
    again = Journal(journal.events)
    assert (again.rounds, again.moves_in_round, again.moves) == (
        journal.rounds,
        journal.moves_in_round,
        journal.moves,
    )
    assert again.rounds == 2 and again.pending(state) == []
