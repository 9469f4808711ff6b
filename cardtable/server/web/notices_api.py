"""The HTTP routes of e-mail notices: an account's address and switches, the
verification link, and the one-click unsubscribe (accounts/notices.py).

``GET``/``POST /api/me/notices`` are the signed-in account's (a JSON post,
same-origin guarded like every write). The links in a mail need no
sign-in: their token is the key. ``GET /verify-email/{token}`` and
``GET /unsubscribe/{token}`` are small pages of their own, in the language
the address was given in; ``POST /api/unsubscribe/{token}`` is what their
button and a mail program's one-click unsubscribe (RFC 8058) send.

Web Push (accounts/push.py): ``GET /api/push/key`` gives the server's public
VAPID key for ``PushManager.subscribe``; ``POST /api/me/push`` stores this
browser's subscription for the signed-in account, ``DELETE /api/me/push``
forgets it. ``GET /push-sw.js`` is the service worker, served at the root so
that its scope is the whole site.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Annotated, Literal

from msgspec import Meta
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardtable.server.accounts.accounts import Accounts
from cardtable.server.accounts.notices import SWITCHES, Notices, checked_address, words
from cardtable.server.accounts.push import Pusher, Subscription
from cardtable.server.requests import Closed
from cardtable.server.web.session_cookie import need_account
from cardtable.server.wire import BadInput, convert, read_json

TOKEN_CHARS = 64  # a token longer than any the server makes is no token


class NoticeChoices(Closed):
    """``POST /api/me/notices``: the address (``""`` forgets it, left out keeps
    it), the page's language for the mails, and any of the four switches."""

    email: Annotated[str, Meta(max_length=254)] | None = None
    lang: Literal["en", "de", "fr"] = "en"
    your_turn: bool | None = None
    deadline_soon: bool | None = None
    finished: bool | None = None
    invite: bool | None = None
    # The same kinds in this account's browsers (Web Push).
    push_your_turn: bool | None = None
    push_deadline_soon: bool | None = None
    push_finished: bool | None = None
    push_invite: bool | None = None


class PushKeys(Closed):
    """A push subscription's keys, as ``PushSubscription.toJSON()`` gives them."""

    p256dh: Annotated[str, Meta(max_length=100)]
    auth: Annotated[str, Meta(max_length=32)]


class PushSubscribe(Closed):
    """``POST /api/me/push``: this browser's subscription and the page's
    language for what is pushed to it."""

    endpoint: str  # its length is Subscription.checked's to say
    keys: PushKeys
    lang: Literal["en", "de", "fr"] = "en"
    expirationTime: float | None = None  # toJSON() sends it (the browser's name); unused


class PushForget(Closed):
    """``DELETE /api/me/push``: the endpoint of the browser to forget."""

    endpoint: str


def _page(lang: str, title: str, *paragraphs: str, form: str = "") -> HTMLResponse:
    """A page of its own (no script needed): a heading, its sentences, a button."""
    text = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    account = html.escape(words(lang, "page.account"))
    return HTMLResponse(
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)} — cardtable</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<link rel="stylesheet" href="/static/accounts.css"></head>'
        '<body><header class="topbar"><a href="/" class="brand">cardtable</a></header>'
        f'<main class="notice-page"><section class="panel"><h1>{html.escape(title)}</h1>'
        f'{text}{form}<p><a href="/account">{account}</a></p></section></main></body></html>'
    )


def _unknown(lang: str) -> HTMLResponse:
    page = _page(lang, words(lang, "page.unknown.title"), words(lang, "page.unknown.text"))
    page.status_code = 404
    return page


def routes(accounts: Accounts, notices: Notices, static: Path) -> list[BaseRoute]:
    def pusher() -> Pusher:
        if notices.pusher is None:
            raise BadInput("this server sends no Web Push", 409)
        return notices.pusher

    async def push_key(request: Request) -> Response:
        return JSONResponse({"key": pusher().public_key})

    async def push_subscribe(request: Request) -> Response:
        account = await need_account(accounts, request)
        body = convert(await read_json(request), PushSubscribe, "request")
        subscription = Subscription.checked(
            body.endpoint, body.keys.p256dh, body.keys.auth, "request"
        )
        base = notices.public_url or str(request.base_url)
        await pusher().subscribe(account.id, subscription, body.lang, base)
        return JSONResponse((await notices.choices(account)).to_json())

    async def push_forget(request: Request) -> Response:
        account = await need_account(accounts, request)
        body = convert(await read_json(request), PushForget, "request")
        await pusher().unsubscribe(account.id, body.endpoint)
        return JSONResponse((await notices.choices(account)).to_json())

    async def service_worker(request: Request) -> Response:
        # Served at the root: a worker's scope is at most its own folder.
        return FileResponse(
            static / "push-sw.js",
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )

    async def mine(request: Request) -> Response:
        account = await need_account(accounts, request)
        return JSONResponse((await notices.choices(account)).to_json())

    async def choose(request: Request) -> Response:
        account = await need_account(accounts, request)
        body = convert(await read_json(request), NoticeChoices, "request")
        email = body.email
        if email is not None and email.strip():
            email = checked_address(email, "request.email")
        kinds = {k: v for k in SWITCHES if (v := getattr(body, k)) is not None}
        base = str(request.base_url)
        choices = await notices.choose(account, email, kinds, body.lang, base)
        return JSONResponse(choices.to_json())

    def token_of(request: Request) -> str | None:
        token: str = request.path_params["token"]
        return token if len(token) <= TOKEN_CHARS else None

    async def verify(request: Request) -> Response:
        token = token_of(request)
        found = None if token is None else await notices.verify(token)
        if found is None:
            return _unknown("en")
        email, lang = found
        return _page(
            lang, words(lang, "page.verified.title"), words(lang, "page.verified.text", email=email)
        )

    async def unsubscribe_page(request: Request) -> Response:
        token = token_of(request)
        found = None if token is None else await notices.unsubscribing(token)
        if found is None or token is None:
            return _unknown("en")
        email, lang = found
        button = html.escape(words(lang, "page.unsubscribe.button"))
        form = (
            f'<form method="post" action="/api/unsubscribe/{html.escape(token)}">'
            '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
            f'<button class="primary" type="submit">{button}</button></form>'
        )
        title = words(lang, "page.unsubscribe.title")
        return _page(lang, title, words(lang, "page.unsubscribe.text", email=email), form=form)

    async def unsubscribe(request: Request) -> Response:
        token = token_of(request)
        lang = None if token is None else await notices.unsubscribe(token)
        if lang is None:
            return _unknown("en")
        title = words(lang, "page.unsubscribe.title")
        return _page(lang, title, words(lang, "page.unsubscribed.text"))

    return [
        Route("/api/me/notices", mine, methods=["GET"]),
        Route("/api/me/notices", choose, methods=["POST"]),
        Route("/verify-email/{token}", verify, methods=["GET"]),
        Route("/unsubscribe/{token}", unsubscribe_page, methods=["GET"]),
        Route("/api/unsubscribe/{token}", unsubscribe, methods=["POST"]),
        Route("/api/push/key", push_key, methods=["GET"]),
        Route("/api/me/push", push_subscribe, methods=["POST"]),
        Route("/api/me/push", push_forget, methods=["DELETE"]),
        Route("/push-sw.js", service_worker, methods=["GET"]),
    ]
