// @ts-check
// One table: joining a seat, the live connection, and everything around the
// board (whose turn, the timer, the log, refusals, the end of the game). The
// board itself is drawn by the game's own module, or by the generic board for
// a game that has none (board-host.js).

import { GENERIC_BOARD, api, forgetSeat, joinSeat, refusedWords, saveSeat, savedName, savedSeat } from "./api.js";
import { avatar, scoreHead } from "./avatars.js";
import { drawBoard, loadBoard } from "./board-host.js";
import { ChatPanel } from "./chat.js";
import { announce, h } from "./dom.js";
import { decidedWords, decidingRound, screenOf, signed } from "./end.js";
import { friendsAtTable } from "./table-friends.js";
import { translator } from "./i18n.js";
import { invitePanel } from "./invite.js";
import { ratedBadge } from "./rated.js";
import { ratingChange } from "./ratings.js";
import { refusalWords } from "./refusal.js";
import { ruleHref, ruleLink } from "./rules.js";
import * as motion from "./motion.js";
import { TableSocket } from "./socket.js";
import { Sound } from "./sound.js";
import { SummaryBox, summaryRow } from "./summary.js";
import { TakebackBar } from "./takeback.js";
import { hoursAndMinutes } from "./time-left.js";

const LOG_LINES = 80;
const EVENT_LINES = 8;
const TICK_SECONDS = 5; // the timer's last seconds sound

const CONFIRM_KEY = "cardtable.confirmCards";
// The side panels; on a small screen each is a drawer opened from the toolbar.
const PANELS = ["scores", "log", "chat", "invite"];
// Wide enough for the side column beside the board (style.css): panels there are always in sight.
const WIDE = matchMedia("(min-width: 1100px)");

/** @typedef {import("./api.js").ApiError} ApiError */
/** @typedef {import("./api.js").GameInfo} GameInfo */
/** @typedef {import("./api.js").TableInfo} TableInfo */
/** @typedef {import("./board-host.js").Board} Board */
/** @typedef {import("./board-host.js").SeatInfo} SeatInfo */
/** @typedef {import("./board-host.js").StateMessage} StateMessage */
/** @typedef {import("./i18n.js").Translate} Translate */
/** @typedef {import("./tournaments-table.js").TableTournament} TableTournament */

/**
 * The tournament a table's state names, or null at any other table.
 * @param {StateMessage | null} msg
 * @returns {TableTournament | null}
 */
function tableTournament(msg) {
  return /** @type {{tournament?: TableTournament | null}} */ (msg ?? {}).tournament ?? null;
}

/**
 * @param {HTMLElement} main
 * @param {string} tableId
 * @param {import("./i18n.js").Env} env
 */
export async function showTable(main, tableId, env) {
  const { t } = env;
  /** @type {TableInfo} */
  let info;
  /** @type {GameInfo[]} */
  let games;
  try {
    [info, games] = await Promise.all([api(`/api/tables/${encodeURIComponent(tableId)}`), api("/api/games")]);
  } catch (error) {
    main.replaceChildren(h("h1", {}, t("table.unavailable")),
      h("p", { class: "error", role: "alert" }, /** @type {ApiError} */ (error).message),
      h("p", {}, h("a", { href: "/" }, t("table.backToLobby"))));
    return;
  }
  /** @type {{name: string, title: string, board?: string | null}} */
  const game = games.find((g) => g.name === info.game) ?? { name: info.game, title: info.game };
  document.title = t("table.pageTitle", { game: game.title });
  let board;
  try {
    // A game without a drawing of its own is drawn by the generic board.
    board = await loadBoard(info.game, env.languages, game.board ?? GENERIC_BOARD);
  } catch (error) {
    main.replaceChildren(h("p", { class: "error", role: "alert" }, t("table.noBoard", { game: game.title, reason: /** @type {Error} */ (error).message })));
    return;
  }
  new TablePage(main, tableId, info, game, board, env).start();
}

