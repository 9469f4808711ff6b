// @ts-check
// Take-backs at a friendly table (docs/server.md, "Take-backs"): a button for
// the person who just moved, and for each other person asked, a prompt to
// accept or decline. The server says who may ask (`may_take_back`) and what
// is waiting (`takeback`); a rated table never offers it.

import { h } from "./dom.js";

/** @typedef {import("./i18n.js").Translate} Translate */
/** @typedef {import("./board-host.js").StateMessage} StateMessage */

export class TakebackBar {
  /**
   * @param {Translate} t
   * @param {(message: object) => boolean} send
   */
  constructor(t, send) {
    this.t = t;
    this.ask = h("button", {
      type: "button", id: "takeback-ask", hidden: true,
      onclick: () => send({ type: "takeback" }),
    }, t("takeback.ask"));
    this.question = h("span", { class: "takeback-question", id: "takeback-question", style: { "margin-inline-end": "0.5rem" } });
    this.prompt = h("span", { class: "takeback-prompt", id: "takeback-prompt", role: "group", hidden: true },
      this.question,
      h("button", { type: "button", class: "primary", id: "takeback-accept",
        onclick: () => send({ type: "takeback-answer", accept: true }) }, t("takeback.accept")),
      h("button", { type: "button", id: "takeback-decline", style: { "margin-inline-start": "0.5rem" },
        onclick: () => send({ type: "takeback-answer", accept: false }) }, t("takeback.decline")));
    this.waiting = h("span", { class: "takeback-waiting", id: "takeback-waiting", role: "status", hidden: true });
    this.element = h("span", { class: "takeback" }, this.ask, this.prompt, this.waiting);
  }

  /**
   * @param {StateMessage} msg
   * @param {string[]} names a name per seat
   */
  draw(msg, names) {
    const asked = msg.finished ? null : msg.takeback ?? null;
    const me = msg.seat;
    this.ask.hidden = !msg.may_take_back || msg.finished;
    const mine = asked !== null && me !== null && asked.waiting.includes(me);
    this.prompt.hidden = !mine;
    if (mine && asked) this.question.textContent = this.t("takeback.prompt", { name: names[asked.seat] ?? "" });
    const waiting = asked !== null && asked.seat === me;
    this.waiting.hidden = !waiting;
    if (waiting) this.waiting.textContent = this.t("takeback.waiting");
  }
}
