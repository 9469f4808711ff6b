// @ts-check
// MyRummy 111 in the browser: draws one "state" message (built by the server
// from view(seat) only) as a card table and turns clicks and keys into moves:
// {"take": S}, {"refresh": true, "take": S}, {"place": P, "discard": side, "declare"?: true}.
// A placement is chosen in two steps — a numbered gap of the hand, then which
// card leaves — with a preview of the hand it leaves (its best run, whether it
// is sorted) before it is sent. Cards show their joker symbols (★, MR-1.2).

// The shell's types (docs/browser.md): used by the checker only, nothing is imported.
/** @typedef {import("../../../server/web/static/board-host.js").BoardContext} BoardContext */
/** @typedef {import("../../../server/web/static/board-host.js").SummaryContext} SummaryContext */
/** @typedef {import("../../../server/web/static/board-host.js").StateMessage<View>} Message */
/** @typedef {import("../../../server/web/static/i18n.js").Translate} Translate */
/** @typedef {BoardContext["h"]} H */
/** @typedef {(card: number) => number} Symbols a card's joker symbols */
/**
 * A public event of the round (view.py): a take, or a placement.
 * @typedef {{seat: number, take: number, refresh: boolean, card: number | null, reshuffled: boolean}} TakeEvent
 * @typedef {{seat: number, place: number, discard: string, card: number, declare: boolean}} PlaceEvent
 */
/**
 * A seat's view (view.py, to_json).
 * @typedef {object} View
 * @property {number | null} seat
 * @property {{players: number, target: number, rounds: number | null, turn_limit: number | null, symbols: number[]}} options
 * @property {number} round
 * @property {number} start_player
 * @property {number | null} to_move
 * @property {string} phase "take" or "place"
 * @property {number[] | null} hand
 * @property {number | null} taken_card
 * @property {number | null} taken_slot
 * @property {(number | null)[]} middle
 * @property {number[]} discard_pile
 * @property {number} draw_size
 * @property {number[]} hand_sizes
 * @property {(TakeEvent | PlaceEvent)[]} history
 * @property {(number | null)[][]} known
 * @property {number[]} scores
 * @property {number[][]} round_scores
 * @property {number} turns_in_round
 * @property {boolean} finished
 * @property {number[]} winners
 * @property {{round: number, last_place: PlaceEvent, declared_hand: number[] | null} | null} last_round
 */
/** @typedef {{first: number, last: number, value: number}} Run */
/** @typedef {{seq: number, replay: boolean, gap: number | null, side: string | null, confirmDeclare: boolean}} Placing */

export const css = new URL("./board.css", import.meta.url);
/** @param {string} lang */
export const catalog = (lang) => new URL(`./i18n.${lang}.json`, import.meta.url);

const STAR = "★";
/** @type {WeakMap<HTMLElement, Placing>} */
const memory = new WeakMap(); // root -> the placement being chosen: {seq, gap, side, confirmDeclare}
/** @type {WeakMap<HTMLElement, {seq: number, round: number, history: number, phase: string, takenCard: number | null, replay: boolean}>} */
const shown = new WeakMap(); // root -> what the last drawing showed, for motion

// ------------------------------------------------------------ the rules' sums
/**
 * The joker symbols of a card, from the table's own symbols option (MR-1.2, MR-9).
 * @param {{options: {symbols: number[]}}} view
 * @returns {Symbols}
 */
export function symbolsOf(view) {
  const table = view.options.symbols;
  return (card) => table[card - 2];
}

/**
 * MR-6.1: strictly rising or strictly falling, gaps allowed.
 * @param {number[]} hand
 */
export function isSorted(hand) {
  const up = hand.every((c, i) => i === 0 || hand[i - 1] < c);
  const down = hand.every((c, i) => i === 0 || hand[i - 1] > c);
  return up || down;
}

/**
 * The maximal sorted blocks as {first, last, rising} (neighbouring blocks share a card).
 * @param {number[]} hand
 */
export function sortedBlocks(hand) {
  /** @type {{first: number, last: number, rising: boolean}[]} */
  const blocks = [];
  for (let i = 0; i < hand.length - 1; i += 1) {
    const rising = hand[i] < hand[i + 1];
    const open = blocks.at(-1);
    if (open && open.last === i && open.rising === rising) open.last = i + 1;
    else blocks.push({ first: i, last: i + 1, rising });
  }
  return blocks;
}

/**
 * MR-6.3: the first block with the most symbols, as {first, last, value}.
 * @param {number[]} hand
 * @param {Symbols} sym
 * @returns {Run}
 */
