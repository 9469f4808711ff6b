// @ts-check
// Puzzles in the browser (/puzzles/{game}): a position from a real game, drawn by
// the game's board from the seat's view; one try, then the answer with every
// choice's value and the rule. The server rates each try. Signed in, the
// rating and the tried puzzles are the server's; a guest's stay in this
// browser, with the server's receipt for each try, and move into the account
// (the server replaying the receipted tries) when the person signs in.

import { api } from "./api.js";
import { drawBoard, loadBoard } from "./board-host.js";
import { announce, h } from "./dom.js";
import { translator } from "./i18n.js";
import { refusalParams, refusalWords } from "./refusal.js";

/** @param {string} game */
const KEY = (game) => `cardtable.puzzles.${game}`;
// The rating is kept as the server says it: "rating deviation volatility".
/** @param {string | null} player */
const ratingOf = (player) => Math.round(Number(String(player ?? "1500").split(" ")[0]));
const MAX_RECEIPTS = 150; // as many guest tries as one claim hands in

/**
 * A guest's puzzles in this browser: the rating as the server says it, the
 * puzzles tried, and the server's receipt for each try.
 * @typedef {{player: string | null, tried: string[], tries: {id: string, played: number, receipt: string}[]}} Guest
 */
/**
 * The signed-in person's standing in the game's puzzles (learn_api.py,
 * _standing_json; a guest: only `signed_in`), or the answer to a try or a claim.
 * @typedef {{signed_in: boolean, player_rating?: number, claimed?: number}} Standing
 */
/**
 * The answer to a try (learn_api.py): whether it solved the puzzle, the
 * moves' names, every choice's value, and the rating after it.
 * @typedef {object} Answer
 * @property {boolean} solved
 * @property {number} played
 * @property {number[]} solution
 * @property {string[]} names
 * @property {string} theme the solution's idea in English
 * @property {string | null} [theme_key] its key in the board's catalog, where the game words it
 * @property {Record<string, unknown> | null} [theme_params] the facts its words need
 * @property {string | null} rule_text
 * @property {{moves: number[], win: number, win_se: number, points: number, loss: number}[]} alternatives
 * @property {boolean} signed_in
 * @property {number} [player_rating]
 * @property {string} player the new rating, for a guest
 * @property {string} receipt for a guest
 * @property {boolean} [counted] for an account
 */

/**
 * @param {string} game
 * @returns {Guest}
 */
function saved(game) {
  try {
    const value = JSON.parse(localStorage.getItem(KEY(game)) ?? "null");
    if (value && typeof value.player === "string" && Array.isArray(value.tried)) {
      return { tries: [], ...value };
    }
  } catch { /* a damaged entry starts afresh */ }
  return { player: null, tried: [], tries: [] };
}

// Signed in: hand this browser's guest tries to the account once, then forget them here.
/**
 * @param {string} base
 * @param {string} game
 * @returns {Promise<Standing | null>}
 */
async function claimGuestTries(base, game) {
  const { tries } = saved(game);
  if (!tries.length) return null;
  const result = await api(`${base}/claim`, { method: "POST", body: { tries: tries.slice(-MAX_RECEIPTS) } });
  localStorage.removeItem(KEY(game));
  return result;
}

/**
 * @param {HTMLElement} main
 * @param {string} game
 * @param {import("./i18n.js").Env} env
 */
