// The lobby: one-click play against bots, the open tables, and a form that sets
// up a table with every rules option a game's manifest lists and a person or a
// bot in each seat. Everything per game comes from GET /api/games.

import { api, joinSeat, saveName, savedName } from "./api.js";
import { h } from "./dom.js";

const REFRESH_MS = 5000;
const DEFAULT_BOT_DELAY_MS = 700;

export async function showLobby(main, { t }) {
  document.title = t("lobby.pageTitle");
  let games;
  try {
    games = await api("/api/games");
  } catch (error) {
    main.replaceChildren(h("p", { class: "error", role: "alert" }, t("lobby.gamesFailed", { reason: error.message })));
    return;
  }
  const nameInput = h("input", {
    id: "player-name", name: "name", autocomplete: "nickname", maxlength: 32,
    value: savedName(), placeholder: t("lobby.namePlaceholder"),
  });
  const tablesList = h("div", { class: "table-list", "aria-live": "polite" });
  main.replaceChildren(
    h("h1", { class: "lobby-title" }, t("lobby.heading")),
    h("div", { class: "lobby" },
      h("section", { class: "panel quick", "aria-labelledby": "quick-heading" },
        h("h2", { id: "quick-heading" }, t("lobby.quickHeading")),
        h("div", { class: "field" },
          h("label", { for: "player-name" }, t("lobby.yourName")), nameInput),
        h("div", { class: "quick-buttons" },
          games.filter((g) => g.board).map((game) => h("button", {
            class: "primary", type: "button", dataset: { game: game.name },
            onclick: (event) => playAgainstBots(game, nameInput.value, event.currentTarget, t),
          }, t("lobby.quickPlay", { game: game.title })))),
        h("p", { class: "hint" }, t("lobby.quickHint")),
        h("ul", { class: "learn-links" }, games.filter((g) => g.board && g.tutorial).map((game) => h("li", {},
          h("a", { href: `/learn/${encodeURIComponent(game.name)}`, dataset: { learn: game.name } }, t("lobby.learn", { game: game.title })),
          " · ",
          h("a", { href: `/puzzles/${encodeURIComponent(game.name)}`, dataset: { puzzles: game.name } }, t("lobby.puzzles", { game: game.title })))))),
      h("section", { class: "panel", "aria-labelledby": "open-heading" },
        h("h2", { id: "open-heading" }, t("lobby.openHeading")), tablesList),
      h("section", { class: "panel create", "aria-labelledby": "create-heading" },
        h("h2", { id: "create-heading" }, t("lobby.createHeading")),
        createForm(games, nameInput, t))));
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const refresh = () => listTables(tablesList, titles, t).catch(() => {});
  await refresh();
  setInterval(refresh, REFRESH_MS);
}

function playerName(input, t) {
  return input.trim() || t("lobby.defaultName");
}

async function playAgainstBots(game, name, button, t) {
  button.disabled = true;
  const levels = (game.levels ?? []).map((l) => l.name);
  const level = levels.includes("medium") ? "medium" : levels[0];
  const seats = Array.from({ length: game.default_players }, (_, seat) =>
    seat === 0 ? { kind: "human" } : { kind: "bot", bot: level });
  try {
    const table = await api("/api/tables", {
      method: "POST",
      body: { game: game.name, options: {}, seats, private: true, turn_seconds: null, bot_delay_ms: DEFAULT_BOT_DELAY_MS },
    });
    await joinSeat(table.id, 0, playerName(name, t));
    location.assign(`/t/${encodeURIComponent(table.id)}`);
  } catch (error) {
    button.disabled = false;
    button.after(h("p", { class: "error", role: "alert" }, error.message));
  }
}

async function listTables(list, titles, t) {
  const tables = await api("/api/tables");
  if (!tables.length) {
    list.replaceChildren(h("p", { class: "hint" }, t("lobby.noTables")));
    return;
  }
  list.replaceChildren(h("ul", { class: "tables" }, tables.map((table) => {
    const free = table.seats.filter((s) => s.kind === "human" && !s.taken).length;
    return h("li", { class: "table-item" },
      h("div", { class: "table-item-head" },
        h("strong", {}, table.title ?? titles[table.game] ?? table.game),
        h("span", { class: "badge" }, t(`status.${table.status}`))),
      h("p", { class: "table-options" }, describeOptions(table.options, t)),
      h("ul", { class: "seat-chips", "aria-label": t("lobby.seats") }, table.seats.map((s) => h("li", {
        class: `chip ${s.kind === "bot" ? "chip-bot" : s.taken ? "chip-taken" : "chip-free"}`,
      }, seatWords(s, t)))),
      h("p", { class: "table-meta" },
        t("lobby.freeSeats", { count: free }), " · ", t("lobby.spectators", { count: table.spectators ?? 0 })),
      h("a", { class: "button", href: `/t/${encodeURIComponent(table.id)}` },
        free ? t("lobby.joinTable") : t("lobby.watchTable")));
  })));
}

function seatWords(seat, t) {
  if (seat.kind === "bot") return t("lobby.seatBot", { seat: seat.seat, bot: seat.bot ?? "" });
  if (seat.taken) return t("lobby.seatTaken", { seat: seat.seat, name: seat.name ?? "" });
  return t("lobby.seatFree", { seat: seat.seat });
}

