// @ts-check
// "Play now" in a game's lobby tile: the person picks the number of players,
// how long to wait for people and what then (bots of a level, or keep
// waiting), and joins the server's quick-match queue (POST /api/quick). A
// waiting panel shows the time waited and how many wait for this game; the
// page long-polls its ticket until the answer names a seat, keeps that seat's
// token as any joined seat's (saveSeat) and opens the table. Closing the page
// or Cancel takes the person out of the queue (docs/server.md, "Quick match").

import { api, refusedWords, saveName, saveSeat } from "./api.js";
import { h } from "./dom.js";
import { MOVE_HOURS, speedWords } from "./speeds.js";

const WAITS = [15, 30, 60, 120]; // seconds the person may choose to wait for people
const DEFAULT_WAIT = 30;
const POLL_SECONDS = 20; // one long poll's wait (the server allows up to 25)
const RETRY_MS = 1000; // after a failed poll (a network hiccup), ask again this soon

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * People waiting per game, then per player count (GET /api/quick).
 * @typedef {Record<string, Record<number, number>>} Waiting
 */
/**
 * The server's answer on a ticket (POST /api/quick, GET /api/quick/{ticket};
 * docs/server.md, "Quick match"): waiting, or seated with the seat's token.
 * @typedef {object} Ticket
 * @property {string} ticket
 * @property {string} status
 * @property {number} waited_seconds
 * @property {number} [waiting]
 * @property {string} table
 * @property {number} seat
 * @property {string} token
 * @property {string} url
 */

// A page waits in one queue at a time: Play now in another tile cancels this one first.
/** @type {(() => Promise<void>) | null} */
let leaveCurrent = null;

/**
 * How long, as m:ss.
 * @param {number} seconds
 */
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * @param {number} seconds
 * @param {Translate} t
 */
function waitWords(seconds, t) {
  return seconds < 60 ? t("lobby.quickSeconds", { seconds }) : t("lobby.quickMinutes", { minutes: seconds / 60 });
}

/**
 * The quick-match controls of one game's tile. `level` is the bot level
 * offered first; `name()` the name to play under. Returns {element, counts}:
 * `counts(waiting)` shows the people waiting per player count (GET /api/quick).
 * @param {import("./api.js").GameInfo} game
 * @param {string} level
 * @param {() => string} name
 * @param {Translate} t
 * @returns {{element: HTMLElement, counts: (waiting: Record<number, number>) => void}}
 */
