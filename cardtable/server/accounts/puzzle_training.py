"""Puzzle ratings of signed-in people, kept by the server.

A signed-in person's Glicko-2 state per game lives in ``ct_puzzle_players``
and the puzzles they tried in ``ct_puzzle_attempts``
(:mod:`cardtable.server.db.schema`). The server rates every try itself,
from the move it judged against the puzzle's solution; no rating a browser
sends is believed. A puzzle counts once per account: a second try is
judged and answered but changes nothing, so a solution seen once cannot be
cashed in again.

A guest's tries are rated in their browser as before; the server gives each
judged try a *receipt*, an HMAC of the game, the puzzle and the move under
the server's secret. On sign-in the browser hands its receipts in
(:meth:`PuzzleRatings.claim`) and the server replays the tries they prove,
in order, into the account: the rating it then holds is the server's own
sum of tries it judged, never the browser's number.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from cardtable.learn.glicko import Rating
from cardtable.learn.puzzles import Puzzle
from cardtable.learn.trainer import Outcome, rate
from cardtable.server.accounts.accounts import Account
from cardtable.server.clock import now_ms
from cardtable.server.db.schema import puzzle_attempts, puzzle_players

__all__ = ["GuestTry", "PuzzleRatings", "Standing"]


@dataclass(frozen=True, slots=True)
class Standing:
    """A person's puzzle training in one game."""

    rating: Rating
    tries: int
    solved: int
    tried: tuple[str, ...]  # puzzle ids, first try first


@dataclass(frozen=True, slots=True)
class GuestTry:
    """A try made as a guest: the puzzle, the move (index into its legal moves), the receipt."""

    puzzle_id: str
    played: int
    receipt: str


class PuzzleRatings:
    """The store: ``secret`` (the server's) keys the receipts, ``clock`` gives milliseconds."""

    def __init__(
        self, engine: AsyncEngine, secret: bytes, clock: Callable[[], int] = now_ms
    ) -> None:
        self.engine = engine
        # A key of its own, so that no receipt is ever an HMAC the sessions use.
        self.key = hmac.new(secret, b"cardtable puzzle receipts", hashlib.sha256).digest()
        self.clock = clock

    def receipt(self, game: str, puzzle_id: str, played: int) -> str:
        """Proof that this server judged ``played`` in ``puzzle_id`` (96 bits of HMAC)."""
        text = f"cardtable-puzzle-try|{game}|{puzzle_id}|{played}".encode()
        digest = hmac.new(self.key, text, hashlib.sha256).digest()[:12]
        return base64.urlsafe_b64encode(digest).decode()

    def proves(self, game: str, attempt: GuestTry) -> bool:
        return hmac.compare_digest(
            self.receipt(game, attempt.puzzle_id, attempt.played), attempt.receipt
        )

    async def standing(self, account: Account, game: str) -> Standing:
        async with self.engine.connect() as conn:
            row = await _player_row(conn, account, game)
            tried = await conn.execute(
                select(puzzle_attempts.c.puzzle_id)
                .where(puzzle_attempts.c.account_id == account.id, puzzle_attempts.c.game == game)
                .order_by(puzzle_attempts.c.seq)
            )
            ids = tuple(r.puzzle_id for r in tried)
        if row is None:
            return Standing(Rating(), 0, 0, ids)
        return Standing(
            Rating(row.rating, row.deviation, row.volatility), row.tries, row.solved, ids
        )

    async def record(
        self, account: Account, game: str, puzzle: Puzzle, played: int
    ) -> Outcome | None:
        """Rate the account's try of ``puzzle`` (``played`` judged against its
        solution), or ``None`` when the account tried this puzzle before."""
        solved = played in puzzle.solution
        # A second try: a first try of another puzzle may have made the
        # player's row meanwhile; a try of this one makes this one count as seen.
        for _ in range(2):
            try:
                async with self.engine.begin() as conn:
                    return await self._record(conn, account, game, puzzle, played, solved)
            except IntegrityError:
                continue
        return None

    async def _record(
        self,
        conn: AsyncConnection,
        account: Account,
        game: str,
        puzzle: Puzzle,
        played: int,
        solved: bool,
    ) -> Outcome | None:
        before = await conn.execute(
            select(puzzle_attempts.c.seq).where(
                puzzle_attempts.c.account_id == account.id,
                puzzle_attempts.c.game == game,
                puzzle_attempts.c.puzzle_id == puzzle.id,
            )
        )
        if before.first() is not None:
            return None
        now = self.clock()
        row = await _player_row(conn, account, game, lock=True)
        if row is None:
            player, tries, wins = Rating(), 0, 0
            await conn.execute(
                insert(puzzle_players).values(
                    account_id=account.id,
                    game=game,
                    **_columns(player),
                    tries=0,
                    solved=0,
                    updated_ms=now,
                )
            )
        else:
            player, tries, wins = (
                Rating(row.rating, row.deviation, row.volatility),
                row.tries,
                row.solved,
            )
        outcome = rate(player, Rating(puzzle.rating, puzzle.deviation), solved)
        await conn.execute(
            insert(puzzle_attempts).values(
                account_id=account.id,
                game=game,
                puzzle_id=puzzle.id,
                seq=tries,
                played=played,
                solved=solved,
                rating_before=player.rating,
                rating_after=outcome.player_after.rating,
                puzzle_rating=puzzle.rating,
                created_ms=now,
            )
        )
        await conn.execute(
            update(puzzle_players)
            .where(puzzle_players.c.account_id == account.id, puzzle_players.c.game == game)
            .values(
                **_columns(outcome.player_after),
                tries=tries + 1,
                solved=wins + solved,
                updated_ms=now,
            )
        )
        return outcome

    async def claim(
        self,
        account: Account,
        game: str,
        tries: Sequence[GuestTry],
        puzzle_of: Callable[[str], Puzzle | None],
    ) -> int:
        """Replay the guest tries whose receipts this server signed, in order,
        into the account (a puzzle it tried already is skipped). How many counted."""
        counted = 0
        for attempt in tries:
            puzzle = puzzle_of(attempt.puzzle_id)
            if puzzle is None or not 0 <= attempt.played < len(puzzle.legal):
                continue  # a puzzle no longer shipped, or a move it never had
            if not self.proves(game, attempt):
                continue
            if await self.record(account, game, puzzle, attempt.played) is not None:
                counted += 1
        return counted


async def _player_row(
    conn: AsyncConnection, account: Account, game: str, *, lock: bool = False
) -> Row[Any] | None:
    query = select(puzzle_players).where(
        puzzle_players.c.account_id == account.id, puzzle_players.c.game == game
    )
    # PostgreSQL holds the row until the try is stored (SQLite writes one at a time anyway).
    result = await conn.execute(query.with_for_update() if lock else query)
    return result.first()


def _columns(rating: Rating) -> dict[str, float]:
    return {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility}
