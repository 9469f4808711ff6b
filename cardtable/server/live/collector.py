"""Keep CPython's cycle collector from pausing the event loop for long.

Every acknowledgement waits while the collector runs, because it runs on the
event loop's thread. A full collection walks every tracked object, and a
started server holds well over a hundred thousand of them that live as long
as the process does: the modules, classes and functions of Starlette,
SQLAlchemy, the games and the bots. Measured under 200 tables at a human pace
(docs/server.md, "Where the tail came from"), full collections paused the
loop for 190-370 ms each, a few times a minute, and made the whole p99.

The remedy is the one CPython documents for long-lived servers (``gc.freeze``)
and the one large Python services use: once the server has imported what it
needs and opened its database, before it loads any table, collect once and
move every object alive then into the permanent generation, which no
collection walks again; and collect the young generation less often, so
fewer objects survive into the old ones and full collections come rarely.
Reference counting still frees every object that dies; only garbage in
reference cycles waits longer, bounded by the thresholds below. Freezing
before the tables load keeps their objects collectable: a frozen object in a
cycle that becomes garbage is never freed.
"""

from __future__ import annotations

import gc

__all__ = ["SERVER_THRESHOLDS", "settle_heap"]

#: ``gc.set_threshold`` for a started server: a young collection every
#: 10,000 net allocations (CPython's default, 700, is made for short
#: scripts), a middle one every 100 young ones, a full one every 20 middle
#: ones (and then only when the old generation grew by a quarter, CPython's
#: own rule). The runs that chose them are in docs/server.md.
SERVER_THRESHOLDS = (10_000, 100, 20)


def settle_heap() -> int:
    """Freeze what the started server holds and space collections out; the
    number of objects frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_THRESHOLDS)
    return gc.get_freeze_count()
