"""The lobby and a table's surroundings in the browser: every rules option of
each game offered, one-click play against bots, a private table reachable
only by its link, reopening the link returns to the seat, spectators see no
hand, public tables listed, the turn timer shown."""

from __future__ import annotations

import json
import re
import urllib.request
from importlib.resources import files
from pathlib import Path
from typing import Any

from cardtable.core import registry
from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot


def api(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=10) as response:
        return json.load(response)


def board_catalog(game: str, lang: str = "en") -> dict[str, Any]:
    """The game's own words: its board's catalog, or a board-less game's
    ``web/i18n.<lang>.json``; none for a game that ships neither."""
    m = registry.manifest(game)
    folder = Path(str(files(m.package or ""))) / (
        Path(m.web_client).parent if m.web_client else "web"
    )
    catalog = folder / f"i18n.{lang}.json"
    words: dict[str, Any] = json.loads(catalog.read_text("utf-8")) if catalog.exists() else {}
    return words


def test_lobby_offers_every_option_seat_and_bot_of_each_game(
    browser: Any, server: Server, axe_source: str, screenshots: Path
) -> None:
    games = api(server, "/api/games")
    assert len(games) >= 2
    for viewport, label in ((None, "desktop"), (PHONE, "phone")):
        person = Person.open(browser, "Ann", **({"viewport": viewport} if viewport else {}))
        page = person.page
        page.goto(server.url + "/")
        page.wait_for_selector("#set-up", state="attached")
        page.locator("#set-up > summary").click()  # the set-up form is folded (issue 29)
        # The research bots (by their names) are offered once Advanced says so.
        page.locator(".create-form details.advanced > summary").click()
        page.locator("#new-research-bots").check()
        shoot(page, screenshots, f"lobby-{label}")
        assert run_axe(page, axe_source) == []
        for game in games:
            page.get_by_label("Game", exact=True).select_option(game["name"])
            players = page.get_by_label("Players", exact=True)
            offered = players.locator("option").evaluate_all("os => os.map(o => Number(o.value))")
            assert offered == game["players"]
            assert players.input_value() == str(game["default_players"])
            words = board_catalog(game["name"])
            for option in game["options"]:
                if option["name"] != "players":  # each by its name in words, not its key
                    label = words.get(f"option.{option['name']}", option["name"])  # raw: no words
                    field = page.get_by_label(label, exact=True)
                    assert field.count() == 1, option["name"]
            seat_choices = page.get_by_label("Seat 1", exact=True).locator("option")
            values = seat_choices.evaluate_all("os => os.map(o => o.value)")
            for level in game["levels"]:
                assert f"bot:{level['name']}" in values
            for bot in game["bots"]:
                assert f"bot:{bot['name']}" in values
            assert page.locator(".seats-grid select").count() == game["default_players"]
            players.select_option(str(max(game["players"])))
            assert page.locator(".seats-grid select").count() == max(game["players"])
        # A bad option gets the engine's one-sentence reason, and no table.
        page.get_by_label("Game", exact=True).select_option("marshmallow-test")
        page.get_by_label("Points to win", exact=True).fill("-3")
        page.get_by_role("button", name="Create table").click()
        error = page.locator(".create-form .error:not(:empty)")
        error.wait_for()
        assert "target" in error.inner_text()
        assert "/t/" not in page.url
        assert person.errors == []
        person.close()


def test_play_against_bots_now_private_link_and_spectators(
    browser: Any, server: Server, axe_source: str
) -> None:
    ann = Person.open(browser, "Ann", viewport=PHONE, is_mobile=True, has_touch=True)
    page = ann.page
    table_id = ann.play_against_bots(server, "MyRummy 111")
    assert page.locator("#board .mr-seat.is-me .seat-name").inner_text().startswith("Ann")
    assert page.locator("#turn-status").inner_text() == "Your turn"
    assert all(t["id"] != table_id for t in api(server, "/api/tables")["tables"])  # private

    # The same browser reopening the link is back in its seat, with its hand.
    again = page.context.new_page()
    again.goto(f"{server.url}/t/{table_id}")
    again.wait_for_selector("#board .mr-seat.is-me")
    assert again.locator("#join-panel").is_hidden()
    assert again.locator(".mr-hand .mr-card").count() == 12
    again.close()

    # Anyone else with the link may only watch (every other seat is a bot), and
    # sees no hand at all: not in the page, not in a frame.
    carl = Person.open(browser, "Carl")
    carl.page.goto(f"{server.url}/t/{table_id}")
    carl.wait_connected()
    assert carl.page.locator("#turn-status").inner_text().startswith("You are watching")
    assert carl.page.locator(".mr-hand").count() == 0
    assert carl.page.locator("#join-panel").is_hidden()
    states = carl.states()
    assert states and all(s["seat"] is None and s["view"]["hand"] is None for s in states)
    assert run_axe(carl.page, axe_source) == []
    for person in (ann, carl):
        assert person.errors == []
        person.close()


