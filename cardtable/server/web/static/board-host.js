// Loading a game's board module and drawing with it. The shell knows no game:
// the module is the `board` that GET /api/games gives for the game — its own
// /games/{game}/board.js (the file its manifest names as web_client), or the
// generic board (/static/generic-board.js) for a game that brings none. It may
// export, besides render(root, msg, ctx),
// `css` (a stylesheet URL), `catalog(lang)` (the URL of its strings in a
// language) and `narrate(msg, t)` (the game's public history in words).

import { loadCatalog } from "./i18n.js";

const loaded = new Map();

export const GENERIC_BOARD = "/static/generic-board.js";

/**
 * {module, strings} of the game's board, loaded once per page, from `url` (the
 * game's `board` in GET /api/games); without one, the game's own board.js.
 */
export function loadBoard(game, languages, url = `/games/${encodeURIComponent(game)}/board.js`) {
  if (!loaded.has(game)) loaded.set(game, load(game, languages, url));
  return loaded.get(game);
}

async function load(game, languages, url) {
  const module = await import(url);
  if (typeof module.render !== "function") {
    throw new Error(`the board of ${game} has no render function`);
  }
  if (module.css && !document.querySelector(`link[data-board="${CSS.escape(game)}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = String(module.css);
    link.dataset.board = game;
    const ready = new Promise((resolve) => { link.onload = link.onerror = resolve; });
    document.head.append(link);
    await ready;
  }
  const strings = module.catalog ? (await loadCatalog(module.catalog, languages)).strings : {};
  return { module, strings };
}

/**
 * Draw msg into root with the board, keeping keyboard focus where it was: boards
 * mark focusable things with data-key; if the focused one is gone (a card just
 * played), focus goes to the element the board marks data-autofocus (the first
 * playable card, say), else to the board itself, from where it moves on to the
 * data-autofocus element as soon as one appears.
 */
export function drawBoard(board, root, msg, ctx) {
  const active = document.activeElement;
  const onRoot = active === root;
  const hadFocus = active && root.contains(active) && !onRoot;
  const key = hadFocus ? active.dataset.key : undefined;
  board.module.render(root, msg, ctx);
  if (onRoot) {
    // A keyboard player waiting on the table: when something to do appears, go there.
    root.querySelector("[data-autofocus]")?.focus({ preventScroll: true });
    return;
  }
  if (!hadFocus) return;
  const again = key ? root.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const target = again ?? root.querySelector("[data-autofocus]");
  (target ?? root).focus({ preventScroll: true });
}
