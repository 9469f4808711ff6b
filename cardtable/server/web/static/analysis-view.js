// @ts-check
// Drawing an analysis (GET /api/tables/{id}/analysis, docs/server.md): a
// decision's class as a badge (colour, symbol and word: never colour alone),
// one decision beside the replay, a player's summary, the list of decisions,
// the legend. Numbers: win = chance of winning the game, points = expected
// points this round, each ± one standard error (docs/analysis.md). The class
// is the server's (analysis/classify.py): a better move is named only beside
// a decision named a loss, and the alternatives are listed as the server
// ranks them, by win chance, so the move called best is the top of its table.

import { h } from "./dom.js";

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * A number with its standard error (null: not known) (analysis/report.py, _estimate_json).
 * @typedef {{mean: number, se: number | null}} Estimate
 */
/** @typedef {{win: Estimate, points: Estimate}} Loss */
/**
 * One choice's value: its moves (JSON), win chance and expected points, and what it loses.
 * @typedef {{moves: unknown[], win: Estimate, points: Estimate, loss: Loss}} Alternative
 */
/**
 * A decision judged fairly or in hindsight: the best moves, every alternative,
 * what the move played lost, and the class that loss earns.
 * @typedef {{best: unknown[], alternatives: Alternative[], loss: Loss, class: string}} Evaluation
 */
/**
 * One decision of the analysis (report.py, decision_json).
 * @typedef {object} Decision
 * @property {number} round
 * @property {number} move
 * @property {number} seat
 * @property {boolean} forced
 * @property {string | null} class
 * @property {Evaluation} [fair]
 * @property {Evaluation} [hindsight]
 */
/**
 * What the server adds to a decision (docs/server.md): its replay step and the
 * moves in record notation, the one played and each alternative's.
 * @typedef {{step: number, played: string, fair: string[][], hindsight: string[][] | null}} Note
 */
/** @typedef {{decision: Decision, note: Note}} Entry */
/**
 * A player's summary (report.py, _summary_json).
 * @typedef {object} PlayerAnalysis
 * @property {number} seat
 * @property {number} decisions
 * @property {number} forced
 * @property {number} accuracy
 * @property {Loss} lost
 * @property {{win: Estimate, points: Estimate, best: number}} hindsight_lost
 * @property {Record<string, number>} classes
 * @property {{round: number, move: number}[]} costliest
 */
/**
 * Moves the replay to a step, shown as a seat saw it (`fromSummary`: clicked in a player's summary).
 * @typedef {(step: number, seat: number, fromSummary: boolean) => void} Jump
 */
/**
 * The classes' thresholds in percentage points of win chance, as the analysis
 * states them ("thresholds", in fractions), written for people: "3", "7", "15".
 * @typedef {{inaccuracy: string, mistake: string, blunder: string}} Limits
 */