class TablePage {
  /**
   * @param {HTMLElement} main
   * @param {string} tableId
   * @param {TableInfo} info
   * @param {{name: string, title: string}} game
   * @param {Board} board
   * @param {import("./i18n.js").Env} env
   */
  constructor(main, tableId, info, game, board, env) {
    this.main = main;
    this.tableId = tableId;
    this.info = info;
    this.game = game;
    this.board = board;
    this.t = env.t;
    this.boardT = translator(env.lang, board.strings, env.strings);
    /** @type {StateMessage | null} */
    this.msg = null;
    /** @type {number | null} */
    this.pendingSeq = null; // the seq a move of ours was sent for, until it is answered
    /** @type {unknown} */
    this.pendingMove = null; // that move, to send again (the database was away, or its socket closed)
    /** @type {WebSocket | null} */
    this.pendingOn = null; // the socket that move went out on; null: none was open
    /** @type {number | null} */
    this.timerEnd = null; // when the turn's timer runs out, on this browser's clock
    /** @type {number | undefined} */
    this.lastTick = undefined; // the timer's seconds last drawn
    this.summaryStarted = false; // whether a round's end was offered yet
    /** @type {Promise<{show: (screen: "replay" | "analysis") => void}> | null} */
    this.replay = null; // loaded and drawn the first time the replay or the analysis is shown
    this.fromStandings = false; // whether the standings lie one step back in this tab's history
    this.reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
    this.sound = new Sound();
    // Misclick protection: on by default where fingers tap (a touch screen).
    const savedConfirm = localStorage.getItem(CONFIRM_KEY);
    this.confirmCards = savedConfirm ? savedConfirm === "on" : matchMedia("(pointer: coarse)").matches;
    this.summary = new SummaryBox(h, this.t, () => this.sound.cue("round"));
    this.socket = new TableSocket(this.tableId, {
      token: () => savedSeat(this.tableId)?.token,
      onMessage: (msg) => this.receive(msg),
      onState: (state) => {
        if (state === "open") this.chat.reset(); // its history follows the state
        this.showConnection(state);
      },
      onRejected: () => this.tokenRejected(),
    });
    const t = this.t;
    this.status = h("p", { class: "turn-status", role: "status", id: "turn-status" });
    this.timer = h("p", { class: "turn-timer", id: "turn-timer", hidden: true });
    this.lastEvent = h("p", { class: "last-event", id: "last-event", "aria-hidden": "true" });
    this.back = h("button", {
      type: "button", class: "primary", id: "take-back", hidden: true,
      onclick: () => this.socket.send({ type: "back" }),
    }, t("table.takeBack"));
    this.takeback = new TakebackBar(t, (message) => this.socket.send(message));
    this.connection = h("span", { class: "connection", id: "connection" });
    this.tournamentLine = h("a", { class: "tournament-line", id: "tournament-line", hidden: true });
    /** @type {typeof import("./tournaments-table.js") | null} */
    this.tournamentParts = null; // loaded once a state names a tournament (other tables never need them)
    /** @type {Promise<void> | null} */
    this.tournamentPartsLoading = null;
    this.badge = ratedBadge(this.info, t);
    this.notice = h("div", { class: "notice", id: "notice", role: "alert" });
    this.joinPanel = h("section", { class: "panel join", id: "join-panel", hidden: true, "aria-labelledby": "join-heading" });
    // In the tab order: where its content is taller than its share of the screen (a long
    // line in German on a phone) the board scrolls, and a keyboard must scroll it too.
    this.boardRoot = h("div", { class: "board", id: "board", tabindex: "0", role: "region", "aria-label": t("table.boardLabel") });
    this.endPanel = h("section", { class: "panel end", id: "end-panel", hidden: true, "aria-labelledby": "end-heading" });
    this.replayBox = h("section", { class: "panel replay", id: "replay", hidden: true, "aria-labelledby": "replay-heading" });
    this.logList = h("ol", { class: "log-lines" });
    this.eventList = h("ul", { class: "log-lines table-events" });
    this.unread = h("span", { class: "unread", id: "chat-unread", hidden: true });
    this.chat = new ChatPanel({
      t,
      send: (message) => this.socket.send(message),
      mine: () => this.mySeat(),
      shown: () => WIDE.matches || this.side.dataset.open === "chat",
      onUnread: (count) => this.drawUnread(count),
    });
    this.scoresPanel = h("section", { class: "panel scores", id: "panel-scores", dataset: { panel: "scores" }, "aria-label": t("table.scoresTab") });
    this.side = h("aside", { class: "side", id: "side", "aria-label": t("table.sideLabel") },
      this.scoresPanel,
      h("section", { class: "panel log", id: "panel-log", dataset: { panel: "log" }, "aria-labelledby": "log-heading" },
        h("h2", { id: "log-heading" }, t("table.logHeading")),
        h("div", { class: "log-scroll", role: "log", tabindex: "0", "aria-labelledby": "log-heading" }, this.logList),
        h("h3", { class: "events-heading", id: "events-heading" }, t("table.eventsHeading")),
        h("div", { role: "log", "aria-labelledby": "events-heading" }, this.eventList)),
      this.chat.element,
      invitePanel(this.tableId, t, { id: "panel-invite", dataset: { panel: "invite" } }));
    // Friends (table-friends.js): a name on the board opens its card; "Invite a friend" while you wait here.
    friendsAtTable({ root: this.boardRoot, side: this.side, tableId: this.tableId, seats: () => this.msg?.seats ?? this.info.seats ?? [], t });
    this.tabs = PANELS.map((name) => h("button", {
      type: "button", class: "tab", id: `tab-${name}`, "aria-controls": "side", "aria-expanded": "false",
      onclick: () => this.openPanel(this.side.dataset.open === name ? null : name),
    }, t(`table.${name}Tab`), name === "chat" ? this.unread : null));
    /** @type {(id: string, label: string, on: boolean, change: (on: boolean) => void) => HTMLElement} */
    const toggle = (id, label, on, change) => h("label", { class: "toggle", for: id },
      h("input", { type: "checkbox", id, checked: on, onchange: (e) => change(e.currentTarget.checked) }), label);
    this.toolbar = h("div", { class: "toolbar", role: "group", "aria-label": t("table.toolbarLabel") },
      toggle("sound-toggle", t("table.sound"), this.sound.on, (on) => this.sound.set(on)),
      toggle("confirm-toggle", t("table.confirmCards"), this.confirmCards, (on) => {
        this.confirmCards = on;
        localStorage.setItem(CONFIRM_KEY, on ? "on" : "off");
        this.drawBoardOnly();
      }),
      h("span", { class: "tabs" }, this.tabs));
    this.main.replaceChildren(h("div", { class: "table-page", id: "table-page" },
      h("div", { class: "table-head" },
        h("h1", {}, this.game.title),
        this.badge,
        this.tournamentLine,
        h("a", { class: "how-to-play", href: ruleHref(this.game.name), target: "_blank", rel: "noopener" }, t("rules.howToPlay")),
        h("div", { class: "status-row" }, this.status, this.timer, this.back, this.takeback.element),
        this.lastEvent,
        this.toolbar,
        this.connection),
      this.notice,
      this.joinPanel,
      this.endPanel,
      h("div", { class: "table-body" }, this.boardRoot, this.side, this.summary.element),
      this.replayBox));
  }