export function quickMatch(game, level, name, t) {
  /** @param {string} what */
  const id = (what) => `quick-${what}-${game.name}`;
  const players = h("select", { id: id("players") }, game.players.map((n) =>
    h("option", { value: n, selected: n === game.default_players }, t("lobby.playersCount", { count: n }))));
  const wait = h("select", { id: id("wait") }, WAITS.map((s) =>
    h("option", { value: s, selected: s === DEFAULT_WAIT }, waitWords(s, t))));
  const levels = (game.levels ?? []).map((l) => l.name);
  const then = h("select", { id: id("then") },
    levels.map((l) => h("option", { value: l, selected: l === level }, t("lobby.quickThenBots", { level: t(`level.${l}`) }))),
    h("option", { value: "" }, t("lobby.quickNoBots")));
  // Real time (the queue above) or turn-based: a seat at once, the others come over hours.
  const speed = h("select", { id: id("speed"), onchange: () => drawSpeed() },
    h("option", { value: "" }, t("lobby.quickSpeedRealTime")),
    MOVE_HOURS.map((hours) => h("option", { value: hours }, speedWords(hours, t, "lobby.quickSpeed"))));
  const badge = h("span", { class: "badge quick-count", dataset: { waitingFor: game.name }, hidden: true });
  const button = h("button", { class: "play-now", type: "button", dataset: { playNow: game.name } },
    t("lobby.playNow"), h("span", { class: "visually-hidden" }, ` ${game.title}`));
  // Not class "error": the lobby's own error line (one-click play) is found by it.
  const error = h("p", { class: "quick-error", role: "alert" });
  // Each label names its game for screen readers (the lobby's form has a "Players" too).
  /** @type {(select: HTMLSelectElement, label: string) => HTMLElement} */
  const field = (select, label) => h("div", { class: "quick-field" },
    h("label", { for: select.id }, label, h("span", { class: "visually-hidden" }, ` (${game.title})`)), select);
  // The wait and what then wrap together, onto a line of their own in a narrow tile.
  const waiting = h("div", { class: "quick-match-row" },
    field(wait, t("lobby.quickWait")), field(then, t("lobby.quickThen")));
  const paceHint = h("p", { class: "hint quick-pace-hint", hidden: true }, t("lobby.quickTurnBasedHint"));
  const form = h("div", { class: "quick-match" },
    h("div", { class: "quick-match-row" },
      field(players, t("lobby.quickPlayers")), field(speed, t("lobby.speed")), waiting, button, badge),
    paceHint, error);
  // Turn-based nobody waits in a queue: the wait and its bots do not apply.
  const drawSpeed = () => {
    const turnBased = speed.value !== "";
    waiting.hidden = turnBased;
    paceHint.hidden = !turnBased;
  };
  drawSpeed();

  const element = h("div", {}, form);
  button.onclick = () => (speed.value === "" ? start() : seatTurnBased());

  async function seatTurnBased() {
    await leaveCurrent?.();
    error.replaceChildren();
    button.disabled = true;
    const asked = { game: game.name, players: Number(players.value), move_hours: Number(speed.value) };
    try {
      /** @type {Ticket} */
      const answer = await api("/api/quick/turn-based", { method: "POST", body: asked });
      saveSeat(answer.table, answer.seat, answer.token);
      location.assign(answer.url);
    } catch (failure) {
      button.disabled = false;
      error.append(refusedWords(failure, t));
      if (/** @type {import("./api.js").ApiError} */ (failure).status === 401) {
        error.append(" ", h("a", { href: "/account" }, t("lobby.quickSignIn")));
      }
    }
  }

  async function start() {
    await leaveCurrent?.();
    error.textContent = "";
    button.disabled = true;
    /** @type {{game: string, players: number, name: string, wait_seconds: number, bots: string | null}} */
    const asked = { game: game.name, players: Number(players.value), name: name(), wait_seconds: Number(wait.value), bots: then.value || null };
    let answer;
    try {
      answer = await api("/api/quick", { method: "POST", body: asked });
    } catch (failure) {
      button.disabled = false;
      error.textContent = refusedWords(failure, t);
      return;
    }
    saveName(asked.name);
    follow(answer, asked);
  }

  // The waiting panel, until the answer names a seat, the person cancels, or the ticket is gone.
  /**
   * @param {Ticket} first
   * @param {{players: number, wait_seconds: number, bots: string | null}} asked
   */
  async function follow(first, asked) {
    const started = performance.now() - first.waited_seconds * 1000;
    const status = h("p", { class: "quick-waited", role: "status" });
    const here = h("p", { class: "hint quick-here" });
    const cancel = h("button", { type: "button", class: "quick-cancel" }, t("lobby.quickCancel"));
    const panel = h("div", { class: "quick-waiting", dataset: { ticket: first.ticket } },
      h("strong", {}, t("lobby.quickSearching", { game: game.title, players: asked.players })),
      status, here,
      h("p", { class: "hint" }, asked.bots
        ? t("lobby.quickBotsAfter", { level: t(`level.${asked.bots}`), wait: waitWords(asked.wait_seconds, t) })
        : t("lobby.quickPeopleOnly")),
      cancel);
    form.hidden = true;
    element.append(panel);
    let answer = first;
    let stopped = false;
    const draw = () => {
      status.textContent = t("lobby.quickWaited", { time: clock((performance.now() - started) / 1000) });
      here.textContent = t("lobby.quickHere", { count: answer.waiting ?? 1, players: asked.players });
    };
    const ticker = setInterval(draw, 1000);
    draw();
    const cancelUrl = `/api/quick/${encodeURIComponent(first.ticket)}/cancel`;
    // Leaving the page takes the person out of the queue (keepalive: the request outlives the page).
    const leave = () => {
      if (!stopped) fetch(cancelUrl, { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body: "{}" });
    };
    window.addEventListener("pagehide", leave);
    /** @param {string} [words] */
    const end = (words) => {
      stopped = true;
      if (leaveCurrent === quit) leaveCurrent = null;
      clearInterval(ticker);
      window.removeEventListener("pagehide", leave);
      panel.remove();
      form.hidden = false;
      button.disabled = false;
      error.textContent = words ?? "";
    };
    // Out of the queue first, so that whatever the page does next finds it so.
    const quit = async () => {
      cancel.disabled = true;
      await api(cancelUrl, { method: "POST", body: {} }).catch(() => {});
      end();
    };
    cancel.onclick = quit;
    leaveCurrent = quit;
    while (!stopped && answer.status !== "seated") {
      try {
        // With the count it shows, so the answer comes as soon as that count is stale.
        const shown = typeof answer.waiting === "number" ? `&waiting=${answer.waiting}` : "";
        answer = await api(`/api/quick/${encodeURIComponent(first.ticket)}?wait=${POLL_SECONDS}${shown}`);
        if (!stopped) draw();
      } catch (failure) {
        if (/** @type {import("./api.js").ApiError} */ (failure).status === 404) { if (!stopped) end(t("lobby.quickLost")); return; }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    if (stopped) return;
    stopped = true;
    leaveCurrent = null;
    clearInterval(ticker);
    window.removeEventListener("pagehide", leave);
    saveSeat(answer.table, answer.seat, answer.token);
    location.assign(answer.url);
  }

  // People waiting per player count: on the badge (all of this game) and in the list.
  /** @param {Record<number, number>} waiting */
  function counts(waiting) {
    const total = Object.values(waiting).reduce((a, b) => a + b, 0);
    badge.hidden = total === 0;
    badge.textContent = t("lobby.quickWaitingCount", { count: total });
    for (const option of players.options) {
      const n = Number(option.value);
      const words = t("lobby.playersCount", { count: n });
      option.textContent = waiting[n] ? `${words} · ${t("lobby.quickWaitingCount", { count: waiting[n] })}` : words;
    }
  }

  return { element, counts };
}

/**
 * GET /api/quick as {game: {players: count}}.
 * @returns {Promise<Waiting>}
 */
export async function waitingCounts() {
  /** @type {{waiting: {game: string, players: number, count: number}[]}} */
  const { waiting } = await api("/api/quick");
  /** @type {Waiting} */
  const out = {};
  for (const { game, players, count } of waiting) (out[game] ??= {})[players] = count;
  return out;
}