// lichess's marks where they exist; the word is always written beside them.
/** @type {Record<string, string>} */
const SYMBOLS = { best: "★", fine: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
export const CLASSES = Object.keys(SYMBOLS);
/** The classes that name a loss: only these name a better move. */
export const NAMED = ["inaccuracy", "mistake", "blunder"];
const SHOWN_ALTERNATIVES = 8;

/**
 * @param {string} label
 * @param {Translate} t
 * @param {number | null} [count]
 */
export function badge(label, t, count = null) {
  const word = t(`class.${label}`);
  return h("span", { class: `an-class an-${label}`, dataset: { class: label } },
    h("span", { class: "an-symbol", "aria-hidden": "true" }, SYMBOLS[label]),
    count === null ? word : `${count} ${word}`);
}

/**
 * The thresholds of an analysis document (fractions of 1) in percentage points.
 * @param {Record<string, number>} thresholds
 * @returns {Limits}
 */
export function limitsOf(thresholds) {
  /** @param {string} name */
  const points = (name) => String(Math.round(1000 * (thresholds[name] ?? 0)) / 10);
  return { inaccuracy: points("inaccuracy"), mistake: points("mistake"), blunder: points("blunder") };
}

/** @param {number} x */
const pct = (x) => (100 * x).toFixed(1);
/** @type {(e: Estimate, scale: number, digits: number) => string} */
const se = (e, scale, digits) => (e.se === null ? "?" : (scale * e.se).toFixed(digits));

/**
 * "4.4% ±0.5": a win chance (0–1) with its error, in percent.
 * @param {Estimate} e
 */
export function winText(e) {
  return `${pct(e.mean)}% ±${se(e, 100, 1)}`;
}

/**
 * "2.50 ±0.17": expected points with their error.
 * @param {Estimate} e
 */
export function pointsText(e) {
  return `${e.mean.toFixed(2)} ±${se(e, 1, 2)}`;
}

/**
 * A loss as it is shown: cross-fitted losses may come out below zero, which reads "no loss".
 * @type {(e: Estimate) => Estimate}
 */
const atLeastZero = (e) => ({ mean: Math.max(0, e.mean), se: e.se });

/**
 * A loss written as what it cost, never below zero ("no loss measured" reads 0).
 * @param {Loss} loss
 * @param {Translate} t
 */
function costText(loss, t) {
  return t("analysis.costValues", { win: winText(atLeastZero(loss.win)), points: pointsText(atLeastZero(loss.points)) });
}

/** @param {string[]} texts */
const movesText = (texts) => texts.join(" = ");

/**
 * Which alternative holds the move played (by its record notation).
 * @param {Evaluation} evaluation
 * @param {string[][]} texts
 * @param {string} played
 */
function playedIndex(evaluation, texts, played) {
  const i = texts.findIndex((moves) => moves.includes(played));
  return i >= 0 ? i : evaluation.alternatives.length - 1;
}

/** @param {Evaluation} evaluation */
function bestIndex(evaluation) {
  const best = JSON.stringify(evaluation.best);
  return evaluation.alternatives.findIndex((a) => JSON.stringify(a.moves) === best);
}

/**
 * The alternatives by win chance, points breaking ties, the best first: the
 * server's order (analysis/report.py, _order), in which the best is the top.
 * @param {Evaluation} evaluation
 */
export function ranked(evaluation) {
  const bestAt = bestIndex(evaluation);
  const alts = evaluation.alternatives;
  return alts.map((a, i) => i)
    .sort((a, b) => alts[b].win.mean - alts[a].win.mean || alts[b].points.mean - alts[a].points.mean
      || Number(b === bestAt) - Number(a === bestAt));
}

/**
 * The alternatives' values as a table, best first; the move played and the best marked in words.
 * @param {Evaluation} evaluation
 * @param {string[][]} texts
 * @param {number} played
 * @param {string} caption
 * @param {Translate} t
 */
function alternativesTable(evaluation, texts, played, caption, t) {
  const bestAt = bestIndex(evaluation);
  const order = ranked(evaluation);
  const shown = order.slice(0, SHOWN_ALTERNATIVES);
  if (!shown.includes(played)) shown.push(played);
  const rows = shown.map((i) => {
    const a = evaluation.alternatives[i];
    const marks = [i === played ? t("analysis.markPlayed") : null, i === bestAt ? t("analysis.markBest") : null].filter(Boolean);
    return h("tr", { class: i === played ? "an-played" : i === bestAt ? "an-best-row" : "", dataset: { best: i === bestAt, played: i === played } },
      h("th", { scope: "row" }, movesText(texts[i])),
      h("td", {}, `${pct(a.win.mean)}% `, h("span", { class: "an-se" }, `±${se(a.win, 100, 1)}`)),
      h("td", {}, `${a.points.mean.toFixed(2)} `, h("span", { class: "an-se" }, `±${se(a.points, 1, 2)}`)),
      h("td", {}, marks.join(", ")));
  });
  const hidden = order.length - shown.length;
  // Focusable, so that a keyboard can scroll it where a phone makes it overflow.
  return h("div", { class: "an-table-scroll", tabindex: "0", role: "region", "aria-label": caption, dataset: { ownArrows: "" } },
    h("table", { class: "an-alternatives" },
      h("caption", {}, caption),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, t("analysis.colMove")),
        h("th", { scope: "col" }, t("analysis.colWin")),
        h("th", { scope: "col" }, t("analysis.colPoints")),
        h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("analysis.colNote"))))),
      h("tbody", {}, rows)),
    hidden > 0 ? h("p", { class: "hint" }, t("analysis.moreAlternatives", { count: hidden })) : null);
}

