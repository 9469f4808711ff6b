"""The pages beside play: rules pages with an anchor per rule, in each
language, and the invite link as a QR code."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

import cardtable
from cardtable.core import registry
from cardtable.server.web.pages import render_rules
from tests.server.helpers import running

pytestmark = pytest.mark.timeout(120, method="thread")

LANGUAGES = ("en", "de", "fr")


def cited_rules(game: str) -> set[str]:
    """Rule numbers written as strings in the game's code (what refusals and
    tooltips cite), with the prefixes its English rules number them by (MT-5.4)."""
    prefixes = sorted({anchor.split("-")[0] for anchor in server_free_anchors(game)})
    cited = re.compile(rf"""["']((?:{"|".join(prefixes)})-\d+(?:\.\d+)?)["']""")
    package = Path(str(resources.files(registry.manifest(game).package or "")))
    return {n for f in package.rglob("*.py") for n in cited.findall(f.read_text("utf-8"))}


def translated(game: str, lang: str) -> bool:
    """Whether the game's package holds its rules in ``lang`` (``rules.de.md``)."""
    m = registry.manifest(game)
    stem, _, suffix = (m.rules or "").rpartition(".")
    return resources.files(m.package or "").joinpath(f"{stem}.{lang}.{suffix}").is_file()


@pytest.mark.parametrize("game", cardtable.game_names())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_anchors_every_rule_the_code_cites(
    db_url: str, game: str, lang: str
) -> None:
    if not registry.manifest(game).has("rules"):
        pytest.skip(f"{game} has no rules text: it has no rules page")
    with running(db_url) as server:
        page = server.client.get(f"/rules/{game}")
        body = server.client.get(f"/api/games/{game}/rules", params={"lang": lang}).json()
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    # English where the game has no translation; every built-in game has them.
    assert body["lang"] == (lang if lang == "en" or translated(game, lang) else "en")
    if lang != "en" and registry.manifest(game).game.startswith("cardtable.games."):
        assert translated(game, lang), f"{game} has no {lang} rules"
    cited = cited_rules(game)
    assert cited, f"{game}'s code cites no rule: the pattern is wrong"
    for number in cited:
        assert f'id="{number}"' in body["html"], f"{lang}: no anchor for {number}"
    english = server_free_anchors(game)
    assert body["rules"] == english, f"{lang}: its rules are numbered unlike the English ones"


def server_free_anchors(game: str) -> list[str]:
    m = registry.manifest(game)
    text = resources.files(m.package or "").joinpath(m.rules or "").read_text("utf-8")
    return render_rules(text)[1]


def test_a_language_without_its_rules_falls_back_to_english(db_url: str) -> None:
    with running(db_url) as server:
        body = server.client.get("/api/games/myrummy-111/rules", params={"lang": "nl"}).json()
        bad = server.client.get("/api/games/myrummy-111/rules", params={"lang": "../x"}).json()
        missing = server.client.get("/api/games/chess/rules")
    assert body["lang"] == "en" and bad["lang"] == "en"
    assert missing.status_code == 404 and "chess" in missing.json()["error"]


def test_rules_text_cannot_put_markup_into_the_page() -> None:
    html, anchors = render_rules(
        "## XY-9 Test\n\n**XY-9.1** <script>alert(1)</script> see XY-9.1 and "
        "[x](javascript:alert(1)); XY-99.9 is not here.\n"
    )
    assert anchors == ["XY-9", "XY-9.1"]
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html  # markdown-it refuses the link
    assert '<a href="#XY-9.1">XY-9.1</a>' in html and '"#XY-99.9"' not in html


def test_the_invite_is_a_qr_code_of_the_table_link(db_url: str) -> None:
    with running(db_url) as server:
        table = server.create("marshmallow-test", ["human", "human"])
        svg = server.client.get(f"/api/tables/{table}/qr.svg")
        unknown = server.client.get("/api/tables/nosuchtable/qr.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.lstrip().startswith("<?xml") and "<svg" in svg.text
    assert f"/t/{table}" in svg.text  # its title: the link it encodes
    assert unknown.status_code == 404


def test_the_lobby_offers_options_with_their_defaults_and_choices(db_url: str) -> None:
    with running(db_url) as server:
        games = {g["name"]: g for g in server.client.get("/api/games").json()}
    ruff = next(o for o in games["marshmallow-test"]["options"] if o["name"] == "trump_after_ruff")
    assert ruff["default"] == "may" and ruff["choices"] == ["may", "must"]  # MT-5.4
    hands = next(o for o in games["myrummy-111"]["options"] if o["name"] == "hand_sizes")
    assert "default" not in hands and "MR-9" in hands["default_how"]