export function bestRun(hand, sym) {
  if (hand.length === 1) return { first: 0, last: 0, value: sym(hand[0]) };
  /** @type {Run | null} */
  let best = null;
  for (const block of sortedBlocks(hand)) {
    let value = 0;
    for (let i = block.first; i <= block.last; i += 1) value += sym(hand[i]);
    if (!best || value > best.value) best = { first: block.first, last: block.last, value };
  }
  return /** @type {Run} */ (best); // a hand of two or more cards has a block
}

/**
 * The hand a placement leaves and the card that leaves it (MR-4.3/4.4).
 * @param {number[]} hand
 * @param {number} card
 * @param {number} position
 * @param {string | null} discard
 * @returns {{hand: number[], gone: number, newAt: number}}
 */
export function placeResult(hand, card, position, discard) {
  const after = [...hand];
  /** @type {number} */
  let gone;
  if (discard === "left") { gone = after[position - 1]; after[position - 1] = card; }
  else if (discard === "right") { gone = after[position]; after[position] = card; }
  else if (position === 0) { gone = /** @type {number} */ (after.pop()); after.unshift(card); }
  else { gone = /** @type {number} */ (after.shift()); after.push(card); }
  return { hand: after, gone, newAt: after.indexOf(card) };
}

// ---------------------------------------------------------------- drawing
/** @param {number} count */
function stars(count) {
  return STAR.repeat(count);
}

/**
 * @param {number} card
 * @param {Symbols} sym
 * @param {Translate} t
 */
function cardLabel(card, sym, t) {
  return t("card", { number: card, count: sym(card) });
}

/**
 * A face-up card that is not a button.
 * @param {number} card
 * @param {Symbols} sym
 * @param {BoardContext} ctx
 * @param {string} [extra] more classes
 */
function faceCard(card, sym, ctx, extra = "") {
  const { h, t } = ctx;
  return h("span", { class: `card mr-card ${extra}`, role: "img", "aria-label": cardLabel(card, sym, t) },
    h("span", { class: "mr-number", "aria-hidden": "true" }, String(card)),
    h("span", { class: "mr-stars", "aria-hidden": "true" }, stars(sym(card))));
}

/**
 * @param {BoardContext} ctx
 * @param {string} label
 * @param {string} [extra] more classes
 */
function backCard(ctx, label, extra = "") {
  return ctx.h("span", { class: `card card-back ${extra}`, role: "img", "aria-label": label });
}

/**
 * @param {HTMLElement} root
 * @param {Message} msg
 * @param {BoardContext} ctx
 */
