"""Quick match (issue 17, item 4), on an injected clock: two people meet at one
table with their own tokens; ratings far apart meet only once their ranges
have widened; one person alone who allowed bots gets them after the wait,
one who said "no bots" keeps waiting; cancel and closed pages leave nothing
behind; bad input is refused in one sentence; the limits hold."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cardtable.server.quick.match import (
    RANGE_GROWTH,
    RANGE_START,
    SEATED_KEEP_SECONDS,
    STALE_SECONDS,
    QuickMatch,
)
from cardtable.server.quick.store import Entry, MemoryQueue
from cardtable.server.settings import Limits
from tests.server.accounts_helpers import account_server
from tests.server.helpers import UNLIMITED, Server, running
from tests.server.live.test_lobby_lifecycle import Clock

MT = "marshmallow-test"


def quick(server: Server) -> QuickMatch:
    queue: QuickMatch = server.client.app.state.quick  # type: ignore[attr-defined]
    return queue


def entries(server: Server) -> dict[str, Entry]:
    """The queue's entries: in this process's memory, a server alone."""
    store = quick(server).store
    assert isinstance(store, MemoryQueue)
    return store.entries


def play_now(server: Server, name: str, status: int = 201, **asked: Any) -> dict[str, Any]:
    body = {"game": MT, "players": 2, "name": name, "wait_seconds": 30, "bots": None, **asked}
    response = server.client.post("/api/quick", json=body)
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def poll(server: Server, ticket: str, status: int = 200) -> dict[str, Any]:
    response = server.client.get(f"/api/quick/{ticket}")
    assert response.status_code == status, response.text
    answer: dict[str, Any] = response.json()
    return answer


def waiting(server: Server) -> dict[tuple[str, int], int]:
    counts = server.client.get("/api/quick").json()["waiting"]
    return {(c["game"], c["players"]): c["count"] for c in counts}


def pass_time(server: Server, clock: Clock, seconds: float, *tickets: str) -> list[dict[str, Any]]:
    """Move the clock by ``seconds``, each open page asking about its ticket
    every few seconds as the browser does; the last answers."""
    step = STALE_SECONDS / 3
    while seconds > 0:
        clock.now += min(step, seconds)
        seconds -= step
        answers = [poll(server, t) for t in tickets]
    return answers


def with_clock(clock: Clock) -> Limits:
    return Limits(
        clock=clock,
        creates_per_minute=UNLIMITED.creates_per_minute,
        joins_per_minute=UNLIMITED.joins_per_minute,
    )


def assert_seated_together(server: Server, answers: list[dict[str, Any]]) -> str:
    """Every answer seated at one table, each person in their own seat with a
    token that opens exactly that seat; the table's id."""
    assert {a["status"] for a in answers} == {"seated"}
    (table,) = {a["table"] for a in answers}
    assert len({a["seat"] for a in answers}) == len(answers)
    for answer in answers:
        with server.connect(table, answer["token"]) as conn:
            assert conn.seat == answer["seat"]
    return str(table)


def test_two_people_meet_at_one_table_with_their_own_tokens(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=with_clock(clock)) as server:
        ann = play_now(server, "Ann")
        assert ann["status"] == "waiting" and ann["waiting"] == 1
        assert "token" not in ann and "table" not in ann
        assert waiting(server) == {(MT, 2): 1}
        bea = play_now(server, "Bea")
        assert bea["status"] == "seated"  # she completed the table: seated at once
        ann = poll(server, ann["ticket"])
        table = assert_seated_together(server, [ann, bea])
        info = server.client.get(f"/api/tables/{table}").json()
        assert info["status"] == "playing" and not info["private"]
        assert info["rated"] is False  # two guests: no rating to play for
        names = {s["seat"]: s["name"] for s in info["seats"]}
        assert names == {ann["seat"]: "Ann", bea["seat"]: "Bea"}
        assert all(s["kind"] == "human" for s in info["seats"])
        assert waiting(server) == {}


