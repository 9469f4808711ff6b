"""Parametrize the conformance suite over every registered game, the plugin
fixture game included (registered while these tests collect and run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardtable.core.registry import game_names
from tests.fixtures.plugin import registered


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "name" in metafunc.fixturenames:
        with registered():
            metafunc.parametrize("name", game_names())


@pytest.fixture(autouse=True)
def plugin_game() -> Iterator[None]:
    with registered():
        yield
