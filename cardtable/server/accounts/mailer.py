"""Sending mail over SMTP (``cardtable serve --smtp URL``), with aiosmtplib.

The URL says where and how: ``smtp://user:password@host:port`` (plain, or
STARTTLS with ``?starttls=1``), ``smtps://…`` (TLS from the first byte).
Every mail carries ``List-Unsubscribe`` and ``List-Unsubscribe-Post`` (RFC
8058): a mail program offers its own one-click "unsubscribe", which posts to
the link without the person signing in.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

SEND_TIMEOUT = 30.0  # seconds one mail may take; a stuck server is tried again later
DEFAULT_PORTS = {"smtp": 25, "smtps": 465}


@dataclass(frozen=True)
class SmtpServer:
    """Where mail goes, read from the ``--smtp`` URL."""

    host: str
    port: int
    username: str | None
    password: str | None
    implicit_tls: bool  # smtps://
    starttls: bool  # smtp://…?starttls=1


def smtp_server(url: str) -> SmtpServer:
    """The server of ``url``, or ValueError saying what is wrong with it."""
    parts = urlsplit(url.strip())
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(f"{url!r}: give smtp://HOST:PORT or smtps://HOST:PORT")
    if not parts.hostname:
        raise ValueError(f"{url!r}: the address names no host")
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError:
        raise ValueError(f"{url!r}: the port must be a number from 1 to 65535") from None
    query = parse_qs(parts.query)
    unknown = set(query) - {"starttls"}
    if unknown:
        raise ValueError(f"{url!r}: unknown parameter {sorted(unknown)[0]!r}; only starttls=1")
    starttls = query.get("starttls", ["0"])[-1] in ("1", "true", "yes")
    if starttls and parts.scheme == "smtps":
        raise ValueError(f"{url!r}: smtps:// is TLS already; starttls=1 is for smtp://")
    return SmtpServer(
        host=parts.hostname,
        port=port,
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        implicit_tls=parts.scheme == "smtps",
        starttls=starttls,
    )


@dataclass(frozen=True)
class Mail:
    """One mail to one person: plain text, and the link that unsubscribes them."""

    to: str
    subject: str
    text: str
    unsubscribe_url: str
    language: str


class Mailer:
    """Sends :class:`Mail` from ``sender`` through the server of ``url``."""

    def __init__(self, url: str, sender: str) -> None:
        self.server = smtp_server(url)
        self.sender = sender

    def message(self, mail: Mail) -> EmailMessage:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = mail.to
        message["Subject"] = mail.subject
        message["Message-ID"] = make_msgid(domain=self.sender.rpartition("@")[2] or None)
        message["Content-Language"] = mail.language
        message["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message["Auto-Submitted"] = "auto-generated"  # RFC 3834: no vacation replies
        message.set_content(mail.text)
        return message

    async def send(self, mail: Mail) -> None:
        """Send ``mail`` or raise (the server away, the address refused)."""
        import aiosmtplib  # the web extra's; the command line reads this module without it

        server = self.server
        await aiosmtplib.send(
            self.message(mail),
            hostname=server.host,
            port=server.port,
            username=server.username,
            password=server.password,
            use_tls=server.implicit_tls,
            start_tls=server.starttls,
            timeout=SEND_TIMEOUT,
        )
