// @ts-check
// The "Create a tournament" form (tournaments.js loads it when its fold is
// first opened, for a signed-in person): name, game, players at each table,
// deals, form, start, speed, the bots that fill seats, who may enter, rated
// or friendly; every choice in words. POST /api/tournaments, then its page.

import { api, refusedWords } from "./api.js";
import { h } from "./dom.js";
import { MOVE_HOURS } from "./speeds.js";
import { accessWords, botWords, formWords, ratedWords, speedWords, tournamentHref } from "./tournaments-words.js";

/** @typedef {import("./i18n.js").Translate} Translate */

const MAX_DEALS = 24;
const LEVELS = ["easy", "medium", "hard"];
const DEFAULT_LEVEL = "medium";
// A new tournament starts, unless told otherwise, in half an hour: time to enter.
const DEFAULT_LEAD_MINUTES = 30;

/**
 * @param {import("./api.js").GameInfo[]} games
 * @param {Translate} t
 */
export function createForm(games, t) {
  const name = h("input", { id: "tournament-name", name: "name", required: true, maxlength: 60, autocomplete: "off", placeholder: t("tournament.namePlaceholder") });
  const game = h("select", { id: "tournament-game", name: "game", onchange: () => drawPlayers() },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("select", { id: "tournament-players", name: "players", onchange: () => drawDeals() });
  const deals = h("input", { type: "number", id: "tournament-deals", name: "deals", min: 1, max: MAX_DEALS, required: true, inputmode: "numeric", "aria-describedby": "tournament-deals-help" });
  const form = h("select", { id: "tournament-form", name: "form" },
    h("option", { value: "duplicate" }, formWords("duplicate", t, true)),
    h("option", { value: "swiss" }, formWords("swiss", t, true)));
  const start = h("input", { type: "datetime-local", id: "tournament-start", name: "start", required: true, min: localInput(new Date()), value: localInput(defaultStart()) });
  const speed = h("select", { id: "tournament-speed", name: "move_hours" },
    h("option", { value: "" }, speedWords(null, t)),
    MOVE_HOURS.map((hours) => h("option", { value: hours }, speedWords(hours, t))));
  const bot = h("select", { id: "tournament-bot", name: "bot" },
    LEVELS.map((level) => h("option", { value: level, selected: level === DEFAULT_LEVEL }, botWords(level, t))));
  const access = h("select", { id: "tournament-access", name: "access" },
    h("option", { value: "open" }, accessWords("open", t)),
    h("option", { value: "invite" }, accessWords("invite", t)));
  const rated = h("select", { id: "tournament-rated", name: "rated" },
    h("option", { value: "true" }, ratedWords(true, t)),
    h("option", { value: "false" }, ratedWords(false, t)));
  const error = h("p", { class: "error", role: "alert", id: "tournament-create-error" });
  const submit = h("button", { type: "submit", class: "primary", id: "tournament-create-submit" }, t("tournament.createButton"));

  const current = () => games.find((g) => g.name === game.value) ?? games[0];
  function drawPlayers() {
    const chosen = current();
    players.replaceChildren(...chosen.players.map((n) =>
      h("option", { value: n, selected: n === chosen.default_players }, t("tournament.playersPerTable", { count: n }))));
    drawDeals();
  }
  // Twice round the table by default: everyone holds every seat's cards twice (docs/tournaments.md, "Seats").
  function drawDeals() {
    deals.value = String(Math.min(MAX_DEALS, 2 * Number(players.value)));
  }
  drawPlayers();

  /** @type {(id: string, label: string, input: HTMLElement, ...help: HTMLElement[]) => HTMLElement} */
  const field = (id, label, input, ...help) => h("div", { class: "field" }, h("label", { for: id }, label), input, ...help);
  return h("form", {
    class: "tournament-form",
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = "";
      submit.disabled = true;
      const body = {
        name: name.value.trim(),
        game: game.value,
        players: Number(players.value),
        deals: Number(deals.value),
        form: form.value,
        // The start as minutes from now (the reader's local time; the server refuses one past).
        start_in_minutes: Math.round((new Date(start.value).getTime() - Date.now()) / 60000),
        move_hours: speed.value === "" ? null : Number(speed.value),
        access: access.value,
        rated: rated.value === "true",
        bot: bot.value,
      };
      try {
        /** @type {{id: string}} */
        const made = await api("/api/tournaments", { method: "POST", body });
        location.assign(tournamentHref(made.id));
      } catch (refused) {
        error.textContent = refusedWords(refused, t);
        submit.disabled = false;
      }
    },
  },
  h("div", { class: "tournament-fields" },
    field("tournament-name", t("tournament.fieldName"), name),
    field("tournament-game", t("tournament.fieldGame"), game),
    field("tournament-players", t("tournament.fieldPlayers"), players),
    field("tournament-deals", t("tournament.fieldDeals", { max: MAX_DEALS }), deals,
      h("small", { class: "hint", id: "tournament-deals-help" }, t("tournament.dealsHelp"))),
    field("tournament-form", t("tournament.fieldForm"), form),
    field("tournament-start", t("tournament.fieldStart"), start),
    field("tournament-speed", t("tournament.fieldSpeed"), speed),
    field("tournament-bot", t("tournament.fieldBot"), bot),
    field("tournament-access", t("tournament.fieldAccess"), access),
    field("tournament-rated", t("tournament.fieldRated"), rated)),
  error,
  submit);
}

/** Now and half an hour, on the next five minutes. */
function defaultStart() {
  const step = 5 * 60 * 1000;
  return new Date(Math.ceil((Date.now() + DEFAULT_LEAD_MINUTES * 60 * 1000) / step) * step);
}

/**
 * A datetime-local input's value for a moment, in this browser's time zone.
 * @param {Date} when
 */
function localInput(when) {
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T${pad(when.getHours())}:${pad(when.getMinutes())}`;
}
