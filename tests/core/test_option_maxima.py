"""Every numeric option has a maximum that keeps a game finite and small
(MT-10 and MR-9 set none; cardtable does, in each game's options.py)."""

from __future__ import annotations

import pytest

import cardtable

# (game, option, its maximum)
MAXIMA = [
    ("marshmallow-test", "target", 500),
    ("myrummy-111", "target", 500),
    ("myrummy-111", "rounds", 100),
    ("myrummy-111", "turn_limit", 5000),
]


@pytest.mark.parametrize(("name", "option", "top"), MAXIMA)
def test_the_maximum_is_accepted_and_one_more_is_refused(name: str, option: str, top: int) -> None:
    assert cardtable.load(name, **{option: top}).options_json[option] == top
    with pytest.raises(cardtable.OptionError) as info:
        cardtable.load(name, **{option: top + 1})
    assert str(info.value).startswith(f"option {option!r}: must be an integer from 1 to {top}"), (
        str(info.value)
    )
    assert str(info.value).endswith(f"got {top + 1}")
