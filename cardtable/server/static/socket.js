// The table's WebSocket: reconnects with a growing, jittered pause after any
// drop (a server restart or stop included: any close code), pings so idle
// proxies keep it open, and reports its state ("connecting", "open",
// "reconnecting") for the page to show.

const PING_MS = 25000;
const MAX_PAUSE_MS = 5000;

export class TableSocket {
  constructor(tableId, { token, onMessage, onState, onRejected }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onRejected = onRejected;
    this.pause = 250;
    this.ws = null;
    this.gotState = false;
  }

  url() {
    const url = new URL(`/ws/${encodeURIComponent(this.tableId)}`, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const token = this.token();
    if (token) url.searchParams.set("token", token);
    return url;
  }

  open() {
    this.onState(this.ws ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url());
    const usedToken = Boolean(this.token());
    this.ws = ws;
    this.gotState = false;
    ws.onopen = () => {
      this.pause = 250;
      this.onState("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    ws.onmessage = (event) => {
      if (ws !== this.ws) return;
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
      clearInterval(this.pinger);
      this.onState("reconnecting");
      // Jitter: when a server process stops, all its sockets drop at once;
      // spread over half the pause to the whole, they do not all land together.
      const wait = this.pause * (0.5 + Math.random() / 2);
      setTimeout(() => { if (ws === this.ws) this.open(); }, wait);
      this.pause = Math.min(this.pause * 2, MAX_PAUSE_MS);
    };
  }

  /** Reconnect now (after joining a seat, or losing one). */
  reopen() {
    const old = this.ws;
    if (old) {
      old.onclose = null;
      old.onmessage = null;
      old.close();
    }
    this.open();
  }

  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }
}
