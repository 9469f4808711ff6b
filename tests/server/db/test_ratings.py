"""Ratings of people: which tables are rated, how (exactly as openskill computes
it), exactly once, and how they are shown (profiles, My games, leaderboards)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import insert, select, text

import cardtable
from cardtable.bots.ratings import Skill, bot_skill, newcomer
from cardtable.core.game import State
from cardtable.server.db import storage as storage_module
from cardtable.server.db.ratings import rate_table
from cardtable.server.db.schema import rating_changes, ratings
from cardtable.server.db.storage import Storage
from cardtable.server.tables.facts import RatingChange
from cardtable.server.tables.outcomes import (
    PROVISIONAL_GAMES,
    Outcome,
    SeatOutcome,
    change_json,
    final_ranks,
    outcome_of,
)
from cardtable.server.tables.outcomes import shown as shown_rating
from tests.fixtures.plugin import NAME as PLUGIN
from tests.fixtures.plugin import registered
from tests.server.accounts_helpers import AccountServer, account_server
from tests.server.db.test_migration_v0004 import write_at
from tests.server.helpers import UNLIMITED, Conn, play_out, run_coroutine

pytestmark = pytest.mark.timeout(300, method="thread")

GAME = "marshmallow-test"


def openskill_ranks(scores: list[int], winners: list[int]) -> list[int]:
    """The finishing order written out again here: winners, then by score, ties shared."""
    keyed = [(seat in winners, score) for seat, score in enumerate(scores)]
    return [sorted(keyed, reverse=True).index(key) + 1 for key in keyed]


def expected(teams: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """What openskill's own ``rate`` gives, each seat a team of one."""
    model = PlackettLuce()
    rated = model.rate(
        [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in teams],
        ranks=[float(r) for r in ranks],
    )
    return [(team[0].mu, team[0].sigma) for team in rated]


def shown(mu: float, sigma: float) -> int:
    return round(1000 + 10 * (mu - 3 * sigma))


def stored(server: AccountServer) -> dict[str, Any]:
    """Every rating row by account name: (game, players, mu, sigma, games)."""

    async def read() -> dict[str, Any]:
        async with server.hub.storage.engine.connect() as conn:
            rows = await conn.execute(
                text(
                    "SELECT a.name, r.game, r.players, r.mu, r.sigma, r.games FROM ct_ratings r"
                    " JOIN ct_accounts a ON a.id = r.account_id"
                )
            )
            return {r[0]: tuple(r[1:]) for r in rows}

    found: dict[str, Any] = _on_loop(server, read())
    return found


def _on_loop(server: AccountServer, coroutine: Any) -> Any:
    """Await ``coroutine`` on the test client's loop, where the engine's connections live."""

    async def wait() -> Any:
        return await coroutine

    return server.client.portal.call(wait)  # type: ignore[union-attr]


def people(server: AccountServer, names: list[str]) -> list[AccountServer]:
    """A signed-in browser per name (the first is ``server`` itself)."""
    browsers = [server] + [server.browser() for _ in names[1:]]
    for browser, name in zip(browsers, names, strict=True):
        browser.sign_up(name)
    return browsers


def seated(
    browsers: list[AccountServer | None], seats: list[str], options: dict[str, Any] | None = None
) -> tuple[str, dict[int, str]]:
    """A table with these seats; each browser (``None``: a guest) joins its human seat."""
    host = next(b for b in browsers if b is not None)
    table = host.create(GAME, seats, options=options or {"target": 4, "players": len(seats)})
    tokens = {}
    for seat, browser in enumerate(browsers):
        if seats[seat] == "human":
            tokens[seat] = (browser or host.browser()).join(table, seat, f"guest {seat}")
    return table, tokens


def finish(server: AccountServer, table: str, tokens: dict[int, str], seed: int) -> Any:
    """Play the table out with random moves for every person; the last state message."""
    conns: dict[int, Conn] = {}
    managers = []
    for seat, token in tokens.items():
        manager = server.connect(table, token)
        managers.append(manager)
        conns[seat] = manager.__enter__()
    try:
        first = next(iter(conns.values()))
        return play_out(first, conns, random.Random(seed))
    finally:
        for manager in reversed(managers):
            manager.__exit__(None, None, None)


