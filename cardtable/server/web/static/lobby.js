// @ts-check
// The lobby: one-click play against bots (every game: one without a board of its
// own is drawn by the generic board), the open tables, and a form that sets
// up a table with every rules option a game's manifest lists and a person or a
// bot in each seat. Everything per game comes from GET /api/games; its
// options are worded by the game's own catalog ("option.<name>…" keys of its
// board's i18n files), falling back to the manifest's English help.

import { api, joinSeat, refusedWords, saveName, savedName } from "./api.js";
import { GENERIC_BOARD } from "./board-host.js";
import { h } from "./dom.js";
import { loadCatalog, translator } from "./i18n.js";
import { quickMatch, waitingCounts } from "./quickmatch.js";
import { ratedBadge, ratedChoice, ratedFilter } from "./rated.js";
import { ruleHref, withRuleLinks } from "./rules.js";

const REFRESH_MS = 5000;
const DEFAULT_BOT_DELAY_MS = 700;

/** @typedef {import("./api.js").GameInfo} GameInfo */
/** @typedef {import("./api.js").OptionInfo} OptionInfo */
/** @typedef {import("./api.js").TableInfo} TableInfo */
/** @typedef {import("./board-host.js").SeatInfo} SeatInfo */
/** @typedef {import("./i18n.js").Translate} Translate */
/**
 * The open tables' filters (tableFilters).
 * @typedef {{element: HTMLElement, query: () => URLSearchParams, onchange: (then: () => void) => void}} Filters
 */

/**
 * @param {HTMLElement} main
 * @param {import("./i18n.js").Env} env
 */
export async function showLobby(main, env) {
  const { t } = env;
  document.title = t("lobby.pageTitle");
  /** @type {GameInfo[]} */
  let games;
  try {
    games = await api("/api/games");
  } catch (error) {
    main.replaceChildren(h("p", { class: "error", role: "alert" }, t("lobby.gamesFailed", { reason: /** @type {Error} */ (error).message })));
    return;
  }
  // Each game's words (its option names and choices) from its board's catalog.
  await Promise.all(games.map(async (game) => {
    game.t = translator(env.lang, await gameWords(game, env.languages), env.strings);
  }));
  const nameInput = h("input", {
    id: "player-name", name: "name", autocomplete: "nickname", maxlength: 32,
    value: savedName(), placeholder: t("lobby.namePlaceholder"),
  });
  const matches = Object.fromEntries(games.map((game) =>
    [game.name, quickMatch(game, quickBot(game), () => playerName(nameInput.value, t), t)]));
  const tablesList = h("div", { class: "table-list", "aria-live": "polite" });
  const filters = tableFilters(games, t);
  main.replaceChildren(
    h("h1", { class: "lobby-title" }, t("lobby.heading")),
    h("div", { class: "lobby" },
      h("section", { class: "panel quick", "aria-labelledby": "quick-heading" },
        h("h2", { id: "quick-heading" }, t("lobby.quickHeading")),
        h("div", { class: "field" },
          h("label", { for: "player-name" }, t("lobby.yourName")), nameInput),
        h("div", { class: "quick-buttons" },
          games.map((game) => h("div", { class: "quick-game" },
            h("div", { class: "quick-game-text" },
              h("strong", { class: "quick-game-title" }, game.title),
              h("span", { class: "hint" }, summaryWords(game)),
              h("span", { class: "hint" }, t("lobby.playerRange", { min: Math.min(...game.players), max: Math.max(...game.players) }))),
            matches[game.name].element,
            h("div", { class: "quick-game-actions" },
              h("button", {
                class: "primary", type: "button", dataset: { game: game.name },
                onclick: (event) => playAgainstBots(game, nameInput.value, event.currentTarget, t),
              }, t("lobby.quickPlay", { game: game.title })),
              h("a", { class: "how-to-play", href: ruleHref(game.name) },
                t("rules.howToPlay"), h("span", { class: "visually-hidden" }, ` ${game.title}`)),
              ...(game.tutorial ? [
                h("a", { class: "learn-link", href: `/learn/${encodeURIComponent(game.name)}`, dataset: { learn: game.name } }, t("lobby.learn", { game: game.title })),
                h("a", { class: "learn-link", href: `/puzzles/${encodeURIComponent(game.name)}`, dataset: { puzzles: game.name } }, t("lobby.puzzles", { game: game.title })),
              ] : []),
              h("a", { class: "learn-link", href: `/leaderboard/${encodeURIComponent(game.name)}`, dataset: { leaderboard: game.name } },
                t("lobby.leaderboard"), h("span", { class: "visually-hidden" }, ` ${game.title}`)))))),
        h("p", { class: "hint" }, t("lobby.playNowHint")),
        h("p", { class: "hint" }, t("lobby.quickHint"))),
      h("section", { class: "panel", "aria-labelledby": "open-heading" },
        h("h2", { id: "open-heading" }, t("lobby.openHeading")), filters.element, tablesList),
      h("section", { class: "panel create", "aria-labelledby": "create-heading" },
        h("h2", { id: "create-heading" }, t("lobby.createHeading")),
        createForm(games, nameInput, t))));
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const lister = tableLister(tablesList, byName, filters, t);
  const counted = () => waitingCounts().then((counts) => {
    for (const game of games) matches[game.name].counts(counts[game.name] ?? {});
  });
  const refresh = () => Promise.all([lister(false), counted()]).catch(() => {});
  filters.onchange(() => lister(true).catch(() => {}));
  await refresh();
  setInterval(refresh, REFRESH_MS);
}

