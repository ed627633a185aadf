// The Skat table in the browser: lobby, table, dialogs. Talks to the server over the
// WebSocket protocol of docs/protocol.md; the server is authoritative and sends each seat
// only its own view.

import { cardBack, cardEl, cardLabel, DECK, rankIndex, setDeck, suitColour, suitSvg } from "./cards.js";
import { $, h } from "./dom.js";
import { contractText, I18N, t, WORDS } from "./i18n.js";
import { CATALOGS, fill, LANG, setLang } from "./lang.js";
import { api as request, keep, TableSocket } from "./net.js";
import { clockOffset, clockText, countdown, isAway, readyLeft } from "./clock.js";
import { F, friendsBox, invitationsBox, inviteList, loadFriends } from "./friends.js";
import { loadSettings, noticeTitle, saveSettings, Sounds, turnEvents, turnPoint } from "./notice.js";
import { ChatPanel, LobbyChat } from "./chat.js";
import * as view from "./view.js";
import { contractOfWords, youForm as youFormIn } from "./words.js";


/** @typedef {import("./protocol").StateMessage} StateMessage */
/** @typedef {import("./protocol").ServerMessage} ServerMessage */
/** @typedef {import("./protocol").SeatView} SeatView */
/** @typedef {import("./protocol").Card} Card */
/** @typedef {import("./protocol").Seat} Seat */
/** @typedef {import("./protocol").Position} Position */
/** @typedef {import("./protocol").Result} Result */
/** @typedef {import("./protocol").Sheet} Sheet */
/** @typedef {import("./protocol").SheetRow} SheetRow */
/** GET /api/meta, or what the lobby falls back on without it (its levels, rule sets and default level). */
/** @typedef {Pick<import("./protocol").Meta, "levels" | "rulesets" | "default_level"> & Partial<import("./protocol").Meta>} Meta */
/** @typedef {import("./protocol").Analysis} Analysis */
/** @typedef {import("./protocol").HintWhy} HintWhy */
/** @typedef {import("./protocol").LobbyTable} LobbyTable */
/** @typedef {import("./protocol").ClientMessage} ClientMessage */
/** @typedef {import("./dom.js").Child} Child */
/** @typedef {import("./view.js").Choice} Choice */
/** A hint asked for ({waiting}) or given (the card, or the declarer's choice: the two cards to put away, the game;
 * and why), for the state `seq`. */
/** @typedef {{seq: number, waiting?: boolean, card?: Card | null, discard?: Card[] | null, contract?: import("./protocol").Contract | null,
 *   action?: string, why?: HintWhy[], reason?: string}} Hint */
/** The analysis dialog: the deal, where it was opened from, the analysis or the error. */
/** @typedef {{dealNo: number | null, from: string, data: Analysis | null, error: string | null}} AnalysisAsk */

/** The page's state: the table, this browser's seat and what the page shows. */
/**
 * @type {{tableId: string | null, token: string | null, invite: string | null, ws: TableSocket | null,
 *   state: StateMessage | null, sheet: Sheet | null, meta: Meta | null, selected: Set<Card>, panelMode: string | null,
 *   focusIdx: number, prevTrick: Card[], prevTricks: number, prevDeal: number, holdTrick: view.HeldTrick | null,
 *   holdTimer: ReturnType<typeof setTimeout> | undefined, resultShownFor: number, dialog: string | null, closing: boolean,
 *   sheetMetric: "classic" | "seeger", analysis: AnalysisAsk | null, hint: Hint | null, clockOffset: number,
 *   choice?: Choice & {key: string}}}
 */
const S = {
  tableId: null, token: null, invite: null, ws: null, state: null, sheet: null, meta: null,
  selected: new Set(), panelMode: null, focusIdx: -1, prevTrick: [], prevTricks: 0, prevDeal: 0,
  holdTrick: null, holdTimer: undefined, resultShownFor: 0, dialog: null, closing: false,
  sheetMetric: "classic", analysis: null, hint: null,
  /** seconds to add to this browser's clock to read the server's (the move clock, clock.js) */
  clockOffset: 0,
};
// for the browser tests and a curious player's console: the page's state, its texts and the analysis dialog
Object.assign(window, { S, I18N, openAnalysis: (/** @type {number | null} */ dealNo, /** @type {string} */ from) => openAnalysis(dealNo, from) });
// the words of the page, for the browser tests that check them in every language
Object.assign(window, { skatWords: { t, setLang, youForm: (/** @type {string} */ x) => youForm(x),
  playerName: (/** @type {Position} */ p) => playerName(p), infoText: () => infoText(),
  bidButtons: (/** @type {SeatView} */ v) => bidButtons(v) } });

/** An error's message (whatever was thrown). */
/** @param {unknown} e */
function messageOf(e) { return e instanceof Error ? e.message : String(e); }

/** The page's own element that `sel` finds, as an input, a select or a button. */
/** @param {string} sel */
const input = (sel) => $(sel, HTMLInputElement);
/** @param {string} sel */
const select = (sel) => $(sel, HTMLSelectElement);
/** @param {string} sel */
const button = (sel) => $(sel, HTMLButtonElement);

// ------------------------------------------------------------------ helpers
function applyStaticTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.getAttribute("data-i18n") || ""); });
  // named also where a phone hides their visible labels
  document.querySelectorAll("[data-i18n-label]").forEach((el) => { el.setAttribute("aria-label", t(el.getAttribute("data-i18n-label") || "")); });
  for (const opt of select("#f-clock").options) if (/^\d+$/.test(opt.value)) opt.textContent = t("clockSeconds", { n: opt.value });
  labelHand();
  topLinks();
}

/** A request of the table server, with this table's secret header on a GET of it. */
/** @template [T=any] @param {string} method @param {string} path @param {unknown} [body] @returns {Promise<T>} */
function api(method, path, body) {
  return request(method, path, body, body ? {} : readHeaders(path));
}

// A private table's GET requests carry the seat token or the invite secret in a header (docs/protocol.md),
// never in the address; a public table needs neither.
/** @param {string} path @returns {Record<string, string>} */
function readHeaders(path) {
  if (!S.tableId || !path.startsWith("/api/tables/" + S.tableId)) return {};
  if (S.token) return { "X-Seat-Token": S.token };
  if (S.invite) return { "X-Invite": S.invite };
  return {};
}

function isPrivate() { return !!(S.state && S.state.table.public === false); }

// A download link (record, score sheet). At a private table a plain link would arrive without the secret:
// the file is fetched with the header and handed to the browser as a blob.
/** @param {string} href @param {string} text @param {string} [cls] */
function downloadLink(href, text, cls) {
  const a = h("a", { href, download: "", text, cls });
  a.addEventListener("click", async (ev) => {
    if (!isPrivate()) return;
    ev.preventDefault();
    try {
      const res = await fetch(href, { headers: readHeaders(href) });
      if (!res.ok) throw new Error((await res.json().catch(() => ({}))).message || res.statusText);
      const m = (res.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
      const url = URL.createObjectURL(await res.blob());
      const link = h("a", { href: url, download: m ? m[1] : "" });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) { alertBox(messageOf(e)); }
  });
  return a;
}


function inviteUrl() {
  const base = location.origin + "/t/" + S.tableId;
  return isPrivate() ? (S.invite ? base + "#invite=" + S.invite : null) : base;
}

// ------------------------------------------------------------------ routing
function route() {
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)/);
  if (m) {
    const id = m[1];
    S.tableId = id;
    // a seat link (#token=...) or an invite link (#invite=...): kept in this browser, taken out of the address
    const hm = location.hash.match(/[#&]token=([A-Za-z0-9_-]+)/);
    const im = location.hash.match(/[#&]invite=([A-Za-z0-9_-]+)/);
    if (hm) keep.setToken(id, hm[1]);
    if (im) keep.setInvite(id, im[1]);
    if (hm || im) history.replaceState(null, "", location.pathname);
    S.token = keep.token(id);
    S.invite = keep.invite(id);
    // the result dialog offers the ISS record by what meta says: shown again when meta comes after it opened
    api("GET", "/api/meta").then((m) => { S.meta = m; if (S.dialog === "result") showResult(); }).catch(() => {});
    $("#lobby").classList.add("hidden");
    $("#table").classList.remove("hidden");
    document.body.classList.add("at-table");
    $("#btn-sheet").classList.remove("hidden");
    $("#btn-invite").classList.remove("hidden");
    setUpTableChat();
    connect();
  } else {
    $("#table").classList.add("hidden");
    document.body.classList.remove("at-table");
    $("#lobby").classList.remove("hidden");
    showLobby();
    setUpLobbyChat();
  }
}

// ------------------------------------------------------------------ lobby
async function showLobby() {
  /** @type {Meta} */
  let meta;
  try { meta = S.meta || await api("GET", "/api/meta"); } catch (e) { meta = { levels: ["random"], rulesets: ["isko2018"], default_level: "random" }; }
  S.meta = meta;
  const rs = select("#f-ruleset");
  const chosen = rs.value;  // the rule sets' names in the page's language (again when it changes)
  rs.replaceChildren(...meta.rulesets.map((r) => h("option", { value: r, text: t("rs_" + r) === "rs_" + r ? r : t("rs_" + r) })));
  if (chosen) rs.value = chosen;
  const about = () => {
    // the rule set in the page's language (the keeper's words for it); the server's description is English
    const key = "rsAbout_" + rs.value;
    $("#f-ruleset-about").textContent = key in CATALOGS.en.keeper ? fill("keeper", key)
      : LANG === "en" ? (meta.ruleset_descriptions || {})[rs.value] || "" : "";
    $("#f-schieber-row").classList.toggle("hidden", rs.value !== "pub");  // the pub Ramsch may be played as Schieberamsch
  };
  rs.onchange = about;
  about();
  if (!input("#f-player").value) input("#f-player").value = localStorage.getItem("skat.name") || "";
  const seats = [...document.querySelectorAll("#f-seats select")].map((s) => s instanceof HTMLSelectElement ? s.value : "");
  renderSeatChoices();
  seats.forEach((v, i) => { const s = document.getElementById("f-seat-" + i); if (s instanceof HTMLSelectElement && v) s.value = v; });
  void refreshFriends();
  await refreshLobby();
}

function renderSeatChoices() {
  const meta = S.meta;
  if (!meta) return;
  const n = +select("#f-count").value;
  $("#f-count-about").textContent = t("countAbout" + n);  // who sits out at four and at five
  const box = $("#f-seats");
  box.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const sel = h("select", { id: "f-seat-" + i, "aria-label": t("seat", { n: i + 1 }) });
    if (i === 0) sel.append(h("option", { value: "human", text: t("you") }));
    else {
      sel.append(h("option", { value: "human", text: t("person") }));
      for (const lv of meta.levels) sel.append(h("option", { value: lv, text: t("level_" + lv) }));
      sel.value = meta.default_level;
    }
    box.append(h("label", {}, t("seat", { n: i + 1 }) + " ", sel));
  }
}

async function refreshLobby() {
  /** @type {{tables: LobbyTable[]}} */
  const data = await api("GET", "/api/tables");
  const body = $("#lobby-list tbody");
  body.innerHTML = "";
  $("#lobby-empty").classList.toggle("hidden", data.tables.length > 0);
  $("#lobby-list thead").classList.toggle("hidden", !data.tables.length);
  for (const tb of data.tables) {
    const seats = tb.seats.map((s, pos) => s.taken ? view.seatLabel(s, pos, WORDS) : t("free")).join(", ");
    const free = tb.seats.some((s) => !s.taken);
    const row = h("tr", {},
      h("td", { cls: "tbl-name" }, h("b", {}, view.tableName(tb, WORDS))),
      h("td", { cls: "tbl-rules" }, lobbyRules(tb)),
      h("td", { cls: "tbl-seats" }, seats),
      h("td", { cls: "muted tbl-status" }, t("status_" + tb.status)),
      h("td", { cls: "tbl-act" }, free ? h("button", { onclick: () => joinTable(tb.id, undefined, tablePage(tb)) , text: t("join") }) : "",
        " ", h("a", { href: tablePage(tb), text: t("watch") })));
    body.append(row);
  }
}

/** A lobby table's game: its rule set and number of players ("ISkO (tournament) · 4 players"), or Officers' Skat. */
/** @param {LobbyTable} tb */
function lobbyRules(tb) {
  if (tb.variant === "officers") return t("officersGame");
  const rs = tb.ruleset || "isko2018";
  const name = t("rs_" + rs) === "rs_" + rs ? rs : t("rs_" + rs);
  const changed = Object.keys(tb.options || {}).length ? " " + t("withOptions") : "";
  return name + changed + " · " + t("nPlayers", { n: tb.n_players });
}

// An Officers' Skat table is played on its own page (/officers), over the same protocol.
/** @param {LobbyTable} tb */
function tablePage(tb) { return tb.variant === "officers" ? "/officers?table=" + tb.id : "/t/" + tb.id; }

// The name a person joins with: the one used before (or typed in the lobby's form), else asked for once in a small
// form of the page (null: the person went back).
/** @returns {Promise<string | null>} */
function nameToJoin() {
  const form = document.getElementById("f-player");
  const typed = form instanceof HTMLInputElement && !S.tableId ? form.value.trim().slice(0, 40) : "";
  const known = localStorage.getItem("skat.name") || typed;
  if (known) { localStorage.setItem("skat.name", known); return Promise.resolve(known); }
  return new Promise((resolve) => {
    const field = h("input", { id: "join-name", maxlength: "40", required: true, autocomplete: "nickname" });
    const ask = h("form", { cls: "name-form" },
      h("label", { for: "join-name" }, t("askName")), field,
      h("div", { cls: "actions" }, h("button", { type: "submit", cls: "primary", text: t("join") }),
        h("button", { type: "button", onclick: () => { closeDialog(); resolve(null); }, text: t("back") })));
    ask.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const name = /** @type {HTMLInputElement} */ (field).value.trim().slice(0, 40);
      if (!name) return;
      localStorage.setItem("skat.name", name);
      closeDialog();
      resolve(name);
    });
    openDialog("name", h("h2", {}, t("yourName")), ask);
    /** @type {HTMLInputElement} */ (field).focus();
  });
}

