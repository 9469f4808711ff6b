"""Every numeric option has a maximum that keeps a game finite and small
(MT-10 and MR-9 set none; cardtable does, in each game's options.py), and the
manifest's ``OptionHelp.maximum`` says the same number."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.core.registry import manifest

BUILT_IN = ("marshmallow-test", "myrummy-111")
# (game, option, its maximum): the numbers docs/decisions.md gives.
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
    assert str(info.value) == (
        f"option {option!r}: must be an integer from 1 to {top}"
        + (" or null" if option in ("rounds", "turn_limit") else "")
        + f", got {top + 1}"
    )


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_manifest_states_each_maximum_the_game_enforces(name: str) -> None:
    declared = {(name, o.name, o.maximum) for o in manifest(name).options if o.maximum is not None}
    assert declared == {m for m in MAXIMA if m[0] == name}
    for option in manifest(name).options:
        assert option.to_json().get("maximum") == option.maximum


@pytest.mark.parametrize("name", BUILT_IN)
def test_no_numeric_option_takes_a_million(name: str) -> None:
    numeric = [
        o.name
        for o in manifest(name).options
        if o.has_default and (o.default is None or type(o.default) is int)
    ]
    assert len(numeric) >= 2
    for option in numeric:
        with pytest.raises(cardtable.OptionError, match=rf"^option {option!r}: "):
            cardtable.load(name, **{option: 10**6})
