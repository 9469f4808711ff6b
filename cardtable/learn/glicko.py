"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), as lichess
rates puzzles: a solve is a win of the player over the puzzle, a miss a win
of the puzzle, and both sides' ratings move.

The worked example of Glickman's paper (which rounds its steps, so it
prints 1464.06, 151.52 and 0.05999):

>>> player = Rating(1500, 200, 0.06)
>>> new = update(player, [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
...                       (Rating(1700, 300), 0.0)])
>>> round(new.rating, 1), round(new.deviation, 1), round(new.volatility, 4)
(1464.1, 151.5, 0.06)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["TAU", "Rating", "expected", "update"]

SCALE = 173.7178  # Glicko-2's conversion from the Glicko scale
TAU = 0.5  # how fast volatility may change (the paper suggests 0.3 to 1.2)
EPSILON = 1e-6  # convergence of the volatility iteration


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def expected(a: Rating, b: Rating) -> float:
    """The chance that ``a`` beats ``b`` (for a puzzle: that ``a`` solves it)."""
    mu, mu_b, phi_b = (a.rating - 1500) / SCALE, (b.rating - 1500) / SCALE, b.deviation / SCALE
    return 1 / (1 + math.exp(-_g(phi_b) * (mu - mu_b)))


def update(player: Rating, results: Sequence[tuple[Rating, float]]) -> Rating:
    """``player`` after one rating period of ``results`` (opponent, score 1/0.5/0)."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.deviation / SCALE, player.volatility
    if not results:
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    v_inv = 0.0
    gains = 0.0
    for opponent, score in results:
        g = _g(opponent.deviation / SCALE)
        e = expected(player, opponent)
        v_inv += g * g * e * (1 - e)
        gains += g * (score - e)
    v = 1 / v_inv
    delta = v * gains
    sigma = _volatility(delta, phi, v, sigma)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu += phi * phi * gains
    return Rating(1500 + SCALE * mu, SCALE * phi, sigma)


def _volatility(delta: float, phi: float, v: float, sigma: float) -> float:
    """Step 5 of the paper: the Illinois algorithm for the new volatility."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - d) / (2 * d * d) - (x - a) / (TAU * TAU)

    lo = a
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        hi = a - k * TAU
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > EPSILON:
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2
        hi, f_hi = c, f_c
    return math.exp(lo / 2)
