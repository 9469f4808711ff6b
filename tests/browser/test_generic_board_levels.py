"""The resampling plugin game (``fixture-trick-resampled``: no board, no
heuristic, no search bot of its own) played in the browser through the
generic board against the levels that search: ``medium`` and ``hard`` seat
the generic search bot, which thinks in the server's worker processes.
FT-1: two rounds of three cards for each of two players."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bots.plugin import NAME, registered
from tests.browser import helpers
from tests.browser.helpers import Person, Server


@pytest.fixture(scope="module")
def twin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``cardtable serve`` with both fixture games installed as plugins."""
    with registered():
        running = Server(tmp_path_factory.mktemp("levels") / "tables.sqlite3")
        running.start()
        yield running
        running.stop()


def table_against(server: Server, level: str) -> str:
    body = {
        "game": NAME, "private": True, "turn_seconds": None, "bot_delay_ms": 0,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": level}],
    }  # fmt: skip
    request = urllib.request.Request(
        server.url + "/api/tables", data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        table_id: str = json.load(response)["id"]
    return table_id


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_person_plays_the_plugin_game_against_a_searching_level(
    browser: Any, twin_server: Server, screenshots: Path, level: str
) -> None:
    table = table_against(twin_server, level)
    ann = Person.open(browser, "Ann", viewport={"width": 1280, "height": 800})
    page = ann.page
    page.goto(f"{twin_server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    assert page.locator("#board .gb-table").count() == 1  # the generic board draws it
    assert f"({level})" in " ".join(page.locator("#board .gb-seat .seat-name").all_text_contents())

    def act(person: Person, made: int) -> None:
        page.locator(".gb-hand-cards button.is-playable").first.click()

    assert helpers.play_until_finished([ann], act) == 6  # FT-1: the person's three a round
    assert page.locator(".gb-final").count() == 1
    assert page.locator("#end-panel .standings li").count() == 2
    with urllib.request.urlopen(f"{twin_server.url}/api/tables/{table}/record", timeout=10) as r:
        record: dict[str, Any] = json.load(r)
    plays = [m for rnd in record["rounds"] for m in rnd["moves"]]
    assert len(plays) == 12  # the bot answered every one of its six turns
    assert ann.errors == []
    helpers.shoot(page, screenshots, f"generic-board-{level}-final")
    ann.close()
