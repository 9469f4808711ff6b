"""What every registered game promises while it is played, checked over random
games of each (:mod:`cardtable.conformance`; docs/conformance.md states each
promise under the anchor its test names).

Parametrized over ``cardtable.core.registry.game_names()`` (the fixture
plugin game included), so a new game inherits these tests by registering.
"""

from __future__ import annotations

from tests.conformance.promised import holds


def test_legal_moves_never_empty_before_the_end(name: str) -> None:
    holds(name, "legal-moves")


def test_views_round_trip_through_json_text(name: str) -> None:
    holds(name, "views-json")


def test_a_clone_equals_its_original_and_stays_independent(name: str) -> None:
    holds(name, "clones")


def test_a_record_replays_to_the_same_views(name: str) -> None:
    holds(name, "records")


def test_views_unchanged_by_swapping_unseen_cards(name: str) -> None:
    holds(name, "resampled-views")
