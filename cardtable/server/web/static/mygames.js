// "My games" (/me): games in progress, those where it is your turn first, then
// finished games with their result, replay, analysis and record.

import { api } from "./api.js";
import { h } from "./dom.js";
import { ratingChange } from "./ratings.js";

export async function showMyGames(main, env) {
  const { t } = env;
  document.title = t("games.pageTitle");
  let games;
  try {
    games = await api("/api/me/games");
  } catch (error) {
    main.replaceChildren(h("h1", {}, t("games.heading")),
      h("p", { class: "panel" }, error.status === 401
        ? h("a", { href: "/account" }, t("games.signInFirst")) : error.message));
    return;
  }
  const claimed = Number(new URLSearchParams(location.search).get("claimed") ?? 0);
  main.replaceChildren(
    h("h1", {}, t("games.heading")),
    h("p", { class: "account-done", role: "status" }, claimed ? t("account.claimed", { count: claimed }) : ""),
    h("div", { class: "my-games" },
      h("section", { class: "panel", "aria-labelledby": "live-heading" },
        h("h2", { id: "live-heading" }, t("games.inProgress")),
        games.in_progress.length
          ? h("ul", { class: "game-list", id: "in-progress" }, games.in_progress.map((g) => liveItem(g, t)))
          : h("p", { class: "hint" }, t("games.none"))),
      h("section", { class: "panel", "aria-labelledby": "finished-heading" },
        h("h2", { id: "finished-heading" }, t("games.finished")),
        games.finished.length
          ? h("ul", { class: "game-list", id: "finished" }, games.finished.map((g) => finishedItem(g, t)))
          : h("p", { class: "hint" }, t("games.noneFinished")))));
}

function others(game, t) {
  // A bot's seat is named "bot:<name>" in records; people's names are shown as they are.
  const names = game.names.filter((_, seat) => seat !== game.seat)
    .map((name) => (name.startsWith("bot:") ? t("games.bot", { bot: name.slice(4) }) : name));
  return t("games.with", { names: names.join(", ") });
}

function when(game, t) {
  return new Date(game.created_ms).toLocaleDateString(document.documentElement.lang, { dateStyle: "medium" });
}

function liveItem(game, t) {
  const state = game.your_turn ? "yourTurn" : game.status === "waiting" ? "waiting" : "theirTurn";
  return h("li", { class: `game-item${game.your_turn ? " is-your-turn" : ""}`, dataset: { table: game.id } },
    h("div", { class: "game-item-text" },
      h("strong", {}, game.title),
      h("span", { class: `badge state-${state}` }, t(`games.${state}`)),
      h("span", { class: "hint" }, `${others(game, t)} · ${when(game, t)}`)),
    h("a", { class: `button${game.your_turn ? " primary" : ""}`, href: game.url }, t("games.open")));
}

function finishedItem(game, t) {
  return h("li", { class: "game-item", dataset: { table: game.id } },
    h("div", { class: "game-item-text" },
      h("strong", {}, game.title),
      h("span", { class: `badge result-${game.result}` }, t(`games.result.${game.result}`)),
      game.rating ? ratingChange(t, game.rating) : null,
      h("span", { class: "hint" }, `${others(game, t)} · ${t("games.scores", { scores: game.scores.join(" – ") })} · ${when(game, t)}`)),
    h("div", { class: "game-item-actions" },
      h("a", { class: "button", href: game.replay }, t("games.replay")),
      h("a", { class: "button", href: game.analysis }, t("games.analysis")),
      h("a", { class: "button", href: game.record, download: `cardtable-${game.id}.json` }, t("games.record"))));
}
