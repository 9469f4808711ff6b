// @ts-check
// The table's WebSocket: reconnects with a growing, jittered pause after any
// drop (a server restart or stop included: any close code), and reports its
// state ("connecting", "open", "reconnecting", "silent") for the page to show.
//
// A server process that is paused or cut off by the network closes nothing:
// its sockets just go quiet, while its tables' leases pass to another process
// within seconds. So the socket keeps a heartbeat of its own: after QUIET_MS
// without a word from the server it pings (which also keeps idle proxies
// open), and a ping unanswered for REPLY_MS, or a handshake still pending
// after REPLY_MS, means the server is gone: the page says so ("silent") and
// connects again, through the proxy, to whichever process holds the table now.

const QUIET_MS = 3000;
const REPLY_MS = 5000;
const CHECK_MS = 1000;
const MAX_PAUSE_MS = 5000;

/**
 * What the page hears from its socket: `token()` is the seat's token to connect
 * with (none: a spectator); `onMessage(msg)` each message, `onState(state)`
 * each change of state, `onRejected(msg)` a token the table refused.
 * @typedef {object} SocketHandlers
 * @property {() => string | undefined} token
 * @property {(msg: any) => void} onMessage
 * @property {(state: string) => void} onState
 * @property {(msg: any) => void} onRejected
 */

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {SocketHandlers} handlers
   */
  constructor(tableId, { token, onMessage, onState, onRejected }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onRejected = onRejected;
    this.pause = 250;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.gotState = false;
    this.heardAt = Date.now();
    /** @type {number | null} */
    this.pingedAt = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.heartbeat = undefined;
  }

  url() {
    const url = new URL(`/ws/${encodeURIComponent(this.tableId)}`, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const token = this.token();
    if (token) url.searchParams.set("token", token);
    return url;
  }

  /** @param {string} [state] */
  open(state = this.ws ? "reconnecting" : "connecting") {
    this.onState(state);
    const ws = new WebSocket(this.url());
    const usedToken = Boolean(this.token());
    this.ws = ws;
    this.gotState = false;
    this.heardAt = Date.now(); // the handshake is timed like a ping
    this.pingedAt = null;
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => this.listen(ws), CHECK_MS);
    ws.onopen = () => {
      this.pause = 250;
      this.heardAt = Date.now();
      this.onState("open");
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
      this.heardAt = Date.now();
      this.pingedAt = null;
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === "state") this.gotState = true;
      // A token the table does not know (its seat was given up) is refused before any state.
      if (msg.type === "error" && usedToken && !this.gotState) {
        this.onRejected(msg);
        this.reopen();
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (ws !== this.ws) return;
      clearInterval(this.heartbeat);
      this.onState("reconnecting");
      // Jitter: when a server process stops, all its sockets drop at once;
      // spread over half the pause to the whole, they do not all land together.
      const wait = this.pause * (0.5 + Math.random() / 2);
      setTimeout(() => { if (ws === this.ws) this.open(); }, wait);
      this.pause = Math.min(this.pause * 2, MAX_PAUSE_MS);
    };
  }

  /**
   * The heartbeat: ping a quiet server; give up on one that does not answer.
   * @param {WebSocket} ws
   */
  listen(ws) {
    if (ws !== this.ws) return;
    const now = Date.now();
    const waiting = ws.readyState === WebSocket.OPEN ? this.pingedAt : this.heardAt;
    if (waiting !== null && now - waiting > REPLY_MS) {
      this.reopen("silent");
    } else if (ws.readyState === WebSocket.OPEN && this.pingedAt === null && now - this.heardAt > QUIET_MS) {
      this.pingedAt = now;
      this.send({ type: "ping" });
    }
  }

  /**
   * Reconnect now (after joining a seat, or losing one; "silent": the server stopped answering).
   * @param {string} [state]
   */
  reopen(state) {
    const old = this.ws;
    if (old) {
      old.onopen = null;
      old.onclose = null;
      old.onmessage = null;
      old.close();
    }
    this.open(state);
  }

  /**
   * @param {object} obj
   * @returns {boolean}
   */
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}
