"""The rules of one trick (MT-5), each defined once: strength, winner, ruff,
the voids plays reveal, and what a player who may not play a card must do.

The engine (:mod:`.state`), views, bots, the terminal and the observation
encoders all import these; the engine's hot path reads the precomputed
:data:`STRENGTH` table, built from :func:`card_strength`.

>>> from cardtable.games.marshmallow_test.cards import GREEN, RED, parse_card
>>> r5, r12, g1 = parse_card("R5"), parse_card("R12"), parse_card("G1")
>>> card_strength(r12, RED, GREEN), card_strength(g1, RED, GREEN)
(12, 101)
>>> trick_winner(((0, r5), (1, r12), (2, g1)), GREEN) == (2, g1)
True
>>> shown_voids(((0, r5), (1, g1), (2, r12)), GREEN, must=False)
[(1, 0)]
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.games.marshmallow_test.cards import (
    COLOUR_MASKS,
    COLOUR_NAMES,
    COLOUR_OF,
    HAND_SIZE,
    NUM_CARDS,
    NUM_COLOURS,
    NUMBER_OF,
)

__all__ = [
    "STRENGTH",
    "TRICKS_PER_ROUND",
    "TRUMP_BONUS",
    "card_strength",
    "has_ruff",
    "must_play",
    "shown_voids",
    "trick_winner",
]

#: Added to a trump's number: numbers are 1-12, so any trump beats any card
#: of the lead colour (MT-5.6).
TRUMP_BONUS = 100
TRICKS_PER_ROUND = HAND_SIZE  # 12 tricks empty every hand (MT-7.2)

PlayedCard = tuple[int, int]  # (seat, card)


def card_strength(card: int, lead: int, trump: int | None) -> int:
    """How strongly ``card`` plays in a trick whose lead colour is ``lead``
    (MT-5.6): a trump its number plus :data:`TRUMP_BONUS`, a card of the lead
    colour its number, any other card -1 (it never wins). ``trump`` is
    ``None`` (or -1) when there is none (MT-4.1)."""
    colour = COLOUR_OF[card]
    if colour == trump:
        return NUMBER_OF[card] + TRUMP_BONUS
    return NUMBER_OF[card] if colour == lead else -1


#: ``STRENGTH[trump][lead][card] == card_strength(card, lead, trump)``. The
#: last entry is "no trump", so an engine writing no trump as -1 indexes it
#: directly (``STRENGTH[-1]``).
STRENGTH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(card_strength(c, lead, trump) for c in range(NUM_CARDS))
        for lead in range(NUM_COLOURS)
    )
    for trump in (*range(NUM_COLOURS), None)
)


def trick_winner(trick: Sequence[PlayedCard], trump: int | None) -> PlayedCard:
    """The (seat, card) winning a non-empty ``trick`` so far (MT-5.6, MT-5.7):
    the highest trump, else the highest card of the colour led."""
    lead = COLOUR_OF[trick[0][1]]
    return max(trick, key=lambda played: card_strength(played[1], lead, trump))


def has_ruff(trick: Sequence[PlayedCard], trump: int | None) -> bool:
    """Whether a trump lies in ``trick`` while the colour led is not trump:
    a ruff, after which MT-5.4 changes what later players may play."""
    if not trick or trump is None:
        return False
    lead = COLOUR_OF[trick[0][1]]
    return lead != trump and any(COLOUR_OF[card] == trump for _, card in trick)


def shown_voids(
    trick: Sequence[PlayedCard], trump: int | None, must: bool
) -> list[tuple[int, int]]:
    """What one trick's plays prove about the players' hands, as
    ``(seat, colour)`` pairs: ``seat`` held no card of ``colour`` when it
    played (so holds none now, and held none it discarded later).

    ``trick`` is (seat, card) pairs in play order (a finished trick or the
    one in progress); ``trump`` the round's trump or ``None``; ``must`` is
    ``trump_after_ruff == "must"``. The facts, in play order:

    * before any ruff, a card off the colour led shows a void in it (MT-5.3);
    * after a ruff (``may``, MT-5.4), a trump proves nothing, since one may
      trump in while holding the colour led, but any other card off that
      colour still shows a void in it;
    * after a ruff under ``must`` (MT-5.4 variant), a card that is not a
      trump shows a void in trump, and nothing about the colour led.
    """
    if not trick:
        return []
    t = -1 if trump is None else trump
    lead = COLOUR_OF[trick[0][1]]
    facts: list[tuple[int, int]] = []
    ruff = False
    for seat, card in trick[1:]:
        colour = COLOUR_OF[card]
        if not ruff:
            if colour != lead:
                facts.append((seat, lead))  # MT-5.3: could not follow
                ruff = colour == t  # MT-5.4: the first trump off a non-trump lead
        elif must:
            if colour != t:
                facts.append((seat, t))  # MT-5.4 [must]: held no trump
        elif colour != lead and colour != t:
            facts.append((seat, lead))  # MT-5.4: neither followed nor trumped in
    return facts


def must_play(
    allowed: int, lead: int, trump: int | None, is_ruffed: bool, must: bool
) -> tuple[str, str, str]:
    """What a player must do instead of a card they hold but may not play,
    in words, the rule, and the refusal's key (its name for a catalog):
    ``("follow red", "MT-5.3", "MT-5.3.follow")``.

    ``allowed`` is the 60-bit mask of the cards the player may play (their
    legal moves), ``lead`` the colour led, ``is_ruffed`` whether the trick
    holds a ruff and ``must`` whether ``trump_after_ruff`` is ``"must"``.
    The words name only what ``allowed`` offers: trumping in is mentioned only
    to a player who holds a trump.
    """
    if is_ruffed and must and trump is not None:
        return "play a trump after the ruff", "MT-5.4", "MT-5.4.trump-after-ruff"  # [variant must]
    if is_ruffed and trump is not None and allowed & COLOUR_MASKS[trump]:
        return (
            f"follow {COLOUR_NAMES[lead]} or trump in with {COLOUR_NAMES[trump]}",
            "MT-5.4",
            "MT-5.4.follow-or-trump",
        )
    return f"follow {COLOUR_NAMES[lead]}", "MT-5.3", "MT-5.3.follow"
