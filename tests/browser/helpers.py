"""What the browser tests share: a person at a browser page (with every
WebSocket frame it received), waiting on the page's own state, axe-core, and
the engine's views of a finished table to check frames and pages against."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import TimeoutError as PageTimeout

from cardtable.core.replay import parse_record

REPO = Path(__file__).resolve().parents[2]
START_LIMIT_S = 60.0  # a bound on waiting for the server to listen, not a timing check
# The state on screen and the page's HTML, in one snapshot.
PAGE_JS = (
    "() => [Number(document.querySelector('#board').dataset.seq),"
    " document.querySelector('#main').innerHTML]"
)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
ACTION_TIMEOUT_MS = 20_000  # a bound on each wait, never an assertion about speed

# What the page shows: the state on screen, whether it is this person's turn, the end.
STATUS_JS = """() => ({
  seq: Number(document.querySelector('#board')?.dataset.seq ?? -1),
  mine: document.querySelector('#turn-status')?.dataset.mine === 'true',
  finished: document.querySelector('#end-panel')?.hidden === false,
})"""

# What a waiting person sees beside the state: the connection and any notice.
SEEN_JS = f"""() => ({{
  ...({STATUS_JS})(),
  url: location.pathname,
  connection: document.querySelector('#connection')?.dataset.state ?? null,
  notice: document.querySelector('#notice')?.textContent ?? null,
}})"""


@dataclass
class Person:
    """One person: a browser context of their own (their own localStorage, so
    their own seat token), the frames their page received and those it sent."""

    name: str
    page: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def open(
        cls, browser: Any, name: str, viewport: dict[str, int] = DESKTOP, **options: Any
    ) -> Person:
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        page = context.new_page()
        person = cls(name, page)
        page.on("websocket", person._listen)
        page.on("pageerror", lambda error: person.errors.append(str(error)))
        return person

    def __post_init__(self) -> None:
        self.errors: list[str] = []

    def _listen(self, ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            self.frames.append(json.loads(payload))

        def sent(payload: str | bytes) -> None:
            self.sent.append(json.loads(payload))

        ws.on("framereceived", received)
        ws.on("framesent", sent)

    def status(self) -> dict[str, Any]:
        """What the page shows, after continuing past a round's summary (a
        person reads it, then plays on)."""
        self.continue_summary()
        result: dict[str, Any] = self.page.evaluate(STATUS_JS)
        return result

    def continue_summary(self) -> bool:
        """Close the round summary if one is open; whether one was."""
        button = self.page.locator("#summary:not([hidden]) #summary-continue")
        if not button.count():
            return False
        button.click()
        return True

    def wait_past(self, seq: int) -> None:
        """Until the page shows a state after ``seq`` (or the game's end); a
        page that never does fails with what it showed instead."""
        try:
            self.page.wait_for_function(
                f"() => {{ const s = ({STATUS_JS})(); return s.seq > {seq} || s.finished; }}"
            )
        except PageTimeout:
            raise AssertionError(
                f"{self.name}'s page stayed at move {seq}: {self.seen()}"
            ) from None

    def seen(self) -> dict[str, Any]:
        """What the page shows a person who is waiting: its state, its
        connection, its notice, and the last frames it received."""
        shown: dict[str, Any] = self.page.evaluate(SEEN_JS)
        shown["last_frames"] = [
            {k: f.get(k) for k in ("type", "seq", "to_move", "key", "message") if k in f}
            for f in self.frames[-6:]
        ]
        return shown

    def wait_connected(self) -> None:
        self.page.wait_for_selector("#connection[data-state='open']")
        self.page.wait_for_function(
            "() => Number(document.querySelector('#board')?.dataset.seq ?? -1) >= 0"
        )

    def play_against_bots(self, server: Server, title: str) -> str:
        """The lobby's one click: a new table of ``title`` against bots, with
        this person seated and connected; the table's id."""
        page = self.page
        page.goto(server.url + "/")
        page.get_by_label("Your name").fill(self.name)
        page.get_by_role("button", name=f"Play {title} against bots").click()
        page.wait_for_url("**/t/*")
        self.wait_connected()
        return str(page.url.rsplit("/", 1)[1])

    def join(self, seat: int) -> None:
        """Take ``seat`` from the table page's join panel."""
        self.page.get_by_label("Your name").fill(self.name)
        self.page.locator(f"#join-panel button[data-seat='{seat}']").click()
        self.page.wait_for_selector("#join-panel", state="hidden")
        self.page.wait_for_function("() => document.querySelector('#board .is-me') !== null")

    def wait_seated(self) -> None:
        """After creating a table in the lobby: its creator sits where they chose."""
        self.page.wait_for_url("**/t/*")
        self.page.wait_for_function("() => document.querySelector('#board .is-me') !== null")

    def states(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "state"]

    def close(self) -> None:
        self.page.context.close()


def play_until_finished(
    people: list[Person], act: Callable[[Person, int], None], limit: int = 2000
) -> int:
    """Let each person act whenever their page says it is their turn, until
    every page shows the end; returns how many moves the people made."""
    made = 0
    for _ in range(limit):
        states = [p.status() for p in people]
        if all(s["finished"] for s in states):
            return made
        acted = False
        for person, state in zip(people, states, strict=True):
            if state["mine"] and not state["finished"]:
                act(person, made)
                person.wait_past(state["seq"])
                made += 1
                acted = True
                break
        if not acted:  # a bot is thinking or a state is on its way
            waiting = next(p for p, s in zip(people, states, strict=True) if not s["finished"])
            waiting.wait_past(min(s["seq"] for s in states))
    raise AssertionError(f"the game did not end within {limit} turns")


def run_axe(page: Any, axe_source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source)
    # Colours are judged once cards have landed: mid-flight a card is half
    # transparent, and axe would read its contrast against the felt (a flake).
    result = page.evaluate("""async () => {
        const landing = document.getAnimations()
            .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
            .map((a) => a.finished.catch(() => null));
        await Promise.all(landing);
        return (await axe.run(document)).violations;
    }""")
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"],
         "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]  # fmt: skip


def shoot(page: Any, folder: Path, name: str) -> Path:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``cardtable serve`` as a user runs it, on one port and one database file
    (or the database at ``db_url``; ``db`` then only names the log)."""

    def __init__(self, db: Path, *args: str, db_url: str | None = None) -> None:
        self.db = db
        self.db_url = db_url or f"sqlite:///{db}"
        self.args = args  # more `cardtable serve` options
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        }
        command = [
            sys.executable, "-m", "cardtable", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", self.db_url, "--bot-workers", "1", *self.args,
        ]  # fmt: skip
        with self.log.open("ab") as log:
            # A session of its own: why in tests/server/processes.py's launch_serve.
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + START_LIMIT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cardtable serve exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"cardtable serve did not listen within {START_LIMIT_S} s")

    def kill(self) -> None:
        """``kill -9``: no shutdown handler runs."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def pause(self) -> None:
        """SIGSTOP: the process holds its sockets open and answers nothing."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused process hears no SIGTERM
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


# --------------------------------------------------------- the engine's side
@dataclass
class EngineStep:
    """After ``seq`` moves (and the deal that follows a round's last move):
    each seat's view as JSON, each seat's own hand, the spectator's view, and
    the views (per seat, then the spectator's) at the end of the latest
    completed round, which the server sends as ``round_end``."""

    views: list[dict[str, Any]]
    hands: list[list[Any]]
    spectator: dict[str, Any]
    round_end: list[dict[str, Any] | None]


def engine_steps(record: dict[str, Any]) -> dict[int, list[EngineStep]]:
    """The engine's views after every number of moves of a finished game's
    record. After a round's last move there are two: before and after the next
    deal (a client may see either)."""
    parsed = parse_record(record)
    game = parsed.game
    state = game.new_state()
    n = game.num_players
    steps: dict[int, list[EngineStep]] = {}
    seq = 0
    ended: list[dict[str, Any] | None] = [None] * (n + 1)

    def snapshot() -> None:
        views = [state.view(s).to_json() for s in range(n)]
        hands = [list(v["hand"] or []) for v in views]
        spectator = state.view(None).to_json()
        done = [*views, spectator] if state.finished else ended
        steps.setdefault(seq, []).append(EngineStep(views, hands, spectator, list(done)))

    for r, round_ in enumerate(parsed.rounds):
        if r:  # the round before this deal has ended: what each seat saw then
            ended = [*(state.view(s).to_json() for s in range(n)), state.view(None).to_json()]
        state.deal(round_.deal)
        snapshot()
        for seat, move, chance in round_.moves:
            state.apply_as(seat, move, **chance)
            seq += 1
            snapshot()
    return steps


# Parts of a frame checked on their own (view, refused) or that are identifiers
# (a table id or game name may hold digits that read like a card).
NOT_PROSE = ("view", "refused", "type", "table", "game", "status", "rematch", "round_end")


@dataclass(frozen=True)
class Cards:
    """How to find a game's cards: in a view (what it shows), in a sentence,
    on a page (its HTML), and in a move (``None`` for a move naming none)."""

    visible: Callable[[dict[str, Any]], set[Any]]
    in_text: Callable[[str], set[Any]]
    on_page: Callable[[str], set[Any]]
    in_move: Callable[[dict[str, Any]], Any]


def check_pages_and_frames(
    record: dict[str, Any],
    seats: dict[int, Person],
    pages: list[tuple[int, int, str]],
    cards: Cards,
) -> None:
    """Against the engine's replay of the finished game:

    - every page snapshot ``(seat, seq, html)`` draws only cards its seat's view holds;
    - every state frame's view is exactly the engine's ``view(seat)`` (``view(None)``
      before the person sat down) at that ``seq``, and its ``round_end`` exactly
      that seat's view at the end of the latest completed round;
    - nothing else in a frame names a card another seat holds unseen, and the
      refusals of cards the seat cannot see all read alike (they tell nothing).
    """
    steps = engine_steps(record)

    def hidden(step: EngineStep, seat: int | None) -> set[Any]:
        held = {c for s, hand in enumerate(step.hands) if s != seat for c in hand}
        view = step.spectator if seat is None else step.views[seat]
        return held - cards.visible(view)

    def seen_at_end(step: EngineStep, seat: int) -> set[Any]:
        # A page may also show the round that just ended, as the seat saw it then.
        end = step.round_end[seat]
        return set() if end is None else cards.visible(end)

    assert pages
    for seat, seq, html in pages:
        # Avatars are initials ("B1" for "Bot 1"), not cards.
        shown = cards.on_page(AVATAR.sub("", html))
        assert any(
            shown <= cards.visible(s.views[seat]) | seen_at_end(s, seat) for s in steps[seq]
        ), (seat, seq)
        first = steps[seq][0]
        assert not shown & (hidden(first, seat) - seen_at_end(first, seat)), (seat, seq)

    for seat, person in seats.items():
        states = person.states()
        assert states, f"seat {seat} received no state"
        for frame in states:
            who = frame["seat"]
            assert who in (None, seat)
            options = [
                s
                for s in steps[frame["seq"]]
                if (s.spectator if who is None else s.views[seat]) == frame["view"]
            ]
            assert options, (
                f"seat {who} got a view at seq {frame['seq']} the engine never showed it"
            )
            at = n_seats(options[0]) if who is None else seat
            assert any(frame.get("round_end") == s.round_end[at] for s in options), (
                f"seat {who}'s round_end at seq {frame['seq']} is not its view when the round ended"
            )
            secret = hidden(options[0], who)
            rest = {k: v for k, v in frame.items() if k not in NOT_PROSE}
            named = {c for text in strings_in(rest) for c in cards.in_text(text)}
            assert not named & secret, (frame["seq"], named & secret)
            alike = set()
            for refusal in frame["refused"]:
                card = cards.in_move(refusal["move"])
                view = frame["view"]
                # The refusal's words and its facts for the browser (key, params).
                facts = json.dumps(refusal.get("params", {}), sort_keys=True)
                if card is not None and card not in cards.visible(view):
                    unseen = str(card)
                    alike.add(
                        (
                            refusal["reason"].replace(unseen, "<card>"),
                            refusal["rule"],
                            refusal.get("key"),
                            facts.replace(unseen, "<card>"),
                        )
                    )
                else:
                    assert not cards.in_text(refusal["reason"] + " " + facts) & secret, refusal
            assert len(alike) <= 1, alike


AVATAR = re.compile(r'<span class="avatar[^"]*"[^>]*>[^<]*</span>')


def n_seats(step: EngineStep) -> int:
    """The index of the spectator's entry in ``round_end`` (after every seat's)."""
    return len(step.views)


def strings_in(obj: Any) -> Iterable[str]:
    """Every string inside a JSON value."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from strings_in(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from strings_in(value)
