"""A running table: clients' messages, moves stored before they are
acknowledged, bots, turn timers and stand-ins.

After anything changes at a table, :meth:`Play.review` decides what happens
next: a bot (or a stand-in for an absent or timed-out player) starts
thinking, or the person to move gets a turn timer. A table with human seats
moves only while at least one of its people is connected.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import logging
import random
import secrets
from collections.abc import Callable, Coroutine
from typing import Any

from cardtable.core.game import Move
from cardtable.server.clock import now_ms
from cardtable.server.db.storage import LeaseLost, unreachable
from cardtable.server.live.bots import BotJob
from cardtable.server.live.hub import Hub
from cardtable.server.live.moderation import add_report
from cardtable.server.requests import (
    UNSET,
    BackMessage,
    ChatMessage,
    ClientMessage,
    MoveMessage,
    ReportMessage,
    TakebackAnswerMessage,
    TakebackMessage,
)
from cardtable.server.tables.chat import (
    ChatLine,
    channel_of,
    checked_phrase,
    checked_text,
    may_read,
    reporter_key,
)
from cardtable.server.tables.journal import DROP, END, STAND_IN, Event, deadline_event
from cardtable.server.tables.messages import (
    chat_message,
    dumps,
    error,
    reported_message,
    state_message,
)
from cardtable.server.tables.outcomes import Outcome, outcome_of
from cardtable.server.tables.table import (
    DROPPED,
    Client,
    Overdue,
    Refused,
    Table,
    TakebackRequest,
    Timer,
)
from cardtable.server.tables.takeback import (
    adopt_takeback,
    answer_seconds,
    takeback_event,
    undone_state,
)
from cardtable.server.wire import BadInput, convert, parse_json

log = logging.getLogger(__name__)

MAX_MESSAGE = 4096  # bytes of one client message
RECONNECT = 1012  # the close code that sends a browser to reconnect (to the table's new process)
PONG = dumps({"type": "pong"})
STORE_RETRY_MS = 2000  # how soon a page sends a move again that the database was away for


class Play:
    """What happens at the hub's tables while they run."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._tasks: set[asyncio.Task[None]] = set()
        self._commits: set[asyncio.Task[None]] = set()  # moves being stored and adopted
        # Told of every change, and of each lobby sweep's look at a turn-based
        # table: the e-mail notices (cardtable/server/accounts/notices.py).
        self.watch: Callable[[Table], None] = lambda table: None

    def start(self, tables: list[Table]) -> None:
        for table in tables:
            self.review(table)

    async def stop(self) -> None:
        """Cancel bots, timers and reviews; let every move being stored finish
        (a graceful stop loses no move that is on its way to the database)."""
        for task in list(self._tasks - self._commits):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # --- clients ---------------------------------------------------------------
    def connect(self, table: Table, client: Client) -> None:
        table.clients.add(client)
        if client.seat is not None:
            seat = table.seats[client.seat]
            seat.connections += 1
            was_gone, seat.left_at, seat.gone_told = seat.gone_told, None, False
            if seat.stand_in not in (None, DROPPED):  # coming back ends the stand-in
                self._take_back(table, client.seat)
            elif was_gone and seat.connections == 1:  # a reload: "left", so now "is back"
                table.note("back", client.seat)
        self.changed(table)
        # After the state (a client counts an error before its first state as a
        # refused token): the chat so far, of the channels this client reads.
        # (A line said under a name the client's account blocked is not sent.)
        history = [line for line in table.chat if client.hears(line)]
        if history:
            client.send(chat_message(history, history=True))

    def disconnect(self, table: Table, client: Client) -> None:
        table.clients.discard(client)
        if client.seat is not None:
            seat = table.seats[client.seat]
            seat.connections -= 1
            # On a turn-based table people come and go: nobody is missed.
            if seat.connections == 0 and table.status == "playing" and not table.facts.turn_based:
                seat.left_at = asyncio.get_running_loop().time()
                seat.gone_told = True
                table.note("left", client.seat)
                self._spawn(self._review_later(table, self.hub.settings.grace_seconds + 0.05))
        self.changed(table)
        self.hub.forget_if_idle(table)

    async def handle(self, table: Table, client: Client, text: str) -> None:
        """One message from ``client``; a fault goes back to that client only."""
        try:
            value = parse_json(text, MAX_MESSAGE, "message")
            msg: ClientMessage = convert(value, ClientMessage, "message")
            if isinstance(msg, MoveMessage):
                await self._human_move(table, client, msg.seq, msg.move)
            elif isinstance(msg, BackMessage):
                self._back(table, client)
            elif isinstance(msg, ChatMessage):
                try:
                    await self._uncancelled(self._chat(table, client, msg))
                except BadInput as exc:
                    client.send(error(str(exc), about="chat"))
            elif isinstance(msg, ReportMessage):
                try:
                    await self._uncancelled(self._report(table, client, msg.n))
                except BadInput as exc:
                    client.send(error(str(exc), about="chat"))
            elif isinstance(msg, TakebackMessage):
                await self._uncancelled(self._ask_takeback(table, client))
            elif isinstance(msg, TakebackAnswerMessage):
                await self._uncancelled(self._answer_takeback(table, client, msg.accept))
            else:
                client.send(PONG)
        except Refused as exc:
            client.send(error(str(exc), exc.rule, exc.key, exc.params, retry_ms=exc.retry_ms))
        except BadInput as exc:
            client.send(error(str(exc)))

    def _back(self, table: Table, client: Client) -> None:
        if client.seat is None:
            raise BadInput("spectators have no seat to take back")
        if table.seats[client.seat].stand_in is None:
            raise BadInput("your seat is yours already: no bot is playing it")
        if table.seats[client.seat].stand_in == DROPPED:
            raise Refused(
                "your move time ran out: a bot plays this seat to the end", key="turn.dropped"
            )
        self._take_back(table, client.seat)
        self.changed(table)

    async def _chat(self, table: Table, client: Client, msg: ChatMessage) -> None:
        """Check, count, store and only then pass on one chat line."""
        if (msg.text is UNSET) == (msg.phrase is UNSET):
            raise BadInput("message: send either text or phrase (a quick phrase's key)")
        text = None if msg.text is UNSET else checked_text(msg.text)
        phrase = None if msg.phrase is UNSET else checked_phrase(msg.phrase)
        seat = client.seat
        await self.hub.gate.may_chat(client.address, f"{client.address} {table.id} {seat}")
        name = client.account if seat is None else table.seats[seat].facts.name
        line = ChatLine(
            table.chat_next, channel_of(seat), seat, name, text, phrase, table.seq, now_ms()
        )
        table.chat_next += 1  # taken before the write: lines said meanwhile get the next numbers
        try:
            await self.hub.storage.add_chat(table.id, line)
        except Exception:
            log.exception("table %s: storing a chat line failed", table.id)
            raise BadInput("the server could not store this chat line; try again") from None
        # Two lines stored at once may finish in either order: the history a
        # socket gets on (re)connecting keeps the order of their numbers.
        bisect.insort(table.chat, line, key=lambda kept: kept.n)
        text_out = chat_message([line])
        for other in list(table.clients):
            if other.hears(line):  # its channel, and the speaker not blocked by the reader
                other.send(text_out)

    async def _report(self, table: Table, client: Client, n: int) -> None:
        """Store a report of line ``n``: one this client reads and did not say.
        It counts as a chat line (the same limits stop a flood of reports)."""
        line = next((line for line in table.chat if line.n == n), None)
        if line is None or not may_read(client.seat, line.channel):
            raise BadInput(f"message.n: this table shows you no chat line {n}")
        if _said_by(line, client):
            raise BadInput("message.n: that line is your own")
        if line.removed:
            raise BadInput(f"message.n: chat line {n} was removed already")
        await self.hub.gate.may_chat(client.address, f"{client.address} {table.id} {client.seat}")
        reporter = reporter_key(client.seat, client.account, client.address)
        try:
            await add_report(
                self.hub.storage.engine, table.id, n, reporter, client.address, now_ms()
            )
        except Exception:
            log.exception("table %s: storing a chat report failed", table.id)
            raise BadInput("the server could not store this report; try again") from None
        client.send(reported_message(n))

    def _take_back(self, table: Table, seat: int) -> None:
        table.seats[seat].stand_in = None
        if table.overdue is not None and table.overdue.seat == seat:
            table.overdue = None  # they make the move that ran out themselves
        table.note("back", seat)
        if table.timer is not None and table.timer.seat == seat:
            self._stop_timer(table)  # a fresh turn for the player who came back

    # --- moves -----------------------------------------------------------------
    async def _human_move(
        self, table: Table, client: Client, seq: int, move: dict[str, Any]
    ) -> None:
        await self._uncancelled(self._human_commit(table, client, seq, move))

    async def _human_commit(
        self, table: Table, client: Client, seq: int, move: dict[str, Any]
    ) -> None:
        async with table.lock:
            parsed = table.check_move(client.seat, seq, move)
            assert client.seat is not None
            if table.seats[client.seat].stand_in == DROPPED:
                raise Refused(
                    "your move time ran out: a bot plays this seat to the end", key="turn.dropped"
                )
            if table.seats[client.seat].stand_in is not None:
                self._take_back(table, client.seat)
            await self._commit(table, client.seat, parsed)
            client.send(dumps({"type": "ack", "seq": table.seq}))
        self.changed(table)

    async def _commit(
        self, table: Table, seat: int, move: Move, before: list[Event] | None = None
    ) -> None:
        """Store ``move`` (after the events ``before`` it: a deadline's) and
        only then make it the table's (call under the lock)."""
        after, new = table.prepare(seat, move)
        new = [*(before or []), *new]
        over = table.over(after)
        status = "finished" if over else None
        # The game's end is rated with its last move, in one transaction
        # (ratings.py); a tournament's deal is scored by its tournament.
        rated_end = after.finished and table.facts.tournament is None
        outcome = outcome_of(table, after, now_ms()) if rated_end else None
        started = self._turn_starts(table) if not over else None
        await self._store(table, new, status, outcome, started)
        table.adopt(after, new)
        if started is not None:
            table.facts.turn_started_ms = started
        if outcome is not None:
            table.facts.ratings = outcome.changes
            table.facts.rated = outcome.rated  # a table may end friendly (rating_rules.py)

    def _turn_starts(self, table: Table) -> int | None:
        """When the next turn begins (now, on the server's clock) on a
        turn-based table: stored with the move that begins it."""
        if not table.facts.turn_based:
            return None
        return int(self.hub.settings.limits.clock() * 1000)

    async def _store(
        self,
        table: Table,
        new: list[Event],
        status: str | None,
        outcome: Outcome | None,
        turn_started_ms: int | None = None,
    ) -> None:
        """Store ``new`` events of ``table``, or :class:`Refused` saying why not."""
        try:
            await self.hub.storage.append(
                table.id, table.journal.stored, new, status, outcome, turn_started_ms
            )
        except LeaseLost:
            self.let_go(table)
            raise Refused("this table moved to another server process; reconnecting") from None
        except Exception as exc:
            await self.hub.resync(table)  # whatever the database holds is the truth
            if not unreachable(exc):
                log.exception("table %s: storing a move failed", table.id)
                raise Refused("the server could not store this move; try again") from None
            # The database is away: the page sends the same move (same seq)
            # again until it is stored. Sent twice, the second is "stale".
            log.warning("table %s: a move waits for the database (%s)", table.id, exc)
            raise Refused(
                "the server cannot reach its database just now; your move will be sent again",
                retry_ms=STORE_RETRY_MS,
            ) from None

    # --- take-backs (tables/takeback.py) -------------------------------------------
    async def _ask_takeback(self, table: Table, client: Client) -> None:
        async with table.lock:
            seat = client.seat
            undone_state(table, seat, random.Random(secrets.randbits(64)))  # or Refused: why not
            assert seat is not None
            # Bots and stand-ins accept at once; the people must answer.
            waiting = {
                i
                for i, s in enumerate(table.seats)
                if i != seat and table.controller(i) is None and s.human
            }
            seconds = answer_seconds(table)
            asked = TakebackRequest(seat, table.seq, waiting, now_ms() + seconds * 1000)
            table.note("takeback.asked", seat)
            if waiting:
                table.takeback = asked
                asked.task = self._spawn(self._lapse(table, asked, seconds))
            else:
                await self._take_move_back(table, asked)
        self.changed(table)

    async def _answer_takeback(self, table: Table, client: Client, accept: bool) -> None:
        async with table.lock:
            asked = table.takeback
            if asked is None:
                raise Refused("no take-back is waiting for an answer", key="takeback.none")
            if client.seat is None or client.seat not in asked.waiting:
                raise Refused("this take-back is not yours to answer", key="takeback.notYours")
            if accept:
                asked.waiting.discard(client.seat)
                if not asked.waiting:
                    await self._take_move_back(table, asked)
            else:
                self._end_takeback(table, asked)
                table.note("takeback.declined", client.seat)
        self.changed(table)

    async def _take_move_back(self, table: Table, asked: TakebackRequest) -> None:
        """Every other person accepted: store the take-back, then return to
        the state before the move (call under the lock)."""
        self._end_takeback(table, asked)
        before = undone_state(table, asked.seat, random.Random(secrets.randbits(64)))
        new = [takeback_event(asked.seat)]
        started = self._turn_starts(table)  # the asker's turn again, in full
        await self._store(table, new, None, None, started)
        adopt_takeback(table, before, new)
        if started is not None:
            table.facts.turn_started_ms = started
        self._stop_timer(table)  # the asker's turn again, with a fresh timer
        table.note("takeback.done", asked.seat)

    def _end_takeback(self, table: Table, asked: TakebackRequest) -> None:
        if table.takeback is asked:
            table.takeback = None
        if asked.task is not None and asked.task is not asyncio.current_task():
            asked.task.cancel()

    async def _lapse(self, table: Table, asked: TakebackRequest, seconds: float) -> None:
        """Nobody declined in time: the take-back lapses (counts as declined)."""
        await asyncio.sleep(seconds)
        async with table.lock:
            if table.takeback is not asked:
                return
            self._end_takeback(table, asked)
            table.note("takeback.lapsed", asked.seat)
        self.changed(table)

    # --- what happens next -------------------------------------------------------
    def changed(self, table: Table) -> None:
        """Start what should happen next, then tell every client."""
        self.review(table)
        self.broadcast(table)
        self.watch(table)

    def broadcast(self, table: Table) -> None:
        """Each client its own ``state`` message (built once per seat)."""
        built: dict[int | None, str] = {}
        for client in list(table.clients):
            text = built.get(client.seat)
            if text is None:
                text = built[client.seat] = state_message(table, client.seat)
            client.send(text)

    def let_go(self, table: Table) -> None:
        """Stop serving ``table``, whose lease another process holds now (or
        which this process hands over): nothing of it runs here any more, and
        its clients reconnect to where it is served."""
        if self.hub.tables.get(table.id) is table:
            del self.hub.tables[table.id]
        self.hub.storage.epochs.pop(table.id, None)
        self._cancel_auto(table)
        self._stop_timer(table)
        for client in list(table.clients):
            client.close(RECONNECT)

    def review(self, table: Table) -> None:
        """Start (or stop) bots, stand-ins and timers; tells no client."""
        if table.status == "playing" and self.hub.tables.get(table.id) is not table:
            return  # let go of (another process serves it): nothing starts here
        turn_based = table.facts.turn_based
        waits = not turn_based and table.facts.tournament is None
        deserted = table.has_humans and not table.humans_present and waits
        # A deserted game waits for its people, unless stand-ins were sent to
        # finish it (cardtable/server/live/lifecycle.py). A turn-based game
        # is never deserted: its bots move while its people are away, and a
        # person's move waits for them until their deadline (on_deadline).
        # Nor is a tournament's real-time table: every other table waits for
        # its deal, so an absent person's stand-in plays after the grace period.
        if table.status != "playing" or (deserted and table.facts.abandoned_ms is None):
            self._cancel_auto(table)
            self._stop_timer(table)
            return
        if not turn_based:
            self._stand_in_for_absent(table)
        asked = table.takeback
        if asked is not None and asked.seq != table.seq:  # someone moved: the request is void
            self._end_takeback(table, asked)
            table.note("takeback.lapsed", asked.seat)
        seat = table.state.to_move
        if seat is None:
            return
        bot = table.controller(seat)
        if bot is None:
            self._cancel_auto(table)
            if not turn_based:
                self._start_timer(table, seat)
            return
        self._stop_timer(table)
        if table.takeback is not None:  # a bot waits for the people's answers
            self._cancel_auto(table)
            return
        key = (table.seq, seat, bot)
        if table.auto is not None and table.auto[0] == key and not table.auto[1].done():
            return
        self._cancel_auto(table)
        table.auto = (key, self._spawn(self._auto_move(table, key)))

    def _stand_in_for_absent(self, table: Table) -> None:
        """A stand-in for each player gone longer than the grace period (the
        clock starts when they leave, or when they are first missed)."""
        now = asyncio.get_running_loop().time()
        grace = self.hub.settings.grace_seconds
        for i, seat in enumerate(table.seats):
            if not seat.human or seat.connections or seat.stand_in is not None:
                continue
            if seat.left_at is None:
                seat.left_at = now
                self._spawn(self._review_later(table, grace + 0.05))
            elif now - seat.left_at >= grace:
                seat.stand_in = "left"
                table.note("stand_in", i)

    async def _review_later(self, table: Table, delay: float) -> None:
        await asyncio.sleep(delay)
        self.changed(table)

    def _cancel_auto(self, table: Table) -> None:
        if table.auto is not None and table.auto[1] is not asyncio.current_task():
            table.auto[1].cancel()
        table.auto = None

    async def _auto_move(self, table: Table, key: tuple[int, int, str]) -> None:
        _, seat, bot = key
        state = table.state
        legal = tuple(m.index for m in state.legal_moves())
        job = BotJob(
            game=table.game.name,
            options=json.dumps(table.game.options_json, sort_keys=True),
            bot=bot,
            seat=seat,
            view=state.view(seat).to_json(),
            legal=legal,
            seed=secrets.randbits(64),
        )
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            index = await self.hub.pool.choose(job)
        except Exception:
            log.exception("table %s: bot %s failed; it plays its first legal move", table.id, bot)
            index = legal[0]
        pause = table.facts.bot_delay_ms / 1000 - (loop.time() - started)
        if pause > 0:
            await asyncio.sleep(pause)
        await self._uncancelled(self._auto_commit(table, key, index))

    async def _auto_commit(self, table: Table, key: tuple[int, int, str], index: int) -> None:
        seq, seat, bot = key
        async with table.lock:
            if table.seq != seq or table.controller(seat) != bot or table.status != "playing":
                return  # the game moved on (the player came back, a restart…)
            overdue, before = table.overdue, None
            if overdue is not None and overdue.seat == seat:  # stored with the move it caused
                before = [
                    deadline_event(
                        table.journal, seat, STAND_IN, overdue.at_ms, overdue.deadline_ms
                    )
                ]
            try:
                await self._commit(table, seat, table.game.move_from_index(index), before)
            except Refused:
                self._spawn(self._review_later(table, 1.0))  # storage trouble: try again soon
                return
            if table.facts.turn_based and table.seats[seat].stand_in == "timeout":
                table.seats[seat].stand_in = None  # it played the one move that ran out
                table.overdue = None
        self.changed(table)

    # --- turn-based deadlines (docs/server.md, "Turn-based tables") ---------------
    async def on_deadline(self, table: Table) -> None:
        """If the person to move on turn-based ``table`` is past their deadline
        (on the server's clock), do what the table chose: its stand-in plays
        that one move, or the person is dropped and it plays the seat to the
        end, or the game ends with that person last. Each is stored as a
        deadline event of the record, in the write of what it causes (the
        stand-in's move, the drop, the end). Only the process serving the
        table calls this, and its writes are fenced by the table's lease: a
        deadline acts once across processes."""
        async with table.lock:
            if not self._past_deadline(table):
                return
            seat = table.state.to_move
            deadline = table.facts.deadline_ms
            assert seat is not None and deadline is not None
            at_ms = int(self.hub.settings.limits.clock() * 1000)
            action = table.facts.on_timeout or STAND_IN
            if action == STAND_IN:
                table.seats[seat].stand_in = "timeout"
                table.overdue = Overdue(seat, at_ms, deadline)
                table.note("timeout", seat)
            elif not await self._store_deadline(table, seat, action, at_ms, deadline):
                return
        self.changed(table)

    async def _store_deadline(
        self, table: Table, seat: int, action: str, at_ms: int, deadline: int
    ) -> bool:
        """Drop the person at ``seat`` or end the game (``action``), storing
        it with its deadline event; ``False`` where this process lost the
        table meanwhile (it lets it go: the holder acts instead)."""
        new = [deadline_event(table.journal, seat, action, at_ms, deadline)]
        # The game ends with the late person last, rated as it stands (outcomes.py).
        outcome = outcome_of(table, table.state, at_ms, ran_out=seat) if action == END else None
        try:
            await self.hub.storage.append(
                table.id,
                table.journal.stored,
                new,
                "finished" if outcome is not None else None,
                outcome,
                dropped=(seat, at_ms) if action == DROP else None,
            )
        except LeaseLost:
            self.let_go(table)
            return False
        table.journal.commit(new)
        if outcome is not None:
            table.facts.status = "finished"
            table.facts.ratings = outcome.changes
            table.facts.rated = outcome.rated
            table.note("ended", seat)
        else:
            table.seats[seat].facts.dropped_ms = at_ms
            table.seats[seat].stand_in = DROPPED
            table.note("dropped", seat)
        return True

    def _past_deadline(self, table: Table) -> bool:
        """A person's move is due on a turn-based table and its time has run out."""
        deadline = table.facts.deadline_ms
        seat = table.state.to_move
        return (
            table.status == "playing"
            and deadline is not None
            and seat is not None
            and table.controller(seat) is None
            and self.hub.settings.limits.clock() * 1000 >= deadline
        )

    # --- turn timers -------------------------------------------------------------
    def _start_timer(self, table: Table, seat: int) -> None:
        seconds = table.facts.turn_seconds
        timer = table.timer
        if seconds is None or (timer is not None and (timer.seq, timer.seat) == (table.seq, seat)):
            return
        self._stop_timer(table)
        timer = Timer(table.seq, seat, now_ms() + seconds * 1000)
        table.timer = timer
        timer.task = self._spawn(self._expire(table, timer, seconds))

    def _stop_timer(self, table: Table) -> None:
        if table.timer is not None and table.timer.task is not None:
            table.timer.task.cancel()
        table.timer = None

    async def _expire(self, table: Table, timer: Timer, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if table.timer is not timer:
            return
        table.timer = None
        table.seats[timer.seat].stand_in = "timeout"
        table.note("timeout", timer.seat)
        self.changed(table)

    # --- tasks -----------------------------------------------------------------
    async def _uncancelled(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (which takes the table's lock) in a task of its own and
        wait for it. Cancelling the caller (a bot's turn taken back, a socket
        closing) then never stops a move between its commit and its adoption,
        which would leave the table behind its database."""
        task = self._spawn(work)
        self._commits.add(task)
        task.add_done_callback(self._commits.discard)
        await asyncio.shield(task)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        error = None if task.cancelled() else task.exception()
        if error is not None and not isinstance(error, BadInput):  # refusals reach the client
            log.error("table task failed", exc_info=error)


def _said_by(line: ChatLine, client: Client) -> bool:
    """Whether ``client`` said ``line``, as far as the table knows (guest
    spectators share no name, so one cannot tell their lines apart)."""
    if client.seat is not None:
        return line.seat == client.seat
    return line.seat is None and client.account is not None and line.name == client.account
