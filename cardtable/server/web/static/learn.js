// @ts-check
// The guided first game in the browser (/learn/{game}): each step's position is
// drawn by the game's own board; a move goes to the server, which judges it
// (right, a legal move that misses the idea, or one the rules refuse) and says
// why in the lesson's language. The lesson ends with a first game against easy bots.

import { api, joinSeat } from "./api.js";
import { drawBoard, loadBoard } from "./board-host.js";
import { announce, h } from "./dom.js";
import { translator } from "./i18n.js";
import { refusalWords } from "./refusal.js";

/**
 * @param {HTMLElement} main
 * @param {string} game
 * @param {import("./i18n.js").Env} env
 */
export async function showLesson(main, game, env) {
  const { t, lang, languages } = env;
  const base = `/api/learn/${encodeURIComponent(game)}`;
  /** @type {{title: string, intro: string, finale: string, names: (string | null)[], steps: {title: string, idea: string}[], players: number, seat: number}} */
  const lesson = await api(`${base}?lang=${encodeURIComponent(lang)}`);
  document.title = lesson.title;
  const board = await loadBoard(game, languages);
  // The learner's seat is named "You" (as the lesson's words say it), so the
  // board's "(you)" marker after it would say it twice: it is left out here.
  const boardT = translator(lang, { ...board.strings, "seat.you": "" }, env.strings);
  const names = lesson.names.map((name) => name ?? t("learn.you"));
  const label = board.module.cardLabel;
  const cardLabel = label && ((/** @type {string} */ name) => label(name, boardT));
  /** @type {(refused: import("./refusal.js").Refusal, cards?: (name: string) => string) => string} */
  const refusal = (refused, cards) => refusalWords(refused, boardT, { names, cardLabel: cards ?? cardLabel });
  const stepTitle = h("h2", { id: "step-title" });
  const idea = h("p", { id: "step-idea", class: "lesson-idea" });
  const feedback = h("p", { id: "step-feedback", class: "lesson-feedback", role: "status" });
  const boardRoot = h("div", { id: "board", class: "board", tabindex: "-1", "aria-label": t("learn.board") });
  const next = h("button", { id: "step-next", class: "primary", type: "button", hidden: true }, t("learn.next"));
  main.replaceChildren(h("section", { class: "panel lesson", "aria-labelledby": "lesson-title" },
    h("h1", { id: "lesson-title" }, lesson.title),
    h("p", { id: "lesson-intro" }, lesson.intro),
    stepTitle, idea, boardRoot, feedback, next));

  let number = 0;
  /** @type {import("./board-host.js").StateMessage | null} */
  let shown = null; // the message on the board, redrawn when the board asks (a chosen gap)
  /** @param {(move: any) => boolean} send */
  const context = (send) => {
    /** @type {import("./board-host.js").BoardContext} */
    const ctx = {
      t: boardT, h, names, send, reducedMotion: true, pending: false, announce, refusal,
      redraw: () => { if (shown) drawBoard(board, boardRoot, shown, ctx); },
    };
    return ctx;
  };
  /** @type {(message: import("./board-host.js").StateMessage, send: (move: any) => boolean) => void} */
  const draw = (message, send) => { shown = message; drawBoard(board, boardRoot, message, context(send)); };

  /** @param {unknown} move */
  async function tryMove(move) {
    const answer = await api(`${base}/${number}?lang=${encodeURIComponent(lang)}`, {
      method: "POST", body: { move },
    });
    // A refused move in this page's words, from the refusal's key and facts (as at a table).
    const text = answer.refusal
      ? `${t("learn.illegal", { reason: refusal(answer.refusal), rule: answer.refusal.rule })} ${answer.hint}`
      : answer.text;
    feedback.textContent = text;
    feedback.dataset.verdict = answer.verdict;
    announce(text);
    if (answer.verdict !== "right") return;
    draw(answer.message, () => false);
    next.hidden = false;
    next.focus();
  }

  /** @param {number} n */
  async function show(n) {
    number = n;
    const step = lesson.steps[n - 1];
    stepTitle.textContent = t("learn.step", { number: n, total: lesson.steps.length, title: step.title });
    idea.textContent = step.idea;
    feedback.textContent = "";
    delete feedback.dataset.verdict;
    next.hidden = true;
    const message = await api(`${base}/${n}?lang=${encodeURIComponent(lang)}`);
    boardRoot.dataset.step = String(n);
    draw(message, (move) => { tryMove(move).catch((e) => { feedback.textContent = e.message; }); return true; });
  }

  next.onclick = () => (number < lesson.steps.length ? show(number + 1) : finish());

  function finish() {
    const play = h("button", { id: "first-game", class: "primary", type: "button" }, t("learn.firstGame"));
    play.onclick = () => firstGame(game, lesson, play, t);
    main.replaceChildren(h("section", { class: "panel lesson", "aria-labelledby": "lesson-title" },
      h("h1", { id: "lesson-title" }, lesson.title),
      h("p", { id: "lesson-finale" }, t("learn.done"), " ", lesson.finale),
      play,
      h("p", {}, h("a", { href: `/puzzles/${encodeURIComponent(game)}` }, t("learn.toPuzzles")))));
    play.focus();
  }

  await show(1);
}

/**
 * @param {string} game
 * @param {{players: number, seat: number}} lesson
 * @param {HTMLButtonElement} button
 * @param {import("./i18n.js").Translate} t
 */
async function firstGame(game, lesson, button, t) {
  button.disabled = true;
  const seats = Array.from({ length: lesson.players }, (_, seat) =>
    seat === lesson.seat ? { kind: "human" } : { kind: "bot", bot: "easy" });
  try {
    const table = await api("/api/tables", {
      method: "POST",
      body: { game, options: {}, seats, private: true, turn_seconds: null, bot_delay_ms: 600 },
    });
    await joinSeat(table.id, lesson.seat, t("learn.you"));
    location.assign(`/t/${encodeURIComponent(table.id)}`);
  } catch (error) {
    button.disabled = false;
    button.after(h("p", { class: "error", role: "alert" }, /** @type {Error} */ (error).message));
  }
}