/**
 * A game's own catalog, without loading its board: the i18n.<lang>.json files
 * beside its board module (where every board keeps them, docs/browser.md). A
 * game drawn by the generic board has none; the shell's words serve it.
 * @param {GameInfo} game
 * @param {string[]} languages
 * @returns {Promise<import("./i18n.js").Catalog>}
 */
async function gameWords(game, languages) {
  if (!game.board || game.board === GENERIC_BOARD) return {};
  const board = new URL(game.board, location.href);
  const { strings } = await loadCatalog((code) => new URL(`i18n.${code}.json`, board), languages).catch(() => ({ strings: {} }));
  return strings;
}

/**
 * The game in one line, in the page's language where its catalog says it.
 * @param {GameInfo} game
 */
function summaryWords(game) {
  const gt = game.t; // the game's own words
  return gt.has("game.summary") ? gt("game.summary") : game.summary ?? "";
}

/**
 * @param {string} input
 * @param {Translate} t
 */
function playerName(input, t) {
  return input.trim() || t("lobby.defaultName");
}

/**
 * @param {GameInfo} game
 * @param {string} name
 * @param {HTMLButtonElement} button
 * @param {Translate} t
 */
async function playAgainstBots(game, name, button, t) {
  button.disabled = true;
  const bot = quickBot(game);
  const seats = Array.from({ length: game.default_players }, (_, seat) =>
    seat === 0 ? { kind: "human" } : { kind: "bot", bot });
  try {
    const table = await api("/api/tables", {
      method: "POST",
      // Friendly: one person among bots is never rated (rating_rules.py), so the badge says so.
      body: { game: game.name, options: {}, seats, private: true, rated: false, turn_seconds: null, bot_delay_ms: DEFAULT_BOT_DELAY_MS },
    });
    await joinSeat(table.id, 0, playerName(name, t));
    location.assign(`/t/${encodeURIComponent(table.id)}`);
  } catch (error) {
    button.disabled = false;
    button.after(h("p", { class: "error", role: "alert" }, refusedWords(error, t)));
  }
}

/** The opponents of one-click play: the medium level, else the game's first
 * level, else its own first bot, else the random bot every game has.
 * @param {GameInfo} game
 * @returns {string}
 */
function quickBot(game) {
  const levels = (game.levels ?? []).map((l) => l.name);
  const bots = (game.bots ?? []).map((b) => b.name);
  if (levels.includes("medium")) return "medium";
  return levels[0] ?? bots.find((name) => name !== "random") ?? "random";
}

/**
 * The lobby's filters of open tables (game, players, rated): GET /api/tables takes them.
 * @param {GameInfo[]} games
 * @param {Translate} t
 * @returns {Filters}
 */
function tableFilters(games, t) {
  const counts = [...new Set(games.flatMap((g) => g.players))].sort((a, b) => a - b);
  const game = h("select", { id: "filter-game" },
    h("option", { value: "" }, t("lobby.anyGame")),
    games.map((g) => h("option", { value: g.name }, g.title)));
  const players = h("select", { id: "filter-players" },
    h("option", { value: "" }, t("lobby.anyPlayers")),
    counts.map((n) => h("option", { value: String(n) }, t("lobby.playersCount", { count: n }))));
  const rated = ratedFilter(t);
  // Each label stays on one line with its list when the filters wrap.
  const element = h("div", { class: "table-filters" },
    h("span", { class: "filter" }, h("label", { for: "filter-game" }, t("lobby.filterGame")), game),
    h("span", { class: "filter" }, h("label", { for: "filter-players" }, t("lobby.filterPlayers")), players),
    h("span", { class: "filter" }, h("label", { for: "filter-rated" }, t("rated.filter")), rated));
  return {
    element,
    query: () => {
      const query = new URLSearchParams();
      if (game.value) query.set("game", game.value);
      if (players.value) query.set("players", players.value);
      if (rated.value) query.set("rated", rated.value);
      return query;
    },
    onchange: (then) => { game.onchange = then; players.onchange = then; rated.onchange = then; },
  };
}

