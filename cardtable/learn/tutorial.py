"""A game's guided first game: its steps and their words, loaded and checked.

A game's ``tutorial`` folder holds ``steps.json`` (``cardtable-tutorial/1``:
what the engine checks, the same in every language, and the names the
words give the other seats) and one file of words
per language (``en.json``, ``de.json``, ``fr.json``…: what a person reads).
A translator, or a plugin game, adds files, not code.

Each step is a position — record rounds (``cardtable-record/1`` deals and
moves) whose last round stops at the learner's decision — the moves that
are right there (``expect``), the wrong ones the lesson foresees (``try``,
each either refused by the engine with the rule ``refused_by`` or legal but
not the idea), and the rule the step teaches. Its words: ``title``,
``idea`` (shown before the move), ``wrong`` (the hint for a wrong move, the
rule in words, what to look at) and ``right`` (after the right move).

Loading checks all of it against today's engine, so a lesson cannot drift
from the rules: a :class:`TutorialError` names the file, the step and what
is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from cardtable.core.errors import CardtableError, IllegalMoveError
from cardtable.core.game import JSON, Game, Move, State
from cardtable.core.manifest import GameManifest
from cardtable.core.registry import load, manifest
from cardtable.core.replay import load_record
from cardtable.core.rulebook import UnknownRuleError, rulebook

__all__ = [
    "FORMAT",
    "WORD_KEYS",
    "Step",
    "Tutorial",
    "TutorialError",
    "Words",
    "check_step",
    "languages",
    "load_tutorial",
    "refusal",
]

FORMAT = "cardtable-tutorial/1"
WORD_KEYS = ("title", "idea", "wrong", "right")


class TutorialError(CardtableError):
    """A tutorial file that does not load or does not match the engine."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"{where}: {reason}")


@dataclass(frozen=True, slots=True)
class Step:
    id: str
    rounds: tuple[dict[str, JSON], ...]  # record rounds up to the decision
    expect: tuple[Move, ...]
    tries: tuple[tuple[Move, str | None], ...]  # (wrong move, rule the engine refuses it by)
    rule: str
    words: dict[str, str]  # WORD_KEYS in the tutorial's language

    def position(self, game: Game) -> State:
        """The state at the step's decision, rebuilt from its rounds."""
        record = {
            "format": "cardtable-record/1",
            "game": game.name,
            "options": game.options_json,
            "rounds": list(self.rounds),
        }
        return load_record(record)


@dataclass(frozen=True, slots=True)
class Words:
    """The words around the steps (the tutorial's title, intro and close)."""

    title: str
    intro: str
    finale: str


@dataclass(frozen=True, slots=True)
class Tutorial:
    game: Game
    seat: int  # the learner's seat in every step and in the first real game
    names: tuple[
        str | None, ...
    ]  # the other seats' names, as the words use them; None: the learner
    language: str
    words: Words
    steps: tuple[Step, ...]


def _folder(game_manifest: GameManifest) -> Any:
    if game_manifest.tutorial is None or game_manifest.package is None:
        raise TutorialError(game_manifest.name, "this game offers no tutorial")
    return resources.files(game_manifest.package).joinpath(game_manifest.tutorial)


def languages(game_name: str) -> tuple[str, ...]:
    """The languages ``game_name``'s tutorial has words in, sorted."""
    folder = _folder(manifest(game_name))
    return tuple(
        sorted(
            f.name.removesuffix(".json")
            for f in folder.iterdir()
            if f.name.endswith(".json") and f.name not in ("steps.json", "puzzles.json")
        )
    )


def _read(folder: Any, name: str, where: str) -> Any:
    path = folder.joinpath(name)
    if not path.is_file():
        raise TutorialError(where, "no such file")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise TutorialError(where, f"not JSON: {exc}") from None