def ann_and_bea_play(
    server: AccountServer, seed: int
) -> tuple[AccountServer, AccountServer, str, Any]:
    """Ann and Bea sign up and play a two-seat table out: their browsers, the
    table and its last state message."""
    ann, bea = people(server, ["Ann", "Bea"])
    table, tokens = seated([ann, bea], ["human", "human"])
    return ann, bea, table, finish(server, table, tokens, seed)


def final_state(server: AccountServer, table: str) -> State:
    replayed = cardtable.replay(server.record(table)).state
    assert replayed is not None
    return replayed


def final_ranks_of(server: AccountServer, table: str) -> list[int]:
    replayed = final_state(server, table)
    return openskill_ranks(list(replayed.scores), list(replayed.winners))


def test_a_rated_game_updates_people_exactly_as_openskill_rates_it(any_db: str) -> None:
    with account_server(any_db, limits=UNLIMITED) as server:
        ann, bea = people(server, ["Ann", "Bea"])
        table, tokens = seated([ann, bea, None], ["human", "human", "easy"])
        final = finish(server, table, tokens, seed=1)
        ranks = final_ranks_of(server, table)
        bot = bot_skill(GAME, 3, "easy")
        new = PlackettLuce().rating()
        want = expected([(new.mu, new.sigma), (new.mu, new.sigma), (bot.mu, bot.sigma)], ranks)
        rows = stored(server)
        assert set(rows) == {"Ann", "Bea"}  # the bot is not stored, nor changed
        for name, seat in (("Ann", 0), ("Bea", 1)):
            game, players, mu, sigma, games = rows[name]
            assert (game, players, games) == (GAME, 3, 1)
            assert mu == pytest.approx(want[seat][0], abs=1e-9)
            assert sigma == pytest.approx(want[seat][1], abs=1e-9)
        assert bot_skill(GAME, 3, "easy") == bot
        # The end of the game says what it did to each rated seat.
        by_seat = {c["seat"]: c for c in final["ratings"]}
        assert set(by_seat) == {0, 1}
        for seat in (0, 1):
            change = by_seat[seat]
            assert change["before"] == shown(new.mu, new.sigma) == 1000
            assert change["after"] == shown(*want[seat])
            assert change["change"] == change["after"] - change["before"]
            assert change["rank"] == ranks[seat] and change["provisional"]
        # My games and the profile show the same numbers.
        mine = ann.client.get("/api/me/games").json()["finished"][0]
        assert mine["id"] == table and mine["rating"] == by_seat[0]
        profile = server.browser().client.get("/api/players/bea").json()
        (entry,) = profile["games"]
        assert entry["ratings"] == [
            {"players": 3, "rating": shown(*want[1]), "provisional": True, "games": 1}
        ]
        assert entry["leaderboard"] == f"/leaderboard/{GAME}?players=3"
        assert profile["recent"][0]["rating"] == by_seat[1]


