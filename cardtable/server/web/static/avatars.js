// @ts-check
// A face for every seat, drawn in the page (no images to download): the
// initials of the name on a colour derived from the name, so a person keeps
// the same colour at every table and neighbours rarely share one.

/**
 * Initials: the first letters of the first two words ("Bot 1 (easy)" -> "B1").
 * @param {string | null | undefined} name
 */
export function initials(name) {
  const words = String(name ?? "").replace(/[()]/g, " ").split(/\s+/).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0].toUpperCase());
  return letters.join("") || "?";
}

/**
 * A hue from the name (FNV-1a), at a lightness dark enough for white text (WCAG AA).
 * @param {string | null | undefined} name
 */
export function avatarColour(name) {
  let hash = 2166136261;
  for (const ch of String(name ?? "")) {
    hash ^= /** @type {number} */ (ch.codePointAt(0));
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return `hsl(${hash % 360} 50% 27%)`;
}

/**
 * A score table's column head for a seat. Three or more names side by side do
 * not fit a side panel (or a phone's drawer): a `compact` head shows the seat's
 * avatar, the face it has on the table, and keeps the whole name for screen
 * readers and as the tooltip.
 * @param {typeof import("./dom.js").h} h
 * @param {string} name
 * @param {boolean} compact
 */
export function scoreHead(h, name, compact) {
  if (!compact) return h("th", { scope: "col" }, name);
  return h("th", { scope: "col", class: "score-head", title: name },
    avatar(h, name), h("span", { class: "visually-hidden" }, name));
}

/**
 * The avatar element: decorative, since the seat's name is always beside it.
 * @param {typeof import("./dom.js").h} h
 * @param {string} name
 * @param {string} [extra] more classes
 */
export function avatar(h, name, extra = "") {
  return h("span", {
    class: `avatar ${extra}`, "aria-hidden": "true", style: { "background-color": avatarColour(name) },
  }, initials(name));
}
