"""The terms of a puzzle and of its file, pinned without a search (docs/learn.md,
"Puzzles from real decisions" and "Any game: the generic lesson and built
puzzles"; cardtable/learn/puzzles.py).

test_puzzles.py checks the shipped puzzles against the engine and a build's
searches; this module pins what each part of ``cardtable.learn.puzzles``
promises, on evaluations and sets built by hand: the bar a decision clears
(every other alternative's loss minus two standard errors, at least
``MARGIN``), the alternatives best first and the best's loss zero, the fields
a puzzle keeps, an id that depends on the seat and the view only and never
changes (profiles keep the ids tried), where a set lives, and each fault of a
file refused with its place ("Bad input gets a clear error that says where
and why").
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardtable.analysis.estimate import Estimate, Evaluation, GroupValue
from cardtable.core.errors import RecordError
from cardtable.core.game import Game, Move, View
from cardtable.core.phrase import Phrase
from cardtable.core.registry import load, manifest
from cardtable.learn import puzzles as puzzles_module
from cardtable.learn.puzzles import (
    FORMAT,
    MARGIN,
    START_DEVIATION,
    START_RATING,
    Alternative,
    NoPuzzlesError,
    PuzzleSet,
    _puzzle_id,
    legal_of,
    load_puzzles,
    make_puzzle,
    margin_of,
    parse_puzzles,
    puzzles_path,
    set_file,
    theme_for,
    user_puzzles_dir,
)

REPO = Path(__file__).resolve().parents[2]
GAME = "marshmallow-test"
OPTIONS: dict[str, Any] = {"players": 3}  # not the default (4): the options must be read


def three_player_game() -> Game:
    return load(GAME, **OPTIONS)


def decision(seed: int = 5) -> tuple[View, Sequence[Move], int]:
    """The first decision of a three-player game: the seat's view, its legal moves, the seat."""
    state = three_player_game().new_game(random.Random(seed))
    seat = state.to_move
    assert seat is not None
    return state.view(seat), state.legal_moves(), seat


def group(moves: tuple[int, ...], win: float, loss: float, loss_se: float) -> GroupValue:
    return GroupValue(
        moves=moves,
        samples=64,
        win=Estimate(win, 0.01),
        points=Estimate(10 * win, 0.5),
        loss_win=Estimate(loss, loss_se),
        loss_points=Estimate(0.0, 0.0),
    )


# The best (group 1) is not first among the groups, the others are not in
# order of their win chance, and the best's own cross-fitted loss is not zero
# (the best of one half measured against the best of the other): the puzzle
# must put the best first, the rest by win chance, and the best's loss at 0.
CLEAR = Evaluation(
    groups=(
        group((2,), win=0.30, loss=0.25, loss_se=0.02),
        group((0, 3), win=0.55, loss=0.01, loss_se=0.005),
        group((1,), win=0.40, loss=0.125, loss_se=0.0125),
    ),
    best=1,
    playouts=192,
    moves=4000,
)


def english_theme(view: View, move: Move) -> tuple[str | Phrase, str | None]:
    return f"play {move}", None


def game_theme(view: View, move: Move) -> tuple[str | Phrase, str | None]:
    return Phrase(f"lead the {move}", "theme.lead", {"card": str(move)}), "MT-5.6"


def hand_made_set() -> PuzzleSet:
    """Two puzzles of a three-player game, with ratings that are not the start's."""
    made = []
    for seed in (5, 6):
        view, legal, seat = decision(seed)
        puzzle = make_puzzle(view, legal, seat, CLEAR, game_theme)
        assert puzzle is not None
        made.append(replace(puzzle, rating=1612.3, deviation=80.5))
    return PuzzleSet(GAME, dict(OPTIONS), ({"games": 1, "budget": 0.5},), tuple(made))


def set_json() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(hand_made_set().to_json()))
    return data


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


# The error of a missing puzzle


def test_no_puzzles_error_keeps_the_game_and_the_reason() -> None:
    error = NoPuzzlesError("myrummy-111", "no puzzle has the id 'x'")
    assert (error.game, error.reason) == ("myrummy-111", "no puzzle has the id 'x'")
    assert str(error) == "myrummy-111: no puzzle has the id 'x'"


# The bar a decision clears