  /**
   * Open one side panel as a drawer (small screens), or close it (null).
   * @param {string | null} name
   */
  openPanel(name) {
    if (name) this.side.dataset.open = name;
    else delete this.side.dataset.open;
    this.tabs.forEach((tab, i) => tab.setAttribute("aria-expanded", String(PANELS[i] === name)));
    if (name === "chat") this.chat.seen();
  }

  /**
   * The chat tab's badge: lines said while the chat was out of sight.
   * @param {number} count
   */
  drawUnread(count) {
    this.unread.hidden = !count;
    this.unread.replaceChildren(h("span", { "aria-hidden": "true" }, count > 99 ? "99+" : String(count)),
      h("span", { class: "visually-hidden" }, this.t("chat.unread", { count })));
  }

  start() {
    addEventListener("hashchange", () => {
      this.fromStandings ||= this.main.querySelector("#table-page")?.getAttribute("data-screen") === "standings";
      this.showScreen();
    });
    this.socket.open();
    this.timerTick = setInterval(() => this.drawTimer(), 1000);
    this.drawJoin();
  }

  /** @returns {string[]} */
  names() {
    const seats = this.msg?.seats ?? this.info.seats ?? [];
    return seats.map((s, i) => seatName(s, i, this.t));
  }

  /** @returns {number | null} */
  mySeat() {
    return this.msg ? this.msg.seat : savedSeat(this.tableId)?.seat ?? null;
  }

