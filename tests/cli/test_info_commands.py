"""`cardtable games`, `cardtable bots GAME` and `cardtable rules GAME [RULE]`
(issue 10, items 2, 5 and 7; issue 8: the command line names no game)."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardtable.bots import EASY_SEARCH, LEVELS, bot_entries, level_for
from cardtable.bots.ratings import display_rating, published
from cardtable.cli import info_cmd
from cardtable.cli.main import app
from cardtable.core.registry import manifest, manifests
from cardtable.core.rulebook import RULE_NUMBER, parse_rules, rulebook

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
GAMES = list(manifests())


def test_games_lists_name_title_players_and_default() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    for game in manifests().values():
        line = next(x for x in result.stdout.splitlines() if x.startswith(game.name + " "))
        assert game.title in line and f"(default {game.default_players})" in line
        for option in game.options:
            assert f"-o {option.name}=" in result.stdout


def test_games_shows_each_options_default_from_the_manifest() -> None:
    out = runner.invoke(app, ["games"]).stdout
    lines = out.splitlines()

    def line(option: str) -> str:
        (found,) = [x for x in lines if x.split()[:2] == ["-o", f"{option}=…"]][:1]
        return found

    assert line("trump_after_ruff").endswith("may or must trump in after a ruff [default: may]")
    assert line("target").endswith("[default: 20]")  # Marshmallow Test's, listed first (MT-10)
    assert line("rounds").endswith("[default: null]")  # MR-9: to the target
    assert line("hand_sizes").endswith("[default: 12 for each player, MR-9]")
    assert "(default" not in " ".join(o.help for m in manifests().values() for o in m.options)


@pytest.mark.parametrize("name", GAMES)
def test_a_search_bot_shows_the_levels_budgets_as_its_time(name: str) -> None:
    """Only the levels that seat it in this game: both games' hard and expert
    seat a stronger search of their own (their manifests' ``levels``)."""
    search = manifest(name).search_bot
    if search is None:
        pytest.skip(f"{name} has no search bot of its own")
    (line,) = [x for x in info_cmd.bots_text(name).splitlines() if x.split()[:1] == [search]]
    own = {"marshmallow-test": "0.1 s (medium)", "myrummy-111": "0.1 s (medium)"}
    every = "0.1 s (medium), 0.5 s (hard), 2 s (expert)"
    assert line.endswith(f"time per move: as budgeted: {own.get(name, every)}")


@pytest.mark.parametrize("name", GAMES)
def test_bots_gives_one_line_per_bot_with_strength_time_and_extra(name: str) -> None:
    result = runner.invoke(app, ["bots", name])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for bot, entry in bot_entries(name).items():
        (line,) = [x for x in lines if x.split()[:1] == [bot]]
        assert entry.summary in line
        time = entry.time_per_move or ("as budgeted" if entry.search else "instant")
        assert entry.strength in line and f"time per move: {time}" in line
        assert (f"needs the {entry.extra} extra" in line) == (entry.extra is not None)
    for level in LEVELS:  # each level the game has (a game without a search bot may have none)
        offered = level_for(level, name) is not None
        assert any(x.split()[:1] == [level] for x in lines) == offered, level


def test_a_plugin_games_levels_name_the_bot_they_really_seat() -> None:
    """The resampling fixture has no heuristic and no search bot of its own:
    every level seats the generic ``search``, easy at a fifth of medium."""
    from tests.bots.plugin import NAME, registered

    with registered():
        result = runner.invoke(app, ["bots", NAME])
    assert result.exit_code == 0, result.output
    levels = {
        x.split()[0]: x.split(None, 1)[1]
        for x in result.stdout.split("Levels:")[1].splitlines()
        if x
    }
    assert levels == {
        "easy": f"search: {EASY_SEARCH.summary}",
        "medium": f"search: {LEVELS['medium'].summary} (the default)",
        "hard": f"search: {LEVELS['hard'].summary}",
        "expert": f"search: {LEVELS['expert'].summary}",
    }
    assert EASY_SEARCH.summary.startswith("searches 0.02 s a move")


@pytest.mark.parametrize("installed", [True, False])
def test_bots_says_whether_an_extra_is_installed(
    installed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(info_cmd, "extra_installed", lambda extra: installed)
    name, bot = next(
        (g, b) for g in GAMES for b, e in bot_entries(g).items() if e.extra is not None
    )
    extra = bot_entries(name)[bot].extra
    (line,) = [x for x in info_cmd.bots_text(name).splitlines() if x.split()[:1] == [bot]]
    if installed:
        assert line.endswith(f"needs the {extra} extra (installed)")
    else:
        assert line.endswith(
            f'needs the {extra} extra, NOT installed: python3 -m pip install -e ".[{extra}]"'
        )


# --------------------------------------------------------------------- rules
@pytest.mark.parametrize("name", GAMES)
def test_rules_prints_the_whole_text_or_one_rule(name: str) -> None:
    if not manifest(name).has("rules"):
        pytest.skip(f"{name} has no rules text")
    book = rulebook(manifest(name))
    whole = runner.invoke(app, ["rules", name])
    assert whole.exit_code == 0 and whole.stdout == book.text.rstrip("\n") + "\n"
    number = next(n for n in book.parts if "." in n)
    one = runner.invoke(app, ["rules", name, number.lower()])
    assert one.exit_code == 0
    assert one.stdout.startswith(f"**{number}**")
    assert one.stdout.count("**" + book.prefix + "-") == 1  # that rule only


def test_an_unknown_rule_is_an_error_listing_close_ones() -> None:
    unknown = "MR-4" + ".9"  # split, or the test below would find it cited
    result = runner.invoke(app, ["rules", "myrummy-111", unknown])
    assert result.exit_code == 2
    assert f"myrummy-111 has no rule '{unknown}'; close ones: MR-4, MR-4.1" in result.output


@pytest.mark.parametrize("name", GAMES)
def test_rules_are_numbered_section_by_section_without_gaps(name: str) -> None:
    if not manifest(name).has("rules"):
        pytest.skip(f"{name} has no rules text")
    parts = list(rulebook(manifest(name)).parts)
    sections = [n for n in parts if "." not in n]
    prefix = sections[0].split("-")[0]
    assert sections == [f"{prefix}-{i}" for i in range(1, len(sections) + 1)]
    for section in sections:
        items = [n for n in parts if n.startswith(section + ".")]
        assert items == [f"{section}.{i}" for i in range(1, len(items) + 1)]


def test_every_rule_number_cited_anywhere_resolves() -> None:
    books = {rulebook(m).prefix: rulebook(m) for m in manifests().values() if m.has("rules")}
    files = [*(ROOT / "cardtable").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]
    files += [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    cited = 0
    for path in files:
        for match in RULE_NUMBER.finditer(path.read_text(encoding="utf-8")):
            book = books.get(match[1])
            if book is None:
                continue  # not a rule (UTF-8, …)
            cited += 1
            assert match[0] in book.parts, f"{path.relative_to(ROOT)} cites {match[0]}"
    assert cited > 100


def test_docs_link_every_games_rules_and_the_package_ships_them() -> None:
    index = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    links = set(re.findall(r"\]\((\.\./[^)]+)\)", index))
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = data["package-data"]
    built_in = [m for m in manifests().values() if m.game.startswith("cardtable.games.")]
    assert len(built_in) >= 2  # a plugin's rules are its own package's business
    for game in built_in:
        assert game.package is not None and game.rules is not None
        inside = Path(*game.package.split(".")) / game.rules
        assert f"../{inside.as_posix()}" in links, game.name
        assert (ROOT / inside).is_file()
        shipped = [
            p
            for pkg, globs in patterns.items()
            for p in globs
            if game.package.startswith(pkg)
            and fnmatch(inside.relative_to(Path(*pkg.split("."))).as_posix(), p)
        ]
        assert shipped, f"{inside} is not package data"
    assert "docs/rules.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_parse_rules_keeps_a_rules_variant_paragraph_with_it() -> None:
    text = "# T\n\n## XX-1 One\n\n**XX-1.1** a\n\n**Variant** b\n\n**XX-1.2** c\n\n## Notes\nd\n"
    parts = parse_rules(text)
    assert list(parts) == ["XX-1", "XX-1.1", "XX-1.2"]
    assert parts["XX-1.1"] == "**XX-1.1** a\n\n**Variant** b"
    assert "d" not in parts["XX-1.2"]


def test_rules_at_the_game_prompt() -> None:
    typed = "rules MT-5.4\nrules\nrules 99\nquit\n"
    result = runner.invoke(app, ["play", "marshmallow-test", "--bots", "random"], input=typed)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # rich wraps long lines at 80 columns
    assert "cardtable rules marshmallow-test" in out
    assert "**MT-5.4** Trumping in." in out
    assert "Sections: MT-1 Components, MT-2 Players and seats" in out
    assert "marshmallow-test has no rule 'MT-" + "99'" in out  # split: not a citation
    assert "Game stopped" in out


# ----------------------------------------------------------- no game names
CLI_FILES = [
    "main.py",
    "common.py",
    "commands.py",
    "game_options.py",
    "info_cmd.py",
    "play.py",
    "replay_cmd.py",
    "arena_cmd.py",
    "selfplay.py",
]  # the terminal UIs are moving into their games' packages


@pytest.mark.parametrize("filename", CLI_FILES)
def test_the_generic_command_line_names_no_game(filename: str) -> None:
    text = (ROOT / "cardtable" / "cli" / filename).read_text(encoding="utf-8").lower()
    for game in manifests().values():
        for word in {game.name, game.title.lower(), game.name.replace("-", "_")}:
            assert word not in text, f"cli/{filename} names {word!r}"


def test_each_level_line_gives_its_published_rating() -> None:
    """``cardtable bots`` words each level with its measured figure (issue 26,
    item 3): the rating people's ratings are compared with, and a level not
    measured says so."""
    lines = info_cmd.bots_text("myrummy-111").split("Levels:")[1].splitlines()
    by_level = {x.split()[0]: x for x in lines if x}
    for level in LEVELS:
        found = published("myrummy-111", 2, level)
        assert found is not None
        assert f"; rated {display_rating(found[0])}" in by_level[level]
        assert ("not measured yet" in by_level[level]) == (not found[1])
    assert "not measured yet" in by_level["expert"]  # left off the measured ladder
