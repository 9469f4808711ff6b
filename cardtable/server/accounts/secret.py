"""The server's secret: made once at first start, kept in the data folder.

Sessions are keyed by an HMAC of their cookie under this secret
(:mod:`cardtable.server.accounts.accounts`), so the same secret after a restart keeps
everyone signed in, and a copy of the database alone signs nobody in.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from cardtable.core.errors import CardtableError

SECRET_FILE = "session-secret"
SECRET_BYTES = 32


def load_or_create_secret(folder: Path) -> bytes:
    """The secret in ``folder``, written there first (readable by its owner only) if missing."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    try:
        # O_EXCL: two servers starting at once cannot both write one.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read(path)
    secret = secrets.token_bytes(SECRET_BYTES)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(secret.hex() + "\n")
    return secret


def _read(path: Path) -> bytes:
    text = path.read_text(encoding="ascii", errors="replace").strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) < SECRET_BYTES:
        raise CardtableError(
            f"{path}: not a session secret ({SECRET_BYTES} bytes in hex); delete it to make"
            " a new one (everyone is then signed out)"
        )
    return secret


def data_folder(db_url: str, configured: str | None) -> Path:
    """Where the secret lives: ``configured``, else beside a SQLite file, else
    the user data folder (a PostgreSQL server has no folder of ours)."""
    if configured is not None:
        return Path(configured)
    if db_url.startswith("sqlite") and ":///" in db_url:
        return Path(db_url.split(":///", 1)[1]).parent
    from platformdirs import user_data_path

    return user_data_path("cardtable", appauthor=False)