def load_tutorial(game_name: str, language: str = "en") -> Tutorial:
    """The tutorial of ``game_name`` in ``language``, checked against the engine."""
    game_manifest = manifest(game_name)
    folder = _folder(game_manifest)
    if language not in languages(game_name):
        raise TutorialError(
            f"{game_name} tutorial",
            f"no words in {language!r}; choose one of {', '.join(languages(game_name))}",
        )
    steps_where = f"{game_manifest.tutorial}/steps.json"
    words_where = f"{game_manifest.tutorial}/{language}.json"
    data = _read(folder, "steps.json", steps_where)
    text = _read(folder, f"{language}.json", words_where)
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("game") != game_name:
        raise TutorialError(steps_where, f"not a {FORMAT} file for {game_name}")
    try:
        game = load(game_name, **data["options"])
        seat = int(data["seat"])
        names = tuple(data["names"])
        step_words = text["steps"]
        words = Words(text["title"], text["intro"], text["finale"])
        raw_steps = data["steps"]
    except (KeyError, TypeError, AttributeError) as exc:
        raise TutorialError(
            f"{steps_where} / {words_where}", f"missing or malformed {exc}"
        ) from None
    except CardtableError as exc:
        raise TutorialError(steps_where, str(exc)) from None
    ids = [s.get("id") for s in raw_steps]
    extra = sorted(set(step_words) - set(ids))
    if extra:
        raise TutorialError(words_where, f"words for steps that do not exist: {', '.join(extra)}")
    steps = tuple(
        _step(
            game, game_manifest, seat, raw, step_words, f"{steps_where}: step {i + 1}", words_where
        )
        for i, raw in enumerate(raw_steps)
    )
    if len(names) != game.num_players or names[seat] is not None:
        raise TutorialError(steps_where, f"names must name every seat but the learner's ({seat})")
    return Tutorial(game, seat, names, language, words, steps)


def _step(
    game: Game,
    game_manifest: GameManifest,
    seat: int,
    raw: Any,
    all_words: Any,
    where: str,
    words_where: str,
) -> Step:
    try:
        step_id = str(raw["id"])
        where = f"{where} ({step_id})"
        expect = tuple(_move(game, seat, m, where) for m in raw["expect"])
        tries = tuple(
            (_move(game, seat, t["move"], where), t.get("refused_by")) for t in raw.get("try", [])
        )
        step = Step(
            step_id,
            tuple(raw["rounds"]),
            expect,
            tries,
            str(raw["rule"]),
            _words(all_words, step_id, f"{words_where}: step {step_id}"),
        )
    except (KeyError, TypeError) as exc:
        raise TutorialError(where, f"missing or malformed {exc}") from None
    check_step(game, game_manifest, seat, step, where)
    return step


def _move(game: Game, seat: int, obj: Any, where: str) -> Move:
    try:
        _, move, _ = game.move_from_json({"seat": seat, **obj}, where)
    except CardtableError as exc:
        raise TutorialError(where, str(exc)) from None
    return move


def _words(all_words: Any, step_id: str, where: str) -> dict[str, str]:
    if step_id not in all_words:
        raise TutorialError(where, "no words for this step")
    words = all_words[step_id]
    missing = [k for k in WORD_KEYS if not isinstance(words.get(k), str) or not words[k].strip()]
    if missing:
        raise TutorialError(where, f"missing {', '.join(missing)}")
    return {k: words[k] for k in WORD_KEYS}


def check_step(game: Game, game_manifest: GameManifest, seat: int, step: Step, where: str) -> None:
    """The step against the engine: its position replays to the learner's
    decision, every expected move is legal, every foreseen wrong one is
    refused (by the rule it names) or legal and not expected, and its rule exists."""
    try:
        state = step.position(game)
    except CardtableError as exc:
        raise TutorialError(where, f"its position does not replay: {exc}") from None
    if state.to_move != seat:
        raise TutorialError(where, f"seat {state.to_move} is to move, not the learner's {seat}")
    legal = state.legal_moves()
    for move in step.expect:
        if move not in legal:
            raise TutorialError(where, f"expected move {move} is not legal there")
    for move, refused_by in step.tries:
        if move in step.expect:
            raise TutorialError(where, f"wrong move {move} is also expected")
        error = refusal(state, seat, move)
        rule = None if error is None else error.rule
        if rule != refused_by:
            found = "legal" if rule is None else f"refused by {rule}"
            raise TutorialError(where, f"wrong move {move} should be {_said(refused_by)}: {found}")
    try:
        rulebook(game_manifest).rule(step.rule)
    except UnknownRuleError as exc:
        raise TutorialError(where, str(exc)) from None


def _said(rule: str | None) -> str:
    return "legal" if rule is None else f"refused by {rule}"


def refusal(state: State, seat: int, move: Move) -> IllegalMoveError | None:
    """The engine's refusal of ``move`` by ``seat``, with its reason and rule
    (``None`` if it is legal), learned on a copy of ``state``."""
    if move in state.legal_moves():
        return None
    try:
        state.clone().apply_as(seat, move)
    except IllegalMoveError as exc:
        return exc
    raise AssertionError(f"{move} is not listed as legal, yet the engine applied it")
