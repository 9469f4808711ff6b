// @ts-check
// The account page's "Notifications" section: an e-mail address (verified by
// a link the server mails at once), notices in this browser by Web Push (a
// service worker, push-sw.js), and per kind of notice a switch for each
// (GET/POST /api/me/notices, /api/me/push; docs/server.md, "Notifications").

import { api } from "./api.js";
import { h } from "./dom.js";

/** The kinds, in the order the page lists them (accounts/notices.py KINDS). */
const KINDS = ["your_turn", "deadline_soon", "finished", "invite"];
/** The languages a mail can be written in (the server's mail catalogs). */
const MAIL_LANGUAGES = ["en", "de", "fr"];

/**
 * What GET /api/me/notices answers.
 * @typedef {{available: boolean, email: string | null, verified: boolean, push: boolean} & Record<string, boolean>} Choices
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
  // Each kind, by e-mail and in this browser: a column per channel this
  // server and browser offer, usable once the account has that channel.
  const columns = [
    ...(choices.available ? [{ prefix: "", id: "mail", on: choices.email !== null }] : []),
    ...(pushMissing() === null ? [{ prefix: "push_", id: "browser", on: choices.push }] : []),
  ];
  const switches = h("fieldset", { class: "notices-kinds", disabled: !columns.some((c) => c.on) },
    h("legend", {}, t("account.notices.kinds")),
    h("table", { class: "notices-grid" },
      h("thead", {}, h("tr", {}, h("td", {}),
        columns.map((c) => h("th", { scope: "col", id: `notices-by-${c.id}` }, t(`account.notices.by.${c.id}`))))),
      h("tbody", {}, KINDS.map((kind) => h("tr", {},
        h("th", { scope: "row", id: `notices-${kind}` }, t(`account.notices.${kind}`)),
        columns.map((c) => h("td", {}, h("input", {
          type: "checkbox", role: "switch", name: c.prefix + kind,
          checked: Boolean(choices[c.prefix + kind]), disabled: !c.on,
          "aria-labelledby": `notices-${kind} notices-by-${c.id}`,
          onchange: (/** @type {Event} */ event) =>
            send({ [c.prefix + kind]: /** @type {HTMLInputElement} */ (event.target).checked }),
        }))))))));
  const push = pushPart(t, choices, lang, (/** @type {Choices} */ next) => draw(section, t, next));
  if (!choices.available) {
    // No mail here; without push either, no switch would change anything.
    section.replaceChildren(heading, push,
      h("p", { class: "hint", id: "notices-unavailable" }, t("account.notices.unavailable")),
      ...(columns.length ? [switches] : []), error);
    return;
  }
  section.replaceChildren(heading,
    h("p", { class: "hint" }, t("account.notices.intro")),
    address,
    h("p", { class: choices.verified ? "account-done" : "hint", id: "notices-state", role: "status" }, state),
    push, switches, error);
}

/** Why this browser cannot get Web Push, as a catalog key; null when it can. */
function pushMissing() {
  if (!window.isSecureContext) return "account.notices.push.insecure";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "account.notices.push.unsupported";
  }
  return null;
}

/** This browser's push subscription at the server's worker, or null. */
async function mySubscription() {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

/**
 * The base64url key of GET /api/push/key as the bytes PushManager takes.
 * @param {string} key
 */
function keyBytes(key) {
  const plain = atob(key.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/**
 * Subscribe this browser (asking the person's permission first) and give the
 * server its subscription; the choices the server then answers.
 * @param {string} lang
 * @returns {Promise<Choices>}
 */
async function subscribe(lang) {
  if (await Notification.requestPermission() !== "granted") throw new Error("denied");
  const registration = await navigator.serviceWorker.register("/push-sw.js", { scope: "/" });
  await navigator.serviceWorker.ready;
  const { key } = await api("/api/push/key");
  const subscription = await registration.pushManager.getSubscription()
    ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  return api("/api/me/push", { method: "POST", body: { ...subscription.toJSON(), lang } });
}

/**
 * Forget this browser's subscription, at the server and at its push service.
 * @returns {Promise<Choices>}
 */
async function unsubscribe() {
  const subscription = await mySubscription();
  if (subscription === null) return api("/api/me/notices");
  const choices = await api("/api/me/push", { method: "DELETE", body: { endpoint: subscription.endpoint } });
  await subscription.unsubscribe();
  return choices;
}

/**
 * The switch "Notifications in this browser", or the sentence saying why
 * this browser cannot have it.
 * @param {import("./i18n.js").Translate} t
 * @param {Choices} choices
 * @param {string} lang
 * @param {(choices: Choices) => void} redraw
 */
function pushPart(t, choices, lang, redraw) {
  const missing = pushMissing();
  if (missing !== null) {
    return h("div", { class: "notices-push" },
      h("p", { class: "hint", id: "notices-push-state", role: "status" }, t(missing)));
  }
  const blocked = Notification.permission === "denied";
  const state = h("p", { class: "hint", id: "notices-push-state", role: "status" },
    t(blocked ? "account.notices.push.denied" : "account.notices.push.hint"));
  const box = /** @type {HTMLInputElement} */ (h("input", {
    type: "checkbox", role: "switch", id: "notices-push", name: "push", disabled: true,
    "aria-describedby": "notices-push-state",
    onchange: async () => {
      box.disabled = true;
      try {
        redraw(await (box.checked ? subscribe(lang) : unsubscribe()));
      } catch (err) {
        box.checked = !box.checked;
        box.disabled = false;
        const denied = Notification.permission === "denied" || /** @type {Error} */ (err).message === "denied";
        state.textContent = t(denied ? "account.notices.push.denied" : "account.notices.push.failed");
        state.className = "error";
      }
    },
  }));
  // On only where this browser holds a subscription the server knows of.
  mySubscription().then((subscription) => {
    box.checked = subscription !== null && choices.push;
    box.disabled = blocked && !box.checked;
  }).catch(() => { box.disabled = blocked; });
  return h("div", { class: "notices-push" },
    h("label", { class: "notices-kind" }, box, t("account.notices.push.label")), state);
}
