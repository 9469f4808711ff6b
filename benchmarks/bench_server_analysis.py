"""How long the server takes to analyze one seat of a finished game, against
``cardtable analyze`` on the same record in the same run.

    python benchmarks/bench_server_analysis.py [--budget 0.25] [--workers 1]

For each game (Marshmallow Test at 4 players, MyRummy 111 at 2, every seat
the ``easy`` bot, the game's default options), an in-process server (a
temporary SQLite file) plays the game to its end; then seat 0's analysis is
asked for over HTTP and polled until done: the wall time from the request
to the stored result (the worker pool's start and the win model's fit
included, as a server's first analysis pays them). The peer is
``cardtable analyze RECORD --seat 0 --json`` on the downloaded record, in its
own process at the workers' lower priority (``nice -n 10``), so that the
ratio shows what judging one decision per worker job costs, not what the
priority costs on a busy machine; its output must equal what the server
serves. Also reported:
decisions, how many were judged (not forced: they have a class), and the mean
standard error of the win-chance losses.

Timed on a shared machine: the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.settings import Settings

GAMES = (("marshmallow-test", 4), ("myrummy-111", 2))
POLL_S = 0.2


def finished_table(client: TestClient, game: str, players: int) -> str:
    body = {
        "game": game,
        "options": {"players": players},
        "seats": [{"kind": "bot", "bot": "easy"}] * players,
        "bot_delay_ms": 0,
    }
    table: str = client.post("/api/tables", json=body).json()["id"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        while not ws.receive_json().get("finished"):
            pass
    return table


def figures(document: dict[str, Any]) -> tuple[int, int, float]:
    decisions = document["decisions"]
    judged = [d for d in decisions if d["class"] is not None]
    errors = [d["fair"]["loss"]["win"]["se"] for d in decisions if "fair" in d]
    finite = [e for e in errors if e is not None]
    return len(decisions), len(judged), 100 * sum(finite) / max(1, len(finite))


def cli_analysis(record: dict[str, Any], budget: float, folder: str) -> dict[str, Any]:
    path = Path(folder) / "record.json"
    path.write_text(json.dumps(record))
    command = [sys.executable, "-m", "cardtable", "analyze", str(path), "--seat", "0"]
    command += ["--json", "--budget", str(budget), "--seed", "0"]
    done = subprocess.run(
        ["nice", "-n", "10", *command], capture_output=True, text=True, check=True
    )
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def bench(client: TestClient, game: str, players: int, budget: float, folder: str) -> None:
    table = finished_table(client, game, players)
    url = f"/api/tables/{table}/analysis"
    load = os.getloadavg()[0]
    start = time.perf_counter()
    client.post(url, json={"seat": 0})
    while (served := client.get(f"{url}?seat=0").json())["status"] not in ("done", "failed"):
        time.sleep(POLL_S)
    server_s = time.perf_counter() - start
    record = client.get(f"/api/tables/{table}/record").json()
    start = time.perf_counter()
    same = cli_analysis(record, budget, folder) == served["analysis"]
    cli_s = time.perf_counter() - start
    decisions, judged, se = figures(served["analysis"])
    print(
        f"{game} ({players} players), seat 0: server {server_s:.1f} s,"
        f" cardtable analyze {cli_s:.1f} s (ratio {server_s / cli_s:.2f}), same result: {same};"
        f" {decisions} decisions, {judged} classified, mean SE of the win loss {se:.2f} pp"
        f" (load {load:.1f})",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=Settings.analysis_budget)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            db_url=f"sqlite+aiosqlite:///{folder}/tables.sqlite3",
            bot_workers=args.workers,
            analysis_budget=args.budget,
        )
        with TestClient(create_app(settings)) as client:
            for game, players in GAMES:
                bench(client, game, players, args.budget, folder)


if __name__ == "__main__":
    main()
