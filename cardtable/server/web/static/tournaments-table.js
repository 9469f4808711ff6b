// @ts-check
// A tournament's table (table.js): its badge, the line at its top that says
// which tournament and deal it is, and at the end of the deal the way back to the
// tournament (where a rematch would be at any other table). The table's
// state message names its tournament: {id, name, deal (from 0), deals}.

import { h } from "./dom.js";
import { tournamentHref } from "./tournaments-words.js";

/** @typedef {{id: string, name: string, deal: number, deals: number}} TableTournament */

/**
 * The tournament a table's state names, or null at any other table.
 * @param {import("./board-host.js").StateMessage | null} msg
 * @returns {TableTournament | null}
 */
export function tableTournament(msg) {
  return /** @type {{tournament?: TableTournament | null}} */ (msg ?? {}).tournament ?? null;
}

/**
 * Fill the table's top line: "Tournament <name> · deal k of n", a link to it; hidden elsewhere.
 * @param {HTMLAnchorElement} line
 * @param {TableTournament | null} tournament
 * @param {import("./i18n.js").Translate} t
 */
export function drawTournamentLine(line, tournament, t) {
  line.hidden = !tournament;
  if (!tournament) return;
  line.href = tournamentHref(tournament.id);
  // A state naming the tournament alone (no name, deal or count) still links back to it.
  const full = typeof tournament.name === "string" && Number.isInteger(tournament.deal) && Number.isInteger(tournament.deals);
  line.textContent = full
    ? t("tournament.atTable", { name: tournament.name, deal: tournament.deal + 1, deals: tournament.deals })
    : t("tournament.backToTournament");
}

/**
 * "Tournament", the badge a tournament's table shows where another shows "Rated" or "Friendly".
 * @param {import("./i18n.js").Translate} t
 */
export function tournamentBadge(t) {
  return h("span", { class: "badge badge-tournament" }, t("tournament.badge"));
}

/**
 * "Back to the tournament", the end of a deal's main way on.
 * @param {TableTournament} tournament
 * @param {import("./i18n.js").Translate} t
 */
export function backToTournament(tournament, t) {
  return h("a", { class: "button primary", id: "back-to-tournament", href: tournamentHref(tournament.id) }, t("tournament.backToTournament"));
}
