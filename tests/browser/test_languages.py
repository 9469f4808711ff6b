"""English, German and French in the browser: the header's switch (remembered),
pages with no English left in them, refusals worded from their key and
parameters by the page's catalog, the rules pages, and the replay: presence as it was (none),
axe-core on every page in every language, desktop and phone. Also the "At the
table" log after a reload: Ann left, and is back; the invite (link, Share, QR)."""

from __future__ import annotations

import json
import re
import shutil
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from cardtable.core import registry
from tests.browser.helpers import Person, Server, play_until_finished, run_axe, shoot
from tests.browser.test_analysis import post

LANGUAGES = ("en", "de", "fr")
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
STATIC = Path(__file__).resolve().parents[2] / "cardtable" / "server" / "web" / "static"
PLACEHOLDER = re.compile(r"\{\w+\}")
SHOTS = Path("/work/wt/screens16i")  # where the reviewer looks; test-artifacts/ gets a copy too


def catalog(lang: str, game: str | None = None) -> dict[str, Any]:
    if game is None:
        words: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
        return words
    m = registry.manifest(game)
    folder = Path(str(files(m.package or ""))) / Path(m.web_client or "").parent
    words = json.loads((folder / f"i18n.{lang}.json").read_text("utf-8"))
    return words


def texts(words: dict[str, Any]) -> list[str]:
    """Every text of a catalog but the language's own name (the switch lists each in its own)."""
    values = [v for k, v in words.items() if k != "lang.name"]
    return [t for v in values for t in (v.values() if isinstance(v, dict) else [v])]


def english_fragments(lang: str) -> set[str]:
    """The English catalogs' words that must not appear on a page in ``lang``:
    each value's text between placeholders, where it is words (two or more,
    or one of six letters or more) that ``lang``'s own catalogs do not use too
    ("Options", "Total" and "Phase" are French as well)."""
    english, other = [], []
    boards = [g for g in registry.game_names() if registry.manifest(g).has("web_client")]
    for game in (None, *boards):  # a game without a browser board has no catalog
        english += texts(catalog("en", game))
        other += texts(catalog(lang, game))
    theirs = " ".join(other)
    found = set()
    for value in english:
        for piece in PLACEHOLDER.split(value):
            piece = piece.strip(" .,:;()·—–-…?!“”\"'")
            words = piece.split()
            if (len(words) >= 2 or len(piece) >= 6) and piece not in theirs:
                found.add(piece)
    return found


def english_left(page: Any, lang: str) -> list[str]:
    # Code (an option's name such as `players`, a card such as `G7`) is not words to translate.
    shown = page.evaluate(
        """() => [...document.querySelectorAll('code')].reduce(
             (text, code) => text.replace(code.innerText, ' '), document.body.innerText)"""
    )
    return sorted(
        f for f in english_fragments(lang) if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", shown)
    )