export function render(root, msg, ctx) {
  const { h, t } = ctx;
  const view = msg.view;
  const sym = symbolsOf(view);
  const names = ctx.names;
  const n = view.options.players;
  const me = view.seat;
  const mine = me !== null && msg.to_move === me && !msg.finished && !msg.replay;
  let state = memory.get(root);
  if (!state || state.seq !== msg.seq || state.replay !== Boolean(msg.replay)) {
    state = { seq: msg.seq, replay: Boolean(msg.replay), gap: null, side: null, confirmDeclare: false };
  }
  memory.set(root, state);
  const redraw = () => ctx.redraw();
  const hands = msg.views ? msg.views.map((v) => v?.hand ?? null) : null;

  // ------------------------------------------------------------ seats
  const bottom = me ?? 0;
  /** @type {HTMLElement[]} */
  const seatBoxes = [];
  const before = shown.get(root);
  const now = {
    seq: msg.seq, round: view.round, history: view.history.length, phase: view.phase,
    takenCard: view.taken_card, replay: Boolean(msg.replay),
  };
  const redrawOnly = before && before.seq === now.seq && before.replay === now.replay;
  const sameRound = before && before.round === now.round && before.replay === now.replay;
  shown.set(root, now);
  const others = Array.from({ length: n - 1 }, (_, k) => (bottom + 1 + k) % n);
  /** @param {number} seat */
  const seatPlate = (seat) => {
    /** @type {Partial<import("../../../server/web/static/board-host.js").SeatInfo>} */
    const info = msg.seats?.[seat] ?? {};
    const badges = [];
    if (seat === view.start_player) badges.push(h("span", { class: "seat-badge", title: t("seat.startsLong") }, t("seat.starts")));
    if (info.kind === "bot") badges.push(h("span", { class: "seat-badge" }, t("seat.bot")));
    if (info.bot_playing) badges.push(h("span", { class: "seat-badge away" }, t("seat.away")));
    else if (info.kind === "human" && info.connected === false && info.name) badges.push(h("span", { class: "seat-badge away" }, t("seat.offline")));
    if (view.winners.includes(seat)) badges.push(h("span", { class: "seat-badge" }, t("seat.winner")));
    const label = [names[seat], seat === me && !msg.replay ? t("seat.you") : null].filter(Boolean).join(" ");
    const open = hands?.[seat] && seat !== me ? hands[seat] : null;
    const row = seat === me && !open ? null : open
      ? h("div", { class: "mr-known", role: "group", "aria-label": t("seat.openHand", { name: names[seat] }) },
        open.map((c) => faceCard(c, sym, ctx, "card-small")))
      : knownRow(view.known[seat], seat, sym, ctx);
    const box = h("section", {
      class: `seat mr-seat${seat === view.to_move && !view.finished ? " is-to-move" : ""}${seat === me ? " is-me" : ""}`,
      "aria-label": label, dataset: { seat },
    },
    h("span", { class: "seat-head" }, ctx.avatar ? ctx.avatar(names[seat]) : null,
      h("span", { class: "seat-name" }, label),
      badges.length ? h("span", { class: "mr-badges" }, badges) : null),
    h("span", { class: "seat-facts" },
      h("span", {}, t("seat.cards", { count: view.hand_sizes[seat] })),
      h("strong", {}, t("seat.score", { count: view.scores[seat] }))),
    row);
    seatBoxes[seat] = box;
    return box;
  };

  // ----------------------------------------------------------- centre
  const takeMoves = mine && view.phase === "take" ? msg.legal.filter((m) => "take" in m) : [];
  const plainTake = new Set(takeMoves.filter((m) => !m.refresh).map((m) => m.take));
  const refreshTake = takeMoves.filter((m) => m.refresh);
  /** @type {HTMLElement[]} */
  const slotBoxes = [];
  const slots = view.middle.map((card, slot) => {
    const taken = slot === view.taken_slot && view.phase === "place";
    const shown = slot + 1; // people count slots from 1; the wire and the record from 0
    const label = taken ? t("middle.taken", { slot: shown }) : card === null ? t("middle.faceDown", { slot: shown }) : t("middle.faceUp", { slot: shown, card: cardLabel(card, sym, t) });
    const inner = taken ? h("span", { class: "card card-slot-empty", "aria-hidden": "true" }, "—")
      : card === null ? backCard(ctx, label) : faceCard(card, sym, ctx);
    const slotBox = plainTake.has(slot)
      ? h("button", {
        type: "button", class: "mr-slot mr-take", dataset: { key: `take-${slot}`, autofocus: slot === 0 ? "" : undefined },
        "aria-label": t("middle.take", { what: label }), disabled: ctx.pending,
        onclick: () => ctx.send({ take: slot }),
      }, inner, h("span", { class: "mr-slot-label", "aria-hidden": "true" }, t("middle.takeShort", { slot: shown })))
      : h("div", { class: "mr-slot", role: "group", "aria-label": label }, inner, h("span", { class: "mr-slot-label", "aria-hidden": "true" }, t("middle.slot", { slot: shown })));
    slotBoxes[slot] = slotBox;
    return slotBox;
  });
  const refresh = refreshTake.length
    ? h("div", { class: "mr-refresh", role: "group", "aria-labelledby": "mr-refresh-label" },
      h("span", { id: "mr-refresh-label" }, t("middle.refreshLabel")),
      refreshTake.map((m) => h("button", {
        type: "button", dataset: { key: `refresh-${m.take}` }, disabled: ctx.pending,
        "aria-label": t("middle.refreshTake", { slot: m.take + 1 }), onclick: () => ctx.send(m),
      }, t("middle.refreshShort", { slot: m.take + 1 }))))
    : null;
  const top = view.discard_pile[0];
  // The draw pile and the discard pile sit either side of the middle.
  const drawPile = h("div", { class: "mr-pile" }, backCard(ctx, t("piles.draw", { count: view.draw_size }), "card-small"),
    h("span", {}, t("piles.draw", { count: view.draw_size })));
  const discardPile = h("div", { class: "mr-pile" },
    top === undefined ? h("span", { class: "card card-small card-slot-empty", "aria-hidden": "true" }) : faceCard(top, sym, ctx, "card-small"),
    h("span", {}, t("piles.discard", { count: view.discard_pile.length })));
  const opts = view.options;
  const info = h("div", { class: "mr-info" },
    h("span", {}, opts.rounds ? t("centre.roundOf", { round: view.round, rounds: opts.rounds }) : t("centre.round", { round: view.round })),
    opts.rounds ? null : h("span", { class: "muted" }, t("centre.target", { target: opts.target, count: opts.target })),
    h("span", {}, opts.turn_limit
      ? t("centre.turnOf", { turn: Math.min(view.turns_in_round + 1, opts.turn_limit), limit: opts.turn_limit })
      : t("centre.turn", { turn: view.turns_in_round + 1 })));
  const centre = h("div", { class: "mr-centre" },
    info,
    h("div", { class: "mr-middle-row" },
      drawPile,
      h("div", { class: "mr-middle", role: "group", "aria-label": t("middle.label") }, slots),
      discardPile),
    refresh);
  const table = h("div", { class: `felt mr-table players-${n}` },
    h("div", { class: "mr-opponents" }, others.map(seatPlate)),
    centre,
    me === null ? null : seatPlate(me));

  // ---------------------------------------------------------- own hand
  const placingNow = me !== null && view.hand && mine && view.phase === "place" && view.taken_card !== null;
  const takenCard = placingNow ? faceCard(/** @type {number} */ (view.taken_card), sym, ctx, "mr-new mr-taken-card") : null;
  /** @type {HTMLElement[]} */
  const parts = [table, h("div", { class: "mr-prompt-row" },
    takenCard ? h("span", { class: "mr-taken" }, h("span", { class: "visually-hidden" }, t("place.taken")), takenCard) : null,
    h("p", { class: "mr-prompt", id: "mr-prompt" }, promptText(view, msg, mine, names, sym, t)))];
  /** @type {HTMLElement | null} */
  let handBox = null;
  if (me !== null && view.hand) {
    if (placingNow) {
      const [row, verdictLine, ...rest] = placing(view, msg, state, sym, ctx, redraw);
      handBox = row;
      parts.push(row, verdictLine);
      // The preview lies over the table, so the hand never moves while choosing.
      for (const part of rest) {
        if (part.classList.contains("mr-preview")) table.append(part);
        else parts.push(part);
      }
    } else {
      handBox = handRow(view.hand, sym, ctx, { label: t("hand.label", { count: view.hand.length }), numbered: true });
      parts.push(handBox, verdict(view.hand, sym, t, h));
    }
  }
  const scores = scoreTable(view, names, t, h, ctx.scoreHead);
  if (ctx.panel) ctx.panel("scores", scores);
  else parts.push(scores);
  root.replaceChildren(...parts);

  // ------------------------------------------------------------- motion
  // Only the way here is played; the new state is already on screen (motion.js).
  const motion = ctx.motion;
  if (!motion || redrawOnly) return;
  if (!sameRound) {
    if (before && handBox && !msg.replay) motion.deal(handBox.querySelectorAll(".card"), slotBoxes[1] ?? centre);
    return;
  }
  const latest = view.history.slice(before.history);
  for (const event of latest) {
    if ("take" in event) {
      if (event.seat === me && takenCard) motion.travel(takenCard, slotBoxes[event.take]);
      else motion.pulse(seatBoxes[event.seat]);
    } else {
      // The leaving card goes to the middle slot it was taken from.
      const take = view.history[view.history.indexOf(event) - 1];
      const slot = take && "take" in take ? slotBoxes[take.take] : null;
      const from = event.seat === me && handBox ? handBox : seatBoxes[event.seat];
      motion.travel(slot?.querySelector(".card"), from);
      if (event.seat === me && handBox && before.takenCard !== null) {
        // The taken card slides into its gap.
        const at = /** @type {number[]} */ (view.hand).indexOf(before.takenCard); // handBox: the seat has a hand
        const cell = handBox.querySelectorAll(".mr-cell")[at];
        motion.travel(cell, slot ?? centre, { scale: 1 });
      }
    }
  }
}

