// @ts-check
// Table.js's hook for friends, kept small: it marks the people's names on the
// board as buttons, and loads the profile card (profile-card.js, with its
// stylesheet) only when a name is opened, or when a signed-in reader sits at
// a table still waiting for players (its invite panel then offers friends).
// A guest watching a game loads none of it.

import { signedIn } from "./account-nav.js";

/** @typedef {import("./i18n.js").Translate} Translate */

const card = () => import("./profile-card.js");

/**
 * @param {{root: HTMLElement, side: HTMLElement, tableId: string,
 *   seats: () => {kind?: string, name?: string | null}[], t: Translate}} table
 */
export function friendsAtTable({ root, side, tableId, seats, t }) {
  /** @param {Element | null} label the name's element, or null */
  const person = (label) => {
    const seat = label?.closest("[data-seat]");
    const info = seat ? seats()[Number(/** @type {HTMLElement} */ (seat).dataset.seat)] : null;
    return info && info.kind !== "bot" && info.name ? info.name : null;
  };
  root.addEventListener("click", async (event) => {
    const label = /** @type {Element} */ (event.target).closest?.(".seat-name") ?? null;
    const name = label && root.contains(label) ? person(label) : null;
    if (name) (await card()).openProfileCard(name, t, /** @type {HTMLElement} */ (label));
  });
  let seated = false; // whether the reader's seat was seen on the board yet
  // The names are buttons to a keyboard and a screen reader too. The board may
  // be drawn before this runs: marked now, then at every redraw.
  const mark = () => {
    if (!seated && root.querySelector(".is-me")) {
      seated = true; // seated now (on arriving, or by joining): may invite here
      signedIn().then(async (account) => {
        if (account) (await card()).inviteFriendsHere(side, tableId, t);
      });
    }
    for (const label of root.querySelectorAll(".seat-name:not([data-card])")) {
      const name = person(label);
      if (!name) continue;
      label.setAttribute("data-card", "");
      label.setAttribute("role", "button");
      label.setAttribute("tabindex", "0");
      label.setAttribute("title", t("friends.card.open", { name }));
      label.addEventListener("keydown", (event) => {
        const key = /** @type {KeyboardEvent} */ (event).key;
        if (key === "Enter" || key === " ") { event.preventDefault(); /** @type {HTMLElement} */ (label).click(); }
      });
    }
  };
  mark();
  new MutationObserver(mark).observe(root, { childList: true, subtree: true });
}
