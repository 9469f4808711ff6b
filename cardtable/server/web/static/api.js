// The server's HTTP API: JSON in, JSON out; a 4xx/5xx becomes an Error carrying
// the server's one-sentence reason.

export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = new Error(data?.error ?? `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return data;
}

/** A refused request in the reader's language where its kind is known (one
 * of the server's limits, HTTP 429; its database away, 503), else the
 * server's own sentence. */
export function refusedWords(error, t) {
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  if (error.status === 503) return t("error.storeDown", { seconds: error.retryAfter ?? 5 });
  return error.message;
}

// Seat tokens live in this browser only: reopening a table's link returns to the seat.
const TOKEN_KEY = (tableId) => `cardtable.seat.${tableId}`;

export function savedSeat(tableId) {
  try {
    const saved = JSON.parse(localStorage.getItem(TOKEN_KEY(tableId)) ?? "null");
    return saved && typeof saved.token === "string" ? saved : null;
  } catch { return null; }
}

export function saveSeat(tableId, seat, token) {
  localStorage.setItem(TOKEN_KEY(tableId), JSON.stringify({ seat, token }));
}

export function forgetSeat(tableId) {
  localStorage.removeItem(TOKEN_KEY(tableId));
}

export function savedName() {
  return localStorage.getItem("cardtable.name") ?? "";
}

export function saveName(name) {
  localStorage.setItem("cardtable.name", name);
}

/** Join a seat and remember its token. */
export async function joinSeat(tableId, seat, name) {
  const joined = await api(`/api/tables/${encodeURIComponent(tableId)}/join`, {
    method: "POST", body: { seat, name },
  });
  saveSeat(tableId, joined.seat, joined.token);
  saveName(name);
  return joined;
}
