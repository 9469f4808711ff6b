// @ts-check
// The table's chat: the lines of the channels this client reads (players read
// the players' channel, spectators both), quick phrases in the reader's own
// language, a line to type, muting a person, reporting a line to the server's
// operator, and chat off. Everything people wrote goes into the page as text
// (textContent through h), never as HTML. A line the operator removed keeps
// its place and speaker, its words replaced by a note. Mutes and "chat off"
// are this browser's own settings (localStorage).

import { h, useStylesheet } from "./dom.js";

// Its looks come with the code (chat.css), not on every page.
useStylesheet("/static/chat.css");

export const MAX_CHARS = 200; // the server's limit (cardtable/server/tables/chat.py)
export const PHRASES = ["gg", "wp", "sorry", "thinking"]; // cardtable/server/tables/chat.py
const MUTED_KEY = "cardtable.chatMuted";
const OFF_KEY = "cardtable.chatOff";
const SHOWN_LINES = 100;

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * One line of the chat as the server sends it (cardtable/server/tables/chat.py).
 * @typedef {object} ChatLine
 * @property {number} n
 * @property {string} channel
 * @property {string | null} [name]
 * @property {number | null} [seat]
 * @property {string | null} [text]
 * @property {string | null} [phrase]
 * @property {boolean} [removed]
 */
/**
 * What a line somebody else said offers (chatLine).
 * @typedef {{mute: (key: string) => void, report: (n: number) => void, reported: boolean}} LineActions
 */

/**
 * @param {string} key
 * @param {unknown} fallback
 * @returns {any}
 */
function stored(key, fallback) {
  try { return JSON.parse(/** @type {string} */ (localStorage.getItem(key))) ?? fallback; } catch { return fallback; }
}

/**
 * @param {string} key
 * @param {unknown} value
 */
function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: this page only */ }
}

/** Whether this browser turned the chat off. */
export function chatOff() {
  return stored(OFF_KEY, false) === true;
}

/**
 * Whom this browser muted: names ("" stands for guest spectators, who have none).
 * @returns {Set<string>}
 */
export function mutedNames() {
  return new Set(stored(MUTED_KEY, []));
}

/** @param {ChatLine} line */
function speakerKey(line) {
  return line.name ?? "";
}

/**
 * @param {ChatLine} line
 * @param {Translate} t
 */
function speakerName(line, t) {
  return line.name ?? t("chat.guest");
}

/**
 * One line as an <li>: who, (the spectators' channel,) what. `actions`, for a
 * line somebody else said: `mute(key)`, `report(n)` and `reported` (whether
 * this client reported it already) add the mute and report buttons.
 * @param {ChatLine} line
 * @param {Translate} t
 * @param {LineActions | null} [actions]
 */
export function chatLine(line, t, actions = null) {
  const words = line.removed ? t("chat.removed") : line.phrase ? t(`chat.phrase.${line.phrase}`) : line.text;
  const who = speakerName(line, t);
  const live = actions && !line.removed;
  return h("li", { class: "chat-line", dataset: { n: line.n, channel: line.channel, phrase: line.phrase, removed: line.removed || null } },
    h("span", { class: "chat-who" }, who),
    line.channel === "spectators" ? h("span", { class: "chat-channel" }, t("chat.spectatorsTag")) : null,
    h("span", { class: "chat-text", dir: "auto" }, words),
    live ? h("button", {
      type: "button", class: "chat-mute", title: t("chat.mute", { name: who }),
      "aria-label": t("chat.mute", { name: who }), onclick: () => actions?.mute(speakerKey(line)),
    }, "⊘") : null,
    live ? h("button", {
      type: "button", class: "chat-report", title: t(actions.reported ? "chat.reportedTag" : "chat.report", { name: who }),
      "aria-label": t(actions.reported ? "chat.reportedTag" : "chat.report", { name: who }),
      disabled: actions.reported, onclick: () => actions?.report(line.n),
    }, "⚑") : null);
}

