"""Parametrize the conformance suite over every registered game, the plugin
fixture game included (registered while these tests collect and run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from cardtable.core.registry import game_names, manifest
from tests.fixtures.plugin import registered


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    with registered():
        names = game_names()
        resamplers = [name for name in names if manifest(name).has("determinize")]
        laid_out = [name for name in names if manifest(name).has("openspiel")]
    if "name" in metafunc.fixturenames:
        metafunc.parametrize("name", names)
    if "resampled" in metafunc.fixturenames:
        metafunc.parametrize("resampled", resamplers)
    if "laid_out" in metafunc.fixturenames:
        metafunc.parametrize("laid_out", laid_out)


@pytest.fixture(autouse=True)
def plugin_game() -> Iterator[None]:
    with registered():
        yield
