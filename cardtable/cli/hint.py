"""The terminal's ``hint`` command and the offer to analyze a finished game.

``hint`` at the move prompt values every legal move from the person's own
view only (the same evaluation as ``cardtable analyze``: deals sampled
consistently with what the seat has seen, played out by the evaluator's
policy), then asks for the move again. A game in which hints were used says
so in its record: a top-level ``hints`` list of ``{"round", "move", "seat"}``,
an extension field that ``cardtable replay`` ignores. A game that offers no
resampling of hidden cards has no hints and no analysis: ``hint`` says so in
one line, and the end of the game offers none.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from cardtable.analysis.run import DEFAULT_BUDGET, Analyzer, analyze_record
from cardtable.analysis.seeds import derive_seed
from cardtable.cli.analyze_cmd import report_text
from cardtable.cli.ui import ReadLine
from cardtable.core.game import JSON, Game, Move, State, View
from cardtable.core.registry import manifest

__all__ = ["HINT_BUDGET", "HINT_WORDS", "Hints", "offer_analysis"]

HINT_BUDGET = 1.0  # nominal seconds of work per hint
HINT_WORDS = ("hint",)


class Hints:
    """Answers ``hint`` for one seat and remembers where it was asked."""

    def __init__(
        self, game: Game, seat: int, console: Console, *, seed: int = 0, budget: float = HINT_BUDGET
    ) -> None:
        self.game = game
        self.seat = seat
        self.console = console
        self.seed = seed
        self.budget = budget
        self.used: list[dict[str, JSON]] = []
        self._analyzer: Analyzer | None = None
        # The hint samples the unseen cards: only a game that resamples them has hints.
        self.available = manifest(game.name).has("determinize")
        self._introduced = not self.available  # nothing to introduce

    def reader(self, read_line: ReadLine, state: State) -> ReadLine:
        """``read_line`` for the seat's move now: a typed ``hint`` is answered
        here and the prompt asked again."""
        view = state.view(self.seat)
        legal = tuple(state.legal_moves())
        where = {"round": state.round_number, "move": state.moves_in_round + 1, "seat": self.seat}
        if not self._introduced:
            self._introduced = True
            self._say("(Type hint at your move for the value of each choice, from your view.)")

        def read(prompt: str) -> str:
            while True:
                line = read_line(prompt)
                if line.strip().lower() not in HINT_WORDS:
                    return line
                if not self.available:
                    title = manifest(self.game.name).title
                    self._say(f"{title} has no hints: it does not resample hidden cards.")
                    continue
                if where not in self.used:
                    self.used.append(dict(where))
                self.show(view, legal)

        return read

    def show(self, view: View, legal: Sequence[Move]) -> None:
        """Print the recommendation and the value of every alternative."""
        if len(legal) == 1:
            self._say(f"Hint: {legal[0]} is your only legal move.")
            return
        if self._analyzer is None:
            self._say("Hint: learning how standings turn into wins (once per game)…")
            self._analyzer = Analyzer(self.game)
        seed = derive_seed(self.seed, "hint", *(json.dumps(view.to_json(), sort_keys=True),))
        values = self._analyzer.evaluate_view(
            view, legal, seat=self.seat, budget=self.budget, seed=seed
        )
        best = values.groups[values.best]
        self._say(f"Hint: {_names(legal, best.moves)} (from your view only)")
        order = sorted(
            range(len(values.groups)),
            key=lambda g: (-values.groups[g].win.mean, -values.groups[g].points.mean),
        )
        for g in order:
            value = values.groups[g]
            self._say(
                f"  {_names(legal, value.moves):<24} win {100 * value.win.mean:5.1f}%"
                f"  points this round {value.points.mean:5.2f}"
                f"  (±{100 * value.win.se:.1f}%, ±{value.points.se:.2f})"
            )

    def record_fields(self) -> dict[str, JSON]:
        """The record's extension field, empty when no hint was asked for."""
        return {"hints": list(self.used)} if self.used else {}

    def _say(self, text: str) -> None:
        self.console.print(Text(text, style="cyan"))


def _names(legal: Sequence[Move], moves: Sequence[int]) -> str:
    return " = ".join(str(legal[i]) for i in moves)


def offer_analysis(
    record: dict[str, Any],
    seat: int,
    names: Sequence[str],
    console: Console,
    read_line: ReadLine,
    *,
    game: Game,
    budget: float = DEFAULT_BUDGET,
    seed: int = 0,
) -> bool:
    """Ask whether to analyze the finished game for ``seat``; print it if so.
    Returns whether it was analyzed (``cardtable analyze`` with the same seed
    and budget prints the same). A game that cannot be analyzed is not offered."""
    if not manifest(game.name).has("determinize"):
        return False
    answer = read_line("Analyze your decisions in this game? [y/N] ").strip().lower()
    if answer not in ("y", "yes"):
        return False
    console.print(Text("Analyzing… (about half a second per decision)"))
    analyses = analyze_record(json.dumps(record), seats=[seat], budget=budget, seed=seed)
    console.print(Text(report_text(analyses, game, names, seed=seed, budget=budget)))
    return True
