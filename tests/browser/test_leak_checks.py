"""The browser tests' leak checks can fail: frames built by the server's own
code from a finished engine game pass, and the same frames with another
seat's card slipped in (into the view, into a sentence, into a page) do not."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cardtable.core.registry import load
from cardtable.server.tables.journal import Journal
from cardtable.server.tables.messages import ended_rounds, game_part
from tests.browser.helpers import Person, check_pages_and_frames, engine_steps
from tests.browser.test_marshmallow_test import CARDS


def finished_game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random 3-player game (MT) to target 5, and seat 0's state frames."""
    game = load("marshmallow-test", players=3, target=5)
    state = game.new_game(random.Random(3))
    rng = random.Random(4)
    frames = []
    seq = 0
    while True:
        ended = ended_rounds(game, Journal().new_events(state))
        round_end = ended[-1].view(0).to_json() if ended else None
        frames.append(
            {
                "type": "state",
                "seq": seq,
                **game_part(game, state, 0),
                "round_end": round_end,
                "log": [],
            }
        )
        if state.finished:
            return state.record(["Ann", "Bob", "Cy"]), frames
        state.apply(rng.choice(list(state.legal_moves())))
        seq += 1
        if state.awaiting_deal:
            state.deal()


def person_with(frames: list[dict[str, Any]]) -> Person:
    person = Person("Ann", page=None)
    person.frames = frames
    return person


def other_card(frame: dict[str, Any], record: dict[str, Any]) -> str:
    """A card seat 1 holds at this frame that seat 0 cannot see."""
    step = engine_steps(record)[frame["seq"]][-1]
    card: str = next(c for c in step.hands[1] if c not in CARDS.visible(frame["view"]))
    return card


def test_the_leak_checks_pass_clean_frames_and_catch_a_slipped_card() -> None:
    record, frames = finished_game()
    own_hand = (0, 0, "<p>" + " ".join(frames[0]["view"]["hand"]) + "</p>")
    check_pages_and_frames(record, {0: person_with(frames)}, [own_hand], CARDS)

    middle = len(frames) // 2
    secret = other_card(frames[middle], record)

    told = copy.deepcopy(frames)
    told[middle]["log"] = [{"seq": middle, "seat": 1, "event": "joined", "name": f"Bob {secret}"}]
    with pytest.raises(AssertionError):
        check_pages_and_frames(record, {0: person_with(told)}, [(0, 0, "")], CARDS)

    shown = copy.deepcopy(frames)
    shown[middle]["view"]["hand"].append(secret)
    with pytest.raises(AssertionError):
        check_pages_and_frames(record, {0: person_with(shown)}, [(0, 0, "")], CARDS)

    # The last round's summary as another seat saw it is not this seat's.
    ended = next(i for i, f in enumerate(frames) if f["round_end"])
    swapped = copy.deepcopy(frames)
    swapped[ended]["round_end"]["seat"] = 1
    with pytest.raises(AssertionError):
        check_pages_and_frames(record, {0: person_with(swapped)}, [(0, 0, "")], CARDS)

    drawn = (0, frames[middle]["seq"], f"<span role='img' aria-label='x'>{secret}</span>")
    with pytest.raises(AssertionError):
        check_pages_and_frames(record, {0: person_with(frames)}, [drawn], CARDS)
