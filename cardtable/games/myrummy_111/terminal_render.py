"""Drawing MyRummy 111 for the terminal, from views only (MR-5).

Everything here is a pure function of a :class:`MyRummyView` (plus names and,
for the person's own face-down takes, cards the person saw), so the table can
show nothing a seat may not see. :mod:`cardtable.games.myrummy_111.terminal` reads
input and decides what to draw when.

A hand is drawn as three rows: the cards, their joker symbols (★ each) and the
insertion positions 0 … h *between* the cards, where ``place P`` puts a card:

>>> from rich.console import Console
>>> from cardtable.games.myrummy_111.cards import DEFAULT_SYMBOLS, symbol_lookup
>>> console = Console(width=80, color_system=None)
>>> console.print(hand_rows((52, 53, 105, 13), symbol_lookup(DEFAULT_SYMBOLS)))
card    52   53  105   13
        ★★    ★  ★★★    ★
pos  0    1    2    3    4
best   ━━━━━━━━━━━━━ 6★
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from functools import cache

from rich.console import Group
from rich.text import Text

from cardtable.games.myrummy_111.cards import symbol_lookup
from cardtable.games.myrummy_111.scoring import best_run, declaration_score, is_sorted
from cardtable.games.myrummy_111.view import Event, MyRummyView, PlaceEvent, TakeEvent

STAR = "★"
CELL = 5  # columns per card: a space, the number right-aligned in 3, a space
LEFT = 6  # columns of the row labels
BEST_STYLE = "bold green underline"
BLOCK_STYLES = ("cyan", "magenta")  # alternate, so neighbouring blocks differ


@cache
def symbols_of(table: tuple[int, ...]) -> tuple[int, ...]:
    """The lookup by card value; cached because views share one options table."""
    return symbol_lookup(table)


def sym(view: MyRummyView) -> tuple[int, ...]:
    return symbols_of(view.options.symbols)


def card_str(card: int, symbols: Sequence[int]) -> str:
    """``57★★``: the number and one star per joker symbol."""
    return f"{card}{STAR * symbols[card]}"


def short(name: str) -> str:
    """``Bob (medium)`` -> ``Bob``: narration reads better without the bot level."""
    return name.split(" (", 1)[0]


# ------------------------------------------------------------------ hand runs
def sorted_blocks(hand: Sequence[int]) -> list[tuple[int, int, bool]]:
    """The maximal sorted blocks (MR-6.1/6.3) as ``(first, last, rising)`` indices.

    Cards are distinct, so each adjacent pair rises or falls and the maximal
    blocks are the stretches of pairs going the same way (neighbours share a card).

    >>> sorted_blocks([3, 5, 9, 4, 2, 7])
    [(0, 2, True), (2, 4, False), (4, 5, True)]
    """
    blocks: list[tuple[int, int, bool]] = []
    for rising, group in itertools.groupby(
        range(len(hand) - 1), key=lambda i: hand[i] < hand[i + 1]
    ):
        pairs = list(group)
        blocks.append((pairs[0], pairs[-1] + 1, rising))
    return blocks


def best_block(hand: Sequence[int], symbols: Sequence[int]) -> tuple[int, int, int]:
    """``(first, last, value)`` of the first best run; the value is the rule's
    own :func:`best_run` (a best run is always a maximal block: symbols are positive)."""
    value = best_run(hand, symbols)
    if len(hand) == 1:
        return 0, 0, value
    for first, last, _ in sorted_blocks(hand):
        if sum(symbols[c] for c in hand[first : last + 1]) == value:
            return first, last, value
    raise AssertionError("best_run must be a maximal sorted block")  # pragma: no cover


def hand_rows(hand: Sequence[int], symbols: Sequence[int], new_at: int | None = None) -> Text:
    """Cards, stars, positions between the cards and the best run underlined.

    Maximal sorted blocks of 3+ cards are coloured, the best run is bold green;
    ``new_at`` (a preview's inserted card) is shown reversed."""
    first, last, value = best_block(hand, symbols)
    styles = [""] * len(hand)
    for k, (a, b, _) in enumerate(b for b in sorted_blocks(hand) if b[1] - b[0] >= 2):
        for i in range(a, b + 1):
            styles[i] = BLOCK_STYLES[k % 2]
    for i in range(first, last + 1):
        styles[i] = BEST_STYLE
    cards, stars = Text("card".ljust(LEFT)), Text(" " * LEFT)
    for i, card in enumerate(hand):
        style = styles[i] + (" reverse" if i == new_at else "")
        cards.append(" ")
        cards.append(f"{card:>3}", style=style.strip())
        cards.append(" ")
        stars.append(f" {STAR * symbols[card]:>3}".ljust(CELL), style="yellow")
    positions = Text("pos".ljust(LEFT - 2))
    for p in range(len(hand) + 1):
        positions.append(f"{p:>2}".ljust(CELL) if p < len(hand) else f"{p:>2}", style="dim")
    start, end = LEFT + CELL * first + 1, LEFT + CELL * last + 4
    bar = Text("best".ljust(start) + "━" * (end - start), style="green")
    bar.append(f" {value}{STAR}", style="bold")  # right after the bar: 14 cards fit 80 columns
    cards.rstrip()
    stars.rstrip()
    return Text("\n").join([cards, stars, positions, bar])


def hand_verdict(hand: Sequence[int], symbols: Sequence[int]) -> str:
    """Whether the hand is sorted (MR-6.1) and what it is worth (MR-6.2/6.3)."""
    value = best_run(hand, symbols)
    if is_sorted(hand):
        way = "up ↑" if hand[0] < hand[-1] else "down ↓"
        total = declaration_score(symbols[c] for c in hand)
        return f"sorted {way}: declaring scores {total}{STAR} (all joker symbols + 5)"
    first, last, _ = best_block(hand, symbols)
    run = f"{hand[first]}…{hand[last]}, {last - first + 1} cards"
    return f"unsorted; best run {value}{STAR} ({run})"


# -------------------------------------------------------------- event phrases
def label(card: int, symbols: Sequence[int] | None) -> str:
    """The card with its stars, or its bare number where space is short."""
    return str(card) if symbols is None else card_str(card, symbols)


def take_phrase(event: TakeEvent, symbols: Sequence[int] | None, seen: int | None) -> str:
    """``took the face-up 57 from slot 2``. ``seen`` is a face-down card the
    watching seat saw itself (its own take), never anyone else's."""
    refresh = ""
    if event.refresh:
        refresh = "refreshed the middle"
        if event.reshuffled:
            refresh += " (draw pile low: the discards were shuffled under it)"
        refresh += " and "
    if event.card is not None:
        return f"{refresh}took the face-up {label(event.card, symbols)} from slot {event.slot}"
    if seen is not None:
        return f"{refresh}took {label(seen, symbols)} (face down) from slot {event.slot}"
    return f"{refresh}took slot {event.slot} (face down)"


def place_phrase(event: PlaceEvent, symbols: Sequence[int] | None, what: str = "it") -> str:
    """``put it at position 4, discarded 33`` (the side is named for ``far`` only:
    the position already says which neighbour went)."""
    gone = label(event.card, symbols)
    return place_words(what, event.position, event.discard, gone, event.declare)


def place_words(
    what: str, position: int, discard: str, gone: str, declare: bool, declares: str = "declares"
) -> str:
    text = f"put {what} at position {position}, discarded {gone}"
    text += " (far)" if discard == "far" else ""
    return text + f" and {declares}!" if declare else text


def turn_lines(
    view: MyRummyView,
    names: Sequence[str],
    seen: Mapping[int, int],
    limit: int,
) -> list[str]:
    """The last ``limit`` turns of the round, one line each, from the public
    history; ``seen`` maps history indices of the watching seat's face-down
    takes to the card it saw."""
    symbols = None  # the table's log is compact: numbers without stars
    lines: list[str] = []
    history: Sequence[Event] = view.history
    for i, event in enumerate(history):
        if isinstance(event, TakeEvent):
            who = "You" if event.seat == view.seat else short(names[event.seat])
            lines.append(f"{who} {take_phrase(event, symbols, seen.get(i))}")
        else:
            lines[-1] += f", {place_phrase(event, symbols)}"
    if history and isinstance(history[-1], TakeEvent):
        lines[-1] += " …"
    return lines[-limit:]


# ---------------------------------------------------------------------- table
def header(view: MyRummyView, names: Sequence[str]) -> Text:
    opts = view.options
    text = Text(f"MyRummy 111 · round {view.round_number}", style="bold")
    text.append(f" of {opts.rounds}" if opts.rounds else f" · first to {opts.target} wins")
    turn = view.turns_in_round + (0 if view.finished else 1)
    text.append(f" · turn {turn}" + (f" of {opts.turn_limit}" if opts.turn_limit else ""))
    text.append("\nScores  ")
    for seat, name in enumerate(names):
        mark = "▶ " if seat == view.to_move else "  "
        style = "bold" if seat == view.seat else ""
        text.append(f"{mark}{name} {view.scores[seat]}", style=style)
        text.append("   ")
    return text


def middle_row(view: MyRummyView) -> Text:
    symbols = sym(view)
    text = Text("Middle  ")
    for slot, card in enumerate(view.middle):
        text.append(f"[{slot}] ", style="bold")
        if slot == view.taken_slot:
            text.append("(taken)", style="dim")
        elif card is None:
            text.append("▒▒ face down", style="dim")
        else:
            text.append(card_str(card, symbols), style="bold yellow")
        text.append("   ")
    top = view.discard_pile[0] if view.discard_pile else None
    text.append(f"\nDraw pile {view.draw_size} · discard pile {view.discard_size}")
    if top is not None:
        text.append(f", top {card_str(top, symbols)}")
    return text


def others_known(view: MyRummyView, names: Sequence[str]) -> list[Text]:
    """MR-8: each other hand as the public history reveals it (· = unknown)."""
    rows = []
    for seat, known in enumerate(view.known):
        if seat == view.seat or all(c is None for c in known):
            continue
        cards = " ".join("·" if c is None else str(c) for c in known)
        label = f"{short(names[seat])}'s cards by position (· unknown): {cards}"
        rows.append(Text(label, style="dim"))
    return rows


def table(view: MyRummyView, names: Sequence[str], seen: Mapping[int, int], log: int = 5) -> Group:
    """The whole table as the view's seat sees it."""
    parts: list[Text] = [header(view, names), middle_row(view)]
    recent = turn_lines(view, names, seen, log)
    if recent:
        parts.append(Text("Recent turns:\n  " + "\n  ".join(recent), style="italic"))
    parts.extend(others_known(view, names))
    if view.hand is not None:
        symbols = sym(view)
        parts.append(Text("Your hand", style="bold"))
        parts.append(hand_rows(view.hand, symbols))
        parts.append(Text(f"Your hand is {hand_verdict(view.hand, symbols)}."))
    return Group(*parts)


def standings(view: MyRummyView, names: Sequence[str]) -> Text:
    """Rounds by seat, totals and the winners with MR-7.1's tie-break."""
    width = max(6, *(len(n) for n in names)) + 2
    text = Text("round".ljust(7) + "".join(n.rjust(width) for n in names) + "\n", style="bold")
    for r, row in enumerate(view.round_scores, start=1):
        text.append(f"{r:<7}" + "".join(str(p).rjust(width) for p in row) + "\n")
    text.append("total".ljust(7) + "".join(str(p).rjust(width) for p in view.scores), "bold")
    if not view.winners:
        return text
    top = max(view.scores)
    tied = [s for s, t in enumerate(view.scores) if t == top]
    won = " and ".join(names[s] for s in view.winners)
    text.append(f"\nWinner{'s' if len(view.winners) > 1 else ''}: {won} with {top}{STAR}.")
    if len(tied) > 1 and view.round_scores:
        last = view.round_scores[-1]
        scored = ", ".join(f"{short(names[s])} {last[s]}" for s in tied)
        how = "shared: the last round ties too" if len(view.winners) > 1 else "won it"
        text.append(f"\nTie on {top}: broken by the last round ({scored}) — {how} (MR-7.1).")
    return text