  /** @param {any} msg a message from the server (socket.js) */
  receive(msg) {
    if (msg.type === "state") {
      // The timer counts down on this browser's clock from the server's own "now".
      this.timerEnd = msg.timer ? Date.now() + (msg.timer.deadline_ms - (msg.timer.server_ms ?? Date.now())) : null;
      const wasMyTurn = this.msg && this.msg.to_move === this.msg.seat && this.msg.seat !== null;
      const moved = this.msg && msg.seq > this.msg.seq;
      // An animation still running shows a state that is now past: finish it first.
      motion.finishAll(this.boardRoot);
      this.msg = msg;
      if (this.pendingSeq !== null && msg.seq > this.pendingSeq) this.pendingSeq = null;
      // A move sent on a socket that closed since (its server process died
      // before reading it), or on none, is not at the table: this socket's
      // state at its seq says so, and it goes again (the seq keeps it once).
      else if (this.pendingSeq === msg.seq && this.pendingOn !== this.socket.ws) this.sendPending();
      this.endWaiting();
      this.draw();
      const myTurn = msg.seat !== null && msg.to_move === msg.seat && !msg.finished;
      if (moved) this.sound.cue("play");
      if (myTurn && !wasMyTurn) {
        announce(this.t("table.yourTurn"));
        this.sound.cue("turn");
      }
    } else if (msg.type === "chat") {
      this.chat.receive(msg);
    } else if (msg.type === "chat-removed") {
      this.chat.removed(msg.lines);
    } else if (msg.type === "reported") {
      this.chat.reported(msg.n);
    } else if (msg.type === "error" && msg.about === "chat") {
      this.chat.refused(msg.message);
    } else if (msg.type === "ack") {
      if (this.pendingSeq !== null && msg.seq > this.pendingSeq) this.pendingSeq = null;
      this.endWaiting();
    } else if (msg.type === "error" && msg.retry_ms && this.pendingSeq !== null) {
      // The server could not store the move (its database was away): the
      // same move for the same seq again, until stored or overtaken.
      this.showNotice(this.t("table.storeWaiting"));
      this.notice.dataset.waiting = "store";
      this.retryMove(this.pendingSeq, this.pendingMove, msg.retry_ms);
    } else if (msg.type === "error") {
      this.pendingSeq = null;
      this.showRefusal(msg);
      if (this.msg) this.draw();
    }
  }

  /**
   * @param {unknown} move
   * @returns {boolean}
   */
  send(move) {
    if (!this.msg || this.pendingSeq !== null) return false;
    this.notice.textContent = "";
    this.pendingSeq = this.msg.seq;
    this.pendingMove = move;
    this.pendingOn = null;
    this.sendPending();
    return true;
  }

  /** Send the waiting move; with no socket open, keep it for the next one and say so. */
  sendPending() {
    if (this.socket.send({ type: "move", seq: this.pendingSeq, move: this.pendingMove })) {
      this.pendingOn = this.socket.ws;
      return;
    }
    this.showNotice(this.t("table.moveHeld"));
    this.notice.dataset.waiting = "connection";
  }

  /** Send `move` for `seq` again after `ms`, while it is still the one waiting;
   * a state past `seq` (it was stored after all, or someone else moved) ends it.
   * @param {number} seq
   * @param {unknown} move
   * @param {number} ms
   */
  retryMove(seq, move, ms) {
    setTimeout(() => {
      if (this.pendingSeq !== seq || this.pendingMove !== move) return;
      // With the socket down, the state it gets on connecting again sends the move (receive).
      if (this.socket.send({ type: "move", seq, move })) this.pendingOn = this.socket.ws;
    }, ms);
  }

  /** The move the page was sending again went in (or was overtaken): the wait is over. */
  endWaiting() {
    if (this.pendingSeq === null && this.notice.dataset.waiting) this.showNotice("");
  }

  /** @param {string} text */
  showNotice(text) {
    delete this.notice.dataset.waiting;
    this.notice.textContent = text;
  }

  /**
   * A move the server refused: in the catalog's words, its rule number a link to the rule.
   * @param {import("./refusal.js").Refusal} msg
   */
  showRefusal(msg) {
    // A take-back refused (docs/server.md, "Take-backs"): the shell's own words.
    if (msg.key?.startsWith("takeback.") || msg.key === "turn.dropped") { this.showNotice(this.t(msg.key)); return; }
    const label = this.board.module.cardLabel;
    const cardLabel = label && ((/** @type {string} */ name) => label(name, this.boardT));
    const words = refusalWords(msg, this.boardT, { names: this.names(), me: this.mySeat(), cardLabel });
    if (!msg.rule) { this.showNotice(this.t("table.refused", { reason: words })); return; }
    const [before, after] = this.t("table.refusedRule", { reason: words, rule: "\u0000" }).split("\u0000");
    this.notice.replaceChildren(before, ruleLink(this.game.name, msg.rule), after ?? "");
  }