export async function showPuzzles(main, game, env) {
  const { t, lang, languages } = env;
  const board = await loadBoard(game, languages);
  const boardT = translator(lang, board.strings, env.strings);
  const base = `/api/puzzles/${encodeURIComponent(game)}`;
  const rating = h("p", { id: "puzzle-rating" });
  const note = h("p", { id: "puzzle-note", class: "hint" });
  const heading = h("h2", { id: "puzzle-heading" });
  const boardRoot = h("div", { id: "board", class: "board", tabindex: "-1", "aria-label": t("puzzles.board") });
  const answerBox = h("div", { id: "puzzle-answer", role: "status" });
  const next = h("button", { id: "puzzle-next", class: "primary", type: "button", hidden: true }, t("puzzles.next"));
  const daily = h("button", { id: "puzzle-daily", type: "button" }, t("puzzles.daily"));
  document.title = t("puzzles.pageTitle");
  main.replaceChildren(h("section", { class: "panel puzzles", "aria-labelledby": "puzzles-title" },
    h("h1", { id: "puzzles-title" }, t("puzzles.heading")), rating, note, daily, heading, boardRoot, answerBox, next));

  /** @type {Standing} */
  let account = await api(`${base}/me`);
  if (account.signed_in) {
    const claimed = await claimGuestTries(base, game).catch(() => null);
    if (claimed) account = claimed;
    note.textContent = claimed?.claimed ? t("puzzles.claimed", { count: claimed.claimed }) : t("puzzles.kept");
  } else {
    note.replaceChildren(t("puzzles.guest"), " ", h("a", { href: "/account" }, t("puzzles.signIn")));
  }

  const showRating = () => {
    const value = account.signed_in ? account.player_rating : ratingOf(saved(game).player);
    rating.textContent = t("puzzles.yourRating", { rating: value });
  };

  /**
   * The solution's idea in the page's language: the board's catalog words it
   * from its key and facts, cards by the board's labels; a game that words
   * its themes only in English (a plugin) shows its English.
   * @param {Answer} result
   */
  const themeWords = (result) => result.theme_key && boardT.has(result.theme_key)
    ? boardT(result.theme_key, refusalParams(result.theme_params ?? {}, boardT,
      { cardLabel: (name) => board.module.cardLabel?.(name, boardT) ?? name }))
    : result.theme;

  /** @param {string} path */
  async function load(path) {
    /** @type {{id: string, rating: number, message: import("./board-host.js").StateMessage}} */
    const puzzle = await api(path);
    answerBox.replaceChildren();
    next.hidden = true;
    heading.textContent = t("puzzles.find", { rating: puzzle.rating });
    boardRoot.dataset.puzzle = puzzle.id;
    const names = Array.from({ length: puzzle.message.view.players ?? puzzle.message.view.hand_sizes.length },
      (_, seat) => t("puzzles.seat", { seat: seat + 1 })); // people count seats from 1; the board marks the solver's own "(you)"
    let tried = false;
    /** @param {unknown} move */
    const send = (move) => {
      if (tried) return false;
      tried = true;
      answer(puzzle, move).catch((e) => { answerBox.textContent = e.message; });
      return true;
    };
    /** @type {import("./board-host.js").BoardContext} */
    const ctx = {
      t: boardT, h, names, send, reducedMotion: true, pending: false, announce,
      refusal: (refused, cards) => refusalWords(refused, boardT, { names, cardLabel: cards }),
      redraw: () => drawBoard(board, boardRoot, puzzle.message, ctx), // a chosen gap, say
    };
    drawBoard(board, boardRoot, puzzle.message, ctx);
  }

  /**
   * @param {{id: string}} puzzle
   * @param {unknown} move
   */
  async function answer(puzzle, move) {
    const state = saved(game);
    /** @type {Answer} */
    const result = await api(`${base}/${encodeURIComponent(puzzle.id)}?lang=${encodeURIComponent(lang)}`, {
      method: "POST", body: account.signed_in ? { move } : { move, player: state.player },
    });
    const solution = result.solution.map((i) => result.names[i]).join(" = ");
    const verdict = result.solved
      ? t("puzzles.solved", { move: solution })
      : t("puzzles.missed", { played: result.names[result.played], move: solution });
    const rows = result.alternatives.map((a) => h("tr", { class: a.moves.includes(result.played) ? "played" : null },
      h("td", {}, a.moves.map((i) => result.names[i]).join(" = ")),
      h("td", {}, `${(100 * a.win).toFixed(1)}% ± ${(100 * a.win_se).toFixed(1)}`),
      h("td", {}, a.points.toFixed(2)),
      h("td", {}, a.loss ? `−${a.loss.toFixed(1)}` : "")));
    answerBox.replaceChildren(
      h("p", { id: "puzzle-verdict", class: result.solved ? "ok" : "error", dataset: { solved: result.solved } }, verdict),
      h("p", { id: "puzzle-theme" }, t("puzzles.theme", { theme: themeWords(result) })),
      // Not null where there is none: replaceChildren would draw it as the text "null".
      ...(result.rule_text ? [h("p", { class: "puzzle-rule" }, t("puzzles.rule", { rule: result.rule_text }))] : []),
      h("table", { class: "puzzle-values" },
        h("caption", {}, t("puzzles.values")),
        h("thead", {}, h("tr", {}, h("th", {}, t("puzzles.choice")), h("th", {}, t("puzzles.win")),
          h("th", {}, t("puzzles.points")), h("th", {}, t("puzzles.loss")))),
        h("tbody", {}, rows)),
      ...(result.counted === false ? [h("p", { id: "puzzle-not-counted", class: "hint" }, t("puzzles.notCounted"))] : []));
    announce(verdict);
    // The verdict in sight without scrolling, below the board on a small screen too.
    document.getElementById("puzzle-verdict")?.scrollIntoView({ block: "center", behavior: "instant" });
    if (result.signed_in) {
      account = result;
    } else {
      const receipt = { id: puzzle.id, played: result.played, receipt: result.receipt };
      localStorage.setItem(KEY(game), JSON.stringify({
        player: result.player,
        tried: [...state.tried, puzzle.id],
        tries: [...state.tries, receipt].slice(-MAX_RECEIPTS),
      }));
    }
    showRating();
    next.hidden = false;
  }

  const nextPath = () => {
    if (account.signed_in) return `${base}/next`; // the server knows the rating and the tried puzzles
    const { player, tried } = saved(game);
    return `${base}/next?rating=${ratingOf(player)}&tried=${tried.slice(-500).join(",")}`;
  };
  next.onclick = () => load(nextPath());
  daily.onclick = () => load(`${base}/daily`);
  showRating();
  await load(nextPath());
}
