"""What every registered game's manifest and optional parts promise
(:mod:`cardtable.conformance`; docs/conformance.md states each promise under
the anchor its test names): options and their defaults and maxima, the
package's files, ``determinize``'s samples and the OpenSpiel layout's deck.
"""

from __future__ import annotations

from tests.conformance.promised import holds


def test_the_manifest_lists_the_games_options_each_with_its_default(name: str) -> None:
    holds(name, "options-listed")


def test_stated_defaults_are_what_the_game_takes_without_options(name: str) -> None:
    holds(name, "option-defaults")


def test_a_stated_maximum_is_the_largest_value_the_game_takes(name: str) -> None:
    """Every integer option has a maximum (docs/decisions.md), which the game's
    own option check enforces exactly."""
    holds(name, "option-maxima")


def test_rules_and_browser_drawing_are_files_of_the_package(name: str) -> None:
    holds(name, "package-files")


def test_resampling_is_uniform_at_a_rounds_first_decision(name: str) -> None:
    holds(name, "resampling-uniform")


def test_a_resampled_state_detaches_its_generator(name: str) -> None:
    holds(name, "resampling-detaches")


def test_an_openspiel_layout_deals_the_engines_cards_at_every_player_count(name: str) -> None:
    holds(name, "openspiel-deck")