def test_three_people_fill_a_three_player_table_and_a_fourth_waits(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=with_clock(clock)) as server:
        first = [play_now(server, n, players=3) for n in ("Ann", "Bea", "Cy", "Dee")]
        assert [a["status"] for a in first] == ["waiting", "waiting", "seated", "waiting"]
        seated = [poll(server, a["ticket"]) for a in first[:3]]
        assert_seated_together(server, seated)
        assert poll(server, first[3]["ticket"])["status"] == "waiting"
        assert waiting(server) == {(MT, 3): 1}


def test_ratings_far_apart_meet_only_after_their_ranges_widen(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=with_clock(clock)) as server:
        ratings = {"Ann": 1000.0, "Bea": 1400.0}
        names = iter(ratings)

        async def rating(account_id: str | None, game: str, players: int) -> float:
            assert account_id is None and (game, players) == (MT, 2)
            return ratings[next(names)]

        quick(server).rating = rating
        ann = play_now(server, "Ann")
        bea = play_now(server, "Bea")
        assert bea["status"] == "waiting"  # 400 apart, each accepts 100 at first
        # Ann's range reaches 400 after (400 - RANGE_START) / RANGE_GROWTH seconds.
        meet = (400 - RANGE_START) / RANGE_GROWTH
        tickets = ann["ticket"], bea["ticket"]
        answers = pass_time(server, clock, meet - 1, *tickets)
        assert [a["status"] for a in answers] == ["waiting", "waiting"]
        assert_seated_together(server, pass_time(server, clock, 1, *tickets))


def test_one_person_alone_gets_bots_of_their_level_after_the_wait(any_db: str) -> None:
    clock = Clock()
    with running(any_db, limits=with_clock(clock)) as server:
        ann = play_now(server, "Ann", players=3, wait_seconds=30, bots="easy")
        assert pass_time(server, clock, 29, ann["ticket"])[0]["waited_seconds"] == 29
        (seated,) = pass_time(server, clock, 1, ann["ticket"])
        table = assert_seated_together(server, [seated])
        seats = server.client.get(f"/api/tables/{table}").json()["seats"]
        assert [s["kind"] for s in seats].count("human") == 1
        assert {s["bot"] for s in seats if s["kind"] == "bot"} == {"easy"}
        assert seats[seated["seat"]]["name"] == "Ann"


def test_after_the_wait_the_compatible_people_who_allow_bots_sit_together(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=with_clock(clock)) as server:
        ann = play_now(server, "Ann", players=4, wait_seconds=10, bots="hard")
        bea = play_now(server, "Bea", players=4, wait_seconds=60, bots="easy")
        cy = play_now(server, "Cy", players=4, wait_seconds=60, bots=None)
        answers = pass_time(server, clock, 10, *(t["ticket"] for t in (ann, bea, cy)))
        table = assert_seated_together(server, answers[:2])
        assert answers[2]["status"] == "waiting"  # "no bots": not at a table with bots
        seats = server.client.get(f"/api/tables/{table}").json()["seats"]
        assert {s["bot"] for s in seats if s["kind"] == "bot"} == {"hard"}  # Ann's level


def test_no_bots_keeps_waiting(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=with_clock(clock)) as server:
        ann = play_now(server, "Ann", wait_seconds=5, bots=None)
        (answer,) = pass_time(server, clock, 600, ann["ticket"])
        assert answer["status"] == "waiting" and answer["waited_seconds"] == 600
        assert server.hub.tables == {}