/**
 * Open tables, newest first, at most 50 a page; "More tables" appends the next
 * page. The lobby refreshes the first page every few seconds, except once more
 * pages were fetched (a refresh would drop them) until the filters change.
 * @param {HTMLElement} list
 * @param {Record<string, GameInfo>} games
 * @param {Filters} filters
 * @param {Translate} t
 * @returns {(fresh: boolean) => Promise<void>}
 */
function tableLister(list, games, filters, t) {
  let paged = false;
  return async (fresh) => {
    if (fresh) paged = false;
    if (paged) return;
    const query = filters.query();
    /** @type {{tables: TableInfo[], next: string | null}} */
    const page = await api(`/api/tables?${query}`);
    if (!page.tables.length) {
      list.replaceChildren(h("p", { class: "hint" }, t("lobby.noTables")));
      return;
    }
    const items = h("ul", { class: "tables" }, page.tables.map((table) => tableItem(table, games, t)));
    list.replaceChildren(items);
    let next = page.next;
    const more = h("button", { type: "button", class: "more-tables" }, t("lobby.moreTables"));
    more.onclick = async () => {
      paged = true;
      const after = new URLSearchParams(query);
      after.set("cursor", /** @type {string} */ (next)); // the button is there only then
      /** @type {{tables: TableInfo[], next: string | null}} */
      const further = await api(`/api/tables?${after}`);
      items.append(...further.tables.map((table) => tableItem(table, games, t)));
      next = further.next;
      if (!next) more.remove();
    };
    if (next) list.append(more);
  };
}

/**
 * @param {TableInfo} table
 * @param {Record<string, GameInfo>} games
 * @param {Translate} t
 */
function tableItem(table, games, t) {
  const free = table.seats.filter((s) => s.kind === "human" && !s.taken).length;
  return h("li", { class: "table-item" },
    h("div", { class: "table-item-head" },
      h("strong", {}, table.title ?? games[table.game]?.title ?? table.game),
      h("span", { class: "table-badges" }, ratedBadge(table, t), h("span", { class: "badge" }, t(`status.${table.status}`)))),
    h("p", { class: "table-options" }, describeOptions(table.options, games[table.game], t)),
    h("ul", { class: "seat-chips", "aria-label": t("lobby.seats") }, table.seats.map((s) => h("li", {
      class: `chip ${s.kind === "bot" ? "chip-bot" : s.taken ? "chip-taken" : "chip-free"}`,
    }, seatWords(s, t)))),
    h("p", { class: "table-meta" },
      t("lobby.freeSeats", { count: free }), " · ", t("lobby.spectators", { count: table.spectators ?? 0 })),
    h("a", { class: "button", href: `/t/${encodeURIComponent(table.id)}` },
      free ? t("lobby.joinTable") : t("lobby.watchTable")));
}

// Seats are numbered from 1 for people (the engine and the wire count from 0).
/**
 * @param {SeatInfo} seat
 * @param {Translate} t
 */
function seatWords(seat, t) {
  const number = seat.seat + 1;
  if (seat.kind === "bot") return t("lobby.seatBot", { seat: number, bot: botWords(seat.bot ?? "", t) });
  if (seat.taken) return t("lobby.seatTaken", { seat: number, name: seat.name ?? "" });
  return t("lobby.seatFree", { seat: number });
}

/**
 * @param {string} bot
 * @param {Translate} t
 */
function botWords(bot, t) {
  return t.has(`level.${bot}`) ? t(`level.${bot}`) : bot;
}

/**
 * A table's options in words: only those that differ from the game's defaults.
 * @param {Record<string, any> | undefined} options
 * @param {GameInfo | undefined} game
 * @param {Translate} t
 */
function describeOptions(options = {}, game, t) {
  const parts = (game?.options ?? [])
    .filter((o) => o.name !== "players" && Object.hasOwn(options ?? {}, o.name))
    .filter((o) => options[o.name] !== null && !(Array.isArray(options[o.name]) && options[o.name].length > 20)) // a symbols table
    .filter((o) => !Object.hasOwn(o, "default") || JSON.stringify(o.default) !== JSON.stringify(options[o.name]))
    .map((o) => {
      const gt = /** @type {GameInfo} */ (game).t; // the game's words (it has this option)
      return t("lobby.optionValue", { option: optionLabel(o, gt), value: valueWords(o, options[o.name], gt) });
    });
  return parts.join(" · ") || t("lobby.defaultRules");
}