function describeOptions(options, t) {
  const parts = Object.entries(options ?? {})
    .filter(([, value]) => value !== null && value !== undefined)
    .filter(([, value]) => !(Array.isArray(value) && value.length > 20)) // a symbols table
    .map(([name, value]) => `${name} ${Array.isArray(value) ? value.join("/") : value}`);
  return parts.join(" · ") || t("lobby.defaultRules");
}

/**
 * An option typed into a text field, as JSON the engine checks: "" keeps the
 * default, "5" is a number, "12, 13, 12" or "1 2 3" a list of numbers, "[…]"
 * or "null" JSON, anything else text ("must"). The engine says what is wrong.
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

function createForm(games, nameInput, t) {
  const gameSelect = h("select", { id: "new-game", name: "game" },
    games.map((g) => h("option", { value: g.name }, g.title)));
  const summary = h("p", { class: "hint", id: "new-game-summary" });
  const playersSelect = h("select", { id: "new-players", name: "players" });
  const optionsBox = h("div", { class: "options-grid" });
  const seatsBox = h("div", { class: "seats-grid" });
  const privateBox = h("input", { type: "checkbox", id: "new-private", name: "private" });
  const timer = h("input", { type: "number", id: "new-timer", name: "turn_seconds", min: 5, max: 3600, inputmode: "numeric", placeholder: t("lobby.timerNone") });
  const pace = h("input", { type: "number", id: "new-pace", name: "bot_delay_ms", min: 0, max: 10000, step: 100, value: DEFAULT_BOT_DELAY_MS, inputmode: "numeric" });
  const errorBox = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", class: "primary", id: "create-table" }, t("lobby.createButton"));

  const current = () => games.find((g) => g.name === gameSelect.value);

  function drawSeats() {
    const game = current();
    const count = Number(playersSelect.value);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const levels = (game.levels ?? []).map((l) => l.name);
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
        h("label", { for: id }, t("lobby.seatLabel", { seat })),
        h("select", { id, name: id }, choices.map(([v, label]) =>
          h("option", { value: v, selected: v === value }, label))));
    }));
  }

  function drawGame() {
    const game = current();
    summary.textContent = game.summary ?? "";
    playersSelect.replaceChildren(...game.players.map((n) =>
      h("option", { value: n, selected: n === game.default_players }, t("lobby.playersCount", { count: n }))));
    optionsBox.replaceChildren(...game.options.filter((o) => o.name !== "players").map((option) => {
      const id = `opt-${option.name}`;
      const input = h("input", {
        id, name: option.name, dataset: { option: option.name }, autocomplete: "off",
        placeholder: t("lobby.optionDefault"), "aria-describedby": `${id}-help`,
      });
      const file = option.from_file ? h("input", {
        type: "file", "aria-label": t("lobby.optionFile", { option: option.name }),
        onchange: async (event) => {
          const chosen = event.currentTarget.files?.[0];
          if (chosen) input.value = (await chosen.text()).trim();
        },
      }) : null;
      return h("div", { class: "field" },
        h("label", { for: id }, option.name),
        input, file,
        h("small", { id: `${id}-help`, class: "hint" }, option.help));
    }));
    drawSeats();
  }

  gameSelect.addEventListener("change", () => { seatsBox.replaceChildren(); drawGame(); });
  playersSelect.addEventListener("change", drawSeats);
  drawGame();

  const form = h("form", { class: "create-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "new-game" }, t("lobby.game")), gameSelect, summary),
    h("div", { class: "field" }, h("label", { for: "new-players" }, t("lobby.players")), playersSelect),
    h("fieldset", {}, h("legend", {}, t("lobby.options")), optionsBox),
    h("fieldset", {}, h("legend", {}, t("lobby.seats")), seatsBox),
    h("fieldset", {}, h("legend", {}, t("lobby.tableSettings")),
      h("div", { class: "field check" }, privateBox, h("label", { for: "new-private" }, t("lobby.private"))),
      h("div", { class: "field" }, h("label", { for: "new-timer" }, t("lobby.timer")), timer),
      h("div", { class: "field" }, h("label", { for: "new-pace" }, t("lobby.pace")), pace)),
    errorBox, submit);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.textContent = "";
    const game = current();
    const options = { players: Number(playersSelect.value) };
    for (const input of optionsBox.querySelectorAll("input[data-option]")) {
      const value = parseOptionValue(input.value);
      if (value !== undefined) options[input.dataset.option] = value;
    }
    const seats = [...seatsBox.querySelectorAll("select")].map((select) =>
      select.value === "human" ? { kind: "human" } : { kind: "bot", bot: select.value.slice(4) });
    submit.disabled = true;
    try {
      const table = await api("/api/tables", {
        method: "POST",
        body: {
          game: game.name, options, seats, private: privateBox.checked,
          turn_seconds: timer.value ? Number(timer.value) : null,
          bot_delay_ms: pace.value === "" ? DEFAULT_BOT_DELAY_MS : Number(pace.value),
        },
      });
      if (nameInput.value.trim()) saveName(nameInput.value.trim());
      location.assign(`/t/${encodeURIComponent(table.id)}`);
    } catch (error) {
      errorBox.textContent = error.message;
      submit.disabled = false;
    }
  });
  return form;
}
