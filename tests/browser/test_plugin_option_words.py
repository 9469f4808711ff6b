"""A game without a board of its own names its rules options in the lobby's
language (issue 33, item 12; docs/plugins.md#option-labels): the skeleton of
``cardtable new-game`` ships ``web/i18n.<lang>.json``, and the set-up form
labels ``hand_size`` "Hand size", "Handkarten", "Cartes en main" — the raw
name nowhere — with the catalog's help, at a desktop and on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardtable.cli.new_game_cmd import Words, write_skeleton
from tests.browser.helpers import PHONE, Person, Server, run_axe, shoot
from tests.fixtures.plugin import registered

NAME = "ct-worded-lobby"
WORDS = {
    "en": ("Hand size", "Rounds", "Cards dealt to each player a round"),
    "de": ("Handkarten", "Runden", "Karten, die jeder Spieler pro Runde erhält"),
    "fr": ("Cartes en main", "Manches", "Cartes distribuées à chaque joueur par manche"),
}


@pytest.fixture(scope="module")
def worded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``cardtable serve`` with a fresh ``new-game`` skeleton installed as a plugin."""
    words = Words.of(NAME)
    project = tmp_path_factory.mktemp("skeleton") / words.package
    write_skeleton(words, project)
    with registered(project / words.package, NAME, words.package):
        running = Server(tmp_path_factory.mktemp("worded") / "tables.sqlite3")
        running.start()
        yield running
        running.stop()


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", None), ("de", None), ("fr", None), ("de", PHONE), ("fr", PHONE)]
)
def test_the_set_up_form_names_a_boardless_games_options_in_the_readers_language(
    browser: Any,
    worded_server: Server,
    axe_source: str,
    screenshots: Path,
    lang: str,
    viewport: dict[str, int] | None,
) -> None:
    size = {"viewport": viewport} if viewport else {}
    person = Person.open(browser, "Ann", locale=lang, **size)
    page = person.page
    page.goto(worded_server.url + "/")
    page.wait_for_selector("#set-up", state="attached")
    page.locator("#set-up > summary").click()  # the set-up form is folded (issue 29)
    page.locator("#new-game").select_option(NAME)
    hand, rounds, help_text = WORDS[lang]
    assert page.get_by_label(hand, exact=True).count() == 1
    assert page.get_by_label(rounds, exact=True).count() == 1
    assert page.get_by_label("hand_size", exact=True).count() == 0  # not the raw name
    form = page.locator(".create-form")
    assert help_text in form.inner_text()
    form.scroll_into_view_if_needed()
    shoot(page, screenshots, f"plugin-option-words-{lang}-{'phone' if viewport else 'desktop'}")
    assert run_axe(page, axe_source) == []
    assert person.errors == []
