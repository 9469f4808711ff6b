"""A relayed socket carries who is signed in on it (issue 29, item 2): the
table's owner filters its chat as the process the socket came to would, so a
block holds whichever process serves the table."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cardtable.server.cluster.relay import Relays
from cardtable.server.tables.chat import ChatLine
from cardtable.server.tables.table import Client
from tests.server.helpers import run_coroutine


def _opened(message: dict[str, Any]) -> Client:
    """The client the owner makes for a relayed socket's ``open``."""
    connected: list[Client] = []
    hub = SimpleNamespace(tables={"t1": SimpleNamespace(id="t1")})
    play = SimpleNamespace(connect=lambda table, client: connected.append(client))
    relays = Relays(hub, play, redis=None, name="p1", leases=None)  # type: ignore[arg-type]
    run_coroutine(relays.on_message({"op": "open", "link": "L", "table": "t1", **message}))
    (client,) = connected
    assert relays.links["L"].client is client
    return client


def _line(name: str) -> ChatLine:
    return ChatLine(
        n=0, channel="spectators", seat=None, name=name, text="hi", phrase=None, move=0, at_ms=0
    )


def test_the_owner_filters_a_relayed_readers_chat_by_whom_they_blocked() -> None:
    client = _opened(
        {
            "token": None,
            "address": "203.0.113.5",
            "account": "Ann",
            "viewer": "a1",
            "muted": ["Bob"],
        }
    )
    assert client.viewer == "a1" and client.account == "Ann"  # she chats as Ann
    assert client.address == "203.0.113.5"
    assert not client.hears(_line("Bob")) and client.hears(_line("Cleo"))


def test_a_relayed_guest_hears_everyone() -> None:
    client = _opened({"token": None, "address": "203.0.113.6"})
    assert client.viewer is None and client.account is None and client.muted == frozenset()
    assert client.hears(_line("Bob"))