def test_the_next_game_starts_from_the_stored_rating(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        ann, bea, _, _ = ann_and_bea_play(server, seed=2)
        after_one = stored(server)
        second, tokens = seated([bea, ann], ["human", "human"])  # seats swapped
        finish(server, second, tokens, seed=3)
        ranks = final_ranks_of(server, second)
        teams = [after_one["Bea"][2:4], after_one["Ann"][2:4]]
        want = expected(teams, ranks)
        rows = stored(server)
        assert rows["Bea"][2:] == pytest.approx((*want[0], 2))
        assert rows["Ann"][2:] == pytest.approx((*want[1], 2))


def test_tables_without_two_accounts_or_not_played_out_are_not_rated(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        (ann,) = people(server, ["Ann"])
        alone, tokens = seated([ann, None], ["human", "human"])  # a guest opposite
        final = finish(server, alone, tokens, seed=4)
        assert final["finished"] and final["ratings"] == []
        bots, tokens = seated([ann, None], ["human", "easy"])
        assert finish(server, bots, tokens, seed=5)["ratings"] == []
        bea = server.browser()
        bea.sign_up("Bea")
        unfinished, tokens = seated([ann, bea], ["human", "human"])
        with server.connect(unfinished, tokens[0]) as me:
            me.until_state(lambda m: m["status"] == "playing")
        assert stored(server) == {}
        games = ann.client.get("/api/me/games").json()["finished"]
        assert [g["rating"] for g in games] == [None, None]


def test_a_player_who_leaves_and_lets_a_stand_in_finish_is_rated_last(db_url: str) -> None:
    rng = random.Random(6)
    with account_server(db_url, limits=UNLIMITED, grace_seconds=0.05) as server:
        ann, bea = people(server, ["Ann", "Bea"])
        table, tokens = seated([ann, bea], ["human", "human"], {"target": 20, "players": 2})
        with server.connect(table, tokens[0]) as me:
            with server.connect(table, tokens[1]) as leaver:
                leaver.until_state(lambda m: m["status"] == "playing")
            me.until_state(lambda m: m["seats"][1]["bot_playing"])
            final = play_out(me, {0: me}, rng)
        new = PlackettLuce().rating()
        want = expected([(new.mu, new.sigma)] * 2, [1, 2])  # whatever the scores said
        rows = stored(server)
        assert rows["Ann"][2:4] == pytest.approx(want[0])
        assert rows["Bea"][2:4] == pytest.approx(want[1])
        assert {c["seat"]: c["rank"] for c in final["ratings"]} == {0: 1, 1: 2}


def test_a_table_is_rated_once_and_a_restart_keeps_it(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        _, _, table, final = ann_and_bea_play(server, seed=7)
        before = stored(server)
    with account_server(db_url, limits=UNLIMITED) as server:
        assert stored(server) == before  # nothing rated again at start
        with server.connect(table) as watcher:  # the finished table, read back from disk
            assert watcher.state is not None and watcher.state["ratings"] == final["ratings"]
        # Rating the same table again is refused by the database: one row per table and account.
        outcome = outcome_of(_on_loop(server, server.hub.get(table)), final_state(server, table), 0)

        async def again() -> None:
            async with server.hub.storage.engine.begin() as conn:
                await rate_table(conn, outcome)

        with pytest.raises(Exception, match=r"(?i)unique|constraint"):
            _on_loop(server, again())
        assert stored(server) == before


def test_a_failed_rating_keeps_the_last_move_unstored_until_both_can_be(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last move and its rating are one transaction: never a finished table unrated."""
    with account_server(db_url, limits=UNLIMITED) as server:
        ann, bea = people(server, ["Ann", "Bea"])
        table, tokens = seated([ann, bea], ["human", "human"])
        failures: list[str] = []

        async def broken(conn: Any, outcome: Any) -> list[RatingChange]:
            failures.append(outcome.table_id)
            raise RuntimeError("the ratings table is unwell")

        real = rate_table
        monkeypatch.setattr(storage_module, "rate_table", broken)
        with server.connect(table, tokens[0]) as a, server.connect(table, tokens[1]) as b:
            conns = {0: a, 1: b}
            rng = random.Random(8)
            played = -1
            while not failures:
                state = a.until_state(lambda m, d=played: m["to_move"] is not None and m["seq"] > d)
                mover = conns[state["to_move"]]
                now = mover.until_state(lambda m, q=state["seq"]: m["seq"] == q)
                chosen = rng.choice(now["legal"])
                mover.move(chosen)
                answer = mover.until(lambda m: m["type"] in ("ack", "error"))
                played = state["seq"]
            assert answer["type"] == "error" and "could not store" in answer["message"]
            assert server.table(table).status == "playing"  # the last move is not the table's
            monkeypatch.setattr(storage_module, "rate_table", real)
            mover.move(chosen, seq=played)  # the same last move again: now it is stored
            assert mover.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            done = a.until_state(lambda m: m["finished"])
        assert {c["seat"] for c in done["ratings"]} == {0, 1}
        assert {name: row[4] for name, row in stored(server).items()} == {"Ann": 1, "Bea": 1}


def _rows(server: AccountServer, board: list[tuple[str, float, float, int]]) -> None:
    """Ratings written straight into the database: (name, mu, sigma, games)."""
    ids = {}
    for name, *_ in board:
        browser = server.browser()
        browser.sign_up(name)
        found = _on_loop(server, server.accounts.find(name))
        ids[name] = found[0].id

    async def write() -> None:
        async with server.hub.storage.engine.begin() as conn:
            for name, mu, sigma, games in board:
                await conn.execute(
                    insert(ratings).values(
                        account_id=ids[name],
                        game=GAME,
                        players=2,
                        mu=mu,
                        sigma=sigma,
                        games=games,
                        ordinal=mu - 3 * sigma,
                        updated_ms=0,
                    )
                )

    _on_loop(server, write())


def test_the_leaderboard_lists_established_players_best_first_a_page_at_a_time(
    db_url: str,
) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        _rows(
            server,
            [
                ("Low", 20.0, 2.0, 30),  # ordinal 14
                ("High", 40.0, 3.0, 12),  # 31
                ("Sure", 32.0, 1.0, 50),  # 29
                ("New", 45.0, 4.0, 9),  # best mu, still provisional: not listed
                ("Mid", 30.0, 2.0, 10),  # 24: just established
            ],
        )
        page = server.client.get(f"/api/leaderboard?game={GAME}&players=2&limit=2").json()
        assert [e["name"] for e in page["entries"]] == ["High", "Sure"]
        assert [e["rank"] for e in page["entries"]] == [1, 2]
        assert page["entries"][0] == {
            "rank": 1,
            "name": "High",
            "rating": 1310,
            "provisional": False,
            "games": 12,
        }
        assert page["total"] == 4 and page["players"] == 2 and page["next"] == "2"
        rest = server.client.get(
            f"/api/leaderboard?game={GAME}&players=2&limit=2&cursor={page['next']}"
        ).json()
        assert [(e["rank"], e["name"]) for e in rest["entries"]] == [(3, "Mid"), (4, "Low")]
        assert rest["next"] is None
        other = server.client.get(f"/api/leaderboard?game={GAME}&players=3").json()
        assert other["entries"] == [] and other["total"] == 0
        # Asked for no count, the board opens where people are established (2
        # players here), not on the game's default of 4.
        assert server.client.get(f"/api/leaderboard?game={GAME}").json()["players"] == 2
        profile = server.client.get("/api/players/New").json()
        assert profile["games"] == []  # no finished game played here: the rating rows alone
        assert server.client.get("/leaderboard/" + GAME).status_code == 200


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("players=2", "game must be one of"),
        ("game=chess", "game must be one of"),
        (f"game={GAME}&players=9", "players must be one of 2, 3, 4, 5"),
        (f"game={GAME}&cursor=-1", "cursor must be the 'next' value"),
        (f"game={GAME}&limit=51", "limit must be a whole number from 1 to 50"),
        (f"game={GAME}&rated=1", "there is no parameter 'rated'"),
    ],
)
def test_a_bad_leaderboard_request_is_one_sentence(db_url: str, query: str, error: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        answer = server.client.get("/api/leaderboard?" + query)
        assert answer.status_code == 400 and error in answer.json()["error"]


def test_rating_for_gives_the_stored_rating_or_a_newcomers(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        _rows(server, [("Ann", 31.5, 2.5, 12)])
        ann = _on_loop(server, server.accounts.find("Ann"))[0]
        lookup = server.client.app.state.ratings.rating_for  # type: ignore[attr-defined]
        assert _on_loop(server, lookup(ann.id, GAME, 2)) == (31.5, 2.5)
        fresh = PlackettLuce().rating()
        assert _on_loop(server, lookup(ann.id, GAME, 3)) == (fresh.mu, fresh.sigma)


def test_quick_match_pairs_on_the_shown_rating(db_url: str) -> None:
    # Quick match's ranges are in shown points: 1000 + 10 × (mu − 3σ).
    with account_server(db_url, limits=UNLIMITED) as server:
        _rows(server, [("Ann", 31.5, 2.5, 12)])
        ann = _on_loop(server, server.accounts.find("Ann"))[0]
        app_state = server.client.app.state  # type: ignore[attr-defined]
        assert app_state.quick.rating == app_state.ratings.shown_rating
        lookup = app_state.ratings.shown_rating
        assert _on_loop(server, lookup(ann.id, GAME, 2)) == round(1000 + 10 * (31.5 - 7.5))
        assert _on_loop(server, lookup(None, GAME, 2)) == 1000


async def _v0004_database_then_open(url: str) -> tuple[list[str], int, int]:
    await write_at(
        url,
        "v0004",
        "INSERT INTO ct_tables (id, game, options, private, turn_seconds, bot_delay_ms,"
        " stand_in, status, created_ms, creator, abandoned_ms) VALUES ('old1',"
        " 'marshmallow-test', '{\"players\": 2}', false, NULL, 0, 'random', 'finished',"
        " 5, '10.0.0.1', NULL)",
        "INSERT INTO ct_accounts (id, name, name_key, password_hash, created_ms)"
        " VALUES ('acc1', 'Ann', 'ann', 'x', 1)",
    )
    new = Storage(url)
    await new.open()  # migrates to the head
    try:
        async with new.engine.connect() as conn:
            tables = [r[0] for r in await conn.execute(text("SELECT id FROM ct_tables"))]
            accounts = (await conn.execute(text("SELECT count(*) FROM ct_accounts"))).scalar()
            rated = (await conn.execute(select(rating_changes))).all()
            await conn.execute(select(ratings))
        return tables, int(accounts or 0), len(rated)
    finally:
        await new.close()


def test_a_v0004_database_upgrades_to_ratings_without_losing_a_row(any_db: str) -> None:
    tables, accounts, rated = run_coroutine(_v0004_database_then_open(any_db))
    assert tables == ["old1"] and accounts == 1
    assert rated == 0  # games of before are not rated after the fact


def test_deleting_an_account_takes_its_ratings_and_leaves_the_others(db_url: str) -> None:
    with account_server(db_url, limits=UNLIMITED) as server:
        _, bea, _, _ = ann_and_bea_play(server, seed=9)
        before = stored(server)
        bea.post("/api/account/delete", {"password": "correct horse"})
        assert stored(server) == {"Ann": before["Ann"]}

        async def changes() -> list[str]:
            async with server.hub.storage.engine.connect() as conn:
                rows = await conn.execute(select(rating_changes.c.seat))
                return [str(r.seat) for r in rows]

        assert _on_loop(server, changes()) == ["0"]  # Ann's change at that table stays


def test_bots_play_at_their_published_rating_else_a_newcomers() -> None:
    published = json.loads(
        (Path(cardtable.__file__).parent / "games/marshmallow_test/bot_ratings.json").read_text()
    )["ratings"]["2"]["medium"]
    assert bot_skill(GAME, 2, "medium") == Skill(published["mu"], published["sigma"])
    assert bot_skill(GAME, 4, "medium") == bot_skill(GAME, 2, "medium")  # 2 players' figure
    assert bot_skill(GAME, 2, "openspiel-ismcts") == newcomer()  # a bot never measured
    with registered():
        assert bot_skill(PLUGIN, 2, "random") == newcomer()  # a game that ships none


def test_final_ranks_put_every_seat_a_stand_in_finished_last_and_tie_them() -> None:
    def outcome(scores: tuple[int, ...], winners: tuple[int, ...], left: str) -> Outcome:
        seats = tuple(SeatOutcome("human", None, flag == "L") for flag in left)
        return Outcome("t", GAME, scores, winners, seats, 0)

    assert final_ranks(outcome((9, 3, 3, 1), (0,), "....")) == [1, 2, 2, 4]
    assert final_ranks(outcome((9, 3, 5, 1), (0,), "L..L")) == [3, 2, 1, 3]  # winner left: last
    assert final_ranks(outcome((2, 2), (0, 1), "LL")) == [1, 1]  # all left: level


def test_a_rating_is_provisional_until_its_tenth_rated_game_and_no_longer() -> None:
    """docs/server.md, Ratings: fewer than PROVISIONAL_GAMES rated games of a game and
    player count is provisional (a "?"), that many is established, in the rating the
    API shows and in a table's change alike."""
    skill = newcomer()
    assert shown_rating(skill, PROVISIONAL_GAMES - 1)["provisional"] is True
    assert shown_rating(skill, PROVISIONAL_GAMES)["provisional"] is False

    def change(games_after: int) -> RatingChange:
        return RatingChange(
            0, "a", 1, skill.mu, skill.sigma, skill.mu + 1, skill.sigma, games_after
        )

    assert change_json(change(PROVISIONAL_GAMES - 1))["provisional"] is True
    assert change_json(change(PROVISIONAL_GAMES))["provisional"] is False
