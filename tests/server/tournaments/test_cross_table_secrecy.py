"""Secrecy across a tournament's tables (issue 31, item 2): a person still
playing deal k learns nothing of how deal k went at another table.

The same tournament (same id, seed, entrants and seating) is run twice. In
both, the people of one table have not moved yet; at the other table the
deal is played to its end, differently in each run (other moves, so other
cards fall and other points are made). Everything the waiting person can
ask the server about the tournament and about the other table, and what a
socket to that table is sent, must be the same in both runs: nothing they
receive depends on how that table played their cards.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardtable.server.web import tournaments_api
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.helpers import play_out, sqlite_url
from tests.server.tournaments.helpers import director, get, make, people, sweep

NAMES = ["Ann", "Bob", "Cy"]


def _run(folder: Path, play_seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the waiting person received, and the other table's record."""
    with account_server(sqlite_url(folder)) as server:
        director(server).bot_delay_ms = 0
        browsers = dict(zip(NAMES, people(server, NAMES), strict=True))
        tid = make(browsers["Ann"], deals=2)
        for name in NAMES:
            browsers[name].post(f"/api/tournaments/{tid}/enter")
        browsers["Ann"].post(f"/api/tournaments/{tid}/start")
        seats = {name: get(b, tid)["table"] for name, b in browsers.items()}
        by_table: dict[str, list[str]] = {}
        for name, seat in seats.items():
            by_table.setdefault(seat["id"], []).append(name)
        (waiting_table,) = [t for t, names in by_table.items() if len(names) == 2]
        (played_table,) = [t for t, names in by_table.items() if len(names) == 1]
        (player,) = by_table[played_table]
        waiter = browsers[by_table[waiting_table][0]]
        mine = seats[player]
        with browsers[player].connect(played_table, mine["token"]) as conn:
            play_out(conn, {mine["seat"]: conn}, random.Random(play_seed))
        sweep(server)
        seen = _everything(waiter, tid, played_table, player)
        names = {played_table: "<other table>", waiting_table: "<own table>"}
        table = server.client.portal.call(server.hub.get, played_table)  # type: ignore[union-attr]
        return _normal(seen, names), table.record()


def _everything(browser: AccountServer, tid: str, other: str, other_player: str) -> dict[str, Any]:
    """Every answer about the tournament and the other table a person may ask for."""
    out: dict[str, Any] = {}
    for path in (
        "/api/tournaments",
        f"/api/tournaments/{tid}",
        f"/api/tournaments/{tid}/deals/0",
        f"/api/tournaments/{tid}/download",
        f"/api/tables/{other}",
        f"/api/tables/{other}/record",
        f"/api/tables/{other}/replay",
        f"/api/tables/{other}/replay?seat=all",
        f"/api/tables/{other}/analysis",
        f"/api/players/{other_player}",
        "/api/me/games",
        "/api/live-tables",
        "/api/tables",
    ):
        response = browser.client.get(path)
        out[path] = (response.status_code, response.json())
    analyze = browser.client.post(f"/api/tables/{other}/analysis", json={"seat": 0})
    out["analyze"] = (analyze.status_code, analyze.json())
    with browser.client.websocket_connect(f"/ws/{other}") as spectator:
        out["spectator"] = spectator.receive_json()
    return out


def _normal(value: Any, names: dict[str, str]) -> Any:
    """``value`` with table ids named by role and times left out (they differ run to run)."""
    text = json.dumps(value, sort_keys=True)
    for table_id, role in names.items():
        text = text.replace(table_id, role)
    return _drop_times(json.loads(text))


def _drop_times(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: None if k.endswith("_ms") or k == "token" else _drop_times(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_drop_times(v) for v in value]
    return value


def test_how_another_table_played_a_deal_changes_nothing_a_person_still_on_it_receives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tournaments_api, "new_tournament_id", lambda: "cup1")
    monkeypatch.setattr(tournaments_api, "new_tournament_seed", lambda: 20261205)
    first, first_record = _run(tmp_path / "one", play_seed=1)
    second, second_record = _run(tmp_path / "two", play_seed=2)
    # The other table's deal went differently (else the test would prove nothing)...
    assert first_record["rounds"][0]["deal"] == second_record["rounds"][0]["deal"]
    assert first_record["rounds"][0]["moves"] != second_record["rounds"][0]["moves"]
    # ...and the waiting person received exactly the same.
    assert first == second
    assert first["/api/tournaments/cup1/deals/0"][0] == 409
    assert first["spectator"]["key"] == "tournament.error.dealInPlay"
    # The other table's player's profile does not list it yet (its result would tell).
    (profile,) = [v for k, v in first.items() if k.startswith("/api/players/")]
    assert profile[1]["recent"] == []
