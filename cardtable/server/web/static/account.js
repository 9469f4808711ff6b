// @ts-check
// The account page (/account): for a guest, sign up (their guest seats in this
// browser become the account's) or sign in; once signed in, sign out (here or
// everywhere), change the password, choose e-mail notices (notices.js),
// delete the account.

import { api } from "./api.js";
import { h } from "./dom.js";
import { noticesSection } from "./notices.js";

const SEAT_KEY = /^cardtable\.seat\.(.+)$/;
const MAX_CLAIMED_SEATS = 50; // the most one claim hands in (account_schemas.py)

/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * One field of a form: [name, label, input type, autocomplete, hint].
 * @typedef {[string, string, string, string, string?]} Field
 */

/**
 * @param {HTMLElement} main
 * @param {import("./i18n.js").Env} env
 */
export async function showAccount(main, env) {
  const { t } = env;
  document.title = t("account.pageTitle");
  const { account } = await api("/api/account");
  main.replaceChildren(h("h1", {}, t("account.heading")),
    account ? signedIn(account, t) : guest(t));
}

/** Every seat this browser holds as a guest: its table and token. */
function guestSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = /** @type {string} */ (localStorage.key(i)); // i < length
    const table = key.match(SEAT_KEY)?.[1];
    if (!table) continue;
    try {
      const saved = JSON.parse(/** @type {string} */ (localStorage.getItem(key)));
      if (typeof saved?.token === "string") seats.push({ table, token: saved.token });
    } catch { /* not ours */ }
  }
  return seats;
}

/**
 * The catalog's words for a refusal the server answered, else its own sentence.
 * @param {unknown} refused what api() threw (an ApiError)
 * @param {Translate} t
 */
function reason(refused, t) {
  const error = /** @type {import("./api.js").ApiError} */ (refused);
  if (error.status === 429) return t("account.error.tooSoon", { count: error.retryAfter });
  if (error.status === 401) return t("account.error.wrong");
  if (error.status === 403) return t("account.error.password");
  if (error.status === 409) return t("account.error.taken");
  return error.message;
}

/**
 * A form of `fields` whose submit button says `submit`; `act(values)` does
 * what it asks (a refusal it throws is shown), `note` stands under its heading.
 * @param {string} id
 * @param {Translate} t
 * @param {string} heading
 * @param {Field[]} fields
 * @param {string} submit
 * @param {(values: Record<string, string>) => Promise<void>} act
 * @param {Node | null} [note]
 * @param {string} [kind] the submit button's class
 */
function form(id, t, heading, fields, submit, act, note = null, kind = "primary") {
  const error = h("p", { class: "error", role: "alert" });
  /** @type {Record<string, HTMLInputElement>} */
  const inputs = Object.fromEntries(fields.map(([name, , type, auto]) =>
    [name, h("input", { id: `${id}-${name}`, name, type, autocomplete: auto, required: true })]));
  const button = h("button", { class: kind, type: "submit" }, submit);
  const el = h("form", {
    class: "panel account-form", id, "aria-labelledby": `${id}-heading`,
    onsubmit: async (event) => {
      event.preventDefault();
      button.disabled = true;
      error.textContent = "";
      try {
        await act(Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v.value])));
      } catch (err) {
        error.textContent = reason(err, t);
        button.disabled = false;
      }
    },
  },
  h("h2", { id: `${id}-heading` }, heading),
  note,
  fields.map(([name, label, , , hint]) => h("div", { class: "field" },
    h("label", { for: `${id}-${name}` }, label), inputs[name],
    hint ? h("span", { class: "hint" }, hint) : null)),
  button, error);
  return el;
}

/** @param {Translate} t */
function guest(t) {
  /** @type {[string, string, string, string]} */
  const name = ["name", t("account.name"), "text", "username"];
  return h("div", { class: "account" },
    h("p", { class: "hint account-intro" }, t("account.guestNote")),
    form("sign-up", t, t("account.signUpHeading"),
      [[...name, t("account.nameHint")], ["password", t("account.password"), "password", "new-password", t("account.passwordHint")]],
      t("account.signUp"),
      async (v) => {
        await api("/api/account/signup", { method: "POST", body: v });
        const seats = guestSeats();
        let claimed = 0;
        for (let i = 0; i < seats.length; i += MAX_CLAIMED_SEATS) {
          const batch = seats.slice(i, i + MAX_CLAIMED_SEATS);
          claimed += (await api("/api/account/claim", { method: "POST", body: { seats: batch } })).claimed;
        }
        location.assign(claimed ? `/me?claimed=${claimed}` : "/me");
      },
      h("p", { class: "hint" }, t("account.claimNote"))),
    form("sign-in", t, t("account.signInHeading"),
      [name, ["password", t("account.password"), "password", "current-password"]],
      t("account.signIn"),
      async (v) => { await api("/api/account/signin", { method: "POST", body: v }); location.assign("/me"); },
      h("p", { class: "hint" }, t("account.forgotten"))));
}

/**
 * @param {{name: string}} account
 * @param {Translate} t
 */
function signedIn(account, t) {
  const done = h("p", { class: "account-done", role: "status" });
  // A body, so the request says it is JSON (the server refuses any other POST).
  /** @param {string} path */
  const out = (path) => async () => { await api(path, { method: "POST", body: {} }); location.assign("/"); };
  return h("div", { class: "account" },
    h("section", { class: "panel account-summary", "aria-labelledby": "me-heading" },
      h("h2", { id: "me-heading" }, t("account.signedInAs", { name: account.name })),
      h("p", {},
        h("a", { href: "/me" }, t("nav.myGames")), " · ",
        h("a", { href: `/players/${encodeURIComponent(account.name)}` }, t("account.profileLink"))),
      h("div", { class: "account-actions" },
        h("button", { type: "button", id: "sign-out", onclick: out("/api/account/signout") }, t("account.signOut")),
        h("button", { type: "button", id: "sign-out-everywhere", onclick: out("/api/account/signout-everywhere") }, t("account.signOutEverywhere")))),
    form("change-password", t, t("account.passwordHeading"),
      [["old", t("account.oldPassword"), "password", "current-password"],
        ["new", t("account.newPassword"), "password", "new-password", t("account.passwordHint")]],
      t("account.changePassword"),
      async (v) => {
        await api("/api/account/password", { method: "POST", body: v });
        /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#change-password input")).forEach((i) => { i.value = ""; });
        /** @type {HTMLButtonElement} */ (document.querySelector("#change-password button")).disabled = false;
        done.textContent = t("account.passwordChanged");
      }, done),
    noticesSection(t),
    form("delete-account", t, t("account.deleteHeading"),
      [["password", t("account.deleteConfirm"), "password", "current-password"]],
      t("account.delete"),
      async (v) => { await api("/api/account/delete", { method: "POST", body: v }); location.assign("/"); },
      h("p", { class: "hint" }, t("account.deleteNote")), "danger"));
}
