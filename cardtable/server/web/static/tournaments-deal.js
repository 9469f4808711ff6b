// @ts-check
// One deal of a tournament (/tournaments/{id}/deals/{k}), once it is over at
// every table: each table's seats with their points and percentages, seat by
// seat as the deal was dealt (the same cards in the same seat at every
// table), and each table's replay and analysis. While the deal is played
// anywhere the server says so (409, tournament.error.dealInPlay) and nothing shows.

import { api, refusedWords } from "./api.js";
import { h, useStylesheet } from "./dom.js";
import { dealHref, entrantWords, percentWords, tournamentHref } from "./tournaments-words.js";

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * A seat on the deal at one table.
 * @typedef {import("./tournaments-words.js").Entrant & {points: number, percent: number}} DealSeat
 */
/**
 * GET /api/tournaments/{id}/deals/{k}.
 * @typedef {{deal: number, tables: {number: number, table_id: string, seats: DealSeat[]}[]}} Deal
 */

/**
 * @param {HTMLElement} main
 * @param {string} id
 * @param {number} deal counted from 0
 * @param {import("./i18n.js").Env} env
 */
export async function showDeal(main, id, deal, env) {
  const { t } = env;
  const styled = useStylesheet("/static/tournaments.css");
  const path = `/api/tournaments/${encodeURIComponent(id)}`;
  const back = h("p", { class: "tournament-back" }, h("a", { href: tournamentHref(id), id: "deal-back" }, t("tournament.backToTournament")));
  /** @type {import("./tournaments-words.js").TournamentDetail} */
  let one;
  try {
    one = await api(path);
  } catch (error) {
    document.title = t("tournament.pageTitle");
    main.replaceChildren(h("h1", {}, t("tournament.missing")), h("p", { class: "panel error", role: "alert" }, refusedWords(error, t)),
      h("p", {}, h("a", { href: "/tournaments" }, t("tournament.backToList"))));
    return;
  }
  const heading = h("h1", {}, t("tournament.dealOf", { deal: deal + 1, deals: one.deals }));
  document.title = t("tournament.dealPageTitle", { deal: deal + 1, name: one.name });
  /** @type {Deal} */
  let played;
  try {
    played = await api(`${path}/deals/${deal}`);
  } catch (error) {
    main.replaceChildren(back, heading, h("p", { class: "panel", role: "alert", id: "deal-refused" }, refusedWords(error, t)));
    return;
  }
  await styled;
  main.classList.add("tournaments-page");
  main.replaceChildren(
    back,
    h("header", { class: "tournament-head" },
      heading,
      h("p", { class: "tournament-facts" }, one.name),
      h("p", { class: "hint" }, t("tournament.dealHint"))),
    h("nav", { class: "tournament-deal-nav", "aria-label": t("tournament.dealsHeading") },
      deal > 0 ? h("a", { class: "button", href: dealHref(id, deal - 1), rel: "prev" }, t("tournament.previousDeal")) : null,
      deal + 1 < one.deals_over ? h("a", { class: "button", href: dealHref(id, deal + 1), rel: "next" }, t("tournament.nextDeal")) : null),
    h("div", { class: "tournament-deal-tables", id: "deal-tables" }, played.tables.map((table) => tablePanel(table, t))));
}

/**
 * One table on the deal: each seat's player, points and percentage, and its
 * replay and analysis (the table's own page, end.js's screens).
 * @param {Deal["tables"][number]} table
 * @param {Translate} t
 */
function tablePanel(table, t) {
  const href = `/t/${encodeURIComponent(table.table_id)}`;
  const heading = `deal-table-${table.number}`;
  const number = table.number + 1; // the server counts tables from 0
  return h("section", { class: "panel tournament-deal-table", dataset: { table: table.table_id }, "aria-labelledby": heading },
    h("h2", { id: heading }, t("tournament.tableNumber", { number })),
    h("table", { class: "board" },
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("tournament.seat")),
        h("th", { scope: "col" }, t("tournament.player")),
        h("th", { scope: "col", class: "board-number" }, t("tournament.points")),
        h("th", { scope: "col", class: "board-number" }, t("tournament.percent")))),
      h("tbody", {}, table.seats.map((s, seat) => h("tr", { dataset: { seat } },
        h("td", { class: "tournament-place" }, String(seat + 1)),
        h("td", {}, entrantWords(s, t)),
        h("td", { class: "board-number" }, String(s.points)),
        h("td", { class: "board-number" }, percentWords(s.percent, t.lang)))))),
    h("div", { class: "tournament-deal-links" },
      h("a", { class: "button", href: `${href}#replay` }, t("tournament.replay"),
        h("span", { class: "visually-hidden" }, ` ${t("tournament.tableNumber", { number })}`)),
      h("a", { class: "button", href: `${href}#analysis` }, t("tournament.analysis"),
        h("span", { class: "visually-hidden" }, ` ${t("tournament.tableNumber", { number })}`))));
}
