"""The promises every game makes, each with its check, and the runner.

A :class:`Promise` is one sentence of ``docs/conformance.md`` (its anchor is
:attr:`Promise.anchor`) and the function that checks it over random games.
``cardtable conformance GAME`` and ``tests/conformance/`` both run these, so
a promise is checked by one piece of code wherever it is checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtable.conformance import options, play, resampling, view_json
from cardtable.conformance.probe import Probe, PromiseBroken
from cardtable.core.manifest import GameManifest
from cardtable.core.registry import manifest

__all__ = ["DOC", "PROMISES", "Outcome", "Promise", "check", "promise", "promises_of"]

#: The page that states every promise, one anchor each.
DOC = "docs/conformance.md"

Check = Callable[[str, Probe], None]


@dataclass(frozen=True)
class Promise:
    """One promise: its anchor in :data:`DOC`, the sentence, the check, and
    the games it binds (a game without the optional part it is about makes none)."""

    anchor: str
    words: str
    run: Check
    games: int = 1  # games per player count when the caller names no number
    part: str | None = None  # the manifest's optional part it needs, if any

    @property
    def reference(self) -> str:
        return f"{DOC}#{self.anchor}"

    def binds(self, game: GameManifest) -> bool:
        return self.part is None or game.has(self.part)


PROMISES: tuple[Promise, ...] = (
    Promise(
        "legal-moves",
        "legal moves are never empty before the end and read back from index and notation;"
        " a finished game names its winners",
        play.legal_moves,
        games=3,
    ),
    Promise("views-json", "every view round-trips through JSON text", play.views_json),
    Promise(
        "clones",
        "a clone equals its original and the two stay independent",
        play.clones,
        games=2,
    ),
    Promise(
        "records",
        "a record round-trips through its text and replays to the same views",
        play.records_replay,
        games=2,
    ),
    Promise("views-read-back", "views read from JSON write back exactly", view_json.read_back),
    Promise(
        "view-refusals",
        "a malformed view is refused saying where, or read exactly as written",
        view_json.refusals,
    ),
    Promise(
        "options-listed",
        "the manifest lists the game's options, each with its default",
        options.options_listed,
    ),
    Promise(
        "option-defaults",
        "each stated default is what the game takes without the option",
        options.option_defaults,
    ),
    Promise(
        "option-maxima",
        "every integer option has a maximum, and the game takes it and refuses one more",
        options.option_maxima,
    ),
    Promise(
        "package-files",
        "rules, browser drawing and learned policies are files of the game's package",
        options.package_files,
    ),
    Promise(
        "resampled-views",
        "resampling hidden cards leaves the seat's view and legal moves alone",
        play.resampled_views,
        part="determinize",
    ),
    Promise(
        "resampling-uniform",
        "resampling is uniform over the unseen cards at a round's first decision",
        resampling.uniform,
        part="determinize",
    ),
    Promise(
        "resampling-detaches",
        "a resampled state detaches its generator and then waits for the next deal",
        resampling.detaches,
        part="determinize",
    ),
    Promise(
        "openspiel-deck",
        "the OpenSpiel layout's deck holds the engine's deals at every player count",
        resampling.openspiel_deck,
        games=3,
        part="openspiel",
    ),
)


def promise(anchor: str) -> Promise:
    """The promise with this anchor."""
    return next(p for p in PROMISES if p.anchor == anchor)


@dataclass(frozen=True)
class Outcome:
    """What checking one promise of one game found."""

    promise: Promise
    held: bool
    where: str = ""  # players, seed, decision (or option) where it broke
    why: str = ""

    def __str__(self) -> str:
        if self.held:
            return f"{self.promise.anchor}: holds"
        return f"{self.promise.anchor}: {self.where}: {self.why}" if self.where else self.why


def check(name: str, what: Promise, *, games: int | None = None, seed: int = 0) -> Outcome:
    """Check ``what`` for game ``name`` over ``games`` games per player count
    (the promise's own number when ``None``), seeds from ``seed`` on. A game
    that raises breaks the promise where it raised."""
    probe = Probe(what.games if games is None else games, seed)
    try:
        what.run(name, probe)
    except PromiseBroken as exc:
        return Outcome(what, False, exc.where, exc.why)
    except Exception as exc:  # the game's own error is the finding, not a crash of the check
        why = " ".join(f"raised {type(exc).__name__}: {exc}".split())
        return Outcome(what, False, probe.where(), why)
    return Outcome(what, True)


def promises_of(name: str) -> tuple[Promise, ...]:
    """The promises game ``name`` makes (those about parts it lacks left out)."""
    return tuple(p for p in PROMISES if p.binds(manifest(name)))