/**
 * One decision: who, what was played, its class, and for a decision named a
 * loss what it cost and the better move; every alternative; hindsight.
 * @param {Entry} entry
 * @param {string[]} names
 * @param {Translate} t
 * @param {Limits} limits
 * @returns {HTMLElement[]}
 */
export function decisionBlock(entry, names, t, limits) {
  const { decision, note } = entry;
  const name = names[decision.seat];
  const parts = [
    h("h4", { id: "analysis-current-heading" },
      t("analysis.decisionHeading", { name, round: decision.round, move: decision.move })),
  ];
  if (decision.forced || !decision.fair) {
    parts.push(h("p", {}, t("analysis.played", { move: note.played })), h("p", { class: "hint" }, t("analysis.forced")));
    return parts;
  }
  const fair = decision.fair;
  const label = /** @type {string} */ (decision.class);
  const played = playedIndex(fair, note.fair, note.played);
  parts.push(h("p", { class: "an-verdict" }, badge(label, t), " ", t("analysis.played", { move: note.played })));
  if (NAMED.includes(label)) {
    parts.push(h("p", { class: "an-better" }, t("analysis.better", { move: movesText(note.fair[bestIndex(fair)] ?? []) })));
    parts.push(h("p", { class: "an-cost" }, t("analysis.cost"), " ", costText(fair.loss, t)));
  } else {
    parts.push(h("p", { class: "an-no-better" }, label === "best"
      ? t("analysis.wasBest")
      : t("analysis.wasFine", { inaccuracy: limits.inaccuracy })));
  }
  parts.push(alternativesTable(fair, note.fair, played, t("analysis.alternatives"), t));
  const hind = decision.hindsight;
  if (hind && note.hindsight) {
    parts.push(h("p", { class: "an-hindsight" }, h("strong", {}, t("analysis.hindsight")), " ",
      NAMED.includes(hind.class)
        ? t("analysis.hindsightBetter", { move: movesText(note.hindsight[bestIndex(hind)] ?? []), cost: costText(hind.loss, t) })
        : hind.class === "best"
          ? t("analysis.hindsightBest")
          : t("analysis.hindsightFine", { inaccuracy: limits.inaccuracy })));
  }
  return parts;
}

/**
 * A player's summary and three costliest decisions (each a button that jumps the replay there).
 * @param {PlayerAnalysis} player
 * @param {Entry[]} entries
 * @param {string[]} names
 * @param {Translate} t
 * @param {Jump} jump
 */
