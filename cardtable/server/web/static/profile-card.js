// @ts-check
// A player's small profile card, opened from their name at a table: their
// rating per game, games played, and Follow / Block for a signed-in reader
// (docs/server.md, "Friends"). The same buttons stand on the profile page.
// At a table (table-friends.js, which loads this module only when it is
// needed) a name opens the card, and the invite panel of a table you wait at
// offers your friends in one click.

import { api, refusedWords } from "./api.js";
import { h, useStylesheet } from "./dom.js";
import { ratingText } from "./ratings.js";

// Its looks come with it (friends.css), not on every page.
useStylesheet("/static/friends.css");

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * What GET /api/friends gives (friends_api.py).
 * @typedef {object} FriendsList
 * @property {{name: string, online: boolean, tables: FriendPlace[]}[]} following
 * @property {{name: string}[]} blocked
 * @property {{id: string, title: string, url: string}[]} my_tables
 * @property {number} limit
 */
/**
 * A table a friend is at.
 * @typedef {{id: string, game: string, title: string, status: string, watching: boolean, url: string}} FriendPlace
 */

/**
 * A friends request: a POST with `body` where one is given.
 * @param {string} path
 * @param {unknown} [body]
 */
const send = (path, body) => api(path, body === undefined ? {} : { method: "POST", body });

/** @type {Promise<{name: string} | null> | null} */
let account = null;
/** The signed-in account (asked once a page). */
function whoAmI() {
  account ??= send("/api/account").then((a) => a.account, () => null);
  return account;
}

/** @returns {Promise<FriendsList | null>} null for a guest */
export function friendsList() {
  return send("/api/friends").catch(() => null);
}

/**
 * Follow / Unfollow and Block / Unblock for `name`, drawn as the reader stands
 * with them; a guest is asked to sign in, the reader's own name gets nothing.
 * @param {string} name
 * @param {Translate} t
 * @param {{list?: FriendsList, onChange?: () => unknown}} [options] `list`: the
 *   reader's lists when the page has them already; `onChange`: after a change
 * @returns {HTMLElement}
 */
export function relationButtons(name, t, { list: known, onChange } = {}) {
  const box = h("div", { class: "relation", dataset: { player: name } });
  const said = h("p", { class: "hint relation-said", role: "status" });
  /** @param {FriendsList | null} [given] */
  const draw = async (given) => {
    const [me, list] = await Promise.all([whoAmI(), given ?? friendsList()]);
    if (!me || !list) {
      box.replaceChildren(h("p", { class: "hint" }, h("a", { href: "/account" }, t("friends.card.signIn"))));
      return;
    }
    if (me.name.toLocaleLowerCase() === name.toLocaleLowerCase()) {
      box.replaceChildren(h("p", { class: "hint" }, t("friends.card.you")));
      return;
    }
    const key = name.toLocaleLowerCase();
    const following = list.following.some((f) => f.name.toLocaleLowerCase() === key);
    const blocked = list.blocked.some((b) => b.name.toLocaleLowerCase() === key);
    /**
     * @param {string} verb
     * @param {string} label
     * @param {string} extra
     */
    const button = (verb, label, extra) => h("button", {
      type: "button", class: extra, dataset: { verb },
      onclick: async () => {
        said.textContent = "";
        try {
          await send(`/api/friends/${verb}`, { name });
          if (onChange) { await onChange(); return; }
          await draw();
          said.textContent = t(`friends.done.${verb}`, { name });
        } catch (error) {
          said.textContent = refusedWords(error, t);
        }
      },
    }, label);
    box.replaceChildren(h("div", { class: "relation-buttons" },
      blocked ? null : following
        ? button("unfollow", t("friends.unfollow"), "")
        : button("follow", t("friends.follow"), "primary"),
      blocked
        ? button("unblock", t("friends.unblock"), "")
        : button("block", t("friends.block"), "danger")), said);
  };
  draw(known);
  return box;
}

/**
 * The card of `name`, as a dialog; focus goes back to `opener` when it closes.
 * @param {string} name
 * @param {Translate} t
 * @param {HTMLElement | null} [opener]
 */