def test_public_table_is_listed_joined_from_the_lobby_and_shows_its_timer(
    browser: Any, server: Server
) -> None:
    ann = Person.open(browser, "Ann")
    page = ann.page
    page.goto(server.url + "/")
    page.locator("#set-up > summary").click()  # the set-up form is folded (issue 29)
    page.get_by_label("Game", exact=True).select_option("marshmallow-test")
    page.get_by_label("Players", exact=True).select_option("2")
    page.get_by_label("Seat 1", exact=True).select_option("human")
    page.get_by_label("Turn timer", exact=False).fill("120")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Create table").click()
    ann.wait_seated()  # in the first person's seat, as the lobby offered
    table_id = page.url.rsplit("/", 1)[1]
    assert page.locator("#turn-status").inner_text().startswith("Waiting for people")

    bob = Person.open(browser, "Bob")
    bob.page.goto(server.url + "/")
    listed = bob.page.locator(f".table-item:has(a[href='/t/{table_id}'])")
    listed.wait_for()
    assert "seat 2: free" in listed.inner_text()  # seat 1 is Ann's
    listed.get_by_role("link", name="Join").click()
    bob.page.wait_for_url(f"**/t/{table_id}")
    bob.join(1)
    for person in (ann, bob):
        person.page.wait_for_selector("#turn-timer:not([hidden])")
        text = person.page.locator("#turn-timer").inner_text()
        assert re.fullmatch(r"(Ann|Bob): \d+ seconds? left", text), text
        assert int(text.split(": ")[1].split()[0]) <= 120
    for person in (ann, bob):
        assert person.errors == []
        person.close()


def test_a_stale_tab_is_refused_by_the_server_with_its_reason_and_nothing_changes(
    browser: Any, server: Server
) -> None:
    ann = Person.open(browser, "Ann")
    page = ann.page
    page.goto(server.url + "/")
    page.locator("#set-up > summary").click()  # the set-up form is folded (issue 29)
    page.get_by_label("Game", exact=True).select_option("marshmallow-test")
    page.get_by_label("Players", exact=True).select_option("2")
    page.get_by_label("Seat 2", exact=True).select_option("bot:easy")
    page.get_by_label("Bot pace", exact=False).fill("0")
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Create table").click()
    ann.wait_seated()
    ann.wait_connected()

    # A second tab of the same browser (same seat), whose new states we hold back.
    held = {"on": False}
    stale = page.context.new_page()

    def relay(ws: Any) -> None:
        upstream = ws.connect_to_server()
        ws.on_message(upstream.send)

        def down(message: str | bytes) -> None:
            if not (held["on"] and '"type":"state"' in str(message).replace(" ", "")):
                ws.send(message)

        upstream.on_message(down)

    stale.route_web_socket(re.compile(r".*/ws/.*"), relay)
    stale.goto(page.url)
    stale.wait_for_selector("#turn-status[data-mine='true']")
    held["on"] = True

    before = ann.status()["seq"]
    page.locator(".mt-hand button.is-playable").first.click()
    ann.page.wait_for_function(
        f"() => Number(document.querySelector('#board').dataset.seq) >= {before + 2}"
        " && document.querySelector('#turn-status').dataset.mine === 'true'"
    )  # Ann led, the bot answered: Ann leads again
    now = ann.status()["seq"]
    hand = page.locator(".mt-hand button.card").count()

    stale.locator(".mt-hand button.is-playable").first.click()  # seq is out of date
    notice = stale.locator("#notice:not(:empty)")
    notice.wait_for()
    # The server's refusal is the key "stale" with the seqs; the page words it
    # from its catalog (static/refusal.js).
    catalog = files("cardtable.server.web").joinpath("static", "i18n", "en.json")
    shell = json.loads(catalog.read_text("utf-8"))
    assert notice.inner_text().startswith(f"Refused: {shell['refusal.stale']}")
    assert notice.inner_text().endswith("Nothing changed.")
    assert ann.status()["seq"] == now
    assert page.locator(".mt-hand button.card").count() == hand
    assert ann.errors == []
    ann.close()
