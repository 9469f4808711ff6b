// @ts-check
// A tournament's table (table.js): its badge, the line at its top that says
// which tournament and deal it is, and at the end of the deal the way back to the
// tournament (where a rematch would be at any other table). The table's
// state message names its tournament: {id, name, deal (from 0), deals}; the
// table page loads this only then.

import { api, savedSeat, saveSeat } from "./api.js";
import { h } from "./dom.js";
import { tournamentHref } from "./tournaments-words.js";

/** @typedef {{id: string, name: string, deal: number, deals: number}} TableTournament */

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

const NEXT_MS = 3000; // how often a finished deal's table asks whether the next deal's is made

/**
 * At a tournament table whose deal is over, for a person seated there: wait
 * for their table of the next deal (made once the deal is over at every
 * table) and go to it, so a real-time tournament takes its people from table
 * to table; at a turn-based one, offer it. The line says what it waits for;
 * it stops asking once the page redraws it away or the tournament is over.
 * @param {TableTournament} tournament
 * @param {string} tableId
 * @param {import("./i18n.js").Translate} t
 */
export function nextTable(tournament, tableId, t) {
  if (!savedSeat(tableId)) return null;
  const line = h("p", { class: "tournament-next", id: "tournament-next", role: "status" }, t("tournament.waitingOthers"));
  const ask = async () => {
    if (!line.isConnected) return;
    /** @type {{status: string, move_hours: number | null, table: {id: string, seat: number, token: string, deal: number} | null}} */
    let now;
    try {
      now = await api(`/api/tournaments/${encodeURIComponent(tournament.id)}`);
    } catch {
      setTimeout(ask, NEXT_MS);
      return;
    }
    if (now.status !== "running") { line.textContent = t("tournament.statusFinished"); return; }
    const next = now.table;
    if (!next || next.id === tableId) { setTimeout(ask, NEXT_MS); return; }
    saveSeat(next.id, next.seat, next.token);
    const href = `/t/${encodeURIComponent(next.id)}`;
    if (now.move_hours === null) { location.assign(href); return; }
    line.replaceChildren(h("a", { class: "button primary", id: "tournament-next-link", href }, t("tournament.yourTable", { deal: next.deal + 1 })));
  };
  setTimeout(ask, NEXT_MS);
  return line;
}
