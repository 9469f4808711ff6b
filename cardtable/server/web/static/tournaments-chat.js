// @ts-check
// A tournament's chat (tournaments-page.js): its lines, read every few
// seconds (only those after the last one held), and a line to write for its
// entrants and its creator. The server closes it while a deal is being played
// (a word there could tell someone how a deal goes before they play it) and
// leaves out the lines of accounts the reader blocked. What people wrote goes
// into the page as text (through h), never as HTML, as at a table (chat.js).

import { api, refusedWords } from "./api.js";
import { MAX_CHARS } from "./chat.js";
import { h } from "./dom.js";
import { momentWords } from "./tournaments-words.js";

const POLL_MS = 4000;
const SHOWN_LINES = 200; // the server's page of lines (tournaments_api.py, CHAT_PAGE)

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * One line as GET /api/tournaments/{id}/chat sends it.
 * @typedef {{n: number, name: string, text: string, at_ms: number}} TournamentChatLine
 */
/**
 * What the page tells the chat on each refresh: may the reader write here?
 * @typedef {{mayWrite: boolean, status: string}} ChatReader
 */

/**
 * The chat panel of the tournament at `path` (its API path). `update(reader)`
 * is called with each refresh of the page: a change of status (its start, its
 * end) reads the chat at once rather than at the next poll.
 * @param {string} path
 * @param {Translate} t
 * @param {ChatReader} reader
 */
export function tournamentChat(path, t, reader) {
  /** @type {TournamentChatLine[]} */
  let lines = [];
  let open = true;
  let { mayWrite, status } = reader;
  let reading = Promise.resolve();

  const list = h("ol", { class: "tournament-chat-lines", id: "tournament-chat-lines" });
  const scroller = h("div", { class: "tournament-chat-scroll", role: "log", tabindex: "0", "aria-labelledby": "tournament-chat-heading" }, list);
  const closed = h("p", { class: "hint tournament-chat-closed", id: "tournament-chat-closed", hidden: true }, t("tournament.chatClosed"));
  const who = h("p", { class: "hint", id: "tournament-chat-who", hidden: true }, t("tournament.chatWho"));
  const error = h("p", { class: "error tournament-chat-error", id: "tournament-chat-error", role: "alert" });
  const input = h("input", {
    id: "tournament-chat-input", maxlength: MAX_CHARS, autocomplete: "off", enterkeyhint: "send",
    "aria-label": t("tournament.chatInputLabel"), placeholder: t("chat.placeholder"),
  });
  const send = h("button", { type: "submit", id: "tournament-chat-send" }, t("chat.send"));
  const form = h("form", { class: "tournament-chat-form", id: "tournament-chat-form", hidden: true, onsubmit: (event) => { event.preventDefault(); say(); } },
    input, send);
  const element = h("section", { class: "panel tournament-chat", id: "tournament-chat", "aria-labelledby": "tournament-chat-heading" },
    h("h2", { id: "tournament-chat-heading" }, t("chat.heading")), scroller, closed, who, form, error);

  const draw = () => {
    closed.hidden = open;
    form.hidden = !(open && mayWrite);
    who.hidden = !open || mayWrite;
    // Only new lines are added, so a screen reader hears what was just said.
    const shown = list.querySelectorAll("li[data-n]").length;
    if (!lines.length) list.replaceChildren(h("li", { class: "hint tournament-chat-empty" }, t("chat.empty")));
    else if (!shown) list.replaceChildren(...lines.map((line) => lineItem(line, t)));
    else list.append(...lines.slice(shown).map((line) => lineItem(line, t)));
    scroller.scrollTop = scroller.scrollHeight;
  };

  /** The lines after the last one held (all of them the first time), and whether one may write now. */
  const read = () => {
    // One read at a time: two at once would both add the same new lines.
    reading = reading.then(async () => {
      const last = lines.at(-1)?.n;
      const query = last === undefined ? "" : `?after=${last}`;
      /** @type {{open: boolean, lines: TournamentChatLine[]}} */
      const answer = await api(`${path}/chat${query}`);
      open = answer.open;
      const fresh = answer.lines.filter((line) => line.n > (last ?? -1));
      const before = lines.length;
      lines = [...lines, ...fresh].slice(-SHOWN_LINES);
      if (lines.length < before + fresh.length) list.replaceChildren(); // old lines left: draw anew
      draw();
    }).catch(() => { /* the next poll tries again */ });
    return reading;
  };

  const say = async () => {
    const text = input.value.trim();
    if (!text) return;
    error.textContent = "";
    send.disabled = true;
    try {
      await api(`${path}/chat`, { method: "POST", body: { text } });
      input.value = "";
    } catch (refused) {
      error.textContent = refusedWords(refused, t);
    } finally {
      send.disabled = false;
    }
    await read(); // the line said, or the chat closed meanwhile
  };

  draw();
  read();
  const timer = setInterval(() => {
    if (!element.isConnected) { clearInterval(timer); return; }
    read();
  }, POLL_MS);

  return {
    element,
    /** @param {ChatReader} now */
    update(now) {
      const changed = now.status !== status;
      ({ mayWrite, status } = now);
      draw();
      if (changed) read();
    },
  };
}

/**
 * One line: who, when (the reader's language and time zone), what.
 * @param {TournamentChatLine} line
 * @param {Translate} t
 */
function lineItem(line, t) {
  const at = new Date(line.at_ms);
  const today = at.toDateString() === new Date().toDateString();
  const when = today ? at.toLocaleTimeString(t.lang, { timeStyle: "short" }) : momentWords(line.at_ms, t.lang);
  return h("li", { class: "tournament-chat-line", dataset: { n: line.n, name: line.name } },
    h("span", { class: "tournament-chat-who" }, line.name),
    h("time", { class: "tournament-chat-when", datetime: at.toISOString() }, when),
    h("span", { class: "tournament-chat-text", dir: "auto" }, line.text));
}
