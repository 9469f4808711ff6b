"""The refusals a seat is sent come from the engine's ``explain`` and say
exactly what trying each move on a clone says (the server's former way):
the same moves, reasons and rules, in the same order, byte for byte. After
each move, every seat's ``state`` message carries the new ``seq`` and that
seat's own view of the new state (the per-move cache of those parts is
renewed with the move)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import IllegalMoveError
from cardtable.core.game import Game, State
from cardtable.server.tables.messages import dumps, game_part
from tests.server.helpers import running


def refused_by_trial(game: Game, state: State, seat: int) -> list[dict[str, Any]]:
    """Every move not legal now, tried on a clone, with the error it raised."""
    allowed = {m.index for m in state.legal_moves()}
    out = []
    for index in range(game.num_actions):
        if index in allowed:
            continue
        move = game.move_from_index(index)
        try:
            state.clone().apply_as(seat, move)
        except IllegalMoveError as exc:
            out.append(
                {
                    "move": move.to_json(),
                    "reason": exc.reason,
                    "rule": exc.rule,
                    "key": exc.key,
                    "params": exc.params,
                }
            )
    return out


@pytest.mark.parametrize("name", cardtable.game_names())
def test_refusals_are_the_engines_own_words_and_rules(name: str) -> None:
    game = cardtable.load(name, players=3)
    rng = random.Random(11)
    checked = 0
    for seed in range(4):
        state = game.new_game(random.Random(seed))
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            part = game_part(game, state, seat)
            expected = refused_by_trial(game, state, seat)
            assert dumps({"refused": part["refused"]}) == dumps({"refused": expected})
            assert part["legal"] == [m.to_json() for m in state.legal_moves()]
            checked += len(expected)
            for other in range(game.num_players):  # others are sent no moves at all
                if other != seat:
                    assert game_part(game, state, other)["refused"] == []
            state.apply(rng.choice(state.legal_moves()))
    assert checked > 100  # the games refused something real


def test_after_each_move_every_seat_is_sent_the_new_seq_and_its_own_view(db_url: str) -> None:
    rng = random.Random(8)
    with running(db_url) as server:
        table_id = server.create("marshmallow-test", ["human", "human"])
        tokens = [server.join(table_id, seat) for seat in (0, 1)]
        table = server.table(table_id)
        with (
            server.connect(table_id, tokens[0]) as first,
            server.connect(table_id, tokens[1]) as second,
            server.connect(table_id) as watcher,
        ):
            conns = [first, second, watcher]
            for seq in range(8):
                # Every client's message at this seq, each built for its own seat.
                sent = [c.until_state(lambda m, q=seq: m["seq"] == q) for c in conns]
                for conn, message in zip(conns, sent, strict=True):
                    want = json.loads(dumps(game_part(table.game, table.state, conn.seat)))
                    assert {key: message[key] for key in want} == want, (seq, conn.seat)
                seat = table.state.to_move
                assert seat is not None
                mover = conns[seat]
                mover.move(rng.choice(sent[seat]["legal"]))
                assert mover.until(lambda m: m["type"] in ("ack", "error")) == {
                    "type": "ack",
                    "seq": seq + 1,
                }