/** @param {string} id @param {Position} [position] @param {string} [page] */
async function joinTable(id, position, page) {
  const name = await nameToJoin();
  if (name === null) return;
  try {
    const invite = keep.invite(id) || undefined;  // needed at a private table
    /** @type {import("./protocol").Joined & {token: string}} a seat taken: its token */
    const res = await api("POST", `/api/tables/${id}/join`, { name, position, invite });
    keep.setToken(id, res.token);
    if (page && page !== "/t/" + id) location.href = page;
    else if (location.pathname !== "/t/" + id) location.href = "/t/" + id;
    else { S.token = res.token; reconnectNow(); }
  } catch (e) { alertBox(messageOf(e)); }
}

select("#f-count").addEventListener("change", renderSeatChoices);
// Officers' Skat for two people: a table with two seats for persons; its page shows the link for the other one
$("#officers-two").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const name = await nameToJoin();
  if (name === null) return;
  try {
    /** @type {import("./protocol").CreatedTable & {token: string}} seat 0 claimed: its token */
    const res = await api("POST", "/api/tables", { variant: "officers", seats: ["human", "human"], player_name: name,
      claim: 0, public: input("#o2-public").checked });
    keep.setToken(res.table_id, res.token);
    if (res.invite) keep.setInvite(res.table_id, res.invite);
    location.href = "/officers?table=" + res.table_id;
  } catch (e) { alertBox(messageOf(e)); }
});
$("#create-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const n = +select("#f-count").value;
  const seats = [];
  for (let i = 0; i < n; i++) seats.push(select("#f-seat-" + i).value);
  const player = input("#f-player").value.trim();
  localStorage.setItem("skat.name", player);
  try {
    /** @type {import("./protocol").CreatedTable & {token: string}} seat 0 claimed: its token */
    const res = await api("POST", "/api/tables", {
      name: input("#f-name").value, player_name: player, seats, ruleset: select("#f-ruleset").value, claim: 0,
      options: select("#f-ruleset").value === "pub" && input("#f-schieber").checked ? { schieberamsch: true } : undefined,
      public: input("#f-public").checked, hints: input("#f-hints").checked, clock: clockChoice(),
    });
    keep.setToken(res.table_id, res.token);
    if (res.invite) keep.setInvite(res.table_id, res.invite);
    location.href = "/t/" + res.table_id;
  } catch (e) { alertBox(messageOf(e)); }
});

/** The move clock the creator chose: left out (on where people play together), off, or seconds per decision. */
function clockChoice() {
  const value = select("#f-clock").value;
  if (value === "auto") return undefined;
  if (value === "off") return false;
  return { decision: +value };
}

// ------------------------------------------------------------------ chat
// The table's chat over its socket and the lobby's over REST (chat.js, docs/chat.md).

/** @param {string} key @param {Record<string, string | number>} [params] */
const chatWords = (key, params) => fill("chat", key, params);
/** @type {ChatPanel | null} */
let tableChat = null;
/** @type {LobbyChat | null} */
let lobbyChat = null;

function setUpTableChat() {
  const root = $("#table-chat");
  root.classList.remove("hidden");
  const badge = $("#bb-chat");
  tableChat = new ChatPanel(root, {
    words: chatWords, collapsible: true, spectatorsApart: true, badge,
    startClosed: matchMedia("(max-width: 760px)").matches,  // a phone: the chat covers the hand, opened by its button
    say: (body) => send(/** @type {ClientMessage} */ ({ type: "chat", ...body })),
    onMute: (author, on) => send({ type: "mute", author, on }),
    me: () => ({ position: S.state ? S.state.you.position : null, name: reader && reader.player ? reader.player.name : null }),
    canWrite: () => !S.state || S.state.you.role === "player" || !!(reader && reader.signed_in),
  });
  badge.addEventListener("click", () => { if (tableChat) tableChat.setOpen(!tableChat.open); });
  // a window narrowed to a phone's width: the open chat would cover the hand, so it closes (its button opens it)
  matchMedia("(max-width: 760px)").addEventListener("change", (e) => { if (e.matches && tableChat && tableChat.open) tableChat.setOpen(false); });
}

function setUpLobbyChat() {
  if (lobbyChat) return;
  lobbyChat = new LobbyChat($("#lobby-chat"), { words: chatWords, api,
    me: () => reader && reader.signed_in && reader.player ? reader.player.name || null : null });
  lobbyChat.start();
}

// ------------------------------------------------------------------ socket
function connect() {
  if (S.ws) S.ws.close();
  if (!S.tableId) return;
  S.ws = new TableSocket(S.tableId, {
    credentials: () => ({ token: S.token, invite: S.invite, chat: true }),
    onMessage,
    onDrop: () => { if (!S.closing) banner(t("reconnecting")); },
  });
}

function reconnectNow() {
  if (S.ws) S.ws.reconnect(); else connect();
}

/** @param {ClientMessage} msg */
function send(msg) {
  if (S.ws) S.ws.send(msg);
}

/** Do an action (its token) at the table. */
/** @param {string} token */
function act(token) {
  S.selected.clear();
  S.panelMode = null;
  send({ type: "action", action: token, seq: S.state ? S.state.seq : undefined });
}

/** @param {ServerMessage} msg */
function onMessage(msg) {
  if (tableChat && tableChat.take(msg)) return;  // the chat's messages and refusals (chat.js)
  if (msg.type === "state" && tableChat) tableChat.refresh();
  if (msg.type === "state" && msg.table.variant === "officers") { location.replace("/officers?table=" + msg.table.id); return; }
  if (msg.type === "state") { stoppedBanner(msg.stopped); onState(/** @type {StateMessage} */ (msg)); }  // a Skat table's (Officers' Skat: above)
  else if (msg.type === "stopped") stoppedBanner(msg.reason);
  else if (msg.type === "hint") onHint(msg);
  else if (msg.type === "sheet") {  // the result dialog says what the sheet books: shown again with the new sheet
    S.sheet = /** @type {Sheet} */ (msg.sheet);
    if (S.dialog === "sheet") showSheet(); else if (S.dialog === "result") showResult();
  }
  else if (msg.type === "closed") {
    S.closing = true;
    if (S.ws) S.ws.close();  // nothing to come back to
    if (S.tableId) keep.dropToken(S.tableId);
    openDialog("alert", h("p", {}, t("tableClosed")), h("div", { cls: "actions" },
      h("a", { href: "/", cls: "button", text: t("toLobby") })));
  }
  else if (msg.type === "error") {
    if (msg.code === "bad_token") {
      if (S.tableId) keep.dropToken(S.tableId);
      S.token = null;
      reconnectNow();
    } else if (msg.code === "invite_required" || msg.code === "bad_invite") {
      // a private table without (the right) invite: say what to do; the socket stays open without a seat
      if (msg.code === "bad_invite") { if (S.tableId) keep.dropInvite(S.tableId); S.invite = null; }
      openDialog("alert", h("p", { cls: "denied" }, t(msg.code === "bad_invite" ? "badInvite" : "privateTable")),
        h("div", { cls: "actions" }, h("a", { href: "/", cls: "button", text: t("toLobby") })));
    } else if (msg.code !== "stale") {
      banner(t("error") + ": " + msg.message, true);
    }
    if (S.hint && S.hint.waiting) { S.hint = null; if (S.state) renderPanel(); }  // a hint refused or failed
  }
}

/** @param {string | null} reason */
function stoppedBanner(reason) {
  // a stopped table (docs/protocol.md): the banner stays while the table is stopped
  if (reason) banner(t("tableStopped", { reason: reason }));
  else banner(null);
}

/** @param {string | null} text @param {boolean} [transient] */
function banner(text, transient) {
  const b = $("#banner");
  if (!text) { if (!b.dataset.transient || Date.now() > Number(b.dataset.until)) b.classList.add("hidden"); return; }
  b.textContent = text;
  b.classList.remove("hidden");
  b.dataset.transient = transient ? "1" : "";
  b.dataset.until = String(Date.now() + 4000);
  if (transient) setTimeout(() => { if (Date.now() >= Number(b.dataset.until)) b.classList.add("hidden"); }, 4100);
}

// ------------------------------------------------------------------ state
// The table's words and names from the state (view.js), for this page's state and reader.

/** The state: there is one whenever the table is drawn (a message of the server came). */
function state() {
  if (!S.state) throw new Error("no state from the server yet");
  return S.state;
}
function me() { return view.bottomPosition(state()); }
/** @param {Seat} seat */
function seatPos(seat) { return view.seatPos(state(), seat); }
/** @param {Position} pos */
function playerName(pos) { return view.playerName(state(), pos, WORDS); }
/** @param {Seat} seat */
function seatName(seat) { return view.seatName(state(), seat, WORDS); }
/** @param {Position} pos */
function relative(pos) { return view.relative(state(), pos); }
/** @param {Card[]} cards @param {Seat} [seat] */
function sortCards(cards, seat) { return view.sortCards(cards, state().hints, seat); }
/** @param {Position} pos */
function roleOf(pos) { return view.roleOf(state(), pos, WORDS); }
/** @param {Seat} seat */
function lastWord(seat) { return view.lastWord(state().view, seat, WORDS); }
/** @param {Seat} seat */
function tricksTaken(seat) { return view.tricksTaken(state().view, seat); }
/** @param {Seat} seat */
function wonBy(seat) { return view.wonBy(state(), seat, WORDS); }
/** @param {string} name */
function tourneeName(name) { return view.tourneeName(name, WORDS); }
/** @param {SeatView} v */
function gameText(v) { return view.gameText(v, WORDS); }
/** @param {string} a */
function actionLabel(a) { return view.actionLabel(a, WORDS); }
function infoText() { return view.infoText(state(), S.holdTrick, WORDS); }
/** @param {string} text */
function youForm(text) { return youFormIn(text, LANG); }







/** A new state from the server: keep a taken trick in view a moment, drop what the state makes stale, draw. */
/** @param {StateMessage} st */
function onState(st) {
  const prev = S.state;
  S.state = st;
  if (S.hint && (S.hint.seq !== st.seq || (prev && prev.table.deal_no !== st.table.deal_no))) S.hint = null;
  const v = st.view;
  if (prev && v && prev.view && st.table.deal_no === prev.table.deal_no) {
    if (v.tricks.length > prev.view.tricks.length && v.trick.length === 0) {
      // a trick was completed: keep it in the middle for a moment
      const last = v.tricks[v.tricks.length - 1];
      S.holdTrick = { leader: last[0], cards: last[1], winner: last[2], prevCards: prev.view.trick.map((x) => x[1]) };
      clearTimeout(S.holdTimer);
      S.holdTimer = setTimeout(() => { S.holdTrick = null; render(); }, 1300);
    } else if (v.trick.length > 0) {
      S.holdTrick = null;
    }
  } else {
    S.holdTrick = null;
  }
  if (!prev || !prev.view || !v || prev.table.deal_no !== st.table.deal_no || prev.view.phase !== v.phase) {
    S.selected.clear();
    S.panelMode = null;
    S.focusIdx = -1;
  }
  S.clockOffset = clockOffset(st.now, Date.now() / 1000);
  render();
  askRatings(st);
  notice(st);
  if (v && v.phase === "finished" && S.resultShownFor !== st.table.deal_no) {
    S.resultShownFor = st.table.deal_no;
    const delay = S.holdTrick ? 1300 : 0;
    setTimeout(() => { if (S.state && S.state.view && S.state.view.phase === "finished") showResult(); }, delay);
  }
  if (S.dialog === "result" && v && v.phase !== "finished") closeDialog();
}

// ------------------------------------------------------------------ noticing your turn
/** The sounds and notifications the player chose, and the last state's point (notice.js). */
const NOTICE = {
  settings: loadSettings(),
  /** @type {import("./notice.js").TurnPoint | null} */
  point: null,
  sounds: new Sounds(),
  waiting: false,
  /** @type {Notification | null} */
  shown: null,
};

/** A card played, your turn: a sound, the title, a notification (each as the player chose). */
/** @param {StateMessage} st */
function notice(st) {
  const now = turnPoint(st);
  const events = turnEvents(NOTICE.point, now);
  NOTICE.point = now;
  NOTICE.waiting = now.myTurn;
  if (NOTICE.settings.sound) {
    if (events.turn) NOTICE.sounds.turn();
    else if (events.played) NOTICE.sounds.card();
  }
  noticeTitleNow();
  if (!now.myTurn && NOTICE.shown) { NOTICE.shown.close(); NOTICE.shown = null; }
  if (events.turn && document.hidden && NOTICE.settings.notify && "Notification" in window
      && Notification.permission === "granted") {
    try {
      const shown = new Notification(fill("table", "noticeTitle"), { body: fill("table", "noticeBody", { table: st.table.name }), tag: "skat-turn" });
      shown.onclick = () => { window.focus(); shown.close(); };
      NOTICE.shown = shown;
    } catch (e) { console.debug("no notification", e); }
  }
}

