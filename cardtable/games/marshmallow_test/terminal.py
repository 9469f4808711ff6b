"""Marshmallow Test at the terminal: the table, reading a move, narration.

Everything is drawn from views (MT-9), never from the state, so the screen
cannot show a card the watching seat may not see. Narration compares the view
before a move with the view after it. A state with a generator deals the next
round inside the move that ends a round, so the after view may already belong
to a new round (empty tricks, last round's points in ``round_scores``): what
happened in the last trick is therefore worked out from the before view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardtable.cli.ui import ReadLine, commands_help, read_command
from cardtable.core.game import Game, Move, View
from cardtable.games.marshmallow_test.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    COLOUR_OF,
    NUM_COLOURS,
    parse_colour,
)
from cardtable.games.marshmallow_test.moves import TRUMPS, NameTrump, Play, parse_move
from cardtable.games.marshmallow_test.tricks import must_play
from cardtable.games.marshmallow_test.view import MarshmallowView

STYLES = ("red", "yellow", "green", "blue", "magenta")  # purple is magenta on terminals
REDRAW_WORDS = ("", "hand", "table")
Piece = str | Text


def _mv(view: View) -> MarshmallowView:
    assert isinstance(view, MarshmallowView), f"not a Marshmallow Test view: {view!r}"
    return view


def _card(c: int, style: str = "") -> Text:
    return Text(CARD_NAMES[c], style=f"{STYLES[COLOUR_OF[c]]} {style}".strip())


def _colour(colour: int) -> Text:
    return Text(COLOUR_NAMES[colour], style=f"bold {STYLES[colour]}")


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(CARD_NAMES[c] for c in cards)


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


class MarshmallowTestUI:
    """The :class:`~cardtable.cli.ui.TerminalUI` of Marshmallow Test."""

    def __init__(
        self, game: Game, console: Console, names: Sequence[str], seat: int | None
    ) -> None:
        self.game = game
        self.console = console
        self.names = list(names)
        self.seat = seat  # None: a spectator watching bots
        self._shown = False

    def _say(self, text: str, style: str = "") -> None:
        # Plain Text, never markup: names and typed input may hold "[...]".
        self.console.print(Text(text, style=style))

    # ------------------------------------------------------------------ drawing
    def show(self, view: View) -> None:
        v = _mv(view)
        self._shown = True
        self._draw_board(v)
        # On the person's turn the hand is drawn by ask(), which alone knows
        # the legal moves to mark; the loop always calls ask right after show.
        if v.hand and v.to_move != self.seat:
            self._draw_hand(v, None)

    def _draw_board(self, v: MarshmallowView) -> None:
        if v.round_number == 1:
            trump: Piece = "no trump in round 1"
        elif v.trump is None:
            trump = "trump not named yet"
        else:
            trump = Text.assemble("trump ", _colour(v.trump))
        dealer = "-" if v.dealer is None else self.names[v.dealer]
        self.console.rule(f"Round {v.round_number}")
        self.console.print(
            Text.assemble(
                trump,
                f" · dealer {dealer} · out at {v.tricks_to_go_out} tricks · target {v.target}",
            )
        )
        table = Table(box=box.SIMPLE, pad_edge=False, show_edge=False)
        table.add_column("")
        table.add_column("player")
        table.add_column("tricks", justify="right")
        table.add_column("cards", justify="right")
        table.add_column("this round")
        table.add_column("score", justify="right")
        for s in range(v.players):
            marker = "▶" if v.to_move == s else ""
            name = self.names[s] + (" · dealer" if s == v.dealer else "")
            state = f"out +{v.round_points[s]}" if v.out[s] else "in"
            style = "dim" if v.out[s] else ("bold" if s == self.seat else "")
            table.add_row(
                marker,
                Text(name),  # Text: a name is never read as rich markup
                str(v.trick_counts[s]),
                str(v.hand_sizes[s]),
                state,
                str(v.scores[s]),
                style=style,
            )
        self.console.print(table)
        self.console.print(self._trick_line(v))

    def _trick_line(self, v: MarshmallowView) -> Text:
        if v.current_trick:
            best = v.winning_card()
            assert best is not None and v.lead_colour is not None
            pieces: list[Piece] = ["Trick (lead ", _colour(v.lead_colour), "): "]
            for i, (s, c) in enumerate(v.current_trick):
                pieces += [", " if i else "", f"{self.names[s]} ", _card(c, "bold")]
                pieces.append(" (winning)" if (s, c) == best else "")
            return Text.assemble(*pieces)
        if v.tricks:
            pieces = ["Last trick: "]
            for i, (s, c) in enumerate(v.tricks[-1]):
                pieces += [", " if i else "", f"{self.names[s]} ", _card(c)]
            return Text.assemble(*pieces, f" → {self.names[v.trick_winners[-1]]}")
        return Text("No cards played yet this round.")

    def _draw_hand(self, v: MarshmallowView, legal: Sequence[Move] | None) -> None:
        playable = {m.card for m in legal or () if isinstance(m, Play)}
        self.console.print("Your hand:")
        for colour in range(NUM_COLOURS):
            cards = [c for c in v.hand if COLOUR_OF[c] == colour]
            if not cards:
                continue
            line: list[Piece] = ["  ", _colour(colour), " " * (7 - len(COLOUR_NAMES[colour]))]
            for c in cards:
                style = "" if legal is None else "bold underline" if c in playable else "dim"
                line += [" ", _card(c, style)]
            line.append("  ← trump" if colour == v.trump else "")
            self.console.print(Text.assemble(*line))
        if playable and len(playable) < len(v.hand):
            # Styles vanish in a pipe or a dumb terminal; say it in words as well.
            self._say(f"You may play: {_cards(sorted(playable))}")

    # ------------------------------------------------------------------ input
    def ask(self, view: View, legal: Sequence[Move], read_line: ReadLine) -> Move:
        v = _mv(view)
        self._draw_hand(v, legal)
        if v.trump_due:
            prompt = "You deal: name trump (red, yellow, green, blue, purple): "
        else:
            prompt = "Your card (e.g. g7; help, quit): "
        while True:
            text = read_command(read_line, prompt, lambda: self._help(v)).strip()
            if text.lower() in REDRAW_WORDS:
                self._draw_board(v)
                self._draw_hand(v, legal)
            else:
                answer = self._read_move(v, text, legal)
                if not isinstance(answer, str):
                    return answer
                self._say(answer, "yellow")

    def _read_move(self, v: MarshmallowView, text: str, legal: Sequence[Move]) -> Move | str:
        """The legal move ``text`` names, or a message saying what is wrong."""
        words = text.lower().split()
        move: Play | NameTrump | None = None
        try:
            move = parse_move(text)
        except ValueError:
            if words[0] == "trump":
                return f"'{text}' names no colour: write e.g. 'trump green'"
            if not v.trump_due:
                return f"'{text}' is not a card: write colour letter + number, e.g. g7"
        if move is None:
            # The prompt asked the dealer for a colour; a bare letter names one too ('g').
            try:
                move = TRUMPS[parse_colour(text)]
            except ValueError:
                return (
                    f"'{text}' is not a colour: as dealer, name trump first: "
                    f"{', '.join(COLOUR_NAMES[:-1])} or {COLOUR_NAMES[-1]}"
                )
        if move in legal:
            return move
        return self._why_not(v, move, legal)

    def _why_not(self, v: MarshmallowView, move: Play | NameTrump, legal: Sequence[Move]) -> str:
        """Why ``move`` is illegal, explained from the view with the rule it breaks."""
        if isinstance(move, NameTrump):
            if v.round_number == 1:
                return "round 1 has no trump (MT-4.1): play a card, e.g. g7"
            if v.trump is not None:
                return (
                    f"trump is already {COLOUR_NAMES[v.trump]}: the dealer names it once, "
                    "before the first card (MT-4.2)"
                )
            return "only the dealer names trump (MT-4.2)"
        name = CARD_NAMES[move.card]
        if v.trump_due:
            return f"you deal: name trump before the first card (MT-4.2), e.g. green, not {name}"
        cards = _cards([m.card for m in legal if isinstance(m, Play)])
        if move.card not in v.hand:
            free = len(legal) == len(v.hand)  # listing the whole hand again helps no one
            return f"you don't hold {name}; " + (
                "play any card you hold" if free else f"you may play {cards}"
            )
        lead = v.lead_colour
        assert lead is not None  # a leader may play any card it holds (MT-5.2)
        allowed = 0
        for m in legal:
            if isinstance(m, Play):
                allowed |= 1 << m.card
        # Worded from the legal moves, so it offers only what the player can do.
        what, rule, _ = must_play(allowed, lead, v.trump, v.ruffed, v.trump_after_ruff == "must")
        return f"you must {what} ({rule}): {cards}"

    def _help(self, v: MarshmallowView) -> None:
        ruff = (
            "must then play a trump if they hold one"
            if v.trump_after_ruff == "must"
            else "may then trump in instead of following"
        )
        self._say(
            "Cards are a colour letter and a number 1-12: R red, Y yellow, G green, B blue,\n"
            "P purple. Type g7 or G7 to play a card.\n"
            "- Follow the lead colour if you can (MT-5.3); if you can't, play any card.\n"
            "- The highest trump wins the trick, else the highest card of the lead colour.\n"
            f"- Once a player who could not follow has played a trump, later players\n"
            f"  {ruff} (MT-5.4).\n"
            "- No trump in round 1; from round 2 the dealer first names a colour:\n"
            "  type green, g or trump green (MT-4).\n"
            f"- Take {v.tricks_to_go_out} tricks to go out: you score one point per trick "
            "the others hold (MT-6).\n"
            "  The last player left in scores nothing and deals next (MT-7).\n"
            f"- The first to {v.target} points wins at once (MT-8).\n"
            f"Commands: hand (or Enter) redraws the table, {commands_help(self.game)}."
        )

    # ------------------------------------------------------------------ narration
    def _verb(self, seat: int, verb: str) -> str:
        """``verb`` agreeing with ``seat``'s name: "Bob plays" but "You play"."""
        if self.names[seat] != "You":
            return verb
        return {"is": "are", "goes": "go", "reaches": "reach"}.get(verb, verb.removesuffix("s"))

    def _short(self, seat: int) -> str:
        """The name without the bot level, so one-line summaries fit a line."""
        return self.names[seat].split(" (")[0]

    def _subject(self, seat: int, verb: str) -> str:
        return f"{self.names[seat]} {self._verb(seat, verb)}"

    def narrate(self, before: View, seat: int, move: Move, after: View) -> None:
        b, a = _mv(before), _mv(after)
        if self.seat is None and not self._shown:
            self.show(b)  # a spectator sees the table once before the first move
        say = self.console.print
        if isinstance(move, NameTrump):
            say(
                Text.assemble(
                    f"{self._subject(seat, 'names')} ", _colour(move.colour), " as trump."
                )
            )
            return
        assert isinstance(move, Play)
        say(Text.assemble(f"{self._subject(seat, 'plays')} ", _card(move.card), "."))
        trick = (*b.current_trick, (seat, move.card))
        if len(trick) < len(b.players_in):
            return
        best = dataclasses.replace(b, current_trick=trick).winning_card()
        assert best is not None
        winner, card = best
        taken = Text.assemble(f"{self._subject(winner, 'takes')} the trick with ", _card(card))
        went_out = b.trick_counts[winner] + 1 == b.tricks_to_go_out
        if went_out:
            # MT-6.2: one point per trick the others hold, this one excluded.
            points = len(b.tricks) - b.trick_counts[winner]
            taken.append(f" and {self._verb(winner, 'goes')} out: +{points}")
            taken.append(f" (total {b.scores[winner] + points})")
        say(taken.append("."))
        if a.finished:
            w = a.winners[0]
            won = f"{self._subject(w, 'reaches')} {a.scores[w]} and {self._verb(w, 'wins')}."
            self._say(won, "bold")
        elif a.round_number != b.round_number:
            self._round_over(b, a, winner if went_out else None)
        if self.seat is None and not a.finished:
            self._spectator_update(a, new_round=a.round_number != b.round_number)

    def _spectator_update(self, a: MarshmallowView, new_round: bool) -> None:
        """After each trick: the full table at a round's start, else one line,
        so a watched game stays a readable few hundred lines."""
        if new_round:
            self.console.print()
            self.show(a)
            return
        counts = [
            f"{self._short(s)} {a.trick_counts[s]}"
            + (f" (out +{a.round_points[s]})" if a.out[s] else "")
            for s in range(a.players)
        ]
        self._say("Tricks: " + ", ".join(counts), "dim")

    def _round_over(self, b: MarshmallowView, a: MarshmallowView, went_out: int | None) -> None:
        left = [s for s in b.players_in if s != went_out]
        names = [self.names[s] for s in left]
        deals = "no one deals" if a.dealer is None else self._subject(a.dealer, "deals")
        if len(left) == 1:  # MT-7.1
            last = left[0]
            how = f"{self._subject(last, 'is')} left in and {self._verb(last, 'scores')} nothing"
        else:  # MT-7.2: twelve tricks played with two or more still in
            how = f"hands are exhausted (MT-7.2): {_and(names)} score nothing"
        self._say(f"Round {b.round_number} over: {how}; {deals} next.", "bold")
        points = a.round_scores[b.round_number - 1]
        self._say(
            "Scores: "
            + ", ".join(f"{self._short(s)} {a.scores[s]} (+{points[s]})" for s in range(a.players))
        )

    def finish(self, view: View) -> None:
        v = _mv(view)
        table = Table(title="Final standings", box=box.SIMPLE_HEAD)
        table.add_column("#", justify="right")
        table.add_column("player")
        for r in range(len(v.round_scores)):
            table.add_column(f"R{r + 1}", justify="right")
        table.add_column("total", justify="right", style="bold")
        order = sorted(range(v.players), key=lambda s: -v.scores[s])
        for place, s in enumerate(order, start=1):
            rounds = [str(row[s]) for row in v.round_scores]
            table.add_row(str(place), Text(self.names[s]), *rounds, str(v.scores[s]))
        self.console.print(table)
        if v.winners:
            w = v.winners[0]
            self._say(
                f"Winner: {self.names[w]} with {v.scores[w]} points (target {v.target}).",
                "bold green",
            )
        else:
            self._say("The game did not finish; no winner.")
