// @ts-check
// The page's entry: load the interface text, put the language switch in the
// header, then draw the lobby (/), a game's rules (/rules/{game}), a table (/t/{id}),
// the account (/account), My games (/me), a profile (/players/{name}), the
// friends page (/friends), a game's leaderboard (/leaderboard/{game}) or the
// tournaments (/tournaments, /tournaments/{id}, /tournaments/{id}/deals/{k}).

import { accountNav } from "./account-nav.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { chooseLanguage, loadCatalog, preferredLanguages, translator } from "./i18n.js";

const languages = preferredLanguages();
const { lang, strings } = await loadCatalog((code) => new URL(`./i18n/${code}.json`, import.meta.url), languages);
document.documentElement.lang = lang;
const t = translator(lang, strings);
const env = { t, lang, languages: [lang, ...languages.filter((l) => l !== lang)], strings };

/**
 * An element of index.html, which has every one this asks for.
 * @param {string} id
 */
const part = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

part("skip-link").textContent = t("app.skip");
part("brand").setAttribute("aria-label", t("app.home"));
languageSwitch(part("language-switch"));
const signedIn = accountNav(part("account-nav"), t);

const main = part("main");
// Invitations to a table, above every page (invites.js; a page may show them elsewhere).
const invites = h("div", { class: "invites-banner", id: "invites-banner", hidden: true });
main.before(invites);
// Only an account can be invited: a guest's page loads none of it.
signedIn.then(async (account) => {
  if (account) (await import("./invites.js")).mountInvites(invites, t, { banner: true });
});
const table = location.pathname.match(/^\/t\/([^/]+)\/?$/);
const rules = location.pathname.match(/^\/rules\/([^/]+)\/?$/);
const player = location.pathname.match(/^\/players\/([^/]+)\/?$/);
const board = location.pathname.match(/^\/leaderboard\/([^/]+)\/?$/);
const learning = location.pathname.match(/^\/(learn|puzzles)\/([^/]+)\/?$/);
const tournament = location.pathname.match(/^\/tournaments(?:\/([^/]+)(?:\/deals\/(\d+))?)?\/?$/);
if (learning) {
  const game = decodeURIComponent(learning[2]);
  if (learning[1] === "learn") await (await import("./learn.js")).showLesson(main, game, env);
  else await (await import("./puzzles.js")).showPuzzles(main, game, env);
} else if (table) {
  const { showTable } = await import("./table.js");
  await showTable(main, decodeURIComponent(table[1]), env);
} else if (rules) {
  const { showRules } = await import("./rules.js");
  await showRules(main, decodeURIComponent(rules[1]), env);
} else if (location.pathname === "/account") {
  const { showAccount } = await import("./account.js");
  await showAccount(main, env);
} else if (location.pathname === "/me" || location.pathname === "/my/turns") {
  const { showMyGames } = await import("./mygames.js");
  await showMyGames(main, env, { turnsOnly: location.pathname === "/my/turns" });
} else if (board) {
  const { showLeaderboard } = await import("./leaderboard.js");
  await showLeaderboard(main, decodeURIComponent(board[1]), env);
} else if (location.pathname === "/friends") {
  const { showFriends } = await import("./friends.js");
  await showFriends(main, env);
} else if (tournament) {
  if (!tournament[1]) await (await import("./tournaments.js")).showTournaments(main, env);
  else if (tournament[2] === undefined) await (await import("./tournaments-page.js")).showTournament(main, decodeURIComponent(tournament[1]), env);
  else await (await import("./tournaments-deal.js")).showDeal(main, decodeURIComponent(tournament[1]), Number(tournament[2]), env);
} else if (player) {
  const { showProfile } = await import("./profile.js");
  await showProfile(main, decodeURIComponent(player[1]), env);
} else {
  const { showLobby } = await import("./lobby.js");
  await showLobby(main, env);
}

/**
 * The header's language switch: every catalog the server has; a choice is remembered and redraws the page.
 * @param {HTMLElement} box
 */
async function languageSwitch(box) {
  /** @type {{code: string, name: string}[]} */
  const offered = await api("/api/languages").catch(() => []);
  if (offered.length < 2) return;
  const select = h("select", {
    id: "language", "aria-label": t("app.language"),
    onchange: (event) => { chooseLanguage(event.currentTarget.value); location.reload(); },
  }, offered.map((l) => h("option", { value: l.code, lang: l.code, selected: l.code === lang }, l.name)));
  box.replaceChildren(select);
}