def test_the_margin_is_the_smallest_loss_less_two_standard_errors_of_the_others() -> None:
    # 100 * (0.25 - 2 * 0.02) = 21 and 100 * (0.125 - 2 * 0.0125) = 10; the best's
    # own loss (100 * (0.01 - 0.01) = 0) is not counted.
    assert margin_of(CLEAR) == pytest.approx(10.0, rel=1e-9)


def test_a_decision_with_one_alternative_has_no_margin_and_makes_no_puzzle() -> None:
    view, legal, seat = decision()
    alone = replace(CLEAR, groups=(CLEAR.groups[1],), best=0)
    assert margin_of(alone) == -math.inf
    assert make_puzzle(view, legal, seat, alone, english_theme) is None


def test_a_decision_exactly_at_the_bar_makes_a_puzzle_and_one_just_under_none() -> None:
    view, legal, seat = decision()
    at_bar = replace(CLEAR, groups=(CLEAR.groups[1], group((2,), 0.4, MARGIN / 100, 0.0)), best=0)
    assert margin_of(at_bar) == MARGIN  # "at least MARGIN" (the module's doc)
    assert make_puzzle(view, legal, seat, at_bar, english_theme) is not None
    under = replace(at_bar, groups=(CLEAR.groups[1], group((2,), 0.4, 0.0299, 0.0)))
    assert margin_of(under) < MARGIN
    assert make_puzzle(view, legal, seat, under, english_theme) is None


# What a puzzle keeps


def test_a_puzzle_puts_the_best_first_then_the_others_by_win_chance() -> None:
    view, legal, seat = decision()
    puzzle = make_puzzle(view, legal, seat, CLEAR, english_theme)
    assert puzzle is not None
    assert [a.moves for a in puzzle.alternatives] == [(0, 3), (1,), (2,)]
    assert puzzle.solution == (0, 3)
    assert [a.win for a in puzzle.alternatives] == [0.55, 0.40, 0.30]
    assert [a.win_se for a in puzzle.alternatives] == [0.01] * 3
    assert [a.points for a in puzzle.alternatives] == [5.5, 4.0, 3.0]


def test_the_best_loses_nothing_and_the_others_lose_in_percentage_points() -> None:
    view, legal, seat = decision()
    puzzle = make_puzzle(view, legal, seat, CLEAR, english_theme)
    assert puzzle is not None
    best, second, third = puzzle.alternatives
    assert (best.loss, best.loss_se) == (0.0, 0.0)
    assert second.loss == pytest.approx(12.5, rel=1e-9)
    assert second.loss_se == pytest.approx(1.25, rel=1e-9)
    assert third.loss == pytest.approx(25.0, rel=1e-9)
    assert third.loss_se == pytest.approx(2.0, rel=1e-9)
    assert puzzle.margin == pytest.approx(10.0, rel=1e-9)


def test_a_puzzle_keeps_the_seats_view_its_legal_moves_and_starts_unrated() -> None:
    view, legal, seat = decision()
    puzzle = make_puzzle(view, legal, seat, CLEAR, english_theme)
    assert puzzle is not None
    assert puzzle.seat == seat
    assert puzzle.view == view.to_json()
    assert puzzle.legal == tuple(m.to_json() for m in legal)
    assert (puzzle.rating, puzzle.deviation) == (START_RATING, START_DEVIATION)
    assert puzzle.id == _puzzle_id(view.to_json(), seat)


def test_the_theme_is_asked_of_the_solution_and_kept_with_its_key_and_rule() -> None:
    view, legal, seat = decision()
    asked: list[tuple[View, Move]] = []

    def theme(v: View, move: Move) -> tuple[str | Phrase, str | None]:
        asked.append((v, move))
        return game_theme(v, move)

    puzzle = make_puzzle(view, legal, seat, CLEAR, theme)
    assert puzzle is not None
    assert asked == [(view, legal[0])]  # the best's first move
    assert puzzle.theme == f"lead the {legal[0]}"
    assert (puzzle.theme_key, puzzle.theme_params) == ("theme.lead", {"card": str(legal[0])})
    assert puzzle.rule == "MT-5.6"


