"""The one seed derivation: a seed for any path of parts, by hashing.

Every layer that needs reproducible randomness over processes (the arena's
deals and bots, the analysis's samples and win model, the adapters' bots
and skipped episodes) derives its seeds here, so a result depends only on
the run's seed and where in the run it is drawn, never on which process
draws it or in what order.

Why this hash and not numpy's ``SeedSequence``: ``core`` imports only the
standard library, and every game deals from a ``random.Random``, which takes
an int; ``SeedSequence`` takes only ints, so named parts ("deal", "fair")
would need hashing first anyway. Why blake2b over the parts' text: it is the
derivation the arena has used since release 0.1, kept bit for bit, so every
arena row of ``docs/strength.md`` (thousands of games each) stays exactly
reproducible with its command.

A part counts by its text: ``2`` and ``"2"`` are the same part. Parts are
joined by the unit separator (``"\\x1f"``), which no label of ours contains
and JSON text never does (it escapes control characters), so two different
paths of such parts never share their text.

>>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
True
>>> derive_seed(1, "deal", 0)
7213153147746742241
"""

from __future__ import annotations

import hashlib

__all__ = ["SEED_BITS", "derive_seed"]

SEED_BITS = 63  # below 2**63: fits a signed 64-bit int (numpy, OpenSpiel) as well as Random


def derive_seed(*parts: int | str) -> int:
    """A ``SEED_BITS``-bit seed from ``parts``, the same on every machine and Python run.

    Hashing (instead of ``hash()``, which Python salts per process, or a
    shared generator, whose draws depend on the order of use) makes each
    seed depend only on its path.
    """
    text = "\x1f".join(str(p) for p in parts).encode()
    digest = hashlib.blake2b(text, digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)
