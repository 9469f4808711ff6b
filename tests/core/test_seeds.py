"""The one seed derivation (cardtable/core/seeds.py): stable, and distinct per path."""

from __future__ import annotations

import itertools
import random

from cardtable.arena.runner import schedule
from cardtable.core.seeds import SEED_BITS, derive_seed


def test_values_are_those_the_arena_has_always_drawn() -> None:
    # Computed with release 0.1's arena derivation (blake2b, 8 bytes, >> 1):
    # equal values keep every arena row of docs/strength.md reproducible.
    assert derive_seed(1, "deal", 0) == 7213153147746742241
    assert derive_seed(1, "bots", 0, 0) == 7277294591247229650
    first = schedule(seed=1, games=1, seats=2)[0]
    assert (first.deal_seed, first.bot_seed) == (7213153147746742241, 7277294591247229650)


def test_values_do_not_depend_on_the_process() -> None:
    # Python salts hash() per process; a derivation through it would differ here.
    assert derive_seed(0, "fair", 1, 1) == 61664723597062516
    assert derive_seed(5, "bot", 2) == 3483620063950513166


def test_distinct_paths_give_distinct_seeds() -> None:
    labels = ("deal", "bots", "bot", "fair", "hindsight", "chance", "policy", "next", "")
    paths: list[tuple[int | str, ...]] = [()]
    for length in (1, 2, 3):
        for head in range(3):
            for tail in itertools.product(labels[:4] + tuple(range(3)), repeat=length - 1):
                paths.append((head, *tail))
    paths += [(1, label) for label in labels]
    # Joining parts without a separator would make these two paths one.
    paths += [(1, "deal0"), (1, "deal", "0x"), (12,), (1, 2, 3), (123,), (1, 23)]
    seeds = {derive_seed(*path) for path in set(paths)}
    assert len(seeds) == len(set(paths))


def test_a_part_counts_by_its_text() -> None:
    # Documented: the int 2 and the string "2" are the same part.
    assert derive_seed(1, 2) == derive_seed(1, "2")
    assert derive_seed(1, 2) != derive_seed(1, "2", "")


def test_seeds_fit_in_signed_64_bits_and_seed_a_generator() -> None:
    seeds = [derive_seed(7, "deal", d) for d in range(2000)]
    assert all(0 <= s < 2**SEED_BITS for s in seeds)
    assert max(seeds) >= 2 ** (SEED_BITS - 2)  # the high bits are used, not zero
    draws = {random.Random(s).getrandbits(32) for s in seeds[:200]}
    assert len(draws) == 200
