// @ts-check
// The lobby's "Set up a table" form (lobby.js loads it when the fold is first
// opened): the game, its options in the game's words, each seat a person or a
// bot level, the table's settings (private, rated, real-time or turn-based),
// and the creator's own seat.

import { api, joinSeat, refusedWords, saveName } from "./api.js";
import { h } from "./dom.js";
import { DEFAULT_BOT_DELAY_MS, botChoiceWords, optionLabel, playerName, summaryWords, valueWords } from "./lobby.js";
import { ratedChoice } from "./rated.js";
import { ruleHref, withRuleLinks } from "./rules.js";
import { MOVE_HOURS, speedWords } from "./speeds.js";

/** @typedef {import("./api.js").GameInfo} GameInfo */
/** @typedef {import("./api.js").OptionInfo} OptionInfo */
/** @typedef {import("./i18n.js").Translate} Translate */

// What the end of a turn-based table's time per move does (requests.py: OnTimeout).
const ON_TIMEOUT = ["stand-in", "drop", "end"];

/**
 * @param {OptionInfo} option
 * @param {Translate} gt the game's words
 */
function optionHelp(option, gt) {
  return gt.has(`option.${option.name}.help`) ? gt(`option.${option.name}.help`) : option.help;
}

/**
 * One entry of an option's list, the game's default marked as the rulebook's.
 * @param {OptionInfo} option
 * @param {unknown} value
 * @param {Translate} gt the game's words
 * @param {string} chosen the JSON of the value chosen
 */
function choiceEntry(option, value, gt, chosen) {
  const json = JSON.stringify(value);
  const words = valueWords(option, value, gt);
  const isDefault = Object.hasOwn(option, "default") && JSON.stringify(option.default) === json;
  return h("option", { value: json, selected: json === chosen }, isDefault ? gt("lobby.optionIsDefault", { value: words }) : words);
}

/**
 * "rulebook: …": the default as the game states it, or how it follows from the others.
 * @param {OptionInfo} option
 * @param {Translate} gt the game's words
 */
function defaultWords(option, gt) {
  if (Object.hasOwn(option, "default")) return gt("lobby.optionDefaultIs", { value: valueWords(option, option.default, gt) });
  if (gt.has(`option.${option.name}.default`)) return gt("lobby.optionDefaultIs", { value: gt(`option.${option.name}.default`) });
  return option.default_how ? gt("lobby.optionDefaultIs", { value: option.default_how }) : gt("lobby.optionDefault");
}

/**
 * An option typed into a text field, as JSON the engine checks: "" keeps the
 * default, "5" is a number, "12, 13, 12" or "1 2 3" a list of numbers, "[…]"
 * or "null" JSON, anything else text ("must"). The engine says what is wrong.
 * @param {string} text
 * @returns {unknown}
 */
