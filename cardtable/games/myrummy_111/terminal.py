"""MyRummy 111 in the terminal: the :class:`~cardtable.cli.ui.TerminalUI` of the game.

The UI sees views only (MR-5): the table, the narration and the standings are
drawn from the watching seat's views by :mod:`.terminal_render`.
The one thing it remembers is the card behind each of the person's own
face-down takes, which the person saw while placing it (MR-4.2) but the
public history hides.

Input, per phase (short forms in brackets)::

    take S [t S]        refresh S [r S]            (S = middle slot 0, 1, 2)
    place P left|right|far [declare]  [p P l|r|f d]  (P = a number 0 … hand size)
    preview P side [? P side]   help [h, ?]   quit [q]   empty line: redraw
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from cardtable.cli.ui import ReadLine, commands_help, read_command
from cardtable.core.game import Game, Move, View
from cardtable.games.myrummy_111 import terminal_render as render
from cardtable.games.myrummy_111.exchange import exchange, hand_after_place
from cardtable.games.myrummy_111.moves import SIDES, Place, Take, place
from cardtable.games.myrummy_111.scoring import is_sorted
from cardtable.games.myrummy_111.view import MyRummyView, PlaceEvent, TakeEvent

SIDE_WORDS = {"l": "left", "left": "left", "r": "right", "right": "right", "f": "far", "far": "far"}
DECLARE_WORDS = ("declare", "d", "decl")
TAKE_USAGE = "take S (S = 0–2), or refresh S when all are face up"
PLACE_USAGE = "place P left|right|far [declare] (P = 0 … {h}), or preview P side"

HELP = """\
[bold]MyRummy 111[/bold]: sort your hand (up or down), then declare it.
A turn: take a middle card, put it into your hand, and discard a neighbour of
it face up into the slot it came from; your hand keeps its size.
  take S / t S      take slot S (0, 1, 2); a face-down card is seen by you only
  refresh S / r S   only when all three are face up (MR-4.1): they go to the
                    discard pile, three face-down cards replace them; take S
  place P SIDE      put the card at position P, a number from the "pos" row
  p P l|r|f         between your cards: 0 = before the first card … {h} = after
                    the last; then discard its left or right neighbour, or,
                    inserting at an end (P = 0 or {h}), the card at the other
                    end: far (MR-4.4)
  place … declare   also declare the hand sorted; this ends the round (MR-4.5)
  preview P SIDE    (or ? P SIDE) show the hand a placement would leave
