"""Every level a person may choose has a published rating (issue 26, item 3):
the lobby shows it beside the level's words and rated tables seat the bot at
it. A level the measuring ladder left off (``measured: false``) carries the
strongest measured level below it, a lower bound, never a newcomer's rating."""

from __future__ import annotations

import pytest

from cardtable.bots import LEVELS, level_for
from cardtable.bots.ratings import Skill, newcomer, published

BUILT_IN = ("marshmallow-test", "myrummy-111")


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_level_is_published_and_an_unmeasured_one_carries_the_best_below(
    game: str,
) -> None:
    seen: list[tuple[str, Skill, bool]] = []
    for level in LEVELS:
        assert level_for(level, game) is not None
        found = published(game, 2, level)
        assert found is not None, level
        skill, measured = found
        assert skill != newcomer()
        if not measured:
            below = [s for _, s, m in seen if m]
            assert below, f"{level}: nothing measured below it to carry"
            assert skill == max(below, key=lambda s: s.ordinal), level
        seen.append((level, skill, measured))
    assert seen[0][2] and seen[1][2]  # easy and medium are always measured
