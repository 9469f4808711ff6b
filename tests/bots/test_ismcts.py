"""The generic single-observer ISMCTS (issue 26, item 4): offered wherever a
game resamples, seeded choices repeat, its tree is keyed by what the
searching seat sees (so it grows past the root and merges what the seat
cannot tell apart), and it plays clearly better than random on the plugin
game. That it plays from its view alone is checked for every bot by
``tests/bots/test_bot_contract.py``."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import cardtable
from cardtable.arena import run_arena, wilson_interval
from cardtable.bots import ISMCTS, Budget, bot_entries, make_bot
from cardtable.bots.ismcts import IsmctsBot, Node
from cardtable.bots.playout import playouts_for
from cardtable.core.registry import game_names, manifest
from tests.bots.plugin import NAME, registered


@pytest.fixture(autouse=True)
def plugin_games() -> Iterator[None]:
    with registered():
        yield


def outcomes_by_depth(root: Node) -> dict[int, list[int]]:
    """For each depth of the tree, how many information sets each move led to."""
    found: dict[int, list[int]] = {}

    def walk(node: Node, depth: int) -> None:
        for edge in node.edges.values():
            found.setdefault(depth, []).append(len(edge.outcomes))
            for child in edge.outcomes.values():
                walk(child, depth + 1)

    walk(root, 0)
    return found


def test_every_game_that_resamples_offers_ismcts_and_no_other_does() -> None:
    for name in game_names():
        resamples = manifest(name).has("determinize")
        assert (bot_entries(name).get("so-ismcts") is ISMCTS) is resamples, name
    assert "so-ismcts" in bot_entries(NAME)


def test_the_same_seed_and_iterations_give_the_same_moves() -> None:
    game = cardtable.load("marshmallow-test", players=3, target=5)
    chosen = []
    for _ in range(2):
        state = game.new_game(random.Random(4))
        budget = Budget(iterations=60)
        bots = [make_bot("so-ismcts", game, s, random.Random(s), budget) for s in range(3)]
        moves = []
        for _ in range(8):
            seat = state.to_move
            assert seat is not None
            move = bots[seat].choose(state.view(seat), state.legal_moves())
            moves.append(move.to_json())
            state.apply(move)
        chosen.append(moves)
    assert chosen[0] == chosen[1]


def test_an_opponents_card_is_one_information_set_whatever_the_hidden_cards() -> None:
    """Marshmallow Test has no chance inside a round: every move, the
    searcher's or an opponent's, leads to exactly one information set, over
    hundreds of samples of the unseen hands; and the tree grows past the
    root. Keyed by each opponent's own hand, it would split at depth 1."""
    game = cardtable.load("marshmallow-test", players=3)
    state = game.new_game(random.Random(5))
    seat = state.to_move
    assert seat is not None
    root = IsmctsBot(seat, game, random.Random(1), Budget(iterations=400)).search(state.view(seat))
    depths = outcomes_by_depth(root)
    assert len(depths) >= 3  # the root's moves, the next seat's replies, the third seat's
    assert all(count <= 1 for counts in depths.values() for count in counts)
    assert len(depths[1]) > len(root.edges)  # opponents' replies were searched


def test_a_card_the_searcher_draws_tells_its_information_sets_apart() -> None:
    """MyRummy 111: the searcher's own draw from the hidden pile shows it a
    card, so that move leads to one information set per card seen."""
    game = cardtable.load("myrummy-111", players=3)
    state = game.new_game(random.Random(5))
    seat = state.to_move
    assert seat is not None
    root = IsmctsBot(seat, game, random.Random(1), Budget(iterations=300)).search(state.view(seat))
    assert max(len(edge.outcomes) for edge in root.edges.values()) > 10


def test_it_plays_its_most_visited_move_after_trying_every_move() -> None:
    game = cardtable.load("marshmallow-test", players=2)
    state = game.new_game(random.Random(8))
    seat = state.to_move
    assert seat is not None
    legal = state.legal_moves()
    bot = IsmctsBot(seat, game, random.Random(3), Budget(iterations=10 * len(legal)))
    root = bot.search(state.view(seat))
    assert sorted(root.edges) == sorted(move.index for move in legal)
    assert all(edge.visits >= 1 for edge in root.edges.values())
    again = IsmctsBot(seat, game, random.Random(3), Budget(iterations=10 * len(legal)))
    chosen = again.choose(state.view(seat), legal)
    most = max(root.edges.values(), key=lambda edge: (edge.visits, edge.total))
    assert root.edges[chosen.index] is most or root.edges[chosen.index].visits == most.visits


def test_the_first_move_expanded_is_the_playout_policys_own() -> None:
    """Marshmallow Test's evaluator leads from the view alone, so over any
    sample its move is the same: one simulation expands exactly that move."""
    game = cardtable.load("marshmallow-test", players=2)
    policy = playouts_for(game).policy
    for deal in range(4):
        state = game.new_game(random.Random(deal))
        seat = state.to_move
        assert seat is not None
        wanted = policy(random.Random(0))(state).index
        for seed in range(3):
            bot = IsmctsBot(seat, game, random.Random(seed), Budget(iterations=1))
            assert list(bot.search(state.view(seat)).edges) == [wanted]


def test_one_legal_move_is_played_without_searching() -> None:
    game = cardtable.load("marshmallow-test", players=2)
    state = game.new_game(random.Random(2))
    only = state.legal_moves()[:1]
    bot = IsmctsBot(0, game, random.Random(0), Budget(iterations=10**9))
    assert bot.choose(state.view(0), only) == only[0]


def test_it_beats_random_clearly_on_the_plugin_game() -> None:
    """FT-4, 3 players (fair share a third): duplicate deals, 20 simulations
    a move; the interval must clear a third."""
    run = run_arena(
        NAME,
        ["so-ismcts", "random", "random"],
        games=150,
        seed=7,
        options={"players": 3},
        budget=Budget(iterations=20),
    )
    ismcts = run.stats.entries[0]
    low, _ = wilson_interval(ismcts.wins, ismcts.games)
    assert ismcts.games == 150 and low > 1 / 3, (ismcts.wins, low)
