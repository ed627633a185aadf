// The table server as every page talks to it (docs/protocol.md): the HTTP API and a table's WebSocket.

export const PROTOCOL = 1;

/** An answer of the server that is not 2xx: its message, HTTP status and error code. */
export class ApiError extends Error {
  /** @param {string} message @param {number} status @param {string | undefined} code */
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A JSON request; an answer that is not 2xx throws an ApiError with the server's message, `status` and `code`.
 * The answer's type is the caller's to say (protocol.d.ts). */
/**
 * @template [T=any]
 * @param {string} method @param {string} path @param {unknown} [body] @param {Record<string, string>} [headers]
 * @returns {Promise<T>}
 */
export async function api(method, path, body, headers) {
  const all = { ...(body ? { "Content-Type": "application/json" } : {}), ...(headers || {}) };
  const res = await fetch(path, { method, headers: all, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const message = data.message || (typeof data.detail === "string" ? data.detail : "") || res.statusText || String(res.status);
    throw new ApiError(message, res.status, data.error);
  }
  return data;
}

/** Where a table's seat token and invite are kept in this browser (localStorage), for every page. */
export const keep = {
  /** @param {string} id */
  token: (id) => localStorage.getItem("skat.token." + id),
  /** @param {string} id */
  invite: (id) => localStorage.getItem("skat.invite." + id),
  /** @param {string} id @param {string} token */
  setToken: (id, token) => localStorage.setItem("skat.token." + id, token),
  /** @param {string} id @param {string} invite */
  setInvite: (id, invite) => localStorage.setItem("skat.invite." + id, invite),
  /** @param {string} id */
  dropToken: (id) => localStorage.removeItem("skat.token." + id),
  /** @param {string} id */
  dropInvite: (id) => localStorage.removeItem("skat.invite." + id),
};

/** A table's WebSocket: says hello with the seat token or the invite (asked of `credentials()` at every
 * connection), hands every message to `onMessage`, tells `onDrop` of a lost connection and connects again
 * (waiting a little longer each time, up to five steps of `retryMs`) until `close()`. */
/** @template [In=import("./protocol").ServerMessage] */
export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{credentials?: () => {token?: string | null, invite?: string | null, chat?: boolean}, onMessage: (msg: In) => void,
   *   onDrop?: () => void, retryMs?: number}} how
   */
  constructor(tableId, { credentials, onMessage, onDrop, retryMs = 400 }) {
    this.tableId = tableId;
    /** @type {() => {token?: string | null, invite?: string | null, chat?: boolean}} */
    this.credentials = credentials || (() => ({}));
    this.onMessage = onMessage;
    this.onDrop = onDrop || (() => {});
    this.retryMs = retryMs;
    this.retry = 0;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/${this.tableId}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      const { token, invite, chat } = this.credentials();
      ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, token: token || undefined, invite: invite || undefined,
        chat: chat || undefined }));
    };
    ws.onmessage = (ev) => { if (this.ws === ws) this.onMessage(JSON.parse(ev.data)); };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;  // replaced, or closed on purpose
      this.onDrop();
      this.retry = Math.min(this.retry + 1, 5);
      setTimeout(() => { if (this.ws === ws && !this.closed) this.open(); }, this.retryMs * this.retry);
    };
  }

  /** The WebSocket's readyState (1: open). */
  get readyState() { return this.ws ? this.ws.readyState : WebSocket.CLOSED; }

  /** Send a message (an object) if connected; whether it was sent. */
  /** @param {import("./protocol").ClientMessage} msg */
  send(msg) {
    if (!this.ws || this.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Connect again now (after the seat token changed). */
  reconnect() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.open();
  }

  /** Stop: close the connection and never connect again. */
  close() {
    this.closed = true;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }
}
