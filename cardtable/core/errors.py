"""The error family of cardtable.

Every error a user can cause subclasses :class:`ValueError` (as python-chess
does), so callers can catch them plainly, and carries the facts a message
needs: the rule broken, or the place in a record or option list that is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

#: A value of a refusal's parameters: a seat or a number, a card's or a
#: colour's name in the game's notation, or a list of card names. Plain JSON,
#: so the server sends them as they are and a client words them.
RefusalParam = int | str | list[str]


class Refusal(NamedTuple):
    """Why the rules refuse a move: the facts of an :class:`IllegalMoveError`,
    as a value. A game's rule checks return these rather than errors, so
    judging a whole action space builds no exception per action; whoever
    raises makes the error with :meth:`IllegalMoveError.from_refusal`.

    ``key`` and ``params`` name the kind of refusal and its facts for a
    reader in any language; the built-in games give them, a plugin may give
    only the words.

    >>> Refusal("must follow red: holds R4", "MT-5.3", key="MT-5.3.follow",
    ...         params={"lead": "red", "cards": ["R4"]}).rule
    'MT-5.3'
    """

    reason: str
    rule: str
    key: str | None = None
    params: Mapping[str, RefusalParam] | None = None


class CardtableError(ValueError):
    """Base class of every error cardtable raises for bad input.

    Errors pickle to equal errors (arena and server workers send them back to
    their parent), whatever arguments a subclass's ``__init__`` takes:

    >>> import pickle
    >>> e = RecordError("rounds[0]", "missing (required)", round=1)
    >>> pickle.loads(pickle.dumps(e)) == e
    True
    """

    def __reduce__(self) -> tuple[object, ...]:
        # The default pickles ``args`` and calls ``cls(*args)``, which breaks
        # for any ``__init__`` that builds its message from other arguments.
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, CardtableError)
            and other.args == self.args
            and other.__dict__ == self.__dict__
        )

    def __hash__(self) -> int:
        return hash((type(self), self.args))


def _rebuild(
    cls: type[CardtableError], args: tuple[object, ...], state: dict[str, object]
) -> CardtableError:
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class OptionError(CardtableError):
    """A game option is unknown, of the wrong type or out of range."""

    def __init__(self, option: str, reason: str) -> None:
        self.option = option
        self.reason = reason
        super().__init__(f"option {option!r}: {reason}")


class IllegalMoveError(CardtableError):
    """A well-formed move that the rules forbid at this point.

    ``reason`` states the facts in one sentence (``must follow red: holds R4,
    R9``) and ``rule`` names the rule it breaks (``MT-5.3``); ``str()`` joins
    them the way ``cardtable replay`` prints them.

    ``key`` and ``params`` say the same for a reader in any language: a
    stable name of this kind of refusal (``MT-5.3.follow``) and the facts
    its words need (``{"lead": "red", "cards": ["R4", "R9"]}``), which a
    client's catalog words. A plugin's error may give neither (``None``); a
    client then shows ``reason``.

    >>> e = IllegalMoveError("must follow red: holds R4", "MT-5.3", "MT-5.3.follow",
    ...                      {"lead": "red", "cards": ["R4"]})
    >>> str(e), e.key, e.params["lead"]
    ('must follow red: holds R4 (MT-5.3)', 'MT-5.3.follow', 'red')
    """

    def __init__(
        self,
        reason: str,
        rule: str,
        key: str | None = None,
        params: Mapping[str, RefusalParam] | None = None,
    ) -> None:
        self.reason = reason
        self.rule = rule
        self.key = key
        self.params = dict(params) if params else {}
        super().__init__(f"{reason} ({rule})")

    @classmethod
    def from_refusal(cls, refusal: Refusal) -> IllegalMoveError:
        """The error that raises ``refusal``.

        >>> IllegalMoveError.from_refusal(Refusal("deal first", "FT-1"))
        IllegalMoveError('deal first (FT-1)')
        """
        return cls(refusal.reason, refusal.rule, refusal.key, refusal.params)


class RecordError(CardtableError):
    """A record (or a part of one) that is not well formed.

    ``where`` is a path into the JSON document (``rounds[1].moves[6].play``);
    ``round`` and ``move`` are 1-based when the problem sits inside a round.
    """

    def __init__(
        self,
        where: str,
        reason: str,
        *,
        round: int | None = None,
        move: int | None = None,
    ) -> None:
        self.where = where
        self.reason = reason
        self.round = round
        self.move = move
        super().__init__(f"{where}: {reason}" if where else reason)