/** The title: marked while it is your turn and the tab is hidden. */
function noticeTitleNow() {
  document.title = noticeTitle(t("title"), fill("table", "noticeTitle"), NOTICE.waiting && document.hidden);
}

function setUpNotices() {
  const sound = $("#notice-sound", HTMLInputElement), notify = $("#notice-notify", HTMLInputElement);
  sound.checked = NOTICE.settings.sound;
  notify.checked = NOTICE.settings.notify && "Notification" in window && Notification.permission === "granted";
  sound.addEventListener("change", () => {
    NOTICE.settings.sound = sound.checked;
    saveSettings(NOTICE.settings);
    if (sound.checked) NOTICE.sounds.turn();  // how it sounds (and the gesture lets the page play sound)
  });
  notify.addEventListener("change", async () => {
    if (notify.checked && (!("Notification" in window) || await Notification.requestPermission() !== "granted")) {
      notify.checked = false;
      alertBox(fill("table", "noticeDenied"));
    }
    NOTICE.settings.notify = notify.checked;
    saveSettings(NOTICE.settings);
  });
  document.addEventListener("visibilitychange", () => {
    noticeTitleNow();
    if (!document.hidden && NOTICE.shown) { NOTICE.shown.close(); NOTICE.shown = null; }
  });
}

// ------------------------------------------------------------------ rendering
function render() {
  const st = S.state;
  if (!st) return;
  applyStaticTexts();
  noticeTitleNow();  // the texts set the plain title: mark it again while it is your turn in a hidden tab
  $("#table-name").textContent = view.titleText(st, WORDS);
  // each part on its own: a fault in one (reported as an uncaught error) must not take away the
  // panel's buttons, or the player is stuck at the table
  for (const part of [renderOpponents, renderCenter, renderPanel, renderHand, renderSide, renderClock]) {
    try { part(); } catch (e) { setTimeout(() => { throw e; }); }
  }
}




// ------------------------------------------------------------------ the move clock
// The clock of a table with people (docs/clock.md): the countdown beside the player to move (the decision's time,
// then the reserve), your own above your hand, the wait for the next deal; when your time ran out the computer
// plays for you and a box offers "I'm back". A timer redraws only the countdowns, four times a second.

/** The move clock's parts of the page, drawn from the state. */
function renderClock() {
  const st = state();
  const clock = st.table.clock;
  const mine = st.you.position;
  const awayBox = $("#away-box");
  const away = isAway(clock, mine);
  awayBox.classList.toggle("hidden", !away);
  if (away) $("#away-text").textContent = t("clockAwayYou");
  tickClock();
}

/** The countdowns now (called by renderClock and by the timer). */
function tickClock() {
  const st = S.state;
  const mineEl = $("#my-clock");
  if (!st || !st.table.clock) { mineEl.classList.add("hidden"); return; }
  const clock = st.table.clock;
  const now = Date.now() / 1000;
  const running = countdown(clock, now, S.clockOffset);
  document.querySelectorAll("[data-clock-pos]").forEach((el) => {
    const pos = Number(el.getAttribute("data-clock-pos"));
    if (!running || running.position !== pos) { el.textContent = ""; return; }
    el.textContent = running.reserve ? t("clockReserve", { time: clockText(running.seconds) }) : clockText(running.seconds);
    el.classList.toggle("urgent", running.urgent);
  });
  const mine = st.you.position;
  const wait = readyLeft(clock, now, S.clockOffset);
  let text = "";
  let urgent = false;
  if (running && running.position === mine) {
    text = t("clockMine", { time: running.reserve ? t("clockReserve", { time: clockText(running.seconds) }) : clockText(running.seconds) });
    urgent = running.urgent;
  } else if (wait !== null && mine !== null && !st.table.ready.includes(mine)) {
    text = t("clockNext", { time: clockText(wait) });
  }
  mineEl.textContent = text;
  mineEl.classList.toggle("hidden", !text);
  mineEl.classList.toggle("urgent", urgent);
}
setInterval(() => { try { tickClock(); } catch (e) { console.debug("clock", e); } }, 250);

function renderOpponents() {
  const st = state();
  const v = st.view;
  const n = st.table.n_players;
  $("#felt").className = "n" + n;  // the layout of a table of n: the others round it in seating order
  for (const id of ["left", "top", "topleft", "topright", "right"]) { const el = $("#opp-" + id); el.innerHTML = ""; el.classList.add("hidden"); }
  for (let pos = 0; pos < n; pos++) {
    const where = relative(pos);
    if (where === "bottom") continue;
    const el = $("#opp-" + where);
    el.classList.remove("hidden");
    const seat = st.table.positions.indexOf(pos);
    const seatInfo = st.table.seats[pos];
    const moving = v && seat >= 0 && v.to_move === seat && v.phase !== "finished";
    el.classList.toggle("to-move", !!moving);
    el.classList.toggle("declarer", !!(v && seat >= 0 && v.declarer === seat && v.phase !== "bidding"));
    const word = seat >= 0 ? lastWord(seat) : null;
    // the name with what the player said last; the role with the tricks taken; the cards: a few lines only
    const head = h("div", { cls: "who" }, h("b", {}, playerName(pos)), ratingBadge(pos),
      seatInfo.kind === "human" && !seatInfo.connected ? h("span", { cls: "away" }, " (" + (seatInfo.taken ? t("away") : t("free")) + ")") : "",
      word ? h("span", { cls: "bubble" }, word) : "");
    const tricks = v && seat >= 0 && v.phase === "play" ? t("tricks", { n: tricksTaken(seat) }) : "";
    const role = h("div", { cls: "role" }, [roleOf(pos), tricks].filter(Boolean).join(" · "));
    const cards = h("div", { cls: "opp-cards" });
    if (v && seat >= 0) {
      const open = v.open_hands && v.open_hands[String(seat)];
      if (open && open.length) {
        cards.classList.add("open");
        for (const c of sortCards(open, seat)) cards.append(cardEl(c, { cls: "small" }));
      } else {
        for (let i = 0; i < v.hand_sizes[seat]; i++) cards.append(cardBack("small"));
      }
    }
    const standIn = isAway(st.table.clock, pos);
    const extra = h("div", { cls: "status" },
      moving ? h("span", { cls: "thinking" },
        seatInfo.kind === "human" && !standIn ? t("waitingFor", { who: playerName(pos) }) : t("thinking")) : "",
      moving && !standIn && st.table.clock ? h("span", { cls: "clock", "data-clock-pos": String(pos), role: "timer" }) : "",
      standIn ? h("span", { cls: "stand-in" }, t("clockStandIn", { who: playerName(pos) })) : "");
    el.append(head, role, cards, extra);
  }
}








function renderCenter() {
  const st = state();
  const v = st.view;
  $("#info").textContent = infoText();
  const trick = $("#trick");
  trick.innerHTML = "";
  const skatArea = $("#skat-area");
  skatArea.innerHTML = "";
  if (!v) { trick.className = "empty"; return; }
  if (["bidding", "skat", "grand_hand", "push"].includes(v.phase)) {
    skatArea.append(cardBack("small"), cardBack("small"));
  }
  if (v.phase === "bidding") {  // the current bid in the middle of the table
    trick.append(h("div", { cls: "bid-now", id: "bid-now" }, h("span", {}, t("bidNow")),
      v.bid ? h("b", {}, String(v.bid)) : h("i", {}, t("noBidYet"))));
  }
  if (v.ruleset === "tournee" && v.skat && ["skat", "declare"].includes(v.phase)) {
    skatArea.innerHTML = "";  // Tournee: the turned card is shown to everybody
    for (const c of v.skat) skatArea.append(cardEl(c, { cls: "small turned" }));
  }
  const hold = S.holdTrick;
  /** @type {[Seat, Card][]} */
  const cards = hold ? hold.cards.map((c, i) => [(hold.leader + i) % 3, c]) : v.trick;
  const prevSet = new Set(hold ? hold.prevCards : S.prevTrick);
  for (const [seat, c] of cards) {
    const where = relative(seatPos(seat));
    const el = cardEl(c, { cls: "in-trick at-" + where });
    el.setAttribute("aria-label", seatName(seat) + ": " + cardLabel(c));  // whose card it is, for every seat
    el.title = el.getAttribute("aria-label") || "";
    if (!prevSet.has(c)) el.classList.add("fly-" + where);
    if (hold && seat === hold.winner) el.classList.add("winner");
    trick.append(el);
  }
  if (hold) trick.classList.add("taken-" + relative(seatPos(hold.winner)));
  else trick.className = "";
  // no card on the table (the auction, the skat, the declaration): the middle holds the panel instead
  trick.classList.toggle("empty", !cards.length && v.phase !== "play");
  trick.classList.toggle("bidding", v.phase === "bidding");
  S.prevTrick = hold ? hold.cards : v.trick.map((x) => x[1]);
}


/** The buttons of one's bid: the next bids (or hold), more in a list, pass. */
/** @param {SeatView} v */
function bidButtons(v) {
  const box = h("div", { cls: "actions" });
  const legal = v.legal_actions;
  if (legal.includes("hold")) {
    box.append(h("button", { cls: "primary", "data-action": "hold", onclick: () => act("hold"), text: t("hold", { v: v.bid }) }));
  } else {
    const bids = legal.filter((x) => /^\d+$/.test(x));
    const turn = state().hints.auction_turn;
    const playAt = turn && turn.asks === "play";  // after two passes
    bids.slice(0, 4).forEach((b, i) => box.append(h("button", {
      cls: i === 0 ? "primary" : "", "data-action": b, onclick: () => act(b), text: t(playAt ? "playAt18" : "bid", { v: b }) })));
    if (bids.length > 4) {
      const sel = h("select", { "aria-label": t("moreBids"), id: "more-bids" }, h("option", { value: "", text: t("moreBids") }),
        bids.slice(4).map((b) => h("option", { value: b, text: b })));
      sel.addEventListener("change", () => { if (sel.value) act(sel.value); });
      box.append(sel);
    }
  }
  box.append(h("button", { "data-action": "pass", onclick: () => act("pass"), text: t("pass") }));
  return box;
}

// The declaration: one compact chooser (the game, then Schneider / Schwarz / Ouvert as toggles) showing the
// value the choice would have and whether it reaches the bid; the hand stays in view. The choices come from
// hints.contracts (the server's values of every contract the declarer may announce now).
/** @type {import("./protocol").Game[]} */
const CHOOSER_GAMES = ["diamonds", "hearts", "spades", "clubs", "grand", "null"];



/** @param {SeatView} v @param {boolean} [handOnly] */
function contractChooser(v, handOnly) {
  const hints = (state().hints.contracts || []).filter((c) => handOnly === undefined || c.contract.hand === handOnly);
  const key = `${state().table.deal_no}:${v.phase}:${handOnly}`;
  if (!S.choice || S.choice.key !== key) S.choice = { key, game: null, schneider: false, schwarz: false, ouvert: false };
  const choice = S.choice;
  const box = h("div", { cls: "chooser", role: "group", "aria-label": t("chooseGame") });
  const games = h("div", { cls: "games" });
  const hint = S.hint && S.hint.seq === state().seq && S.hint.contract ? S.hint.contract : null;
  for (const g of CHOOSER_GAMES) {
    if (!hints.some((c) => c.contract.game === g)) continue;
    const hinted = !!hint && hint.game === g && (handOnly === undefined || hint.hand === handOnly);
    games.append(h("button", { cls: "g-" + g + (choice.game === g ? " chosen" : "") + (hinted ? " hinted" : ""), "aria-pressed": String(choice.game === g),
      "aria-describedby": hinted ? "hint-reason" : null,
      onclick: () => { Object.assign(choice, view.lowestLevel(hints, g, handOnly)); renderPanel(); },
      text: contractText({ game: g }) }));
  }
  box.append(games);
  const levels = h("div", { cls: "levels" });
  /** @param {"schneider" | "schwarz" | "ouvert"} name @param {boolean} on */
  const toggle = (name, on) => view.toggleLevel(choice, name, on);
  if (choice.game) {
    for (const name of /** @type {("schneider" | "schwarz" | "ouvert")[]} */ (choice.game === "null" ? ["ouvert"] : ["schneider", "schwarz", "ouvert"])) {
      const on = choice[name];
      const possible = hints.some((c) => view.contractMatches(c, toggle(name, !on), handOnly));
      levels.append(h("button", { cls: "level" + (on ? " chosen" : ""), "aria-pressed": String(on), disabled: !possible,
        onclick: () => { Object.assign(choice, toggle(name, !on)); renderPanel(); }, text: t(name) }));
    }
  }
  box.append(levels);
  const c = choice.game ? hints.find((x) => view.contractMatches(x, choice, handOnly)) : null;
  if (c) {
    const value = c.exact ? t("valueExact", { v: c.value }) : t("valueAbout", { v: c.value });
    const short = c.value < v.bid;
    box.append(h("p", { cls: "worth" + (short ? " short" : "") }, short ? t("overbid", { v: c.value, b: v.bid })
      : t("worthBid", { v: value, b: v.bid })));
    box.append(h("div", { cls: "actions" }, h("button", { cls: "primary", "data-action": c.token, onclick: () => act(c.token),
      text: t("declareIt", { contract: contractText(c.contract) }) })));
  } else {
    box.append(h("p", { cls: "muted" }, t("chooseGame")));
  }
  return box;
}

