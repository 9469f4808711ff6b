"""Cards of Marshmallow Test (MT-1.1): ints ``0 … 59`` with named helpers.

A card is ``colour * 12 + (number - 1)``; colours are numbered in the spec's
order red, yellow, green, blue, purple. Hands are 60-bit masks (bit ``card``),
so one colour of a hand is the 12-bit field ``(hand >> 12 * colour) & 0xFFF``.

>>> format_card(parse_card("g12"))
'G12'
>>> format_card(0), format_card(59)
('R1', 'P12')
"""

from __future__ import annotations

from collections.abc import Iterable

NUM_CARDS = 60
NUM_COLOURS = 5
CARDS_PER_COLOUR = 12
HAND_SIZE = 12  # MT-3.1

COLOUR_NAMES: tuple[str, ...] = ("red", "yellow", "green", "blue", "purple")
COLOUR_LETTERS: tuple[str, ...] = ("R", "Y", "G", "B", "P")
RED, YELLOW, GREEN, BLUE, PURPLE = range(NUM_COLOURS)

COLOUR_MASK = 0xFFF  # one colour's 12 bits, after shifting
FULL_DECK = (1 << NUM_CARDS) - 1

#: Per-card lookup tables (the engine's hot path reads these, never divides).
COLOUR_OF: tuple[int, ...] = tuple(c // CARDS_PER_COLOUR for c in range(NUM_CARDS))
NUMBER_OF: tuple[int, ...] = tuple(c % CARDS_PER_COLOUR + 1 for c in range(NUM_CARDS))
BIT: tuple[int, ...] = tuple(1 << c for c in range(NUM_CARDS))
#: Where each colour's 12 bits start in a hand mask, and each colour's 60-bit mask.
COLOUR_SHIFT: tuple[int, ...] = tuple(CARDS_PER_COLOUR * c for c in range(NUM_COLOURS))
COLOUR_MASKS: tuple[int, ...] = tuple(COLOUR_MASK << shift for shift in COLOUR_SHIFT)
CARD_NAMES: tuple[str, ...] = tuple(
    f"{COLOUR_LETTERS[COLOUR_OF[c]]}{NUMBER_OF[c]}" for c in range(NUM_CARDS)
)
_CARD_BY_NAME: dict[str, int] = {name: c for c, name in enumerate(CARD_NAMES)}
_COLOUR_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(COLOUR_NAMES)}


def card(colour: int, number: int) -> int:
    """The card of ``colour`` (0–4) and ``number`` (1–12)."""
    if not (0 <= colour < NUM_COLOURS and 1 <= number <= CARDS_PER_COLOUR):
        raise ValueError(f"no card of colour {colour} and number {number}")
    return colour * CARDS_PER_COLOUR + number - 1


def format_card(c: int) -> str:
    """``"G12"``: colour letter + number, upper case (MT-1.1)."""
    return CARD_NAMES[c]


def parse_card(text: str) -> int:
    """A card from ``"G12"`` or ``"g12"``; ValueError names what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"a card is written like 'G12', not {text!r}")
    c = _CARD_BY_NAME.get(text.strip().upper())
    if c is None:
        raise ValueError(f"unknown card {text!r}: a card is R, Y, G, B or P and a number 1-12")
    return c


def is_card_name(text: object) -> bool:
    return isinstance(text, str) and text.strip().upper() in _CARD_BY_NAME


def format_colour(colour: int) -> str:
    return COLOUR_NAMES[colour]


def parse_colour(text: str) -> int:
    """A colour from its name or letter, any case (``"green"``, ``"G"``)."""
    if not isinstance(text, str):
        raise ValueError(f"a colour is one of {', '.join(COLOUR_NAMES)}, not {text!r}")
    key = text.strip().lower()
    if key in _COLOUR_BY_NAME:
        return _COLOUR_BY_NAME[key]
    letters = [letter.lower() for letter in COLOUR_LETTERS]
    if key in letters:
        return letters.index(key)
    raise ValueError(f"unknown colour {text!r}: one of {', '.join(COLOUR_NAMES)}")


def mask_of(cards: Iterable[int]) -> int:
    """The 60-bit mask of some cards."""
    mask = 0
    for c in cards:
        mask |= BIT[c]
    return mask


def cards_of(mask: int) -> tuple[int, ...]:
    """The cards of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def format_cards(cards: Iterable[int]) -> str:
    """``"R4, R9"``: cards in order, as error messages list them."""
    return ", ".join(CARD_NAMES[c] for c in cards)
