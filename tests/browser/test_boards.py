"""Each game's board module, served by the real server and driven in the page
with state messages that the server's own code builds from engine states
(``cardtable.server.tables.messages.game_part``): moments a whole game may not reach
on its own (the dealer naming trump, a refresh, a sorted hand), and the
placement preview checked against the engine's own rules for every placement."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from cardtable.core.game import State
from cardtable.core.registry import load
from cardtable.games.myrummy_111.cards import symbol_lookup
from cardtable.games.myrummy_111.exchange import hand_after_place
from cardtable.games.myrummy_111.moves import Take, place
from cardtable.games.myrummy_111.scoring import best_run, is_sorted
from cardtable.server.tables.journal import Journal
from cardtable.server.tables.messages import ended_rounds, game_part
from tests.browser.helpers import Person, Server, shoot

RENDER_JS = """async (msg) => {
  const host = await import('/static/board-host.js');
  const { translator, loadCatalog } = await import('/static/i18n.js');
  const { h, announce } = await import('/static/dom.js');
  const shell = await loadCatalog((c) => new URL(`/static/i18n/${c}.json`, location.href), ['en']);
  const board = await host.loadBoard(msg.game, ['en']);
  const t = translator('en', board.strings, shell.strings);
  const root = document.createElement('div');
  root.className = 'board';
  root.tabIndex = -1;
  document.querySelector('main').replaceChildren(root);
  window.sent = [];
  const ctx = {
    t, h, announce, reducedMotion: true, pending: false,
    names: msg.seats.map((s) => s.name),
    send: (move) => { window.sent.push(move); return true; },
    redraw: () => host.drawBoard(board, root, msg, ctx),
  };
  host.drawBoard(board, root, msg, ctx);
}"""

# The board's round summary of msg.round_end, drawn into the page as the table would.
SUMMARY_JS = """async (msg) => {
  const host = await import('/static/board-host.js');
  const { translator, loadCatalog } = await import('/static/i18n.js');
  const { h } = await import('/static/dom.js');
  const { avatar } = await import('/static/avatars.js');
  const { summaryRow } = await import('/static/summary.js');
  const shell = await loadCatalog((c) => new URL(`/static/i18n/${c}.json`, location.href), ['en']);
  const board = await host.loadBoard(msg.game, ['en']);
  const t = translator('en', board.strings, shell.strings);
  const names = msg.seats.map((s) => s.name);
  const face = (n) => avatar(h, n);
  const ctx = { t, h, names, avatar: face, summaryRow: (row) => summaryRow(h, face, row) };
  const box = document.createElement('div');
  box.id = 'summary';
  box.append(board.module.summary(msg.round_end, msg, ctx));
  document.querySelector('main').append(box);
}"""

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]


def summary_points(page: Any, players: int) -> list[tuple[int, str]]:
    """Each seat's points and reason as the summary shows them."""
    rows = []
    for seat in range(players):
        row = page.locator(f"#summary .summary-row[data-seat='{seat}']")
        points = row.locator(".summary-points")
        assert points.inner_text().startswith(str(points.get_attribute("data-points")))
        why = row.locator(".summary-why").inner_text()
        rows.append((int(points.get_attribute("data-points") or -1), why))
    return rows


def message(game_name: str, state: State, seat: int, seq: int) -> dict[str, Any]:
    game = state.game
    return {
        "type": "state", "game": game_name, "status": "playing", "seq": seq,
        **game_part(game, state, seat),
        "seats": [
            {"seat": s, "kind": "human", "bot": None, "name": NAMES[s], "taken": True,
             "connected": True, "bot_playing": False}
            for s in range(game.num_players)
        ],
        "spectators": 0, "timer": None, "log": [], "rematch": None,
    }  # fmt: skip


def show(person: Person, server: Server, msg: dict[str, Any]) -> Any:
    page = person.page
    if not page.url.startswith(server.url):
        page.goto(server.url + "/")
        # The lobby is drawn; now borrow its page.
        page.wait_for_selector("#set-up", state="attached")
    page.evaluate(RENDER_JS, msg)
    return page


def sent(page: Any) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = page.evaluate("() => window.sent")
    return moves