  /** @param {string} state */
  showConnection(state) {
    this.connection.textContent = this.t(`connection.${state}`);
    this.connection.dataset.state = state;
  }

  tokenRejected() {
    forgetSeat(this.tableId);
    this.showNotice(this.t("table.seatLost"));
    this.drawJoin();
  }

  /** @returns {import("./board-host.js").SummaryContext} */
  context() {
    return {
      t: this.boardT,
      h,
      send: (move) => this.send(move),
      names: this.names(),
      reducedMotion: this.reducedMotion.matches,
      pending: this.pendingSeq !== null,
      announce,
      redraw: () => this.drawBoardOnly(),
      // A refused move in the page's language, and where its rule is (boards import nothing from the shell).
      refusal: (refused, cardLabel) => refusalWords(refused, this.boardT, { names: this.names(), me: this.mySeat(), cardLabel }),
      ruleHref: (rule) => ruleHref(this.game.name, rule),
      avatar: (name) => avatar(h, name),
      scoreHead: (name, compact) => scoreHead(h, name, compact),
      summaryRow: (row) => summaryRow(h, (name) => avatar(h, name), row),
      motion,
      cue: (name) => this.sound.cue(name),
      confirmCards: this.confirmCards,
      // The board's score table goes to the Scores panel (a drawer on a phone).
      panel: (name, node) => { if (name === "scores") this.scoresPanel.replaceChildren(node); },
    };
  }

  drawBoardOnly() {
    if (this.msg) drawBoard(this.board, this.boardRoot, this.msg, this.context());
  }

  draw() {
    const msg = /** @type {StateMessage} */ (this.msg); // drawn once a state came
    this.drawBoardOnly();
    this.boardRoot.dataset.seq = String(msg.seq); // which state is on screen
    const parts = this.tournamentParts;
    if (tableTournament(msg) && !parts) this.loadTournamentParts();
    if (parts) parts.drawTournamentLine(this.tournamentLine, tableTournament(msg), this.t);
    // Only the state names a table's tournament: "Tournament" then, not "Rated" or "Friendly".
    if (parts && tableTournament(msg) && !this.badge.classList.contains("badge-tournament")) {
      const badge = parts.tournamentBadge(this.t);
      this.badge.replaceWith(badge);
      this.badge = badge;
    }
    // A tournament's table is private and full: nobody is invited to it.
    const invite = /** @type {HTMLElement[]} */ ([this.side.querySelector("#panel-invite"), this.tabs[PANELS.indexOf("invite")]]);
    for (const part of invite) if (part) part.hidden = Boolean(tableTournament(msg));
    this.drawSummary();
    this.drawStatus();
    this.drawTimer();
    this.drawLog();
    this.drawJoin();
    this.drawEnd();
    // While playing, the table is one screen (panels are drawers); joining and
    // the end of the game read as a page.
    /** @type {HTMLElement} */ (this.main.firstChild).classList.toggle("is-one-screen", this.joinPanel.hidden && !msg.finished);
  }

  /** A round that just ended is explained until the person continues. */
  drawSummary() {
    const msg = /** @type {StateMessage} */ (this.msg);
    const summarize = this.board.module.summary;
    const key = msg.round_end ? JSON.stringify(msg.round_end.round_scores) : null;
    if (!this.summaryStarted) {
      // The page opened after that round ended: it was explained then.
      this.summaryStarted = true;
      this.summary.seen(key);
      return;
    }
    if (!summarize || !msg.round_end || msg.finished) return;
    const botsOnly = (msg.seats ?? []).every((s) => s.kind === "bot");
    const end = msg.round_end;
    this.summary.offer(key, () => summarize(end, msg, this.context()), { botsOnly });
  }

