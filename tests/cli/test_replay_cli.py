"""`cardtable replay` against the record-format spec: exit codes 0/1/2,
text, --json and --trace output, and messages that say where and why."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

import cardtable
from cardtable.cli.main import app
from cardtable.core.game import State

runner = CliRunner()


def random_state(
    name: str, players: int, seed: int, moves: int | None = None, **options: Any
) -> State:
    game = cardtable.load(name, players=players, **options)
    state = game.new_game(random.Random(seed))
    rng = random.Random(seed + 1000)
    done = 0
    while not state.finished and (moves is None or done < moves):
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
        done += 1
    return state


def replay(record: dict[str, Any] | str, *args: str, tmp_path: Path) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    result = runner.invoke(app, ["replay", *args, str(path)])
    return result.exit_code, result.output


def json_error(record: dict[str, Any] | str, tmp_path: Path) -> tuple[int, dict[str, Any]]:
    code, out = replay(record, "--json", tmp_path=tmp_path)
    return code, json.loads(out)["error"]


GAMES = [
    ("marshmallow-test", 2, {}),
    ("marshmallow-test", 4, {"trump_after_ruff": "must"}),
    ("marshmallow-test", 5, {"target": 12}),
    ("myrummy-111", 2, {"turn_limit": 60}),
    ("myrummy-111", 4, {"hand_sizes": [12, 13, 14, 12], "rounds": 2}),
]


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_records_replay_cleanly(
    name: str, players: int, options: dict[str, Any], seed: int, tmp_path: Path
) -> None:
    state = random_state(name, players, seed, **options)
    code, out = replay(state.record(), "--json", tmp_path=tmp_path)
    assert code == 0, out
    assert json.loads(out) == {
        "finished": True,
        "scores": list(state.scores),
        "round_scores": [list(r) for r in state.round_scores],
        "winners": list(state.winners),
    }


@pytest.mark.parametrize(("name", "players", "options"), GAMES)
def test_trace_lists_exactly_the_legal_moves(
    name: str, players: int, options: dict[str, Any], tmp_path: Path
) -> None:
    state = random_state(name, players, 5, moves=80, **options)
    record = state.record()
    code, out = replay(record, "--trace", tmp_path=tmp_path)
    assert code == 0, out
    lines = [json.loads(line) for line in out.splitlines()]
    recorded = [
        (r, m, mv)
        for r, rnd in enumerate(record["rounds"], 1)
        for m, mv in enumerate(rnd["moves"], 1)
    ]
    assert len(lines) == len(recorded) + 1
    assert lines[-1]["finished"] is state.finished
    # Walk the same game and compare each decision point's legal list.
    walk = cardtable.load(name, players=players, **options).new_state()
    previous_round = 0
    for line, (r, m, move) in zip(lines, recorded, strict=False):
        if r != previous_round:
            walk.deal(walk.game.deal_from_json(record["rounds"][r - 1]["deal"], "deal"))
            previous_round = r
        assert (line["round"], line["move"], line["seat"]) == (r, m, move["seat"])
        legal = sorted(json.dumps(x.to_json(), sort_keys=True) for x in walk.legal_moves())
        assert sorted(json.dumps(x, sort_keys=True) for x in line["legal"]) == legal
        bare = {k: v for k, v in move.items() if k not in ("seat", "reshuffle")}
        assert json.dumps(bare, sort_keys=True) in legal
        seat, parsed, chance = walk.game.move_from_json(move, "move")
        walk.apply_as(seat, parsed, **chance)


def test_text_output_shows_standings_and_winner(tmp_path: Path) -> None:
    state = random_state("marshmallow-test", 3, 9)
    record = state.record(["Ann", "Bob", "Cleo"])
    code, out = replay(record, tmp_path=tmp_path)
    assert code == 0
    assert "every move is legal" in out
    assert "Ann" in out and "Cleo" in out
    winner = ["Ann", "Bob", "Cleo"][state.winners[0]]
    assert f"winner: {winner} (seat {state.winners[0]})" in out
    assert "total" in out


def test_game_in_progress_is_reported(tmp_path: Path) -> None:
    state = random_state("myrummy-111", 3, 4, moves=7)
    code, out = replay(state.record(), tmp_path=tmp_path)
    assert code == 0
    expected = f"in progress: round {state.round_number}, seat {state.to_move} to move"
    assert expected in out


def test_record_ending_at_a_round_boundary_is_in_progress(tmp_path: Path) -> None:
    record = random_state("marshmallow-test", 3, 4).record()
    record["rounds"] = record["rounds"][:1]
    del record["result"]
    code, out = replay(record, tmp_path=tmp_path)
    assert code == 0
    assert "round 1 is complete; the next round is not dealt yet" in out


# --- rule breaks: exit 1 ------------------------------------------------------


def first_restricted_play(
    state_name: str = "marshmallow-test",
) -> tuple[dict[str, Any], int, int, str]:
    """A record whose move breaks MT-5.3: the first time a player must follow,
    they play another colour instead. Returns (record, round, move, seat)."""
    from cardtable.games.marshmallow_test.cards import CARD_NAMES, COLOUR_NAMES, COLOUR_OF

    state = random_state(state_name, 4, 11, moves=200)
    record = state.record()
    game = state.game
    walk = game.new_state()
    for r, rnd in enumerate(record["rounds"], 1):
        walk.deal(game.deal_from_json(rnd["deal"], "deal"))
        for m, move in enumerate(rnd["moves"], 1):
            seat = walk.to_move
            hand = walk.view(seat).hand  # type: ignore[attr-defined]
            legal = {x.to_json().get("play") for x in walk.legal_moves()}
            lead = walk.view(seat).lead_colour  # type: ignore[attr-defined]
            off = [c for c in hand if CARD_NAMES[c] not in legal]
            if lead is not None and off and not walk.view(seat).ruffed:  # type: ignore[attr-defined]
                bad = copy.deepcopy(record)
                bad["rounds"] = bad["rounds"][:r]
                offending = {"seat": seat, "play": CARD_NAMES[off[0]]}
                bad["rounds"][-1]["moves"] = [*rnd["moves"][: m - 1], offending]
                del bad["result"]
                follow = [CARD_NAMES[c] for c in hand if COLOUR_OF[c] == lead]
                why = f"must follow {COLOUR_NAMES[lead]}: holds {', '.join(follow)} (MT-5.3)"
                return bad, r, m, f"round {r}, move {m} (seat {seat}): {why}"
            _, parsed, chance = game.move_from_json(move, "move")
            walk.apply_as(move["seat"], parsed, **chance)
    raise AssertionError("no restricted play found")


def test_mt_5_3_not_following_is_exit_1_with_the_spec_message(tmp_path: Path) -> None:
    record, r, m, message = first_restricted_play()
    code, out = replay(record, tmp_path=tmp_path)
    assert code == 1
    assert message in out
    code, error = json_error(record, tmp_path)
    assert code == 1
    assert error == {"round": r, "move": m, "message": message}


def test_trace_on_rule_break_ends_with_the_offending_move_then_the_error(tmp_path: Path) -> None:
    record, r, m, message = first_restricted_play()
    code, out = replay(record, "--trace", tmp_path=tmp_path)
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert (lines[-2]["round"], lines[-2]["move"]) == (r, m)
    assert lines[-1] == {"error": {"round": r, "move": m, "message": message}}
    assert len(lines) == sum(len(x["moves"]) for x in record["rounds"]) + 1


def test_wrong_seat_is_a_rule_break(tmp_path: Path) -> None:
    record = random_state("marshmallow-test", 3, 2, moves=3).record()
    record["rounds"][0]["moves"][1]["seat"] = (record["rounds"][0]["moves"][1]["seat"] + 1) % 3
    code, error = json_error(record, tmp_path)
    assert code == 1
    assert (error["round"], error["move"]) == (1, 2)
    assert "MT-" in error["message"]


def test_trump_named_in_round_1_is_a_rule_break(tmp_path: Path) -> None:
    record = random_state("marshmallow-test", 3, 2, moves=0).record()
    record["rounds"][0]["moves"] = [{"seat": 0, "trump": "green"}]
    code, error = json_error(record, tmp_path)
    assert code == 1 and "(MT-4.1)" in error["message"]


def test_result_that_differs_is_exit_1_without_position(tmp_path: Path) -> None:
    record = random_state("marshmallow-test", 2, 3).record()
    record["result"]["scores"] = [s + 1 for s in record["result"]["scores"]]
    code, error = json_error(record, tmp_path)
    assert code == 1
    assert error["round"] is None and error["move"] is None
    assert "result.scores" in error["message"]


def shared_win() -> dict[str, Any]:
    """A MyRummy 111 record that two seats win together (MR-7.1: the totals
    and the last round tie): both hands stay sorted runs of 12 one-symbol cards."""
    game = cardtable.load("myrummy-111", players=2, rounds=1, turn_limit=1, symbols=[1] * 110)
    state = game.new_state()
    deal = {"hands": [list(range(2, 14)), list(range(14, 26))], "middle": [26, 27, 28]}
    deal["draw"] = list(range(29, 112))
    state.deal(game.deal_from_json(deal, "deal"))
    state.apply(game.parse_move("take 0"))
    state.apply(game.parse_move("place 12 left"))
    assert state.finished and state.winners == (0, 1)
    return state.record()


def test_winners_compare_as_a_set(tmp_path: Path) -> None:
    record = shared_win()
    assert replay(record, tmp_path=tmp_path)[0] == 0
    record["result"]["winners"] = [1, 0]  # the same winners in another order
    assert replay(record, tmp_path=tmp_path)[0] == 0
    for wrong in ([0], [1], []):
        record["result"]["winners"] = wrong
        code, error = json_error(record, tmp_path)
        assert code == 1 and "result.winners" in error["message"], wrong


def test_round_after_the_end_of_the_game_is_exit_1(tmp_path: Path) -> None:
    record = random_state("marshmallow-test", 2, 3).record()
    record["rounds"].append(copy.deepcopy(record["rounds"][0]))
    del record["result"]
    code, error = json_error(record, tmp_path)
    assert code == 1 and error["move"] is None
    assert "no round may follow" in error["message"]


def test_incomplete_round_followed_by_another_is_exit_1(tmp_path: Path) -> None:
    record = random_state("marshmallow-test", 2, 3).record()
    record["rounds"][0]["moves"] = record["rounds"][0]["moves"][:5]
    del record["result"]
    code, error = json_error(record, tmp_path)
    assert code == 1
    assert (error["round"], error["move"]) == (1, None)
    assert "not complete" in error["message"]


def test_myrummy_place_beyond_the_hand_is_a_rule_break(tmp_path: Path) -> None:
    record = random_state("myrummy-111", 2, 3, moves=1).record()
    record["rounds"][0]["moves"].append(
        {"seat": record["rounds"][0]["moves"][0]["seat"], "place": 13, "discard": "left"}
    )
    code, error = json_error(record, tmp_path)
    assert code == 1 and "(MR-4.3)" in error["message"]
    assert (error["round"], error["move"]) == (1, 2)


# --- malformed: exit 2 ----------------------------------------------------------


def mt_record() -> dict[str, Any]:
    return random_state("marshmallow-test", 4, 6, moves=10).record()


def mutate(path: str, value: Any) -> dict[str, Any]:
    record = mt_record()
    target: Any = record
    keys = [int(k) if k.isdigit() else k for k in path.split("/")]
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return record


MALFORMED = [
    (mutate("rounds/0/deal/hands/2/5", "R13"), "rounds[0].deal.hands[2][5]", 1, None),
    (
        mutate("rounds/0/deal/hands/2/5", mt_record()["rounds"][0]["deal"]["hands"][1][0]),
        "rounds[0].deal",
        1,
        None,
    ),
    (mutate("rounds/0/moves/6/play", "X4"), "rounds[0].moves[6].play", 1, 7),
    (mutate("rounds/0/moves/6/seat", 7), "rounds[0].moves[6].seat", 1, 7),
    (mutate("rounds/0/moves/6/extra", 1), "rounds[0].moves[6]", 1, 7),
    (mutate("options/players", 7), "options.players", None, None),
    (mutate("options/colour", "red"), "options.colour", None, None),
    (mutate("format", "cardtable-record/2"), "format", None, None),
    (mutate("rounds/0/surprise", True), "rounds[0].surprise", 1, None),
    (mutate("result/scores", [1, 2]), "result.scores", None, None),
]


@pytest.mark.parametrize(("record", "where", "round_", "move"), MALFORMED)
def test_malformed_records_are_exit_2_and_say_where(
    record: dict[str, Any], where: str, round_: int | None, move: int | None, tmp_path: Path
) -> None:
    code, error = json_error(record, tmp_path)
    assert code == 2, error
    assert error["message"].startswith(where), error
    assert (error["round"], error["move"]) == (round_, move)
    code, out = replay(record, tmp_path=tmp_path)
    assert code == 2 and "Traceback" not in out and where in out


def invoke(record: dict[str, Any], *args: str, tmp_path: Path) -> Result:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return runner.invoke(app, ["replay", *args, str(path)])


def test_text_errors_go_to_stderr_saying_kind_then_place(tmp_path: Path) -> None:
    """Exit 1 and 2 in text: one line on stderr, "rule break: " or "malformed
    record: ", then the round and move when the fault sits in a round."""
    record, _, _, message = first_restricted_play()
    result = invoke(record, tmp_path=tmp_path)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"rule break: {message}\n"
    result = invoke(mutate("rounds/0/moves/6/play", "X4"), tmp_path=tmp_path)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("malformed record: round 1, move 7: rounds[0].moves[6].play: ")
    assert result.stderr.count("\n") == 1
    result = invoke(mutate("format", "x"), tmp_path=tmp_path)
    assert result.stderr == "malformed record: format: expected 'cardtable-record/1', got 'x'\n"