/**
 * @param {(number | null)[]} known
 * @param {number} seat
 * @param {Symbols} sym
 * @param {BoardContext} ctx
 */
function knownRow(known, seat, sym, ctx) {
  const { h, t } = ctx;
  const count = known.filter((c) => c !== null).length;
  return h("div", {
    class: "mr-known", role: "group",
    "aria-label": t("seat.known", { count, total: known.length }),
  }, known.map((card, position) => card === null
    ? h("span", { class: "card card-back card-small", "aria-hidden": "true", title: t("seat.unknownAt", { position }) })
    : faceCard(card, sym, ctx, "card-small mr-known-card")));
}

/**
 * @param {View} view
 * @param {Message} msg
 * @param {boolean} mine
 * @param {string[]} names
 * @param {Symbols} sym
 * @param {Translate} t
 */
function promptText(view, msg, mine, names, sym, t) {
  if (msg.replay) return "";
  if (view.finished) return t("prompt.finished");
  if (msg.to_move === null || msg.to_move === undefined) return "";
  if (!mine) return view.seat === null ? "" : t("prompt.wait", { name: names[msg.to_move] });
  if (view.phase === "take") return t("prompt.take");
  const slot = view.taken_slot;
  const faceUp = view.history.at(-1)?.card !== null && view.history.at(-1)?.card !== undefined;
  const taken = /** @type {number} */ (view.taken_card); // the place phase: a card was taken
  const card = t("cardShort", { number: taken, stars: stars(sym(taken)) });
  return t(faceUp ? "prompt.placeUp" : "prompt.placeDown", { card, slot: slot === null ? slot : slot + 1 });
}

