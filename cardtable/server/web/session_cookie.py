"""The session cookie: who a request is signed in as, and setting or clearing it.

``ct_session`` is HttpOnly (no script reads it), Secure and SameSite=Lax
(another site's form cannot post with it); its value is the session's random
token, which :class:`cardtable.server.accounts.accounts.Accounts` looks up.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardtable.server.accounts.accounts import Account, Accounts
from cardtable.server.wire import BadInput

COOKIE = "ct_session"
COOKIE_DAYS = 60  # as long as a stored session lasts (Accounts.SESSION_MS)


async def signed_in(accounts: Accounts, request: Request) -> Account | None:
    """The account the request's session cookie signs in, if any."""
    token = request.cookies.get(COOKIE)
    return await accounts.session(token) if token else None


async def need_account(accounts: Accounts, request: Request) -> Account:
    """The signed-in account, or a 401 naming the route."""
    account = await signed_in(accounts, request)
    if account is None:
        raise BadInput(f"{request.url.path}: sign in first", 401)
    return account


def with_session(body: dict[str, object], token: str, status: int = 200) -> Response:
    """``body`` as JSON, setting the cookie of a new session."""
    response = JSONResponse(body, status_code=status)
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_DAYS * 24 * 3600,
        path="/",
        secure=True,
        httponly=True,
        samesite="lax",
    )
    return response


def signed_out(body: dict[str, object]) -> Response:
    """``body`` as JSON, clearing the cookie."""
    response = JSONResponse(body)
    response.delete_cookie(COOKIE, path="/", secure=True, httponly=True, samesite="lax")
    return response
