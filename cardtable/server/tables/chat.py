"""Table chat: what a line is, which text is accepted, and who sees which channel.

Two channels, as on Board Game Arena: seated players talk in ``players``,
spectators in ``spectators``. Spectators read both; players read only their
own, so a spectator cannot whisper to a player what it sees from the rail
(a spectator sees no hidden card, but it may see the table longer than a
player who just arrived). A line is free text (at most :data:`MAX_CHARS`
characters after NFC, no control characters) or a quick phrase named by its
catalog key, which every reader sees in their own language.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from cardtable.server.wire import BadInput

MAX_CHARS = 200
#: Lines a table keeps in memory: what a client is sent when it (re)connects.
HISTORY = 100
#: The quick phrases, by the key their words have in the catalogs (``chat.phrase.KEY``).
PHRASES = ("gg", "wp", "sorry", "thinking")
PLAYERS, SPECTATORS = "players", "spectators"
# Unicode categories refused in a line: control characters (newlines and tabs
# included: a line is one line), unpaired surrogates, line and paragraph
# separators. Format characters are refused only where they reorder or hide
# text (bidirectional overrides); joiners stay, emoji sequences need them.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
_BIDI_CONTROLS = frozenset(
    [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)), "\u200e", "\u200f"]
)


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line said at a table. ``seat`` is ``None`` for a spectator;
    ``move`` is how many moves the game had when it was said (the replay
    shows it from that step on). A line an operator ``removed`` keeps its
    place and speaker but no words: nobody is sent them again."""

    n: int  # 0, 1, 2… in the order the table stored them
    channel: str  # PLAYERS or SPECTATORS
    seat: int | None
    name: str | None  # the seat's name, a signed-in spectator's account; None: a guest
    text: str | None  # free text, or None for a quick phrase
    phrase: str | None  # a key of PHRASES, or None for free text
    move: int
    at_ms: int
    removed: bool = False

    def without_words(self) -> ChatLine:
        """This line as removed by an operator."""
        return replace(self, text=None, phrase=None, removed=True)

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "channel": self.channel,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "phrase": self.phrase,
            "move": self.move,
            "at_ms": self.at_ms,
            "removed": self.removed,
        }


def channel_of(seat: int | None) -> str:
    """The channel a client at ``seat`` speaks in."""
    return SPECTATORS if seat is None else PLAYERS


def may_read(seat: int | None, channel: str) -> bool:
    """Whether a client at ``seat`` (``None``: a spectator) reads ``channel``."""
    return seat is None or channel == PLAYERS


def checked_text(text: str) -> str:
    """``text`` as it is stored (NFC, outer spaces trimmed), or :class:`BadInput` saying why not."""
    text = unicodedata.normalize("NFC", text).strip()
    if len(text) > MAX_CHARS:
        raise BadInput(
            f"message.text has {len(text)} characters; a chat line holds at most {MAX_CHARS}"
        )
    for i, char in enumerate(text):
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BIDI_CONTROLS:
            raise BadInput(
                f"message.text holds a control character (U+{ord(char):04X}) at position"
                f" {i + 1}; a chat line is plain text on one line"
            )
    # Nothing, or only spaces and joiners (each allowed in a line): nothing anybody could read.
    if all(unicodedata.category(char)[0] in "ZC" for char in text):
        raise BadInput("message.text is empty: write something, or choose a quick phrase")
    return text


def checked_phrase(phrase: str) -> str:
    if phrase not in PHRASES:
        raise BadInput(
            f"message.phrase {phrase[:40]!r} is no quick phrase; choose one of {', '.join(PHRASES)}"
        )
    return phrase


def reporter_key(seat: int | None, account: str | None, address: str) -> str:
    """Who reports, as the reports table keys it: a seat of the table, a
    signed-in spectator's account, or a guest spectator's address."""
    if seat is not None:
        return f"seat:{seat}"
    if account is not None:
        return f"account:{account}"
    return f"address:{address}"
