"""The pages beside play: each game's rules in a language, and a table's invite as a QR code.

``GET /rules/{game}`` is the browser shell (it draws the page);
``GET /api/games/{game}/rules?lang=de`` is the rules as HTML with an anchor
per section and rule (``id="MT-5.4"``), from the game's ``rules.md`` or its
translation beside it (``rules.de.md``), English where the language has none.
Markdown goes through ``markdown-it-py`` with raw HTML off, so a rules text
cannot put markup of its own into the page. ``GET /api/tables/{id}/qr.svg``
is the table's invite link as a QR code, for a phone at the same table;
``GET /api/languages`` the interface's languages, one per catalog file.
"""

from __future__ import annotations

import io
import json
import re
from importlib import resources
from pathlib import Path

import segno
from markdown_it import MarkdownIt
from markdown_it.token import Token
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.core.errors import CardtableError
from cardtable.core.manifest import GameManifest
from cardtable.core.registry import game_names, manifest
from cardtable.core.rulebook import RULE_NUMBER
from cardtable.server.live.hub import Hub
from cardtable.server.wire import BadInput

__all__ = ["interface_languages", "render_rules", "routes", "rules_source"]

# A language as the client names it: a primary subtag ("de"), nothing a path could hide in.
_LANG = re.compile(r"[a-z]{2,3}")


def rules_source(m: GameManifest, lang: str) -> tuple[str, str]:
    """``(language, Markdown)`` of ``m``'s rules in ``lang``, else in English.

    The translation of ``rules.md`` into German is ``rules.de.md`` beside it:
    adding a language is adding that file.
    """
    if m.rules is None or m.package is None:
        raise BadInput(f"{m.title} ships no rules text", 404)
    stem, dot, suffix = m.rules.rpartition(".")
    folder = resources.files(m.package)
    if lang != "en" and dot and _LANG.fullmatch(lang):
        try:
            return lang, folder.joinpath(f"{stem}.{lang}.{suffix}").read_text(encoding="utf-8")
        except (OSError, CardtableError):
            pass  # no translation: English below
    return "en", folder.joinpath(m.rules).read_text(encoding="utf-8")


def render_rules(text: str) -> tuple[str, list[str]]:
    """The rules as HTML and the numbers it anchors, in order.

    A heading ``## MT-5 Tricks`` gets ``id="MT-5"``; a paragraph opening with
    ``**MT-5.4**`` gets ``id="MT-5.4"``; every other mention of an anchored
    number in the text links to it.
    """
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse(text)
    anchors: list[str] = []
    for i, token in enumerate(tokens[:-1]):
        if token.type not in ("heading_open", "paragraph_open"):
            continue
        inline = tokens[i + 1]
        children = [c for c in inline.children or [] if c.type != "text" or c.content]
        if token.type == "heading_open":
            match = RULE_NUMBER.match(inline.content)
        else:  # the number in bold at the paragraph's start: strong_open, text, strong_close
            opens_bold = len(children) >= 2 and children[0].type == "strong_open"
            match = RULE_NUMBER.fullmatch(children[1].content) if opens_bold else None
        if match and match[0] not in anchors:
            token.attrSet("id", match[0])
            anchors.append(match[0])
    known = set(anchors)
    for token in tokens:
        if token.type == "inline" and token.children:
            token.children = _linked(token.children, known)
    return md.renderer.render(tokens, md.options, {}), anchors


def _linked(children: list[Token], known: set[str]) -> list[Token]:
    """``children`` with every known rule number in plain text made a link to its anchor."""
    out: list[Token] = []
    for child in children:
        if child.type != "text":
            out.append(child)
            continue
        rest = child.content
        for match in RULE_NUMBER.finditer(child.content):
            if match[0] not in known:
                continue
            before, _, rest = rest.partition(match[0])
            if before:
                out.append(_text(before))
            link = Token("link_open", "a", 1)
            link.attrSet("href", f"#{match[0]}")
            out += [link, _text(match[0]), Token("link_close", "a", -1)]
        if rest:
            out.append(_text(rest))
    return out


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def interface_languages(folder: Path) -> list[dict[str, str]]:
    """``[{code, name}]`` of every interface catalog (``en.json``…), English first:
    a language is offered by adding its catalog, whose ``lang.name`` names it."""
    out = []
    for path in sorted(folder.glob("*.json"), key=lambda p: (p.stem != "en", p.stem)):
        if not _LANG.fullmatch(path.stem):
            continue
        name = json.loads(path.read_text("utf-8")).get("lang.name", path.stem)
        out.append({"code": path.stem, "name": str(name)})
    return out


def _game(request: Request) -> GameManifest:
    name = request.path_params["game"]
    if name not in game_names():
        raise BadInput(f"there is no game {name[:40]!r}", 404)
    return manifest(name)


def routes(hub: Hub, static: Path) -> list[BaseRoute]:
    async def rules_page(request: Request) -> Response:
        _game(request)
        return FileResponse(static / "index.html", media_type="text/html")

    async def rules(request: Request) -> Response:
        m = _game(request)
        lang, text = rules_source(m, request.query_params.get("lang", "en"))
        html, anchors = render_rules(text)
        return JSONResponse(
            {"game": m.name, "title": m.title, "lang": lang, "html": html, "rules": anchors}
        )

    async def invite_qr(request: Request) -> Response:
        table = await hub.get(request.path_params["table_id"])
        link = f"{str(request.base_url).rstrip('/')}/t/{table.id}"
        out = io.BytesIO()
        segno.make(link, error="m").save(out, kind="svg", scale=4, border=2, title=link)
        return Response(out.getvalue(), media_type="image/svg+xml")

    async def languages(request: Request) -> Response:
        return JSONResponse(interface_languages(static / "i18n"))

    return [
        Route("/api/languages", languages),
        Route("/rules/{game}", rules_page),
        Route("/api/games/{game}/rules", rules),
        Route("/api/tables/{table_id}/qr.svg", invite_qr),
    ]
