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
 * The card a move puts down, when it names one card of `hand` and nothing else ({"play": "B2"}).
 * @param {unknown} move
 * @param {(string | number)[]} hand
 * @returns {string | null}
 */
export function cardOfMove(move, hand) {
  const values = Object.values(move ?? {});
  return values.length === 1 && typeof values[0] === "string" && hand.includes(values[0]) ? values[0] : null;
}

/**
 * "hand_sizes" and "handSizes" read "Hand sizes": a field's words when no catalog names it.
 * @param {string} key
 */
export function wordsOf(key) {
  const words = key.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
