"""Analyses of finished games over HTTP: asked for, judged in the worker pool,
stored once, served as ``cardtable analyze --json`` prints them."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardtable.cli.main import app
from cardtable.server.db.storage import AnalysisRow
from cardtable.server.live.analyses import Analyses
from tests.server.helpers import Server, running, states_by_seq

pytestmark = pytest.mark.timeout(300, method="thread")

BUDGET = 0.02  # nominal seconds per decision: a tiny budget keeps the suite fast
POLLS = 2000  # a bound on waiting for an analysis, not a timing check


def finished_table(server: Server, game: str = "marshmallow-test") -> str:
    """A game between two bots, played to its end."""
    table = server.create(game, ["easy", "random"])
    with server.connect(table) as watcher:
        watcher.until_state(lambda m: m["finished"])
    return table


def analysis(server: Server, table: str, seat: int | None = None) -> dict[str, Any]:
    query = "" if seat is None else f"?seat={seat}"
    response = server.client.get(f"/api/tables/{table}/analysis{query}")
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


def wait_done(server: Server, table: str, seat: int | None = None) -> dict[str, Any]:
    """Poll until the analysis is done (or failed); every answer on the way
    shows progress that only grows."""
    seen = 0
    for _ in range(POLLS):
        document = analysis(server, table, seat)
        if document["status"] in ("done", "failed"):
            return document
        assert document["status"] in ("pending", "running"), document
        done = sum(s["done"] for s in document["seats"])
        assert seen <= done <= sum(s["total"] for s in document["seats"])
        seen = done
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def cli_analysis(tmp_path: Path, record: dict[str, Any], *seats: int) -> dict[str, Any]:
    """``cardtable analyze RECORD [--seat S] --json`` with the server's settings."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    args = ["analyze", str(path), "--json", "--budget", str(BUDGET), "--seed", "0"]
    for seat in seats:
        args += ["--seat", str(seat)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_a_seats_analysis_is_what_cardtable_analyze_prints_for_the_downloaded_record(
    db_url: str, tmp_path: Path
) -> None:
    with running(db_url, analysis_budget=BUDGET) as server:
        table = finished_table(server)
        before = analysis(server, table, 1)
        assert before["status"] == "none" and before["analysis"] is None
        asked = server.client.post(f"/api/tables/{table}/analysis", json={"seat": 1})
        assert asked.status_code == 202, asked.text
        assert asked.json()["seats"][0]["status"] in ("pending", "running")
        done = wait_done(server, table, 1)
        assert done["status"] == "done"
        again = server.client.post(f"/api/tables/{table}/analysis", json={"seat": 1})
        assert again.status_code == 200 and again.json() == done  # judged once
        record = server.record(table)
    # The decoy idea: what the browser is served is exactly the command's output
    # on the record anyone can download (same seed, same budget).
    assert done["analysis"] == cli_analysis(tmp_path, record, 1)
    states = states_by_seq(record)
    decisions = done["analysis"]["decisions"]
    assert decisions and len(done["notes"]) == len(decisions)
    assert done["seats"][0]["done"] == done["seats"][0]["total"] == len(decisions)
    for decision, note in zip(decisions, done["notes"], strict=True):
        # Each note names the replay step at which that seat made that move.
        state = states[note["step"]]
        assert state.to_move == decision["seat"] == 1
        played = next(m for m in state.legal_moves() if m.to_json() == decision["played"])
        assert note["played"] == str(played)
        if "fair" in decision:  # not forced
            groups = decision["fair"]["alternatives"]
            assert [len(g["moves"]) for g in groups] == [len(t) for t in note["fair"]]


def test_every_seat_merges_into_the_document_of_one_cardtable_analyze_run(
    db_url: str, tmp_path: Path
) -> None:
    with running(db_url, analysis_budget=BUDGET) as server:
        table = finished_table(server, "myrummy-111")
        server.client.post(f"/api/tables/{table}/analysis", json={"seat": 0})
        everyone = server.client.post(f"/api/tables/{table}/analysis", json={"seat": None})
        assert everyone.status_code == 202  # seat 1 was still to do
        assert [s["seat"] for s in everyone.json()["seats"]] == [0, 1]
        done = wait_done(server, table)
        record = server.record(table)
    assert done["status"] == "done"
    assert done["analysis"] == cli_analysis(tmp_path, record)
    steps = [note["step"] for note in done["notes"]]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)


