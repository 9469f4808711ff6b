// @ts-check
// "My games" (/me): games in progress, those where it is your turn first (the
// oldest deadline first), then finished games with their result, replay,
// analysis and record. "Your turn" (/my/turns): only the games waiting for you.

import { api } from "./api.js";
import { h } from "./dom.js";
import { ratingChange } from "./ratings.js";
import { hoursAndMinutes } from "./time-left.js";

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * A game of the account's (history.py, _entry).
 * @typedef {object} HeldGame
 * @property {string} id
 * @property {string} title
 * @property {number} seat
 * @property {string} status
 * @property {string[]} names
 * @property {number} created_ms
 * @property {string} url
 */
/**
 * A game in progress; at a turn-based table waiting for you, when your move's time runs out.
 * @typedef {HeldGame & {your_turn: boolean, move_hours: number | null, deadline_ms: number | null}} LiveGame
 */
/**
 * A finished one (history.py, _finished): its result, scores, what it did to
 * the rating (null: not rated) and its links.
 * @typedef {HeldGame & {result: string, scores: number[], rating: import("./ratings.js").RatingChange | null, record: string, replay: string, analysis: string}} FinishedGame
 */

/**
 * @param {HTMLElement} main
 * @param {import("./i18n.js").Env} env
 * @param {{turnsOnly?: boolean}} [which] only the games waiting for you (/my/turns)
 */
export async function showMyGames(main, env, { turnsOnly = false } = {}) {
  const { t } = env;
  document.title = t(turnsOnly ? "games.turnsPageTitle" : "games.pageTitle");
  /** @type {{in_progress: LiveGame[], finished: FinishedGame[]}} */
  let games;
  try {
    games = await api("/api/me/games");
  } catch (refused) {
    const error = /** @type {import("./api.js").ApiError} */ (refused);
    main.replaceChildren(h("h1", {}, t("games.heading")),
      h("p", { class: "panel" }, error.status === 401
        ? h("a", { href: "/account" }, t("games.signInFirst")) : error.message));
    return;
  }
  if (turnsOnly) {
    const waiting = games.in_progress.filter((g) => g.your_turn);
    main.replaceChildren(h("h1", {}, t("games.turnsHeading")),
      h("section", { class: "panel" }, waiting.length
        ? h("ul", { class: "game-list", id: "your-turns" }, waiting.map((g) => liveItem(g, t)))
        : h("p", { class: "hint" }, t("games.noTurns"), " ", h("a", { href: "/me" }, t("nav.myGames")))));
    return;
  }
  const claimed = Number(new URLSearchParams(location.search).get("claimed") ?? 0);
  main.replaceChildren(
    h("h1", {}, t("games.heading")),
    h("p", { class: "account-done", role: "status" }, claimed ? t("account.claimed", { count: claimed }) : ""),
    h("div", { class: "my-games" },
      h("section", { class: "panel", "aria-labelledby": "live-heading" },
        h("h2", { id: "live-heading" }, t("games.inProgress")),
        games.in_progress.length
          ? h("ul", { class: "game-list", id: "in-progress" }, games.in_progress.map((g) => liveItem(g, t)))
          : h("p", { class: "hint" }, t("games.none"))),
      h("section", { class: "panel", "aria-labelledby": "finished-heading" },
        h("h2", { id: "finished-heading" }, t("games.finished")),
        games.finished.length
          ? h("ul", { class: "game-list", id: "finished" }, games.finished.map((g) => finishedItem(g, t)))
          : h("p", { class: "hint" }, t("games.noneFinished")))));
}

/**
 * @param {HeldGame} game
 * @param {Translate} t
 */
function others(game, t) {
  // A bot's seat is named "bot:<name>" in records; people's names are shown as they are.
  const names = game.names.filter((_, seat) => seat !== game.seat)
    .map((name) => (name.startsWith("bot:") ? botWords(name.slice(4), t) : name));
  return t("games.with", { names: names.join(", ") });
}

/**
 * A bot by its level in words ("Bot (leicht)"), else by its name.
 * @param {string} bot
 * @param {Translate} t
 */
function botWords(bot, t) {
  return t.has(`level.${bot}`) ? t("games.botLevel", { level: t(`level.${bot}`) }) : t("games.bot", { bot });
}

/** @param {HeldGame} game */
function when(game) {
  return new Date(game.created_ms).toLocaleDateString(document.documentElement.lang, { dateStyle: "medium" });
}

/**
 * @param {LiveGame} game
 * @param {Translate} t
 */
function liveItem(game, t) {
  const state = game.your_turn ? "yourTurn" : game.status === "waiting" ? "waiting" : "theirTurn";
  return h("li", { class: `game-item${game.your_turn ? " is-your-turn" : ""}`, dataset: { table: game.id } },
    h("div", { class: "game-item-text" },
      h("strong", {}, game.title),
      h("span", { class: `badge state-${state}` }, t(`games.${state}`)),
      game.deadline_ms === null ? null : h("span", { class: "time-left" },
        t("games.timeLeft", { time: hoursAndMinutes((game.deadline_ms - Date.now()) / 1000, t.lang) })),
      h("span", { class: "hint" }, `${others(game, t)} · ${when(game)}`)),
    h("a", { class: `button${game.your_turn ? " primary" : ""}`, href: game.url }, t("games.open")));
}

/**
 * @param {FinishedGame} game
 * @param {Translate} t
 */
function finishedItem(game, t) {
  return h("li", { class: "game-item", dataset: { table: game.id } },
    h("div", { class: "game-item-text" },
      h("strong", {}, game.title),
      h("span", { class: `badge result-${game.result}` }, t(`games.result.${game.result}`)),
      game.rating ? ratingChange(t, game.rating) : null,
      h("span", { class: "hint" }, `${others(game, t)} · ${t("games.scores", { scores: game.scores.join(" – ") })} · ${when(game)}`)),
    h("div", { class: "game-item-actions" },
      h("a", { class: "button", href: game.replay }, t("games.replay")),
      h("a", { class: "button", href: game.analysis }, t("games.analysis")),
      h("a", { class: "button", href: game.record, download: `cardtable-${game.id}.json` }, t("games.record"))));
}
