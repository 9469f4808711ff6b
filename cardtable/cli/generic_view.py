"""Any game's view, read without knowing the game, as a few lines a person reads.

The terminal's counterpart of the browser's ``generic-view.js``: each field of
the view JSON is read by its shape (the seat's own hand, one value per seat, a
trick of ``[seat, card]`` pairs, piles of cards, rows of round scores, plain
facts, nested sections), so a plugin game without a terminal UI of its own is
shown as a table is seen: the hand, the cards in play, the piles, the scores.
Only the view is read, so nothing is shown that the seat may not see.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

# Said on the first line (round) or by the loop and the prompt (turn, end),
# not as fields of their own.
OWN_WAY = frozenset({"seat", "players", "to_move", "finished", "winners", "hand"})
ROUND_KEYS = ("round_number", "round")
# A long history or score sheet shows only its latest entries.
LATEST = 3


def view_lines(view: dict[str, Any], names: Sequence[str], seat: int | None) -> list[str]:
    """The view of ``seat`` (``None``: a spectator's) as lines: the round, the
    seat's hand, then every other field in the view's own order
    (``hand_sizes: [2, 3]`` reads "Hand sizes: Ann 2 · Bob 3")."""
    players = len(names)
    lines = []
    round_number = next((view[k] for k in ROUND_KEYS if isinstance(view.get(k), int)), None)
    if round_number is not None:
        lines.append(f"Round {round_number}")
    hand = view.get("hand")
    if seat is not None and isinstance(hand, list) and all(_is_card(c) for c in hand):
        lines.append(f"Your hand: {_cards(hand)}")
    skip = OWN_WAY.union(ROUND_KEYS)
    for key, value in view.items():
        if key not in skip:
            lines += _field_lines(key, value, names, players, "")
    return lines


def name_seats(text: str, names: Sequence[str], own: int | None = None) -> str:
    """An engine's words with each "seat N" (a seat's number from 0, as the
    engines write it) replaced by the name the table uses for that seat, and
    the reader's ``own`` seat by "your seat" (the engines write in the third
    person, so a name keeps the sentence whole where "you" would not)."""

    def named(found: re.Match[str]) -> str:
        seat = int(found[1])
        if seat == own:
            return "your seat"
        return names[seat] if seat < len(names) else found[0]

    return re.sub(r"\bseat (\d+)\b", named, text)


def words_of(key: str) -> str:
    """``hand_sizes`` and ``handSizes`` read "Hand sizes"."""
    words = re.sub(r"[_-]+", " ", re.sub(r"([a-z])([A-Z])", r"\1 \2", key)).strip().lower()
    return words[:1].upper() + words[1:]


def notation(value: Any) -> str:
    """A JSON value as it reads: ``{"play": 30, "direction": "down"}`` is
    "play 30, direction down", ``{"draw": true}`` is "draw"."""
    if value is None or value is False:
        return ""
    if isinstance(value, list):
        return " ".join(filter(None, map(notation, value)))
    if isinstance(value, dict):
        parts = (
            key if item is True else f"{key} {notation(item)}"
            for key, item in value.items()
            if item is not False and item is not None
        )
        return ", ".join(parts)
    return str(value)


def _field_lines(
    key: str, value: Any, names: Sequence[str], players: int, indent: str
) -> list[str]:
    label = f"{indent}{words_of(key)}:"
    if isinstance(value, dict):
        return [label] + [
            line
            for sub, item in value.items()
            for line in _field_lines(sub, item, names, players, indent + "  ")
        ]
    if not isinstance(value, list):
        return [f"{label} {_fact(value)}"]
    if not value:
        return [f"{label} none"]
    if len(value) == players and all(_is_count(v) for v in value):
        return [f"{label} {_per_seat(value, names)}"]
    plays = [_play(item, players) for item in value]
    if all(p is not None for p in plays):
        return [f"{label} {_plays(plays, names)}"]
    if all(c is None or _is_card(c) for c in value):
        return [f"{label} {_cards(value)}"]
    if all(isinstance(row, list) for row in value):
        return _lists(label, value, names, players)
    if all(isinstance(item, dict) for item in value):
        latest = "; ".join(notation(item) for item in value[-LATEST:])
        return [f"{label} {len(value)} in all, latest: {latest}"]
    return [f"{label} {notation(value)}"]


def _lists(label: str, rows: list[list[Any]], names: Sequence[str], players: int) -> list[str]:
    """Rows of a score sheet, lists of tricks, or a pile per seat."""
    if all(len(r) == players and all(isinstance(v, int | float) for v in r) for r in rows):
        first = len(rows) - min(LATEST, len(rows))
        return [label] + [
            f"  round {n + 1}: {_per_seat(row, names)}" for n, row in enumerate(rows) if n >= first
        ]
    groups = [[_play(item, players) for item in row] for row in rows]
    if all(p is not None for group in groups for p in group):
        return [f"{label} {len(rows)}, the last: {_plays(groups[-1], names)}"]
    if len(rows) == players:
        return [f"{label} {_per_seat([_cards(r) for r in rows], names)}"]
    return [f"{label} " + " | ".join(_cards(r) for r in rows)]


def _fact(value: Any) -> str:
    if value is None:
        return "—"
    if value is True or value is False:
        return "yes" if value else "no"
    return str(value)


def _per_seat(values: Sequence[Any], names: Sequence[str]) -> str:
    return " · ".join(f"{name} {_fact(v)}" for name, v in zip(names, values, strict=True))


def _cards(cards: Sequence[Any]) -> str:
    # A null is a card not known (face down) or an empty place.
    return " ".join("▒" if c is None else str(c) for c in cards) if cards else "none"


def _plays(plays: Sequence[Any], names: Sequence[str]) -> str:
    return " · ".join(f"{names[seat]} {card}" for seat, card in plays)


def _play(item: Any, players: int) -> tuple[int, Any] | None:
    """A play is ``[seat, "card"]`` or ``{"seat": s, "card": c, …}``."""
    if isinstance(item, list) and len(item) == 2 and _is_seat(item[0], players):
        return (item[0], item[1]) if isinstance(item[1], str) else None
    if (
        isinstance(item, dict)
        and _is_seat(item.get("seat"), players)
        and _is_card(item.get("card"))
    ):
        return item["seat"], item["card"]
    return None


def _is_seat(value: Any, players: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players


def _is_card(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _is_count(value: Any) -> bool:
    return isinstance(value, int | float)
