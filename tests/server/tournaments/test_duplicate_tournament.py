"""A duplicate tournament of people on the server, from its creation to its
download: every table of a deal gets the same cards in the same seats, a
table ends with its deal's round, nothing of a deal is shown before it is
over everywhere, and the standings are the matchpoints of the points."""

from __future__ import annotations

import random
from pathlib import Path

from cardtable.tournament.matchpoints import matchpoint_percentages, seat_results
from tests.server.accounts_helpers import account_server
from tests.server.helpers import sqlite_url
from tests.server.tournaments.helpers import director, get, make, people, play_deal, sweep


def test_a_duplicate_tournament_runs_deal_by_deal_with_the_same_cards_at_every_table(
    tmp_path: Path,
) -> None:
    rng = random.Random(5)
    with account_server(sqlite_url(tmp_path)) as server:
        director(server).bot_delay_ms = 0
        ann, bob, cy = people(server, ["Ann", "Bob", "Cy"])
        tid = make(ann)
        for browser in (bob, cy):
            assert browser.post(f"/api/tournaments/{tid}/enter") == {"entered": True}
        assert ann.post(f"/api/tournaments/{tid}/enter") == {"entered": True}
        before = get(bob, tid)
        assert before["status"] == "upcoming" and before["entrants"] == 3
        assert before["me"] == {"entered": True, "invited": False, "creator": False}
        bob.post(f"/api/tournaments/{tid}/start", status=403)  # only its creator starts it
        started = ann.post(f"/api/tournaments/{tid}/start")
        assert started["status"] == "running" and started["deal"] == 0
        assert started["entrants"] == 3  # people: the bot that fills a seat is not counted
        now = get(ann, tid)
        # Three people at tables of two: one bot fills the second table.
        assert [e["bot"] for e in now["lineup"]] == [None, None, None, "easy"]
        assert now["progress"] == {"deal": 0, "tables": 2, "finished": 0}
        ann.post(f"/api/tournaments/{tid}/enter", status=409)  # too late to enter

        # Nothing of deal 0 is shown while it is being played.
        table_id = now["table"]["id"]
        sealed = ann.client.get(f"/api/tournaments/{tid}/deals/0")
        assert sealed.status_code == 409
        assert sealed.json()["key"] == "tournament.error.dealInPlay"
        assert ann.client.get(f"/api/tables/{table_id}/record").status_code == 409
        assert ann.client.get(f"/api/tables/{table_id}/replay").status_code == 409
        with ann.client.websocket_connect(f"/ws/{table_id}") as spectator:
            refused = spectator.receive_json()
            assert refused["type"] == "error" and refused["key"] == "tournament.error.dealInPlay"

        finals = play_deal([ann, bob, cy], tid, rng)
        for state in finals.values():
            assert state["finished"] and state["to_move"] is None
            assert state["tournament"] == {
                "id": tid,
                "name": "Friday duplicate",
                "deal": 0,
                "deals": 2,
            }
        sweep(ann)
        after_one = get(ann, tid)
        assert after_one["deal"] == 1 and after_one["deals_over"] == 1
        deal0 = ann.client.get(f"/api/tournaments/{tid}/deals/0").json()
        records = [ann.record(t["table_id"]) for t in deal0["tables"]]
        # One round each, dealt alike: the same cards in the same seats.
        assert all(len(r["rounds"]) == 1 for r in records)
        assert records[0]["rounds"][0]["deal"] == records[1]["rounds"][0]["deal"]
        # The percentages are the matchpoints of each seat's result.
        points = [[s["points"] for s in t["seats"]] for t in deal0["tables"]]
        results = [seat_results(p) for p in points]
        for seat in range(2):
            want = matchpoint_percentages([r[seat] for r in results])
            got = [t["seats"][seat]["percent"] for t in deal0["tables"]]
            assert got == [round(w, 2) for w in want]
        # Once over everywhere, a table of the deal is replayed and analyzed as any other.
        first = deal0["tables"][0]["table_id"]
        assert ann.client.get(f"/api/tables/{first}/replay?step=1").status_code == 200
        asked = ann.client.post(f"/api/tables/{first}/analysis", json={"seat": 0})
        assert asked.status_code in (200, 202), asked.text
        for table, points_at in zip(deal0["tables"], points, strict=True):
            assert points_at == finals[table["table_id"]]["scores"]  # what the table showed

        play_deal([ann, bob, cy], tid, rng)
        sweep(ann)
        done = get(cy, tid)
        assert done["status"] == "finished" and done["deals_over"] == 2 and done["table"] is None
        totals = {s["name"]: s["total"] for s in done["standings"]}
        assert sum(totals.values()) == 4 * 100  # 2 deals × 2 seats × (0% + 100%) or ties
        download = ann.client.get(f"/api/tournaments/{tid}/download")
        document = download.json()
        assert document["schema"] == "cardtable-tournament-record/1"
        deals = [[t["record"]["rounds"][0]["deal"] for t in d["tables"]] for d in document["deals"]]
        assert deals[0][0] == deals[0][1] and deals[1][0] == deals[1][1]
        assert deals[0][0] != deals[1][0]  # a new deal, dealt alike again
