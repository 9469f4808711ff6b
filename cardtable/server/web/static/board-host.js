// @ts-check
// Loading a game's board module and drawing with it. The shell knows no game:
// the module is the `board` that GET /api/games gives for the game — its own
// /games/{game}/board.js (the file its manifest names as web_client), or the
// generic board (/static/generic-board.js) for a game that brings none. It may
// export, besides render(root, msg, ctx),
// `css` (a stylesheet URL), `catalog(lang)` (the URL of its strings in a
// language) and `narrate(msg, t)` (the game's public history in words).

import { loadCatalog } from "./i18n.js";

/** @typedef {import("./i18n.js").Catalog} Catalog */
/** @typedef {import("./i18n.js").Translate} Translate */
/** @typedef {import("./refusal.js").Refusal} Refusal */

/**
 * A seat of a table as the server describes it (messages.py, seats_json).
 * @typedef {object} SeatInfo
 * @property {number} seat
 * @property {string} kind "human" or "bot"
 * @property {string | null} [bot]
 * @property {string | null} [name]
 * @property {boolean} [taken]
 * @property {boolean} [connected]
 * @property {boolean} [bot_playing]
 * @property {boolean} [dropped] turn-based: dropped for running out of time
 */

/**
 * A "state" message (messages.py, state_message; the replay and the lessons
 * build the same shape): `V` is the game's view.
 * @template [V=any]
 * @typedef {object} StateMessage
 * @property {string} [type]
 * @property {number} seq
 * @property {number | null} seat
 * @property {V} view
 * @property {(V | null)[] | null} [views] every seat's view (a replay with all hands open)
 * @property {number | null} to_move
 * @property {any[]} legal
 * @property {Refusal[]} refused
 * @property {boolean} finished
 * @property {number[]} scores
 * @property {number[]} winners
 * @property {boolean} [lowest_wins] the totals are penalties: the lowest total wins
 * @property {SeatInfo[]} [seats]
 * @property {string} [status]
 * @property {V | null} [round_end]
 * @property {{seat: number, deadline_ms: number, server_ms?: number, turn_based?: boolean} | null} [timer] a turn-based table's counts hours
 * @property {{event: string, seat?: number | null, name?: string | null}[]} [log]
 * @property {string | null} [rematch]
 * @property {{seat: number, waiting: number[], deadline_ms: number, server_ms?: number} | null} [takeback] a take-back waiting for answers
 * @property {boolean} [may_take_back] whether this seat may ask to take its last move back
 * @property {import("./ratings.js").RatingChange[]} [ratings]
 * @property {{seat: number, reason: string, at_ms: number} | null} [ended] a turn-based game ended because this seat ran out of time
 * @property {boolean} [replay]
 */

/**
 * What a board gets to draw with (docs/browser.md). The table page gives
 * every part; a lesson or a puzzle the first nine.
 * @typedef {object} BoardContext
 * @property {Translate} t
 * @property {typeof import("./dom.js").h} h
 * @property {(move: any) => boolean} send
 * @property {string[]} names
 * @property {boolean} reducedMotion
 * @property {boolean} pending
 * @property {(text: string) => void} announce
 * @property {() => void} redraw
 * @property {(refused: Refusal, cardLabel?: (name: string) => string) => string} [refusal]
 * @property {(rule: string) => string} [ruleHref]
 * @property {(name: string) => HTMLElement} [avatar]
 * @property {(name: string, compact: boolean) => HTMLElement} [scoreHead]
 * @property {(row: import("./summary.js").SummaryFacts) => HTMLElement} [summaryRow]
 * @property {typeof import("./motion.js")} [motion]
 * @property {(name: string) => void} [cue]
 * @property {boolean} [confirmCards]
 * @property {((name: string, node: Node) => void) | null} [panel]
 * @property {string} [summaryId]
 */
/**
 * What a board's `summary` gets: the table page's whole context.
 * @typedef {BoardContext & {summaryRow: (row: import("./summary.js").SummaryFacts) => HTMLElement}} SummaryContext
 */

/**
 * A board module's exports (the comment at the top).
 * @typedef {object} BoardModule
 * @property {(root: HTMLElement, msg: StateMessage, ctx: BoardContext) => void} render
 * @property {string | URL} [css]
 * @property {(lang: string) => string | URL} [catalog]
 * @property {(msg: StateMessage, t: Translate, names: string[]) => string[]} [narrate]
 * @property {(end: any, msg: {views?: any[] | null}, ctx: SummaryContext) => HTMLElement} [summary]
 * @property {(name: string, t: Translate) => string} [cardLabel]
 */
/** @typedef {{module: BoardModule, strings: Catalog}} Board */

/** @type {Map<string, Promise<Board>>} */
const loaded = new Map();


/**
 * {module, strings} of the game's board, loaded once per page, from `url` (the
 * game's `board` in GET /api/games); without one, the game's own board.js.
 * @param {string} game
 * @param {string[]} languages
 * @param {string} [url]
 * @returns {Promise<Board>}
 */
export function loadBoard(game, languages, url = `/games/${encodeURIComponent(game)}/board.js`) {
  let board = loaded.get(game);
  if (!board) loaded.set(game, board = load(game, languages, url));
  return board;
}

/**
 * @param {string} game
 * @param {string[]} languages
 * @param {string} url
 * @returns {Promise<Board>}
 */
async function load(game, languages, url) {
  /** @type {BoardModule} */
  const module = await import(url);
  if (typeof module.render !== "function") {
    throw new Error(`the board of ${game} has no render function`);
  }
  if (module.css && !document.querySelector(`link[data-board="${CSS.escape(game)}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = String(module.css);
    link.dataset.board = game;
    const ready = new Promise((/** @type {(value?: unknown) => void} */ resolve) => { link.onload = link.onerror = resolve; });
    document.head.append(link);
    await ready;
  }
  const strings = module.catalog ? (await loadCatalog(module.catalog, languages)).strings : {};
  return { module, strings };
}

/**
 * Draw msg into root with the board, keeping keyboard focus where it was: boards
 * mark focusable things with data-key; if the focused one is gone (a card just
 * played), focus goes to the element the board marks data-autofocus (the first
 * playable card, say), else to the board itself, from where it moves on to the
 * data-autofocus element as soon as one appears.
 * @param {Board} board
 * @param {HTMLElement} root
 * @param {StateMessage} msg
 * @param {BoardContext} ctx
 */
export function drawBoard(board, root, msg, ctx) {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const onRoot = active === root;
  const hadFocus = active && root.contains(active) && !onRoot;
  const key = hadFocus ? active.dataset.key : undefined;
  board.module.render(root, msg, ctx);
  if (onRoot) {
    // A keyboard player waiting on the table: when something to do appears, go there.
    /** @type {HTMLElement | null} */ (root.querySelector("[data-autofocus]"))?.focus({ preventScroll: true });
    return;
  }
  if (!hadFocus) return;
  const again = key ? root.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const target = /** @type {HTMLElement | null} */ (again ?? root.querySelector("[data-autofocus]"));
  (target ?? root).focus({ preventScroll: true });
}
