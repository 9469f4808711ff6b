"""Puzzle ratings of signed-in people live on the server: it rates each try
from the move it judges (never a rating the browser sends), counts a puzzle
once, chooses the next puzzle from its own record, and takes a guest's tries
into the account only where its own receipts prove them."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.learn.glicko import Rating
from cardtable.learn.puzzles import Puzzle, load_puzzles
from cardtable.learn.trainer import rate
from tests.server.accounts_helpers import AccountServer, account_server

pytestmark = pytest.mark.timeout(300, method="thread")

GAME = "marshmallow-test"
BASE = f"/api/puzzles/{GAME}"


def _wrong(puzzle: Puzzle) -> int:
    return next(i for i in range(len(puzzle.legal)) if i not in puzzle.solution)


def _try(server: AccountServer, puzzle: Puzzle, played: int, **extra: Any) -> Any:
    body = {"move": puzzle.legal[played], **extra}
    return server.post(f"{BASE}/{puzzle.id}", body)


def _replayed(puzzles: list[Puzzle], played: list[int]) -> Rating:
    player = Rating()
    for puzzle, move in zip(puzzles, played, strict=True):
        shipped = Rating(puzzle.rating, puzzle.deviation)
        player = rate(player, shipped, move in puzzle.solution).player_after
    return player


def _with_wrong_moves() -> list[Puzzle]:
    return [p for p in load_puzzles(GAME).puzzles if len(p.solution) < len(p.legal)]


def test_a_signed_in_try_is_rated_by_the_server_and_counts_once(any_db: str) -> None:
    first, second = _with_wrong_moves()[:2]
    with account_server(any_db) as server:
        server.sign_up("Ann")
        assert server.client.get(f"{BASE}/me").json()["tries"] == 0
        # A rating the browser sends is ignored: the server starts from its own 1500.
        solved = _try(server, first, first.solution[0], player="4000 30 0.06")
        missed = _try(server, second, _wrong(second))
        again = _try(server, second, second.solution[0])  # the answer seen: counts no more
        standing = server.client.get(f"{BASE}/me").json()
        served = [server.client.get(f"{BASE}/next").json()["id"] for _ in range(3)]
        guest = server.browser().client.get(f"{BASE}/me").json()
    expected = _replayed([first, second], [first.solution[0], _wrong(second)])
    assert solved["solved"] is True and solved["counted"] is True and "receipt" not in solved
    assert missed["solved"] is False and missed["counted"] is True
    assert again["solved"] is True and again["counted"] is False
    assert again["player_rating"] == missed["player_rating"] == round(expected.rating)
    assert standing == {
        "signed_in": True,
        "player_rating": round(expected.rating),
        "deviation": round(expected.deviation),
        "tries": 2,
        "solves": 1,
    }
    assert first.id not in served and second.id not in served  # the server's tried list
    assert guest == {"signed_in": False}


def test_a_guests_receipted_tries_move_into_the_account_on_sign_in(any_db: str) -> None:
    first, second, third = _with_wrong_moves()[:3]
    with account_server(any_db) as server:
        tries = []
        for puzzle, played in ((first, first.solution[0]), (second, _wrong(second))):
            answer = _try(server, puzzle, played, player="1500 350 0.06")
            tries.append({"id": puzzle.id, "played": played, "receipt": answer["receipt"]})
        # A receipt moved to another move or puzzle proves nothing.
        forged = [
            {**tries[1], "played": second.solution[0]},
            {**tries[0], "id": third.id},
        ]
        refused = server.post(f"{BASE}/claim", {"tries": tries}, 401)
        server.sign_up("Bea")
        claimed = server.post(f"{BASE}/claim", {"tries": [*forged, *tries]})
        twice = server.post(f"{BASE}/claim", {"tries": tries})
        standing = server.client.get(f"{BASE}/me").json()
    expected = _replayed([first, second], [first.solution[0], _wrong(second)])
    assert "sign in first" in refused["error"]
    assert claimed["claimed"] == 2 and twice["claimed"] == 0
    assert standing["tries"] == 2 and standing["solves"] == 1
    assert standing["player_rating"] == round(expected.rating)


def test_a_bad_claim_is_one_clear_line_and_changes_nothing(any_db: str) -> None:
    with account_server(any_db) as server:
        server.sign_up("Cy")
        too_many = {"tries": [{"id": "x", "played": 0, "receipt": "y"}] * 151}
        answers = [
            server.post(f"{BASE}/claim", {"tries": "all"}, 400),
            server.post(f"{BASE}/claim", too_many, 400),
            server.post(f"{BASE}/claim", {"tries": [], "rating": 3000}, 400),
        ]
        unknown = server.post(
            f"{BASE}/claim", {"tries": [{"id": "x", "played": 0, "receipt": "y"}]}
        )
        other_site = server.client.post(
            f"{BASE}/claim", json={"tries": []}, headers={"Origin": "https://elsewhere.example"}
        )
        standing = server.client.get(f"{BASE}/me").json()
    assert all(a["error"].startswith("request") for a in answers), answers
    assert unknown["claimed"] == 0 and standing["tries"] == 0
    assert other_site.status_code == 403


def test_deleting_an_account_deletes_its_puzzle_record(any_db: str) -> None:
    puzzle = _with_wrong_moves()[0]
    with account_server(any_db) as server:
        server.sign_up("Dee")
        _try(server, puzzle, puzzle.solution[0])
        server.post("/api/account/delete", {"password": "correct horse"})
        server.sign_up("Dee")  # the name is free again, and its record starts afresh
        standing = server.client.get(f"{BASE}/me").json()
    assert standing["tries"] == 0 and standing["player_rating"] == 1500
