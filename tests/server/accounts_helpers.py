"""A server for account tests: HTTPS (the session cookie is Secure), cheap argon2, a test clock."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from httpx2 import Cookies
from starlette.testclient import TestClient

from cardtable.server.accounts.accounts import Accounts
from cardtable.server.app import create_app
from cardtable.server.settings import Limits, Settings
from tests.server.helpers import Server


class Clock:
    """Milliseconds that move only when a test moves them."""

    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms


class AccountServer(Server):
    """A browser at the server: :meth:`browser` gives another, with its own cookies.

    All of them share one test client (one event loop, where the database
    connections live); each installs its own cookie jar before it is used.
    """

    def __init__(
        self, client: TestClient, jar: Cookies | None = None, address: str | None = None
    ) -> None:
        super().__init__(client)
        self.jar = Cookies() if jar is None else jar
        self.address = address  # None: the test client's own

    def __getattribute__(self, name: str) -> Any:
        if name == "client":
            client: TestClient = object.__getattribute__(self, "__dict__")["client"]
            client._cookies = object.__getattribute__(self, "jar")  # this browser's cookies
            address = object.__getattribute__(self, "address")
            if address is None:
                client.headers.pop("X-Forwarded-For", None)
            else:
                client.headers["X-Forwarded-For"] = address  # this browser's address
            return client
        return object.__getattribute__(self, name)

    @property
    def accounts(self) -> Accounts:
        accounts: Accounts = self.client.app.state.accounts  # type: ignore[attr-defined]
        return accounts

    def post(self, path: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.post(path, json={} if body is None else body)
        assert response.status_code == status, response.text
        return response.json()

    def sign_up(self, name: str, password: str = "correct horse", status: int = 201) -> Any:
        return self.post("/api/account/signup", {"name": name, "password": password}, status)

    def sign_in(self, name: str, password: str = "correct horse", status: int = 200) -> Any:
        return self.post("/api/account/signin", {"name": name, "password": password}, status)

    def who(self) -> str | None:
        account = self.client.get("/api/account").json()["account"]
        return None if account is None else str(account["name"])

    def browser(self, address: str | None = None) -> AccountServer:
        """A second browser at the same server: its own cookies, and its own
        address unless ``address`` is given (two accounts seated from one
        address make a table that is not rated)."""
        return AccountServer(self.client, Cookies(), address or next(ADDRESSES))


# Each further browser's address: the test client stands for their proxy.
ADDRESSES = (f"10.1.{n // 250}.{n % 250 + 1}" for n in itertools.count())
TEST_CLIENT = "testclient"  # the peer address of Starlette's test client


@contextmanager
def account_server(
    db_url: str, clock: Clock | None = None, **settings: Any
) -> Iterator[AccountServer]:
    limits: Limits = settings.pop("limits", Limits())
    trusted = limits.trusted_proxies | {TEST_CLIENT}
    settings["limits"] = dataclasses.replace(limits, trusted_proxies=trusted)
    app = create_app(Settings(db_url=db_url, fast_passwords=True, **settings))
    with TestClient(app, base_url="https://testserver") as client:
        server = AccountServer(client, client.cookies)
        if clock is not None:
            server.accounts.clock = clock
        yield server