def test_cancel_and_closed_pages_leave_nothing_behind(db_url: str) -> None:
    clock = Clock()
    with running(db_url, limits=with_clock(clock)) as server:
        ann = play_now(server, "Ann")
        cancelled = server.client.post(f"/api/quick/{ann['ticket']}/cancel", json={})
        assert cancelled.status_code == 200, cancelled.text
        assert waiting(server) == {} and entries(server) == {}
        gone = poll(server, ann["ticket"], 404)["error"]
        assert "no quick-match ticket" in gone
        bea = play_now(server, "Bea")  # nobody is there any more for her
        assert bea["status"] == "waiting"
        # Her page closes: nobody asks about her ticket, so it is dropped.
        clock.now += STALE_SECONDS
        assert waiting(server) == {}
        poll(server, bea["ticket"], 404)
        # A seat's answer is kept a while for its person to fetch, then dropped too.
        cy, dee = play_now(server, "Cy"), play_now(server, "Dee")
        clock.now += SEATED_KEEP_SECONDS - 1  # a seat's answer is not dropped as stale
        assert poll(server, cy["ticket"])["status"] == "seated"
        clock.now += 1
        poll(server, cy["ticket"], 404)
        poll(server, dee["ticket"], 404)
        assert entries(server) == {}


def test_bad_input_is_refused_in_one_sentence_and_changes_nothing(db_url: str) -> None:
    with running(db_url) as server:
        bad: list[tuple[dict[str, Any], str]] = [
            ({"game": "chess"}, "request.game must be one of"),
            ({"players": 9}, "request.players must be one of 2, 3, 4, 5"),
            ({"players": "two"}, "request.players"),
            ({"bots": "grandmaster"}, "request.bots must be one of"),
            ({"wait_seconds": 0}, "request.wait_seconds"),
            ({"wait_seconds": 10**6}, "request.wait_seconds"),
            ({"name": ""}, "request.name must be 1 to 32 characters"),
            ({"seats": 2}, "unknown field 'seats'"),
        ]
        for body, words in bad:
            answer = play_now(server, str(body.pop("name", "Ann")), status=400, **body)
            assert words in answer["error"] and "\n" not in answer["error"], answer
        for path, words in [
            ("/api/quick/nope", "no quick-match ticket"),
            ("/api/quick/" + "x" * 300, "no quick-match ticket"),
        ]:
            response = server.client.get(path)
            assert response.status_code == 404 and words in response.json()["error"]
        ann = play_now(server, "Ann")
        for wait in ("-1", "26", "1e3", "abc"):
            response = server.client.get(f"/api/quick/{ann['ticket']}?wait={wait}")
            assert response.status_code == 400 and "wait must be" in response.json()["error"]
        form = server.client.post(
            "/api/quick", content=b"game=x", headers={"Content-Type": "text/plain"}
        )
        assert form.status_code == 415
        other_site = server.client.post(
            "/api/quick", json={"game": MT, "players": 2}, headers={"Origin": "http://evil.example"}
        )
        assert other_site.status_code == 403
        assert waiting(server) == {(MT, 2): 1} and server.hub.tables == {}


def test_one_address_holds_a_few_entries_and_joins_are_counted(db_url: str) -> None:
    clock = Clock()
    limits = Limits(clock=clock, quick_per_client=2, joins_per_minute=5)
    with running(db_url, limits=limits) as server:
        first = [play_now(server, n, players=3) for n in ("Ann", "Bea")]
        refused = play_now(server, "Cy", status=429, players=3)
        assert "2 people waiting for a quick match" in refused["error"]
        server.client.post(f"/api/quick/{first[0]['ticket']}/cancel", json={})
        play_now(server, "Cy", players=3)
        refused = play_now(server, "Dee", status=429, players=4)  # 2 waiting again
        assert "2 people waiting for a quick match" in refused["error"]
        refused = play_now(server, "Eve", status=429, players=4)  # a sixth seat request
        assert "5 seat requests in the last minute" in refused["error"]
        clock.now += 60  # the minute passes; nobody asked about Bea's and Cy's tickets
        assert waiting(server) == {}
        assert play_now(server, "Eve", players=4)["status"] == "waiting"