  drawStatus() {
    const msg = /** @type {StateMessage} */ (this.msg);
    const t = this.t;
    const names = this.names();
    let text;
    if (msg.finished) text = t("table.finished");
    else if (msg.status === "expired") text = t("table.expired");
    else if (msg.status === "waiting") text = t("table.waitingForPeople");
    else if (msg.to_move === null || msg.to_move === undefined) text = t("table.waiting");
    else if (msg.seat !== null && msg.to_move === msg.seat) text = t("table.yourTurn");
    else {
      const seat = msg.seats?.[msg.to_move];
      text = t(seat?.bot_playing ? "table.botFor" : "table.turnOf", { name: names[msg.to_move] });
    }
    if (msg.seat === null) text = `${t("table.watching")} · ${text}`;
    this.status.textContent = text;
    this.status.dataset.mine = String(msg.seat !== null && msg.to_move === msg.seat && !msg.finished);
    // A person dropped at a turn-based table has no seat to take back.
    const standIn = msg.seat !== null && msg.seats?.[msg.seat]?.bot_playing && !msg.seats?.[msg.seat]?.dropped && !msg.finished;
    this.back.hidden = !standIn;
    this.takeback.draw(msg, names);
  }

  drawTimer() {
    const timer = this.msg?.timer;
    if (!timer || this.msg?.finished) { this.timer.hidden = true; return; }
    const left = Math.max(0, Math.ceil((Number(this.timerEnd) - Date.now()) / 1000));
    if (timer.turn_based) { // hours to move: said in hours and minutes, and no ticking
      this.timer.hidden = false;
      this.timer.textContent = this.t("table.timerTurnBased", { name: this.names()[timer.seat], time: hoursAndMinutes(left, this.t.lang) });
      this.timer.dataset.low = String(left <= 3600);
      return;
    }
    if (left > 0 && left <= TICK_SECONDS && left !== this.lastTick) this.sound.cue("tick");
    this.lastTick = left;
    this.timer.hidden = false;
    this.timer.textContent = this.t("table.timer", { name: this.names()[timer.seat], count: left });
    this.timer.dataset.low = String(left <= 10);
  }

  drawLog() {
    // The game's story comes from the view (the board tells it); the table's
    // own events (joined, left, timed out) come with the message.
    const msg = /** @type {StateMessage} */ (this.msg);
    const names = this.names();
    const story = this.board.module.narrate ? this.board.module.narrate(msg, this.boardT, names) : [];
    const lines = story.slice(-LOG_LINES);
    const shown = [...this.logList.children].map((li) => li.textContent);
    if (shown.length <= lines.length && shown.every((text, i) => text === lines[i])) {
      // Only new lines are added, so a screen reader hears what just happened.
      this.logList.append(...lines.slice(shown.length).map((line) => h("li", {}, line)));
    } else {
      this.logList.replaceChildren(...lines.map((line) => h("li", {}, line)));
    }
    const scroller = /** @type {HTMLElement} */ (this.logList.parentElement);
    scroller.scrollTop = scroller.scrollHeight;
    this.lastEvent.textContent = lines.at(-1) ?? "";
    const events = (msg.log ?? []).slice(-EVENT_LINES);
    this.eventList.replaceChildren(...events.map((e) => h("li", {},
      this.t(e.event.startsWith("takeback.") ? e.event : `event.${e.event}`, { name: e.name ?? names[e.seat ?? -1] ?? "", seat: e.seat === null || e.seat === undefined ? "" : e.seat + 1 }))));
    const eventBox = /** @type {HTMLElement} */ (this.eventList.parentElement);
    eventBox.hidden = !events.length;
    /** @type {HTMLElement} */ (eventBox.previousElementSibling).hidden = !events.length;
  }