def stored_rows(server: Server, table: str) -> list[AnalysisRow]:
    return server.client.portal.call(server.hub.storage.load_analyses, table)  # type: ignore[union-attr]


def test_refused_requests_change_nothing(db_url: str) -> None:
    from tests.fixtures.plugin import NAME, registered

    with registered(), running(db_url, analysis_budget=BUDGET) as server:
        table = finished_table(server)
        waiting = server.create("marshmallow-test", ["human", "easy"])
        plugin = server.create(NAME, ["lowest", "lowest"], options={})
        with server.connect(plugin) as watcher:
            watcher.until_state(lambda m: m["finished"])
        post = server.client.post
        kind = {"Content-Type": "application/json"}
        analysis_url = f"/api/tables/{table}/analysis"
        refusals: list[tuple[Any, int, str]] = [
            (post(f"/api/tables/{waiting}/analysis", json={}), 409, "once the game is over"),
            (server.client.get(f"/api/tables/{waiting}/analysis"), 409, "once the game is over"),
            (post("/api/tables/nosuchtable/analysis", json={}), 404, "no table"),
            (server.client.get("/api/tables/nosuchtable/analysis"), 404, "no table"),
            (post(f"/api/tables/{table}/analysis", json={"seat": 2}), 400, "seats are 0 to 1"),
            (server.client.get(f"/api/tables/{table}/analysis?seat=5"), 400, "no seat 5"),
            (server.client.get(f"/api/tables/{table}/analysis?seat=x"), 400, "whole number"),
            (post(f"/api/tables/{table}/analysis", json={"seat": "0"}), 400, "whole number"),
            (post(f"/api/tables/{table}/analysis", json={"seats": 0}), 400, "unknown field"),
            (post(f"/api/tables/{table}/analysis", json=[0]), 400, "JSON object"),
            (post(analysis_url, content=b"{", headers=kind), 400, "not valid JSON"),
            (post(f"/api/tables/{plugin}/analysis", json={}), 409, "cannot be analyzed"),
        ]
        for response, status, words in refusals:
            assert response.status_code == status, response.text
            message = response.json()["error"]
            assert words in message and "\n" not in message and "Traceback" not in message
        for refused in (table, waiting, plugin):
            assert stored_rows(server, refused) == []
        assert analysis(server, table)["status"] == "none"
        assert not server.client.app.state.analyses._work  # type: ignore[attr-defined]


async def _never(self: Analyses, work: Any) -> None:
    await asyncio.Event().wait()


async def _fails(self: Analyses, work: Any) -> None:
    raise RuntimeError("a worker died")


def requested_survives_restarts(url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked for, the server stops before it is done: the next one finishes
    it; the one after serves it from the database without judging again."""
    with monkeypatch.context() as patch:
        patch.setattr(Analyses, "_analyze", _never)
        with running(url, analysis_budget=BUDGET) as server:
            table = finished_table(server)
            asked = server.client.post(f"/api/tables/{table}/analysis", json={"seat": 0})
            assert asked.json()["status"] in ("pending", "running")
            [row] = stored_rows(server, table)
            assert (row.status, row.budget, row.seed) == ("pending", BUDGET, 0)
    with running(url, analysis_budget=0.5) as server:
        done = wait_done(server, table, 0)
        assert done["status"] == "done"
        assert done["analysis"]["budget"] == BUDGET  # the budget it was asked with
    with running(url, analysis_budget=BUDGET) as server:
        assert analysis(server, table, 0) == done
        assert server.hub.pool._pool is None  # nothing was judged again
        # A failure is stored as one sentence, and asking again retries.
        with monkeypatch.context() as patch:
            patch.setattr(Analyses, "_analyze", _fails)
            server.client.post(f"/api/tables/{table}/analysis", json={"seat": 1})
            failed = wait_done(server, table, 1)
        assert failed["status"] == "failed"
        assert "ask again" in failed["seats"][0]["error"]
        server.client.post(f"/api/tables/{table}/analysis", json={"seat": None})
        both = wait_done(server, table)
        assert both["status"] == "done"
        assert [p["seat"] for p in both["analysis"]["players"]] == [0, 1]


def test_an_analysis_is_stored_and_survives_restarts(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    requested_survives_restarts(db_url, monkeypatch)


def test_an_analysis_is_stored_and_survives_restarts_on_postgresql(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    requested_survives_restarts(postgres_url, monkeypatch)
