// @ts-check
// A game's leaderboard (/leaderboard/{game}?players=N): established ratings,
// best first, a page at a time; one board per player count.

import { api } from "./api.js";
import { h } from "./dom.js";
import { ratingText } from "./ratings.js";

/**
 * One page of a leaderboard (GET /api/leaderboard; leaderboard_api.py, board_page).
 * @typedef {object} BoardPage
 * @property {string} title
 * @property {number} players
 * @property {number[]} player_counts
 * @property {number} established_after
 * @property {number} total
 * @property {{rank: number, name: string, rating: number, provisional: boolean, games: number}[]} entries
 * @property {string | null} next
 */

/**
 * @param {HTMLElement} main
 * @param {string} game
 * @param {import("./i18n.js").Env} env
 */
export async function showLeaderboard(main, game, env) {
  const { t } = env;
  const wanted = new URLSearchParams(location.search).get("players");
  /** @param {string | null} cursor */
  const query = (cursor) => `/api/leaderboard?game=${encodeURIComponent(game)}`
    + (wanted ? `&players=${encodeURIComponent(wanted)}` : "") + (cursor ? `&cursor=${cursor}` : "");
  /** @type {BoardPage} */
  let page;
  try {
    page = await api(query(null));
  } catch (error) {
    document.title = t("board.missingTitle");
    main.replaceChildren(h("h1", {}, t("board.missingTitle")), h("p", { class: "panel" }, /** @type {Error} */ (error).message));
    return;
  }
  document.title = t("board.pageTitle", { game: page.title });
  const rows = h("tbody", {});
  const more = h("button", { type: "button", id: "board-more" }, t("board.more"));
  /** @param {BoardPage} next */
  const add = (next) => {
    rows.append(...next.entries.map((e) => h("tr", {},
      h("td", { class: "board-rank" }, String(e.rank)),
      h("td", {}, h("a", { href: `/players/${encodeURIComponent(e.name)}` }, e.name)),
      h("td", { class: "board-number" }, ratingText(t, e)),
      h("td", { class: "board-number" }, String(e.games)))));
    more.hidden = next.next === null;
    more.onclick = async () => {
      more.disabled = true;
      try { add(await api(query(next.next))); } finally { more.disabled = false; }
    };
  };
  add(page);
  const tabs = h("nav", { class: "board-tabs", "aria-label": t("board.counts") },
    page.player_counts.map((n) => h("a", {
      class: `button${n === page.players ? " primary" : ""}`,
      href: `/leaderboard/${encodeURIComponent(game)}?players=${n}`,
      "aria-current": n === page.players ? "page" : null,
    }, t("board.players", { count: n }))));
  main.classList.add("board-page");
  main.replaceChildren(
    h("h1", {}, t("board.heading", { game: page.title })),
    tabs,
    h("section", { class: "panel", "aria-labelledby": "board-heading" },
      h("h2", { id: "board-heading" }, t("board.subheading", { count: page.players })),
      page.total ? h("p", { class: "hint" }, t("board.total", { count: page.total })) : null,
      page.entries.length
        ? h("table", { class: "board", id: "leaderboard" },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, t("board.rank")),
            h("th", { scope: "col" }, t("board.player")),
            h("th", { scope: "col", class: "board-number" }, t("board.rating")),
            h("th", { scope: "col", class: "board-number" }, t("board.games")))),
          rows)
        : h("p", { class: "hint", id: "board-empty" }, t("board.empty", { count: page.established_after })),
      more,
      h("p", { class: "hint" }, t("board.how", { count: page.established_after }))));
}
