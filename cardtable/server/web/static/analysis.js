// @ts-check
// The analysis panel beside a finished game's replay: the "Analyze" button,
// progress while the server judges the decisions (it polls GET
// /api/tables/{id}/analysis), then beside each replay step the decision made
// there, each player's summary with the three costliest decisions, every
// analyzed decision as a list, and the legend (the classes in plain words,
// the statistics in a fold). Clicking a decision jumps the replay to it.

import { api } from "./api.js";
import { decisionBlock, decisionList, legend, limitsOf, playerSummary } from "./analysis-view.js";
import { h, useStylesheet } from "./dom.js";

// Its looks, and the replay's frame, come with the code (analysis.css), not on every page.
useStylesheet("/static/analysis.css");

const POLL_MS = 1000;
const BUSY = ["pending", "running"];
const NOTABLE = ["inaccuracy", "mistake", "blunder"];

/** @typedef {import("./analysis-view.js").Entry} Entry */
/**
 * One seat's analysis job (GET /api/tables/{id}/analysis, docs/server.md).
 * @typedef {object} SeatJob
 * @property {number} seat
 * @property {string} status "none", "pending", "running", "done" or "failed"
 * @property {string} [error]
 * @property {number} total
 * @property {number} done
 * @property {number} [ahead]
 */
/**
 * The analysis of a table: each seat's job, and once some are done the
 * analysis itself with a note (step, moves in words) per decision.
 * @typedef {object} AnalysisDoc
 * @property {string} [status]
 * @property {SeatJob[]} seats
 * @property {{decisions: import("./analysis-view.js").Decision[], players: import("./analysis-view.js").PlayerAnalysis[], thresholds: Record<string, number>} | null} [analysis]
 * @property {import("./analysis-view.js").Note[]} notes
 */

/**
 * {element, show(step, toMove), describe(step), focusCurrent()}: `jump(step, seat,
 * fromSummary)` moves the replay; `onResults()` is told when results arrive;
 * `names` by seat; `mySeat` (or null) is analyzed first.
 * @param {object} options
 * @param {string} options.tableId
 * @param {import("./i18n.js").Translate} options.t
 * @param {string[]} options.names
 * @param {number | null} options.mySeat
 * @param {import("./analysis-view.js").Jump} options.jump
 * @param {() => void} [options.onResults]
 */