/**
 * One row of the hand: cards with their joker symbols, maximal sorted blocks of
 * three or more tinted, the best run framed; with `gaps`, numbered buttons
 * between the cards choose where the taken card goes.
 * @param {number[]} hand
 * @param {Symbols} sym
 * @param {BoardContext} ctx
 * @param {object} options
 * @param {string} options.label
 * @param {((position: number) => HTMLElement) | null} [options.gaps]
 * @param {boolean} [options.numbered]
 * @param {number | null} [options.newAt]
 * @param {number | null} [options.goneIndex]
 * @param {string} [options.extra] more classes
 */
function handRow(hand, sym, ctx, { label, gaps = null, numbered = false, newAt = null, goneIndex = null, extra = "" }) {
  const { h, t } = ctx;
  const best = bestRun(hand, sym);
  const tint = new Array(hand.length).fill(0);
  sortedBlocks(hand).filter((b) => b.last - b.first >= 2).forEach((b, k) => {
    for (let i = b.first; i <= b.last; i += 1) tint[i] = tint[i] || (k % 2) + 1;
  });
  /** @type {HTMLElement[]} */
  const items = [];
  hand.forEach((card, i) => {
    if (gaps) items.push(gaps(i));
    else if (numbered) items.push(gapNumber(i, h));
    const classes = [
      "mr-in-hand",
      tint[i] ? `mr-block-${tint[i]}` : "",
      i >= best.first && i <= best.last ? "mr-best" : "",
      i === best.first ? "mr-best-first" : "",
      i === best.last ? "mr-best-last" : "",
      i === newAt ? "mr-new" : "",
      i === goneIndex ? "mr-gone" : "",
    ].join(" ");
    const words = [cardLabel(card, sym, t)];
    if (i >= best.first && i <= best.last) words.push(t("hand.inBestRun"));
    if (i === newAt) words.push(t("hand.newCard"));
    if (i === goneIndex) words.push(t("hand.leaving"));
    items.push(h("span", { class: `mr-cell ${classes}` },
      h("span", { class: "card mr-card", role: "img", "aria-label": words.join(", ") },
        h("span", { class: "mr-number", "aria-hidden": "true" }, String(card)),
        h("span", { class: "mr-stars", "aria-hidden": "true" }, stars(sym(card)))),
      i === newAt ? h("span", { class: "mr-tag", "aria-hidden": "true" }, t("hand.newTag")) : null,
      i === goneIndex ? h("span", { class: "mr-tag mr-tag-gone", "aria-hidden": "true" }, t("hand.goneTag")) : null));
  });
  if (gaps) items.push(gaps(hand.length));
  else if (numbered) items.push(gapNumber(hand.length, h));
  return h("div", { class: `mr-hand ${extra}`, role: "group", "aria-label": label }, items);
}

/**
 * The insertion position between cards (MR-4.3), shown even when not placing.
 * @param {number} position
 * @param {H} h
 */
function gapNumber(position, h) {
  return h("span", { class: "mr-gap-number", "aria-hidden": "true" }, String(position));
}

/**
 * @param {number[]} hand
 * @param {Symbols} sym
 * @param {Translate} t
 * @param {H} h
 */
function verdict(hand, sym, t, h) {
  const best = bestRun(hand, sym);
  if (isSorted(hand)) {
    const total = hand.reduce((s, c) => s + sym(c), 0) + 5;
    return h("p", { class: "mr-verdict is-sorted" }, t(hand[0] < /** @type {number} */ (hand.at(-1)) ? "verdict.sortedUp" : "verdict.sortedDown", { total }));
  }
  return h("p", { class: "mr-verdict" }, t("verdict.best", {
    value: best.value, from: hand[best.first], to: hand[best.last], count: best.last - best.first + 1,
  }));
}

