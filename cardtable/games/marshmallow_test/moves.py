"""Moves of Marshmallow Test: playing a card and naming trump.

Every move is a precomputed singleton, so the engine never allocates one:
``PLAYS[card]`` and ``TRUMPS[colour]``; ``MOVES[index]`` spans the fixed
action space of 65 (``Play.index = card``, ``NameTrump.index = 60 + colour``).

>>> PLAYS[30], str(PLAYS[30]), PLAYS[30].to_json()
(Play.parse('G7'), 'G7', {'play': 'G7'})
>>> str(TRUMPS[2]), TRUMPS[2].to_json()
('trump green', {'trump': 'green'})
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.games.marshmallow_test.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    NUM_CARDS,
    NUM_COLOURS,
    parse_card,
    parse_colour,
)

NUM_ACTIONS = NUM_CARDS + NUM_COLOURS  # 65


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` to the current trick (MT-5)."""

    card: int

    @property
    def index(self) -> int:
        return self.card

    def __str__(self) -> str:
        return CARD_NAMES[self.card]

    def __repr__(self) -> str:
        return f"Play.parse({CARD_NAMES[self.card]!r})"

    def to_json(self) -> dict[str, str]:
        return {"play": CARD_NAMES[self.card]}

    @staticmethod
    def parse(text: str) -> Play:
        return PLAYS[parse_card(text)]


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The dealer names ``colour`` as trump for the round (MT-4.2)."""

    colour: int

    @property
    def index(self) -> int:
        return NUM_CARDS + self.colour

    def __str__(self) -> str:
        return f"trump {COLOUR_NAMES[self.colour]}"

    def __repr__(self) -> str:
        return f"NameTrump.parse({COLOUR_NAMES[self.colour]!r})"

    def to_json(self) -> dict[str, str]:
        return {"trump": COLOUR_NAMES[self.colour]}

    @staticmethod
    def parse(text: str) -> NameTrump:
        return TRUMPS[parse_colour(text)]


MTMove = Play | NameTrump

PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(NUM_CARDS))
TRUMPS: tuple[NameTrump, ...] = tuple(NameTrump(c) for c in range(NUM_COLOURS))
MOVES: tuple[MTMove, ...] = (*PLAYS, *TRUMPS)


def move_from_index(index: int) -> MTMove:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"no move has index {index!r}: indices are 0-{NUM_ACTIONS - 1}")
    return MOVES[index]


def parse_move(text: str) -> MTMove:
    """A move in terminal notation: ``g7``, ``G7`` or ``G 7`` plays a card;
    ``green`` or ``trump green`` (or ``trump g``) names trump.

    >>> parse_move("G 10") == parse_move("g10") == PLAYS[33]
    True
    """
    if not isinstance(text, str):
        raise ValueError(f"a move is text like 'G7' or 'trump green', not {text!r}")
    words = text.strip().lower().split()
    if len(words) == 2 and words[1].isdigit() and words[0] != "trump":
        words = [words[0] + words[1]]  # "G 10": a card written with a space
    if len(words) == 2 and words[0] == "trump":
        try:
            return TRUMPS[parse_colour(words[1])]
        except ValueError:
            raise ValueError(
                f"unknown colour {words[1]!r} in {text!r}: name one of {', '.join(COLOUR_NAMES)}"
            ) from None
    if len(words) == 1:
        word = words[0]
        if word in COLOUR_NAMES:
            return TRUMPS[COLOUR_NAMES.index(word)]
        try:
            return PLAYS[parse_card(word)]
        except ValueError:
            pass
    raise ValueError(
        f"cannot read {text!r} as a move: play a card like 'G7' (R, Y, G, B, P and 1-12) "
        f"or name trump like 'trump green' ({', '.join(COLOUR_NAMES)})"
    )
