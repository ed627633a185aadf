// Chat at the table and in the lobby (issue 30, point 2; docs/chat.md). A table's messages come over its WebSocket
// (chat, chat_history, chat_deleted), the lobby's by polling GET /api/lobby/chat. Every message is shown as text
// (textContent, never HTML): markup reads as the characters it is. A preset phrase comes as its key and is shown in
// the reader's language. Muted authors (by their id, kept in localStorage "skat.chat.muted" for every table and
// the lobby) are not shown, and the table's server is told, so that it sends them no more; a player may hide the
// spectators' channel ("skat.chat.hideSpectators"). The decisions are pure functions (merge, shown, lineText,
// errorText, unreadAfter), unit-tested in tests/js/chat.test.js; ChatPanel and LobbyChat draw them.

import { h } from "./dom.js";

/** @typedef {import("./protocol").ChatLine} ChatLine */
/** @typedef {(key: string, params?: Record<string, string | number>) => string} Words */
/** @typedef {{getItem(key: string): string | null, setItem(key: string, value: string): void}} Storage */

/** The preset phrases (skat.server.chat.PHRASES), in the order the menu offers them. */
export const PHRASES = ["hello", "good_luck", "well_played", "good_game", "thanks", "sorry", "oops", "bye"];
/** The longest message (skat.server.chat.MAX_CHARS). */
export const MAX_CHARS = 300;
/** Messages a page keeps. */
export const KEEP = 100;
/** Authors one page mutes at most (the server's cap per connection). */
export const MAX_MUTES = 200;
const MUTED = "skat.chat.muted";
const HIDE_SPECTATORS = "skat.chat.hideSpectators";
/** The refusals the chat says in the reader's language (err_CODE); any other is said with the server's words. */
const KNOWN_ERRORS = ["chat_too_long", "chat_empty", "chat_flood", "chat_muted", "chat_forbidden", "signed_out",
  "bad_phrase"];

/** The muted authors: id -> the name they wrote under when muted (to offer showing them again). */
/** @param {Storage} [storage] @returns {Map<string, string>} */
export function loadMutes(storage = localStorage) {
  try {
    const raw = JSON.parse(storage.getItem(MUTED) || "{}");
    if (!raw || typeof raw !== "object" || Array.isArray(raw)) return new Map();
    return new Map(Object.entries(raw).filter(([k, v]) => typeof k === "string" && typeof v === "string").slice(0, MAX_MUTES));
  } catch { return new Map(); }
}

/** @param {Map<string, string>} mutes @param {Storage} [storage] */
export function saveMutes(mutes, storage = localStorage) {
  storage.setItem(MUTED, JSON.stringify(Object.fromEntries([...mutes].slice(-MAX_MUTES))));
}

/** @param {Storage} [storage] */
export function loadHideSpectators(storage = localStorage) { return storage.getItem(HIDE_SPECTATORS) === "1"; }

/** @param {boolean} hide @param {Storage} [storage] */
export function saveHideSpectators(hide, storage = localStorage) { storage.setItem(HIDE_SPECTATORS, hide ? "1" : "0"); }

/** The messages with `more` added (each id once), oldest first, the last KEEP. */
/** @param {ChatLine[]} lines @param {ChatLine[]} more @returns {ChatLine[]} */
export function merge(lines, more) {
  const byId = new Map(lines.map((l) => [l.id, l]));
  for (const l of more) byId.set(l.id, l);
  return [...byId.values()].sort((a, b) => a.id - b.id).slice(-KEEP);
}

/** The messages a reader sees: not of a muted author, not the spectators' when they are hidden. */
/** @param {ChatLine[]} lines @param {{mutes: Map<string, string> | Set<string>, hideSpectators: boolean}} how */
export function shown(lines, { mutes, hideSpectators }) {
  return lines.filter((l) => !mutes.has(l.from.author) && !(hideSpectators && l.channel === "spectators"));
}

