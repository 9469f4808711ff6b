"""A duplicate tournament of bots (issue 31, item 4): each table's deal is the
arena's game on the same deal and bot seeds, the same at every table, and the
command line says bad input in one line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardtable.arena.duplicate import Contender
from cardtable.arena.runner import play_one
from cardtable.cli.main import app
from cardtable.core.seeds import derive_seed
from cardtable.tournament.duplicate import TournamentSpec, run_tournament, standings

ENTRANTS = ("heuristic", "random", "heuristic", "random")


@pytest.mark.parametrize("game", ["marshmallow-test", "myrummy-111"])
def test_every_table_plays_the_arenas_game_on_the_same_deal(game: str) -> None:
    spec = TournamentSpec(game, (("players", 2),), tuple(map(Contender, ENTRANTS)), seed=11)
    tables = run_tournament(spec, deals=2)
    assert sorted((t.deal, t.table) for t in tables) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for t in tables:
        arena = play_one(
            game,
            {"players": 2},
            [ENTRANTS[e] for e in t.seats],
            derive_seed(11, "deal", t.deal),
            bot_seed=derive_seed(11, "bots", t.deal),
        )
        assert t.points == arena.round_scores[0]  # the first round of the arena's game
    # Both tables of a deal held the same cards: a seat's percentages sum to 100.
    for deal in (0, 1):
        played = [t for t in tables if t.deal == deal]
        for seat in (0, 1):
            assert sum(t.percentages[seat] for t in played) == 100.0
    ranked = standings(spec, tables)
    assert sum(s.total for s in ranked) == pytest.approx(50.0 * 2 * 4)  # the middle on average
    assert run_tournament(spec, deals=2, jobs=2) == tables  # the same with two processes


runner = CliRunner()


def test_the_command_prints_standings_and_json() -> None:
    args = ["tournament", "marshmallow-test", "--bots", ",".join(ENTRANTS), "-p", "2"]
    result = runner.invoke(app, [*args, "--deals", "2", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["schema"] == "cardtable-tournament/1" and document["seed"] == 4
    assert len(document["tables"]) == 4 and len(document["standings"]) == 4
    text = runner.invoke(app, [*args, "--deals", "2", "--seed", "4"]).stdout
    assert "heuristic #1" in text and "matchpoints" in text


@pytest.mark.parametrize(
    ("bots", "words"),
    [
        ("heuristic,random,heuristic", "3 entrants for tables of 2: enter a multiple of 2"),
        ("heuristic,random", "at least two tables (4)"),
        ("heuristic,nobody,random,random", "nobody"),
    ],
)
def test_bad_entrants_are_refused_in_one_line(bots: str, words: str) -> None:
    result = runner.invoke(app, ["tournament", "marshmallow-test", "--bots", bots, "-p", "2"])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "Traceback" not in result.output
