// @ts-check
// The end of a game: which screen of a finished table is shown (the final
// standings, the replay or the analysis, named by the address's #replay or
// #analysis so the browser's Back returns to the standings), and the round
// that decided the game, worked out from the rounds' points the view already
// carries (docs/browser.md, "The end of a game").

/** @typedef {"standings" | "replay" | "analysis"} Screen */

/** @type {Screen[]} */
const OWN_SCREENS = ["replay", "analysis"];

/**
 * The screen an address's hash names; anything else is the standings.
 * @param {string} hash
 * @returns {Screen}
 */
export function screenOf(hash) {
  const name = /** @type {Screen} */ (hash.replace(/^#/, ""));
  return OWN_SCREENS.includes(name) ? name : "standings";
}

/**
 * How a game was decided: `round` (counted from 1) of `rounds`, and how —
 * "lead": the winners took the lead for good after that round; "first": they
 * led after every round; "only": the game had one round; "last": the winners
 * were not ahead of everyone else after the last round (a tie-break, or a win
 * shared by every seat), so only the last round can be named.
 * @typedef {{round: number, rounds: number, how: "lead" | "first" | "only" | "last", points: number[]}} Decided
 */

/**
 * The round that decided a finished game: the first round after which the
 * winners stayed ahead of every other seat at the end of each round to the
 * last. "Ahead" follows the final totals: more points where the winners hold
 * more, fewer where they hold fewer. Null where the view has no rounds' points
 * (`round_scores`: a list per round of each seat's points) to tell it from.
 * @param {unknown} roundScores the view's round_scores
 * @param {number[]} winners
 * @returns {Decided | null}
 */
export function decidingRound(roundScores, winners) {
  if (!Array.isArray(roundScores) || !roundScores.length || !winners.length) return null;
  const seats = Array.isArray(roundScores[0]) ? roundScores[0].length : 0;
  const wellFormed = roundScores.every((row) => Array.isArray(row) && row.length === seats
    && row.every((points) => Number.isFinite(points)));
  if (!seats || !wellFormed || winners.some((seat) => seat < 0 || seat >= seats)) return null;
  /** @type {number[][]} */
  const rows = roundScores;
  const rounds = rows.length;
  /** @type {number[][]} */
  const totals = [];
  rows.forEach((row, r) => totals.push(row.map((points, seat) => points + (r ? totals[r - 1][seat] : 0))));
  const others = [...Array(seats).keys()].filter((seat) => !winners.includes(seat));
  const last = (/** @type {number} */ round) => ({ round, rounds, how: /** @type {const} */ ("last"), points: rows[round - 1] });
  if (!others.length) return last(rounds);
  const final = totals[rounds - 1];
  const lowWins = Math.max(...winners.map((s) => final[s])) < Math.min(...others.map((s) => final[s]));
  const sign = lowWins ? -1 : 1;
  /** @param {number[]} total */
  const ahead = (total) => winners.every((w) => others.every((o) => sign * (total[w] - total[o]) > 0));
  let from = rounds; // the first round of the lead kept to the end (rounds: none)
  while (from > 0 && ahead(totals[from - 1])) from -= 1;
  if (from === rounds) return last(rounds);
  const how = rounds === 1 ? "only" : from === 0 ? "first" : "lead";
  return { round: from + 1, rounds, how, points: rows[from] };
}

/**
 * The sentence saying how the game was decided, in the page's language.
 * @param {Decided} decided
 * @param {string} names the winners, joined
 * @param {number} count how many winners
 * @param {import("./i18n.js").Translate} t
 */
export function decidedWords({ round, rounds, how }, names, count, t) {
  return t(`end.decided.${how}`, { round, rounds, names, count });
}

/**
 * A seat's points in the deciding round, signed ("+5", "−2", "0").
 * @param {number} points
 */
export function signed(points) {
  return points > 0 ? `+${points}` : points < 0 ? `\u2212${-points}` : "0";
}