  drawJoin() {
    const t = this.t;
    const seats = this.msg?.seats ?? this.info.seats ?? [];
    const finished = this.msg ? this.msg.finished : this.info.status === "finished";
    const free = seats.filter((s) => s.kind === "human" && !isTaken(s));
    if (savedSeat(this.tableId) || finished || !free.length) {
      this.joinPanel.hidden = true;
      this.joinPanel.replaceChildren();
      return;
    }
    if (!this.joinPanel.hidden && this.joinPanel.querySelectorAll("[data-seat]").length === free.length) return;
    const name = h("input", { id: "join-name", autocomplete: "nickname", maxlength: 32, value: savedName(), placeholder: t("lobby.namePlaceholder") });
    const error = h("p", { class: "error", role: "alert" });
    this.joinPanel.hidden = false;
    this.joinPanel.replaceChildren(
      h("h2", { id: "join-heading" }, t("table.joinHeading")),
      h("div", { class: "field" }, h("label", { for: "join-name" }, t("lobby.yourName")), name),
      h("div", { class: "join-seats" }, free.map((s) => h("button", {
        type: "button", class: "primary", dataset: { seat: s.seat },
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            await joinSeat(this.tableId, s.seat, name.value.trim() || t("lobby.defaultName"));
            this.joinPanel.hidden = true;
            this.socket.reopen();
          } catch (err) {
            error.textContent = refusedWords(err, t);
            event.currentTarget.disabled = false;
          }
        },
      }, t("table.takeSeat", { seat: s.seat + 1 })))),
      error,
      h("p", { class: "hint" }, t("table.watchHint")));
  }

  drawEnd() {
    const msg = /** @type {StateMessage} */ (this.msg);
    if (!msg.finished) { this.endPanel.hidden = true; return; }
    const drawn = `${msg.seq}:${msg.rematch ?? ""}:${Boolean(this.tournamentParts)}`;
    if (!this.endPanel.hidden && this.endPanel.dataset.drawn === drawn) return;
    const t = this.t;
    const names = this.names();
    const ahead = msg.lowest_wins ? -1 : 1; // penalty totals: the lowest first
    // A game ended on time (turn-based): the person who ran out ranks last, whatever their points.
    const late = msg.ended?.seat;
    const order = msg.scores.map((score, seat) => ({ seat, score }))
      .sort((a, b) => Number(a.seat === late) - Number(b.seat === late) || ahead * (b.score - a.score) || a.seat - b.seat);
    const saved = savedSeat(this.tableId);
    const rematch = msg.rematch;
    const tournament = tableTournament(msg); // its way on is back to the tournament, not a rematch
    const parts = this.tournamentParts;
    const summarize = this.board.module.summary;
    const error = h("p", { class: "error", role: "alert" });
    const winners = msg.winners.map((s) => names[s]).join(t("end.and"));
    // No round decided a game its rules did not end.
    const decided = late === undefined ? decidingRound(msg.view?.round_scores, msg.winners) : null;
    this.endPanel.hidden = false;
    this.endPanel.dataset.drawn = drawn;
    this.endPanel.replaceChildren(
      h("h2", { id: "end-heading" }, t("end.heading")),
      h("p", { class: "winners" }, t("end.winners", { count: msg.winners.length, names: winners })),
      ...(late === undefined ? [] : [h("p", { class: "ended", id: "end-ended", dataset: { seat: late } }, t("end.ranOut", { name: names[late] }))]),
      h("ol", { class: "standings" }, order.map(({ seat, score }) => h("li", {
        class: msg.winners.includes(seat) ? "winner" : "",
      }, h("span", { class: "standing-name" }, names[seat]),
      // What the deciding round gave this seat, beside the total it led to.
      decided ? h("span", { class: "standing-round", dataset: { points: decided.points[seat] } },
        t("end.roundPoints", { points: signed(decided.points[seat]), round: decided.round })) : null,
      h("span", { class: "score" }, t("end.points", { count: score }),
        // A rated game: what it did to this seat's rating (docs/server.md, "ratings").
        ...(msg.ratings ?? []).filter((r) => r.seat === seat).map((r) => ratingChange(t, r)))))),
      // Spread, not null: replaceChildren would draw a null as the text "null".
      ...(decided ? [h("p", { class: "decided", id: "end-decided", dataset: { round: decided.round, how: decided.how } },
        decidedWords(decided, winners, msg.winners.length, t))] : []),
      // A tournament's next deal: its table opens here once every table is done with this one.
      ...[tournament && parts && tournament.deal + 1 < tournament.deals ? parts.nextTable(tournament, this.tableId, t) : null]
        .filter((p) => p !== null),
      h("div", { class: "end-actions" },
        tournament && parts ? parts.backToTournament(tournament, t) : null,
        saved && !rematch && !tournament ? h("button", { type: "button", class: "primary", id: "rematch", onclick: (e) => this.rematch(e.currentTarget, error) }, t("end.rematch")) : null,
        rematch ? h("a", {
          class: "button primary", href: `/t/${encodeURIComponent(rematch)}`, id: "rematch-link",
          onclick: () => { if (saved) saveSeat(rematch, saved.seat, saved.token); },
        }, t("end.joinRematch")) : null,
        // Screens of their own (end.js): links, so Back returns to the standings.
        h("a", { class: "button", href: "#replay", id: "open-replay" }, t("end.replay")),
        h("a", { class: "button", href: "#analysis", id: "open-analysis" }, t("end.analysis")),
        h("a", { class: "button", id: "download-record", href: `/api/tables/${encodeURIComponent(this.tableId)}/record`, download: `cardtable-${this.tableId}.json` }, t("end.download"))),
      error,
      // The last round explained, as every other round was at its end (a null
      // here would be drawn as the text "null": replaceChildren takes nodes and strings).
      ...(msg.round_end && summarize
        ? [summarize(msg.round_end, msg, { ...this.context(), summaryId: "end-summary-heading" })] : []));
    this.showScreen();
  }

  /**
   * Show the screen the address names (end.js): the final standings, or the
   * replay or the analysis on a screen of its own; while the game runs, the table.
   */
  async showScreen() {
    const page = /** @type {HTMLElement} */ (this.main.querySelector("#table-page"));
    const screen = this.msg?.finished ? screenOf(location.hash) : "standings";
    const was = page.dataset.screen;
    page.dataset.screen = screen;
    if (screen === "standings") {
      this.fromStandings = false;
      this.replayBox.hidden = true;
      // Back from a screen: the focus returns to the button that opened it.
      if (was && was !== "standings") document.getElementById(`open-${was}`)?.focus({ preventScroll: true });
      return;
    }
    this.replayBox.hidden = false;
    this.replay ??= this.openReplay();
    const replay = await this.replay;
    if (page.dataset.screen !== screen) return; // the address moved on while its code came
    replay.show(screen);
    scrollTo(0, 0);
  }

  /** Back to the standings: a step back in history where they are there, else in place. */
  closeReplay() {
    if (this.fromStandings) { history.back(); return; }
    history.replaceState(history.state, "", location.pathname + location.search);
    this.showScreen();
  }

  /**
   * @param {HTMLButtonElement} button
   * @param {HTMLElement} error
   */
  async rematch(button, error) {
    const saved = /** @type {import("./api.js").SavedSeat} */ (savedSeat(this.tableId)); // offered only then
    button.disabled = true;
    try {
      const next = await api(`/api/tables/${encodeURIComponent(this.tableId)}/rematch`, { method: "POST", body: { token: saved.token } });
      // The rematch keeps seats, names and tokens (docs/server.md).
      saveSeat(next.id, saved.seat, saved.token);
      location.assign(`/t/${encodeURIComponent(next.id)}`);
    } catch (err) {
      error.textContent = refusedWords(err, this.t);
      button.disabled = false;
    }
  }

  /** A tournament table's parts, then the table drawn again with them. */
  loadTournamentParts() {
    this.tournamentPartsLoading ??= import("./tournaments-table.js").then((parts) => {
      this.tournamentParts = parts;
      if (this.msg) this.draw();
    });
  }

  /** The replay and the analysis: their code comes only when one is first shown (a lighter table page). */
  async openReplay() {
    const { showReplay } = await import("./replay.js");
    const summarize = this.board.module.summary;
    return showReplay(this.replayBox, {
      tableId: this.tableId,
      t: this.t,
      draw: (root, msg) => drawBoard(this.board, root, msg, { ...this.context(), send: () => false, names: this.names(), panel: null }),
      summary: summarize
        ? (end, msg) => summarize(end, msg, { ...this.context(), names: this.names(), summaryId: "replay-summary-heading" })
        : null,
      names: this.names(),
      seats: this.msg?.seats ?? [],
      mySeat: this.mySeat(),
      onClose: () => this.closeReplay(),
    });
  }
}

/** @param {SeatInfo} seat */
function isTaken(seat) {
  return seat.taken ?? Boolean(seat.name);
}

/**
 * @param {SeatInfo} seat
 * @param {number} index
 * @param {Translate} t
 * @returns {string}
 */
function seatName(seat, index, t) {
  if (seat.name) return seat.name;
  if (seat.kind === "bot") return t("table.botName", { seat: index + 1, bot: t.has(`level.${seat.bot}`) ? t(`level.${seat.bot}`) : seat.bot ?? "" });
  return t("table.freeSeat", { seat: index + 1 });
}
