"""A real SMTP server on 127.0.0.1 (aiosmtpd) that keeps every mail it is
sent, for the notification tests (server and browser)."""

from __future__ import annotations

import email
import email.policy
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.server.processes import free_port


class Inbox:
    """What the local SMTP server received, in order."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.port = 0

    # aiosmtpd calls this by its name for each mail that arrives.
    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage)
        self.mails.append(parsed)
        return "250 OK"

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]

    def wait_for(self, address: str, count: int, seconds: float = 10.0) -> list[EmailMessage]:
        """The mails to ``address`` once there are ``count`` (a browser test's
        server sends from its own thread)."""
        end = time.monotonic() + seconds
        while len(self.to(address)) < count and time.monotonic() < end:
            time.sleep(0.05)
        return self.to(address)


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert body is not None
    content: str = body.get_content()
    return content


def link_in(mail: EmailMessage, path: str) -> str:
    """The first link of ``mail`` whose path starts with ``path``: its path and token."""
    found = re.search(r"https?://[^/\s]+(" + re.escape(path) + r"[^\s]*)", text_of(mail))
    assert found is not None, (path, text_of(mail))
    return found[1]


@contextmanager
def smtp_server() -> Iterator[Inbox]:
    inbox = Inbox()
    inbox.port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()