/** What a message says: its text as written, or its phrase in the reader's language. */
/** @param {ChatLine} line @param {Words} c */
export function lineText(line, c) {
  if (line.phrase) return PHRASES.includes(line.phrase) ? c("phrase_" + line.phrase) : line.phrase;
  return line.text || "";
}

/** A refusal of the chat in the reader's language. */
/** @param {string} code @param {string} message @param {Words} c */
export function errorText(code, message, c) {
  return KNOWN_ERRORS.includes(code) ? c("err_" + code) : c("err_other", { message });
}

/** Whether an error code is the chat's (the table page shows it in the chat, not in its banner). */
/** @param {string} code */
export function isChatError(code) { return code.startsWith("chat_") || code === "bad_phrase"; }

/** How many of `lines` are new to a reader who has seen up to `seen` (an id), not counting `own` position's. */
/** @param {ChatLine[]} lines @param {number} seen @param {number | null} own */
export function unreadAfter(lines, seen, own) {
  return lines.filter((l) => l.id > seen && (own === null || l.from.position !== own)).length;
}

/**
 * The chat box: the messages, a line to write, the phrases, the mute buttons. The page gives it how to send
 * (`say`), its words, who reads (`me`: the position at the table, the reader's name) and whether they may write.
 */
export class ChatPanel {
  /**
   * @param {HTMLElement} root
   * @param {{words: Words, say: (body: {text?: string, phrase?: string}) => void, me: () => {position: number | null, name: string | null},
   *   canWrite: () => boolean, spectatorsApart: boolean, onMute?: (author: string, on: boolean) => void, collapsible?: boolean,
   *   badge?: HTMLElement, startClosed?: boolean}} how
   */
  constructor(root, how) {
    this.root = root;
    this.how = how;
    /** @type {ChatLine[]} */
    this.lines = [];
    this.mutes = loadMutes();
    this.hideSpectators = how.spectatorsApart && loadHideSpectators();
    this.open = !how.collapsible || (!how.startClosed && localStorage.getItem("skat.chat.open") !== "0");
    this.seen = 0;
    /** @type {string | null} */
    this.error = null;
    this.drawnFor = "";
    root.replaceChildren();
    root.classList.add("chat");
    this.toggle = how.collapsible ? h("button", { cls: "chat-toggle", type: "button", "aria-controls": root.id + "-body",
      onclick: () => this.setOpen(!this.open) }) : null;
    this.title = how.collapsible ? null : h("h2", { cls: "chat-title", id: root.id + "-title" });
    this.list = h("div", { cls: "chat-list", role: "log", "aria-live": "polite", tabindex: "0" });
    this.errorLine = h("p", { cls: "chat-error", role: "status" });
    this.input = h("input", { type: "text", cls: "chat-input", maxlength: String(MAX_CHARS), autocomplete: "off" });
    this.sendButton = h("button", { type: "submit", cls: "chat-send" });
    const form = h("form", { cls: "chat-form" }, this.input, this.sendButton);
    form.addEventListener("submit", (ev) => { ev.preventDefault(); this.sendText(); });
    this.phrases = h("select", { cls: "chat-phrases" });
    this.phrases.addEventListener("change", () => {
      const phrase = this.phrases.value;
      this.phrases.value = "";
      if (phrase) this.how.say({ phrase });
    });
    this.write = h("div", { cls: "chat-write" }, form, this.phrases);
    this.signIn = h("a", { cls: "chat-sign-in", href: "/account?next=" + encodeURIComponent(location.pathname) });
    this.hide = h("input", { type: "checkbox", cls: "chat-hide" });
    this.hide.checked = this.hideSpectators;
    this.hide.addEventListener("change", () => { this.hideSpectators = this.hide.checked; saveHideSpectators(this.hideSpectators); this.render(); });
    this.hideText = h("span", {});
    this.hideRow = h("label", { cls: "chat-hide-row small" }, this.hide, " ", this.hideText);
    this.unmute = h("button", { type: "button", cls: "chat-unmute small", onclick: () => this.unmuteAll() });
    this.body = h("div", { cls: "chat-body", id: root.id + "-body" }, this.list, this.unmute, this.errorLine, this.write,
      this.signIn, this.hideRow);
    root.append(...[this.toggle, this.title].filter((x) => x !== null), this.body);
    this.build();
  }

