// @ts-check
// The round summary: what the round that just ended gave each seat and why,
// drawn by the game's board (its `summary` export) and shown over the table
// until the person continues. A table of bots only moves on by itself after a
// few seconds. Never modal: the page underneath keeps its keys and its focus
// rules, and a new state simply redraws beneath it.

const BOTS_ONLY_MS = 4000;

/** @typedef {typeof import("./dom.js").h} H */

/**
 * One seat's line of a summary, as a board gives it to ctx.summaryRow.
 * @typedef {object} SummaryFacts
 * @property {number} seat
 * @property {string} name
 * @property {string[]} facts
 * @property {string} why
 * @property {number} points
 * @property {string} pointsText
 * @property {string} total
 * @property {Node | null} [extra]
 */

export class SummaryBox {
  /**
   * @param {H} h
   * @param {import("./i18n.js").Translate} t
   * @param {(() => void) | null} [onOpen]
   */
  constructor(h, t, onOpen) {
    this.h = h;
    this.t = t;
    this.onOpen = onOpen;
    /** @type {string | null} */
    this.shownKey = null; // the summary on screen or continued from
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.element = h("div", {
      class: "summary-dialog", id: "summary", role: "dialog", "aria-modal": "false",
      "aria-labelledby": "summary-heading", hidden: true,
    });
  }

  /**
   * Offer a summary: `key` names the round it explains (a new key opens it,
   * the same key leaves it as it is), `body()` draws it (the board's drawing).
   * @param {string | null} key
   * @param {() => Node} body
   * @param {{botsOnly?: boolean}} [options]
   */
  offer(key, body, { botsOnly = false } = {}) {
    if (key === this.shownKey) return;
    this.shownKey = key;
    const { h, t } = this;
    const button = h("button", {
      type: "button", class: "primary summary-continue", id: "summary-continue",
      onclick: () => this.close(),
    }, t("summary.continue"));
    this.element.replaceChildren(h("div", { class: "summary-card" }, body(),
      h("div", { class: "summary-actions" },
        botsOnly ? h("span", { class: "hint" }, t("summary.botsOnly")) : null, button)));
    this.element.hidden = false;
    clearTimeout(this.timer);
    if (botsOnly) this.timer = setTimeout(() => this.close(), BOTS_ONLY_MS);
    this.onOpen?.();
    button.focus({ preventScroll: true });
  }

  /**
   * Remember a key as already seen (the summary of a round that ended before the page opened).
   * @param {string | null} key
   */
  seen(key) {
    this.shownKey = key;
  }

  close() {
    clearTimeout(this.timer);
    const hadFocus = this.element.contains(document.activeElement);
    this.element.hidden = true;
    this.element.replaceChildren();
    if (hadFocus) document.getElementById("board")?.focus({ preventScroll: true });
  }
}

// A rule number ("MR-6.3") in a reason: kept on one line (a narrow summary broke
// it at its hyphen, "MR-" / "6.3").
const RULE_NUMBER = /(\b[A-Z]{1,4}-\d+(?:\.\d+)*)/;

/**
 * @param {H} h
 * @param {string | Node} text
 */
function unbroken(h, text) {
  if (typeof text !== "string") return text;
  return text.split(RULE_NUMBER).map((part, i) => (i % 2 ? h("span", { class: "rule-number" }, part) : part));
}

/**
 * One seat's line of a summary (boards get this as ctx.summaryRow): avatar and
 * name, facts ("went out first", "4 tricks"), the points — the engine's round
 * score, also in data-points — with the reason in words and its rule.
 * @param {H} h
 * @param {(name: string) => Node} avatar
 * @param {SummaryFacts} row
 */
export function summaryRow(h, avatar, { seat, name, facts, why, points, pointsText, total, extra = null }) {
  return h("li", { class: "summary-row", dataset: { seat } },
    h("span", { class: "summary-who" }, avatar(name), name),
    h("span", { class: "summary-points", dataset: { points } }, pointsText),
    h("span", { class: "summary-facts" }, facts.join(" · ")),
    h("span", { class: "summary-total" }, total),
    h("p", { class: "summary-why" }, unbroken(h, why)),
    extra);
}