/**
 * The place phase: choose a gap, then which card leaves; preview; confirm or declare.
 * @param {View} view
 * @param {Message} msg
 * @param {Placing} state
 * @param {Symbols} sym
 * @param {BoardContext} ctx
 * @param {() => void} redraw
 * @returns {HTMLElement[]}
 */
function placing(view, msg, state, sym, ctx, redraw) {
  const { h, t } = ctx;
  const hand = /** @type {number[]} */ (view.hand); // only a seat places
  const card = /** @type {number} */ (view.taken_card); // the card it took
  const legal = msg.legal.filter((m) => "place" in m && !m.declare);
  /** @type {(p: number) => string[]} */
  const sidesAt = (p) => legal.filter((m) => m.place === p).map((m) => m.discard);
  if (state.gap !== null && !sidesAt(state.gap).length) state.gap = null;
  if (state.gap !== null && !sidesAt(state.gap).includes(state.side ?? "")) state.side = sidesAt(state.gap)[0];

  /** @param {number} p */
  const gapButton = (p) => {
    const chosen = state.gap === p;
    const left = hand[p - 1];
    const right = hand[p];
    const where = left === undefined ? t("gap.start", { card: right }) : right === undefined ? t("gap.end", { card: left }) : t("gap.between", { left, right });
    return h("button", {
      type: "button", class: `mr-gap${chosen ? " is-chosen" : ""}`,
      "aria-pressed": String(chosen), dataset: { key: `gap-${p}`, autofocus: p === 0 && state.gap === null ? "" : undefined },
      "aria-label": t("gap.label", { card, position: p, where }),
      disabled: !sidesAt(p).length,
      onclick: () => { state.gap = p; state.side = sidesAt(p)[0]; state.confirmDeclare = false; redraw(); },
      onkeydown: (event) => gapKeys(event),
    }, String(p));
  };
  const p = state.gap;
  const goneAt = p === null ? null
    : state.side === "left" ? p - 1 : state.side === "right" ? p : p === 0 ? hand.length - 1 : 0;
  /** @type {HTMLElement[]} */
  const parts = [handRow(hand, sym, ctx, {
    label: t("hand.labelPlacing", { count: hand.length, card }), gaps: gapButton, goneIndex: goneAt, extra: "is-placing",
  }), verdict(hand, sym, t, h)];
  if (p === null) {
    parts.push(h("p", { class: "hint mr-hint" }, t("place.chooseGap")));
    return parts;
  }
  const result = placeResult(hand, card, p, state.side);
  const choices = h("div", { class: "mr-discards", role: "group", "aria-labelledby": "mr-discard-label" },
    h("span", { id: "mr-discard-label" }, t("place.whichLeaves")),
    sidesAt(p).map((side) => {
      const gone = placeResult(hand, card, p, side).gone;
      return h("button", {
        type: "button", class: `mr-discard${state.side === side ? " is-chosen" : ""}`,
        "aria-pressed": String(state.side === side), dataset: { key: `discard-${side}` },
        onclick: () => { state.side = side; state.confirmDeclare = false; redraw(); },
      }, t(`place.side.${side}`, { card: gone }));
    }));
  const sorted = isSorted(result.hand);
  const best = bestRun(result.hand, sym);
  const total = result.hand.reduce((s, c) => s + sym(c), 0) + 5;
  const move = { place: p, discard: state.side };
  const declareMove = { ...move, declare: true };
  const canDeclare = msg.legal.some((m) => m.place === p && m.discard === state.side && m.declare);
  const warning = !sorted && state.confirmDeclare
    ? h("p", { class: "mr-warning", role: "alert" }, t("place.declareWarning"))
    : null;
  parts.push(h("section", { class: "mr-preview", "aria-labelledby": "mr-preview-heading" },
    h("h3", { id: "mr-preview-heading" }, t("place.previewHeading")),
    choices,
    h("p", { class: "mr-leaves" }, t("place.leaves", { gone: result.gone, slot: view.taken_slot === null ? null : view.taken_slot + 1 })),
    handRow(result.hand, sym, ctx, { label: t("hand.labelPreview"), newAt: result.newAt, extra: "is-preview" }),
    h("p", { class: `mr-verdict${sorted ? " is-sorted" : ""}` }, sorted
      ? t("place.afterSorted", { total })
      : t("place.afterBest", { value: best.value, from: result.hand[best.first], to: result.hand[best.last] })),
    h("div", { class: "mr-confirm" },
      h("button", { type: "button", class: "primary", id: "mr-confirm", dataset: { key: "confirm" }, disabled: ctx.pending, onclick: () => ctx.send(move) }, t("place.confirm")),
      canDeclare ? h("button", {
        type: "button", id: "mr-declare", class: sorted ? "primary" : "mr-risky", dataset: { key: "declare" }, disabled: ctx.pending,
        onclick: () => {
          if (sorted || state.confirmDeclare) ctx.send(declareMove);
          else { state.confirmDeclare = true; redraw(); }
        },
      }, sorted ? t("place.declareSorted", { total }) : state.confirmDeclare ? t("place.declareAnyway") : t("place.declare")) : null),
    warning));
  return parts;
}

