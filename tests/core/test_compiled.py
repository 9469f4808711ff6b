"""The compiled engines (``cardtable/core/compiled.py``): used only while
they match their source, and indistinguishable from it in play.

An editable install compiles them (``build_support/backend.py``), so the
suite after the README's test command runs against the compiled build and
these tests compare it, move by move, with the source loaded beside it.
"""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

import cardtable.games.marshmallow_test.state as state_module
import cardtable.games.myrummy_111.bots.heuristic as heuristic_module
from cardtable.core import compiled
from cardtable.games.marshmallow_test import MarshmallowTest
from cardtable.games.marshmallow_test.moves import Play
from cardtable.games.myrummy_111 import MyRummy111

PACKAGE = compiled.PACKAGE_ROOT


def _source_copy(tmp_path: Path) -> Path:
    """The sources a build depends on, copied into a package root of their own."""
    root = tmp_path / "cardtable"
    for folder in compiled.DEPENDS_ON:
        (root / folder).mkdir(parents=True)
        for path in (PACKAGE / folder).glob("*.py"):
            shutil.copyfile(path, root / folder / path.name)
    return root


def _fake_build(root: Path) -> Path:
    build_dir = root / "_compiled" / compiled.source_digest(root)
    build_dir.mkdir(parents=True)
    for name in compiled.BUILT_MODULES:
        compiled.build_file(build_dir, name).touch()
    return build_dir


def test_a_build_is_used_only_while_every_source_it_depends_on_is_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(compiled.PURE_PYTHON_VARIABLE, raising=False)
    root = _source_copy(tmp_path)
    assert compiled.current_build(root) is None  # nothing built yet
    build_dir = _fake_build(root)
    assert compiled.current_build(root) == build_dir
    # An edit anywhere the build was type-checked against, not only in the
    # compiled module itself, retires it.
    for edited in (root / "core" / "errors.py", root / "games/marshmallow_test" / "state.py"):
        original = edited.read_bytes()
        edited.write_bytes(original + b"# edited\n")
        assert compiled.current_build(root) is None, edited
        edited.write_bytes(original)
        assert compiled.current_build(root) == build_dir
    # A build with a module missing is not used either.
    compiled.build_file(build_dir, compiled.BUILT_MODULES[-1]).unlink()
    assert compiled.current_build(root) is None


def test_the_pure_python_variable_turns_every_build_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _source_copy(tmp_path)
    build_dir = _fake_build(root)
    monkeypatch.setenv(compiled.PURE_PYTHON_VARIABLE, "1")
    assert compiled.current_build(root) is None
    monkeypatch.delenv(compiled.PURE_PYTHON_VARIABLE)
    assert compiled.current_build(root) == build_dir


def test_the_build_compiles_with_the_mypy_the_checkers_pin() -> None:
    spec = importlib.util.spec_from_file_location(
        "_cardtable_backend", PACKAGE.parent / "build_support" / "backend.py"
    )
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    pins = [p for p in pyproject["project"]["optional-dependencies"]["test"] if "mypy==" in p]
    assert pins == [backend.MYPYC]


def test_the_compiled_modules_hold_no_doctest() -> None:
    # conftest.py leaves them out of doctest collection while a build is in use.
    for module in compiled.COMPILED:
        source = PACKAGE.parent / (module.replace(".", "/") + ".py")
        assert ">>>" not in source.read_text(encoding="utf-8"), source


def _imports_compiled(environment: dict[str, str]) -> bool:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import cardtable.games.marshmallow_test.state as s; "
            "from cardtable.core import compiled; print(compiled.is_compiled(s))",
        ],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    return done.stdout.strip() == "True"


def test_the_engine_comes_from_the_current_build_where_there_is_one() -> None:
    environment = {k: v for k, v in os.environ.items() if k != compiled.PURE_PYTHON_VARIABLE}
    has_build = compiled.current_build() is not None
    assert _imports_compiled(environment) is has_build
    assert compiled.is_compiled(state_module) is (
        has_build and not os.environ.get(compiled.PURE_PYTHON_VARIABLE)
    )
    environment[compiled.PURE_PYTHON_VARIABLE] = "1"
    assert _imports_compiled(environment) is False


def _source_module(module: ModuleType) -> ModuleType:
    """A module's source, loaded beside whatever build is in use."""
    path = PACKAGE.parent / (module.__name__.replace(".", "/") + ".py")
    spec = importlib.util.spec_from_file_location(f"_source_of_{module.__name__}", path)
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    assert not compiled.is_compiled(source)
    return source


def test_the_equivalence_tests_cover_every_compiled_module() -> None:
    assert {m.__name__ for m in (state_module, heuristic_module)} == set(compiled.COMPILED)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_engine_in_use_plays_every_decision_as_its_source_does(players: int) -> None:
    source = _source_module(state_module)
    game = MarshmallowTest(players=players)
    for seed in range(3):
        ours = game.new_game(random.Random(seed))
        assert isinstance(ours, state_module.MarshmallowState)
        theirs = source.MarshmallowState(game, game.options, random.Random(seed))
        pick = random.Random(seed)
        while not ours.finished:
            seat = ours.to_move
            assert seat is not None
            moves = ours.legal_moves()
            assert theirs.legal_moves() == moves
            assert theirs.to_move == seat
            assert repr(theirs.view(seat)) == repr(ours.view(seat))
            # A card the seat does not hold: the same refusal, word for word.
            held = {m.card for m in moves if isinstance(m, Play)}
            stranger = next((Play(c) for c in range(60) if c not in held), None)
            if stranger is not None and isinstance(moves[0], Play):
                assert str(theirs.refusal(seat, stranger)) == str(ours.refusal(seat, stranger))
            move = moves[pick.randrange(len(moves))]
            assert theirs.apply(move) == ours.apply(move)
        assert theirs.finished
        assert theirs.record() == ours.record()
        assert theirs.scores == ours.scores


@pytest.mark.parametrize("players", [2, 4])
def test_the_myrummy_heuristic_in_use_chooses_as_its_source_does(players: int) -> None:
    """The playouts' policy: every choice of whole games, and the judgement
    of every placement of the card each placing seat holds."""
    source = _source_module(heuristic_module)
    game = MyRummy111(players=players, turn_limit=150)
    for seed in range(2):
        ours = [heuristic_module.HeuristicBot(s, game, random.Random(s)) for s in range(players)]
        theirs = [source.HeuristicBot(s, game, random.Random(s)) for s in range(players)]
        state = game.new_game(random.Random(seed))
        while not state.finished:
            seat = state.to_move
            assert seat is not None
            view, legal = state.view(seat), state.legal_moves()
            hand, card = view.hand, view.taken_card
            assert hand is not None  # a seat's own view holds its hand
            assert source.qualities(hand) == heuristic_module.qualities(hand)
            if card is not None:  # placing the card it took
                expected = source.placement_qualities(hand, card)
                assert heuristic_module.placement_qualities(hand, card) == expected
                assert heuristic_module.best_placement(hand, card) == (
                    source.best_placement(hand, card)
                )
            move = ours[seat].choose(view, legal)
            assert theirs[seat].choose(view, legal) == move
            state.apply(move)
