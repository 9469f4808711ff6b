"""The same seed and budget give the same analysis, in one process or several."""

from __future__ import annotations

import json

from cardtable.analysis.report import analysis_json
from cardtable.analysis.run import analyze_record
from tests.analysis.conftest import play, to_text


def _json(text: str, **kwargs: object) -> str:
    analyses = analyze_record(text, budget=0.01, **kwargs)  # type: ignore[arg-type]
    return json.dumps(analysis_json(analyses, ["a", "b", "c"], game="g", seed=0, budget=0.01))


def test_jobs_do_not_change_the_analysis() -> None:
    text = to_text(play("marshmallow-test", 3, seed=2, moves=40, target=10))
    one = _json(text, seed=5, jobs=1)
    assert one == _json(text, seed=5, jobs=2)
    assert one == _json(text, seed=5, jobs=3)


def test_the_seed_fixes_the_analysis_and_another_seed_samples_anew() -> None:
    text = to_text(play("myrummy-111", 2, seed=3, moves=12, rounds=1))
    first = _json(text, seed=1, seats=[0])
    assert first == _json(text, seed=1, seats=[0])
    assert first != _json(text, seed=2, seats=[0])
