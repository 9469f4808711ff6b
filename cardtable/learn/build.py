"""Building a puzzle set: bots of mixed levels play, the analysis judges their decisions.

Each game seats a level per seat (drawn by hashing the seed, so a build
reproduces), plays to the end, and walks its record as ``cardtable
analyze`` does; ``per_game`` unforced decisions of each game (drawn the same
way, so early and late decisions of the game alike) are valued from their
seat's view (the fair evaluation) and kept where :func:`.puzzles.make_puzzle`
finds the best move clearly best. Only fair values are needed, so the
hindsight half of the analysis is not run.

Three passes, because clear decisions are rare (measured: about one in
twenty at 0.4 s, one in sixty for MyRummy 111) and a clear margin needs many
samples. A glance at a quarter of ``budget`` drops a decision whose best
move leads the next by less than :data:`GLANCE_LEAD` points on the means
(about half of MyRummy's decisions; of 77 measured, none of those dropped
passed the screen); a screen at ``budget`` keeps a decision whose best move
leads every other by :data:`MARGIN` on the means alone; only those are
valued again at ``CONFIRM`` times the budget, the evaluation the puzzle keeps
and is judged by. The glance and the screen only choose what to confirm:
what makes a puzzle is the confirming evaluation alone. Last, every puzzle
found is valued once more on other deals at ``RECHECK`` times the confirming
budget, and kept only if its solution is found best again
(:func:`recheck_set`; measured: 210 of 212 Marshmallow Test puzzles were,
45 of 45 MyRummy 111). Each puzzle is rechecked as soon as it is found, so a
build asked for ``count`` puzzles stops once it has that many.

Any game whose decisions a search can value builds puzzles alike: one that
resamples hidden cards (its manifest's ``determinize``), which seats a search
bot (its own or the generic ``search``); :func:`require_search` refuses any
other in one line. The analysis is bounded by counts, not the clock: the
games played, the decisions per game, and the playout moves each evaluation
may spend (``budget`` in nominal seconds, turned into moves by the
evaluator); the bots that play the games think at most ``medium``'s time a move.

A puzzle's first rating says what is known before anyone tries it: a
solution that the ``easy`` level's rules of thumb find is easier (-250), one
they miss harder (+250), and a solution that a random choice would often
hit is easier still (up to -200, when every move solves it).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from cardtable.analysis.decisions import Decision, walk
from cardtable.analysis.estimate import Evaluation
from cardtable.analysis.run import Analyzer
from cardtable.analysis.seeds import derive_seed
from cardtable.bots import level_for, make_bot
from cardtable.core.errors import CardtableError, RecordError
from cardtable.core.game import JSON, Game
from cardtable.core.registry import manifest
from cardtable.core.replay import load_record, parse_record
from cardtable.learn.puzzles import (
    MARGIN,
    START_RATING,
    Puzzle,
    PuzzleSet,
    Theme,
    legal_of,
    make_puzzle,
    theme_for,
)

__all__ = [
    "CONFIRM",
    "GLANCE",
    "GLANCE_LEAD",
    "LEVELS",
    "RECHECK",
    "BuildStats",
    "NoSearchError",
    "build_puzzles",
    "has_search",
    "puzzle_of",
    "recheck_set",
    "rechecked",
    "require_search",
]

CONFIRM = 5  # the confirming pass's budget, in screens
GLANCE = 0.25  # the first look's budget, in screens
GLANCE_LEAD = 0.5  # percentage points of win chance the best must lead by at a glance
RECHECK = 2  # the recheck's budget, in confirmations

#: The levels that play the games the puzzles come from: their mistakes differ.
LEVELS = ("random", "easy", "easy", "medium")


class NoSearchError(CardtableError):
    """A game no search can value decisions of: it has no puzzles to build."""


def has_search(game_name: str) -> bool:
    """Whether a search can value the game's decisions: it resamples hidden
    cards and so seats a search bot (its own, else the generic one)."""
    return manifest(game_name).has("determinize") and level_for("medium", game_name) is not None


def require_search(game_name: str) -> None:
    """Refuse a game without a search bot, in one line that says why."""
    if not has_search(game_name):
        raise NoSearchError(
            f"{game_name} has no search bot (its manifest names no determinize, which"
            " resamples the cards a seat cannot see), so no puzzles can be built for it:"
            " a puzzle is a decision that search finds clearly best"
        )


@dataclass(frozen=True, slots=True)
class BuildStats:
    games: int
    analysed: int  # unforced decisions valued
    puzzles: int
    cpu_seconds: float


def build_puzzles(
    game: Game,
    *,
    games: int,
    budget: float,
    seed: int,
    per_game: int,
    levels: Sequence[str] = LEVELS,
    records: Sequence[str] = (),
    progress: Callable[[BuildStats], None] | None = None,
    count: int | None = None,
) -> tuple[PuzzleSet, BuildStats]:
    """Turn the clearest decisions of ``records`` (people's games, record
    texts of this game and options) and of ``games`` games between bots into
    puzzles; with ``count``, stop as soon as that many are found."""
    require_search(game.name)
    start = time.process_time()
    analyzer = Analyzer(game)
    theme = theme_for(manifest(game.name))
    found: dict[str, Puzzle] = {}
    seen: set[str] = set()  # every puzzle id found, kept or rechecked out
    analysed = 0

    def enough() -> bool:
        return count is not None and len(found) >= count

    sources = [*(("record", r) for r in range(len(records))), *(("bots", g) for g in range(games))]
    done = 0
    for done, (kind, g) in enumerate(sources, start=1):
        if kind == "record":
            decisions = _recorded(game, records[g], g)
        else:
            decisions = _decisions(game, g, seed, levels)
        # Bot games keep the seeds they had before records could be added.
        source: tuple[str | int, ...] = (kind, g) if kind == "record" else (g,)
        for decision in _sampled(decisions, per_game, seed, source):
            if enough():
                break
            analysed += 1
            where = derive_seed(seed, *source, decision.index)
            puzzle = puzzle_of(analyzer, theme, decision, budget, where)
            if puzzle is None or puzzle.id in seen:
                continue
            seen.add(puzzle.id)
            if rechecked(analyzer, (puzzle,), budget):
                found[puzzle.id] = puzzle
        if progress is not None:
            progress(BuildStats(done, analysed, len(found), time.process_time() - start))
        if enough():
            break
    kept = tuple(found.values())
    stats = BuildStats(done, analysed, len(kept), time.process_time() - start)
    built: dict[str, JSON] = {
        "games": sum(1 for kind, _ in sources[:done] if kind == "bots"),
        "records": sum(1 for kind, _ in sources[:done] if kind == "record"),
        "budget": budget,
        "confirm": CONFIRM,
        "glance": [GLANCE, GLANCE_LEAD],
        "recheck": RECHECK,
        "rechecked_out": len(seen) - len(kept),
        "seed": seed,
        "per_game": per_game,
        "levels": list(levels),
        "analysed": analysed,
        "cpu_seconds": round(stats.cpu_seconds, 1),
    }
    if count is not None:
        built["count"] = count
    return PuzzleSet(game.name, game.options_json, (built,), kept), stats


def recheck_set(game: Game, puzzles: PuzzleSet, budget: float) -> PuzzleSet:
    """``puzzles`` less those a recheck drops (:func:`rechecked`), for a set
    built before builds rechecked; its build records say what it cost."""
    start = time.process_time()
    kept = rechecked(Analyzer(game), puzzles.puzzles, budget)
    record: dict[str, JSON] = {
        "games": 0,
        "analysed": 0,
        "budget": budget,
        "recheck": RECHECK,
        "checked": len(puzzles.puzzles),
        "rechecked_out": len(puzzles.puzzles) - len(kept),
        "cpu_seconds": round(time.process_time() - start, 1),
    }
    return replace(puzzles, builds=(*puzzles.builds, record), puzzles=kept)


def rechecked(analyzer: Analyzer, puzzles: Sequence[Puzzle], budget: float) -> tuple[Puzzle, ...]:
    """The puzzles whose solution an evaluation on other deals, at ``RECHECK``
    times the confirming budget, finds best again."""
    game = analyzer.game
    kept: list[Puzzle] = []
    for puzzle in puzzles:
        again = analyzer.evaluate_view(
            game.view_from_json(puzzle.view),
            legal_of(game, puzzle),
            seat=puzzle.seat,
            budget=budget * CONFIRM * RECHECK,
            seed=derive_seed("recheck", puzzle.id),
        )
        if set(again.groups[again.best].moves) == set(puzzle.solution):
            kept.append(puzzle)
    return tuple(kept)


def puzzle_of(
    analyzer: Analyzer, theme: Theme, decision: Decision, budget: float, seed: int
) -> Puzzle | None:
    """The rated puzzle ``decision`` makes, or ``None``: judged from its view
    alone (its true state, there for hindsight, is never read)."""
    evaluation = _confirmed(analyzer, decision, budget, seed)
    if evaluation is None:
        return None
    puzzle = make_puzzle(decision.view, decision.legal, decision.seat, evaluation, theme)
    return None if puzzle is None else _rated(analyzer.game, puzzle, decision, seed)


def _confirmed(
    analyzer: Analyzer, decision: Decision, budget: float, seed: int
) -> Evaluation | None:
    """The confirming evaluation of a decision that passes the glance and the screen."""
    for share, least in ((GLANCE, GLANCE_LEAD), (1.0, MARGIN)):
        look = analyzer.evaluate_view(
            decision.view, decision.legal, seat=decision.seat, budget=budget * share, seed=seed
        )
        if _lead(look) < least:
            return None
    return analyzer.evaluate_view(
        decision.view,
        decision.legal,
        seat=decision.seat,
        budget=budget * CONFIRM,
        seed=derive_seed(seed, "confirm"),
    )


def _lead(evaluation: Evaluation) -> float:
    """How far the best alternative leads the next, on the means alone (percentage points)."""
    return min(
        (100 * g.loss_win.mean for i, g in enumerate(evaluation.groups) if i != evaluation.best),
        default=-math.inf,
    )


def _decisions(game: Game, g: int, seed: int, levels: Sequence[str]) -> list[Decision]:
    """Every unforced decision of game ``g``, played by a level per seat."""
    seats = range(game.num_players)
    bots = {
        s: make_bot(
            levels[derive_seed(seed, "level", g, s) % len(levels)],
            game,
            s,
            random.Random(derive_seed(seed, "bot", g, s)),
        )
        for s in seats
    }
    state = game.new_game(random.Random(derive_seed(seed, "deal", g)))
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state.view(seat), state.legal_moves()))
    return [d for d in walk(parse_record(state.record())) if not d.forced]


def _recorded(game: Game, text: str, r: int) -> list[Decision]:
    """Every unforced decision of a person's record (it must replay, with this game's options)."""
    load_record(text)  # it replays without a rule break (RuleBreakError or RecordError)
    parsed = parse_record(text)
    if (parsed.game.name, parsed.game.options_json) != (game.name, game.options_json):
        raise RecordError(f"record {r + 1}", f"not a {game.name} game with the set's options")
    return [d for d in walk(parsed) if not d.forced]


def _sampled(
    decisions: list[Decision], k: int, seed: int, source: tuple[str | int, ...]
) -> list[Decision]:
    rng = random.Random(derive_seed(seed, "sample", *source))
    chosen = rng.sample(range(len(decisions)), min(k, len(decisions)))
    return [decisions[i] for i in sorted(chosen)]


def _rated(game: Game, puzzle: Puzzle, decision: Decision, seed: int) -> Puzzle:
    easy = make_bot("easy", game, decision.seat, random.Random(derive_seed(seed, "easy")))
    found = decision.legal.index(easy.choose(decision.view, decision.legal)) in puzzle.solution
    hit_by_chance = len(puzzle.solution) / len(decision.legal)
    rating = START_RATING + (-250 if found else 250) - 200 * hit_by_chance
    return replace(puzzle, rating=rating)
