// @ts-check
// A player's public profile (/players/{name}): games played per game with the
// ratings there (per player count, and a link to the game's leaderboard),
// recent results with what each did to the rating, and the finished
// tournaments played with the place there.

import { api } from "./api.js";
import { h } from "./dom.js";
import { relationButtons } from "./profile-card.js";
import { ratingChange, ratingText } from "./ratings.js";
import { formWords, percentWords, placeWords } from "./tournaments-words.js";

/**
 * A player's profile (GET /api/players/{name}; history.py, profile).
 * @typedef {object} Profile
 * @property {string} name
 * @property {number} since_ms
 * @property {{game: string, title: string, played: number, ratings: {players: number, rating: number, provisional: boolean}[], leaderboard: string}[]} games
 * @property {{title: string, result: string, rating: import("./ratings.js").RatingChange | null, created_ms: number, url: string}[]} recent
 * @property {ProfileTournament[]} tournaments
 */
/**
 * A finished tournament the player played, and their place there (history.py, tournament_results).
 * @typedef {object} ProfileTournament
 * @property {string} id
 * @property {string} name
 * @property {string} title the game's
 * @property {import("./tournaments-words.js").Tournament["form"]} form
 * @property {number} place shared by a tie
 * @property {number} of entrants, bots too
 * @property {number} total
 * @property {number | null} finished_ms
 * @property {string} url
 */

/**
 * @param {HTMLElement} main
 * @param {string} name
 * @param {import("./i18n.js").Env} env
 */
export async function showProfile(main, name, env) {
  const { t } = env;
  /** @type {Profile} */
  let player;
  try {
    player = await api(`/api/players/${encodeURIComponent(name)}`);
  } catch (refused) {
    const error = /** @type {import("./api.js").ApiError} */ (refused);
    document.title = t("profile.missingTitle");
    main.replaceChildren(h("p", { class: "panel" }, error.status === 404 ? t("profile.missing", { name }) : error.message));
    return;
  }
  document.title = t("profile.pageTitle", { name: player.name });
  const since = new Date(player.since_ms).toLocaleDateString(document.documentElement.lang, { dateStyle: "long" });
  main.replaceChildren(
    h("h1", {}, player.name),
    h("p", { class: "hint" }, t("profile.since", { date: since })),
    relationButtons(player.name, t), // Follow / Block (profile-card.js)
    h("div", { class: "my-games" },
      h("section", { class: "panel", "aria-labelledby": "played-heading" },
        h("h2", { id: "played-heading" }, t("profile.played")),
        player.games.length
          ? h("ul", { class: "game-list", id: "played" }, player.games.map((g) => h("li", { class: "game-item", dataset: { game: g.game } },
            h("div", { class: "game-item-text" },
              h("strong", {}, g.title), h("span", {}, t("profile.count", { count: g.played })),
              ...g.ratings.map((r) => h("span", { class: "profile-rating", dataset: { players: r.players } },
                t("profile.ratingFor", { count: r.players }), " ", ratingText(t, r)))),
            h("a", { class: "button", href: g.leaderboard }, t("profile.leaderboard")))))
          : h("p", { class: "hint" }, t("profile.none"))),
      h("section", { class: "panel", "aria-labelledby": "recent-heading" },
        h("h2", { id: "recent-heading" }, t("profile.recent")),
        player.recent.length
          ? h("ul", { class: "game-list", id: "recent" }, player.recent.map((g) => h("li", { class: "game-item" },
            h("div", { class: "game-item-text" },
              h("strong", {}, g.title),
              h("span", { class: `badge result-${g.result}` }, t(`games.result.${g.result}`)),
              g.rating ? ratingChange(t, g.rating) : null,
              h("span", { class: "hint" }, new Date(g.created_ms).toLocaleDateString(document.documentElement.lang, { dateStyle: "medium" }))),
            h("a", { class: "button", href: `${g.url}#replay` }, t("games.replay")))))
          : h("p", { class: "hint" }, t("profile.none"))),
      tournaments(player.tournaments, t)));
}

/**
 * "1st of 16 · Friday cup · Marshmallow Test · Duplicate · 412.5 %", the name a link to the tournament.
 * @param {ProfileTournament[]} played
 * @param {import("./i18n.js").Translate} t
 */
function tournaments(played, t) {
  if (!played.length) return null;
  return h("section", { class: "panel", "aria-labelledby": "tournaments-heading" },
    h("h2", { id: "tournaments-heading" }, t("tournament.heading")),
    h("ul", { class: "game-list", id: "profile-tournaments" }, played.map((p) => h("li", { class: "game-item", dataset: { tournament: p.id } },
      h("div", { class: "game-item-text" },
        h("span", {},
          h("strong", { class: "profile-tournament-place" }, placeWords(p.place, p.of, t)), " · ",
          h("a", { href: p.url }, p.name), " · ",
          [p.title, formWords(p.form, t), percentWords(p.total, t.lang)].join(" · ")),
        p.finished_ms === null ? null
          : h("span", { class: "hint" }, new Date(p.finished_ms).toLocaleDateString(t.lang, { dateStyle: "medium" })))))));
}
