"""The server's replay steps (cardtable/server/tables/replay.py, walked by core/walk.py):
every step, round boundaries included, shows the views after that many moves."""

from __future__ import annotations

import random
from typing import Any

import cardtable
from tests.server.helpers import Server, play_out, running


def _finished_duel(server: Server) -> str:
    # A target above the helpers' quick one, so the game has a second round.
    table = server.create("marshmallow-test", ["human", "human"], options={"target": 12})
    tokens = [server.join(table, 0, "Ann"), server.join(table, 1, "Bob")]
    with server.connect(table, tokens[0]) as ann, server.connect(table, tokens[1]) as bob:
        play_out(ann, {0: ann, 1: bob}, random.Random(1))
    return table


def _views_by_hand(record: dict[str, Any], step: int) -> list[dict[str, Any]]:
    # Straight through the rules, no walk: deal each round, apply moves until
    # ``step`` are played (a round that begins just then is dealt).
    game = cardtable.load(record["game"], **record["options"])
    state = game.new_state()
    played = 0
    for round_ in record["rounds"]:
        state.deal(game.deal_from_json(round_["deal"], "deal"))
        for move in round_["moves"]:
            if played == step:
                return [state.view(s).to_json() for s in range(game.num_players)]
            seat, parsed, chance = game.move_from_json(move, "move")
            state.apply_as(seat, parsed, **chance)
            played += 1
    return [state.view(s).to_json() for s in range(game.num_players)]


def test_each_step_around_a_round_boundary_shows_the_views_after_it(db_url: str) -> None:
    with running(db_url) as server:
        table = _finished_duel(server)
        record = server.record(table)
        assert len(record["rounds"]) >= 2  # the duel has a boundary to step over
        boundary = len(record["rounds"][0]["moves"])
        moves = [m for r in record["rounds"] for m in r["moves"]]
        for step in (0, 1, boundary - 1, boundary, boundary + 1, len(moves)):
            got = server.client.get(f"/api/tables/{table}/replay?step={step}&seat=all").json()
            assert got["views"] == _views_by_hand(record, step), step
            assert got["move"] == (moves[step - 1] if step else None)
        # At the boundary the next round is already dealt: seat 0 holds its new hand.
        at = server.client.get(f"/api/tables/{table}/replay?step={boundary}&seat=0").json()
        assert at["view"]["hand"] == record["rounds"][1]["deal"]["hands"][0]