def test_an_account_is_in_one_queue_and_its_seat_becomes_its_own(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        server.sign_up("Ann")
        first = play_now(server, "ignored", players=3)
        second = play_now(server, "ignored")  # a new entry replaces her old one
        poll(server, first["ticket"], 404)
        assert waiting(server) == {(MT, 2): 1}
        guest = server.browser()
        bea = play_now(guest, "Bea")
        ann = poll(server, second["ticket"])
        table = assert_seated_together(server, [ann, bea])
        info = server.client.get(f"/api/tables/{table}").json()
        assert {s["name"] for s in info["seats"]} == {"Ann", "Bea"}
        assert info["rated"] is False  # one account and a guest
        mine = server.client.get("/api/me/games").json()["in_progress"]
        assert [(g["id"], g["seat"]) for g in mine] == [(table, ann["seat"])]


def test_two_accounts_meet_at_a_rated_table(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        server.sign_up("Ann")
        other = server.browser()
        other.sign_up("Bea")
        ann = play_now(server, "ignored")
        bea = play_now(other, "ignored")
        ann = poll(server, ann["ticket"])
        table = assert_seated_together(server, [ann, bea])
        assert server.client.get(f"/api/tables/{table}").json()["rated"] is True


def test_a_long_poll_answers_when_the_person_is_seated(db_url: str) -> None:
    with running(db_url) as server:
        ann = play_now(server, "Ann")
        quiet = server.client.get(f"/api/quick/{ann['ticket']}?wait=1")
        assert quiet.json()["status"] == "waiting"  # nobody came within the poll's wait
        with ThreadPoolExecutor(max_workers=1) as pool:
            # Ann's page asks, waiting up to 25 s; Bea's arrival answers it.
            asked = pool.submit(server.client.get, f"/api/quick/{ann['ticket']}?wait=25")
            for _ in range(2000):  # until Ann's long poll is in flight (a bound, not a timing)
                if entries(server)[ann["ticket"]].watching:
                    break
                time.sleep(0.01)
            bea = play_now(server, "Bea")
            answer = asked.result().json()
        assert_seated_together(server, [answer, bea])


def test_a_long_poll_answers_when_the_number_waiting_changes(db_url: str) -> None:
    """Ann waits for a three-player table; Bea's arrival answers Ann's long poll
    within about a second (not at the end of its 25 s) with the new count."""
    with running(db_url) as server:
        ann = play_now(server, "Ann", players=3)
        assert ann["waiting"] == 1
        with ThreadPoolExecutor(max_workers=1) as pool:
            asked = pool.submit(server.client.get, f"/api/quick/{ann['ticket']}?wait=25")
            for _ in range(2000):  # until Ann's long poll is in flight (a bound, not a timing)
                if entries(server)[ann["ticket"]].watching:
                    break
                time.sleep(0.01)
            started = time.monotonic()
            play_now(server, "Bea", players=3)
            answer = asked.result().json()
            took = time.monotonic() - started
        assert answer["status"] == "waiting"
        assert answer["waiting"] == 2
        assert took < 10, took  # the count changed: answered at once, not after the 25 s wait


def test_a_long_poll_with_a_stale_count_answers_at_once(db_url: str) -> None:
    """The page says the count it shows (``waiting=N``): one that is already
    stale (Bea came between two polls) is answered at once, a current one waits."""
    with running(db_url) as server:
        ann = play_now(server, "Ann", players=3)
        play_now(server, "Bea", players=3)
        started = time.monotonic()
        stale = server.client.get(f"/api/quick/{ann['ticket']}?wait=25&waiting=1")
        assert time.monotonic() - started < 10
        assert stale.json()["waiting"] == 2
        current = server.client.get(f"/api/quick/{ann['ticket']}?wait=1&waiting=2")
        assert current.json()["waiting"] == 2
        bad = server.client.get(f"/api/quick/{ann['ticket']}?wait=1&waiting=two")
        assert bad.status_code == 400 and "waiting must be" in bad.json()["error"]
