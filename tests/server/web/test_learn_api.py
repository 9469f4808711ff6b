"""The browser's lessons and puzzles over HTTP: a step's moves judged by the
server in the lesson's language, a puzzle served from its view only, and a
try rated (the rating comes from and goes back to the browser)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardtable.core.registry import load, manifest
from cardtable.learn.puzzles import load_puzzles
from cardtable.learn.tutorial import load_tutorial
from cardtable.server.tables.messages import game_part
from tests.server.helpers import running

pytestmark = pytest.mark.timeout(300, method="thread")


def test_a_lesson_step_judges_wrong_illegal_and_right_moves(db_url: str) -> None:
    tutorial = load_tutorial("marshmallow-test", "de")
    step = tutorial.steps[0]  # follow the lead colour (MT-5.3)
    with running(db_url) as server:
        lesson = server.client.get("/api/learn/marshmallow-test?lang=de").json()
        assert lesson["language"] == "de" and len(lesson["steps"]) == len(tutorial.steps)
        assert "expect" not in json.dumps(lesson)
        message = server.client.get("/api/learn/marshmallow-test/1?lang=de").json()
        assert message["view"] == step.position(tutorial.game).view(0).to_json()
        answers: list[dict[str, Any]] = []
        for move in [*(m for m, _ in step.tries), step.expect[0]]:
            body = {"move": move.to_json()}
            answers.append(
                server.client.post("/api/learn/marshmallow-test/1?lang=de", json=body).json()
            )
    assert [a["verdict"] for a in answers] == ["illegal", "right"]
    assert answers[0]["rule"] == "MT-5.3" and step.words["wrong"] in answers[0]["text"]
    # The refusal's kind and facts, for the page to word in German (not the engine's English).
    refusal = answers[0]["refusal"]
    assert refusal["rule"] == "MT-5.3" and refusal["key"] == "MT-5.3.follow"
    assert set(refusal["params"]) >= {"lead", "cards"} and refusal["reason"]
    assert answers[0]["hint"] == step.words["wrong"]
    assert answers[1]["text"] == step.words["right"]
    # the learner played last to the trick, which is complete now
    assert answers[1]["message"]["view"]["tricks"][-1][-1] == {
        "seat": 0,
        **{"card": str(step.expect[0])},
    }


def test_a_bad_step_or_move_is_one_clear_line(db_url: str) -> None:
    with running(db_url) as server:
        missing = server.client.get("/api/learn/marshmallow-test/99")
        bad = server.client.post("/api/learn/marshmallow-test/1", json={"move": "G7"})
    assert missing.status_code == 404 and "step must be 1 to" in missing.json()["error"]
    assert bad.status_code == 400 and "request.move" in bad.json()["error"]


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_a_puzzle_is_served_from_its_view_and_a_try_is_rated(db_url: str, game: str) -> None:
    puzzles = load_puzzles(game)
    with running(db_url) as server:
        served = server.client.get(f"/api/puzzles/{game}/next?rating=1500").json()
        puzzle = puzzles.by_id(served["id"])
        assert served["message"]["view"] == puzzle.view  # the seat's view, nothing more
        assert [m for m in served["message"]["legal"]] == list(puzzle.legal)
        assert "solution" not in json.dumps(served)
        move = puzzle.legal[puzzle.solution[0]]
        player = "1500 350 0.06"  # as the browser keeps it
        result = server.client.post(
            f"/api/puzzles/{game}/{puzzle.id}", json={"move": move, "player": player}
        ).json()
        daily = server.client.get(f"/api/puzzles/{game}/daily").json()
    assert result["solved"] is True and result["player_rating"] > 1500
    assert result["puzzle_rating"] < puzzle.rating
    assert result["theme"] == puzzle.theme
    assert daily["id"] in {p.id for p in puzzles.puzzles}


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_a_puzzles_message_is_the_same_over_any_hidden_cards(game: str) -> None:
    # The served message comes from a state resampled from the view: any other
    # resampling (other hidden cards) gives the same message, so none leaks.
    puzzles = load_puzzles(game)
    engine = load(game, **puzzles.options)
    determinize = manifest(game).part("determinize")
    for puzzle in puzzles.puzzles[:5]:
        view = engine.view_from_json(puzzle.view)
        states = [determinize(engine, view, random.Random(seed)) for seed in (1, 2)]
        assert states[0].view(None) == states[1].view(None)
        others = [s for s in range(engine.num_players) if s != puzzle.seat]
        assert any(states[0].view(s) != states[1].view(s) for s in others)
        one, two = (game_part(engine, state, puzzle.seat) for state in states)
        assert one == two and one["view"] == puzzle.view