def test_trace_of_a_malformed_record_is_only_the_error_object(tmp_path: Path) -> None:
    record = mutate("rounds/0/moves/6/seat", 7)
    traced = invoke(record, "--trace", tmp_path=tmp_path)
    as_json = invoke(record, "--json", tmp_path=tmp_path)
    assert traced.exit_code == as_json.exit_code == 2
    assert traced.stdout == as_json.stdout
    assert len(traced.stdout.splitlines()) == 1 and "error" in json.loads(traced.stdout)


def test_trace_ends_with_the_json_object(tmp_path: Path) -> None:
    record = mt_record()
    traced = invoke(record, "--trace", tmp_path=tmp_path)
    as_json = invoke(record, "--json", tmp_path=tmp_path)
    assert traced.exit_code == as_json.exit_code == 0
    assert traced.stdout.splitlines()[-1] == as_json.stdout.strip()
    assert len(traced.stdout.splitlines()) == len(record["rounds"][0]["moves"]) + 1


def test_malformed_wins_over_an_earlier_rule_break(tmp_path: Path) -> None:
    record, *_ = first_restricted_play()
    record["rounds"][-1]["moves"].append({"seat": 0, "play": "Q1"})
    assert replay(record, tmp_path=tmp_path)[0] == 2


@pytest.mark.parametrize(
    "text",
    ['{"format": ', "[]", '{"a": 1, "a": 2}', '{"x": NaN}', "", '{"format": "cardtable-record/1"}'],
)
def test_bad_json_is_exit_2(text: str, tmp_path: Path) -> None:
    code, out = replay(text, tmp_path=tmp_path)
    assert code == 2
    assert "Traceback" not in out and out.strip()


