"""What an analysis says, as JSON and as text: per decision and per player.

Units, everywhere: ``win`` is the chance of winning the game (0–1 in JSON,
percent in text), ``points`` the expected points of the deciding seat in the
round of the decision; each with its standard error. A *loss* is how much
less the move played wins (and scores) than the best alternative
(:mod:`.estimate`); *fair* values come from the seat's view, *hindsight*
values from the real hidden cards (:mod:`.run`).

A player's summary: accuracy (:func:`.classify.accuracy` over the loss in
win chance of each unforced decision), the expected win chance and points
lost in total (sums of the losses; the standard error of a sum is the root
of the summed squares; text shows win chance per decision, since chances
lost in different positions do not add up to a chance), how many decisions
fell in each class, the same in hindsight with how many moves were also the
best with the real cards, and the three costliest decisions (largest fair
loss in win chance among those named a loss: an inaccuracy, mistake or
blunder; none when every decision was best or fine).

Alternatives are listed by win chance, points breaking ties, the best first
(:mod:`.estimate`); a better move is named only beside a decision named a
loss (:mod:`.classify`), in hindsight too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardtable.analysis.classify import CLASSES, NAMED, THRESHOLDS, accuracy
from cardtable.analysis.estimate import Estimate, Evaluation
from cardtable.analysis.run import DecisionAnalysis, judge
from cardtable.core.game import JSON, Move, View
from cardtable.core.registry import manifest

__all__ = ["PlayerSummary", "analysis_json", "analysis_text", "summarise"]

COSTLIEST = 3
Draw = Callable[[View, int], str]  # a seat's view drawn as text


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    seat: int
    name: str
    decisions: int
    forced: int
    accuracy: float
    win_lost: Estimate
    points_lost: Estimate
    hindsight_win_lost: Estimate
    hindsight_points_lost: Estimate
    hindsight_best: int  # decisions whose move was also the best with the real cards
    classes: dict[str, int]
    costliest: tuple[DecisionAnalysis, ...]


def _total(parts: Sequence[Estimate]) -> Estimate:
    return Estimate(math.fsum(p.mean for p in parts), math.sqrt(math.fsum(p.se**2 for p in parts)))


def _played(evaluation: Evaluation, analysis: DecisionAnalysis) -> int:
    return evaluation.group_of(analysis.decision.played)


def summarise(analyses: Sequence[DecisionAnalysis], names: Sequence[str]) -> list[PlayerSummary]:
    """One summary per seat that has decisions in ``analyses``."""
    out = []
    for seat in sorted({a.decision.seat for a in analyses}):
        mine = [a for a in analyses if a.decision.seat == seat]
        judged = [a for a in mine if a.fair is not None and a.hindsight is not None]
        fair = [a.fair.groups[_played(a.fair, a)] for a in judged if a.fair is not None]
        hind = [a.hindsight.groups[_played(a.hindsight, a)] for a in judged if a.hindsight]
        classes = {c: sum(1 for a in judged if a.label == c) for c in CLASSES}
        costly = sorted(
            (a for a in judged if a.label in NAMED),
            key=lambda a: -a.fair.groups[_played(a.fair, a)].loss_win.mean if a.fair else 0.0,
        )
        out.append(
            PlayerSummary(
                seat=seat,
                name=names[seat],
                decisions=len(mine),
                forced=len(mine) - len(judged),
                accuracy=accuracy([100 * g.loss_win.mean for g in fair]),
                win_lost=_total([g.loss_win for g in fair]),
                points_lost=_total([g.loss_points for g in fair]),
                hindsight_win_lost=_total([g.loss_win for g in hind]),
                hindsight_points_lost=_total([g.loss_points for g in hind]),
                hindsight_best=sum(
                    1
                    for a in judged
                    if a.hindsight and a.hindsight.is_best(_played(a.hindsight, a))
                ),
                classes=classes,
                costliest=tuple(costly[:COSTLIEST]),
            )
        )
    return out


# --- JSON -------------------------------------------------------------------


def _estimate_json(e: Estimate) -> dict[str, JSON]:
    return {"mean": e.mean, "se": e.se if math.isfinite(e.se) else None}


def _evaluation_json(evaluation: Evaluation, legal: Sequence[Move]) -> dict[str, JSON]:
    best = evaluation.groups[evaluation.best]
    return {
        "best": [legal[i].to_json() for i in best.moves],
        "playouts": evaluation.playouts,
        "alternatives": [
            {
                "moves": [legal[i].to_json() for i in g.moves],
                "samples": g.samples,
                "win": _estimate_json(g.win),
                "points": _estimate_json(g.points),
                "loss": {
                    "win": _estimate_json(g.loss_win),
                    "points": _estimate_json(g.loss_points),
                },
            }
            for g in evaluation.groups
        ],
    }


def decision_json(a: DecisionAnalysis) -> dict[str, JSON]:
    d = a.decision
    out: dict[str, JSON] = {
        "round": d.round,
        "move": d.move,
        "seat": d.seat,
        "played": d.legal[d.played].to_json(),
        "forced": d.forced,
        "class": a.label,
    }
    for key, evaluation in (("fair", a.fair), ("hindsight", a.hindsight)):
        if evaluation is not None:
            body = _evaluation_json(evaluation, d.legal)
            played = evaluation.groups[_played(evaluation, a)]
            body["class"] = judge(evaluation, d.played)
            body["loss"] = {
                "win": _estimate_json(played.loss_win),
                "points": _estimate_json(played.loss_points),
            }
            out[key] = body
    return out


def _summary_json(s: PlayerSummary) -> dict[str, JSON]:
    return {
        "seat": s.seat,
        "name": s.name,
        "decisions": s.decisions,
        "forced": s.forced,
        "accuracy": s.accuracy,
        "lost": {"win": _estimate_json(s.win_lost), "points": _estimate_json(s.points_lost)},
        "hindsight_lost": {
            "win": _estimate_json(s.hindsight_win_lost),
            "points": _estimate_json(s.hindsight_points_lost),
            "best": s.hindsight_best,
        },
        "classes": dict(s.classes),
        "costliest": [{"round": a.decision.round, "move": a.decision.move} for a in s.costliest],
    }


def analysis_json(
    analyses: Sequence[DecisionAnalysis],
    names: Sequence[str],
    *,
    game: str,
    seed: int,
    budget: float,
) -> dict[str, JSON]:
    """The ``--json`` document of ``cardtable analyze``."""
    return {
        "game": game,
        "seed": seed,
        "budget": budget,
        "thresholds": {name: t / 100 for name, t in THRESHOLDS},
        "players": [_summary_json(s) for s in summarise(analyses, names)],
        "decisions": [decision_json(a) for a in analyses],
    }


# --- text -------------------------------------------------------------------


def _order(evaluation: Evaluation) -> list[int]:
    """The alternatives by win chance, points breaking ties, the best first."""
    return sorted(
        range(len(evaluation.groups)),
        key=lambda g: (
            -evaluation.groups[g].win.mean,
            -evaluation.groups[g].points.mean,
            g != evaluation.best,
        ),
    )


def _gain(loss: Estimate, scale: float, unit: str) -> str:
    """What the better move gains: ``+2.4% ±0.5``."""
    return f"{scale * loss.mean:+.1f}{unit} ±{scale * loss.se:.1f}"


def _moves(legal: Sequence[Move], moves: Sequence[int]) -> str:
    return " = ".join(str(legal[i]) for i in moves)


def _line(a: DecisionAnalysis) -> str:
    d = a.decision
    head = f"  round {d.round:>2} move {d.move:>3}  {d.legal[d.played]!s:<22}"
    if a.fair is None or a.hindsight is None:
        return head + "forced"
    played = a.fair.groups[_played(a.fair, a)]
    text = f"{head}{a.label:<11} win {_change(played.loss_win, 100, '%')}"
    text += f"  points {_change(played.loss_points, 1, '')}"
    if a.label in NAMED:
        text += f"  better {_moves(d.legal, a.fair.groups[a.fair.best].moves)}"
    hind = a.hindsight
    if judge(hind, d.played) in NAMED:
        better = _moves(d.legal, hind.groups[hind.best].moves)
        lost = hind.groups[_played(hind, a)].loss_win
        text += f"  | hindsight better {better} ({_change(lost, 100, '%')})"
    return text


def _change(loss: Estimate, scale: float, unit: str) -> str:
    """A loss written as the change it made: ``-2.4% ±0.5`` (never ``-0.0``)."""
    return f"{round(-scale * loss.mean, 1) + 0.0:+.1f}{unit} ±{scale * loss.se:.1f}"


def _alternatives(a: DecisionAnalysis, evaluation: Evaluation) -> list[str]:
    d = a.decision
    played = _played(evaluation, a)
    order = _order(evaluation)
    shown = order[:6] if played in order[:6] else [*order[:6], played]
    lines = []
    for g in shown:
        value = evaluation.groups[g]
        mark = "played" if g == played else ("best" if g == evaluation.best else "")
        lines.append(
            f"      {_moves(d.legal, value.moves):<28} win {100 * value.win.mean:5.1f}% "
            f"±{100 * value.win.se:.1f}  points {value.points.mean:5.2f} ±{value.points.se:.2f}"
            f"  {mark}"
        )
    if len(order) > len(shown):
        lines.append(f"      … {len(order) - len(shown)} more")
    return lines


def analysis_text(
    analyses: Sequence[DecisionAnalysis],
    names: Sequence[str],
    *,
    game: str,
    seed: int,
    budget: float,
    draw: Draw | None = None,
) -> str:
    """The text report: per player the summary and costliest decisions (the
    table drawn by ``draw`` as that seat saw it), then every decision.
    ``game`` is the game's name; people read its title."""
    title = manifest(game).title
    (_, inaccuracy), (_, mistake), (_, blunder) = THRESHOLDS
    out = [
        f"Analysis of a game of {title} ({budget:g} s per decision, nominal; analysis seed {seed},",
        "the seed of its sampled deals and playouts, not of the game's deal).",
        "win = change in the chance of winning the game, points = expected points this",
        "round, both against the best move, from what the seat could see (± one standard",
        "error); hindsight = the same with the real hidden cards.",
        "best = the move with the highest win chance found; inaccuracy, mistake, blunder =",
        f"clearly lost at least {inaccuracy:g}, {mistake:g}, {blunder:g} points of win chance;"
        " fine = any other move.",
        "accuracy = 100% when every decision was the best found, less the more win chance",
        "each gave away.",
        "",
    ]
    for s in summarise(analyses, names):
        counts = ", ".join(f"{n} {c}" for c, n in s.classes.items() if n)
        judged = max(1, s.decisions - s.forced)
        out += [
            f"{s.name} (seat {s.seat}): accuracy {s.accuracy:.1f}% over"
            f" {s.decisions - s.forced} decisions (and {s.forced} forced, not judged)",
            f"  lost {s.points_lost.mean:.2f} ±{s.points_lost.se:.2f} expected points in all,"
            f" {100 * s.win_lost.mean / judged:.1f}% ±{100 * s.win_lost.se / judged:.1f}"
            " win chance a decision on average",
            f"  hindsight (real cards): best in {s.hindsight_best} of {s.decisions - s.forced},"
            f" {s.hindsight_points_lost.mean / judged:.2f} points and"
            f" {100 * s.hindsight_win_lost.mean / judged:.1f}% win chance short of the best"
            " a decision on average",
            f"  {counts}",
        ]
        if not s.costliest:
            out.append("  no inaccuracy, mistake or blunder")
        for rank, a in enumerate(s.costliest, start=1):
            assert a.fair is not None
            d = a.decision
            played = a.fair.groups[_played(a.fair, a)]
            best = a.fair.groups[a.fair.best]
            out.append(
                f"  {rank}. round {d.round}, move {d.move}: played {d.legal[d.played]} ({a.label});"
                f" better {_moves(d.legal, best.moves)}: {_gain(played.loss_win, 100, '%')}"
                f" win chance, {_gain(played.loss_points, 1, '')} points"
            )
            if draw is not None:
                out += ["    " + line for line in draw(d.view, d.seat).rstrip().splitlines()]
            out += _alternatives(a, a.fair)
        out.append("")
    out.append("Every decision (win and points: the move played against the best):")
    out += [_line(a) for a in analyses]
    return "\n".join(out) + "\n"
