"""One rematch across ``cardtable serve`` processes: the players of a finished
table ask for its rematch at the same moment, each at another process (as
after a failover, when their requests may land anywhere), and every answer
names one table, the only one the database holds as its rematch."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import create_async_engine

from cardtable.server.db.schema import tables
from tests.server.cluster import test_cluster as clusters
from tests.server.cluster.test_cluster import AGAINST_A_BOT, Cluster
from tests.server.helpers import run_coroutine
from tests.server.processes import post

pytestmark = clusters.pytestmark


@pytest.fixture
def cluster(postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    with clusters.running_cluster(postgres_url, redis_url) as running:
        yield running


async def _rematches_of(url: str, table: str) -> int:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            query = select(func.count()).where(tables.c.rematch_of == table)
            return int(await conn.scalar(query) or 0)
    finally:
        await engine.dispose()


def test_rematch_requests_at_every_process_at_once_make_one_table(cluster: Cluster) -> None:
    table = clusters._new_table(cluster.proxy, "marshmallow-test", AGAINST_A_BOT)
    token = clusters._join(cluster.proxy, table, 0, "Ann")
    with clusters._socket(cluster.proxy, table, token) as ann:
        assert clusters._play_out({0: ann}, random.Random(27))["finished"]
    start = threading.Barrier(len(cluster.ports))

    def ask(port: int) -> str:
        start.wait()
        made: str = post(port, f"/api/tables/{table}/rematch", {"token": token})["id"]
        return made

    with ThreadPoolExecutor(max_workers=len(cluster.ports)) as pool:
        answers = set(pool.map(ask, cluster.ports))
    assert len(answers) == 1
    assert run_coroutine(_rematches_of(cluster.db, table)) == 1
