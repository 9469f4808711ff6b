"""The generic search bot (``search``): offered to every game that resamples,
seated by the levels where a game has no search bot of its own, stronger than
random, repeatable, and refused in words where a game cannot resample.

Legal play and the view-only contract (decoys) are checked with every other
bot in :mod:`tests.bots.test_bot_contract`; here is what is particular to it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

import cardtable
from cardtable.arena import run_arena, wilson_interval
from cardtable.bots import (
    EASY_SEARCH,
    LEVELS,
    OPENSPIEL_ISMCTS,
    SEARCH,
    Budget,
    UnknownBotError,
    bot_entries,
    bot_names,
    level_for,
    make_bot,
)
from cardtable.bots.learned import NetPlayouts
from cardtable.bots.playout import BotPlayouts, play_out, playouts_for
from cardtable.bots.search import SearchBot
from cardtable.core.game import Game, Move, State
from cardtable.core.manifest import LEVEL_NAMES, resolve
from cardtable.core.registry import game_names, manifest
from cardtable.games.marshmallow_test.bots.learned_playout import (
    SmallPlayoutBot,
    SmallPlayoutEndgameBot,
)
from cardtable.games.myrummy_111.bots.pimc import DeepPIMCBot
from tests.bots.plugin import NAME, PLAIN, registered

BUILT_IN = ("marshmallow-test", "myrummy-111")
TrickViewLike = Any  # the fixture's view, a plugin's type this suite does not import


@pytest.fixture(autouse=True)
def plugin_games() -> Iterator[None]:
    with registered():
        yield


def play(state: State, seats: list[SearchBot]) -> list[Move]:
    moves = []
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_moves()
        move = seats[seat].choose(state.view(seat), legal)
        assert move in legal
        moves.append(move)
        state.apply(move)
    return moves


# ------------------------------------------------------------------ who gets it


def test_every_game_that_resamples_offers_search_and_no_other_does() -> None:
    for name in game_names():
        resamples = manifest(name).has("determinize")
        assert ("search" in bot_entries(name)) is resamples, name
        assert (bot_entries(name).get("search") is SEARCH) is resamples, name
    assert {NAME, *BUILT_IN} <= {n for n in game_names() if "search" in bot_names(n)}


def test_openspiel_ismcts_is_one_entry_for_games_with_a_layout_that_resample() -> None:
    for name in BUILT_IN:
        assert bot_entries(name)["openspiel-ismcts"] is OPENSPIEL_ISMCTS
        assert "openspiel-ismcts" not in manifest(name).bots  # offered by cardtable.bots
    assert manifest(PLAIN).has("openspiel")  # a layout, but no resampling
    assert "openspiel-ismcts" not in bot_entries(PLAIN)
    assert "openspiel-ismcts" not in bot_entries(NAME)  # resampling, but no layout


def test_the_levels_seat_the_generic_bot_where_the_game_has_no_search_bot() -> None:
    game = cardtable.load(NAME, players=2)
    for level in ("medium", "hard", "expert"):
        bot = make_bot(level, game, 1, random.Random(0))
        assert isinstance(bot, SearchBot) and bot.seat == 1
        assert bot.budget == LEVELS[level].budget
    # No heuristic: easy is the same search, a fifth of medium's time.
    easy = make_bot("easy", game, 0, random.Random(0))
    assert isinstance(easy, SearchBot) and easy.budget == EASY_SEARCH.budget
    assert bot_names(NAME)[-4:] == ("easy", "medium", "hard", "expert")


def test_the_built_in_games_keep_their_tuned_search_bots() -> None:
    for name in BUILT_IN:
        game = cardtable.load(name, players=2)
        medium = make_bot("medium", game, 0, random.Random(0))
        assert type(medium) is resolve(manifest(name).bots["pimc"].target)
        easy = make_bot("easy", game, 0, random.Random(0))
        assert type(easy) is resolve(manifest(name).bots["heuristic"].target)
        assert isinstance(make_bot("search", game, 0, random.Random(0)), SearchBot)


def test_a_level_a_game_bot_claims_seats_that_bot_at_the_levels_budget() -> None:
    """Marshmallow Test's manifest gives ``hard`` and ``expert`` its learned
    searches (``BotEntry.levels``), MyRummy 111's its deeper search; ``medium``
    stays each game's search bot. Every level, whoever it seats, thinks for
    its own budget."""
    assert tuple(LEVELS) == LEVEL_NAMES  # the names a manifest's levels are checked against
    seated = {level: level_for(level, "marshmallow-test") for level in LEVELS}
    assert {level: s[0] for level, s in seated.items() if s} == {
        "easy": "heuristic",
        "medium": "pimc",
        "hard": "pimc-lp-small",
        "expert": "pimc-lp-endgame",
    }
    game = cardtable.load("marshmallow-test", players=4)
    hard = make_bot("hard", game, 2, random.Random(0))
    assert isinstance(hard, SmallPlayoutBot) and hard.budget == LEVELS["hard"].budget
    expert = make_bot("expert", game, 2, random.Random(0))
    assert isinstance(expert, SmallPlayoutEndgameBot)
    assert isinstance(expert.search, SmallPlayoutBot)  # before a round's last tricks
    assert expert.search.budget == LEVELS["expert"].budget
    assert {
        level: s[0] for level, s in ((lv, level_for(lv, "myrummy-111")) for lv in LEVELS) if s
    } == {
        "easy": "heuristic",
        "medium": "pimc",
        "hard": "pimc-deep",
        "expert": "pimc-deep",
    }
    rummy = cardtable.load("myrummy-111", players=2)
    deep = make_bot("expert", rummy, 1, random.Random(0))
    assert isinstance(deep, DeepPIMCBot) and deep.budget == LEVELS["expert"].budget


def test_a_game_without_resampling_has_no_search_and_says_why() -> None:
    game = cardtable.load(PLAIN, players=2)
    assert bot_names(PLAIN) == ("random", "lowest")
    for level in ("easy", "medium", "hard"):
        with pytest.raises(UnknownBotError) as refused:
            make_bot(level, game, 0, random.Random(0))
        words = str(refused.value)
        assert f"level {level!r} needs" in words and f"{PLAIN} does not have" in words
        assert "resampling of hidden cards" in words and "choose from random, lowest" in words
    with pytest.raises(UnknownBotError, match="unknown bot 'search'"):
        make_bot("search", game, 0, random.Random(0))


# ------------------------------------------------------------------ how it plays


def test_playouts_use_the_games_evaluator_else_its_policy_else_its_heuristic_else_random() -> None:
    rummy = cardtable.load("myrummy-111", players=2)
    evaluator = resolve(manifest("myrummy-111").evaluator or "")
    assert isinstance(playouts_for(rummy), evaluator)
    # The resampling twin ships a learned policy (tests/bots/test_learned_generic.py).
    assert isinstance(playouts_for(cardtable.load(NAME, players=2)), NetPlayouts)
    trick = playouts_for(cardtable.load("marshmallow-test", players=3))
    assert isinstance(trick, BotPlayouts)
    assert trick.factory is resolve(manifest("marshmallow-test").bots["heuristic"].target)
    plugin = playouts_for(cardtable.load(PLAIN, players=2))
    assert isinstance(plugin, BotPlayouts) and plugin.factory is cardtable.bots.RandomBot


def test_the_same_seed_and_iterations_give_the_same_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # Random playouts (the twin's learned policy set aside): with the policy
    # the search keeps its move, whatever the seed, nearly always.
    monkeypatch.setattr(cardtable.bots.playout, "policy_for", lambda game: None)
    game = cardtable.load(NAME, players=3, rounds=2)

    def game_with(seed: int) -> list[Move]:
        bots = [
            SearchBot(s, game, random.Random(seed + s), Budget(iterations=12)) for s in (0, 1, 2)
        ]
        return play(game.new_game(random.Random(5)), bots)

    assert game_with(1) == game_with(1)
    # The check can fail: other seeds search other samples and play otherwise.
    assert any(game_with(1) != game_with(seed) for seed in range(2, 12))


def test_an_iteration_budget_counts_playouts_in_whole_rounds_of_candidates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = Counter[int]()

    def counted(state: State, seat: int, move: Move, *rest: object) -> float:
        calls[move.index] += 1
        return play_out(state, seat, move, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr("cardtable.bots.search.play_out", counted)
    game = cardtable.load(NAME, players=2)
    state = game.new_game(random.Random(2))
    legal = state.legal_moves()
    assert len(legal) == 3
    SearchBot(0, game, random.Random(0), Budget(iterations=10)).choose(state.view(0), legal)
    assert calls == {move.index: 4 for move in legal}  # 10 playouts, rounded up to 4 rounds


def test_one_legal_move_is_played_without_searching() -> None:
    game = cardtable.load(NAME, players=2)
    state = game.new_game(random.Random(2))
    only = state.legal_moves()[:1]
    bot = SearchBot(0, game, random.Random(0), Budget(iterations=10**9))
    assert bot.choose(state.view(0), only) == only[0]


def test_it_beats_random_clearly_on_the_plugin_game() -> None:
    """FT-4, 3 players (fair share a third): duplicate deals, each dealt once
    per seat rotation, 20 playouts a move; the interval must clear a third."""
    run = run_arena(
        NAME,
        ["search", "random", "random"],
        games=150,
        seed=7,
        options={"players": 3},
        budget=Budget(iterations=20),
    )
    search = run.stats.entries[0]
    low, _ = wilson_interval(search.wins, search.games)
    assert search.games == 150 and low > 1 / 3, (search.wins, low)


# ------------------------------------------------------------ the fixture's sampler


def a_view_after_a_void(game: Game) -> TrickViewLike:
    """A seated view of 3-player Fixture Trick in which another seat did not
    follow the led suit (FT-2), so it cannot hold that suit any more."""
    for seed in range(200):
        state = game.new_game(random.Random(seed))
        for _ in range(4):  # a whole trick and the next lead
            state.apply(state.legal_moves()[-1])
        view: TrickViewLike = state.view(state.to_move)
        led = view.played[0][1] // 4
        if any(card // 4 != led and s != view.seat for s, card in view.played[1:]):
            return view
    raise AssertionError("no void shown in 200 deals")


def test_the_fixtures_sampler_is_uniform_over_the_deals_the_view_allows() -> None:
    """Every placement of the unseen cards that respects the hand sizes and
    the voids (FT-2) is drawn, none other, and about equally often: a
    chi-square statistic within five deviations of its mean."""
    game = cardtable.load(NAME, players=3)
    determinize = manifest(NAME).part("determinize")
    view = a_view_after_a_void(game)
    others = [s for s in range(3) if s != view.seat]
    led = view.played[0][1] // 4
    void = {s for s, card in view.played[1:] if card // 4 != led and s != view.seat}
    seen = {*view.hand, *(card for _, card in (*view.played, *view.trick))}
    unseen = [c for c in range(12) if c not in seen]
    allowed = set()
    a, b = others
    for hand_a in combinations(unseen, view.hand_sizes[a]):
        left = [c for c in unseen if c not in hand_a]
        for hand_b in combinations(left, view.hand_sizes[b]):
            hands = {a: hand_a, b: hand_b}
            if all(c // 4 != led for s in void for c in hands[s]):
                allowed.add((hand_a, hand_b))
    draws = 40 * len(allowed)
    drawn = Counter[tuple[tuple[int, ...], ...]]()
    for k in range(draws):
        sample = determinize(game, view, random.Random(k))
        assert sample.view(view.seat) == view
        drawn[tuple(tuple(sample.view(s).hand) for s in others)] += 1
    assert set(drawn) == allowed and len(allowed) > 1
    expected = draws / len(allowed)
    chi2 = sum((n - expected) ** 2 / expected for n in drawn.values())
    free = len(allowed) - 1
    assert chi2 < free + 5 * (2 * free) ** 0.5, (chi2, free)


def test_mr_6_2_with_the_evaluators_cutoff_it_does_not_declare_an_unsorted_hand() -> None:
    """Early in a round no hand is sorted, so declaring scores nothing
    (MR-6.2); valued by the cutoff's chance to win the game the bot did it
    anyway, valued by the cutoff's expected points it does not."""
    game = cardtable.load("myrummy-111", players=2)
    state = game.new_game(random.Random(3))
    heuristic = [make_bot("heuristic", game, seat, random.Random(seat)) for seat in (0, 1)]
    for _ in range(3):
        seat = state.to_move
        assert seat is not None
        state.apply(heuristic[seat].choose(state.view(seat), state.legal_moves()))
    seat = state.to_move
    assert seat is not None
    legal = state.legal_moves()
    assert any("declare" in str(move) for move in legal)
    bot = SearchBot(seat, game, random.Random(1), Budget(iterations=200))
    assert "declare" not in str(bot.choose(state.view(seat), legal))