def save_shot(page: Any, screenshots: Path, name: str) -> None:
    path = shoot(page, screenshots, name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def open_in(browser: Any, lang: str, viewport: str) -> Person:
    """A browser whose preferences name ``lang`` first."""
    return Person.open(browser, "Ann", viewport=VIEWPORTS[viewport], locale=lang)


def ann_against_a_bot(server: Server, options: dict[str, Any], bot_delay_ms: int = 0) -> str:
    """A two-player Marshmallow Test table: a person's seat and an easy bot."""
    table: str = post(
        server,
        "/api/tables",
        {
            "game": "marshmallow-test",
            "options": {"players": 2, **options},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "bot_delay_ms": bot_delay_ms,
        },
    )["id"]
    return table


def finished_table(browser: Any, server: Server) -> str:
    """A short Marshmallow Test game, Ann against a bot, played to its end;
    Ann then closes her browser (she is offline now)."""
    table = ann_against_a_bot(server, {"target": 1})
    ann = Person.open(browser, "Ann")
    ann.page.goto(f"{server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    play_until_finished([ann], lambda person, made: play_first(person))
    assert ann.errors == []
    ann.close()
    return table


def play_first(person: Person) -> None:
    page = person.page
    if page.locator(".mt-trump-choice").count():
        page.locator(".mt-trump-choice button").first.click()
    else:
        page.locator(".mt-hand button.is-playable").first.click()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_lobby_rules_and_replay_in_each_language(
    browser: Any, server: Server, axe_source: str, screenshots: Path, viewport: str
) -> None:
    table = finished_table(browser, server)
    for lang in LANGUAGES:
        person = open_in(browser, lang, viewport)
        page = person.page
        page.goto(server.url + "/")
        page.locator("#set-up > summary").click()  # its words come when it is opened
        page.wait_for_selector("#create-table")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#language").input_value() == lang
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        if lang != "en":
            assert english_left(page, lang) == []
        assert run_axe(page, axe_source) == [], (lang, "lobby")
        if lang in ("en", "de"):
            save_shot(page, screenshots, f"lobby-{lang}-{viewport}")

        # "How to play" opens the rules page of the language, a rule at a time by its anchor.
        page.locator(".quick-game .how-to-play").first.click()
        page.wait_for_selector(".rules-text")
        assert page.url.endswith("/rules/marshmallow-test")
        assert page.locator(".rules-text").get_attribute("lang") == lang
        page.goto(server.url + "/rules/marshmallow-test#MT-5.4")
        page.wait_for_selector(".rules-text .is-target#MT-5\\.4")
        assert page.locator("#MT-5\\.4").is_visible()
        if lang != "en":
            assert english_left(page, lang) == []
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        assert run_axe(page, axe_source) == [], (lang, "rules")
        if lang in ("en", "de"):
            save_shot(page, screenshots, f"rules-{lang}-{viewport}")

        # The replay: no one's presence of today (Ann has gone offline since).
        page.goto(f"{server.url}/t/{table}")
        page.locator("#open-replay").click()
        page.wait_for_function(
            "() => document.querySelector('.replay-board')?.dataset.step === '0'"
        )
        board = page.locator(".replay-board")
        assert board.locator(".seat-badge.away").count() == 0
        offline = catalog(lang, "marshmallow-test")["seat.offline"]
        assert offline not in board.inner_text()
        # ... while the live table does show that Ann is offline now.
        assert offline in page.locator("#board").inner_text()
        # The game is to one point: the singular ("1 Punkt", not "1 Punkte").
        target = catalog(lang, "marshmallow-test")["centre.target"]["one"]
        assert target.format(target=1) in board.inner_text()
        if lang != "en":
            assert english_left(page, lang) == []
        assert run_axe(page, axe_source) == [], (lang, "replay")
        if lang in ("en", "de"):
            page.locator("#replay").scroll_into_view_if_needed()
            save_shot(page, screenshots, f"replay-{lang}-{viewport}")
        assert person.errors == [], person.errors
        person.close()


def refused_state(person: Person) -> dict[str, Any]:
    """Play (the first legal card) until Ann's turn has a card refused by MT-5.3/5.4."""
    for _ in range(200):
        person.page.wait_for_function(
            "() => document.querySelector('#turn-status')?.dataset.mine === 'true'"
            " || document.querySelector('#end-panel')?.hidden === false"
        )
        state = person.states()[-1]
        assert not state["finished"], "the game ended before any card was refused"
        if any(r["rule"] in ("MT-5.3", "MT-5.4") for r in state["refused"]):
            return state
        seq = state["seq"]
        play_first(person)
        person.wait_past(seq)
    raise AssertionError("no refusal in 200 turns")


def card_words(name: str, words: dict[str, Any]) -> str:
    colour = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "P": "purple"}[name[0]]
    return str(words["card"]).format(colour=words[f"colour.{colour}"], number=name[1:])


def test_a_refusal_is_a_key_and_parameters_worded_in_each_language_chosen_in_the_header(
    browser: Any, server: Server
) -> None:
    table = ann_against_a_bot(server, {"target": 30})
    ann = open_in(browser, "en", "desktop")
    page = ann.page
    page.goto(f"{server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()
    state = refused_state(ann)
    refusal = next(r for r in state["refused"] if r["rule"] in ("MT-5.3", "MT-5.4"))
    # On the wire: the move, its rule, and the refusal's key and facts (the
    # engine's English reason rides along for records and plugin games).
    assert set(refusal) >= {"move", "rule", "key", "params"} and refusal["move"]["play"]
    params = refusal["params"]
    assert refusal["key"] in ("MT-5.3.follow", "MT-5.4.follow-or-trump")
    assert params["lead"] in ("red", "yellow", "green", "blue", "purple")
    # The cards it names are the ones the seat may play instead.
    assert sorted(params["cards"]) == sorted(m["play"] for m in state["legal"])
    for lang in LANGUAGES:
        if lang != "en":  # the header's switch: the page comes back in that language
            page.locator("#language").select_option(lang)
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            ann.wait_connected()
        words = {**catalog(lang), **catalog(lang, "marshmallow-test")}
        cards = page.evaluate(
            "([lang, xs]) => new Intl.ListFormat(lang, {type: 'disjunction'}).format(xs)",
            [lang, [card_words(c, words) for c in params["cards"]]],
        )
        reason = words[f"refusal.{refusal['key']}"].format(
            lead=words[f"colour.{params['lead']}"],
            trump=words[f"colour.{params.get('trump', 'red')}"],
            cards=cards,
        )
        if lang == "de":  # German words, not the engine's English sentence
            assert reason.startswith("du musst ") and refusal["reason"] not in reason
        why = words["hand.refused"].format(reason=reason, rule=refusal["rule"])
        card = page.locator(f".mt-hand button[data-card='{refusal['move']['play']}']")
        assert card.get_attribute("title") == why
        assert card.get_attribute("aria-label") == words["hand.notPlayable"].format(
            card=card_words(refusal["move"]["play"], words), reason=why
        )
        card.dispatch_event("click")  # a tap says why (aria-disabled: Playwright would not click)
        link = page.locator(f"#mt-reason a[href='/rules/marshmallow-test#{refusal['rule']}']")
        assert link.inner_text() == refusal["rule"]
    # Remembered: a new page of this browser opens in French.
    page.goto(server.url + "/")
    page.wait_for_selector("#set-up", state="attached")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert ann.errors == []


def test_the_invite_and_after_a_reload_the_table_log_says_the_player_is_back(
    browser: Any, server: Server
) -> None:
    table = ann_against_a_bot(server, {}, bot_delay_ms=5000)  # the game waits on the bot
    ann = Person.open(browser, "Ann")
    page = ann.page
    # A browser with the Web Share API (stubbed: it records what it was given).
    page.context.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); }"
    )
    page.goto(f"{server.url}/t/{table}")
    ann.join(0)
    ann.wait_connected()

    # The invite: the whole link, Share, and a QR code for a phone at the same table.
    link = f"{server.url}/t/{table}"
    assert page.locator("#invite-link").inner_text() == link
    page.locator("#share-invite").click()
    page.wait_for_function("() => window.shared !== undefined")
    assert page.evaluate("window.shared.url") == link
    page.locator(".invite-qr summary").click()
    qr = page.locator(".invite-qr img")
    page.wait_for_function("() => document.querySelector('.invite-qr img').naturalWidth > 0")
    assert qr.get_attribute("src") == f"/api/tables/{table}/qr.svg"

    page.reload()
    ann.wait_connected()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.table-events li')]"
        ".some((li) => li.textContent === 'Ann is back')"
    )
    lines = page.locator(".table-events li").all_inner_texts()
    assert lines.index("Ann left the table") < len(lines) - 1 - lines[::-1].index("Ann is back")
    assert ann.errors == []
