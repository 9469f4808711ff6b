"""Chat moderation: people report a line, an operator lists and removes lines.

A report names one line of a table's chat (its number ``n``) that the
reporter can read and did not say; it is stored once per line and reporter,
so pressing the button twice counts once. The operator works on the
database (``cardtable admin chat list`` and ``remove``), from another
process or machine: a removed line keeps its place and speaker in the
database and its words stay there for the operator, but nobody is sent them
again. Each server process looks every :data:`WATCH_SECONDS` for removed
lines of the tables it holds in memory and tells the clients reading them
(``chat-removed``); a table loaded later comes from the database already
without them. No clock is compared across processes: the watch asks for every
removed line of its tables, which are few.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from cardtable.server.db.schema import chat, chat_reports
from cardtable.server.db.storage import unreachable
from cardtable.server.live.hub import Hub
from cardtable.server.periodic import Periodic
from cardtable.server.tables.chat import may_read
from cardtable.server.tables.messages import chat_removed_message
from cardtable.server.tables.table import Table

WATCH_SECONDS = 5.0
# Tables asked about in one query: well under any database's limit on bound values.
_IDS_PER_QUERY = 500


async def add_report(
    engine: AsyncEngine, table_id: str, n: int, reporter: str, address: str, at_ms: int
) -> None:
    """Store one report (a second one of the same line by the same reporter is no new report)."""
    with contextlib.suppress(IntegrityError):
        async with engine.begin() as conn:
            await conn.execute(
                insert(chat_reports).values(
                    table_id=table_id, n=n, reporter=reporter, address=address, at_ms=at_ms
                )
            )


@dataclass(frozen=True, slots=True)
class ListedLine:
    """A line as the operator sees it: its words even when removed, and its reports."""

    table_id: str
    n: int
    channel: str
    name: str | None
    text: str | None
    phrase: str | None
    at_ms: int
    removed_ms: int | None
    reports: int


async def listed(
    engine: AsyncEngine,
    *,
    table_id: str | None = None,
    name: str | None = None,
    every: bool = False,
    limit: int = 50,
) -> list[ListedLine]:
    """Lines newest first: by default those reported and not removed; ``every``
    line with ``every``; only one table's or one speaker's when asked."""
    reports = (
        select(chat_reports.c.table_id, chat_reports.c.n, func.count().label("reports"))
        .group_by(chat_reports.c.table_id, chat_reports.c.n)
        .subquery()
    )
    count = func.coalesce(reports.c.reports, 0)
    query = select(chat, count.label("reports")).outerjoin(
        reports, and_(reports.c.table_id == chat.c.table_id, reports.c.n == chat.c.n)
    )
    if not every:
        query = query.where(count > 0, chat.c.removed_ms.is_(None))
    if table_id is not None:
        query = query.where(chat.c.table_id == table_id)
    if name is not None:
        query = query.where(chat.c.name == name)
    query = query.order_by(chat.c.at_ms.desc(), chat.c.table_id, chat.c.n.desc()).limit(limit)
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).mappings().all()
    return [
        ListedLine(
            r["table_id"],
            r["n"],
            r["channel"],
            r["name"],
            r["text"],
            r["phrase"],
            r["at_ms"],
            r["removed_ms"],
            r["reports"],
        )
        for r in rows
    ]


class NoSuchLines(LookupError):
    """Lines an operator named that the database does not hold."""


async def remove(engine: AsyncEngine, table_id: str, ns: Sequence[int], at_ms: int) -> int:
    """Remove the lines ``ns`` of ``table_id``; how many were not removed before.
    Every line must exist, else nothing changes (:class:`NoSuchLines`)."""
    wanted = set(ns)
    async with engine.begin() as conn:
        found = set(
            (
                await conn.scalars(
                    select(chat.c.n).where(chat.c.table_id == table_id, chat.c.n.in_(wanted))
                )
            ).all()
        )
        missing = sorted(wanted - found)
        if missing:
            raise NoSuchLines(
                f"table {table_id} has no chat line {', '.join(map(str, missing))}"
                " (see cardtable admin chat list --every --table)"
            )
        done = await conn.execute(
            update(chat)
            .where(chat.c.table_id == table_id, chat.c.n.in_(wanted), chat.c.removed_ms.is_(None))
            .values(removed_ms=at_ms)
        )
    return done.rowcount


async def remove_by(engine: AsyncEngine, name: str, at_ms: int) -> int:
    """Remove every line said under ``name`` (a seat's name or a signed-in
    spectator's account); how many were not removed before."""
    async with engine.begin() as conn:
        done = await conn.execute(
            update(chat)
            .where(chat.c.name == name, chat.c.removed_ms.is_(None))
            .values(removed_ms=at_ms)
        )
    return done.rowcount


def withdraw(table: Table, ns: Iterable[int]) -> list[int]:
    """Take the words out of the kept lines ``ns`` of ``table`` and tell each
    client that read them; the numbers of the lines that were still shown."""
    wanted = set(ns)
    gone: list[tuple[int, str]] = []
    for i, line in enumerate(table.chat):
        if line.n in wanted and not line.removed:
            table.chat[i] = line.without_words()
            gone.append((line.n, line.channel))
    for client in list(table.clients):
        seen = [n for n, channel in gone if may_read(client.seat, channel)]
        if seen:
            client.send(chat_removed_message(seen))
    return [n for n, _ in gone]


class RemovalWatch:
    """Brings the operator's removals to the tables this process holds."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._looks = Periodic(
            WATCH_SECONDS, self.check, "looking for removed chat lines", outage=unreachable
        )

    def start(self) -> None:
        self._looks.start()

    async def stop(self) -> None:
        await self._looks.stop()

    async def check(self) -> int:
        """Withdraw every removed line still shown at a held table; how many."""
        shown = {
            table.id: table
            for table in list(self.hub.tables.values())
            if any(not line.removed for line in table.chat)
        }
        ids = list(shown)
        withdrawn = 0
        for start in range(0, len(ids), _IDS_PER_QUERY):
            batch = ids[start : start + _IDS_PER_QUERY]
            query = select(chat.c.table_id, chat.c.n).where(
                chat.c.table_id.in_(batch), chat.c.removed_ms.is_not(None)
            )
            async with self.hub.storage.engine.connect() as conn:
                rows = (await conn.execute(query)).all()
            by_table: dict[str, list[int]] = {}
            for table_id, n in rows:
                by_table.setdefault(table_id, []).append(n)
            for table_id, ns in by_table.items():
                withdrawn += len(withdraw(shown[table_id], ns))
        return withdrawn
