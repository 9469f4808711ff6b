// How a rating reads wherever it is shown (profile, leaderboard, My games, the
// end of a game): the number, "?" while provisional (as lichess marks it), and
// a change as "+12" / "−5". The numbers come from the server (docs/server.md).

import { h } from "./dom.js";

/** A rating, with "?" and an explaining title while it is provisional. */
export function ratingText(t, { rating, provisional }) {
  return h("span", {
    class: `rating${provisional ? " is-provisional" : ""}`,
    title: provisional ? t("rating.provisional") : null,
  }, provisional ? `${rating}?` : String(rating));
}

/** A table's change: the new rating and the difference, as the end of a game shows it. */
export function ratingChange(t, change) {
  const sign = change.change > 0 ? "+" : change.change < 0 ? "−" : "±";
  const tone = change.change > 0 ? "up" : change.change < 0 ? "down" : "level";
  return h("span", { class: `rating-change is-${tone}` },
    t("rating.change", { rating: `${change.after}${change.provisional ? "?" : ""}`, change: `${sign}${Math.abs(change.change)}` }));
}