def test_missing_file_is_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", "--json", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert "no such file" in json.loads(result.output)["error"]["message"]


def test_unknown_top_level_keys_are_allowed(tmp_path: Path) -> None:
    record = mt_record()
    record["played_at"] = "2026-11-29"
    assert replay(record, tmp_path=tmp_path)[0] == 0


def test_myrummy_malformed_fields(tmp_path: Path) -> None:
    base = random_state("myrummy-111", 2, 3, moves=2).record()
    cases = {
        "slot": ({"seat": 0, "take": 3}, "rounds[0].moves[0]"),
        "discard": ({"seat": 0, "take": 0, "place": 1, "discard": "left"}, "rounds[0].moves[0]"),
        "card": (None, "rounds[0].deal"),
    }
    for what, (move, where) in cases.items():
        record = copy.deepcopy(base)
        if move is None:
            record["rounds"][0]["deal"]["draw"][0] = 112
        else:
            record["rounds"][0]["moves"][0] = move
        code, error = json_error(record, tmp_path)
        assert code == 2, what
        assert error["message"].startswith(where), (what, error)


def test_replay_reads_standard_input_as_a_real_command(tmp_path: Path) -> None:
    record = random_state("marshmallow-test", 2, 8).record()
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "replay", "--json", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == record["result"]["scores"]
