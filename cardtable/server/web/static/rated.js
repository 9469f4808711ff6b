// @ts-check
// Rated or friendly tables (Board Game Arena's choice, made when a table is made):
// the badge that says which a table is, the lobby's filter on it, and the create
// form's "Rated" box, offered to a signed-in creator only (a guest has no rating).

import { api } from "./api.js";
import { h } from "./dom.js";

/**
 * "Rated" or "Friendly", as a badge beside a table's status or title.
 * @param {{rated?: boolean}} table
 * @param {import("./i18n.js").Translate} t
 */
export function ratedBadge(table, t) {
  const rated = table.rated !== false;
  return h("span", { class: `badge ${rated ? "badge-rated" : "badge-friendly"}`, dataset: { rated: String(rated) } },
    t(rated ? "rated.rated" : "rated.friendly"));
}

/**
 * The open tables' filter: any, rated only or friendly only (GET /api/tables?rated=).
 * @param {import("./i18n.js").Translate} t
 */
export function ratedFilter(t) {
  return h("select", { id: "filter-rated" },
    h("option", { value: "" }, t("rated.any")),
    h("option", { value: "true" }, t("rated.onlyRated")),
    h("option", { value: "false" }, t("rated.onlyFriendly")));
}

/**
 * The create form's box: on for a signed-in creator, off and unavailable for a guest.
 * @param {import("./i18n.js").Translate} t
 */
export function ratedChoice(t) {
  const box = h("input", { type: "checkbox", id: "new-rated", name: "rated", disabled: true, "aria-describedby": "new-rated-help" });
  const help = h("small", { class: "hint", id: "new-rated-help" }, t("rated.guestHint"));
  api("/api/account").then(({ account }) => {
    if (!account) return;
    box.disabled = false;
    box.checked = true;
    help.textContent = t("rated.hint");
  }).catch(() => {});
  return {
    element: h("div", { class: "field check" }, box, h("label", { for: "new-rated" }, t("rated.label")), help),
    rated: () => box.checked,
  };
}
