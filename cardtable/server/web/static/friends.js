// @ts-check
// The friends page (/friends): the people you follow, who of them is online
// and at which table (Watch, or Join while it waits), an invitation to your
// waiting table in one click, following by name, and the players you blocked.
// "Online" is the server's (docs/server.md, "Friends").

import { api, refusedWords } from "./api.js";
import { h } from "./dom.js";
import { friendsList, inviteButton, relationButtons } from "./profile-card.js";

/**
 * @param {HTMLElement} main
 * @param {import("./i18n.js").Env} env
 */
export async function showFriends(main, env) {
  const { t } = env;
  document.title = t("friends.pageTitle");
  const list = await friendsList();
  if (!list) {
    main.replaceChildren(h("h1", {}, t("friends.heading")),
      h("p", { class: "panel" }, t("friends.signedOut"), " ", h("a", { href: "/account" }, t("nav.signIn"))));
    return;
  }
  const redraw = () => showFriends(main, env);
  const online = list.following.filter((f) => f.online);
  const said = h("p", { class: "hint", role: "status", id: "follow-said" });
  const nameInput = h("input", { id: "follow-name", name: "name", maxlength: 32, autocomplete: "off", required: true });
  const form = h("form", {
    class: "follow-form",
    onsubmit: async (event) => {
      event.preventDefault();
      try {
        await api("/api/friends/follow", { method: "POST", body: { name: nameInput.value.trim() } });
        await redraw();
      } catch (error) { said.textContent = refusedWords(error, t); }
    },
  }, h("label", { for: "follow-name" }, t("friends.addLabel")),
  h("div", { class: "follow-row" }, nameInput, h("button", { type: "submit", class: "primary" }, t("friends.follow"))),
  said);
  main.replaceChildren(
    h("h1", {}, t("friends.heading")),
    h("div", { class: "friends-page" },
      h("section", { class: "panel", "aria-labelledby": "following-heading" },
        h("h2", { id: "following-heading" }, t("friends.following"),
          " ", h("span", { class: "badge", id: "online-count" }, t("friends.onlineCount", { count: online.length }))),
        list.following.length
          ? h("ul", { class: "friend-list", id: "following" },
            // Online first, then by name (the server sorts by name).
            [...online, ...list.following.filter((f) => !f.online)].map((f) => friendItem(f, list, t, redraw)))
          : h("p", { class: "hint" }, t("friends.noneFollowed")),
        form,
        h("p", { class: "hint" }, t("friends.limit", { count: list.limit }))),
      h("section", { class: "panel", "aria-labelledby": "blocked-heading" },
        h("h2", { id: "blocked-heading" }, t("friends.blocked")),
        h("p", { class: "hint" }, t("friends.blockHelp")),
        list.blocked.length
          ? h("ul", { class: "friend-list", id: "blocked" }, list.blocked.map((b) => h("li", { class: "friend" },
            h("a", { class: "friend-name", href: `/players/${encodeURIComponent(b.name)}` }, b.name),
            relationButtons(b.name, t, { list, onChange: redraw }))))
          : h("p", { class: "hint" }, t("friends.noneBlocked")))));
}

/**
 * One person followed: presence, where they are (Watch / Join), Invite to your table, Unfollow.
 * @param {import("./profile-card.js").FriendsList["following"][number]} friend
 * @param {import("./profile-card.js").FriendsList} list
 * @param {import("./i18n.js").Translate} t
 * @param {() => unknown} redraw
 */
function friendItem(friend, list, t, redraw) {
  const place = (/** @type {import("./profile-card.js").FriendPlace} */ p) => h("li", { class: "friend-place", dataset: { table: p.id } },
    h("span", {}, t(p.watching ? "friends.status.watching" : `friends.status.${p.status}`, { title: p.title })),
    h("a", { class: "button", href: p.url }, t(p.status === "waiting" && !p.watching ? "friends.join" : "friends.watch")));
  return h("li", { class: "friend", dataset: { name: friend.name, online: friend.online ? "yes" : "no" } },
    h("div", { class: "friend-head" },
      h("span", { class: `presence${friend.online ? " is-online" : ""}`, "aria-hidden": "true" }),
      h("a", { class: "friend-name", href: `/players/${encodeURIComponent(friend.name)}` }, friend.name),
      h("span", { class: "hint friend-state" }, t(friend.online ? "friends.online" : "friends.offline"))),
    friend.tables.length ? h("ul", { class: "friend-places" }, friend.tables.map(place)) : null,
    h("div", { class: "friend-actions" },
      list.my_tables.map((m) => inviteButton(friend.name, m.id, t, t("friends.inviteTo", { title: m.title }))),
      relationButtons(friend.name, t, { list, onChange: redraw })));
}
