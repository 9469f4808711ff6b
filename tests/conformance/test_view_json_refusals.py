"""A view read from JSON is either refused, saying where, or taken exactly
as written: for every registered game (the fixture plugin game included).
The checks and what "saying where" means are in
:mod:`cardtable.conformance.view_json`; what only a game knows (its exact
ranges) is tested in the game's own folder.
"""

from __future__ import annotations

from tests.conformance.promised import holds


def test_views_read_back_exactly_as_written(name: str) -> None:
    holds(name, "views-read-back")


def test_malformed_views_are_refused_saying_where_or_read_exactly(name: str) -> None:
    holds(name, "view-refusals")
