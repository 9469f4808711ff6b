// @ts-check
// The lobby: one-click play against bots (every game: one without a board of its
// own is drawn by the generic board), the open tables, and a form that sets
// up a table with every rules option a game's manifest lists and a person or a
// bot in each seat. Everything per game comes from GET /api/games; its
// options are worded by the game's own catalog ("option.<name>…" keys of its
// board's i18n files), falling back to the manifest's English help.

import { signedIn } from "./account-nav.js";
import { GENERIC_BOARD, api, joinSeat, refusedWords, savedName, savedSeat } from "./api.js";
import { h, useStylesheet } from "./dom.js";
import { loadCatalog, translator } from "./i18n.js";
import { quickMatch, waitingCounts } from "./quickmatch.js";
import { ratedBadge, ratedFilter } from "./rated.js";
import { ruleHref } from "./rules.js";

const REFRESH_MS = 5000;
const IN_PLAY_SHOWN = 8; // games in play listed at once
const HELD_ASKED = 50; // seats of this browser looked up at most (the server's page)
const SEAT_KEY = "cardtable.seat."; // api.js keeps each seat's token under this and the table's id
export const DEFAULT_BOT_DELAY_MS = 700;

/** @typedef {import("./api.js").GameInfo} GameInfo */
/** @typedef {import("./api.js").OptionInfo} OptionInfo */
/** @typedef {import("./api.js").TableInfo} TableInfo */
/** @typedef {import("./board-host.js").SeatInfo} SeatInfo */
/**
 * A table as the lobby lists it (listing.py, entry): a game in play also says
 * its round, scores and the seat to move.
 * @typedef {TableInfo & {url?: string, play?: {round: number, scores: number[], to_move: number | null}}} LobbyLine
 */
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
  const styled = useStylesheet("/static/lobby.css");
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
  const inPlayList = h("div", { class: "table-list", id: "in-play", "aria-live": "polite" });
  const yours = h("section", { class: "panel yours", id: "your-tables", "aria-labelledby": "yours-heading", hidden: true });
  const online = h("p", { class: "lobby-online", id: "lobby-online", title: t("lobby.onlineExplained") });
  const filters = tableFilters(games, t);
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  await styled;
  main.replaceChildren(
    h("div", { class: "lobby-head" }, h("h1", { class: "lobby-title" }, t("lobby.heading")), online,
      h("a", { class: "button lobby-tournaments", href: "/tournaments", id: "lobby-tournaments" }, t("tournament.nav"))),
    h("div", { class: "lobby" },
      h("section", { class: "panel quick", "aria-labelledby": "quick-heading" },
        h("h2", { id: "quick-heading" }, t("lobby.quickHeading")),
        h("div", { class: "field" },
          h("label", { for: "player-name" }, t("lobby.yourName")), nameInput),
        h("div", { class: "quick-buttons" },
          games.map((game) => h("div", { class: "quick-game" },
            h("div", { class: "quick-game-text" },
              h("strong", { class: "quick-game-title" }, game.title),
              h("span", { class: "hint" }, summaryWords(game), " ",
                t("lobby.playerRange", { min: Math.min(...game.players), max: Math.max(...game.players) }))),
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
        h("details", { class: "quick-help" }, h("summary", {}, t("lobby.quickHelp")),
          h("p", { class: "hint" }, t("lobby.playNowHint")),
          h("p", { class: "hint" }, t("lobby.quickHint")))),
      h("div", { class: "lobby-side" },
        yours,
        h("section", { class: "panel", "aria-labelledby": "in-play-heading" },
          h("h2", { id: "in-play-heading" }, t("lobby.inPlayHeading")), inPlayList),
        h("section", { class: "panel", "aria-labelledby": "open-heading" },
          h("h2", { id: "open-heading" }, t("lobby.openHeading")), filters.element, tablesList)),
      h("details", {
        class: "panel create", id: "set-up",
        // The form's code comes when it is first opened: most visits never do.
        ontoggle: async (/** @type {Event} */ event) => {
          const fold = /** @type {HTMLDetailsElement} */ (event.currentTarget);
          if (!fold.open || fold.querySelector("form")) return;
          const { createForm } = await import("./lobby-setup.js");
          if (!fold.querySelector("form")) fold.append(createForm(games, nameInput, t));
        },
      },
        h("summary", { id: "create-heading" }, h("h2", {}, t("lobby.createHeading")),
          h("span", { class: "hint" }, t("lobby.setupHint"))))));
  const lister = tableLister(tablesList, byName, filters, t);
  const inPlay = gamesInPlay(inPlayList, byName, t);
  const mine = yourTables(yours, byName, t);
  /** @type {import("./quickmatch.js").Waiting} */
  let waiting = {};
  const counted = () => waitingCounts().then((counts) => {
    waiting = counts;
    for (const game of games) matches[game.name].counts(counts[game.name] ?? {});
  });
  // Online: people with a table open (GET /api/online, one per socket) and those waiting for Play now.
  const countOnline = async () => {
    /** @type {{online: number}} */
    const { online: atTables } = await api("/api/online");
    const queued = Object.values(waiting).flatMap((byPlayers) => Object.values(byPlayers)).reduce((a, b) => a + b, 0);
    online.textContent = t("lobby.onlineCount", { count: atTables + queued });
  };
  const refresh = () => Promise.all([lister(false), inPlay(), mine(), counted().then(countOnline)]).catch(() => {});
  filters.onchange(() => lister(true).catch(() => {}));
  await refresh();
  setInterval(refresh, REFRESH_MS);
}

/**
 * Games being played now (GET /api/tables?status=playing): each with its
 * players, scores and round, and "Watch" (the table page, as a spectator).
 * @param {HTMLElement} list
 * @param {Record<string, GameInfo>} games
 * @param {Translate} t
 * @returns {() => Promise<void>}
 */
function gamesInPlay(list, games, t) {
  return async () => {
    /** @type {{tables: LobbyLine[]}} */
    const page = await api(`/api/tables?status=playing&limit=${IN_PLAY_SHOWN}`);
    list.replaceChildren(page.tables.length
      ? h("ul", { class: "tables in-play" }, page.tables.map((table) => playItem(table, games, t)))
      : h("p", { class: "hint" }, t("lobby.noGamesInPlay")));
  };
}

/**
 * One game in play: the players with their scores, the round, who is to play, Watch.
 * @param {LobbyLine} table
 * @param {Record<string, GameInfo>} games
 * @param {Translate} t
 */
function playItem(table, games, t) {
  const title = table.title ?? games[table.game]?.title ?? table.game;
  const play = table.play;
  const scores = table.seats.map((seat, i) => h("li", { class: `chip${play?.to_move === i ? " chip-to-move" : ""}` },
    t("lobby.seatScore", { name: seatName(seat, t), score: play?.scores[i] ?? 0 })));
  return h("li", { class: "table-item play-item", dataset: { table: table.id } },
    h("div", { class: "table-item-head" },
      h("strong", {}, title),
      h("span", { class: "table-badges" }, ratedBadge(table, t),
        play ? h("span", { class: "badge" }, t("lobby.round", { round: play.round })) : null)),
    h("ul", { class: "seat-chips", "aria-label": t("lobby.seats") }, scores),
    h("a", { class: "button", href: table.url ?? `/t/${encodeURIComponent(table.id)}` },
      t("lobby.watchTable"), h("span", { class: "visually-hidden" }, ` ${title}`)));
}

/**
 * A seat's name in a list: the person's, or the bot's level in words.
 * @param {SeatInfo} seat
 * @param {Translate} t
 */
function seatName(seat, t) {
  if (seat.kind === "bot") return botChoiceWords(seat.bot ?? "", t);
  return seat.name ?? t("lobby.seatFree", { seat: seat.seat + 1 });
}

/**
 * Your unfinished tables, those where it is your turn first: an account's
 * (GET /api/me/games, as My games lists them) and the seats this browser
 * holds tokens for (GET /api/live-tables), each once. The panel shows only
 * when there is one.
 * @param {HTMLElement} panel
 * @param {Record<string, GameInfo>} games
 * @param {Translate} t
 * @returns {() => Promise<void>}
 */
function yourTables(panel, games, t) {
  const heading = h("h2", { id: "yours-heading" }, t("lobby.yourTablesHeading"));
  /** @type {Set<string>} */
  const over = new Set(); // held seats at tables no longer live (finished, expired): not asked again
  return async () => {
    // An account's games (a guest has none: the header knows who is signed in).
    /** @type {{in_progress: import("./mygames.js").LiveGame[]} | null} */
    const account = (await signedIn()) ? await api("/api/me/games").catch(() => null) : null;
    const held = heldSeats();
    const ids = Object.keys(held)
      .filter((id) => !over.has(id) && !account?.in_progress.some((g) => g.id === id)).slice(0, HELD_ASKED);
    /** @type {{tables: (LobbyLine & {url: string})[]}} */
    const live = ids.length ? await api(`/api/live-tables?ids=${ids.map(encodeURIComponent).join(",")}`) : { tables: [] };
    for (const id of ids) if (!live.tables.some((table) => table.id === id)) over.add(id);
    const found = [
      ...(account?.in_progress ?? []).map((g) => ({ id: g.id, title: g.title, url: g.url, status: g.status, yourTurn: g.your_turn, others: g.names.filter((_, i) => i !== g.seat) })),
      ...live.tables.map((table) => {
        const seat = held[table.id];
        return {
          id: table.id, title: table.title ?? games[table.game]?.title ?? table.game, url: table.url, status: table.status,
          yourTurn: table.status === "playing" && table.play?.to_move === seat,
          others: table.seats.filter((s) => s.seat !== seat).map((s) => (s.kind === "bot" ? `bot:${s.bot}` : s.name ?? "")),
        };
      }),
    ].sort((a, b) => Number(b.yourTurn) - Number(a.yourTurn)); // stable: in their order within each
    panel.hidden = !found.length;
    panel.replaceChildren(heading,
      h("ul", { class: "game-list" }, found.map((g) => {
        const state = g.yourTurn ? "yourTurn" : g.status === "waiting" ? "waiting" : "theirTurn";
        const names = g.others.filter(Boolean).map((name) => (name.startsWith("bot:") ? botChoiceWords(name.slice(4), t) : name));
        return h("li", { class: `game-item${g.yourTurn ? " is-your-turn" : ""}`, dataset: { table: g.id } },
          h("div", { class: "game-item-text" },
            h("strong", {}, g.title),
            h("span", { class: `badge state-${state}` }, t(`games.${state}`)),
            h("span", { class: "hint" }, t("games.with", { names: names.join(", ") }))),
          h("a", { class: `button${g.yourTurn ? " primary" : ""}`, href: g.url },
            t("games.open"), h("span", { class: "visually-hidden" }, ` ${g.title}`)));
      })),
      ...(account ? [h("a", { href: "/me", class: "all-games" }, t("lobby.allMyGames"))] : []));
  };
}

/**
 * The seats this browser holds a token for (what joinSeat keeps): table id -> seat.
 * @returns {Record<string, number>}
 */
function heldSeats() {
  /** @type {Record<string, number>} */
  const held = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i) ?? "";
      if (!key.startsWith(SEAT_KEY)) continue;
      const saved = savedSeat(key.slice(SEAT_KEY.length));
      if (saved) held[key.slice(SEAT_KEY.length)] = saved.seat;
    }
  } catch { /* private mode: no seats kept */ }
  return held;
}