export function analysisPanel({ tableId, t, names, mySeat, jump, onResults }) {
  const url = `/api/tables/${encodeURIComponent(tableId)}/analysis`;
  /** @type {AnalysisDoc | null} */
  let doc = null;
  /** @type {Entry[]} */
  let entries = [];
  /** @type {Map<number, Entry>} */
  const byStep = new Map();
  /** @type {import("./analysis-view.js").Limits} */
  let limits = limitsOf({});
  let step = 0;
  /** @type {number | null} */
  let toMove = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer = undefined;

  const button = h("button", { type: "button", class: "primary", id: "analyze", onclick: () => request() }, t("analysis.analyze"));
  const bar = h("progress", { id: "analysis-progress", max: "1", value: "0", hidden: true, "aria-label": t("analysis.progressLabel") });
  const status = h("p", { class: "analysis-status", id: "analysis-status", role: "status", tabindex: "-1" });
  const error = h("p", { class: "error", role: "alert" });
  const current = h("section", { class: "an-current", id: "analysis-current", tabindex: "-1", "aria-labelledby": "analysis-current-heading", hidden: true });
  const players = h("div", { class: "an-players", id: "analysis-players" });
  const filter = h("select", { id: "analysis-filter", onchange: () => drawList() },
    h("option", { value: "all" }, t("analysis.filterAll")),
    h("option", { value: "notable" }, t("analysis.filterNotable")));
  const list = h("ol", { class: "an-moves", id: "analysis-moves", "aria-label": t("analysis.listLabel"), onkeydown: (e) => listKeys(e) });
  const listBox = h("section", { class: "an-list", "aria-labelledby": "analysis-list-heading", hidden: true },
    h("div", { class: "an-list-head" },
      h("h4", { id: "analysis-list-heading" }, t("analysis.listHeading")),
      h("label", { for: "analysis-filter", class: "visually-hidden" }, t("analysis.filterLabel")), filter),
    h("div", { class: "an-moves-scroll" }, list));
  const legendBox = h("div", { class: "an-key", id: "analysis-legend", hidden: true });
  const element = h("section", { class: "analysis", id: "analysis", "aria-labelledby": "analysis-heading" },
    h("h3", { id: "analysis-heading" }, t("analysis.heading")),
    h("div", { class: "an-actions" }, button, bar),
    status, error, current, players, listBox, legendBox);

  async function request() {
    button.disabled = true;
    error.textContent = "";
    try {
      // The person's own seat first: it is the analysis they wait for.
      if (mySeat !== null && mySeat !== undefined) doc = await api(url, { method: "POST", body: { seat: mySeat } });
      doc = await api(url, { method: "POST", body: { seat: null } });
      status.focus({ preventScroll: true });
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    }
    draw();
  }

  async function refresh() {
    if (!element.isConnected && doc !== null) return; // the replay was closed
    try {
      doc = await api(url);
      error.textContent = "";
    } catch (err) {
      error.textContent = /** @type {Error} */ (err).message;
    }
    draw();
  }

  function draw() {
    clearTimeout(timer);
    const seats = doc?.seats ?? [];
    const busy = seats.filter((s) => BUSY.includes(s.status));
    const open = seats.filter((s) => s.status === "none" || s.status === "failed");
    const done = seats.filter((s) => s.status === "done");
    button.hidden = Boolean(busy.length) || !open.length;
    button.disabled = false;
    button.textContent = done.length ? t("analysis.analyzeRest") : t("analysis.analyze");
    const failed = seats.filter((s) => s.status === "failed" && s.error);
    if (failed.length) error.textContent = failed.map((s) => `${names[s.seat]}: ${s.error}`).join(" ");
    const counted = seats.filter((s) => s.status !== "none" && s.status !== "failed");
    const total = counted.reduce((n, s) => n + s.total, 0);
    const judged = counted.reduce((n, s) => n + s.done, 0);
    bar.hidden = !busy.length;
    bar.max = Math.max(1, total);
    bar.value = judged;
    if (busy.length) {
      const ahead = Math.min(...busy.map((s) => s.ahead ?? 0));
      status.textContent = busy.some((s) => s.status === "running") || ahead === 0
        ? t("analysis.progress", { done: judged, count: total })
        : t("analysis.waiting", { count: ahead });
      timer = setTimeout(refresh, POLL_MS);
    } else if (doc === null) {
      status.textContent = error.textContent ? "" : t("analysis.loading");
    } else {
      status.textContent = done.length ? t("analysis.ready") : t("analysis.none");
    }
    element.dataset.status = doc?.status ?? "loading";
    const key = done.map((s) => s.seat).join(",");
    if (element.dataset.drawn !== key) {
      element.dataset.drawn = key;
      drawResults();
    }
  }

  function drawResults() {
    const analysis = doc?.analysis;
    byStep.clear();
    const notes = doc?.notes ?? [];
    entries = analysis ? analysis.decisions.map((decision, i) => ({ decision, note: notes[i] })) : [];
    for (const entry of entries) byStep.set(entry.note.step, entry);
    limits = limitsOf(analysis?.thresholds ?? {});
    legendBox.hidden = !analysis;
    legendBox.replaceChildren(...(analysis ? [legend(t, limits)] : []));
    players.replaceChildren(...(analysis?.players ?? []).map((p) => playerSummary(p, entries, names, t, jump)));
    listBox.hidden = !entries.length;
    drawList();
    show(step, toMove);
    onResults?.();
  }

  function drawList() {
    const notable = filter.value === "notable";
    const shown = notable ? entries.filter((e) => NOTABLE.includes(e.decision.class ?? "")) : entries;
    list.replaceChildren(...(shown.length ? decisionList(shown, names, t, jump) : [h("li", { class: "hint" }, t("analysis.nothingNotable"))]));
    markCurrent();
  }

  function markCurrent() {
    const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ (list.querySelectorAll("button.an-move"))];
    /** @type {HTMLButtonElement | null} */
    let target = null;
    for (const b of buttons) {
      const here = Number(b.dataset.step) === step;
      if (here) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
      b.tabIndex = -1;
      if (Number(b.dataset.step) <= step || target === null) target = b;
    }
    if (target) {
      target.tabIndex = 0; // the list is one tab stop, at the decision on screen
      const box = /** @type {HTMLElement} */ (list.parentElement);
      if (target.offsetTop < box.scrollTop || target.offsetTop + target.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = target.offsetTop - box.clientHeight / 2;
      }
    }
  }

  /** @param {KeyboardEvent} event */
  function listKeys(event) {
    const buttons = [.../** @type {NodeListOf<HTMLButtonElement>} */ (list.querySelectorAll("button.an-move"))];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    if (at < 0) return;
    /** @type {Record<string, number>} */
    const moves = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    event.stopPropagation();
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, moves[event.key]))];
    next.focus();
    next.click();
  }

  /**
   * Draw the decision made at this replay step (the position on screen).
   * @param {number} newStep
   * @param {number | null} seatToMove
   */
  function show(newStep, seatToMove) {
    step = newStep;
    toMove = seatToMove;
    const entry = byStep.get(step);
    current.hidden = !entries.length;
    if (entry) {
      current.replaceChildren(...decisionBlock(entry, names, t, limits));
    } else {
      const why = toMove === null || toMove === undefined
        ? t("analysis.noDecision")
        : t("analysis.notAnalyzed", { name: names[toMove] });
      current.replaceChildren(h("h4", { id: "analysis-current-heading" }, t("analysis.here")), h("p", { class: "hint" }, why));
    }
    markCurrent();
  }

  /**
   * A few words on the decision at ``step`` for the replay's position line.
   * @param {number} at
   */
  function describe(at) {
    const entry = byStep.get(at);
    if (!entry?.decision.class) return "";
    return t("analysis.positionNote", { name: names[entry.decision.seat], label: t(`class.${entry.decision.class}`) });
  }

  refresh();
  return { element, show, describe, focusCurrent: () => current.focus({ preventScroll: true }) };
}
