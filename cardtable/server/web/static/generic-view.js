// @ts-check
// Reading any game's view JSON without knowing the game (for the generic board,
// generic-board.js): which field is the seat's own hand, which hold one value
// per seat, which are piles of cards, plays (a seat and its card), score rows,
// plain facts and nested sections. Only what the view holds is ever read, so
// the board can show no card the seat may not see.

// Fields the state message also says at its top level (seat, to_move,
// finished, winners) or that the board shows its own way.
const OWN_WAY = new Set(["seat", "players", "to_move", "finished", "winners", "hand"]);
const ROUND_KEYS = ["round_number", "round"];

/**
 * Any JSON value (a view, a move).
 * @typedef {null | boolean | number | string | Json[] | {[key: string]: Json}} Json
 */
/**
 * A card as a view names it; null: one not known (or an empty place).
 * @typedef {string | number | null} Card
 */
/** @typedef {{seat: number, card: string | number}} Play */
/**
 * One field of a view read (readView), its value as its kind says (kindOf).
 * @typedef {{key: string, kind: "fact", value: Json}
 *   | {key: string, kind: "perSeat", value: (number | boolean)[]}
 *   | {key: string, kind: "rows", value: number[][]}
 *   | {key: string, kind: "seatPiles", value: Card[][]}
 *   | {key: string, kind: "piles", value: Card[][]}
 *   | {key: string, kind: "plays", value: Play[]}
 *   | {key: string, kind: "playGroups", value: Play[][]}
 *   | {key: string, kind: "pile", value: Card[]}
 *   | {key: string, kind: "records", value: {[key: string]: Json}[]}
 *   | {key: string, kind: "section", value: Field[]}} Field
 */
/** @typedef {Field["kind"]} Kind */

/** @type {(value: unknown) => value is string | number} */
const isCard = (value) => typeof value === "string" || typeof value === "number";
/** @param {unknown} value */
const isCount = (value) => typeof value === "number" || typeof value === "boolean";

/**
 * A play is [seat, "card"] or {seat, card, …}: a seat of the table and what it put down.
 * @param {any} value
 * @param {number} players
 * @returns {Play | null}
 */
function asPlay(value, players) {
  /** @param {unknown} seat */
  const seated = (seat) => Number.isInteger(seat) && /** @type {number} */ (seat) >= 0 && /** @type {number} */ (seat) < players;
  if (Array.isArray(value) && value.length === 2 && seated(value[0]) && typeof value[1] === "string") {
    return { seat: value[0], card: value[1] };
  }
  if (value && typeof value === "object" && !Array.isArray(value) && seated(value.seat) && isCard(value.card)) {
    return { seat: value.seat, card: value.card };
  }
  return null;
}

/** @type {(items: Json[], players: number) => boolean} */
const allPlays = (items, players) => items.every((item) => asPlay(item, players) !== null);

/**
 * What kind of thing one field of a view is:
 * - "fact": a number, string, true/false or null (`key` tells an empty list of
 *   scores from an empty pile);
 * - "perSeat": one number or true/false per seat (hand sizes, scores, who is out);
 * - "rows": rows of one number per seat (scores by round);
 * - "seatPiles": one list of cards per seat (nulls are cards not known);
 * - "plays": who put down which card (a trick), "playGroups": lists of them (past tricks);
 * - "pile": a list of cards (strings or numbers; nulls are empty places);
 * - "piles": lists of cards; "records": a list of objects (a history);
 * - "section": a nested object, read the same way.
 * @param {Json} value
 * @param {number} players
 * @param {string} [key]
 * @returns {Kind}
 */
export function kindOf(value, players, key = "") {
  if (value === null || !(typeof value === "object")) return "fact";
  if (!Array.isArray(value)) return "section";
  if (!value.length) return key.endsWith("scores") ? "rows" : "pile"; // no round scored yet
  if (value.length === players && value.every(isCount)) return "perSeat";
  if (allPlays(value, players)) return "plays";
  if (value.every((item) => item === null || isCard(item))) return "pile";
  if (value.every(Array.isArray)) {
    if (value.every((row) => row.length === players && row.every((v) => typeof v === "number"))) return "rows";
    if (value.every((list) => allPlays(list, players))) return "playGroups";
    if (value.every((list) => list.every((item) => item === null || isCard(item)))) {
      return value.length === players ? "seatPiles" : "piles";
    }
  }
  if (value.every((item) => item && typeof item === "object" && !Array.isArray(item))) return "records";
  return "fact";
}

/**
 * A view as {round, hand, fields: [{key, kind, value}]} in the view's own order;
 * plays are normalised to {seat, card}. `players` is the number of seats.
 * @param {{[key: string]: Json}} view
 * @param {number} players
 * @returns {{round: number | null, hand: (string | number)[] | null, fields: Field[]}}
 */
export function readView(view, players) {
  const round = /** @type {number | undefined} */ (ROUND_KEYS.map((key) => view[key]).find(Number.isInteger)) ?? null;
  const hand = Array.isArray(view.hand) && view.hand.every(isCard) ? view.hand : null;
  const fields = readFields(view, players, new Set([...OWN_WAY, ...ROUND_KEYS]));
  return { round, hand, fields };
}

