// @ts-check
// Step-by-step replay of a finished game, as one seat saw it or with all hands
// open, drawn by the game's own board from GET /api/tables/{id}/replay. Two
// screens share it (end.js names them): the replay, with the chat said up to
// the step shown beside it (chat.js), and the analysis, the same board beside
// the game's analysis (analysis.js). On either, ← → step, Home and End jump,
// without first clicking into it.

import { analysisPanel } from "./analysis.js";
import { api } from "./api.js";
import { chatLine, chatOff, mutedNames } from "./chat.js";
import { h } from "./dom.js";

/**
 * What the table page hands the replay: `draw(root, msg)` draws a state with
 * the board, `summary(end, msg)` a round's end (null: the board has none).
 * @typedef {object} ReplayOptions
 * @property {string} tableId
 * @property {import("./i18n.js").Translate} t
 * @property {(root: HTMLElement, msg: import("./board-host.js").StateMessage) => void} draw
 * @property {((end: any, msg: {views: any[] | null}) => HTMLElement) | null} summary
 * @property {string[]} names
 * @property {import("./board-host.js").SeatInfo[]} seats
 * @property {number | null} mySeat
 * @property {() => void} onClose back to the final standings
 */

/** The replay's keys: a step back or on, the first or the last step. */
/** @type {Record<string, number | "first" | "last">} */
const KEYS = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };

/**
 * Draw the replay into `box`; `show(screen)` shows it as the replay or the analysis.
 * @param {HTMLElement} box
 * @param {ReplayOptions} options
 * @returns {{show: (screen: "replay" | "analysis") => void}}
 */