export class ChatPanel {
  /**
   * `send(message)` sends over the table's socket (false when not connected);
   * `mine()` is this client's seat (null: a spectator); `onUnread(count)` is
   * told how many lines came while the panel was out of sight.
   * @param {object} options
   * @param {Translate} options.t
   * @param {(message: object) => boolean} options.send
   * @param {() => number | null} options.mine
   * @param {() => boolean} options.shown
   * @param {(count: number) => void} options.onUnread
   */
  constructor({ t, send, mine, shown, onUnread }) {
    this.t = t;
    this.sendMessage = send;
    this.mine = mine;
    this.shown = shown;
    this.onUnread = onUnread;
    /** @type {ChatLine[]} */
    this.lines = [];
    /** @type {Set<number>} */
    this.reports = new Set(); // the lines this client reported, by number
    this.unread = 0;
    this.muted = mutedNames();
    this.off = chatOff();
    this.list = h("ol", { class: "chat-lines", id: "chat-lines" });
    this.scroller = h("div", { class: "chat-scroll", role: "log", tabindex: "0", "aria-labelledby": "chat-heading" }, this.list);
    this.error = h("p", { class: "chat-error", id: "chat-error", role: "alert" });
    this.note = h("p", { class: "chat-note hint", id: "chat-note", role: "status" });
    this.input = h("input", {
      id: "chat-input", maxlength: MAX_CHARS, autocomplete: "off", enterkeyhint: "send",
      "aria-label": t("chat.inputLabel"), placeholder: t("chat.placeholder"),
    });
    this.form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say({ text: this.input.value }); } },
      this.input, h("button", { type: "submit", id: "chat-send" }, t("chat.send")));
    this.phrases = h("div", { class: "chat-phrases", role: "group", "aria-label": t("chat.phrasesLabel") },
      PHRASES.map((key) => h("button", { type: "button", dataset: { phrase: key }, onclick: () => this.say({ phrase: key }) }, t(`chat.phrase.${key}`))));
    this.mutedList = h("p", { class: "chat-muted hint", id: "chat-muted" });
    this.offToggle = h("input", { type: "checkbox", id: "chat-on", checked: !this.off, onchange: (e) => this.setOff(!e.currentTarget.checked) });
    this.offNote = h("p", { class: "hint", id: "chat-off-note" }, t("chat.offNote"));
    this.body = h("div", { class: "chat-body" }, this.scroller, this.phrases, this.form, this.error, this.note, this.mutedList);
    this.element = h("section", { class: "panel chat", id: "panel-chat", dataset: { panel: "chat" }, "aria-labelledby": "chat-heading" },
      h("div", { class: "chat-head" },
        h("h2", { id: "chat-heading" }, t("chat.heading")),
        h("label", { class: "toggle", for: "chat-on" }, this.offToggle, t("chat.on"))),
      this.offNote, this.body);
    this.draw();
  }

  /** A new connection: its history message replaces what was shown. */
  reset() {
    this.lines = [];
    this.draw();
  }

  /** @param {{history?: boolean, lines: ChatLine[]}} msg */
  receive(msg) {
    if (msg.history) this.lines = [];
    const known = new Set(this.lines.map((line) => line.n));
    const fresh = msg.lines.filter((line) => !known.has(line.n));
    this.lines = [...this.lines, ...fresh].sort((a, b) => a.n - b.n).slice(-SHOWN_LINES);
    if (!msg.history && !this.off && !this.shown()) {
      const me = this.mine();
      const heard = fresh.filter((line) => !this.muted.has(speakerKey(line)) && (me === null || line.seat !== me));
      if (heard.length) this.setUnread(this.unread + heard.length);
    }
    this.draw();
  }

  /**
   * The operator removed these lines: their words go, everywhere they are shown.
   * @param {number[]} numbers
   */
  removed(numbers) {
    const gone = new Set(numbers);
    this.lines = this.lines.map((line) => gone.has(line.n) ? { ...line, text: null, phrase: null, removed: true } : line);
    this.draw(true);
  }

  /** @param {number} n */
  report(n) {
    this.error.textContent = "";
    if (!this.sendMessage({ type: "report", n })) this.error.textContent = this.t("table.notConnected");
  }

  /**
   * The server stored this client's report of line `n`.
   * @param {number} n
   */
  reported(n) {
    this.reports.add(n);
    this.note.textContent = this.t("chat.reportedNote");
    this.draw(true);
  }

  /**
   * A chat refusal from the server (too long, too fast…), in its own words.
   * @param {string} message
   */
  refused(message) {
    this.error.textContent = this.t("chat.refused", { reason: message });
  }

  /** The panel came into sight: nothing is unread any more. */
  seen() {
    this.setUnread(0);
    this.scroller.scrollTop = this.scroller.scrollHeight;
  }

  /** @param {number} count */
  setUnread(count) {
    this.unread = count;
    this.onUnread(count);
  }

  /** @param {{text?: string, phrase?: string}} message */
  say(message) {
    if (message.text !== undefined) {
      message.text = message.text.trim();
      if (!message.text) return;
    }
    this.error.textContent = "";
    if (!this.sendMessage({ type: "chat", ...message })) { this.error.textContent = this.t("table.notConnected"); return; }
    if (message.text !== undefined) this.input.value = "";
  }

  /** @param {boolean} off */
  setOff(off) {
    this.off = off;
    store(OFF_KEY, off);
    if (off) this.setUnread(0);
    this.draw();
  }

  /** @param {string} key */
  mute(key) {
    this.muted.add(key);
    store(MUTED_KEY, [...this.muted]);
    this.draw();
  }

  /** @param {string} key */
  unmute(key) {
    this.muted.delete(key);
    store(MUTED_KEY, [...this.muted]);
    this.draw();
  }

  /** Show the lines; `again` redraws lines already shown (one changed in place). */
  draw(again = false) {
    const t = this.t;
    this.offNote.hidden = !this.off;
    this.body.hidden = this.off;
    if (this.off) return;
    const me = this.mine();
    const shown = this.lines.filter((line) => !this.muted.has(speakerKey(line)));
    // Only new lines are added, so a screen reader hears what was just said.
    const onScreen = [.../** @type {HTMLCollectionOf<HTMLElement>} */ (this.list.children)].map((li) => li.dataset.n);
    const wanted = shown.map((line) => String(line.n));
    const keep = !again && onScreen.length <= wanted.length && onScreen.every((n, i) => n === wanted[i]);
    /** @type {(line: ChatLine) => LineActions} */
    const actions = (line) => ({ mute: (key) => this.mute(key), report: (n) => this.report(n), reported: this.reports.has(line.n) });
    /** @type {(line: ChatLine) => HTMLElement} */
    const make = (line) => chatLine(line, t, line.seat === me && me !== null ? null : actions(line));
    if (keep) this.list.append(...shown.slice(onScreen.length).map(make));
    else this.list.replaceChildren(...shown.map(make));
    if (!shown.length) this.list.replaceChildren(h("li", { class: "chat-empty hint" }, t("chat.empty")));
    this.scroller.scrollTop = this.scroller.scrollHeight;
    const muted = [...this.muted].filter((key) => this.lines.some((line) => speakerKey(line) === key));
    this.mutedList.hidden = !muted.length;
    this.mutedList.replaceChildren(...(muted.length ? [t("chat.mutedLabel"), " ",
      ...muted.map((key) => h("button", { type: "button", class: "chat-unmute", onclick: () => this.unmute(key) },
        t("chat.unmute", { name: key || t("chat.guest") })))] : []));
  }
}
