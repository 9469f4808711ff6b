// @ts-check
// Inviting someone to a table: the link shown whole, Copy, Share (the Web Share
// API where the browser has it) and a QR code (drawn by the server) for a phone
// at the same table.

import { h } from "./dom.js";

// `attrs` lets the page place the panel (an id, a drawer's name).
/**
 * @param {string} tableId
 * @param {import("./i18n.js").Translate} t
 * @param {import("./dom.js").Props} [attrs]
 */
export function invitePanel(tableId, t, attrs = {}) {
  const link = `${location.origin}/t/${encodeURIComponent(tableId)}`;
  const said = h("span", { class: "hint", role: "status" });
  const linkText = h("output", { class: "invite-link", id: "invite-link", "aria-label": t("table.inviteLabel") }, link);
  const copy = h("button", {
    type: "button", id: "copy-invite",
    onclick: async () => {
      getSelection()?.selectAllChildren(linkText);
      try { await navigator.clipboard.writeText(link); said.textContent = t("table.copied"); } catch { said.textContent = t("table.copyByHand"); }
    },
  }, t("table.copy"));
  const share = navigator.share ? h("button", {
    type: "button", id: "share-invite",
    onclick: () => navigator.share({ title: document.title, text: t("table.shareText"), url: link }).catch(() => {}),
  }, t("table.share")) : null;
  const qr = h("details", { class: "invite-qr" },
    h("summary", {}, t("table.qrShow")),
    h("img", {
      src: `/api/tables/${encodeURIComponent(tableId)}/qr.svg`, width: 180, height: 180,
      alt: t("table.qrAlt"), loading: "lazy",
    }));
  return h("section", { class: "panel invite", "aria-labelledby": "invite-heading", ...attrs },
    h("h2", { id: "invite-heading" }, t("table.inviteHeading")),
    linkText,
    h("div", { class: "invite-row" }, copy, share),
    said, qr);
}