export function showReplay(box, { tableId, t, draw, summary, names, seats, mySeat, onClose }) {
  let step = 0;
  /** @type {number | null} */
  let steps = null;
  // Who is online now says nothing about the game as it was: the replay shows no presence.
  const pastSeats = seats.map(({ connected, bot_playing, ...seat }) => seat);
  const who = h("select", { id: "replay-seat" },
    names.map((name, seat) => h("option", { value: String(seat), selected: seat === mySeat }, t("replay.seatView", { name }))),
    h("option", { value: "all", selected: mySeat === null }, t("replay.allHands")));
  const range = h("input", { type: "range", id: "replay-step", min: 0, max: 0, value: 0, "aria-label": t("replay.stepLabel") });
  const position = h("p", { class: "replay-position", role: "status" });
  const root = h("div", { class: "board replay-board", tabindex: "-1" });
  const error = h("p", { class: "error", role: "alert" });
  // The latest round ended by this step, explained as at the table.
  const ended = h("details", { class: "panel replay-summary", id: "replay-summary", hidden: true },
    h("summary", {}, t("replay.roundSummary")));
  /** @type {string | null} */
  let endedKey = null;
  // What was said by this step (both channels: the game is over); none where this browser turned the chat off.
  const chatList = h("ol", { class: "chat-lines", id: "replay-chat-lines" });
  const chatBox = h("section", { class: "panel replay-chat", id: "replay-chat", hidden: chatOff(), "aria-labelledby": "replay-chat-heading" },
    h("h3", { id: "replay-chat-heading" }, t("chat.replayHeading")),
    h("div", { class: "chat-scroll", role: "log", tabindex: "0", "aria-labelledby": "replay-chat-heading" }, chatList));
  /** @param {import("./chat.js").ChatLine[]} lines */
  const drawChat = (lines) => {
    const muted = mutedNames();
    const shown = lines.filter((line) => !muted.has(line.name ?? ""));
    chatList.replaceChildren(...(shown.length ? shown.map((line) => chatLine(line, t))
      : [h("li", { class: "chat-empty hint" }, t("chat.replayEmpty"))]));
    const scroller = /** @type {HTMLElement} */ (chatList.parentElement);
    scroller.scrollTop = scroller.scrollHeight;
  };
  const drawPosition = () => {
    if (steps === null) return; // nothing on screen yet
    const note = analysis.describe(step);
    position.textContent = t("replay.position", { step, steps: steps ?? "?" }) + (note ? ` · ${note}` : "");
  };
  const analysis = analysisPanel({
    tableId, t, names, mySeat, onResults: drawPosition,
    jump: (target, seat, fromSummary) => {
      // Shown as that seat saw it, unless every hand is open.
      if (who.value !== "all") who.value = String(seat);
      go(target).then(() => {
        if (fromSummary) {
          root.scrollIntoView({ block: "start" });
          analysis.focusCurrent();
        }
      });
    },
  });

  /** @param {number | "first" | "last"} delta */
  const stepFor = (delta) => (delta === "first" ? 0 : delta === "last" ? steps ?? 0 : step + delta);
  /** @type {(id: string, label: string, delta: number | "first" | "last", key: string) => HTMLElement} */
  const button = (id, label, delta, key) => h("button", {
    type: "button", id, "aria-label": label, title: label, "aria-keyshortcuts": key,
    onclick: () => moveBy(delta),
  }, delta === "first" ? "«" : delta === "last" ? "»" : delta < 0 ? "‹" : "›");

  let asked = 0; // only the latest request draws (answers may come out of order)
  /** @type {Promise<void>} */
  let loaded = Promise.resolve(); // the first answer, which says how many steps there are

  /** A step button or key. "Last" before the first answer waits for it: until
   * then the end is unknown, and going to step 0 instead would surprise.
   * @param {number | "first" | "last"} delta */
  async function moveBy(delta) {
    if (delta === "last" && steps === null) await loaded;
    await go(stepFor(delta));
  }

  /** @param {number} target */
  async function go(target) {
    const next = Math.max(0, steps === null ? target : Math.min(steps, target));
    const ticket = ++asked;
    try {
      const data = await api(`/api/tables/${encodeURIComponent(tableId)}/replay?step=${next}&seat=${who.value}`);
      if (ticket !== asked) return;
      step = data.step ?? next;
      steps = data.steps ?? steps;
      range.max = String(steps ?? step);
      range.value = String(step);
      drawPosition();
      error.textContent = "";
      const view = data.view ?? data.views?.[0];
      draw(root, {
        type: "state", replay: true, seq: step,
        seat: who.value === "all" ? null : Number(who.value),
        view, views: data.views ?? null, to_move: data.to_move ?? view?.to_move ?? null,
        legal: [], refused: [], seats: pastSeats, timer: null, log: [],
        finished: Boolean(data.finished ?? view?.finished),
        scores: view?.scores ?? [], winners: view?.winners ?? [],
      });
      root.dataset.step = String(step);
      const end = data.round_end ?? null;
      const key = end ? `${who.value}:${JSON.stringify(end.round_scores)}` : null;
      if (key !== endedKey) {
        endedKey = key;
        ended.hidden = !end || !summary;
        ended.open = Boolean(end) && step === steps;
        ended.replaceChildren(/** @type {Node} */ (ended.firstChild), ...(end && summary ? [summary(end, { views: data.views ?? null })] : []));
      }
      drawChat(data.chat ?? []);
      analysis.show(step, view?.to_move ?? null);
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    }
  }

  who.addEventListener("change", () => go(step));
  range.addEventListener("input", () => go(Number(range.value)));
  // Heard on the whole page while a replay screen is shown, so the keys work
  // without a click into it first; an Alt or Ctrl key (the browser's Back) is left alone.
  document.addEventListener("keydown", (event) => {
    if (box.hidden || !box.isConnected || event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    if (!(event.key in KEYS)) return;
    // Controls with keys of their own (a slider, a menu, a text field, a scrolling list) keep them.
    const on = /** @type {HTMLElement} */ (event.target);
    if (on === range || on.closest?.("select, input, textarea, [contenteditable], [data-own-arrows], [role='log']")) return;
    event.preventDefault();
    moveBy(KEYS[event.key]);
  });
  const heading = h("h2", { id: "replay-heading", tabindex: "-1" }, t("replay.heading"));
  /** @type {(screen: "replay" | "analysis") => HTMLAnchorElement} */
  const screenLink = (screen) => h("a", {
    href: `#${screen}`, class: "button screen-link", id: `screen-${screen}`,
    // A switch between the two, not a page further: Back still returns to the standings.
    onclick: (event) => { event.preventDefault(); location.replace(`#${screen}`); },
  }, t(screen === "replay" ? "replay.heading" : "analysis.heading"));
  const links = [screenLink("replay"), screenLink("analysis")];
  box.replaceChildren(
    h("div", { class: "replay-head" },
      h("button", { type: "button", id: "replay-close", class: "replay-close", onclick: onClose }, t("end.backToStandings")),
      heading,
      links),
    h("div", { class: "replay-controls" },
      h("label", { for: "replay-seat" }, t("replay.whose")), who,
      h("span", { class: "replay-steps" },
        button("replay-first", t("replay.first"), "first", "Home"),
        button("replay-back", t("replay.back"), -1, "ArrowLeft"),
        button("replay-next", t("replay.next"), 1, "ArrowRight"),
        button("replay-last", t("replay.last"), "last", "End")),
      range, position),
    error,
    h("div", { class: "replay-body" }, h("div", { class: "replay-main" }, root, ended), h("div", { class: "replay-side" }, chatBox, analysis.element)));
  loaded = go(0);
  return {
    show(screen) {
      box.dataset.screen = screen;
      heading.textContent = t(screen === "replay" ? "replay.heading" : "analysis.heading");
      // The way to the other screen; this one's is its heading.
      links.forEach((link) => { link.hidden = link.id === `screen-${screen}`; });
      // Each screen keeps to its own: the chat beside the replay, the analysis beside its board.
      chatBox.hidden = screen !== "replay" || chatOff();
      analysis.element.hidden = screen !== "analysis";
      heading.focus({ preventScroll: true });
    },
  };
}