  /** Draw again when who reads changed (the first state, signing in). */
  refresh() {
    if (this.drawnFor !== this.readerKey()) this.render();
  }

  readerKey() { return JSON.stringify([this.how.me(), this.how.canWrite()]); }

  /** The texts in the page's language (again when it changes), and the messages. */
  build() {
    const c = this.how.words;
    if (this.title) this.title.textContent = c("lobbyTitle");
    if (!this.title) this.root.setAttribute("aria-label", c("title"));
    this.list.setAttribute("aria-label", c("listLabel"));
    this.input.setAttribute("aria-label", c("inputLabel"));
    this.input.placeholder = c("placeholder");
    this.sendButton.textContent = c("send");
    this.phrases.setAttribute("aria-label", c("phrases"));
    this.phrases.replaceChildren(h("option", { value: "", text: c("phrasePick") }),
      ...PHRASES.map((p) => h("option", { value: p, text: c("phrase_" + p) })));
    this.signIn.textContent = c("signIn");
    this.hideText.textContent = c("hideSpectators");
    this.render();
  }

  /** @param {boolean} open */
  setOpen(open) {
    this.open = open;
    localStorage.setItem("skat.chat.open", open ? "1" : "0");
    if (open) this.seen = this.lastId();
    this.render();
    if (open) this.list.scrollTop = this.list.scrollHeight;
  }

  lastId() { return this.lines.length ? this.lines[this.lines.length - 1].id : 0; }

  sendText() {
    const text = this.input.value.trim();
    if (!text) { this.say(this.how.words("err_chat_empty")); return; }
    if (text.length > MAX_CHARS) { this.say(this.how.words("err_chat_too_long")); return; }
    this.how.say({ text });
    this.input.value = "";
  }

  /** Show a refusal (or nothing) under the messages. */
  /** @param {string | null} text */
  say(text) {
    this.error = text;
    this.errorLine.textContent = text || "";
  }

  /** Take a message of the table's WebSocket that is the chat's; returns whether it was. */
  /** @param {{type: string, [k: string]: any}} msg */
  take(msg) {
    if (msg.type === "chat") {
      const { type: _type, ...line } = msg;
      this.add([/** @type {ChatLine} */ (line)]);
      const own = this.how.me().position;
      if (own !== null && line.from.position === own) this.say(null);
    } else if (msg.type === "chat_history") {
      this.lines = [];
      this.add(msg.messages);
      this.seen = this.lastId();
      this.render();
      for (const author of this.mutes.keys()) this.how.onMute && this.how.onMute(author, true);
    } else if (msg.type === "chat_deleted") {
      this.lines = this.lines.filter((l) => l.id !== msg.id);
      this.render();
    } else if (msg.type === "error" && isChatError(msg.code)) {
      this.say(errorText(msg.code, msg.message, this.how.words));
    } else if (msg.type === "error" && msg.code === "signed_out") {
      this.say(this.how.words("err_signed_out"));
    } else return false;
    return true;
  }

  /** @param {ChatLine[]} more */
  add(more) {
    const atBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 30;
    this.lines = merge(this.lines, more);
    if (this.open) this.seen = this.lastId();
    this.render();
    if (atBottom || this.open) this.list.scrollTop = this.list.scrollHeight;
  }

  /** @param {ChatLine} line */
  mute(line) {
    this.mutes.set(line.from.author, line.from.name);
    saveMutes(this.mutes);
    if (this.how.onMute) this.how.onMute(line.from.author, true);
    this.render();
  }

  unmuteAll() {
    for (const author of this.mutes.keys()) if (this.how.onMute) this.how.onMute(author, false);
    this.mutes.clear();
    saveMutes(this.mutes);
    this.render();
  }

