// @ts-check
// The account page's "Notifications" section: an e-mail address (verified by
// a link the server mails at once) and one switch per kind of notice
// (GET/POST /api/me/notices; docs/server.md, "Notifications").

import { api } from "./api.js";
import { h } from "./dom.js";

/** The kinds, in the order the page lists them (accounts/notices.py KINDS). */
const KINDS = ["your_turn", "deadline_soon", "finished", "invite"];
/** The languages a mail can be written in (the server's mail catalogs). */
const MAIL_LANGUAGES = ["en", "de", "fr"];

/**
 * What GET /api/me/notices answers.
 * @typedef {{available: boolean, email: string | null, verified: boolean} & Record<string, boolean>} Choices
 */

/**
 * The section, filled once the server answers.
 * @param {import("./i18n.js").Translate} t
 */
export function noticesSection(t) {
  const section = h("section", { class: "panel account-form notices", id: "notices", "aria-labelledby": "notices-heading" },
    h("h2", { id: "notices-heading" }, t("account.notices.heading")));
  api("/api/me/notices").then((choices) => draw(section, t, choices)).catch(() => {});
  return section;
}

/**
 * The catalog's words for a refusal, else the server's own sentence.
 * @param {unknown} refused
 * @param {import("./i18n.js").Translate} t
 */
function reason(refused, t) {
  const error = /** @type {import("./api.js").ApiError} */ (refused);
  if (error.status === 400) return t("account.notices.error.address");
  if (error.status === 429) return t("account.notices.error.wait");
  return error.message;
}

/**
 * @param {HTMLElement} section
 * @param {import("./i18n.js").Translate} t
 * @param {Choices} choices
 */
function draw(section, t, choices) {
  const heading = /** @type {HTMLElement} */ (section.firstElementChild);
  if (!choices.available) {
    section.replaceChildren(heading, h("p", { class: "hint", id: "notices-unavailable" }, t("account.notices.unavailable")));
    return;
  }
  const error = h("p", { class: "error", role: "alert" });
  const lang = MAIL_LANGUAGES.includes(t.lang) ? t.lang : "en";
  /** @param {Record<string, unknown>} body */
  const send = async (body) => {
    error.textContent = "";
    try {
      draw(section, t, await api("/api/me/notices", { method: "POST", body: { lang, ...body } }));
    } catch (err) {
      error.textContent = reason(err, t);
    }
  };
  const input = h("input", {
    id: "notices-email", name: "email", type: "email", autocomplete: "email",
    required: true, value: choices.email ?? "", "aria-describedby": "notices-state",
  });
  const state = choices.email === null ? t("account.notices.none")
    : t(choices.verified ? "account.notices.verified" : "account.notices.sent", { email: choices.email });
  const address = h("form", {
    class: "notices-address",
    onsubmit: (/** @type {Event} */ event) => { event.preventDefault(); send({ email: input.value }); },
  },
  h("div", { class: "field" }, h("label", { for: "notices-email" }, t("account.notices.email")), input),
  h("div", { class: "account-actions" },
    h("button", { class: "primary", type: "submit" }, t("account.notices.save")),
    choices.email === null ? null
      : h("button", { type: "button", id: "notices-remove", onclick: () => send({ email: "" }) }, t("account.notices.remove"))));
  const switches = h("fieldset", { class: "notices-kinds", disabled: choices.email === null },
    h("legend", {}, t("account.notices.kinds")),
    KINDS.map((kind) => h("label", { class: "notices-kind" },
      h("input", {
        type: "checkbox", role: "switch", name: kind, checked: Boolean(choices[kind]),
        onchange: (/** @type {Event} */ event) => send({ [kind]: /** @type {HTMLInputElement} */ (event.target).checked }),
      }),
      t(`account.notices.${kind}`))));
  section.replaceChildren(heading,
    h("p", { class: "hint" }, t("account.notices.intro")),
    address,
    h("p", { class: choices.verified ? "account-done" : "hint", id: "notices-state", role: "status" }, state),
    switches, error);
}