/**
 * Arrow keys walk the gaps of the hand.
 * @param {KeyboardEvent & {currentTarget: HTMLButtonElement}} event
 */
function gapKeys(event) {
  const step = /** @type {Record<string, number>} */ ({ ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 })[event.key];
  if (!step) return;
  const row = /** @type {HTMLElement} */ (event.currentTarget.closest(".mr-hand")); // a gap is in its hand's row
  const gaps = [.../** @type {NodeListOf<HTMLButtonElement>} */ (row.querySelectorAll("button.mr-gap:not(:disabled)"))];
  const i = gaps.indexOf(event.currentTarget);
  gaps[(i + step + gaps.length) % gaps.length]?.focus();
  event.preventDefault();
}

/**
 * The round's turns in words, one line each, from the public history (MR-5.1).
 * @param {View} view
 * @param {string[]} names
 * @param {Translate} t
 */
function turnLines(view, names, t) {
  /** @type {string[]} */
  const lines = [];
  let you = false; // whether the turn being told is the viewer's own
  for (const event of view.history) {
    if ("take" in event) {
      // The viewer's own turns are worded in the second person ("you"), others' in the third.
      you = event.seat === view.seat;
      const who = names[event.seat];
      const slot = event.take + 1; // people count slots from 1; the record from 0
      const down = event.refresh
        ? (you ? "log.youRefreshTookDown" : "log.refreshTookDown")
        : (you ? "log.youTookDown" : "log.tookDown");
      let text = event.card === null || event.card === undefined
        ? t(down, { who, slot })
        : t(you ? "log.youTookUp" : "log.tookUp", { who, slot, card: event.card });
      if (event.reshuffled) text += ` ${t("log.reshuffled")}`;
      lines.push(text);
    } else {
      const placed = event.discard === "far"
        ? (you ? "log.youPlacedFar" : "log.placedFar")
        : (you ? "log.youPlaced" : "log.placed");
      let text = `${lines.pop() ?? ""}, ${t(placed, { position: event.place, card: event.card })}`;
      if (event.declare) text += ` ${t(you ? "log.youDeclared" : "log.declared")}`;
      lines.push(text);
    }
  }
  // A take whose placement is still to come.
  if (lines.length && "take" in /** @type {TakeEvent | PlaceEvent} */ (view.history.at(-1))) lines.push(`${lines.pop()} ${t("log.pending")}`);
  return lines;
}

/**
 * The game so far in words (the table's log): past rounds' scores, then this round's turns.
 * @param {Message} msg
 * @param {Translate} t
 * @param {string[]} names
 */
export function narrate(msg, t, names) {
  const view = msg.view;
  /** @type {string[]} */
  const lines = [];
  /** @type {(row: number[], r: number) => string} */
  const scored = (row, r) => t("log.roundScores", { round: r + 1, scores: row.map((p, s) => `${names[s]} ${p}`).join(", ") });
  view.round_scores.slice(0, view.round - 1).forEach((row, r) => lines.push(scored(row, r)));
  const starts = view.start_player === view.seat ? "log.youStart" : "log.roundStart";
  lines.push(t(starts, { round: view.round, name: names[view.start_player] }));
  lines.push(...turnLines(view, names, t));
  const last = view.round_scores[view.round - 1];
  if (last) lines.push(scored(last, view.round - 1));
  if (view.finished) {
    // The verb agrees with the winners: one (you, or another), or several.
    const [only, ...more] = view.winners;
    const key = more.length ? "log.wonShared" : only === view.seat ? "log.youWon" : "log.won";
    lines.push(t(key, { names: view.winners.map((s) => names[s]).join(", "), count: Math.max(...view.scores) }));
  }
  return lines;
}

