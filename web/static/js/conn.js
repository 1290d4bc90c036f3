// One websocket per tab to /ws/tables/{id}. Keeps the document current (snapshot, then
// patches), reconnects by itself with backoff, asks for a snapshot on a version gap,
// and resends an unacknowledged command with the same id after a reconnect.

// JSON Patch (patch.js) comes with the first patch: a page opened on a table where nothing
// moves draws its snapshot without it. A patch that finds it missing waits for it, and every
// message after it waits behind it, so they are still taken in the order they came.
let patching = null; // patch.js, once here
let patchLoading = null;
export function loadPatch() {
  if (!patchLoading) {
    patchLoading = import("./patch.js").then((m) => {
      patching = m;
    });
    patchLoading.catch(() => {
      patchLoading = null;
    });
  }
  return patchLoading;
}

const MAX_BACKOFF_MS = 15000;
const PING_MS = 20000;

// A new message's id (a command's, a chat message's): its resend keeps it.
export function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return String(Date.now()) + "-" + Math.random().toString(16).slice(2);
}

// handlers: onDoc(doc), onStatus("connecting"|"online"|"offline"), onAck(id),
// onError({id, code, message}), onPresence(msg), onChat(msg) (every chat_* message; given,
// the hello asks for the chat)
export class TableConnection {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token || null;
    this.handlers = handlers;
    this.doc = null;
    this.version = null;
    this.pending = null;
    this.backoff = 500;
    this.ws = null;
    this.closed = false;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return scheme + "//" + location.host + "/ws/tables/" + encodeURIComponent(this.tableId);
  }

  connect() {
    const self = this;
    if (this.closed) return; // a retry timer may outlive a connection given up on purpose
    this.status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello" };
      if (self.token) hello.token = self.token;
      if (self.version !== null) hello.since = self.version;
      if (self.handlers.onChat) hello.chat = true; // the table chat (chat.js) rides along
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (ev) => {
      self.take(JSON.parse(ev.data));
    };
    ws.onclose = (ev) => {
      if (self.ws !== ws) return;
      self.ws = null;
      self.resyncing = false;
      clearInterval(self.pinger);
      if (self.closed) return;
      if (ev.code === 4404) return self.status("unknown");
      self.status("offline");
      const delay = self.backoff + Math.floor(Math.random() * 250);
      self.backoff = Math.min(self.backoff * 2, MAX_BACKOFF_MS);
      self.retry = setTimeout(() => {
        self.connect();
      }, delay);
    };
    // Errors are followed by close, which schedules the retry; nothing else to do here.
    ws.onerror = () => {};
  }

  // Give this connection up for good (the page opens another one, e.g. with a new token).
  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }

  status(state) {
    this.state = state;
    if (this.handlers.onStatus) this.handlers.onStatus(state);
  }

  online() {
    const self = this;
    if (this.state === "online") return;
    this.backoff = 500;
    this.status("online");
    clearInterval(this.pinger);
    this.pinger = setInterval(() => {
      self.sendRaw({ type: "ping" });
    }, PING_MS);
    if (this.pending) this.sendRaw({ type: "command", id: this.pending.id, cmd: this.pending.cmd });
  }

  take(msg) {
    const self = this;
    if (this.inbox) return this.inbox.push(msg);
    if (msg.type !== "patch" || patching) return this.receive(msg);
    this.inbox = [msg];
    loadPatch().then(
      () => {
        const waiting = self.inbox;
        self.inbox = null;
        waiting.forEach((m) => {
          self.take(m);
        });
      },
      () => {
        // No patch.js (the network went): each patch then fails as a gap does, and asks for a
        // snapshot; the other messages (an ack, an error) count as ever.
        const waiting = self.inbox;
        self.inbox = null;
        waiting.forEach((m) => {
          self.receive(m);
        });
      },
    );
  }

  receive(msg) {
    // A connection given up (close) may still have messages on their way, from its socket or
    // waiting for patch.js: they speak for the old token, and must not reach the page.
    if (this.closed) return;
    // The document message that brings our document to a command's version carries its ack.
    // The command is committed whether or not this patch applies (a gap asks for a snapshot),
    // and is no longer in flight when the page draws the new document.
    const carried = (msg.type === "snapshot" || msg.type === "patch") && msg.ack;
    if (carried && this.pending && this.pending.id === msg.ack) this.pending = null;
    switch (msg.type) {
      case "snapshot":
        this.resyncing = false;
        this.setDoc(msg.doc, msg.version);
        this.online();
        break;
      case "patch":
        this.patch(msg);
        break;
      case "ack":
        this.acked(msg.id);
        break;
      case "error":
        if (this.pending && (!msg.id || this.pending.id === msg.id)) this.pending = null;
        if (this.handlers.onError) this.handlers.onError(msg);
        break;
      case "presence":
        if (this.handlers.onPresence) this.handlers.onPresence(msg);
        break;
      default:
        if (this.handlers.onChat && msg.type.slice(0, 4) === "chat") this.handlers.onChat(msg);
        break; // pong and anything newer than this client
    }
    if (carried && this.handlers.onAck) this.handlers.onAck(msg.ack);
  }

  acked(id) {
    if (this.pending && this.pending.id === id) this.pending = null;
    if (this.handlers.onAck) this.handlers.onAck(id);
  }

  // Apply a patch only onto the version it was made from (several quick changes may come
  // as one patch, version - base > 1); anything else means we missed one: ask for a snapshot.
  // (Without patch.js, see take, applying throws and asks for one too.)
  patch(msg) {
    if (this.version === null || msg.base !== this.version) return this.resync();
    try {
      this.setDoc(patching.applyPatch(this.doc, msg.ops), msg.version);
    } catch (err) {
      return this.resync();
    }
    this.online();
  }

  // One snapshot request at a time; patches that arrive meanwhile are dropped.
  resync() {
    if (this.resyncing) return;
    this.resyncing = true;
    this.sendRaw({ type: "snapshot_request" });
  }

  setDoc(doc, version) {
    this.doc = doc;
    this.version = version;
    if (this.handlers.onDoc) this.handlers.onDoc(doc);
  }

  sendRaw(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  // Send a game command; returns its id. Only one command is in flight at a time.
  send(cmd) {
    loadPatch(); // its answer is a patch: fetched meanwhile, it need not wait for this module
    this.pending = { id: newId(), cmd };
    this.sendRaw({ type: "command", id: this.pending.id, cmd });
    return this.pending.id;
  }

  busy() {
    return this.pending !== null;
  }
}