def test_with_one_playout_per_candidate_it_plays_its_policys_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One round of playouts cannot tell the policy's move from a luckier
    one: the bot keeps the policy's move where the best single playout
    lies elsewhere, and with a real budget it still leaves it sometimes."""
    game = cardtable.load(NAME, players=3)
    lowest: Any = resolve(manifest(NAME).bots["lowest"].target)  # deterministic: a policy
    values: dict[int, float] = {}

    def recorded(state: State, seat: int, move: Move, *rest: object) -> float:
        values[move.index] = play_out(state, seat, move, *rest)  # type: ignore[arg-type]
        return values[move.index]

    monkeypatch.setattr("cardtable.bots.search.play_out", recorded)
    luckier = left = 0
    for seed in range(40):
        state = game.new_game(random.Random(seed))
        seat = state.to_move
        assert seat is not None
        view, legal = state.view(seat), state.legal_moves()
        if len(legal) < 2:
            continue
        policy_move = lowest(seat, game, random.Random(0)).choose(view, legal)
        one_round = SearchBot(seat, game, random.Random(seed), Budget(iterations=1))
        one_round.playouts = BotPlayouts(game, lowest)
        values.clear()
        assert one_round.choose(view, legal) == policy_move
        best = max(legal, key=lambda move: values[move.index])
        luckier += values[best.index] > values[policy_move.index]
        searching = SearchBot(seat, game, random.Random(seed), Budget(iterations=400))
        searching.playouts = BotPlayouts(game, lowest)
        left += searching.choose(view, legal) != policy_move
    assert luckier > 0 and left > 0