// Three or more seats get compact column heads (their avatars): names side by side would not fit.
/**
 * @param {View} view
 * @param {string[]} names
 * @param {Translate} t
 * @param {H} h
 * @param {(name: string, compact: boolean) => HTMLElement} [scoreHead]
 */
function scoreTable(view, names, t, h, scoreHead = (name) => h("th", { scope: "col" }, name)) {
  const rows = view.round_scores.map((row, r) => h("tr", {},
    h("th", { scope: "row" }, String(r + 1)),
    row.map((points) => h("td", {}, String(points)))));
  const opts = view.options;
  return h("details", { class: "mr-scores", open: true },
    h("summary", {}, opts.rounds ? t("scores.headingRounds", { count: opts.rounds }) : t("scores.heading", { target: opts.target })),
    h("div", { class: "mr-scores-scroll", tabindex: "0", role: "region", "aria-label": opts.rounds ? t("scores.headingRounds", { count: opts.rounds }) : t("scores.heading", { target: opts.target }) },
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.roundCol")), names.map((name) => scoreHead(name, names.length > 2)))),
        h("tbody", {}, rows),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("scores.total")), view.scores.map((s) => h("td", {}, String(s))))))));
}

/**
 * The summary of a round that ended, from `end` — the seat's view at that
 * moment (the server's `round_end`): the declarer's hand shown to all (MR-6.2),
 * each seat's best run with its joker symbols counted (MR-6.3; the cards of a
 * hand only where this seat saw it), the bonus, and each seat's points — the
 * engine's own round scores.
 * @param {View} end
 * @param {{views?: (View | null)[] | null}} msg
 * @param {SummaryContext} ctx
 */
export function summary(end, msg, ctx) {
  const { h, t } = ctx;
  const names = ctx.names;
  const sym = symbolsOf(end);
  const n = end.options.players;
  const last = end.last_round;
  const points = end.round_scores.at(-1) ?? new Array(n).fill(0);
  const declarer = last?.last_place?.declare ? last.last_place.seat : null;
  const declared = last?.declared_hand ?? null;
  /** @type {(hand: number[], run?: Run | null) => HTMLElement} */
  const cardsOf = (hand, run = null) => h("span", { class: "summary-cards" }, hand.map((c, i) =>
    faceCard(c, sym, ctx, `card-small${run && i >= run.first && i <= run.last ? " mr-run-card" : ""}`)));
  const rows = Array.from({ length: n }, (_, seat) => {
    /** @type {string} */
    let why;
    /** @type {HTMLElement | null} */
    let shownHand = null;
    if (seat === declarer && declared) {
      const total = declared.reduce((sum, c) => sum + sym(c), 0);
      why = isSorted(declared)
        ? t("summary.declaredSorted", { symbols: total, bonus: 5, count: total + 5 })
        : t("summary.declaredUnsorted");
      shownHand = cardsOf(declared);
    } else {
      const hand = seat === end.seat ? end.hand : msg.views?.[seat]?.hand ?? null;
      const run = hand?.length ? bestRun(hand, sym) : null;
      const cards = hand ?? []; // where there is a run, the hand it is in
      why = run
        ? t("summary.bestRunShown", { from: cards[run.first], to: cards[run.last], length: run.last - run.first + 1, count: run.value })
        : t("summary.bestRunHidden", { count: points[seat] });
      if (run) shownHand = cardsOf(cards, run);
      if (declarer === null) why = `${why} ${t("summary.turnLimit", { limit: end.options.turn_limit ?? "" })}`;
    }
    return ctx.summaryRow({
      seat, name: names[seat],
      facts: [seat === declarer ? t("summary.declarer") : t("summary.bestRunLabel")],
      why, points: points[seat], pointsText: t("summary.points", { count: points[seat] }),
      total: t("summary.total", { count: end.scores[seat] }),
      extra: shownHand,
    });
  });
  return h("section", { class: "mr-summary", "aria-labelledby": ctx.summaryId ?? "summary-heading" },
    h("h2", { id: ctx.summaryId ?? "summary-heading" }, t(end.finished ? "summary.lastRound" : "summary.heading", { round: last?.round ?? end.round })),
    h("p", {}, declarer === null ? t("summary.noDeclarer") : t(declarer === end.seat ? "summary.youDeclared" : "summary.declared", { name: names[declarer] })),
    h("ol", { class: "summary-list" }, rows));
}