Scoring (MR-6): a declarer whose hand is sorted (strictly up or strictly down,
gaps allowed) scores all its joker symbols ★ + 5; unsorted, 0, and the round still
ends. Everyone else scores their best run: the adjacent block, sorted either
way, with the most joker symbols ★ (marked ━ under your hand; coloured: sorted blocks).
Game: {goal}; ties go to the last round's higher score (MR-7.1).
An empty line redraws the table. Commands: {commands}."""


class MyRummyUI:
    """Draws MyRummy 111 for the person at ``seat`` (``None``: watching bots)."""

    def __init__(
        self, game: Game, console: Console, names: Sequence[str], seat: int | None
    ) -> None:
        self.game = game
        self.console = console
        self.names = list(names)
        self.seat = seat
        self.seen: dict[int, int] = {}  # history index -> card, own face-down takes
        self.seen_round = 0
        self.pending = ""  # another seat's take, told together with its placement
        self.greeted = False

    # ------------------------------------------------------------ protocol
    def show(self, view: View) -> None:
        v = _mr(view)
        self._greet(v)
        self.console.rule()
        self.console.print(render.table(v, self.names, self._seen_in(v)))
        self.console.print(self._turn_line(v))

    def ask(self, view: View, legal: Sequence[Move], read_line: ReadLine) -> Move:
        v = _mr(view)
        while True:
            line = read_command(read_line, f"{v.phase}> ", lambda: self._help(v))
            words = line.lower().replace(",", " ").split()
            if not words:  # an empty line redraws, the quickest way to see the table again
                self.show(v)
                continue
            head, args = words[0], words[1:]
            if head.isdigit():  # a bare "5 left" or "2": the verb of the phase is implied
                head, args = ("take" if v.phase == "take" else "place"), words
            if head in ("preview", "?"):
                self._preview(v, args, legal)
            elif head in ("take", "t", "refresh", "r"):
                move = self._take(v, head in ("refresh", "r"), args, legal)
                if move is not None:
                    return move
            elif head in ("place", "p"):
                chosen = self._place(v, args, legal, read_line)
                if chosen is not None:
                    return chosen
            else:
                usage = TAKE_USAGE if v.phase == "take" else PLACE_USAGE.format(h=len(v.hand or ()))
                self._say(f"Unknown command {head!r}. Now: {usage}. Type help for the rules.")

    def _help(self, v: MyRummyView) -> None:
        commands = commands_help(self.game)
        self.console.print(HELP.format(goal=self._goal(v), h=len(v.hand or ()), commands=commands))

    def narrate(self, before: View, seat: int, move: Move, after: View) -> None:
        b, a = _mr(before), _mr(after)
        self._greet(b)
        who = "You" if seat == self.seat else render.short(self.names[seat])
        symbols = render.sym(b)
        if isinstance(move, Take):
            event = a.history[-1]  # a take never ends a round
            assert isinstance(event, TakeEvent)
            seen = None
            if seat == self.seat and a.taken_card is not None:
                self._remember(a, a.taken_card)
                seen = a.taken_card
            phrase = f"{who} {render.take_phrase(event, symbols, seen)}"
            if seat == self.seat:
                self.console.print(phrase + ".", markup=False)
            else:  # one line per turn reads better: wait for the placement
                self.pending = phrase
            return
        assert isinstance(move, Place)
        if seat == self.seat:
            text = f"You {self._place_phrase(b, seat, move, a, self._taken(b))}"
        else:
            text = f"{self.pending or who + ' took a card'}, {self._place_phrase(b, seat, move, a)}"
        self.pending = ""
        self.console.print(text if text.endswith("!") else text + ".", markup=False)
        if len(a.round_scores) > len(b.round_scores):
            self._round_over(b, seat, move, a)

    def finish(self, view: View) -> None:
        v = _mr(view)
        self.console.rule("[bold]Final standings[/bold]")
        self.console.print(render.standings(v, self.names))

    # ------------------------------------------------------------- input
    def _take(
        self, v: MyRummyView, refresh: bool, args: list[str], legal: Sequence[Move]
    ) -> Move | None:
        if v.phase != "take":
            self._say(
                f"You have already taken {self._taken(v)}: now place it with "
                + PLACE_USAGE.format(h=len(v.hand or ()))
                + "."
            )
            return None
        if refresh and args[:1] in (["take"], ["t"]):
            args = args[1:]  # "refresh take 1" reads naturally too
        if len(args) != 1 or not args[0].isdigit():
            self._say(f"Which slot? Write {TAKE_USAGE}.")
            return None
        slot = int(args[0])
        if slot > 2:
            self._say(f"There is no slot {slot}: the middle slots are 0, 1 and 2.")
            return None
        move = self.game.parse_move(f"{'refresh' if refresh else 'take'} {slot}")
        if move not in legal and refresh:
            down = [str(s) for s, c in enumerate(v.middle) if c is None]
            self._say(
                "You can refresh only when all three middle cards are face up (MR-4.1);"
                f" {_slots(down)} face down."
                f" Take a card instead: take {slot}."
            )
            return None
        return self._pick(move, legal)

    def _parse_place(
        self, v: MyRummyView, args: list[str], legal: Sequence[Move]
    ) -> tuple[int, str, bool] | None:
        """``(position, side, declare)`` or ``None`` after saying what is wrong."""
        hand = v.hand or ()
        h = len(hand)
        usage = PLACE_USAGE.format(h=h)
        if v.phase != "place":
            self._say(f"First take a card: {TAKE_USAGE}. You place it after taking it.")
            return None
        if not args:
            self._say(f"Where? Write {usage}.")
            return None
        if not args[0].isdigit():
            self._say(
                f"{args[0]!r} is not a position: positions are the numbers of the pos row,"
                f" 0 (before your first card) … {h} (after your last); write {usage}."
            )
            return None
        p = int(args[0])
        if p > h:
            self._say(
                f"Position {p} is beyond your hand: positions run from 0 (before the first"
                f" card) to {h} (after the last) (MR-4.3)."
            )
            return None
        sides = _sides(hand, p, legal)
        if len(args) < 2 or args[1] not in SIDE_WORDS:
            self._say(f"Which card goes? After place {p} write {sides}.")
            return None
        side = SIDE_WORDS[args[1]]
        rest = args[2:]
        if rest and (rest != [rest[0]] or rest[0] not in DECLARE_WORDS):
            self._say(f"Only 'declare' may follow the side; {usage}.")
            return None
        if place(p, side) not in legal:
            why = "far only from an end" if side == "far" else f"position {p} has no {side} card"
            self._say(
                f"{why.capitalize()}: at position {p} you may discard {sides} (MR-4.4 — far"
                f" means the card at the other end, when you insert at 0 or {h})."
            )
            return None
        return p, side, bool(rest)

    def _place(
        self, v: MyRummyView, args: list[str], legal: Sequence[Move], read_line: ReadLine
    ) -> Move | None:
        parsed = self._parse_place(v, args, legal)
        if parsed is None:
            return None
        p, side, declare = parsed
        after = self._result(v, p, side)
        if declare and not is_sorted(after):
            self._say(
                "That hand would not be sorted: "
                + " ".join(map(str, after))
                + ".\nDeclaring an unsorted hand scores 0 for you and still ends the round"
                " (MR-6.2); the others score their best runs."
            )
            if read_line(escape("Declare anyway? [y/N] ")).strip().lower() not in ("y", "yes"):
                self._say("Not declared. Enter your move again.")
                return None
        text = f"place {p} {side}" + (" declare" if declare else "")
        return self._pick(self.game.parse_move(text), legal)

    def _preview(self, v: MyRummyView, args: list[str], legal: Sequence[Move]) -> None:
        if args[:1] in (["place"], ["p"]):
            args = args[1:]
        parsed = self._parse_place(v, args, legal)
        if parsed is None:
            return
        p, side, _ = parsed
        hand, after = v.hand or (), self._result(v, p, side)
        symbols = render.sym(v)
        (gone,) = set(hand) - set(after)
        new_at = after.index(v.taken_card or 0)
        self.console.print(
            f"Preview of place {p} {side}: {render.card_str(v.taken_card or 0, symbols)} goes in,"
            f" {render.card_str(gone, symbols)} goes face up to slot {v.taken_slot}."
        )
        self.console.print(render.hand_rows(after, symbols, new_at=new_at))
        self.console.print(
            f"It would be {render.hand_verdict(after, symbols)}. Nothing is played yet."
        )

    # ----------------------------------------------------------- narration
    def _place_phrase(
        self, b: MyRummyView, seat: int, move: Place, a: MyRummyView, what: str = "it"
    ) -> str:
        gone = render.card_str(_placed(b, a).card, render.sym(b))  # MR-4.4: face up
        verb = "declare" if seat == self.seat else "declares"
        return render.place_words(what, move.position, move.discard, gone, move.declare, verb)

    def _round_over(self, b: MyRummyView, seat: int, move: Place, a: MyRummyView) -> None:
        points = a.round_scores[-1]
        self.console.rule(f"[bold]Round {b.round_number} is over[/bold]")
        who = "You" if seat == self.seat else render.short(self.names[seat])
        if not move.declare:
            self.console.print(
                f"The turn limit ({b.options.turn_limit}) is reached (MR-6.4):"
                " everyone scores their best run."
            )
        elif points[seat] > 0:
            self.console.print(
                f"{escape(who)} declared a sorted hand: {points[seat]}★ (all joker symbols + 5)."
            )
        else:
            self.console.print(
                f"{escape(who)} declared, but the hand was not sorted: 0 points (MR-6.2)."
            )
        for s, name in enumerate(self.names):
            kind = "declared" if move.declare and s == seat else "best run"
            self.console.print(f"  {name}: {kind} {points[s]}★, total {a.scores[s]}", markup=False)
        shown = a.last_round.declared_hand if a.last_round is not None else None
        if shown is not None:  # MR-6.2: shown to everyone, to check the order
            whose = "Your" if seat == self.seat else f"{escape(who)}'s"
            self.console.print(f"{whose} declared hand:")
            self.console.print(render.hand_rows(shown, render.sym(b)))
        if self.seat is not None and b.hand is not None and (seat != self.seat or shown is None):
            hand = b.hand
            if seat == self.seat and b.taken_card is not None:
                hand = tuple(self._result(b, move.position, move.discard))
            self.console.print("Your final hand:")
            self.console.print(render.hand_rows(hand, render.sym(b)))
        if not a.finished:
            starter = render.short(self.names[a.start_player])
            self.console.print(f"[bold]Round {a.round_number}[/bold]: {escape(starter)} starts.")

    # ------------------------------------------------------------- helpers
    def _greet(self, v: MyRummyView) -> None:
        if self.greeted:
            return
        self.greeted = True
        who = "You are watching the bots" if self.seat is None else f"You play seat {self.seat}"
        self.console.print(
            f"[bold]MyRummy 111[/bold], {len(self.names)} players, {self._goal(v)}."
            f" {who} (type help)."
        )

    def _goal(self, v: MyRummyView) -> str:
        opts = v.options
        goal = f"first to {opts.target} points"
        if opts.rounds:
            goal = f"{opts.rounds} round" + ("s" if opts.rounds > 1 else "")
        return goal + (f", at most {opts.turn_limit} turns a round" if opts.turn_limit else "")

    def _turn_line(self, v: MyRummyView) -> str:
        if v.to_move != self.seat:
            return f"{render.short(self.names[v.to_move or 0])} is to move."
        if v.phase == "take":
            return f"[bold]Your turn — take a card[/bold]: {TAKE_USAGE}."
        usage = escape(PLACE_USAGE.format(h=len(v.hand or ())))
        return (
            f"[bold]Your turn — place {self._taken(v)}[/bold] (from slot {v.taken_slot}): {usage}."
        )

    def _taken(self, v: MyRummyView) -> str:
        return render.card_str(v.taken_card, render.sym(v)) if v.taken_card else "a card"

    def _result(self, v: MyRummyView, p: int, side: str) -> list[int]:
        assert v.hand is not None and v.taken_card is not None
        return hand_after_place(v.hand, v.taken_card, p, SIDES.index(side))

    def _remember(self, v: MyRummyView, card: int) -> None:
        if v.round_number != self.seen_round:
            self.seen, self.seen_round = {}, v.round_number
        self.seen[len(v.history) - 1] = card

    def _seen_in(self, v: MyRummyView) -> dict[int, int]:
        return self.seen if v.round_number == self.seen_round else {}

    def _say(self, message: str) -> None:
        # markup off: messages quote the person's input and "[declare]"
        self.console.print(message, style="red", markup=False)

    def _pick(self, move: object, legal: Sequence[Move]) -> Move | None:
        """The legal move equal to ``move`` (the loop wants one of ``legal``)."""
        found = next((m for m in legal if m == move), None)
        if found is None:  # the checks above should have explained it already
            self._say(f"{move} is not legal now; type help for the rules.")
        return found


def _sides(hand: Sequence[int], p: int, legal: Sequence[Move]) -> str:
    """The legal sides at ``p`` and the card each would discard (MR-4.4)."""
    options = []
    for side, word in enumerate(SIDES):
        if place(p, word) in legal:
            options.append(f"{word} ({exchange(list(hand), 0, p, side)})")
    return " or ".join(options)


def _slots(down: list[str]) -> str:
    return f"slot {down[0]} is" if len(down) == 1 else f"slots {', '.join(down)} are"


def _placed(b: MyRummyView, a: MyRummyView) -> PlaceEvent:
    """The placement just made, from the views before (``b``) and after
    (``a``) it: the round's last event or, when it ended the round (the next
    one may already be dealt), the round's public end."""
    if len(a.round_scores) > len(b.round_scores):
        assert a.last_round is not None
        return a.last_round.last_place
    event = a.history[-1]
    assert isinstance(event, PlaceEvent)
    return event


def _mr(view: View) -> MyRummyView:
    assert isinstance(view, MyRummyView)
    return view
