// @ts-check
// A refused move in the reader's language. A refusal crosses the wire as the
// engine's English reason (kept for the command line and records), its rule,
// and, for the games that name them, a key for its kind (`MT-5.3.follow`)
// with the facts its words need (`{lead: "red", cards: ["R4", "R9"]}`). The
// words come from the game's catalog, `refusal.<key>`, each fact put in the
// reader's terms: a seat as its player's name, a card by the board's label, a
// colour by the catalog's `colour.<name>`, a list of cards joined the way the
// language joins alternatives ("R4, R9 or B3": any one of them may be played). A refusal with no key, or a key the catalog does not
// word (a plugin game), shows the engine's reason, its seats ("seat 0": the
// engines count from 0) named as the page names them ("your seat" for the reader's).

/**
 * A refused move (a state message's `refused` entry, with its `move`) or an
 * `error` message: the engine's English `reason` (or the server's `message`),
 * its `rule`, and where the game names them a `key` with its `params`.
 * @typedef {object} Refusal
 * @property {string} [key]
 * @property {Record<string, unknown>} [params]
 * @property {string} [reason]
 * @property {string} [message]
 * @property {string} [rule]
 * @property {any} [move]
 */
/**
 * @typedef {object} RefusalContext
 * @property {string[]} [names]
 * @property {(name: string) => string} [cardLabel]
 * @property {number | null} [me] the reader's seat, for "your seat"
 */

// The parameters that name a seat (the engines count seats from 0).
const SEAT_PARAMS = new Set(["seat", "to_move", "dealer", "winner"]);
// The parameters that name a colour (MT-1.1's colour names).
const COLOUR_PARAMS = new Set(["lead", "trump"]);

/**
 * The catalog's placeholders for a refusal's parameters: names for seats,
 * labels for cards, words for colours, and `count` for plurals of a list.
 * `names[seat]` is a seat's player; `cardLabel(name)` a card's label.
 * @param {Record<string, unknown> | undefined} params
 * @param {import("./i18n.js").Translate} t
 * @param {RefusalContext} [context]
 * @returns {Record<string, unknown>}
 */
export function refusalParams(params, t, { names = [], cardLabel = (name) => name } = {}) {
  /** @type {Record<string, unknown>} */
  const vars = {};
  for (const [name, value] of Object.entries(params ?? {})) {
    if (SEAT_PARAMS.has(name) && Number.isInteger(value)) {
      const seat = /** @type {number} */ (value);
      vars[name] = names[seat] ?? String(seat + 1); // people count seats from 1
    } else if (COLOUR_PARAMS.has(name) && t.has(`colour.${value}`)) {
      vars[name] = t(`colour.${value}`);
    } else if (name === "card") {
      vars[name] = cardLabel(String(value));
    } else if (Array.isArray(value)) {
      vars[name] = new Intl.ListFormat(t.lang, { type: "disjunction" }).format(value.map((c) => cardLabel(String(c))));
      vars.count = value.length;
    } else {
      vars[name] = value;
    }
  }
  return vars;
}

/**
 * A refusal (a `refused` entry or an `error` message) in the reader's words.
 * @param {Refusal} refusal
 * @param {import("./i18n.js").Translate} t
 * @param {RefusalContext} [context]
 * @returns {string}
 */
export function refusalWords(refusal, t, context = {}) {
  const key = `refusal.${refusal.key}`;
  if (refusal.key && t.has(key)) return t(key, refusalParams(refusal.params, t, context));
  return namedSeats(refusal.reason ?? refusal.message ?? "", t, context);
}

/**
 * An engine's English sentence with each "seat N" (counted from 0) named as
 * the page names that seat: its player's name, or the catalog's
 * `generic.yourSeat` for the reader's own ("seat 0 does not hold A1" reads
 * "your seat does not hold A1" for seat 0, "Bob does not hold A1" for another).
 * @param {string} reason
 * @param {import("./i18n.js").Translate} t
 * @param {RefusalContext} [context]
 * @returns {string}
 */
export function namedSeats(reason, t, { names = [], me = null } = {}) {
  return reason.replace(/\b[Ss]eat (\d+)\b/g, (words, number) => {
    const seat = Number(number);
    if (seat === me && t.has("generic.yourSeat")) return t("generic.yourSeat");
    return names[seat] ?? words;
  });
}