/**
 * A game's own catalog, without loading its board: the i18n.<lang>.json files
 * beside its board module (where every board keeps them, docs/browser.md), or
 * for a game drawn by the generic board the ones at its `words` address
 * (docs/plugins.md#option-labels). Without either, the shell's words serve it.
 * @param {GameInfo} game
 * @param {string[]} languages
 * @returns {Promise<import("./i18n.js").Catalog>}
 */
async function gameWords(game, languages) {
  const home = game.board && game.board !== GENERIC_BOARD ? game.board : game.words;
  if (!home) return {};
  const board = new URL(home, location.href);
  const { strings } = await loadCatalog((code) => new URL(`i18n.${code}.json`, board), languages).catch(() => ({ strings: {} }));
  return strings;
}

/**
 * The game in one line, in the page's language where its catalog says it.
 * @param {GameInfo} game
 */
export function summaryWords(game) {
  const gt = game.t; // the game's own words
  return gt.has("game.summary") ? gt("game.summary") : game.summary ?? "";
}

/**
 * @param {string} input
 * @param {Translate} t
 */
export function playerName(input, t) {
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
    query.set("status", "waiting"); // the games in play are listed apart
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
 * A bot in words: "Medium bot" for a level, a research bot by its name.
 * @param {string} bot
 * @param {Translate} t
 */
export function botChoiceWords(bot, t) {
  if (t.has(`lobby.bot.${bot}`)) return t(`lobby.bot.${bot}`);
  return t.has(`level.${bot}`) ? t("lobby.botLevel", { level: t(`level.${bot}`) }) : t("lobby.botNamed", { bot });
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
export function optionLabel(option, gt) {
  return gt.has(`option.${option.name}`) ? gt(`option.${option.name}`) : option.name;
}

/**
 * One value of an option in words: a choice by its catalog name, a seat from 1, a list joined.
 * @param {OptionInfo} option
 * @param {unknown} value
 * @param {Translate} gt the game's words
 * @returns {string}
 */
export function valueWords(option, value, gt) {
  if (gt.has(`option.${option.name}.seat`) && typeof value === "number") return gt(`option.${option.name}.seat`, { seat: value + 1 });
  if (gt.has(`option.${option.name}.${value}`)) return gt(`option.${option.name}.${value}`);
  if (typeof value === "boolean") return gt(value ? "generic.yes" : "generic.no");
  if (value === null) return gt("generic.none");
  return Array.isArray(value) ? value.join(" ") : String(value);
}
