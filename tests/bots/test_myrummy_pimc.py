"""The MyRummy 111 search bot (``pimc``): determinizations agree with the view
(MR-5/MR-8), the bot plays legal moves at 2–5 players, and it sees nothing but
views; the old alias ``ismcts`` is gone."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from cardtable.bots import UnknownBotError, make_bot
from cardtable.bots.base import Budget
from cardtable.core.game import Move
from cardtable.core.registry import manifest
from cardtable.games.myrummy_111 import Deal, MyRummy111, MyRummyState, MyRummyView, Place, Take
from cardtable.games.myrummy_111.bots.heuristic import HeuristicBot, hand_quality, quality
from cardtable.games.myrummy_111.bots.pimc import DeepPIMCBot, PIMCBot
from cardtable.games.myrummy_111.determinize import Skeleton, determinize
from cardtable.games.myrummy_111.moves import SIDES


def _all_cards(state: MyRummyState) -> list[int]:
    cards = [c for hand in state.hands for c in hand]
    cards += [c for c in state.middle if c is not None]
    cards += list(state.draw_pile) + list(state.discard_pile)
    if state.taken_card is not None:
        cards.append(state.taken_card)
    return sorted(cards)


def _long_game_views(seed: int) -> list[MyRummyView]:
    """Views of every seat (and a spectator) at random moments of a long,
    never-declared round with many refreshes, so MR-4.6 reshuffles happen."""
    rng = random.Random(seed)
    players = rng.randint(2, 5)
    sizes = [rng.randint(12, 14) for _ in range(players)]
    game = MyRummy111(players=players, hand_sizes=sizes)
    state = game.new_game(random.Random(seed))
    views = []
    for _ in range(rng.randint(20, 400)):
        moves = [m for m in state.legal_moves() if not (isinstance(m, Place) and m.declare)]
        refresh = [m for m in moves if isinstance(m, Take) and m.refresh]
        state.apply(rng.choice(refresh) if refresh and rng.random() < 0.7 else rng.choice(moves))
        if rng.random() < 0.04:
            views.append(state.view(rng.choice([None, *range(players)])))
    views.append(state.view(state.to_move))
    return views


@pytest.mark.parametrize("seed", range(12))
def test_mr_5_determinization_reproduces_the_view(seed: int) -> None:
    """The sampled state shows the seat exactly its view: own hand, known cards
    at their positions (MR-8), face-up middle, discard pile, sizes, history."""
    views = _long_game_views(seed)
    for i, view in enumerate(views):
        game = MyRummy111(**view.options.to_json())
        skeleton = Skeleton(game, view)
        for k in range(3):
            sampled = determinize(game, view, random.Random(seed * 1000 + i * 10 + k))
            assert sampled.view(view.seat) == view
            assert _all_cards(sampled) == list(range(2, 112))  # MR-1.1: conserved
            fast = skeleton.sample_fast(random.Random(k))
            assert fast.view(view.seat) == view
            assert _all_cards(fast) == list(range(2, 112))


def test_mr_5_determinization_keeps_the_last_rounds_end() -> None:
    """Views in later rounds carry the previous round's public end (MR-6.2:
    the declared hand); a sampled state shows them unchanged."""
    game = MyRummy111(players=3, rounds=4)
    rng = random.Random(7)
    state = game.new_game(random.Random(7))
    checked = 0
    while not state.finished:
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        if view.last_round is not None and rng.random() < 0.1:
            assert determinize(game, view, random.Random(checked)).view(seat) == view
            assert Skeleton(game, view).sample_fast(random.Random(checked)).view(seat) == view
            checked += 1
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert checked > 0 and state.round_number == 4


def test_pimc_is_the_search_bot_and_the_old_alias_is_gone() -> None:
    assert manifest("myrummy-111").search_bot == "pimc"  # what medium and hard seat
    game = MyRummy111(players=2)
    for name in ("pimc", "medium"):
        assert isinstance(make_bot(name, game, 0, random.Random(0)), PIMCBot)
    with pytest.raises(UnknownBotError, match="unknown bot 'ismcts'"):
        make_bot("ismcts", game, 0, random.Random(0))  # removed after its one release


def test_mr_5_determinizations_vary_only_hidden_cards() -> None:
    """Across samples, known cards never move; unknown ones do vary."""
    views = [v for v in _long_game_views(3) if v.seat is not None]
    view = views[-1]
    game = MyRummy111(**view.options.to_json())
    assert view.seat is not None
    other = (view.seat + 1) % game.num_players
    seen: set[tuple[int, ...]] = set()
    for k in range(20):
        state = determinize(game, view, random.Random(k))
        hand = state.hands[other]
        for card, known in zip(hand, view.known[other], strict=True):
            assert known is None or card == known
        assert state.hands[view.seat] == view.hand
        seen.add(hand)
    if any(k is None for k in view.known[other]):
        assert len(seen) > 1


def test_determinized_states_play_on_to_the_end() -> None:
    view = _long_game_views(5)[-1]
    game = MyRummy111(**view.options.to_json())
    rng = random.Random(0)
    state = determinize(game, view, rng)
    while not state.finished and state.round_number == view.round_number:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])


def _reference_quality(hand: Sequence[int], ascending: bool) -> float:
    """The heuristic's judgement written out slowly: the longest sorted
    subsequence (by brute force) times h, minus half of every card's distance
    from its ideal place (card v at (v - 2) / 110 * h, mirrored when falling)."""
    h = len(hand)
    keyed = list(hand) if ascending else [-v for v in hand]
    longest = [1] * h
    for i in range(h):
        for j in range(i):
            if keyed[j] < keyed[i]:
                longest[i] = max(longest[i], longest[j] + 1)
    ideal = [((v - 2) if ascending else (111 - v)) / 110 * h for v in hand]
    misfit = sum(abs(i + 0.5 - ideal[i]) for i in range(h))
    return max(longest) * h - misfit / 2


def test_hand_quality_is_the_heuristics_judgement() -> None:
    rng = random.Random(1)
    for _ in range(200):
        hand = rng.sample(range(2, 112), rng.randint(12, 14))
        up, down = _reference_quality(hand, True), _reference_quality(hand, False)
        assert quality(hand, True) == pytest.approx(up)
        assert quality(hand, False) == pytest.approx(down)
        assert hand_quality(hand) == pytest.approx(max(up, down))


class _Spy:
    """Wraps a bot: records that it only ever gets views and legal moves."""

    def __init__(self, bot: PIMCBot) -> None:
        self.bot = bot
        self.seat = bot.seat

    def choose(self, view: object, legal: Sequence[Move]) -> Move:
        assert isinstance(view, MyRummyView)  # a view, never the state
        assert view.seat == self.seat
        return self.bot.choose(view, legal)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mr_4_pimc_plays_legal_games(players: int) -> None:
    game = MyRummy111(players=players, rounds=1, turn_limit=60)
    for g in range(2):
        seat = g % players
        bots: list[object] = [
            HeuristicBot(s, game, random.Random(10 * g + s)) for s in range(players)
        ]
        spy = _Spy(PIMCBot(seat, game, random.Random(g), Budget(iterations=6)))
        bots[seat] = spy
        state = game.new_game(random.Random(100 * players + g))
        while not state.finished:
            legal = state.legal_moves()
            bot = bots[state.to_move]  # type: ignore[index]
            move = bot.choose(state.view(state.to_move), legal)  # type: ignore[attr-defined]
            assert move in legal
            state.apply(move)


def test_pimc_self_play_at_five_players_with_hand_sizes() -> None:
    game = MyRummy111(players=5, hand_sizes=[12, 13, 14, 12, 13], rounds=1, turn_limit=40)
    bots = [PIMCBot(s, game, random.Random(s), Budget(iterations=3)) for s in range(5)]
    state = game.new_game(random.Random(9))
    while not state.finished:
        legal = state.legal_moves()
        move = bots[state.to_move].choose(state.view(state.to_move), legal)  # type: ignore[index]
        assert move in legal
        state.apply(move)


def test_pimc_ignores_decoy_hidden_cards() -> None:
    """Two states that differ only in cards the seat cannot see give the same
    view, so the bot (same seed) chooses the same move: it cannot peek."""
    game = MyRummy111(players=3)
    state = game.new_game(random.Random(4))
    for _ in range(13):
        state.apply(
            HeuristicBot(state.to_move, game, random.Random(0)).choose(  # type: ignore[arg-type]
                state.view(state.to_move), state.legal_moves()
            )
        )
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    decoy = determinize(game, view, random.Random(77))  # hidden cards reshuffled
    assert decoy.hands != state.hands or decoy.draw_pile != state.draw_pile
    assert decoy.view(seat) == view
    moves = []
    for s in (state, decoy):
        bot = PIMCBot(seat, game, random.Random(5), Budget(iterations=20))
        moves.append(bot.choose(s.view(seat), s.legal_moves()))
    assert moves[0] == moves[1]


def test_mr_4_5_pimc_declares_a_winning_sorted_hand() -> None:
    """MR-4.5/MR-6.2/MR-7.2: on the only round, a sorted hand that outscores any
    run of the opponent is declared (declaring wins the game outright)."""
    game = MyRummy111(players=2, rounds=1)
    hand0 = tuple(range(10, 99, 8))  # 10, 18, …, 98: sorted (MR-6.1)
    hand1 = (111, 3, 109, 5, 107, 7, 105, 9, 103, 11, 101, 13)  # runs of 2
    middle = (104, 50, 51)
    used = set(hand0) | set(hand1) | set(middle)
    draw = tuple(c for c in range(2, 112) if c not in used)
    state = game.new_state()
    state.deal(Deal((hand0, hand1), middle, draw))
    state.apply(Take(0))  # face down, but the taker sees 104
    bot = PIMCBot(0, game, random.Random(0), Budget(iterations=4))
    move = bot.choose(state.view(0), state.legal_moves())
    assert isinstance(move, Place) and move.declare
    state.apply(move)
    assert state.finished and state.winners == (0,)


def _first_place_without_a_declaration(seed: int) -> MyRummyState:
    """A position where the seat to move places a taken card and no
    placement sorts its hand (so ``pimc`` would not search at all)."""
    game = MyRummy111(players=2)
    state = game.new_game(random.Random(seed))
    heuristic = [HeuristicBot(s, game, random.Random(s)) for s in range(2)]
    while True:
        seat = state.to_move
        assert seat is not None
        legal = state.legal_moves()
        if state.phase == "place":
            judge = PIMCBot(seat, game, random.Random(0))
            if not any(c.declare for c in judge.candidates(state.view(seat), legal)):
                return state
        state.apply(heuristic[seat].choose(state.view(seat), legal))


class _SearchSpy:
    """Records the candidates a bot's search was given."""

    def __init__(self, bot: PIMCBot) -> None:
        self.searched: list[list[str]] = []
        search = bot.search

        def spy(view: MyRummyView, cands: list) -> int:  # type: ignore[type-arg]
            self.searched.append([c.label for c in cands])
            return search(view, cands)

        bot.search = spy  # type: ignore[method-assign]


