// @ts-check
// The header's account links on every page ("Sign in", or "My games", "Friends"
// and the account's name), and the "your turn" notice: while a signed-in person is
// elsewhere on the site and games of theirs wait for them, the header links to
// them ("Your turn: 2", /my/turns) and the tab's title and icon say how many.

import { api } from "./api.js";
import { h } from "./dom.js";

const POLL_MS = 15000;
// A small filled circle: the tab icon while a game waits for you.
/** @param {number} count */
const turnIcon = (count) => "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8" fill="#d9480f"/>'
  + `<text x="8" y="12" font-size="11" font-family="sans-serif" font-weight="700" fill="#fff" text-anchor="middle">${count > 9 ? "9+" : count}</text></svg>`);

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
      h("a", { href: "/my/turns", id: "nav-turns", class: "nav-turns", hidden: true }),
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
  const link = document.getElementById("nav-turns");
  let waiting = 0;
  let shown = ""; // the notice now before the page's own title
  // Pages set their own title when they have loaded, which may be after the first
  // check: whenever the title changes without the notice, put the notice back.
  const showNotice = () => {
    const plain = shown && document.title.startsWith(`${shown} `) ? document.title.slice(shown.length + 1) : document.title;
    shown = waiting ? t("turn.prefix", { count: waiting }) : "";
    const wanted = waiting ? `${shown} ${plain}` : plain;
    if (document.title !== wanted) document.title = wanted;
  };
  const titleElement = document.querySelector("title");
  if (titleElement) new MutationObserver(showNotice).observe(titleElement, { childList: true, characterData: true, subtree: true });
  const check = async () => {
    try {
      /** @type {{in_progress: {id: string, your_turn: boolean}[]}} */
      const games = await api("/api/me/games");
      waiting = games.in_progress.filter((g) => g.your_turn && g.id !== here).length;
    } catch { return; }
    showNotice();
    icon?.setAttribute("href", waiting ? turnIcon(waiting) : plainIcon);
    document.body.dataset.yourTurn = waiting ? "yes" : "no";
    if (link) {
      link.hidden = !waiting;
      link.textContent = waiting ? t("nav.turns", { count: waiting }) : "";
    }
  };
  check();
  setInterval(check, POLL_MS);
}
