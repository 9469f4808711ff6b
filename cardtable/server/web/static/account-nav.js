// @ts-check
// The header's account links on every page ("Sign in", or "My games", "Friends"
// and the account's name), and the "your turn" notice: while a signed-in person is
// elsewhere on the site and a game of theirs waits for them, the tab's title
// and icon say so.

import { api } from "./api.js";
import { h } from "./dom.js";

const POLL_MS = 15000;
// A small filled circle: the tab icon while a game waits for you.
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d9480f"/></svg>');

/**
 * @param {HTMLElement} box
 * @param {import("./i18n.js").Translate} t
 * @returns {Promise<{name: string} | null>}
 */
export function accountNav(box, t) {
  known = drawNav(box, t);
  return known;
}

/** @type {Promise<{name: string} | null> | null} */
let known = null;

/**
 * Who is signed in, as the header found out (null: a guest), without asking
 * the server again.
 * @returns {Promise<{name: string} | null>}
 */
export function signedIn() {
  return known ?? Promise.resolve(null);
}

/**
 * @param {HTMLElement} box
 * @param {import("./i18n.js").Translate} t
 * @returns {Promise<{name: string} | null>}
 */
async function drawNav(box, t) {
  /** @type {{name: string} | null} */
  let account;
  try { ({ account } = await api("/api/account")); } catch { return null; }
  box.replaceChildren(account
    ? h("span", { class: "account-links" },
      h("a", { href: "/me", id: "nav-my-games" }, t("nav.myGames")),
      h("a", { href: "/friends", id: "nav-friends" }, t("friends.nav")),
      h("a", { href: "/account", id: "nav-account" }, account.name))
    : h("a", { href: "/account", id: "nav-sign-in" }, t("nav.signIn")));
  if (account) watchTurns(t);
  return account;
}

/** @param {import("./i18n.js").Translate} t */
function watchTurns(t) {
  const here = location.pathname.match(/^\/t\/([^/]+)\/?$/)?.[1];
  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = /** @type {string} */ (icon?.getAttribute("href")); // index.html gives it one
  const prefix = t("turn.prefix");
  let waiting = false;
  // Pages set their own title when they have loaded, which may be after the first
  // check: whenever the title changes without the notice, put the notice back.
  const showNotice = () => {
    const plain = document.title.startsWith(prefix) ? document.title.slice(prefix.length + 1) : document.title;
    const wanted = waiting ? `${prefix} ${plain}` : plain;
    if (document.title !== wanted) document.title = wanted;
  };
  const titleElement = document.querySelector("title");
  if (titleElement) new MutationObserver(showNotice).observe(titleElement, { childList: true, characterData: true, subtree: true });
  const check = async () => {
    try {
      /** @type {{in_progress: {id: string, your_turn: boolean}[]}} */
      const games = await api("/api/me/games");
      waiting = games.in_progress.some((g) => g.your_turn && g.id !== here);
    } catch { return; }
    showNotice();
    icon?.setAttribute("href", waiting ? TURN_ICON : plainIcon);
    document.body.dataset.yourTurn = waiting ? "yes" : "no";
  };
  check();
  setInterval(check, POLL_MS);
}