@pytest.mark.parametrize("seed", range(3))
def test_mr_4_3_pimc_deep_searches_three_placements_where_pimc_searches_none(seed: int) -> None:
    """MR-4.3/4.4: ``pimc`` places by its one-card lookahead alone unless
    declaring is open (MR-4.5); ``pimc-deep`` plays out the three placements
    the lookahead likes best and plays one of them."""
    state = _first_place_without_a_declaration(seed)
    seat = state.to_move
    assert seat is not None
    view, legal = state.view(seat), state.legal_moves()
    plain = PIMCBot(seat, state.game, random.Random(1), Budget(iterations=30))
    plain_spy = _SearchSpy(plain)
    plain.choose(view, legal)
    assert plain_spy.searched == [] and plain.last_simulations == 0

    deep = DeepPIMCBot(seat, state.game, random.Random(1), Budget(iterations=30))
    spy = _SearchSpy(deep)
    move = deep.choose(view, legal)
    best_three = [c.label for c in deep.candidates(view, legal)[:3]]
    assert spy.searched == [best_three]
    assert deep.last_simulations >= 30
    assert move in legal and isinstance(move, Place)
    assert f"place {move.position} {SIDES.index(move.discard)}" in best_three


def test_mr_4_1_pimc_deep_searches_every_take_and_plays_further_ahead() -> None:
    """MR-4.1/4.2: with the three cards in the middle face up, ``pimc``
    searches its three best takes; ``pimc-deep`` all four choices (each card,
    and the refresh); its playouts run four rounds of turns, not two."""
    game = MyRummy111(players=3)
    state = game.new_game(random.Random(2))
    heuristic = [HeuristicBot(s, game, random.Random(s)) for s in range(3)]
    while not (state.phase == "take" and all(state.middle_face_up)):
        seat = state.to_move
        assert seat is not None
        state.apply(heuristic[seat].choose(state.view(seat), state.legal_moves()))
    seat = state.to_move
    assert seat is not None
    view, legal = state.view(seat), state.legal_moves()
    widths = []
    for bot in (
        PIMCBot(seat, game, random.Random(1), Budget(iterations=10)),
        DeepPIMCBot(seat, game, random.Random(1), Budget(iterations=10)),
    ):
        spy = _SearchSpy(bot)
        assert bot.choose(view, legal) in legal
        widths.append(len(spy.searched[0]))
    assert widths == [3, 4]
    assert DeepPIMCBot(0, game, random.Random(0)).horizon == 4 * 3
    assert PIMCBot(0, game, random.Random(0)).horizon == 2 * 3