export function parseOptionValue(text) {
  const value = text.trim();
  if (!value) return undefined;
  if (/^-?\d+$/.test(value)) return Number(value);
  if (/^-?\d+([\s,]+-?\d+)+$/.test(value)) return value.split(/[\s,]+/).map(Number);
  if (/^[[{"]|^(null|true|false)$/.test(value)) {
    try { return JSON.parse(value); } catch { return value; }
  }
  return value;
}

/**
 * A level in words, with its published rating, on the scale people's ratings
 * use: "Expert bot: thinks 2 s a move · rated 1240".
 * @param {import("./api.js").LevelInfo} level
 * @param {Translate} t
 */
function levelLine(level, t) {
  const how = level.seconds == null ? t("lobby.levelRules")
    : t("lobby.levelThinks", { seconds: new Intl.NumberFormat(t.lang).format(level.seconds) });
  const rating = level.rating == null ? null
    : t(level.measured === false ? "lobby.levelRatingBorrowed" : "lobby.levelRating", { rating: level.rating });
  return h("li", {}, h("strong", {}, botChoiceWords(level.name, t)), " ", rating ? t("lobby.levelWith", { how, rating }) : how);
}

/**
 * @param {GameInfo[]} games
 * @param {HTMLInputElement} nameInput
 * @param {Translate} t
 */
export function createForm(games, nameInput, t) {
  const gameSelect = h("select", { id: "new-game", name: "game" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const summary = h("p", { class: "hint", id: "new-game-summary" });
  const playersSelect = h("select", { id: "new-players", name: "players" });
  const optionsBox = h("div", { class: "options-grid" });
  const seatsBox = h("div", { class: "seats-grid" });
  const levelsBox = h("ul", { class: "level-legend", id: "new-levels", "aria-label": t("lobby.levelsLegend") });
  const mySeat = h("select", { id: "new-my-seat", name: "my_seat" });
  const privateBox = h("input", { type: "checkbox", id: "new-private", name: "private" });
  const researchBots = h("input", { type: "checkbox", id: "new-research-bots", onchange: () => drawSeats() });
  const ratedBox = ratedChoice(t);
  const timer = h("input", { type: "number", id: "new-timer", name: "turn_seconds", min: 5, max: 3600, inputmode: "numeric", placeholder: t("lobby.timerNone") });
  const pace = h("input", { type: "number", id: "new-pace", name: "bot_delay_ms", min: 0, max: 10000, step: 100, value: DEFAULT_BOT_DELAY_MS, inputmode: "numeric" });
  // Real time, or turn-based with hours per move (docs/server.md, "Turn-based tables").
  const speed = h("select", { id: "new-speed", name: "move_hours", "aria-describedby": "new-speed-help", onchange: () => drawSpeed() },
    h("option", { value: "" }, t("lobby.speedRealTime")),
    MOVE_HOURS.map((hours) => h("option", { value: hours }, speedWords(hours, t))));
  const onTimeout = h("select", { id: "new-on-timeout", name: "on_timeout" },
    ON_TIMEOUT.map((choice) => h("option", { value: choice }, t(`lobby.onTimeout.${choice}`))));
  const timerField = h("div", { class: "field" }, h("label", { for: "new-timer" }, t("lobby.timer")), timer);
  const onTimeoutField = h("div", { class: "field", hidden: true },
    h("label", { for: "new-on-timeout" }, t("lobby.onTimeout")), onTimeout);
  // A turn-based table counts hours, not the real-time turn timer's seconds.
  const drawSpeed = () => { timerField.hidden = speed.value !== ""; onTimeoutField.hidden = speed.value === ""; };
  const errorBox = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "create-table" }, t("lobby.createButton"));

  const current = () => /** @type {GameInfo} */ (games.find((g) => g.name === gameSelect.value)); // a game of the list

  function drawSeats() {
    const game = current();
    const count = Number(playersSelect.value);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const levels = (game.levels ?? []).map((l) => l.name);
    // Each [value, words].
    // A person, the levels in words; the research bots by their names only under Advanced.
    /** @type {string[][]} */
    const choices = [
      ["human", t("lobby.seatHuman")],
      ...levels.map((level) => [`bot:${level}`, botChoiceWords(level, t)]),
    ];
    const research = researchBots.checked ? (game.bots ?? []).filter((bot) => !levels.includes(bot.name))
      .map((bot) => [`bot:${bot.name}`, t("lobby.botNamed", { bot: bot.name })]) : [];
    const offered = new Set([...choices, ...research].map(([v]) => v));
    const fallback = levels.includes("medium") ? "bot:medium" : choices[1]?.[0] ?? research[0]?.[0] ?? "human";
    /** @param {string[][]} list @param {string} value */
    const entries = (list, value) => list.map(([v, label]) => h("option", { value: v, selected: v === value }, label));
    seatsBox.replaceChildren(...Array.from({ length: count }, (_, seat) => {
      const id = `seat-${seat}`;
      const before = previous[seat] ?? (seat === 0 || seat === 1 ? "human" : fallback);
      const value = offered.has(before) ? before : fallback;
      return h("div", { class: "field" },
        h("label", { for: id }, t("lobby.seatLabel", { seat: seat + 1 })),
        h("select", { id, name: id, onchange: drawMySeat }, entries(choices, value),
          research.length ? h("optgroup", { label: t("lobby.researchGroup") }, entries(research, value)) : null));
    }));
    levelsBox.replaceChildren(...(game.levels ?? []).map((level) => levelLine(level, t)));
    drawMySeat();
    drawSeatOptions();
  }

  // The creator sits in the person's seat they pick (or only watches).
  function drawMySeat() {
    const before = mySeat.value;
    const people = [...seatsBox.querySelectorAll("select")].flatMap((select, seat) => select.value === "human" ? [seat] : []);
    const keep = people.map(String).includes(before) ? before : String(people[0] ?? "watch");
    mySeat.replaceChildren(
      ...people.map((seat) => h("option", { value: seat, selected: String(seat) === keep }, t("lobby.seatLabel", { seat: seat + 1 }))),
      h("option", { value: "watch", selected: keep === "watch" }, t("lobby.onlyWatch")));
  }

  // An option whose values are seats offers one entry per seat of this table.
  function drawSeatOptions() {
    const game = current();
    const count = Number(playersSelect.value);
    for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (optionsBox.querySelectorAll("select[data-seats]"))) {
      const option = /** @type {OptionInfo} */ (game.options.find((o) => o.name === select.dataset.option));
      const before = select.value === "" ? JSON.stringify(option.default ?? 0) : select.value;
      select.replaceChildren(...Array.from({ length: count }, (_, seat) => choiceEntry(option, seat, game.t, before)));
    }
  }

  function drawGame() {
    const game = current();
    summary.textContent = game.summary ?? "";
    playersSelect.replaceChildren(...game.players.map((n) =>
      h("option", { value: n, selected: n === game.default_players }, t("lobby.playersCount", { count: n }))));
    summary.replaceChildren(summaryWords(game), " ",
      h("a", { href: ruleHref(game.name) }, t("rules.howToPlay")));
    optionsBox.replaceChildren(...game.options.filter((o) => o.name !== "players").map((option) => {
      const id = `opt-${option.name}`;
      const gt = game.t; // the game's own words
      const label = optionLabel(option, gt);
      const input = optionInput(option, id, gt);
      const file = option.from_file ? h("input", {
        type: "file", "aria-label": t("lobby.optionFile", { option: label }),
        onchange: async (event) => {
          const chosen = event.currentTarget.files?.[0];
          if (chosen) input.value = (await chosen.text()).trim();
        },
      }) : null;
      return h("div", { class: "field" },
        h("label", { for: id }, label),
        input, file,
        h("small", { id: `${id}-help`, class: "hint" }, withRuleLinks(optionHelp(option, gt), game.name),
          option.maximum === undefined ? null : ` (${t("lobby.optionMaximum", { max: option.maximum })})`));
    }));
    drawSeats();
  }

  // A list where the values are few (choices, yes/no, seats), the default chosen
  // and marked; else a text field whose placeholder says the default.
  /**
   * @param {OptionInfo} option
   * @param {string} id
   * @param {Translate} gt the game's words
   * @returns {HTMLInputElement | HTMLSelectElement}
   */
  function optionInput(option, id, gt) {
    const common = { id, name: option.name, dataset: { option: option.name }, "aria-describedby": `${id}-help` };
    const values = option.choices ?? (typeof option.default === "boolean" ? [false, true] : null);
    if (gt.has(`option.${option.name}.seat`)) {
      return h("select", { ...common, dataset: { option: option.name, seats: true } });
    }
    if (values) {
      const chosen = JSON.stringify(option.default ?? values[0]);
      return h("select", common, values.map((v) => choiceEntry(option, v, gt, chosen)));
    }
    return h("input", { ...common, autocomplete: "off", placeholder: defaultWords(option, gt) });
  }

  gameSelect.addEventListener("change", () => { seatsBox.replaceChildren(); drawGame(); });
  playersSelect.addEventListener("change", drawSeats);
  drawGame();

  const form = h("form", { class: "create-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "new-game" }, t("lobby.game")), gameSelect, summary),
    h("div", { class: "field" }, h("label", { for: "new-players" }, t("lobby.players")), playersSelect),
    h("fieldset", {}, h("legend", {}, t("lobby.options")), optionsBox),
    h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatsBox, levelsBox,
      h("div", { class: "field" }, h("label", { for: "new-my-seat" }, t("lobby.mySeat")), mySeat)),
    h("fieldset", {}, h("legend", {}, t("lobby.tableSettings")),
      h("div", { class: "field check" }, privateBox, h("label", { for: "new-private" }, t("lobby.private"))),
      ratedBox.element,
      h("div", { class: "field" }, h("label", { for: "new-speed" }, t("lobby.speed")), speed,
        h("small", { id: "new-speed-help", class: "hint" }, t("lobby.speedHelp"))),
      onTimeoutField,
      timerField,
      h("div", { class: "field" }, h("label", { for: "new-pace" }, t("lobby.pace")), pace)),
    h("details", { class: "advanced" }, h("summary", {}, t("lobby.advanced")),
      h("div", { class: "field check" }, researchBots, h("label", { for: "new-research-bots" }, t("lobby.researchBots")))),
    errorBox, submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.textContent = "";
    const game = current();
    /** @type {Record<string, unknown>} */
    const options = { players: Number(playersSelect.value) };
    for (const input of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (optionsBox.querySelectorAll("[data-option]"))) {
      // A list's entries are JSON (or a seat number); a text field is read by parseOptionValue.
      const value = input.tagName === "SELECT" ? (input.value === "" ? undefined : JSON.parse(input.value)) : parseOptionValue(input.value);
      if (value !== undefined) options[/** @type {string} */ (input.dataset.option)] = value;
    }
    const seats = [...seatsBox.querySelectorAll("select")].map((select) =>
      select.value === "human" ? { kind: "human" } : { kind: "bot", bot: select.value.slice(4) });
    submit.disabled = true;
    try {
      const table = await api("/api/tables", {
        method: "POST",
        body: {
          game: game.name, options, seats, private: privateBox.checked, rated: ratedBox.rated(),
          turn_seconds: timer.value && speed.value === "" ? Number(timer.value) : null,
          ...(speed.value === "" ? {} : { move_hours: Number(speed.value), on_timeout: onTimeout.value }),
          bot_delay_ms: pace.value === "" ? DEFAULT_BOT_DELAY_MS : Number(pace.value),
        },
      });
      if (nameInput.value.trim()) saveName(nameInput.value.trim());
      if (mySeat.value !== "watch") await joinSeat(table.id, Number(mySeat.value), playerName(nameInput.value, t));
      location.assign(`/t/${encodeURIComponent(table.id)}`);
    } catch (error) {
      errorBox.textContent = refusedWords(error, t);
      submit.disabled = false;
    }
  });
  return form;
}