def test_an_english_only_theme_keeps_its_words_and_no_key() -> None:
    view, legal, seat = decision()
    puzzle = make_puzzle(view, legal, seat, CLEAR, english_theme)
    assert puzzle is not None
    assert (puzzle.theme, puzzle.rule) == (f"play {legal[0]}", None)
    assert (puzzle.theme_key, puzzle.theme_params) == (None, None)
    assert "theme_key" not in puzzle.to_json() and "theme_params" not in puzzle.to_json()


def test_the_game_words_its_themes_or_a_plain_one_names_the_move() -> None:
    own = manifest(GAME)
    assert theme_for(own) is own.part("puzzle_theme")
    view, legal, _ = decision()
    plain = theme_for(replace(own, puzzle_theme=None))
    assert plain(view, legal[4]) == (f"find the move: {legal[4]}", None)


# The id: the seat and the view, and nothing else, the same forever


def test_the_id_depends_on_the_seat() -> None:
    view, legal, seat = decision()
    one = make_puzzle(view, legal, seat, CLEAR, english_theme)
    other = make_puzzle(view, legal, seat + 1, CLEAR, english_theme)
    assert one is not None and other is not None
    assert one.id != other.id
    assert len(one.id) == 12 and int(one.id, 16) >= 0


def test_the_id_does_not_depend_on_the_order_of_the_views_keys() -> None:
    view, _, seat = decision()
    forward = view.to_json()
    assert isinstance(forward, dict)
    backward = dict(reversed(list(forward.items())))
    assert list(backward) != list(forward)
    assert _puzzle_id(backward, seat) == _puzzle_id(forward, seat)
    assert _puzzle_id(forward, seat) != _puzzle_id({**forward, "round_number": 9}, seat)


@pytest.mark.parametrize("game_name", [GAME, "myrummy-111"])
def test_every_shipped_id_is_computed_today_as_it_was_built(game_name: str) -> None:
    """A profile keeps the ids of the puzzles tried: the same view and seat must
    give the same id in every version."""
    shipped = load_puzzles(game_name)
    assert shipped.puzzles
    assert all(_puzzle_id(p.view, p.seat) == p.id for p in shipped.puzzles)


# The puzzle's moves as the engine's