// The panel (what one is asked, its buttons) lies in the middle of the table while no card is played (the auction,
// the skat, the declaration, between deals), above one's hand during the card play (the hint, Kontra): so the
// table, one's hand and the question fit the screen together.
function renderPanel() {
  const v = state().view;
  const panel = $("#panel");
  fillPanel();
  if (v && v.phase === "play") { if (panel.parentElement !== $("#me")) $("#me").prepend(panel); }
  else if (panel.parentElement !== $("#center")) $("#center").append(panel);
  panel.classList.toggle("in-center", !(v && v.phase === "play"));
}

function fillPanel() {
  const st = state();
  const v = st.view;
  const panel = $("#panel");
  panel.innerHTML = "";
  if (st.you.role === "spectator") {
    panel.append(h("p", {}, t("watching")));
    if (st.table.seats.some((s) => !s.taken)) panel.append(h("button", { cls: "primary", onclick: () => { if (S.tableId) joinTable(S.tableId); }, text: t("takeSeat") }));
    return;
  }
  if (!v) {
    // while people are awaited, the link to send them (the centre already says that the table waits)
    if (st.table.status === "waiting" && inviteUrl()) panel.append(inviteBox(true));
    else panel.append(h("p", { cls: "muted" }, st.table.status === "waiting" ? view.waitingPlayersText(st, WORDS) : t("waitingPlayers")));
    return;
  }
  if (st.you.seat === null && v.phase !== "finished") {  // the dealer at four; at five also the third to his left
    panel.append(h("p", { cls: "sitting-out" }, t(st.you.position === st.table.dealer ? "youDealSitOut" : "youSitOut")));
    return;
  }
  const myTurn = v.to_move === st.you.seat && v.legal_actions.length > 0;
  if (v.phase === "bidding" && myTurn) {
    panel.append(h("h3", {}, t("bidding")), bidButtons(v));
    const est = st.hints.bid_estimate;
    if (est) panel.append(h("p", { cls: "hint muted" }, t("bidHint", { hint: view.estimateText(est, WORDS) })));
  } else if (v.phase === "grand_hand" && myTurn) {
    panel.append(h("h3", {}, t("allPassed")), h("p", {}, t("grandHandPrompt")), h("div", { cls: "actions" },
      v.legal_actions.filter((a) => a !== "pass").map((a, i) => h("button", { cls: i === 0 ? "primary" : "", "data-action": a,
        onclick: () => act(a), text: actionLabel(a) })),
      h("button", { "data-action": "pass", onclick: () => act("pass"), text: t("playRamsch") })));
  } else if (v.phase === "push" && myTurn) {
    const discards = v.legal_actions.filter((a) => a.startsWith("discard "));
    if (discards.length) {
      const n = S.selected.size;
      const token = view.pushToken(v, S.selected);
      panel.append(h("p", {}, t("pushPrompt", { n })), h("div", { cls: "actions" },
        h("button", { cls: "primary", "data-action": "discard", disabled: !token, onclick: () => { if (token) act(token); }, text: t("pushTwo") })));
      if (n === 2 && !token) panel.append(h("p", { cls: "hint muted" }, t("noJacks")));
    } else {
      panel.append(h("h3", {}, t("schieberamsch")), h("p", {}, t("pushChoice")), h("div", { cls: "actions" },
        h("button", { cls: "primary", "data-action": "pickup", onclick: () => act("pickup"), text: t("pickup") }),
        v.legal_actions.includes("push") ? h("button", { "data-action": "push", onclick: () => act("push"), text: t("pushUnseen") }) : ""));
    }
  } else if (v.ruleset === "tournee" && ["skat", "declare"].includes(v.phase) && myTurn) {
    // the turn, Gucki, accept and reject as buttons; the many Solo/Grand/Null announcements in a list
    const plain = v.legal_actions.filter((a) => !a.startsWith("declare ") || v.phase === "declare");
    const solos = v.legal_actions.filter((a) => a.startsWith("declare ") && v.phase !== "declare");
    const box = h("div", { cls: "actions tournee" }, plain.map((a, i) => h("button", { cls: i === 0 ? "primary" : "",
      "data-action": a, onclick: () => act(a), text: v.phase === "declare" && a === "declare grand" ? t("tg_grand_tournee") : actionLabel(a) })));
    if (solos.length) {
      const sel = h("select", { id: "solo-games", "aria-label": t("soloGames") }, h("option", { value: "", text: t("soloGames") }),
        solos.map((a) => h("option", { value: a, text: actionLabel(a) })));
      sel.addEventListener("change", () => { if (sel.value) act(sel.value); });
      box.append(sel);
    }
    panel.append(h("h3", {}, t(v.phase === "skat" ? "tourneeChoice" : "tourneeTurned", { v: v.bid })), box);
  } else if (v.phase === "skat" && myTurn) {
    if (S.panelMode === "hand") {
      panel.append(h("h3", {}, t("declareHandPrompt", { v: v.bid })), contractChooser(v, true),
        h("button", { onclick: () => { S.panelMode = null; renderPanel(); }, text: t("back") }));
    } else {
      const handGames = (st.hints.contracts || []).some((c) => c.contract.hand);  // none reaches a very high bid
      panel.append(h("p", {}, t("skatChoice", { v: v.bid })), h("div", { cls: "actions" },
        h("button", { cls: "primary", "data-action": "pickup", onclick: () => act("pickup"), text: t("pickup") }),
        handGames ? h("button", { "data-action": "hand", onclick: () => { S.panelMode = "hand"; renderPanel(); }, text: t("playHand") })
          : h("span", { cls: "muted" }, t("noHandGame", { v: v.bid }))));
    }
  } else if (v.phase === "discard" && myTurn) {
    const n = S.selected.size;
    const btn = h("button", { cls: "primary", "data-action": "discard", disabled: n !== 2,
      onclick: () => act("discard " + [...S.selected].join(" ")), text: t("discard") });
    panel.append(h("p", {}, t("discardPrompt", { n })), h("div", { cls: "actions" }, btn));
  } else if (v.phase === "declare" && myTurn) {
    panel.append(h("h3", {}, t("declarePrompt", { v: v.bid })), contractChooser(v, false));
  } else if (v.phase === "play" && v.side_actions.some((a) => a === "kontra" || a === "re")) {
    panel.append(h("div", { cls: "actions calls" }, v.side_actions.filter((a) => a === "kontra" || a === "re").map((a) =>
      h("button", { cls: "call", "data-action": a, title: t(a === "re" ? "reHint" : "kontraHint"), onclick: () => act(a), text: t(a) + "!" }))));
  }
  if (myTurn && st.table.hints && hintable(v)) panel.append(hintBox());
  if (v.phase === "finished") {
    const ready = st.you.position !== null && st.table.ready.includes(st.you.position);
    const over = st.table.status === "finished";
    panel.append(h("div", { cls: "actions" },
      over ? h("span", { cls: "muted" }, t("seriesOver")) : ready ? h("span", { cls: "waiting-others" }, waitingOthersText())
        : h("button", { cls: "primary", "data-action": "next", onclick: nextGame, text: t("nextGame") }),
      h("button", { onclick: showResult, text: t("result") })));
  }
}

/** Whether the server gives a hint for this turn of one's own: the card play, or (as the declarer of a standard
 * game) the skat, the discard and the declaration. */
/** @param {SeatView} v */
function hintable(v) {
  if (v.phase === "play") return true;
  return ["skat", "discard", "declare"].includes(v.phase) && v.declarer === state().you.seat && v.ruleset !== "tournee";
}

/** "Waiting for Bob and Clara…": the people not yet ready for the next deal, by name. */
function waitingOthersText() {
  const names = view.notReady(state(), WORDS);
  return names.length ? t("waitingForReady", { who: names.join(", ") }) : t("waitingOthers");
}

function nextGame() {
  closeDialog();
  send({ type: "next_deal" });
}

function renderHand() {
  const st = state();
  const v = st.view;
  const handEl = $("#hand");
  handEl.innerHTML = "";
  labelHand();
  const mine = v && st.you.seat !== null && st.you.seat >= 0 && v.phase === "play" ? t("tricks", { n: tricksTaken(st.you.seat) }) : "";
  const label = $("#my-label");
  const myPos = st.you.position;
  label.textContent = st.you.role === "player" && myPos !== null
    ? [playerName(myPos), roleOf(myPos), mine].filter(Boolean).join(" · ") : "";
  if (st.you.role === "player" && myPos !== null) label.append(ratingBadge(myPos) || "");
  label.classList.toggle("to-move", !!v && v.phase !== "finished" && v.to_move !== null && v.to_move === (st.you.role === "spectator"
    ? st.table.positions.indexOf(me()) : st.you.seat));  // the turn mark at the bottom seat too
  const said = st.you.seat !== null && st.you.seat >= 0 ? lastWord(st.you.seat) : null;  // one's own last bid
  if (said) label.append(" ", h("span", { cls: "bubble", id: "my-word" }, said));
  if (!v) return;
  let cards = v.hand;
  const mySeat = st.you.seat;
  if (st.you.role === "spectator") {  // the first seat sits here, shown as the others are at theirs
    const pos = me();
    const seat = st.table.positions.indexOf(pos);
    label.textContent = [playerName(pos), roleOf(pos),
      seat >= 0 && v.phase === "play" ? t("tricks", { n: tricksTaken(seat) }) : ""].filter(Boolean).join(" · ");
    label.append(ratingBadge(pos) || "");
    const word = seat >= 0 ? lastWord(seat) : null;
    if (word) label.append(" ", h("span", { cls: "bubble" }, word));
    if (seat < 0) return;
    const open = v.open_hands && v.open_hands[String(seat)];
    if (open && open.length) for (const c of sortCards(open, seat)) handEl.append(cardEl(c));
    else for (let i = 0; i < v.hand_sizes[seat]; i++) handEl.append(cardBack());
    return;
  }
  if (mySeat === null) {
    return;
  }
  cards = sortCards(cards);
  const myTurn = v.to_move === mySeat;
  const legal = new Set(myTurn && v.phase === "play" ? v.legal_actions : []);
  const discarding = myTurn && (v.phase === "discard" || (v.phase === "push" && v.legal_actions.some((a) => a.startsWith("discard "))));
  const fromSkat = new Set(v.skat && v.phase === "discard" ? v.skat : []);
  const hint = S.hint && S.hint.seq === st.seq ? S.hint : null;
  const hintedCards = new Set(hint && v.phase === "play" && hint.card ? [hint.card] : hint && v.phase === "discard" && hint.discard ? hint.discard : []);
  cards.forEach((c, i) => {
    const clickable = legal.has(c) || discarding;
    const el = /** @type {HTMLButtonElement} */ (cardEl(c, { button: true, cls: [
      clickable ? "playable" : "", v.phase === "play" && myTurn && !legal.has(c) ? "dim" : "",
      S.selected.has(c) ? "selected" : "", fromSkat.has(c) ? "from-skat" : "", hintedCards.has(c) ? "hinted" : ""].join(" ") }));
    if (hintedCards.has(c)) el.setAttribute("aria-describedby", "hint-reason");
    el.disabled = !clickable;
    el.tabIndex = clickable ? 0 : -1;
    el.addEventListener("click", () => onCard(c));
    el.addEventListener("focus", () => { S.focusIdx = i; });
    handEl.append(el);
  });
  handEl.style.setProperty("--n", String(cards.length));
}

/** The hand's accessible name: "Your hand", or the watched seat's. */
function labelHand() {
  const st = S.state;
  if (!st) return;
  const el = $("#hand");
  if (st && st.you.role === "spectator") el.setAttribute("aria-label", t("handOf", { who: playerName(me()) }));
  else el.setAttribute("aria-label", t("yourHand"));
}

// ------------------------------------------------------------------ account and ratings
// The top bar links to the leaderboard and to the account page, or, signed in, names the person and links to their
// games (GET /api/me). At the table each seat's rating (GET /api/tables/{id}/players) stands beside the name: asked
// when the table is entered, when its seats change, as each deal ends and the next begins; a failure leaves the
// names without ratings (console.debug says why).

/** @type {import("./protocol").MeAnswer | null} */
let reader = null;
/** The signed-in person's own rating, shown in the top bar (null: none yet). */
/** @type {import("./protocol").Rating | null} */
let readerRating = null;
/** Each table position's rating, and what the last request was asked for (the table, its deal, its seats). */
/** @type {Map<number, import("./protocol").Rating>} */
let seatRatings = new Map();
let ratingsAsked = "";

async function loadReader() {
  try {
    reader = await api("GET", "/api/me");
    if (tableChat) tableChat.refresh();
    if (lobbyChat) lobbyChat.panel.refresh();
    topLinks();
    if (reader && reader.signed_in) {
      /** @type {import("./protocol").StatsAnswer} */
      const mine = await api("GET", "/api/players/me");  // 404 before the person's first deal
      readerRating = mine.rating || null;
      topLinks();
    }
  } catch (e) { console.debug("GET /api/me", e); }
}