/**
 * @param {OptionInfo} option
 * @param {Translate} gt the game's words
 */
function optionLabel(option, gt) {
  return gt.has(`option.${option.name}`) ? gt(`option.${option.name}`) : option.name;
}

/**
 * @param {OptionInfo} option
 * @param {Translate} gt the game's words
 */
function optionHelp(option, gt) {
  return gt.has(`option.${option.name}.help`) ? gt(`option.${option.name}.help`) : option.help;
}

/**
 * One value of an option in words: a choice by its catalog name, a seat from 1, a list joined.
 * @param {OptionInfo} option
 * @param {unknown} value
 * @param {Translate} gt the game's words
 * @returns {string}
 */
function valueWords(option, value, gt) {
  if (gt.has(`option.${option.name}.seat`) && typeof value === "number") return gt(`option.${option.name}.seat`, { seat: value + 1 });
  if (gt.has(`option.${option.name}.${value}`)) return gt(`option.${option.name}.${value}`);
  if (typeof value === "boolean") return gt(value ? "generic.yes" : "generic.no");
  if (value === null) return gt("generic.none");
  return Array.isArray(value) ? value.join(" ") : String(value);
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
 * @param {GameInfo[]} games
 * @param {HTMLInputElement} nameInput
 * @param {Translate} t
 */
function createForm(games, nameInput, t) {
  const gameSelect = h("select", { id: "new-game", name: "game" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const summary = h("p", { class: "hint", id: "new-game-summary" });
  const playersSelect = h("select", { id: "new-players", name: "players" });
  const optionsBox = h("div", { class: "options-grid" });
  const seatsBox = h("div", { class: "seats-grid" });
  const mySeat = h("select", { id: "new-my-seat", name: "my_seat" });
  const privateBox = h("input", { type: "checkbox", id: "new-private", name: "private" });
  const ratedBox = ratedChoice(t);
  const timer = h("input", { type: "number", id: "new-timer", name: "turn_seconds", min: 5, max: 3600, inputmode: "numeric", placeholder: t("lobby.timerNone") });
  const pace = h("input", { type: "number", id: "new-pace", name: "bot_delay_ms", min: 0, max: 10000, step: 100, value: DEFAULT_BOT_DELAY_MS, inputmode: "numeric" });
  const errorBox = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "create-table" }, t("lobby.createButton"));

  const current = () => /** @type {GameInfo} */ (games.find((g) => g.name === gameSelect.value)); // a game of the list

  function drawSeats() {
    const game = current();
    const count = Number(playersSelect.value);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const levels = (game.levels ?? []).map((l) => l.name);
    // Each [value, words].
    /** @type {string[][]} */
    const choices = [
      ["human", t("lobby.seatHuman")],
      ...levels.map((level) => [`bot:${level}`, t("lobby.botLevel", { level: t(`level.${level}`) })]),
      ...(game.bots ?? []).filter((bot) => !levels.includes(bot.name))
        .map((bot) => [`bot:${bot.name}`, t("lobby.botNamed", { bot: bot.name })]),
    ];
    const fallback = levels.includes("medium") ? "bot:medium" : choices[1]?.[0] ?? "human";
    seatsBox.replaceChildren(...Array.from({ length: count }, (_, seat) => {
      const id = `seat-${seat}`;
      const value = previous[seat] ?? (seat === 0 || seat === 1 ? "human" : fallback);
      return h("div", { class: "field" },
        h("label", { for: id }, t("lobby.seatLabel", { seat: seat + 1 })),
        h("select", { id, name: id, onchange: drawMySeat }, choices.map(([v, label]) =>
          h("option", { value: v, selected: v === value }, label))));
    }));
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
    h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatsBox,
      h("div", { class: "field" }, h("label", { for: "new-my-seat" }, t("lobby.mySeat")), mySeat)),
    h("fieldset", {}, h("legend", {}, t("lobby.tableSettings")),
      h("div", { class: "field check" }, privateBox, h("label", { for: "new-private" }, t("lobby.private"))),
      ratedBox.element,
      h("div", { class: "field" }, h("label", { for: "new-timer" }, t("lobby.timer")), timer),
      h("div", { class: "field" }, h("label", { for: "new-pace" }, t("lobby.pace")), pace)),
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
          turn_seconds: timer.value ? Number(timer.value) : null,
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
