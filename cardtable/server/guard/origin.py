"""Requests from other sites are refused: an ASGI middleware in front of the app.

A page on another site can make a visitor's browser send a form post or open
a WebSocket to this server. So a state-changing HTTP request (any method but
GET, HEAD and OPTIONS) must say ``Content-Type: application/json`` (which a
form cannot, and which makes a browser ask before sending it from another
site), and a request or WebSocket handshake that carries an ``Origin`` must
come from this server's own origin. A request without ``Origin`` comes from a
program, not a page of another site, and passes. The server's origin is
``--public-url`` when given (behind a reverse proxy), else the scheme and
``Host`` of the request itself. The one-click unsubscribe of a mail
(:data:`FORM_POSTS`) is a form post by design: its secret token, not a
cookie, is what it acts on.

It also refuses a request whose headers come to more than
:data:`MAX_HEADERS` bytes (431): no browser of this site sends that much, and
each one held would cost the server its size. ``cardtable serve`` gives
uvicorn the same limit for a request head that arrives in pieces
(cardtable/cli/serve_cmd.py), so a larger one is never read whole.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# Posts that a mail program or a form without script sends: RFC 8058's
# one-click unsubscribe (a form post, no Origin). The link's secret token is
# what authorizes it, never a cookie, so another site gains nothing by it.
FORM_POSTS = ("/api/unsubscribe/",)
MAX_HEADERS = 16 * 1024  # bytes of names and values; a browser's are a few KiB


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, lower case, default ports left out."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(scheme)
    port = parts.port
    return f"{scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


def own_origin(scope: Scope, public_url: str | None) -> str:
    if public_url is not None:
        return origin_of(public_url)
    scheme = {"ws": "http", "wss": "https"}.get(scope["scheme"], scope["scheme"])
    return origin_of(f"{scheme}://{_header(scope, b'host') or ''}")


def refusal(scope: Scope, public_url: str | None) -> tuple[int, str] | None:
    """Why a request is refused (an HTTP status and a sentence), or ``None``."""
    size = sum(len(key) + len(value) for key, value in scope.get("headers", ()))
    if size > MAX_HEADERS:
        return 431, f"the request's headers come to {size} bytes; the limit is {MAX_HEADERS}"
    origin = _header(scope, b"origin")
    if origin is not None and origin_of(origin) != own_origin(scope, public_url):
        return 403, f"requests from {origin[:80]!r} are refused: only this site's own pages may"
    form_post = scope["type"] == "http" and scope.get("path", "").startswith(FORM_POSTS)
    if scope["type"] == "http" and scope["method"] not in SAFE_METHODS and not form_post:
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            sent = repr(kind) if kind else "none"
            return 415, f"send JSON, with Content-Type: application/json (this request says {sent})"
    return None


class SameOrigin:
    """The middleware: checks each HTTP request and WebSocket handshake."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = refusal(scope, self.public_url)
        if refused is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await receive()  # the handshake; closing before accepting answers it with 403
            await send({"type": "websocket.close", "code": 1008, "reason": refused[1][:120]})
        else:
            await _send_error(send, *refused)


async def _send_error(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    headers: list[Any] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