export async function openProfileCard(name, t, opener = null) {
  document.getElementById("profile-card")?.remove();
  const body = h("div", { class: "profile-card-body" }, h("p", { class: "hint" }, t("friends.card.loading")));
  const close = h("button", { type: "button", class: "profile-card-close", "aria-label": t("friends.card.close") }, "×");
  const dialog = h("dialog", { class: "profile-card", id: "profile-card", "aria-labelledby": "profile-card-name" },
    h("div", { class: "profile-card-head" }, h("h2", { id: "profile-card-name" }, name), close), body);
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => { dialog.remove(); opener?.focus(); });
  // A click on the backdrop (outside the card's box) closes it too.
  dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
  document.body.append(dialog);
  dialog.showModal();
  /** @type {{name: string, since_ms: number, games: {game: string, title: string, played: number, ratings: {players: number, rating: number, provisional: boolean}[]}[]}} */
  let player;
  try {
    player = await send(`/api/players/${encodeURIComponent(name)}`);
  } catch (error) {
    const status = /** @type {import("./api.js").ApiError} */ (error).status;
    body.replaceChildren(h("p", { class: "hint" }, status === 404 ? t("friends.card.guest", { name }) : refusedWords(error, t)));
    return;
  }
  const since = new Date(player.since_ms).toLocaleDateString(document.documentElement.lang, { dateStyle: "long" });
  body.replaceChildren(
    h("p", { class: "hint" }, t("profile.since", { date: since })),
    player.games.length
      ? h("ul", { class: "profile-card-games" }, player.games.map((g) => h("li", { dataset: { game: g.game } },
        h("strong", {}, g.title),
        h("span", { class: "profile-card-played" }, t("profile.count", { count: g.played })),
        g.ratings.length
          ? g.ratings.map((r) => h("span", { class: "profile-card-rating", dataset: { players: r.players } },
            t("profile.ratingFor", { count: r.players }), " ", ratingText(t, r)))
          : h("span", { class: "hint" }, t("friends.card.unrated")))))
      : h("p", { class: "hint" }, t("profile.none")),
    relationButtons(player.name, t),
    h("p", {}, h("a", { href: `/players/${encodeURIComponent(player.name)}` }, t("friends.card.profile"))));
}

/**
 * "Invite a friend" in the table's invite panel, for a signed-in reader seated
 * at this table while it waits (GET /api/friends lists it in my_tables). A seat
 * joined as a guest is no account's: nothing is offered.
 * @param {HTMLElement} side
 * @param {string} tableId
 * @param {Translate} t
 */
export async function inviteFriendsHere(side, tableId, t) {
  const list = await friendsList();
  const panel = side.querySelector("#panel-invite");
  if (!list || !panel || !list.my_tables.some((m) => m.id === tableId)) return;
  panel.querySelector("#invite-friends")?.remove();
  const box = h("div", { class: "invite-friends", id: "invite-friends" },
    h("h3", {}, t("friends.table.heading")));
  if (!list.following.length) {
    box.append(h("p", { class: "hint" }, t("friends.table.none"), " ", h("a", { href: "/friends" }, t("friends.nav"))));
  } else {
    box.append(h("ul", { class: "friend-list" }, list.following.map((f) => h("li", { class: "friend" },
      h("span", { class: `presence${f.online ? " is-online" : ""}`, title: t(f.online ? "friends.online" : "friends.offline") }),
      h("span", { class: "friend-name" }, f.name),
      inviteButton(f.name, tableId, t)))));
  }
  panel.append(box);
}

/**
 * One click: invite `name` to `tableId`; the button says it is done (or why not).
 * @param {string} name
 * @param {string} tableId
 * @param {Translate} t
 * @param {string} [label] the button's words (the friends page names the table)
 */
export function inviteButton(name, tableId, t, label = t("friends.table.invite")) {
  const said = h("span", { class: "hint", role: "status" });
  const button = h("button", {
    type: "button", class: "invite-friend", dataset: { name, table: tableId },
    onclick: async () => {
      button.disabled = true;
      try {
        await send("/api/invites", { name, table: tableId });
        button.textContent = t("friends.table.invited");
      } catch (error) {
        button.disabled = false;
        said.textContent = refusedWords(error, t);
      }
    },
  }, label);
  return h("span", { class: "invite-one" }, button, said);
}
