// The header's account links on every page ("Sign in", or "My games" and the
// account's name), and the "your turn" notice: while a signed-in person is
// elsewhere on the site and a game of theirs waits for them, the tab's title
// and icon say so.

import { api } from "./api.js";
import { h } from "./dom.js";

const POLL_MS = 15000;
// A small filled circle: the tab icon while a game waits for you.
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#d9480f"/></svg>');

export async function accountNav(box, t) {
  let account = null;
  try { ({ account } = await api("/api/account")); } catch { return null; }
  box.replaceChildren(account
    ? h("span", { class: "account-links" },
      h("a", { href: "/me", id: "nav-my-games" }, t("nav.myGames")),
      h("a", { href: "/account", id: "nav-account" }, account.name))
    : h("a", { href: "/account", id: "nav-sign-in" }, t("nav.signIn")));
  if (account) watchTurns(t);
  return account;
}

function watchTurns(t) {
  const here = location.pathname.match(/^\/t\/([^/]+)\/?$/)?.[1];
  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = icon?.getAttribute("href");
  let plainTitle = null;
  const check = async () => {
    let waiting = [];
    try {
      const games = await api("/api/me/games");
      waiting = games.in_progress.filter((g) => g.your_turn && g.id !== here);
    } catch { return; }
    // The page may set its own title after loading: remember it while no notice is shown.
    if (!document.title.startsWith(t("turn.prefix"))) plainTitle = document.title;
    document.title = waiting.length ? `${t("turn.prefix")} ${plainTitle}` : plainTitle;
    icon?.setAttribute("href", waiting.length ? TURN_ICON : plainIcon);
    document.body.dataset.yourTurn = waiting.length ? "yes" : "no";
  };
  check();
  setInterval(check, POLL_MS);
}
