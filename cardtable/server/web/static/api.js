// @ts-check
// The server's HTTP API: JSON in, JSON out; a 4xx/5xx becomes an Error carrying
// the server's one-sentence reason.

/**
 * What api() throws for a 4xx/5xx answer: the server's sentence as the
 * message, the HTTP status, and its Retry-After in seconds (null without one).
 * @typedef {Error & {status?: number, retryAfter?: number | null, key?: string, params?: Record<string, unknown>}} ApiError
 */
/** The board of every game without its own (GET /api/games names it as a game's board). */
export const GENERIC_BOARD = "/static/generic-board.js";

/**
 * A game as GET /api/games lists it (the fields the pages read); the lobby
 * adds `t`, the game's own words.
 * @typedef {object} LevelInfo a level as this game plays it (server/tables/lobby.py: level_json)
 * @property {string} name
 * @property {number | null} [seconds] how long it thinks a move (null: it does not search)
 * @property {number | null} [rating] its published rating (null: none published)
 * @property {boolean | null} [measured] false: a lower bound, carried from a level below
 */
/**
 * @typedef {object} GameInfo
 * @property {string} name
 * @property {string} title
 * @property {string | null} [board] its board module's URL
 * @property {string | null} [words] where a game without a board keeps its i18n.<lang>.json
 * @property {string} [summary]
 * @property {number[]} players
 * @property {number} default_players
 * @property {LevelInfo[]} [levels]
 * @property {{name: string}[]} [bots]
 * @property {boolean} [tutorial]
 * @property {OptionInfo[]} options
 * @property {import("./i18n.js").Translate} t
 */
/**
 * One rules option of a game's manifest.
 * @typedef {object} OptionInfo
 * @property {string} name
 * @property {string} help
 * @property {unknown} [default]
 * @property {string} [default_how]
 * @property {unknown[]} [choices]
 * @property {boolean} [from_file]
 * @property {number} [maximum]
 */
/**
 * A table as GET /api/tables/{id} (or the lobby's list) gives it.
 * @typedef {object} TableInfo
 * @property {string} id
 * @property {string} game
 * @property {string} [title]
 * @property {string} status
 * @property {boolean} [rated]
 * @property {import("./board-host.js").SeatInfo[]} seats
 * @property {Record<string, unknown>} [options]
 * @property {number} [spectators]
 */
/**
 * A seat token this browser keeps (savedSeat).
 * @typedef {{seat: number, token: string}} SavedSeat
 */

/**
 * The server's JSON answer (any shape: each caller knows its route's).
 * @param {string} path
 * @param {{method?: string, body?: unknown}} [options]
 * @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = /** @type {ApiError} */ (new Error(data?.error ?? `${response.status} ${response.statusText}`));
    error.status = response.status;
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    error.key = data?.key; // a catalog key where the server words the refusal (friends_api.py)
    error.params = data?.params;
    throw error;
  }
  return data;
}

/** A refused request in the reader's language where its kind is known (one
 * of the server's limits, HTTP 429; its database away, 503; a refusal the
 * server gives a catalog key, such as a block at a table), else the server's
 * own sentence.
 * @param {unknown} refused what api() threw (an ApiError)
 * @param {import("./i18n.js").Translate} t
 * @returns {string}
 */
export function refusedWords(refused, t) {
  const error = /** @type {ApiError} */ (refused);
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  if (error.status === 503) return t("error.storeDown", { seconds: error.retryAfter ?? 5 });
  if (error.key && t.has(error.key)) return t(error.key, error.params ?? {});
  return error.message;
}

// Seat tokens live in this browser only: reopening a table's link returns to the seat.
/** @param {string} tableId */
const TOKEN_KEY = (tableId) => `cardtable.seat.${tableId}`;

/**
 * @param {string} tableId
 * @returns {SavedSeat | null}
 */
export function savedSeat(tableId) {
  try {
    const saved = JSON.parse(localStorage.getItem(TOKEN_KEY(tableId)) ?? "null");
    return saved && typeof saved.token === "string" ? saved : null;
  } catch { return null; }
}

/**
 * @param {string} tableId
 * @param {number} seat
 * @param {string} token
 */
export function saveSeat(tableId, seat, token) {
  localStorage.setItem(TOKEN_KEY(tableId), JSON.stringify({ seat, token }));
}

/** @param {string} tableId */
export function forgetSeat(tableId) {
  localStorage.removeItem(TOKEN_KEY(tableId));
}

export function savedName() {
  return localStorage.getItem("cardtable.name") ?? "";
}

/** @param {string} name */
export function saveName(name) {
  localStorage.setItem("cardtable.name", name);
}

/**
 * Join a seat and remember its token.
 * @param {string} tableId
 * @param {number} seat
 * @param {string} name
 * @returns {Promise<SavedSeat>}
 */
export async function joinSeat(tableId, seat, name) {
  const joined = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, {
    method: "POST", body: { seat, name },
  });
  saveSeat(tableId, joined.seat, joined.token);
  saveName(name);
  return joined;
}
