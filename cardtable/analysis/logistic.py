"""A small logistic regression, fitted by Newton's method in plain Python.

The win model (:mod:`.winmodel`) needs one smooth curve to fall back on
where its games never went; a handful of features and a few thousand rows
need no numerical library, and plain floats in a fixed order give the same
bits in every process.

>>> model = fit_logistic([[1.0, x] for x in (-2.0, -1.0, 1.0, 2.0)], [0.0, 1.0, 0.0, 1.0])
>>> round(model.probability([1.0, 0.0]), 3)
0.5
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Logistic", "fit_logistic"]

RIDGE = 1e-3  # keeps Newton's steps finite when the data separate perfectly
STEPS = 50


@dataclass(frozen=True, slots=True)
class Logistic:
    coefficients: tuple[float, ...]

    def probability(self, features: Sequence[float]) -> float:
        z = math.fsum(b * x for b, x in zip(self.coefficients, features, strict=True))
        if z < -700:  # exp would overflow; the probability is 0 to double precision
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))


def fit_logistic(rows: Sequence[Sequence[float]], targets: Sequence[float]) -> Logistic:
    """Maximum likelihood (with a tiny ridge) for targets in [0, 1]."""
    k = len(rows[0]) if rows else 0
    beta = [0.0] * k
    for _ in range(STEPS):
        model = Logistic(tuple(beta))
        grad = [-RIDGE * b for b in beta]
        hess = [[RIDGE if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(rows, targets, strict=True):
            p = model.probability(x)
            w = p * (1.0 - p)
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(i, k):
                    hess[i][j] += w * x[i] * x[j]
        for i in range(k):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max((abs(s) for s in step), default=0.0) < 1e-10:
            break
    return Logistic(tuple(beta))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (``matrix`` is positive definite)."""
    k = len(vector)
    a = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for c in range(k):
        pivot = max(range(c, k), key=lambda r: abs(a[r][c]))
        a[c], a[pivot] = a[pivot], a[c]
        for r in range(k):
            if r != c and a[r][c] != 0.0:
                f = a[r][c] / a[c][c]
                for cc in range(c, k + 1):
                    a[r][cc] -= f * a[c][cc]
    return [a[i][k] / a[i][i] for i in range(k)]