// The seat links of this browser ("your tables" in the lobby): [{id, seat, token, title, at}],
// newest first. They stay in this browser: the server only ever sees one in a request.
export function recentTables() {
  try {
    return JSON.parse(localStorage.getItem("gh_tables") || "[]");
  } catch (err) {
    return [];
  }
}

const KEPT_TABLES = 30;

export function rememberTable(entry) {
  const list = recentTables().filter((t) => {
    return !(t.id === entry.id && t.seat === entry.seat);
  });
  entry.at = Date.now();
  list.unshift(entry);
  localStorage.setItem("gh_tables", JSON.stringify(list.slice(0, KEPT_TABLES)));
}

// This browser's kept seat link at ``tableId`` ({id, seat, token, title}), or null.
export function keptSeat(tableId) {
  return (
    recentTables().filter((e) => {
      return e.id === tableId && e.token;
    })[0] || null
  );
}

// Forget this browser's seat link of a table (the seat went to a bot).
export function forgetTable(tableId, token) {
  const list = recentTables().filter((e) => {
    return !(e.id === tableId && e.token === token);
  });
  localStorage.setItem("gh_tables", JSON.stringify(list));
}

// Our seat at the rematch of the finished ``tableId`` (the first ask makes it, later ones
// join it): kept with this browser's tables, then opened. Rejects with the server's error.
export function askRematch(tableId, token, title) {
  return api(
    "POST",
    "/api/tables/" + encodeURIComponent(tableId) + "/rematch",
    undefined,
    token,
  ).then((res) => {
    rememberTable({ id: res.table_id, seat: res.seat, token: res.token, title });
    location.href = "/t/" + res.table_id + "#seat=" + res.token;
  });
}

// fetch JSON; rejects with {code, message} from the server's error body.
export function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  return fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then((res) => {
    return res.text().then((text) => {
      const data = text ? JSON.parse(text) : null;
      if (res.ok) return data;
      const err = (data && (data.detail || data)) || {};
      throw {
        code: err.code || "http_" + res.status,
        message: err.message || res.statusText,
        retry_after: err.retry_after,
      };
    });
  });
}
