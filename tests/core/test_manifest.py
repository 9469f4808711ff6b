"""A manifest checks itself when it is made, naming the field that cannot
work, and says each option's default as data (issue 19, part 4)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from cardtable.cli.game_options import default_text
from cardtable.core.manifest import (
    UNSTATED,
    BotEntry,
    Derived,
    GameManifest,
    ManifestError,
    OptionHelp,
)

GOOD: dict[str, Any] = {
    "name": "odd-trick",
    "title": "Odd Trick",
    "game": "ct_odd.game:OddTrick",
    "players": (2, 3),
    "default_players": 2,
}


def made(**changes: Any) -> GameManifest:
    return GameManifest(**{**GOOD, **changes})


def test_a_good_manifest_is_made() -> None:
    m = made(options=(OptionHelp("players", "2 or 3", default=2),), package="ct_odd", rules="r.md")
    assert m.option("players") is not None and m.has("rules")


@pytest.mark.parametrize(
    ("changes", "where", "why"),
    [
        ({"name": "-odd"}, "name", "not starting with '-'"),
        ({"name": "odd trick"}, "name", "letters, digits"),
        ({"title": ""}, "title", "non-empty string"),
        ({"game": "ct_odd.game.OddTrick"}, "game", '"module:attr"'),
        ({"players": [2, 3]}, "players", "tuple of distinct player counts"),
        ({"players": (2, 2)}, "players", "distinct"),
        ({"players": (0, 2)}, "players", "player counts"),
        ({"default_players": 4}, "default_players", "4 is not one of players (2, 3)"),
        ({"options": [OptionHelp("a", "b")]}, "options", "tuple of OptionHelp"),
        ({"options": ("rounds",)}, "options[0]", "expected an OptionHelp, got str"),
        (
            {"options": (OptionHelp("a", "x"), OptionHelp("a", "y"))},
            "options[1].name",
            "a new option name, got 'a'",
        ),
        ({"options": (OptionHelp("a", "x", default={1, 2}),)}, "options[0].default", "JSON"),
        (
            {"options": (OptionHelp("players", "2 or 3", default=3),)},
            "options[0].default",
            "3 differs from default_players 2",
        ),
        ({"options": (OptionHelp("a", "x", from_file="read"),)}, "options[0].from_file", "module"),
        ({"bots": {"fast": "ct_odd.bots:Fast"}}, "bots['fast']", "expected a BotEntry"),
        ({"bots": {"fast": BotEntry("Fast", "?")}}, "bots['fast'].target", "module:attr"),
        (
            {
                "bots": {
                    "a": BotEntry("m:A", "?", search=True),
                    "b": BotEntry("m:B", "?", search=True),
                }
            },
            "bots",
            "one search bot at most, got a, b",
        ),
        (
            {"bots": {"a": BotEntry("m:A", "?", levels=("grandmaster",))}},
            "bots['a'].levels",
            "unknown level 'grandmaster'; the levels are easy, medium, hard, expert",
        ),
        ({"bots": {"a": BotEntry("m:A", "?", levels="hard")}}, "bots['a'].levels", "a tuple"),  # type: ignore[arg-type]
        (
            {
                "bots": {
                    "a": BotEntry("m:A", "?", levels=("hard",)),
                    "b": BotEntry("m:B", "?", levels=("expert", "hard")),
                }
            },
            "bots",
            "a level is seated by one bot at most, got hard twice",
        ),
        ({"determinize": "ct_odd.determinize"}, "determinize", '"module:attr"'),
        ({"rules": "rules.md"}, "rules", "package= is not set"),
        ({"web_client": "web/board.js"}, "web_client", "package= is not set"),
        ({"web_client": "/abs/board.js", "package": "ct_odd"}, "web_client", "inside the package"),
        ({"package": "ct-odd"}, "package", "dotted package name"),
    ],
)
def test_a_field_that_cannot_work_is_refused_by_name(
    changes: dict[str, Any], where: str, why: str
) -> None:
    with pytest.raises(ManifestError) as caught:
        made(**changes)
    assert caught.value.where == where
    assert why in caught.value.reason
    assert str(caught.value).startswith(f"manifest {caught.value.game!r}: {where}: ")
    assert pickle.loads(pickle.dumps(caught.value)) == caught.value  # workers send it back


def test_option_defaults_are_data_for_the_command_line_and_the_lobby() -> None:
    target = OptionHelp("target", "points that end the game", default=20)
    ruff = OptionHelp("trump_after_ruff", "may or must", default="may")
    rounds = OptionHelp("rounds", "rounds to play (null: to the target)", default=None)
    sizes = OptionHelp("hand_sizes", "cards per seat", default=Derived("12 each"))
    old = OptionHelp("speed", "how fast")  # a plugin written before defaults were data
    assert [o.has_default for o in (target, ruff, rounds, sizes, old)] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert old.default is UNSTATED
    assert target.to_json() == {
        "name": "target",
        "help": "points that end the game",
        "from_file": False,
        "default": 20,
    }
    assert rounds.to_json()["default"] is None  # null is a default, unlike unstated
    assert sizes.to_json()["default_how"] == "12 each" and "default" not in sizes.to_json()
    assert set(old.to_json()) == {"name", "help", "from_file"}
    assert [default_text(o) for o in (target, ruff, rounds, sizes, old)] == [
        "20",
        "may",
        "null",
        "12 each",
        None,
    ]
