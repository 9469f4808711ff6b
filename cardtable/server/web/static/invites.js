// @ts-check
// Invitations to a table (GET /api/invites): "Ann invites you to Marshmallow
// Test" with Join and Dismiss, read once when a page loads. Any page mounts it
// into a container: app.js puts a banner above every page; a page that shows
// them in a place of its own (the lobby) mounts them there, and the banner
// steps aside, so they are never shown twice.

import { api, refusedWords } from "./api.js";
import { h, useStylesheet } from "./dom.js";

// Its looks come with it (friends.css), not on every page.
useStylesheet("/static/friends.css");

/** @type {HTMLElement | null} */
let banner = null;

/**
 * Show the reader's invitations in `container` (nothing for none, or a guest).
 * @param {HTMLElement} container
 * @param {import("./i18n.js").Translate} t
 * @param {{banner?: boolean}} [options] `banner`: app.js's place above every page
 */
export async function mountInvites(container, t, { banner: isBanner = false } = {}) {
  if (isBanner) banner = container;
  else if (banner) { banner.replaceChildren(); banner.hidden = true; banner = null; }
  /** @type {{invites: {from: string, table: string, title: string, url: string}[]}} */
  let found;
  try { found = await api("/api/invites"); } catch { return; }
  if (isBanner && banner !== container) return; // a page mounted its own meanwhile
  // The table this page shows needs no invitation to itself.
  found.invites = found.invites.filter((invite) => invite.url !== location.pathname);
  container.hidden = !found.invites.length;
  if (!found.invites.length) { container.replaceChildren(); return; }
  container.replaceChildren(h("section", { class: "invites", "aria-labelledby": "invites-heading" },
    h("h2", { id: "invites-heading", class: "invites-heading" }, t("friends.invites.heading")),
    h("ul", { class: "invite-list" }, found.invites.map((invite) => {
      const said = h("span", { class: "hint", role: "status" });
      const item = h("li", { class: "invite", dataset: { table: invite.table } },
        h("span", { class: "invite-text" }, t("friends.invites.line", { name: invite.from, title: invite.title })),
        h("a", { class: "button primary", href: invite.url }, t("friends.invites.join")),
        h("button", {
          type: "button", class: "invite-dismiss",
          onclick: async () => {
            try {
              await api("/api/invites/dismiss", { method: "POST", body: { table: invite.table } });
              item.remove();
              if (!container.querySelector(".invite")) { container.replaceChildren(); container.hidden = true; }
            } catch (error) { said.textContent = refusedWords(error, t); }
          },
        }, t("friends.invites.dismiss")),
        said);
      return item;
    }))));
}
