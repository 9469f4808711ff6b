"""The same storage code against a real PostgreSQL server (asyncpg)."""

from __future__ import annotations

import random

import pytest

import cardtable
from tests.server.helpers import play_moves, play_out, running

pytestmark = pytest.mark.timeout(300, method="thread")


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_games_are_stored_and_survive_a_restart_on_postgresql(postgres_url: str, game: str) -> None:
    rng = random.Random(6)
    with running(postgres_url) as server:
        people = server.create(game, ["human", "easy", "human"])
        tokens = {0: server.join(people, 0, "Ann"), 2: server.join(people, 2, "Cleo")}
        robots = server.create(game, ["easy", "random"])
        with server.connect(people, tokens[0]) as ann:
            before = play_moves(ann, 1, rng, wait_turn=False)
        with server.connect(robots) as watcher:
            done = watcher.until_state(lambda m: m["finished"])
    with running(postgres_url) as server:
        with server.connect(people, tokens[0]) as ann, server.connect(people, tokens[2]) as cleo:
            assert ann.state is not None and ann.state["seq"] >= before["seq"]
            final = play_out(ann, {0: ann, 2: cleo}, rng)
        assert final["finished"]
        for table, scores in ((people, final["scores"]), (robots, done["scores"])):
            outcome = cardtable.replay(server.record(table))
            assert outcome.error is None and outcome.state is not None
            assert list(outcome.state.scores) == scores
