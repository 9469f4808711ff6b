"""Faults nobody should wait out (issue 27, items 7 and 8): a server process
that goes silent without closing its sockets (paused, or cut off by the
network), and a database that is away while someone moves."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.browser.conftest import SCREENSHOTS
from tests.browser.helpers import STATUS_JS, Person, Server
from tests.browser.test_table_feel import create, my_turn, play_one, sit
from tests.server.pg import PostgresServer, fresh_database

# Bounds on waits, far above what the page needs (5-6 s to notice silence).
NOTICE_LIMIT_MS = 30_000
GAME = "marshmallow-test"
OPTIONS = {"target": 4}


def connection(person: Person) -> tuple[str, str]:
    """The connection indicator: its state and the words shown."""
    shown = person.page.locator("#connection")
    return str(shown.get_attribute("data-state")), shown.inner_text()


def test_a_page_notices_a_silent_server_and_connects_again(browser: Any, server: Server) -> None:
    """SIGSTOP keeps every socket open and answers nothing: the page's own
    heartbeat must notice, say so, and connect anew (here, once the process
    runs again; behind a proxy, to whichever process holds the table now)."""
    table_id = create(server, GAME, OPTIONS, players=2, delay=0)
    person = sit(browser, server, table_id, "1280x800")
    sockets: list[Any] = []
    person.page.on("websocket", lambda ws: sockets.append(ws))
    server.pause()
    try:
        person.page.wait_for_selector("#connection[data-state='silent']", timeout=NOTICE_LIMIT_MS)
        _, words = connection(person)
        assert words == "the server stopped answering; reconnecting…"
        person.page.screenshot(path=str(SCREENSHOTS / "outage-silent-desktop.png"))
        # It keeps trying while the server stays silent (a handshake that
        # hangs is given up like an unanswered ping), not once and never again.
        with person.page.expect_websocket(timeout=NOTICE_LIMIT_MS):
            pass
        assert connection(person)[0] == "silent"
    finally:
        server.resume()
    person.page.wait_for_selector("#connection[data-state='open']", timeout=NOTICE_LIMIT_MS)
    assert sockets, "the page opened no new socket after the server went silent"
    my_turn(person)
    play_one(person, GAME)  # the table plays on over the new socket
    assert not person.errors


def test_a_move_sent_to_a_process_that_dies_unread_goes_in_over_the_next_socket(
    browser: Any, server: Server
) -> None:
    """A move can leave the page and never reach the table: the process was
    stopped with it unread in its socket, then killed. The page gets the
    table again at the move's own seq from the restarted process, and sends
    the move again there, without a click (before, its buttons stayed
    disabled, waiting for an answer that could not come)."""
    table_id = create(server, GAME, OPTIONS, players=2, delay=0)
    person = sit(browser, server, table_id, "1280x800")
    my_turn(person)
    seq = person.page.evaluate(STATUS_JS)["seq"]
    sent = person.sent
    server.pause()
    try:
        click_a_card(person)
        with person.page.expect_event("websocket", timeout=NOTICE_LIMIT_MS):
            pass  # the paused process goes unanswered: the page's heartbeat gives it up
        assert [m["seq"] for m in sent if m["type"] == "move"] == [seq]
        assert person.page.evaluate(STATUS_JS)["seq"] == seq
    finally:
        server.kill()
    server.start()
    person.wait_past(seq)
    # Once to each process: the seq would refuse a second time at the same one.
    assert [m["seq"] for m in sent if m["type"] == "move"] == [seq, seq], sent
    assert person.page.locator("#notice").inner_text() == ""
    assert not person.errors


def test_a_move_made_while_the_page_reconnects_goes_in_once_it_is_back(
    browser: Any, server: Server
) -> None:
    """No socket is open (the server is down): the page keeps the move, says
    it will go in once the connection is back, and sends it then."""
    table_id = create(server, GAME, OPTIONS, players=2, delay=0)
    person = sit(browser, server, table_id, "phone-portrait")
    my_turn(person)
    seq = person.page.evaluate(STATUS_JS)["seq"]
    server.kill()
    person.page.wait_for_selector("#connection[data-state='reconnecting']")
    click_a_card(person)
    person.page.wait_for_selector("#notice[data-waiting='connection']")
    notice = person.page.locator("#notice").inner_text()
    assert notice.startswith("Not connected to the table right now: your move goes in"), notice
    person.page.screenshot(path=str(SCREENSHOTS / "outage-move-held-phone.png"))
    server.start()
    person.wait_past(seq)
    person.page.wait_for_selector("#notice:not([data-waiting])", state="attached")
    assert person.page.locator("#notice").inner_text() == ""
    assert not person.errors


def test_a_move_waits_for_the_database_and_goes_in_when_it_is_back(
    browser: Any, tmp_path: Path, postgres_alone: PostgresServer
) -> None:
    url = fresh_database(postgres_alone.bin_dir, postgres_alone.url)
    server = Server(tmp_path / "pg", db_url=url)
    server.start()
    try:
        table_id = create(server, GAME, OPTIONS, players=2, delay=0)
        person = sit(browser, server, table_id, "phone-portrait")
        my_turn(person)
        seq = person.page.evaluate(STATUS_JS)["seq"]
        postgres_alone.stop()
        try:
            # The lobby's writes answer 503 with a sentence and Retry-After.
            refused = refused_create(server)
            assert refused[0] == 503 and refused[1] == "5", refused
            assert "database" in refused[2]
            click_a_card(person)
            person.page.wait_for_selector("#notice[data-waiting='store']")
            notice = person.page.locator("#notice").inner_text()
            assert notice.startswith("The server cannot store moves just now"), notice
            person.page.screenshot(path=str(SCREENSHOTS / "outage-store-phone.png"))
            assert person.page.evaluate(STATUS_JS)["seq"] == seq  # nothing moved meanwhile
        finally:
            postgres_alone.start()
        # Sent again by the page itself: the server takes a move into the
        # table only once it is stored, so a state past `seq` means stored.
        person.wait_past(seq)
        person.page.wait_for_selector("#notice:not([data-waiting])", state="attached")
        assert person.page.locator("#notice").inner_text() == ""
        assert not person.errors
    finally:
        server.stop()
        log = server.log.read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]


def refused_create(server: Server) -> tuple[int, str | None, str]:
    body = {"game": GAME, "options": OPTIONS, "seats": [{"kind": "human"}, {"kind": "human"}]}
    request = urllib.request.Request(
        server.url + "/api/tables",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, None, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After"), error.read().decode()


def click_a_card(person: Person) -> None:
    """One card of this person's hand, sent without waiting for the answer."""
    page = person.page
    if page.locator(".mt-trump-choice button").count():
        page.locator(".mt-trump-choice button").first.click()
        return
    page.locator(".mt-hand button.is-playable").first.click()
    if page.locator(".mt-hand button.is-selected").count():
        page.locator(".mt-hand button.is-selected").click()