/**
 * @param {{[key: string]: Json}} object
 * @param {number} players
 * @param {Set<string>} [skip]
 * @returns {Field[]}
 */
function readFields(object, players, skip = new Set()) {
  return Object.entries(object).filter(([key]) => !skip.has(key)).map(([key, value]) => {
    const kind = kindOf(value, players, key);
    // kindOf looked at the value: it has the shape its kind says.
    const known = /** @type {any} */ (value);
    if (kind === "plays") return { key, kind, value: known.map((/** @type {Json} */ p) => asPlay(p, players)) };
    if (kind === "playGroups") return { key, kind, value: known.map((/** @type {Json[]} */ list) => list.map((p) => asPlay(p, players))) };
    if (kind === "section") return { key, kind, value: readFields(known, players) };
    return /** @type {Field} */ ({ key, kind, value: known });
  });
}

/**
 * Every string a JSON value holds (which card names a view shows).
 * @param {unknown} value
 * @param {Set<string>} [into]
 * @returns {Set<string>}
 */
export function stringsIn(value, into = new Set()) {
  if (typeof value === "string") into.add(value);
  else if (Array.isArray(value)) value.forEach((item) => stringsIn(item, into));
  else if (value && typeof value === "object") Object.values(value).forEach((item) => stringsIn(item, into));
  return into;
}

/**
 * A move (or any JSON value) written the way it reads: {"play": "B2"} is
 * "play B2", {"place": 3, "discard": "left", "declare": true} is
 * "place 3, discard left, declare"; the words are the game's own JSON.
 * @param {unknown} value
 * @returns {string}
 */
export function notation(value) {
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(notation).filter(Boolean).join(" ");
  if (typeof value === "object") {
    return Object.entries(value)
      .map(([key, item]) => (item === true ? key : item === false || item === null ? "" : `${key} ${notation(item)}`))
      .filter(Boolean).join(", ");
  }
  return String(value);
}

/**
 * The fields of the moves that name a card of `hand` ("play" in {"play": 30,
 * "direction": "up"}): a field whose every legal value is a card of the hand,
 * or one whose values, legal and refused, name every card of the hand (a turn
 * where no card plays). Cards are compared strictly (5 is not "5"), so a field
 * counting slots ({"place": 3}) is not taken for one naming cards: its values
 * leave the hand's other cards out.
 * @param {unknown[]} legal the legal moves
 * @param {unknown[]} refused the refused moves
 * @param {(string | number)[]} hand
 * @returns {Set<string>}
 */
export function cardFields(legal, refused, hand) {
  const held = new Set(hand);
  /** @type {(moves: unknown[], key: string) => unknown[]} */
  const valuesOf = (moves, key) => moves.flatMap((m) => (isMove(m) && key in m ? [m[key]] : []));
  const keys = new Set([...legal, ...refused].flatMap((m) => (isMove(m) ? Object.keys(m) : [])));
  return new Set([...keys].filter((key) => {
    const played = valuesOf(legal, key);
    if (played.length) return played.every((v) => isCard(v) && held.has(v));
    const named = new Set(valuesOf(refused, key));
    return hand.length > 0 && hand.every((c) => named.has(c));
  }));
}

/**
 * A move is a JSON object ({"play": 30, "direction": "up"}).
 * @param {unknown} value
 * @returns {value is {[key: string]: unknown}}
 */
function isMove(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The card a move names by one of `fields` (cardFields), whether `hand` holds
 * it (not: another seat's, or one played), and the rest of the move, its
 * further choice ({"direction": "up"}; empty for {"play": "B2"}); null when
 * the move names no card.
 * @param {unknown} move
 * @param {(string | number)[]} hand
 * @param {Set<string>} fields
 * @returns {{card: string | number, held: boolean, rest: {[key: string]: unknown}} | null}
 */
export function cardOfMove(move, hand, fields) {
  if (!isMove(move)) return null;
  const key = Object.keys(move).find((k) => fields.has(k) && isCard(move[k]));
  if (key === undefined) return null;
  const card = /** @type {string | number} */ (move[key]);
  const rest = Object.fromEntries(Object.entries(move).filter(([k]) => k !== key));
  return { card, held: hand.includes(card), rest };
}

/**
 * The cards a read view lays face up on the table (piles, plays, cards by seat).
 * @param {Field[]} fields
 * @returns {Set<string | number>}
 */
export function cardsOnTable(fields) {
  /** @type {Set<string | number>} */
  const cards = new Set();
  for (const f of fields) {
    if (f.kind === "pile") f.value.forEach((c) => c !== null && cards.add(c));
    if (f.kind === "piles" || f.kind === "seatPiles") f.value.flat().forEach((c) => c !== null && cards.add(c));
    if (f.kind === "plays") f.value.forEach((p) => cards.add(p.card));
    if (f.kind === "playGroups") f.value.flat().forEach((p) => cards.add(p.card));
    if (f.kind === "section") cardsOnTable(f.value).forEach((c) => cards.add(c));
  }
  return cards;
}

/**
 * "hand_sizes" and "handSizes" read "Hand sizes": a field's words when no catalog names it.
 * @param {string} key
 */
export function wordsOf(key) {
  const words = key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
