// @ts-check
// How a rating reads wherever it is shown (profile, leaderboard, My games, the
// end of a game): the number, "?" while provisional (as lichess marks it), and
// a change as "+12" / "−5". The numbers come from the server (docs/server.md).

import { h } from "./dom.js";

/**
 * A rated seat's change at the end of a game (tables/outcomes.py, change_json).
 * @typedef {object} RatingChange
 * @property {number} seat
 * @property {number} after the new rating
 * @property {number} change
 * @property {boolean} provisional
 */

/**
 * A rating, with "?" and an explaining title while it is provisional.
 * @param {import("./i18n.js").Translate} t
 * @param {{rating: number, provisional: boolean}} rating
 */
export function ratingText(t, { rating, provisional }) {
  return h("span", {
    class: `rating${provisional ? " is-provisional" : ""}`,
    title: provisional ? t("rating.provisional") : null,
  }, provisional ? `${rating}?` : String(rating));
}

/**
 * A table's change: the new rating and the difference, as the end of a game shows it.
 * @param {import("./i18n.js").Translate} t
 * @param {RatingChange} change
 */
export function ratingChange(t, change) {
  const sign = change.change > 0 ? "+" : change.change < 0 ? "−" : "±";
  const tone = change.change > 0 ? "up" : change.change < 0 ? "down" : "level";
  return h("span", { class: `rating-change is-${tone}` },
    t("rating.change", { rating: `${change.after}${change.provisional ? "?" : ""}`, change: `${sign}${Math.abs(change.change)}` }));
}