export function playerSummary(player, entries, names, t, jump) {
  const judged = player.decisions - player.forced;
  /** @param {Estimate} e */
  const perDecision = (e) => atLeastZero({ mean: e.mean / Math.max(1, judged), se: e.se === null ? null : e.se / Math.max(1, judged) });
  const headingId = `analysis-player-${player.seat}`;
  const costly = /** @type {Entry[]} */ (player.costliest
    .map(({ round, move }) => entries.find((e) => e.decision.seat === player.seat && e.decision.round === round && e.decision.move === move))
    .filter(Boolean));
  return h("section", { class: "an-player", "aria-labelledby": headingId, dataset: { seat: player.seat } },
    h("h4", { id: headingId }, names[player.seat]),
    h("p", { class: "an-accuracy" },
      h("span", { class: "an-big" }, t("analysis.accuracyValue", { value: player.accuracy.toFixed(1) })), " ", t("analysis.accuracy")),
    h("p", { class: "hint an-accuracy-meaning" }, t("analysis.accuracyMeaning")),
    h("p", {}, t("analysis.judged", { count: judged, forced: player.forced })),
    h("p", {}, t("analysis.lost", {
      points: pointsText(atLeastZero(player.lost.points)),
      win: winText(perDecision(player.lost.win)),
    })),
    h("ul", { class: "an-counts", "aria-label": t("analysis.countsLabel") },
      CLASSES.filter((c) => player.classes[c]).map((c) => h("li", {}, badge(c, t, player.classes[c])))),
    h("p", { class: "hint" }, t("analysis.hindsightSummary", {
      best: player.hindsight_lost.best, count: judged,
      points: Math.max(0, player.hindsight_lost.points.mean / Math.max(1, judged)).toFixed(2),
      win: pct(Math.max(0, player.hindsight_lost.win.mean / Math.max(1, judged))),
    })),
    costly.length ? h("h5", {}, t("analysis.costliest")) : null,
    !costly.length && judged > 0 ? h("p", { class: "an-none-costly" }, t("analysis.nothingNotable")) : null,
    costly.length ? h("ol", { class: "an-costly" }, costly.map(({ decision, note }) => {
      // The costliest are judged decisions: each has its class and fair evaluation.
      const fair = /** @type {Evaluation} */ (decision.fair);
      const bestAt = bestIndex(fair);
      return h("li", {}, h("button", {
        type: "button", class: "an-jump", dataset: { step: note.step, seat: decision.seat },
        onclick: () => jump(note.step, decision.seat, true),
      },
      h("span", {}, t("analysis.costlyWhere", { round: decision.round, move: decision.move, played: note.played })),
      badge(/** @type {string} */ (decision.class), t),
      h("span", { class: "an-costly-better" }, t("analysis.costlyBetter", {
        move: movesText(note.fair[bestAt] ?? []), win: winText(atLeastZero(fair.loss.win)),
      }))));
    })) : null);
}

/**
 * Every analyzed decision by round, as buttons (one tab stop: arrows move between them).
 * @param {Entry[]} entries
 * @param {string[]} names
 * @param {Translate} t
 * @param {Jump} jump
 */
export function decisionList(entries, names, t, jump) {
  const items = [];
  /** @type {number | null} */
  let round = null;
  for (const { decision, note } of entries) {
    if (decision.round !== round) {
      round = decision.round;
      items.push(h("li", { class: "an-round", "aria-hidden": "true" }, t("analysis.round", { round })));
    }
    items.push(h("li", {}, h("button", {
      type: "button", class: "an-move", tabindex: "-1", dataset: { step: note.step, seat: decision.seat },
      onclick: () => jump(note.step, decision.seat, false),
    },
    h("span", { class: "an-move-text" }, t("analysis.listItem", { move: decision.move, name: names[decision.seat], played: note.played, round: decision.round })),
    decision.class ? badge(decision.class, t) : h("span", { class: "an-class an-forced" }, t("analysis.forcedShort")))));
  }
  return items;
}

/**
 * What the classes mean in plain words, each with its badge; hindsight in a
 * line; the statistics behind them in a fold.
 * @param {Translate} t
 * @param {Limits} limits
 */
export function legend(t, limits) {
  /** @type {Record<string, string>} */
  const meaning = {
    best: t("analysis.legendBest"),
    fine: t("analysis.legendFine", limits),
    inaccuracy: t("analysis.legendInaccuracy", limits),
    mistake: t("analysis.legendMistake", limits),
    blunder: t("analysis.legendBlunder", limits),
  };
  return h("section", { class: "an-legend", "aria-labelledby": "analysis-legend-heading" },
    h("h4", { id: "analysis-legend-heading" }, t("analysis.legendHeading")),
    h("p", {}, t("analysis.legendWinChance")),
    h("dl", { class: "an-legend-list" }, CLASSES.flatMap((c) => [h("dt", {}, badge(c, t)), h("dd", {}, meaning[c])])),
    h("p", {}, t("analysis.legendHindsight")),
    h("details", { class: "an-stats" },
      h("summary", {}, t("analysis.statsHeading")),
      h("p", {}, t("analysis.statsEstimates")),
      h("p", {}, t("analysis.statsClear", limits)),
      h("p", {}, t("analysis.statsAccuracy"))));
}
