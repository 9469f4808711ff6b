"""One playout: a move, then the policy in every seat to the end of the round.

It yields the two numbers analysis reports, both from the deciding seat's
side: its points in the round of the decision (``round_scores``: the round's
total, points scored before the decision included), and its chance of
winning the game: 1 or 0 (``1/k`` for a win shared by ``k``) when the game
ends within the playout, else the win model's estimate from the standings
the round leaves (:mod:`.winmodel`). Where the model has no answer for
those standings, the playout plays on to the next round's end where it has
one, or to the end of the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.analysis.evaluator import ChanceAfterRound, Cutoff, PlayoutPolicy
from cardtable.core.game import Move, State

__all__ = ["MAX_MOVES", "ChanceAfterRound", "Outcome", "play_out"]

# A round that has not ended after this many playout moves is scored as it
# stands (a guard against a policy that never finishes a round).
MAX_MOVES = 5_000


@dataclass(frozen=True, slots=True)
class Outcome:
    win: float
    points: float
    moves: int


def play_out(
    state: State,
    seat: int,
    move: Move,
    policy: PlayoutPolicy,
    chance: ChanceAfterRound,
    cutoff: Cutoff | None = None,
) -> Outcome:
    """Apply ``move`` to ``state`` (changed in place; it must have a generator,
    as a round's end deals the next), then follow ``policy`` to the first
    round's end that ``chance`` can value, or to the end of the game; with a
    ``cutoff``, stop after its number of moves if the round of the decision
    is still in play, and take its estimate."""
    round_number = state.round_number
    state.apply(move)
    moves = 1
    win: float | None = None
    current = round_number
    while not state.finished and moves < MAX_MOVES:
        if cutoff is not None and moves >= cutoff.moves and state.round_number == round_number:
            win, points = cutoff.value(state, seat, chance)
            return Outcome(win, points, moves)
        if state.round_number != current:
            win = chance(state.scores, seat, current)
            if win is not None:
                break
            current = state.round_number
        state.apply(policy(state))
        moves += 1
    if state.finished:
        winners = state.winners
        win = 1.0 / len(winners) if seat in winners else 0.0
    elif win is None:  # MAX_MOVES: the policy did not finish; value it as it stands
        win = chance(state.scores, seat, current) or 0.0
    rounds = state.round_scores
    points = rounds[round_number - 1][seat] if len(rounds) >= round_number else 0
    return Outcome(win, float(points), moves)