def test_marshmallow_test_dealer_names_trump_by_keyboard_and_refusals_cite_rules(
    browser: Any, server: Server, screenshots: Path
) -> None:
    game = load("marshmallow-test", players=3)
    state = game.new_game(random.Random(5))
    rng = random.Random(6)
    seq = 0
    # Play at random into round 2, where the dealer names trump first (MT-4.2).
    while state.round_number < 2 or state.view(state.to_move).to_json()["trump"] is not None:
        state.apply(rng.choice(list(state.legal_moves())))
        seq += 1
    dealer = state.to_move
    assert dealer is not None
    person = Person.open(browser, "Ann")
    page = show(person, server, message("marshmallow-test", state, dealer, seq))
    assert "MT-4.2" in page.locator(".mt-prompt").inner_text()
    shoot(page, screenshots, "marshmallow-test-trump-choice-desktop")
    # The summary of round 1: each seat's points are the engine's, with the rule.
    msg = message("marshmallow-test", state, dealer, seq)
    msg["round_end"] = ended_rounds(game, Journal().new_events(state))[0].view(dealer).to_json()
    page.evaluate(SUMMARY_JS, msg)
    shown = summary_points(page, 3)
    assert [points for points, _ in shown] == list(state.round_scores[0])
    assert all(re.search(r"\(MT-[678]\.\d\)", why) for _, why in shown), shown
    page.locator(".mt-trump-choice button").first.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    legal = [m.to_json() for m in state.legal_moves()]
    assert sent(page) == [legal[1]] and "trump" in legal[1]

    # Later, following: each card that may not be played names the engine's rule.
    state.apply(state.legal_moves()[1])
    seq += 1
    while True:
        seat = state.to_move
        assert seat is not None
        msg = message("marshmallow-test", state, seat, seq)
        if msg["view"]["current_trick"] and len(msg["legal"]) < len(msg["view"]["hand"]):
            break
        state.apply(rng.choice(list(state.legal_moves())))
        seq += 1
    page = show(person, server, msg)
    playable = {m["play"] for m in msg["legal"]}
    reasons = {
        r["move"]["play"]: f"{r['reason']} ({r['rule']})"
        for r in msg["refused"]
        if "play" in r["move"]
    }
    for card in msg["view"]["hand"]:
        button = page.locator(f".mt-hand button[data-card='{card}']")
        label = button.get_attribute("aria-label") or ""
        if card in playable:
            assert label.endswith(", playable")
        else:
            assert label.endswith(reasons[card]) and button.get_attribute("aria-disabled") == "true"
    refused = next(c for c in msg["view"]["hand"] if c not in playable)
    page.locator(f".mt-hand button[data-card='{refused}']").click(force=True)
    assert page.locator("#mt-reason").inner_text() == reasons[refused]
    assert sent(page) == []
    assert person.errors == []
    person.close()


def test_myrummy_111_preview_matches_the_engine_for_every_placement(
    browser: Any, server: Server
) -> None:
    game = load("myrummy-111", players=2)
    state = game.new_game(random.Random(11))
    state.apply(state.legal_moves()[0])  # seat 0 takes slot 0 (MR-4.2)
    view: Any = state.view(0)
    hand, card = list(view.hand or ()), view.taken_card
    assert card is not None
    sym = symbol_lookup(view.options.symbols)
    person = Person.open(browser, "Ann")
    page = show(person, server, message("myrummy-111", state, 0, 1))
    places: list[Any] = [m for m in state.legal_moves() if not getattr(m, "declare", True)]
    assert len(places) >= 2 * len(hand)
    for move in places:
        page.locator(f"button.mr-gap[data-key='gap-{move.position}']").click()
        page.locator(f".mr-discard[data-key='discard-{move.discard}']").click()
        shown = page.locator(".mr-hand.is-preview .mr-number").all_inner_texts()
        after = hand_after_place(hand, card, move.position, move.side)
        assert [int(n) for n in shown] == after, move
        verdict = page.locator(".mr-preview .mr-verdict").inner_text()
        if is_sorted(after):
            assert f"scores {sum(sym[c] for c in after) + 5}" in verdict
        else:
            assert f"best run {best_run(after, sym)} joker symbol" in verdict
    page.locator("#mr-confirm").click()
    assert sent(page) == [places[-1].to_json()]
    assert person.errors == []
    person.close()


def test_myrummy_111_refresh_and_a_sorted_declaration(
    browser: Any, server: Server, screenshots: Path
) -> None:
    game = load("myrummy-111", players=2)
    up = list(range(10, 10 + 12 * 3, 3))  # 10, 13, …, 43: sorted rising
    middle = [44, 60, 61]
    others = [c for c in range(2, 112) if c not in up and c not in middle]
    deal = {"hands": [up, others[:12]], "middle": middle, "draw": others[12:]}
    state = game.new_state()
    state.deal(game.deal_from_json(deal, "deal"))
    person = Person.open(browser, "Ann")
    page = show(person, server, message("myrummy-111", state, 0, 0))
    page.locator("button.mr-take[data-key='take-0']").click()
    assert sent(page) == [{"take": 0}]
    state.apply_as(0, Take(0))
    # 44 at the right end, 10 leaving from the far left, keeps the hand sorted.
    page = show(person, server, message("myrummy-111", state, 0, 1))
    page.locator("button.mr-gap[data-key='gap-12']").click()
    page.locator(".mr-discard[data-key='discard-far']").click()
    seen: Any = state.view(0)
    sym = symbol_lookup(seen.options.symbols)
    after = hand_after_place(up, 44, 12, 2)
    total = sum(sym[c] for c in after) + 5  # MR-6.2
    declare = page.locator("#mr-declare")
    assert declare.inner_text() == f"Place it and declare ({total})"
    declare.click()
    assert sent(page)[-1] == {"place": 12, "discard": "far", "declare": True}
    assert page.locator(".mr-warning").count() == 0

    # Once all three middle cards lie face up, the next seat may refresh (MR-4.1).
    state.apply_as(0, place(12, "far"))
    for seat, slot in ((1, 2), (0, 1)):
        state.apply_as(seat, Take(slot))
        state.apply_as(seat, place(0, "right"))
    seen = state.view(1)
    assert all(c is not None for c in seen.middle)
    page = show(person, server, message("myrummy-111", state, 1, 6))
    shoot(page, screenshots, "myrummy-111-refresh-desktop")
    page.get_by_role(
        "button", name="Refresh the middle, then take slot 3 face down (MR-4.1)"
    ).click()
    assert sent(page)[-1] == {"refresh": True, "take": 2}
    assert person.errors == []
    person.close()
