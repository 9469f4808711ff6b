"""The analysis's seeds: derived per decision, so each decision reproduces alone.

A decision's playouts draw on generators seeded from (the analysis seed,
where the decision is, which sample), never on a generator shared along the
game: analyzing one decision, or all of them over any number of processes,
gives the same numbers. The derivation is the project's one
(:func:`cardtable.core.seeds.derive_seed`), re-exported here as the
analysis modules' (and the terminal hint's) door to it.

>>> derive_seed(1, "fair", 2, 7) == derive_seed(1, "fair", 2, 7)
True
>>> derive_seed(1, "fair", 2, 7) != derive_seed(1, "fair", 2, 8)
True
"""

from __future__ import annotations

from cardtable.core.seeds import derive_seed

__all__ = ["derive_seed"]