  render() {
    const c = this.how.words;
    const me = this.how.me();
    const visible = shown(this.lines, this);
    this.list.replaceChildren(...(visible.length ? visible.map((l) => this.lineEl(l, me)) : [h("p", { cls: "chat-empty muted", text: c("empty") })]));
    const writer = this.how.canWrite();
    this.write.classList.toggle("hidden", !writer);
    this.signIn.classList.toggle("hidden", writer);
    this.hideRow.classList.toggle("hidden", !this.how.spectatorsApart || me.position === null);
    const mutedHere = this.mutes.size;
    this.unmute.classList.toggle("hidden", !mutedHere);
    this.unmute.textContent = c("unmuteAll", { n: mutedHere });
    this.body.classList.toggle("hidden", !this.open);
    const unread = this.open ? 0 : unreadAfter(visible, this.seen, me.position);
    if (this.toggle) {
      this.toggle.textContent = c("toggle") + (unread ? " · " + c("unread", { n: unread }) : "");
      this.toggle.setAttribute("aria-expanded", String(this.open));
      this.toggle.classList.toggle("unread", unread > 0);
    }
    this.root.classList.toggle("open", this.open);
    if (this.how.badge) {
      this.how.badge.textContent = c("toggle") + (unread ? " (" + unread + ")" : "");
      this.how.badge.setAttribute("aria-expanded", String(this.open));
    }
    this.drawnFor = this.readerKey();
  }

  /** @param {ChatLine} l @param {{position: number | null, name: string | null}} me */
  lineEl(l, me) {
    const c = this.how.words;
    const mine = me.position !== null ? l.from.position === me.position : !!me.name && l.channel !== "players" && l.from.name === me.name;
    const who = h("span", { cls: "chat-who" }, l.from.name,
      l.channel === "spectators" ? h("span", { cls: "chat-tag", text: " · " + c("spectator") }) : "");
    const text = h("span", { cls: "chat-text" + (l.phrase ? " phrase" : "") });
    text.textContent = lineText(l, c);  // text only: markup shows as the characters it is
    const at = new Date(l.at * 1000);
    return h("p", { cls: "chat-line " + l.channel + (mine ? " mine" : ""), "data-id": l.id, title: at.toLocaleTimeString() },
      mine ? "" : h("button", { type: "button", cls: "chat-mute", "aria-label": c("mute", { name: l.from.name }),
        title: c("mute", { name: l.from.name }), onclick: () => this.mute(l) }, h("span", { "aria-hidden": "true", text: "⊘" })),
      who, ": ", text);
  }
}

/** The lobby's chat: polls the server every few seconds while the lobby is shown (and the tab visible). */
export class LobbyChat {
  /**
   * @param {HTMLElement} root
   * @param {{words: Words, api: (method: string, path: string, body?: unknown) => Promise<any>, me: () => string | null,
   *   every?: number}} how
   */
  constructor(root, how) {
    this.how = how;
    this.panel = new ChatPanel(root, {
      words: how.words, me: () => ({ position: null, name: how.me() }), canWrite: () => !!how.me(),
      spectatorsApart: false,
      say: (body) => {
        how.api("POST", "/api/lobby/chat", body).then((r) => { this.panel.add([r.message]); this.panel.say(null); })
          .catch((/** @type {any} */ e) => this.panel.say(errorText(e && e.code || "", e && e.message || String(e), how.words)));
      },
    });
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.timer = undefined;
  }

  async poll() {
    if (document.hidden) return;
    try {
      const data = await this.how.api("GET", "/api/lobby/chat");
      const ids = data.messages.map((/** @type {ChatLine} */ m) => m.id).join(",");
      if (ids !== this.panel.lines.map((m) => m.id).join(",")) {  // new ones, or one the operator deleted
        this.panel.lines = [];
        this.panel.add(data.messages);
      }
    } catch (e) { console.debug("the lobby's chat could not be read", e); }
  }

  start() {
    this.stop();
    void this.poll();
    this.timer = setInterval(() => void this.poll(), this.how.every || 4000);
  }

  stop() { if (this.timer !== undefined) clearInterval(this.timer); this.timer = undefined; }

  /** The page's language changed (or the reader signed in). */
  redraw() { this.panel.build(); }
}