class RecordingGame:
    """Just enough of a Game for legal_of: records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[Any, str]] = []

    def move_from_json(self, obj: Any, where: str) -> tuple[int, str, dict[str, Any]]:
        self.asked.append((obj, where))
        return 99, f"move {len(self.asked)}", {}


def test_legal_of_reads_each_move_for_the_puzzles_seat_as_the_legal_moves() -> None:
    puzzle = replace(hand_made_set().puzzles[0], seat=2, legal=({"play": "R7"}, {"trump": "red"}))
    game = RecordingGame()
    moves: list[Any] = legal_of(game, puzzle)  # type: ignore[arg-type]
    assert moves == ["move 1", "move 2"]
    assert game.asked == [
        ({"seat": 2, "play": "R7"}, "legal"),
        ({"seat": 2, "trump": "red"}, "legal"),
    ]


def test_legal_of_gives_the_engines_moves_and_names_a_bad_one() -> None:
    puzzle = hand_made_set().puzzles[0]
    game = three_player_game()
    assert [m.to_json() for m in legal_of(game, puzzle)] == list(puzzle.legal)
    with pytest.raises(RecordError) as caught:
        legal_of(game, replace(puzzle, legal=({"play": "Z1"},)))
    assert (caught.value.where, caught.value.reason) == ("legal.play", "unknown card 'Z1'")


# Sets: merged, found by id, written and read back


def test_a_merge_adds_the_other_sets_new_puzzles_and_builds() -> None:
    mine = hand_made_set()
    first, second = mine.puzzles
    other = replace(mine, builds=({"games": 2},), puzzles=(replace(first, rating=1.0), second))
    one = replace(mine, puzzles=(first,))
    merged = one.merged(other)
    assert merged.puzzles == (first, second)  # the known id keeps this set's puzzle
    assert merged.builds == ({"games": 1, "budget": 0.5}, {"games": 2})
    assert (merged.game, merged.options) == (GAME, OPTIONS)


def test_sets_of_other_options_are_not_merged() -> None:
    mine = hand_made_set()
    with pytest.raises(NoPuzzlesError) as caught:
        mine.merged(replace(mine, options={"players": 4}))
    assert (caught.value.game, caught.value.reason) == (
        GAME,
        "cannot merge sets of different games or options",
    )


def test_a_puzzle_is_found_by_its_id_or_the_id_is_named() -> None:
    mine = hand_made_set()
    assert mine.by_id(mine.puzzles[1].id) == mine.puzzles[1]
    with pytest.raises(NoPuzzlesError) as caught:
        mine.by_id("nope")
    assert str(caught.value) == f"{GAME}: no puzzle has the id 'nope'"


def test_a_set_round_trips_through_its_json_text() -> None:
    mine = hand_made_set()
    text = json.dumps(mine.to_json())
    again = parse_puzzles(json.loads(text), "set.json")
    assert again == mine
    assert (again.puzzles[0].rating, again.puzzles[0].deviation) == (1612.3, 80.5)
    assert json.loads(text)["format"] == FORMAT


def test_a_set_themed_in_english_only_round_trips_without_a_key() -> None:
    """A game that words its themes in English only writes no ``theme_key``:
    its file is read back as it was."""
    mine = hand_made_set()
    english = replace(
        mine, puzzles=tuple(replace(p, theme_key=None, theme_params=None) for p in mine.puzzles)
    )
    data = json.loads(json.dumps(english.to_json()))
    assert "theme_key" not in data["puzzles"][0]
    assert parse_puzzles(data, "set.json") == english


def test_the_files_numbers_are_rounded_as_the_format_says() -> None:
    alternative = Alternative((1, 2), 0.123456, 0.0123456, 7.654321, 12.3456, 1.23456)
    assert alternative.to_json() == {
        "moves": [1, 2],
        "win": 0.1235,
        "win_se": 0.0123,
        "points": 7.654,
        "loss": 12.35,
        "loss_se": 1.23,
    }
    puzzle = replace(hand_made_set().puzzles[0], margin=3.14159, rating=1500.06, deviation=99.94)
    data = puzzle.to_json()
    assert (data["margin"], data["rating"], data["deviation"]) == (3.14, 1500.1, 99.9)


# Where a set lives


def test_a_users_sets_live_in_the_home_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    assert user_puzzles_dir() == tmp_path / ".cardtable" / "puzzles"


def test_a_set_file_is_the_json_file_named_or_the_games_file_in_the_folder() -> None:
    assert set_file(Path("/x/mine.json"), GAME) == Path("/x/mine.json")
    assert set_file(Path("/x/sets"), GAME) == Path("/x/sets/marshmallow-test.json")


def test_a_game_with_a_tutorial_ships_its_set_and_another_has_it_built(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    own = manifest(GAME)
    shipped = puzzles_path(own)
    assert shipped.is_file()
    assert Path(str(shipped)) == REPO / "cardtable/games/marshmallow_test/learn/puzzles.json"
    built = tmp_path / ".cardtable" / "puzzles" / "marshmallow-test.json"
    assert puzzles_path(replace(own, tutorial=None)) == built
    bare = replace(own, rules=None, web_client=None, tutorial=None, package=None)
    assert puzzles_path(bare) == built


# Loading a set: each fault with its place


def test_a_set_is_loaded_from_its_file_or_its_folder(tmp_path: Path) -> None:
    mine = hand_made_set()
    write(tmp_path / "marshmallow-test.json", mine.to_json())
    assert load_puzzles(GAME, tmp_path) == mine
    assert load_puzzles(GAME, tmp_path / "marshmallow-test.json") == mine


def test_a_set_never_built_names_where_it_should_be(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with pytest.raises(NoPuzzlesError) as caught:
        load_puzzles(GAME, tmp_path)
    path = tmp_path / "marshmallow-test.json"
    assert (caught.value.game, caught.value.reason) == (
        GAME,
        f"no puzzles have been built into {path}"
        " (cardtable puzzles build marshmallow-test writes them there)",
    )
    # A game that ships none: its set is looked for in the user's folder.
    monkeypatch.setenv("HOME", str(tmp_path))
    unshipped = replace(manifest(GAME), tutorial=None)
    monkeypatch.setattr(puzzles_module, "manifest", lambda name: unshipped)
    with pytest.raises(NoPuzzlesError) as again:
        load_puzzles(GAME)
    assert str(tmp_path / ".cardtable" / "puzzles" / "marshmallow-test.json") in again.value.reason


def test_a_set_of_another_game_is_refused_naming_both(tmp_path: Path) -> None:
    path = write(tmp_path / "mine.json", set_json())
    with pytest.raises(NoPuzzlesError) as caught:
        load_puzzles("myrummy-111", path)
    assert (caught.value.game, caught.value.reason) == (
        "myrummy-111",
        f"{path} holds puzzles of marshmallow-test",
    )
    assert str(caught.value) == f"myrummy-111: {path} holds puzzles of marshmallow-test"


def test_a_loaded_files_fault_names_the_file_and_the_puzzle(tmp_path: Path) -> None:
    data = set_json()
    del data["puzzles"][1]["legal"]
    path = write(tmp_path / "mine.json", data)
    with pytest.raises(RecordError) as caught:
        load_puzzles(GAME, path)
    assert (caught.value.where, caught.value.reason) == (f"{path}: puzzles[1]", "legal is missing")
    not_a_set = write(tmp_path / "other.json", {"format": "cardtable-record/1"})
    with pytest.raises(RecordError) as wrong:
        load_puzzles(GAME, not_a_set)
    assert str(wrong.value) == f"{not_a_set}: not a {FORMAT} file"


def test_a_set_is_read_as_utf_8_whatever_the_locale(tmp_path: Path) -> None:
    """The file is UTF-8 by the format: a person whose locale is not (Windows,
    a POSIX "C" locale) reads the same theme."""
    data = set_json()
    data["puzzles"][0]["theme"] = "spiel die Grün-Zwölf früh"
    path = write(tmp_path / "mine.json", data)
    env = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    code = (
        "import locale, sys\n"
        "from pathlib import Path\n"
        "from cardtable.learn.puzzles import load_puzzles\n"
        "assert locale.getpreferredencoding(False).lower() not in ('utf-8', 'utf8')\n"
        f"theme = load_puzzles({GAME!r}, Path({str(path)!r})).puzzles[0].theme\n"
        "sys.stdout.buffer.write(theme.encode('utf-8'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout.decode("utf-8") == "spiel die Grün-Zwölf früh"


@pytest.mark.parametrize("obj", [[], "text", {"format": "cardtable-puzzles/2", "game": GAME}])
def test_what_is_not_a_set_is_refused_in_one_line(obj: Any) -> None:
    with pytest.raises(RecordError) as caught:
        parse_puzzles(obj, "set.json")
    assert (caught.value.where, caught.value.reason) == ("set.json", f"not a {FORMAT} file")
    assert str(caught.value) == f"set.json: not a {FORMAT} file"


def test_the_sets_options_make_the_game_its_views_are_read_by() -> None:
    data = set_json()
    assert parse_puzzles(data, "set.json").options == OPTIONS
    data["options"] = {"players": 4}  # three-player views in a four-player set
    with pytest.raises(RecordError) as caught:
        parse_puzzles(data, "set.json")
    assert caught.value.where == "set.json: puzzles[0]"
    assert caught.value.reason.startswith("view.players: 3, not 4")


def drop(*path: str | int) -> Any:
    def change(p: dict[str, Any]) -> None:
        *head, last = path
        target: Any = p
        for key in head:
            target = target[key]
        del target[last]

    return change


def put(value: Any, *path: str | int) -> Any:
    def change(p: dict[str, Any]) -> None:
        *head, last = path
        target: Any = p
        for key in head:
            target = target[key]
        target[last] = value

    return change


THEME_TYPES = "theme_key must be a string and theme_params an object"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (drop("view"), "view is missing"),
        (put({"seat": 0}, "view"), None),  # the game's own reason, checked below
        (drop("legal"), "legal is missing"),
        (drop("solution"), "solution is missing"),
        (put(["first"], "solution"), "solution ['first'] is not among its 12 moves"),
        (put(None, "solution"), "solution must be a list, not null"),
        (drop("alternatives"), "alternatives is missing"),
        (drop("alternatives", 1, "win"), "win is missing"),
        (drop("alternatives", 0, "loss_se"), "loss_se is missing"),
        (put(5, "theme_key"), THEME_TYPES),
        (put(["card"], "theme_params"), THEME_TYPES),
    ],
)
def test_a_malformed_field_is_named_with_its_puzzle(change: Any, reason: str | None) -> None:
    data = set_json()
    change(data["puzzles"][1])
    with pytest.raises(RecordError) as caught:
        parse_puzzles(data, "set.json")
    assert caught.value.where == "set.json: puzzles[1]"
    if reason is None:
        with pytest.raises(RecordError) as game:
            three_player_game().view_from_json(data["puzzles"][1]["view"])
        reason = str(game.value)
    assert caught.value.reason == reason
    assert str(caught.value) == f"set.json: puzzles[1]: {reason}"


@pytest.mark.parametrize("solution", [[], [12], [0, 12], [-1]])
def test_a_solution_outside_the_legal_moves_is_refused(solution: list[int]) -> None:
    data = set_json()
    assert len(data["puzzles"][0]["legal"]) == 12
    data["puzzles"][0]["solution"] = solution
    with pytest.raises(RecordError) as caught:
        parse_puzzles(data, "set.json")
    assert (caught.value.where, caught.value.reason) == (
        "set.json: puzzles[0]",
        f"solution {solution} is not among its 12 moves",
    )


def test_a_solution_at_the_last_legal_move_is_accepted() -> None:
    data = set_json()
    data["puzzles"][0]["solution"] = [11]
    assert parse_puzzles(data, "set.json").puzzles[0].solution == (11,)


# --- any file a person names (`cardtable puzzle GAME --from F`) --------------
# Each of these ended in a traceback before: a bad file is one clear line.


def test_a_file_that_is_not_json_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(RecordError) as caught:
        load_puzzles(GAME, path)
    assert caught.value.where == str(path) and caught.value.reason.startswith("not JSON: ")


@pytest.mark.parametrize("field", ["game", "options", "puzzles", "builds"])
def test_a_set_without_one_of_its_fields_says_which(tmp_path: Path, field: str) -> None:
    data = set_json()
    del data[field]
    with pytest.raises(RecordError) as caught:
        parse_puzzles(data, "mine.json")
    assert (caught.value.where, caught.value.reason) == ("mine.json", f"{field} is missing")


@pytest.mark.parametrize("field", ["id", "seat", "margin", "theme", "rule", "rating", "deviation"])
def test_a_puzzle_without_one_of_its_fields_says_which(field: str) -> None:
    data = set_json()
    del data["puzzles"][1][field]
    with pytest.raises(RecordError) as caught:
        parse_puzzles(data, "mine.json")
    assert (caught.value.where, caught.value.reason) == (
        "mine.json: puzzles[1]",
        f"{field} is missing",
    )


@pytest.mark.parametrize(
    ("path", "value", "reason"),
    [
        (("alternatives", 0, "win"), "high", 'win must be a number, not "high"'),
        (("seat",), True, "seat must be a whole number, not true"),
        (("margin",), "wide", 'margin must be a number, not "wide"'),
        (("id",), 7, "id must be a string, not 7"),
        (("rule",), 5, "rule must be a string or null, not 5"),
        (("solution",), [True], "solution [True] is not among its 12 moves"),
        (("alternatives", 0), "best", "each alternative must be an object"),
    ],
)
def test_a_field_of_the_wrong_type_says_what_it_must_be(
    path: tuple[str | int, ...], value: Any, reason: str
) -> None:
    data = set_json()
    where: Any = data["puzzles"][0]
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    with pytest.raises(RecordError) as caught:
        parse_puzzles(data, "mine.json")
    assert (caught.value.where, caught.value.reason) == ("mine.json: puzzles[0]", reason)


def test_a_set_of_an_unknown_game_or_bad_options_names_the_file() -> None:
    data = set_json()
    data["options"] = {"players": 99}
    with pytest.raises(RecordError) as caught:
        parse_puzzles(data, "mine.json")
    assert caught.value.where == "mine.json" and "players" in caught.value.reason
    data["game"] = "chess"
    with pytest.raises(RecordError) as unknown:
        parse_puzzles(data, "mine.json")
    assert unknown.value.where == "mine.json" and "chess" in unknown.value.reason


def test_the_puzzle_command_refuses_a_broken_file_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "puzzle", GAME, "--from", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert f"{path}: not JSON" in done.stderr