/** The link to the account: "Sign in", or the signed-in person's name to their games. */
function accountLink() {
  const person = reader && reader.signed_in && reader.player ? reader.player : null;
  return person
    ? h("a", { href: "/me", cls: "me-link", title: fill("account", "myGames"), text: (person.name || "") +
        (readerRating ? " · " + fill("account", "seatRating", { v: oneDecimal(readerRating.conservative) }) : "") })
    : h("a", { href: "/account", text: fill("account", "signIn") });
}

function topLinks() {
  $("#top-links").setAttribute("aria-label", fill("account", "navLabel"));
  $("#lnk-leaderboard").textContent = fill("account", "leaderboard");
  const link = $("#lnk-account", HTMLAnchorElement), want = accountLink();
  link.textContent = want.textContent;
  link.setAttribute("href", want.getAttribute("href") || "/account");
  link.className = want.className;
  if (want.title) link.title = want.title; else link.removeAttribute("title");
}

/** @param {number} x */
function oneDecimal(x) {
  return new Intl.NumberFormat(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}

/** A position's rating as a small note beside its name (null: no rating there). */
/** @param {Position} pos */
function ratingBadge(pos) {
  const r = seatRatings.get(pos);
  if (!r) return null;
  const v = oneDecimal(r.conservative);
  return h("span", { cls: "seat-rating", title: fill("account", "seatRatingTitle", { v, mu: oneDecimal(r.mu), sigma: oneDecimal(r.sigma), n: r.lists }) },
    fill("account", "seatRating", { v }));
}

/** Ask for the seats' ratings when the state says something they may have changed with. */
/** @param {StateMessage} st */
function askRatings(st) {
  const done = !!st.view && st.view.phase === "finished";
  const key = [st.table.id, st.table.deal_no, done, ...st.table.seats.map((s) => s.name)].join("|");
  if (key === ratingsAsked) return;
  ratingsAsked = key;
  const tableId = st.table.id;
  // a deal just ended: the server rates a list as its last deal is stored, a moment after the state says so
  setTimeout(async () => {
    try {
      /** @type {import("./protocol").TablePlayersAnswer} */
      const answer = await api("GET", `/api/tables/${tableId}/players`);
      const next = new Map();
      for (const p of answer.players) if (p.rating) next.set(p.position, p.rating);
      const changed = JSON.stringify([...next]) !== JSON.stringify([...seatRatings]);
      seatRatings = next;
      if (changed && S.state && S.state.table.id === tableId) render();
    } catch (e) { console.debug(`GET /api/tables/${tableId}/players`, e); }
  }, done ? 1200 : 0);
}

// ------------------------------------------------------------------ hint
// The card the computer would play in one's place ({"type": "hint"}, docs/protocol.md): asked for with the Hint
// button on one's turn in the card play, marked in the hand, its reason in words under the button. As the declarer
// the same button tells the computer's choice: pick up the skat or play a hand game, the two cards to put away
// (marked in the hand), the game to declare (marked in the chooser).
function askHint() {
  if (S.hint && S.hint.seq === state().seq) return;  // asked already at this point
  S.hint = { seq: state().seq, waiting: true };
  send({ type: "hint" });
  renderPanel();
}

/** @param {import("./protocol").HintMessage} msg */
function onHint(msg) {
  if (!S.state || msg.seq !== S.state.seq) return;  // the card was played meanwhile
  S.hint = { seq: msg.seq, card: msg.card, discard: msg.discard, contract: msg.contract, action: msg.action,
    why: msg.why || [], reason: msg.reason };
  renderPanel();
  renderHand();
}

function hintBox() {
  const hint = S.hint && S.hint.seq === state().seq ? S.hint : null;
  const v = state().view;
  const playing = !!v && v.phase === "play";
  const box = h("div", { cls: "hint-box" }, h("button", { id: "btn-hint", title: t(playing ? "hintTitle" : "hintTitleDeclarer"),
    onclick: askHint, "aria-busy": hint && hint.waiting ? "true" : null, disabled: !!hint, text: t("hint") }));
  if (hint && hint.waiting) box.append(h("p", { cls: "hint-reason muted", id: "hint-reason" }, t("hintThinking")));
  else if (hint) {
    const cards = hint.card ? [cardChip(hint.card), " — "] : hint.discard ? [...chips(hint.discard), " — "] : [];
    box.append(h("p", { cls: "hint-reason", id: "hint-reason" }, t("hintSays") + " ", ...cards,
      (hint.why || []).flatMap((part, i) => [i ? "; " : "", ...hintPart(part)])));
  }
  return box;
}

// One part of a hint's reason in the reader's language: {"key", ...values}; a card as a chip, counts in their plural.
/** @param {HintWhy} part @returns {(string | HTMLElement)[]} */
function hintPart(part) {
  /** @type {Record<string, string | number>} */
  const params = {};
  for (const k in part) if (k !== "key" && k !== "card" && k !== "contract") params[k] = /** @type {string | number} */ (part[/** @type {keyof HintWhy} */ (k)]);
  if (part.contract) params.contract = contractText(part.contract);
  if ("points" in params) params.n = params.points;
  const card = part.card;
  return t("hint_" + part.key, params).split(/(\{card\})/).filter(Boolean).map((x) => x === "{card}" && card ? cardChip(card) : x);
}

/** @param {Card} c */
function onCard(c) {
  const v = state().view;
  if (!v) return;
  if (v.phase === "discard" || v.phase === "push") {
    if (S.selected.has(c)) S.selected.delete(c);
    else if (S.selected.size < 2) S.selected.add(c);
    renderHand();
    renderPanel();
  } else if (v.phase === "play") {
    S.holdTrick = null;
    act(c);
  }
}

function renderSide() {
  const st = state();
  const v = st.view;
  const tot = st.table.totals;
  const sc = $("#scores");
  sc.innerHTML = "";
  const tbl = h("table", { cls: "list small" },
    h("tr", {}, h("th", {}, ""), h("th", {}, t("scoresClassic")), h("th", {}, t("scoresSF"))),
    st.table.seats.map((_, pos) => h("tr", { cls: pos === st.you.position ? "mine" : "" },
      h("td", {}, playerName(pos)), h("td", { cls: "num" }, tot.classic[pos]), h("td", { cls: "num" }, tot.seeger_fabian[pos]))));
  sc.append(tbl);
  const round = st.table.round;
  const up = st.table.upcoming;
  if (round && round !== "normal") sc.append(h("p", { cls: "round-badge round-" + round }, t("round_" + round)));
  if (up && v && v.phase === "finished" && up.round && up.round !== "normal") sc.append(h("p", { cls: "muted small" }, t("nextRound", { r: t("round_" + up.round) })));
  button("#btn-last").disabled = button("#bb-last").disabled = !(v && v.tricks.length);
  $("#btn-close").classList.toggle("hidden", st.you.role !== "player");
  const side = $("#side-actions");
  side.innerHTML = "";
  if (v) for (const a of v.side_actions) {
    if (a === "kontra" || a === "re") continue;  // said in the panel, where the eye is during the play
    // Claim, Concede (a defender gives the declarer the rest), Give up (the declarer gives the defenders the rest):
    // what each does, in its title and in the question before it
    const what = ["claim", "concede", "resign"].includes(a) ? t(a + "Hint") : "";
    side.append(h("button", { "data-action": a, title: what || null,
      onclick: () => confirmBox(t("confirmAction", { what: t(a) }) + (what ? " " + what + "." : ""), () => act(a)), text: t(a) }));
  }
  const log = $("#auction-log");
  log.innerHTML = "";
  if (v && v.auction.length) {
    log.append(h("h4", {}, t("bidding")));
    const ul = h("ol", { cls: "small", tabindex: "0", "aria-label": t("bidding") });  // it scrolls: reachable by keyboard
    // after three passes the further answers are to the Grand Hand offer (Ramsch when all pass)
    const allPassed = v.auction.length > 3 && v.auction.slice(0, 3).every((x) => x[1] === "pass");
    /** @param {string} w */
    const words = (w) => w === "hold" ? t("saysHold") : w === "pass" ? t("saysPass") : w.startsWith("declare ") ? actionLabel(w) : w;
    for (const [seat, w] of allPassed ? v.auction.slice(0, 3) : v.auction) ul.append(h("li", {}, t("says", { who: seatName(seat), what: words(w) })));
    log.append(ul);
    if (allPassed) {
      const gh = h("ol", { cls: "small" });
      for (const [seat, w] of v.auction.slice(3)) gh.append(h("li", {}, t("says", { who: seatName(seat), what: w === "pass" ? t("saysNoGrandHand") : words(w) })));
      log.append(h("h4", {}, t("allPassed")), gh);
    }
  }
}

// ------------------------------------------------------------------ dialogs
/** @param {string} kind @param {(Node | string)[]} content */
function openDialog(kind, ...content) {
  restoreMenu();
  S.dialog = kind;
  const d = $("#dialog");
  d.innerHTML = "";
  d.className = "dlg-" + kind;
  d.append(...content);
  const overlay = $("#overlay");
  const head = d.querySelector("h2, h3");  // the dialog's name: its heading, else its text
  overlay.removeAttribute("aria-labelledby");
  overlay.removeAttribute("aria-label");
  if (head) { head.id = "dialog-title"; overlay.setAttribute("aria-labelledby", "dialog-title"); }
  else overlay.setAttribute("aria-label", (d.textContent || kind).trim().slice(0, 80));
  overlay.classList.remove("hidden");
  const focusable = /** @type {HTMLButtonElement | null} */ (d.querySelector("button.primary") || d.querySelector("button"));
  if (focusable) focusable.focus({ preventScroll: true });  // a long dialog opens at its top
}

function closeDialog() {
  restoreMenu();
  S.dialog = null;
  $("#overlay").classList.add("hidden");
}

// The phone's menu: the side panel (scores, Last trick, Claim, Give up, Close, the bidding), the deck and the
// language, moved into the dialog while it is open (their handlers stay) and back when it closes.
function showMenu() {
  const lobby = !S.tableId;
  openDialog("menu", h("h2", {}, t("menu")));
  const d = $("#dialog");
  d.append(h("div", { cls: "menu-settings" }, $("#lbl-deck"), $("#lbl-lang")));
  d.append(h("nav", { cls: "menu-links", "aria-label": fill("account", "navLabel") },
    h("a", { href: "/leaderboard", text: fill("account", "leaderboard") }), accountLink()));
  if (!lobby && !$("#btn-invite").classList.contains("hidden")) d.append(h("div", { cls: "actions" }, h("button", { onclick: showInvite, text: t("invite") })));
  if (!lobby) d.append($("#side"));
  d.append(h("div", { cls: "actions" }, h("button", { cls: "primary", onclick: closeDialog, text: t("close") })));
}

function restoreMenu() {
  if (S.dialog !== "menu") return;
  const bar = $("#topbar");
  bar.append($("#lbl-deck"), $("#lbl-lang"));
  $("#bottombar").before($("#side"));
}

/** @param {string} text */
function alertBox(text) {
  openDialog("alert", h("p", {}, text), h("div", { cls: "actions" }, h("button", { cls: "primary", onclick: closeDialog, text: t("close") })));
}

/** @param {string} text @param {() => void} yes */
function confirmBox(text, yes) {
  openDialog("confirm", h("p", {}, text), h("div", { cls: "actions" },
    h("button", { cls: "primary", onclick: () => { closeDialog(); yes(); }, text: t("yes") }),
    h("button", { onclick: closeDialog, text: t("no") })));
}




function showResult() {
  const st = state();
  const v = st.view;
  if (!v || !v.result) return;
  const r = v.result;
  const parts = [];
  const tableId = st.table.id, dealNo = st.table.deal_no;
  if (r.kind === "passed_in") {
    parts.push(h("h2", {}, t("passedIn")));
    if (LANG === "en") parts.push(h("p", { cls: "muted small engine" }, r.explanation));
  } else if (r.ramsch) {
    parts.push(...ramschResult({ ...r, ramsch: r.ramsch }));
  } else if (!r.outcome) {
    parts.push(h("h2", {}, t("result")), h("p", { cls: "explain" }, r.explanation));
  } else {
    const o = r.outcome;
    const tournee = v.ruleset === "tournee";
    // what the sheet books, when a Bock round doubles it (or a game starting one counts double): said with why
    const booked = view.bookedText(st, S.sheet, /** @type {Seat} */ (r.declarer), o.score, WORDS);
    parts.push(h("h2", { cls: o.won ? "won" : "lost" }, youForm(t(o.won ? "resultTitle_won" : "resultTitle_lost", { who: seatName(/** @type {Seat} */ (r.declarer)) }))));
    parts.push(h("p", { cls: "explain" }, view.resultSentence(state(), r, WORDS, booked)));
    const facts = h("ul", { cls: "facts" },
      h("li", {}, gameText(v) + ", " + t("bidWas", { v: r.bid })),
      r.kontra_level ? h("li", {}, t(r.kontra_level === 2 ? "kontraRe" : "kontraSaid")) : "",
      !booked && (st.table.round === "bock" || st.table.round === "pirate_bock") ? h("li", {}, t("bockDoubles")) : "",
      r.declarer_points !== null ? h("li", {}, t("cardPoints", { d: r.declarer_points, o: r.defender_points })) : "",
      o.base_value ? h("li", {}, t("gameValue", { v: o.game_value, m: o.multiplier, b: o.base_value })) : "",
      o.overbid ? h("li", {}, t("overbid", { v: o.game_value, b: o.bid })) : "",
      h("li", { cls: "score-entry" }, h("b", {}, t("scoreEntry", { s: booked || (o.score > 0 ? "+" + o.score : o.score) }))));
    parts.push(facts);
    if (!tournee && LANG === "en") parts.push(h("p", { cls: "muted small engine" }, r.explanation));  // the sentence above says it in the reader's language
  }
  if (st.dealt) parts.push(dealtHands(st.dealt, r));  // every hand as dealt, and the skat (finished deals only)
  else parts.push(h("div", { cls: "cardrow" }, h("span", { cls: "muted" }, t("skatWas") + ": "), r.skat.map((c) => cardEl(c, { cls: "small" }))));
  if (r.discard) parts.push(h("div", { cls: "cardrow" }, h("span", { cls: "muted" }, t("putAway") + ": "), r.discard.map((c) => cardEl(c, { cls: "small" }))));
  // the cards still held when the deal ended early (a claim, a lost null); a deal passed in holds them all, shown above
  const left = Object.keys(v.open_hands).filter((seat) => v.open_hands[seat].length);
  if (left.length && st.dealt && r.kind !== "passed_in") {
    parts.push(h("div", { cls: "dealt left" }, h("p", { cls: "muted small" }, t("cardsLeft")), h("table", { cls: "dealt-hands" },
      left.map((seat) => cardsRow([seatName(+seat)], sortCards(v.open_hands[seat], +seat))))));
  } else if (!st.dealt) {
    for (const seat of left) parts.push(h("div", { cls: "cardrow" }, h("span", { cls: "muted" }, seatName(+seat) + ": "), sortCards(v.open_hands[seat], +seat).map((c) => cardEl(c, { cls: "small" }))));
  }
  const ready = st.you.position !== null && st.table.ready.includes(st.you.position);
  parts.push(h("div", { cls: "actions" },
    st.you.role === "player" && !ready && st.table.status !== "finished" && !st.stopped ? h("button", { cls: "primary", "data-action": "next", onclick: nextGame, text: t("nextGame") }) : "",
    r.contract ? h("button", { cls: "analyse", title: t("analyseHint"), onclick: () => openAnalysis(dealNo, "result"), text: t("analyse") }) : "",
    h("a", { cls: "replay-link", href: `/replay/${encodeURIComponent(tableId)}/${dealNo}`, text: fill("replay", "replayLink") }),  // step by step (docs/history.md)
    downloadLink(`/api/tables/${tableId}/games/${dealNo}.json`, t("downloadJson")),
    S.meta && S.meta.iss_records && (r.contract || r.kind === "passed_in") && v.ruleset !== "tournee" ? downloadLink(`/api/tables/${tableId}/games/${dealNo}.iss`, t("downloadIss"), "iss") : "",
    h("button", { onclick: showSheet, text: t("scoreSheet") }),
    h("button", { onclick: closeDialog, text: t("close") })));
  openDialog("result", ...parts);
}

// A row of small cards under a label (the hands as dealt, the cards left in the result dialog).
/** @param {import("./dom.js").Leaf[]} label @param {Card[]} cards @param {string} [cls] */
function cardsRow(label, cards, cls) {
  return h("tr", { cls }, h("th", {}, label), h("td", {}, h("div", { cls: "cardrow" }, cards.map((c) => cardEl(c, { cls: "small" })))));
}

// The three hands as they were dealt (state.dealt, sorted for the game played) with each seat's name and role, and
// the skat: sent to every seat and spectator once the deal is over, never before.
/** @param {{hands: Card[][], skat: Card[]}} dealt @param {Result} r */
function dealtHands(dealt, r) {
  const rows = dealt.hands.map((cards, seat) => {
    const role = [t(view.SEAT_KEYS[seat]), r.declarer === seat ? t("declarer") : ""].filter(Boolean).join(" · ");
    return cardsRow([seatName(seat), h("span", { cls: "muted small" }, role)], cards, r.declarer === seat ? "decl" : "");
  });
  rows.push(cardsRow([t("skatWas")], dealt.skat, "skat"));
  return h("div", { cls: "dealt" }, h("h3", {}, t("dealtHands")), h("table", { cls: "dealt-hands" }, rows));
}

// The result of a Ramsch: who lost (card points), Jungfrau, Durchmarsch, pushes, each seat's entry.
/** @param {Result & {ramsch: import("./protocol").RamschBlock}} r @returns {HTMLElement[]} */
function ramschResult(r) {
  const R = r.ramsch;
  /** @param {Seat[]} seats */
  const names = (seats) => seats.map((s) => seatName(s)).join(", ");
  const parts = [];
  if (R.durchmarsch !== null && R.durchmarsch !== undefined && /** @type {unknown} */ (R.durchmarsch) !== false) {
    parts.push(h("h2", { cls: "won" }, youForm(t("durchmarsch", { who: seatName(R.durchmarsch) }))));
  } else {
    const scores = R.losers.some((s) => r.scores[s] > 0);  // the historical Ramsch writes a plus for the lowest
    parts.push(h("h2", { cls: scores ? "won" : "lost" }, youForm(t(scores ? "ramschScores" : R.losers.length > 1 ? "ramschLosers" : "ramschLoser", { who: names(R.losers) }))));
  }
  // what the sheet books for each player (a Bock round doubles it), said with why under the table
  const row = view.sheetRowOf(state(), S.sheet);
  /** @param {number} s */
  const entry = (s) => row ? row.scores[seatPos(/** @type {Seat} */ (s))] : r.scores[s];
  const booked = /** @type {Seat[]} */ ([0, 1, 2]).map((s) => [s, view.bookedText(state(), S.sheet, s, r.scores[s], WORDS)])
    .filter(([, text]) => text);
  const rows = [0, 1, 2].map((s) => h("tr", { cls: R.losers.includes(s) ? "lost" : "" },
    h("td", {}, seatName(s)), h("td", { cls: "num" }, R.card_points[s]), h("td", { cls: "num" }, R.tricks[s]),
    h("td", {}, R.jungfrauen.includes(s) ? t("jungfrau") : ""),
    h("td", { cls: "num" }, (entry(s) > 0 ? "+" : "") + entry(s))));
  parts.push(h("table", { cls: "list small ramsch" },
    h("tr", {}, h("th", {}, ""), h("th", {}, t("cardPointsCol")), h("th", {}, t("tricksCol")), h("th", {}, ""), h("th", {}, t("scoreCol"))),
    rows));
  const why = view.ramschWhy(state(), R, WORDS);
  const facts = h("ul", { cls: "facts" },
    why ? h("li", { cls: "ramsch-why" }, why) : "",
    R.jungfrauen.length ? h("li", {}, t("jungfrauFact", { who: names(R.jungfrauen) })) : "",
    R.pushes ? h("li", {}, t("pushesFact", { n: R.pushes })) : "",
    R.multiplier > 1 ? h("li", {}, t("multiplierFact", { m: R.multiplier })) : "",
    booked.map(([s, text]) => h("li", { cls: "score-entry" }, h("b", {}, seatName(/** @type {Seat} */ (s)) + ": " + text))));
  if (facts.children.length) parts.push(facts);
  return parts;
}

function showLastTrick() {
  const v = S.state && S.state.view;
  if (!v || !v.tricks.length) return;
  const [leader, cards, winner] = v.tricks[v.tricks.length - 1];
  const row = h("div", { cls: "cardrow" });
  cards.forEach((c, i) => row.append(h("figure", {}, cardEl(c), h("figcaption", {}, seatName((leader + i) % 3)))));
  openDialog("last", h("h3", {}, t("lastTrick")), row, h("p", {}, wonBy(winner)),
    h("div", { cls: "actions" }, h("button", { cls: "primary", onclick: closeDialog, text: t("close") })));
}

/** Each player's line in the sheet's chart: a colour, a dash pattern and a marker of its own, so that lines that
 * run together (equal totals) stay apart by their look, not by colour alone. */
const CHART_STYLES = [
  { colour: "#1565c0", dash: "", marker: "circle" },
  { colour: "#c62828", dash: "8 4", marker: "square" },
  { colour: "#2e7d32", dash: "2 3", marker: "triangle" },
  { colour: "#ef6c00", dash: "10 3 2 3", marker: "diamond" },
  { colour: "#6a1b9a", dash: "5 2", marker: "cross" },
];

/** A marker's SVG at (x, y). */
/** @param {string} marker @param {number} x @param {number} y @param {string} colour @returns {string} */
function chartMarker(marker, x, y, colour) {
  const r = 3.4;
  const at = (/** @type {number[][]} */ pts) => pts.map(([dx, dy]) => `${(x + dx).toFixed(1)},${(y + dy).toFixed(1)}`).join(" ");
  if (marker === "square") return `<rect x="${(x - r).toFixed(1)}" y="${(y - r).toFixed(1)}" width="${2 * r}" height="${2 * r}" fill="${colour}"/>`;
  if (marker === "triangle") return `<polygon points="${at([[0, -r - 0.8], [r + 0.6, r], [-r - 0.6, r]])}" fill="${colour}"/>`;
  if (marker === "diamond") return `<polygon points="${at([[0, -r - 1], [r + 1, 0], [0, r + 1], [-r - 1, 0]])}" fill="${colour}"/>`;
  if (marker === "cross") return `<path d="M${at([[-r, -r]])} L${at([[r, r]])} M${at([[-r, r]])} L${at([[r, -r]])}" stroke="${colour}" stroke-width="2"/>`;
  return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${r}" fill="${colour}"/>`;
}

/** A legend's sample of a player's line: a short stretch in its dash pattern with its marker. */
/** @param {number} p @returns {HTMLElement} */
function swatch(p) {
  const st = CHART_STYLES[p % CHART_STYLES.length];
  const el = h("i", { cls: "line-swatch" });
  el.innerHTML = `<svg viewBox="0 0 28 12" width="28" height="12" aria-hidden="true"><line x1="1" x2="27" y1="6" y2="6" ` +
    `stroke="${st.colour}" stroke-width="2.5"${st.dash ? ` stroke-dasharray="${st.dash}"` : ""}/>${chartMarker(st.marker, 14, 6, st.colour)}</svg>`;
  return el;
}

/** @param {Sheet} sheet @param {"classic" | "seeger"} metric */
function sheetChart(sheet, metric) {
  const n = sheet.n_players;
  const rows = sheet.rows;
  /** @type {number[][]} */
  const series = [];
  for (let p = 0; p < n; p++) series.push([0, ...rows.map((r) => r[metric][p])]);
  const all = series.flat();
  const lo = Math.min(0, ...all), hi = Math.max(10, ...all);
  const W = 560, H = 200, pad = 30;
  /** @param {number} i */
  const x = (i) => pad + (W - 2 * pad) * (rows.length ? i / rows.length : 0);
  /** @param {number} val */
  const y = (val) => H - pad - (H - 2 * pad) * (val - lo) / (hi - lo || 1);
  /** Players with the same total at a point are drawn a few pixels apart, in seat order around the true height. */
  /** @param {number} p @param {number} i */
  const apart = (p, i) => {
    const same = series.map((_, q) => q).filter((q) => series[q][i] === series[p][i]);
    return same.length < 2 ? 0 : (same.indexOf(p) - (same.length - 1) / 2) * 3.5;
  };
  let svg = `<svg viewBox="0 0 ${W} ${H}" class="chart" role="img" aria-label="${t("chartTitle")}">`;
  svg += `<line x1="${pad}" x2="${W - pad}" y1="${y(0)}" y2="${y(0)}" stroke="#999" stroke-dasharray="4 3"/>`;
  svg += `<text x="4" y="${y(hi) + 4}" font-size="11">${hi}</text><text x="4" y="${y(lo) + 4}" font-size="11">${lo}</text>`;
  series.forEach((pts, p) => {
    const st = CHART_STYLES[p % CHART_STYLES.length];
    const d = pts.map((val, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${(y(val) + apart(p, i)).toFixed(1)}`).join(" ");
    svg += `<path d="${d}" fill="none" stroke="${st.colour}" stroke-width="2.5" data-player="${p}"` +
      `${st.dash ? ` stroke-dasharray="${st.dash}"` : ""}/>`;
    pts.forEach((val, i) => { svg += chartMarker(st.marker, x(i), y(val) + apart(p, i), st.colour); });
  });
  svg += "</svg>";
  const legend = h("div", { cls: "legend" }, Array.from({ length: n }, (_, p) => h("span", {}, swatch(p), playerName(p))));
  const box = h("div", {});
  box.innerHTML = svg;
  box.append(legend);
  return box;
}

// The Skatliste (docs/protocol.md, "sheet"): a row per game with the dealer, the declarer, the game, "with/without
// N", the marks (Hand, Schneider and Schwarz made and announced, Ouvert), the bid, Kontra/Re, the game value, the
// declarer's entry and every player's running total. On a phone the columns between the game number and the
// players fold into the game cell (the .sec cells hide, the .sum parts show: style.css); print shows them all.
function showSheet() {
  const sheet = S.sheet;
  if (!sheet) { send({ type: "sheet" }); return; }
  const n = sheet.n_players;
  const metric = S.sheetMetric;
  const names = Array.from({ length: n }, (_, p) => playerName(p));
  const used = new Map();  // the marks the sheet shows, for the legend
  const head = h("thead", {}, h("tr", {},
    h("th", { cls: "num", title: t("deal") }, "#"),
    h("th", { cls: "sec" }, t("colDealer")), h("th", { cls: "sec" }, t("colDeclarer")),
    h("th", {}, t("game")), h("th", { cls: "sec" }, t("colMatadors")), h("th", { cls: "sec" }, t("colMarks")),
    h("th", { cls: "sec num" }, t("colBid")), h("th", { cls: "sec", title: t("kontra") + "/" + t("re") }, "K/Re"),
    h("th", { cls: "sec num" }, t("colValue")), h("th", { cls: "sec num", title: t("colEntryHint") }, "+/−"),
    names.map((name) => h("th", { cls: "num player", title: name }, name))));
  let before = new Array(n).fill(0);
  const body = h("tbody", {}, sheet.rows.map((r) => {
    const entries = r[metric].map((x, p) => x - before[p]);
    before = r[metric];
    const d = r.declarer;
    const declared = d !== null;
    const marks = sheetMarks(r, used);
    const mats = matadorsText(r);
    const entry = declared ? signed(entries[d]) : "";
    const result = declared ? (r.won ? " won" : " lost") : "";
    const valueTitle = r.overbid ? t("overbid", { v: r.value, b: r.bid }) : null;
    const line2 = [declared && r.bid ? t("sheetBid", { v: r.bid }) : null, declared ? t("sheetValue", { v: r.value }) : null,
      declared ? h("b", { cls: result.trim() }, entry) : null, t("sheetDealer", { who: playerName(r.dealer) })].filter((x) => x !== null);
    const k = r.kontra ? kontraMark(r, used) : null;
    return h("tr", { cls: "deal-row" + (r.bock ? " bock" : "") + (r.round && r.round !== "normal" ? " round-" + r.round : "") },
      h("td", { cls: "num" }, r.deal_no, roundMarks(r, used)),
      h("td", { cls: "sec" }, playerName(r.dealer)),
      h("td", { cls: "sec" }, declared ? playerName(d) : ""),
      h("td", { cls: "game" },
        declared ? h("span", { cls: "sum" }, playerName(d) + ": ") : "", sheetGame(r),
        mats ? h("span", { cls: "sum" }, " " + mats) : "", marks.length ? h("span", { cls: "sum" }, " ", marks.map((m) => (m instanceof Node ? m.cloneNode(true) : m))) : "",
        declared ? [" ", h("button", { cls: "analyse small", "data-deal": r.deal_no, title: t("analyseHint"),
          onclick: () => analyseSheetRow(r.deal_no), text: t("analyse") })] : "",
        h("span", { cls: "sum line2" }, line2.flatMap((x, i) => [i ? " · " : "", x]), k ? [" ", k.cloneNode(true)] : "")),
      h("td", { cls: "sec mats" }, mats),
      h("td", { cls: "sec marks-col" }, marks),
      h("td", { cls: "sec num" }, declared && r.bid ? r.bid : ""),
      h("td", { cls: "sec" }, k || ""),
      h("td", { cls: "sec num" + (r.overbid ? " overbid" : ""), title: valueTitle }, declared ? r.value : ""),
      h("td", { cls: "sec num" + result }, entry),
      Array.from({ length: n }, (_, p) => {
        const own = entries[p];
        if (own === 0 && d !== p) return h("td", { cls: "num player muted" }, "·");
        const cls = "num player" + (d === p ? result : own < 0 ? " lost" : "");
        return h("td", { cls, title: signed(own) + " → " + r[metric][p] },
          d !== p ? h("small", { cls: "entry" }, signed(own)) : "", h("span", { cls: "total" }, r[metric][p]));
      }));
  }));
  /** @param {string} text @param {string} [cls] */
  const label = (text, cls) => [h("td", {}, ""), h("td", { cls: "sec " + (cls || ""), colspan: "9" }, text), h("td", { cls: "sum " + (cls || "") }, text)];
  const foot = h("tfoot", {},
    h("tr", { cls: "total" }, label(t("classic")), sheet.classic.map((x) => h("td", { cls: "num" }, x))),
    h("tr", { cls: "total" }, label(t("seeger")), sheet.seeger_fabian.map((x) => h("td", { cls: "num" }, x))),
    h("tr", {}, label(t("wonLost"), "muted"), sheet.won.map((w, p) => h("td", { cls: "num" }, w + " / " + sheet.lost[p]))));
  const toggle = h("div", { cls: "actions" },
    h("button", { cls: metric === "classic" ? "primary" : "", onclick: () => { S.sheetMetric = "classic"; showSheet(); }, text: t("classic") }),
    h("button", { cls: metric === "seeger" ? "primary" : "", onclick: () => { S.sheetMetric = "seeger"; showSheet(); }, text: t("seeger") }));
  const up = sheet.upcoming;
  const next = up && up.round && up.round !== "normal" ? h("p", { cls: "upcoming" }, t("nextRound", { r: t("round_" + up.round) }),
    up.queued && up.queued.length ? " " + t("queuedRounds", { list: up.queued.map((q) => t("round_" + q)).join(", ") }) : "") : "";
  const legend = used.size ? h("p", { cls: "marks-legend small muted" }, t("marksLegend"),
    [...used].sort((a, b) => markOrder(a[0]) - markOrder(b[0])).flatMap(([mark, title]) => [" ", h("b", {}, mark), " " + title])) : "";
  const when = new Date().toLocaleDateString(LANG);
  const tableName = S.state && S.state.table && view.tableName(S.state.table, WORDS);
  openDialog("sheet", h("h2", {}, t("sheetTitle"), h("span", { cls: "print-only" }, " · " + (tableName ? tableName + " · " : "") + when)),
    toggle, next,
    h("div", { cls: "sheet-scroll" }, h("table", { cls: "list sheet" }, head, body, foot)), legend,
    h("h3", {}, t("chartTitle")), sheetChart(sheet, metric),
    h("div", { cls: "actions" },
      downloadLink(`/api/tables/${S.tableId}/sheet.json`, t("downloadSheet")),
      downloadLink(`/api/tables/${S.tableId}/sheet.csv`, t("downloadSheetCsv")),
      h("button", { cls: "print", onclick: () => window.print(), text: t("print") }),
      h("button", { onclick: closeDialog, text: t("close") })));
}

/** @param {number} x */
function signed(x) { return (x > 0 ? "+" : "") + x; }

// A mark of the sheet (an abbreviation with its meaning as the title), noted for the legend.
/** @param {string} mark @param {string} title @param {string} cls @param {Map<string, string>} [used] */
function sheetMark(mark, title, cls, used) {
  if (used) used.set(mark, title);
  return h("abbr", { cls: "mark " + cls, title }, mark);
}

/** @param {string} mark */
function markOrder(mark) {
  const order = ["H", "S", "Sa", "Sw", "Swa", "O", t("markOverbid"), "K", "Re", "B", "R", "Sch"];
  return order.indexOf(mark) < 0 ? order.length : order.indexOf(mark);
}

/** @param {SheetRow} r @param {Map<string, string>} used */
function roundMarks(r, used) {
  const marks = h("span", { cls: "marks" });
  if (r.bock) marks.append(sheetMark("B", t("round_bock"), "bock", used));
  if (r.round === "ramsch" || r.round === "schieber") marks.append(sheetMark(r.round === "ramsch" ? "R" : "Sch", t("round_" + r.round), "ramsch", used));
  return marks.children.length ? marks : "";
}

/** @param {SheetRow} r @param {Map<string, string>} used */
function kontraMark(r, used) {
  return sheetMark(r.kontra === 2 ? "Re" : "K", t(r.kontra === 2 ? "re" : "kontra"), "kontra", used);
}

// Hand, Schneider or Schwarz made, Schneider or Schwarz announced, Ouvert, overbid: "H S Sa", "Swa O".
/** @param {SheetRow} r @param {Map<string, string>} used @returns {(HTMLElement | string)[]} */
function sheetMarks(r, used) {
  if (r.declarer === null) return [];
  /** @type {(HTMLElement | string)[]} */
  const out = [];
  /** @param {string} mark @param {string} title */
  const add = (mark, title) => { out.push(sheetMark(mark, title, "level", used)); out.push(" "); };
  if (r.hand) add("H", t("hand"));
  if (r.schwarz) add("Sw", t("schwarz")); else if (r.schneider) add("S", t("schneider"));
  if (r.schwarz_announced) add("Swa", t("announced_schwarz")); else if (r.schneider_announced) add("Sa", t("announced_schneider"));
  if (r.ouvert) add("O", t("ouvert"));
  if (r.overbid) add(t("markOverbid"), t("overbidWord"));
  out.pop();
  return out;
}

/** @param {SheetRow} r */
function matadorsText(r) {
  if (r.matadors === null || r.matadors === undefined) return "";
  return t(r.matadors_with ? "matadorsWith" : "matadorsWithout", { n: r.matadors }).replace(/ /g, "\u00a0");  // "with 2" on one line
}

// The game column: the game's name (a Tournee game's name), Ramsch, or passed in; Hand, Schneider... are marks.
/** @param {SheetRow} r */
function sheetGame(r) {
  if (r.declarer === null) return r.game === "ramsch" ? t("game_ramsch") : t("passedIn").split(":")[0];
  if (/_/.test(r.game)) return tourneeName(r.game);
  return r.value === undefined ? gameWords(r.contract || r.game) : gameWords(r.game);  // a row without marks: in words
}

/** @param {string} words */
function gameWords(words) {
  return contractText(contractOfWords(words));
}

// ------------------------------------------------------------------ analysis
// The double-dummy analysis of a finished deal (GET /api/tables/{id}/games/{n}/analysis, docs/analysis.md):
// the value at the first card against the result, the turning points, the card points each player gave
// away and a row per card.

// A card name as a small inline chip in the page's deck and language (rank and suit symbol).
/** @param {Card} name */
function cardChip(name) {
  const rank = rankIndex(name);
  const el = h("span", { cls: "cardchip", title: cardLabel(name), "aria-label": cardLabel(name), "data-card": name });
  el.style.color = suitColour(name);
  el.innerHTML = `<b>${rank}</b>${suitSvg(name[0], "pip")}`;
  return el;
}

/** @param {Card[]} names */
function chips(names) { return names.map((c) => cardChip(c)); }

// t() with elements for placeholders: returns the text split into strings and nodes.
/** @param {string} key @param {Record<string, Child>} [params] @returns {Child[]} */
function tNodes(key, params) {
  /** @type {Child[]} */
  const out = [];
  t(key).split(/(\{\w+\})/).forEach((part) => {
    const m = part.match(/^\{(\w+)\}$/);
    if (m && params && m[1] in params) out.push(params[m[1]]);
    else if (part) out.push(part);
  });
  return out;
}

/** @param {number} gameNo */
async function analyseSheetRow(gameNo) {
  // the sheet counts games; a redealt game keeps its number, so find the deal that wrote this row
  openAnalysis(null, "sheet");
  try {
    /** @type {import("./protocol").GameListing[]} */
    const games = (await api("GET", `/api/tables/${S.tableId}/games`)).games;
    const g = games.filter((x) => x.sheet_row && x.sheet_row.deal_no === gameNo).pop();
    if (!g) throw new Error(t("anaNoDeal", { n: gameNo }));
    openAnalysis(g.deal_no, "sheet");
  } catch (e) {
    if (S.analysis) S.analysis.error = messageOf(e);
    if (S.dialog === "analysis") renderAnalysis();
  }
}

/** @param {number | null} dealNo @param {string} from */
async function openAnalysis(dealNo, from) {
  /** @type {AnalysisAsk} */
  const ask = { dealNo, from, data: null, error: null };
  S.analysis = ask;
  renderAnalysis();
  if (dealNo === null) return;
  try {
    ask.data = await api("GET", `/api/tables/${S.tableId}/games/${dealNo}/analysis`);
  } catch (e) {
    ask.error = messageOf(e) || String(e);
  }
  if (S.analysis === ask && S.dialog === "analysis") renderAnalysis();
}

/** @param {Analysis} a @param {Seat | null | undefined} seat */
function anaName(a, seat) {
  if (seat === null || seat === undefined) return t("anaDefenders");
  const pos = a.positions ? a.positions[seat] : null;
  if (S.state && pos !== null && S.state.you.position === pos) return t("you");
  return (a.players && a.players[seat]) || t("seat", { n: seat + 1 });
}

/** @param {Analysis} a */
function goalText(a) {
  const g = a.goal;
  if (!g) return "";
  const what = g.kind === "points" ? t("goalPoints", { n: g.points }) : t("goal_" + g.kind);
  const r = g.reason || "";
  const why = !r ? "" : r.startsWith("Schneider announced") ? t("goalWhySchneider") : r.startsWith("ouvert") ? t("goalWhyOuvert")
    : r.startsWith("Schwarz announced") ? t("goalWhySchwarz") : r.startsWith("the bid") ? t("goalWhyBid", { b: a.bid })
    : r.startsWith("overbid") ? t("goalWhyOverbid", { b: a.bid }) : r;
  return why ? `${what} (${why})` : what;
}

// A value of the position: the declarer's final card points with best play, and won (✓) or lost (✗).
/** @param {number | null} points @param {boolean | null} wins */
function anaValue(points, wins) {
  if (wins === null || wins === undefined) return h("span", { cls: "v unknown", title: t("anaNotSolved") }, points === null || points === undefined ? "–" : points);
  const word = t(wins ? "anaWon" : "anaLost");
  return h("span", { cls: "v " + (wins ? "won" : "lost"), title: word }, points === null || points === undefined ? "" : points + " ", wins ? "✓" : "✗");
}

/** @param {number | null} points @param {boolean | null} wins @param {boolean} isNull */
function outcomeWords(points, wins, isNull) {
  const res = t(wins ? "anaWon" : "anaLost");
  if (isNull || points === null || points === undefined) return res;
  return t("anaPointsResult", { p: points, r: res });
}

/** @param {Analysis} a @param {import("./protocol").AnalysisEnding} e */
function endingWhat(a, e) {
  const k = "ending_" + e.kind;
  return t(k) === k ? e.description : t(k, { who: anaName(a, e.seat) });
}

function renderAnalysis() {
  const A = S.analysis;
  if (!A) return;
  /** @type {HTMLElement[]} */
  const parts = [h("h2", {}, A.dealNo === null ? t("analysisTitleShort") : t("analysisTitle", { n: A.dealNo }))];
  const back = A.from === "sheet" ? h("button", { onclick: showSheet, text: t("scoreSheet") })
    : A.from === "result" && S.state && S.state.view && S.state.view.result && S.state.table.deal_no === A.dealNo ? h("button", { onclick: showResult, text: t("result") }) : "";
  const actions = h("div", { cls: "actions" }, back, h("button", { cls: "primary", onclick: closeDialog, text: t("close") }));
  const a = A.data;
  if (A.error) {
    parts.push(h("p", { cls: "ana-error", role: "alert" }, t("analysisFailed", { msg: A.error })));
  } else if (!a) {
    parts.push(h("p", { cls: "ana-wait", role: "status" }, h("span", { cls: "thinking" }, t("analysing")), " ", h("span", { cls: "muted small" }, t("analysingWhat"))));
  } else if (a.skipped) {
    const key = a.actual.ended_by === "passed_in" ? "anaSkipPassedIn" : a.actual.ended_by === "ramsch" ? "anaSkipRamsch" : "";
    parts.push(h("p", { cls: "explain" }, key ? t(key) : a.skipped));
  } else {
    parts.push(...analysisBody(a));
  }
  parts.push(actions);
  const d = $("#dialog");
  const keep = S.dialog === "analysis" ? d.scrollTop : 0;
  openDialog("analysis", ...parts);
  d.scrollTop = keep;
}

/** @param {Analysis} a @returns {HTMLElement[]} */
function analysisBody(a) {
  const isNull = /^null/.test(a.contract || "");
  const decl = anaName(a, a.declarer);
  const out = [];
  // contract and result
  out.push(h("p", { cls: "explain" }, t("anaContract", { who: decl, contract: gameWords(a.contract || ""), b: a.bid, goal: goalText(a) })));
  const facts = h("ul", { cls: "facts" },
    h("li", {}, t("anaStart"), ": ", h("b", {}, a.start.declarer_wins === null ? t("anaNotSolved") : outcomeWords(a.start.declarer_points, a.start.declarer_wins, isNull))),
    h("li", {}, t("anaActual"), ": ", h("b", {}, a.actual.won === null ? "–" : outcomeWords(a.actual.declarer_points, a.actual.won, isNull)),
      a.actual.ended_by !== "played" && a.ending ? " — " + endingWhat(a, a.ending) : ""));
  out.push(facts);
  if (a.start.declarer_wins !== null && a.actual.won !== null) {
    const key = "verdict_" + (a.start.declarer_wins ? "won" : "lost") + "_" + (a.actual.won ? "won" : "lost");
    out.push(h("p", { cls: "verdict" }, t(key)));
  }
  // turning points, in words
  out.push(h("h3", {}, t("turningPoints")));
  const rows = a.cards;
  const turns = rows.filter((r) => r.turning_point);
  const list = h("ol", { cls: "turns" });
  for (const r of turns) {
    const best = r.best.length ? h("span", {}, ...chips(r.best)) : "?";
    const params = { trick: r.trick, who: h("b", {}, anaName(a, r.seat)), card: cardChip(r.card), best, goal: goalText(a) };
    list.append(h("li", {}, ...tNodes(r.role === "declarer" ? "tpDeclarer" : "tpDefender", params)));
  }
  const e = a.ending;
  if (e && e.turning_point) {
    list.append(h("li", {}, t("tpEnding", { n: e.after_cards, what: endingWhat(a, e), res: outcomeWords(e.points, e.wins, isNull) })));
  }
  out.push(list.children.length ? list : h("p", { cls: "muted" }, t("noTurningPoints")));
  // card points given away and turning points by player
  out.push(h("h3", {}, t(isNull ? "turnsBySeat" : "givenAway")));
  out.push(h("table", { cls: "list small ana-seats" },
    h("tr", {}, h("th", {}, ""), isNull ? "" : h("th", { cls: "num" }, t("givenAwayCol")), h("th", { cls: "num" }, t("turnsCol"))),
    [0, 1, 2].map((s) => h("tr", { cls: s === a.declarer ? "decl" : "" },
      h("td", {}, anaName(a, s), s === a.declarer ? h("span", { cls: "muted" }, " (" + t("declarer") + ")") : ""),
      isNull ? "" : h("td", { cls: "num" }, a.points_lost[s]),
      h("td", { cls: "num" }, a.turning_points_by_seat[s])))));
  if (!isNull) out.push(h("p", { cls: "muted small" }, t("givenAwayHelp")));
  // a row per card
  out.push(h("h3", {}, t("cardByCard")));
  const head = h("tr", {}, h("th", { cls: "num col-trick" }, t("trickCol")), h("th", {}, t("playerCol")), h("th", {}, t("cardCol")),
    h("th", {}, t("bestCol")), h("th", { cls: "col-before" }, t("beforeCol")), h("th", {}, t("afterCol")),
    isNull ? "" : h("th", { cls: "num" }, t("costCol")), h("th", {}, ""));
  const cols = isNull ? 7 : 8;
  const body = rows.flatMap((r) => {
    const best = r.legal.length === 1 ? h("span", { cls: "muted" }, t("onlyCard"))
      : !r.analysed ? "–" : r.best.length === r.legal.length ? h("span", { cls: "muted" }, t("anyCard")) : h("span", { cls: "bestcards" }, chips(r.best));
    // narrow screens show the trick as a row of its own instead of a column
    const trickRow = r.number % 3 === 1 ? h("tr", { cls: "trick-row" + (r.trick % 2 ? " odd" : "") }, h("td", { colspan: cols }, t("trickCol") + " " + r.trick)) : null;
    const row = h("tr", { cls: "card-row" + (r.trick % 2 ? " odd" : "") + (r.turning_point ? " turn" : "") + (r.number % 3 === 1 ? " lead" : ""), title: r.note || null },
      h("td", { cls: "num col-trick" }, r.number % 3 === 1 ? r.trick : ""),
      h("td", { cls: "who" + (r.role === "declarer" ? " decl" : "") }, anaName(a, r.seat)),
      h("td", {}, cardChip(r.card)),
      h("td", { cls: "best" }, best),
      h("td", { cls: "col-before" }, anaValue(r.points_before, r.wins_before)),
      h("td", {}, anaValue(r.points_after, r.wins_after)),
      isNull ? "" : h("td", { cls: "num" + (r.cost ? " cost" : " muted") }, r.cost === null ? "–" : r.cost),
      h("td", {}, r.turning_point ? h("b", { cls: "turn-mark", title: t("turningPoint") },
        h("span", { cls: "long" }, t("turnMark")), h("span", { cls: "short" }, "!")) : ""));
    return trickRow ? [trickRow, row] : [row];
  });
  out.push(h("div", { cls: "ana-scroll" }, h("table", { cls: "list small ana-cards" }, head, body)));
  const help = [t(isNull ? "anaHelpNull" : "anaHelp")];
  if (a.not_analysed.length) help.push(t("anaNotAnalysed", { n: a.not_analysed.length, s: a.time_limit }));
  out.push(h("p", { cls: "muted small" }, help.join(" ")));
  return out;
}

// The link to share: at a private table it carries the invite secret (#invite=...), which only its creator and
// those who opened it know; the server never sends it.
/** @param {boolean} inPanel */
function inviteBox(inPanel) {
  const url = inviteUrl();
  const text = h("p", {}, t(isPrivate() ? "inviteTextPrivate" : "inviteText"));
  if (!url) return h("div", { cls: "invite-box" }, h("p", {}, t("inviteNoSecret")));
  const input = h("input", { value: url, readonly: true, cls: "invite-url", "aria-label": t("inviteHeading"), spellcheck: "false" });
  input.addEventListener("focus", () => input.select());
  const copy = h("button", { cls: "primary copy-invite", text: t("copy"), onclick: async () => {
    input.select();
    try { await navigator.clipboard.writeText(url); } catch (e) { document.execCommand("copy"); }
    copy.textContent = t("copied");
  } });
  return h("div", { cls: "invite-box" }, inPanel ? h("h3", {}, t("inviteHeading")) : "", text, h("div", { cls: "invite-row" }, input, copy));
}

function showInvite() {
  const friendsPart = h("section", { id: "invite-friends" });
  openDialog("invite", h("h2", {}, t("inviteHeading")), inviteBox(false), friendsPart,
    h("div", { cls: "actions" }, h("button", { onclick: closeDialog, text: t("close") })));
  // a signed-in person at the table invites the people they follow with one click (docs/friends.md)
  if (S.state && S.state.you.role === "player" && S.tableId) {
    const tableId = S.tableId;
    loadFriends().then((data) => {
      if (data && S.dialog === "invite") friendsPart.replaceChildren(h("h3", {}, F("inviteTitle")), inviteList(data, tableId, S.invite));
    }).catch((e) => console.debug("GET /api/friends", e));
  }
}

// ------------------------------------------------------------------ friends in the lobby
/** The lobby's friends box (signed in: the people you follow and the invitations to you), asked again every 15 s. */
async function refreshFriends() {
  try {
    const data = await loadFriends();
    $("#friends-title").textContent = F("title");
    $("#friends-box").replaceChildren(...friendsBox(data, () => { void refreshFriends(); }));
    const invitations = invitationsBox(data, () => { void refreshFriends(); });
    $("#invitations-panel").replaceChildren(...invitations);
    $("#invitations-panel").classList.toggle("hidden", !invitations.length);
  } catch (e) { console.debug("GET /api/friends", e); }
}
setInterval(() => { if (!$("#lobby").classList.contains("hidden") && !document.hidden) void refreshFriends(); }, 15000);

// ------------------------------------------------------------------ keyboard
document.addEventListener("keydown", (ev) => {
  if (ev.target instanceof Element && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  if (ev.key === "Escape") { closeDialog(); return; }
  if (S.dialog || !S.state || !S.state.view) {
    if (ev.key.toLowerCase() === "n" && S.dialog === "result") nextGame();
    return;
  }
  const v = S.state.view;
  const key = ev.key.toLowerCase();
  const playable = [...document.querySelectorAll("#hand .card:not([disabled])")].filter((el) => el instanceof HTMLElement);
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    if (!playable.length) return;
    const cur = document.activeElement instanceof HTMLElement ? playable.indexOf(document.activeElement) : -1;
    const next = cur < 0 ? 0 : (cur + (ev.key === "ArrowRight" ? 1 : playable.length - 1)) % playable.length;
    playable[next].focus();
    ev.preventDefault();
  } else if (key === "l") showLastTrick();
  else if (key === "s") showSheet();
  else if (key === "n" && v.phase === "finished") nextGame();
  else if (v.phase === "bidding" && v.to_move === S.state.you.seat) {
    if (key === "p") act("pass");
    else if (key === "h" && v.legal_actions.includes("hold")) act("hold");
    else if (key === "b") { const b = v.legal_actions.find((x) => /^\d+$/.test(x)); if (b) act(b); }
  }
});

// ------------------------------------------------------------------ start
$("#btn-last").addEventListener("click", showLastTrick);
$("#btn-back").addEventListener("click", () => send({ type: "back" }));
$("#bb-last").addEventListener("click", showLastTrick);
$("#bb-sheet").addEventListener("click", showSheet);
$("#bb-menu").addEventListener("click", showMenu);
$("#btn-sheet").addEventListener("click", showSheet);
$("#btn-invite").addEventListener("click", showInvite);
$("#btn-close").addEventListener("click", () => confirmBox(t("closeConfirm"), async () => {
  try { await api("POST", `/api/tables/${S.tableId}/close`, { token: S.token }); } catch (e) { alertBox(messageOf(e)); }
}));
$("#overlay").addEventListener("click", (ev) => { if (ev.target instanceof Element && ev.target.id === "overlay") closeDialog(); });
const selLang = select("#sel-lang"), selDeck = select("#sel-deck");
selLang.value = LANG;
selDeck.value = DECK;
selLang.addEventListener("change", () => {
  setLang(selLang.value); applyStaticTexts(); render();
  if (tableChat) tableChat.build();
  if (lobbyChat) lobbyChat.redraw();
  if (!S.tableId) showLobby();
  if (S.dialog === "sheet") showSheet(); else if (S.dialog === "result") showResult(); else if (S.dialog === "analysis") renderAnalysis();
});
selDeck.addEventListener("change", () => {
  setDeck(selDeck.value); render();
  if (S.dialog === "result") showResult(); else if (S.dialog === "analysis") renderAnalysis();
});
window.addEventListener("beforeunload", () => { S.closing = true; });  // a page going away is no lost connection
applyStaticTexts();
setUpNotices();
route();
void loadReader();
