// The score keeper of a real table (docs/keeper-server.md): /keeper makes a list, /k/{id} shows one. With the
// list's key (kept in localStorage, handed over as /k/{id}#key=KEY) this phone enters the games in a few taps,
// each checked by the server (POST .../check: its value and explanation, or the reason it is impossible)
// before it is saved; without it the list is followed live over /ws/keeper/{id}. Changes go through a queue
// in localStorage: sent in order with their ids (the server ignores an id it has seen), kept while the
// connection is lost and sent when it is back; a refused one stays, with its reason, to be corrected.

import { $, $maybe, h } from "./dom.js";
import { t } from "./i18n.js";
import { blankForm, entryOf, fmtMoney, fmtNum, fmtPrice, formFromEntry, isRamschRound, seatsFor, signed } from "./keeper-entry.js";
import { CATALOGS, fill, LANG, setLang } from "./lang.js";
import { ApiError, api } from "./net.js";

/** @typedef {import("./protocol").KeeperState} KeeperState */
/** @typedef {import("./protocol").KeeperLine} KeeperLine */
/** @typedef {import("./protocol").KeeperEntry} KeeperEntry */
/** @typedef {import("./protocol").KeeperForm} KeeperForm */
/** @typedef {import("./protocol").KeeperRules} KeeperRules */
/** @typedef {import("./protocol").KeeperChange} KeeperChange */
/** @typedef {import("./protocol").KeeperResult} KeeperResult */
/** @typedef {import("./protocol").KeeperRefusal} KeeperRefusal */
/** @typedef {import("./protocol").KeeperStoredGame} KeeperStoredGame */
/** @typedef {import("./protocol").KeeperMeta} KeeperMeta */
/** @typedef {import("./protocol").Game} Game */
/** @typedef {import("./keeper-entry.js").EntryContext} EntryContext */
/** @typedef {import("./dom.js").Child} Child */
/** What became of a queued change: the server's result, or that it stays queued (offline) or was refused. */
/** @typedef {Omit<Partial<KeeperResult>, "error"> & {offline?: boolean, error?: string | null}} ChangeOutcome */
/** The value of the form's entry: still missing something, being checked, or the server's answer. */
/**
 * @typedef {{need?: string, checking?: boolean, offline?: boolean, ok?: boolean, line?: KeeperLine, entry?: KeeperEntry,
 *   message?: string | null, code?: string | null, params?: Record<string, string | number> | null}} Check
 */
/** A list this browser has opened ("My lists"). */
/** @typedef {{id: string, name: string, players: string[], played: number, keeper: boolean, at: number}} MyList */

/** A text of this page in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
const k = (key, params) => fill("keeper", key, params);

/** @type {Game[]} */
const GAMES = ["clubs", "spades", "hearts", "diamonds", "grand", "null"];
/** @type {Record<string, string>} */
const SYMBOL = { clubs: "♣", spades: "♠", hearts: "♥", diamonds: "♦" };
const RED = new Set(["hearts", "diamonds"]);
const KNOWN_RULESETS = ["isko2018", "old_pre1999", "pub", "pirate"];

/**
 * The page's state (window.K for the browser tests).
 * @type {{id: string | null, key: string | null, state: KeeperState | null, meta: (KeeperMeta & {ruleset_list?: unknown}) | null, online: boolean,
 *   socket: WebSocket | null, retry: number, retryTimer: ReturnType<typeof setTimeout> | undefined, form: KeeperForm,
 *   edit: number | null, correcting: string | null, check: Check | null, checkSeq: number,
 *   checkTimer: ReturnType<typeof setTimeout> | undefined, notice: [string, import("./text.js").Params] | null, flushing: boolean,
 *   direct: Map<string, (outcome: ChangeOutcome) => void>, dialog: number | null, strikeOpen: boolean, dialogMessage: string,
 *   keyProblem: string, notFound: boolean, ctxKey: string, returnFocus: HTMLElement | null, flushAgain?: boolean,
 *   flushTimer?: ReturnType<typeof setTimeout>, flushDelay?: number, noticeFor: string | null, heldState: KeeperState | null,
 *   sheetDrawn?: string}}
 */
const K = {
  id: null, key: null, state: null, meta: null, online: true, socket: null, retry: 0, retryTimer: undefined,
  form: blankForm(), edit: null, correcting: null, check: null, checkSeq: 0, checkTimer: undefined, notice: null,
  flushing: false, direct: new Map(), dialog: null, strikeOpen: false, dialogMessage: "", keyProblem: "",
  notFound: false, ctxKey: "", returnFocus: null, noticeFor: null, heldState: null,
};

// ------------------------------------------------------------------ what this browser keeps
const LS = {
  /** @template T @param {string} key @param {T} fallback @returns {T} */
  get(key, fallback) {
    try { const v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch { return fallback; }
  },
  /** @param {string} key @param {unknown} value */
  set(key, value) { localStorage.setItem(key, JSON.stringify(value)); },
  /** @param {string} key */
  drop(key) { localStorage.removeItem(key); },
};
/** @param {string} id */
const keyOf = (id) => localStorage.getItem("skat.keeper.key." + id);
/** @param {string} id @param {string} key */
const setKey = (id, key) => localStorage.setItem("skat.keeper.key." + id, key);
/** The changes of list `id` waiting in this browser. */
/** @param {string | null} id @returns {KeeperChange[]} */
const queueOf = (id) => (id ? LS.get("skat.keeper.queue." + id, /** @type {KeeperChange[]} */ ([])) : []);
/** @param {string | null} id @param {KeeperChange[]} q */
const setQueue = (id, q) => { if (id) { if (q.length) LS.set("skat.keeper.queue." + id, q); else LS.drop("skat.keeper.queue." + id); } };
/** The page's own element that `sel` finds, as an input, a select, a button. */
/** @param {string} sel */
const input = (sel) => $(sel, HTMLInputElement);
/** @param {string} sel */
const select = (sel) => $(sel, HTMLSelectElement);
/** An error's message (whatever was thrown), and its HTTP status (0: none came, the request failed). */
/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));
/** @param {unknown} e */
const statusOf = (e) => (e instanceof ApiError ? e.status : 0);
const author = () => localStorage.getItem("skat.keeper.author") || "";

/** Note a list in "My lists" (newest first). */
/** @param {KeeperState} st */
function remember(st) {
  const lists = LS.get("skat.keeper.lists", /** @type {MyList[]} */ ([])).filter((x) => x.id !== st.id);
  const players = (st.sheet && st.sheet.players) || (st.list && st.list.players) || [];
  lists.unshift({ id: st.id, name: st.name || "", players, played: st.sheet ? st.sheet.played : 0,
    keeper: Boolean(keyOf(st.id)), at: Date.now() });
  LS.set("skat.keeper.lists", lists.slice(0, 40));
}

function newId() {
  if (window.crypto && crypto.randomUUID) return "c-" + crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return "c-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function nowIso() { return new Date().toISOString().replace(/\.\d+Z$/, "+00:00"); }

// ------------------------------------------------------------------ words
/** @param {string | null | undefined} game */
function gameName(game) {
  if (!game) return "";
  const sym = SYMBOL[game];
  return (sym ? sym + "\u00a0" : "") + t("game_" + game);
}

/** The game of an entry in words: "♣ Clubs Hand Schneider announced", "Null Ouvert", "Ramsch", "Passed in". */
/** @param {KeeperEntry | null | undefined} e */
function gameText(e) {
  if (!e) return "";
  if (e.declarer === "passed") return k("passedIn");
  if (e.declarer === "ramsch") return t("game_ramsch");
  const words = [gameName(e.game)];
  if (e.ouvert) {
    if (e.game === "null" && e.hand) words.push(t("hand"));
    words.push(t("ouvert"));
  } else {
    if (e.hand) words.push(t("hand"));
    if (e.schwarz_announced) words.push(t("announced_schwarz"));
    else if (e.schneider_announced) words.push(t("announced_schneider"));
  }
  return words.join(" ");
}

/** @param {KeeperEntry | null | undefined} e */
function matText(e) {
  if (!e) return "";
  if (e.with) return t("matadorsWith", { n: e.with }).replace(/ /g, "\u00a0");
  if (e.without) return t("matadorsWithout", { n: e.without }).replace(/ /g, "\u00a0");
  return "";
}


/** A refusal in the page's language: its code's text where the page has one (de, ru), else the server's words. */
/** @param {KeeperRefusal | null | undefined} r */
function reasonText(r) {
  if (!r) return "";
  const key = r.code ? "refuse_" + r.code : "";
  const own = CATALOGS[LANG];
  if (LANG !== "en" && key && own && key in own.keeper) {
    /** @type {Record<string, string | number>} */
    const params = { ...(r.params || {}) };
    if (params.level) params.level = k("rk_made_" + params.level);
    return k(key, params);
  }
  return r.message || r.error || "";
}

/** A game's explanation in the page's language, from its reckoning (the server's words in English). */
/** @param {KeeperLine} line */
function reckonText(line) {
  const r = line.reckoning;
  // English: the server's words, but for an overbid game, said here as a player says it
  if (!r || (LANG === "en" && !r.overbid)) return line.explanation || "";
  const parts = [];
  if (r.kind === "passed") return k(r.redeal ? "rk_redeal" : "rk_passed");
  if (r.kind === "ramsch") {
    const entry = Object.entries(r.entry || {}).map(([n, v]) => n + " " + signed(v)).join(", ");
    if (r.durchmarsch && !r.losers.length) parts.push(k("rk_durchmarsch", { name: r.durchmarsch }));
    else if (!r.losers.length) parts.push(k("rk_nobody"));
    else {
      const most = Math.max(...Object.values(r.card_points));
      let s = k("rk_ramsch_most", { names: r.losers.join(" & "), points: most });
      const why = [];
      if (r.pushes) why.push(k("rk_pushes", { n: r.pushes }));
      if (r.jungfrauen.length) why.push(k("rk_jungfrau", { n: r.jungfrauen.length }));
      if (r.multiplier > 1) s += " × " + r.multiplier + (why.length ? " (" + why.join(", ") + ")" : "");
      parts.push(s + ": " + entry);
    }
  } else {
    let head;
    if (r.kind === "null") head = k("rk_null", { value: r.value });
    else {
      const levels = r.levels.map(([n, w]) => (w === "matadors" ? String(n) : n + " " + k("rk_level_" + w)));
      head = "(" + levels.join(" + ") + ") × " + r.base + " = " + r.value;
    }
    let how;
    const points = r.points !== null && r.points !== undefined;
    if (r.overbid) {
      // as a player says it: bid 36, the game worth 24, lost (the card points do not matter), and what it counts
      // (the next multiple of the base value that reaches the bid, docs/rules.md 4.4)
      how = k("rk_overbid", { bid: r.bid, value: r.value }) + (points ? " " + k("rk_points_overbid", { points: r.points }) : "");
      if (r.lost_at !== r.value && r.base) how += "; " + k("rk_overbid_counted", { n: r.lost_at / r.base, base: r.base, at: r.lost_at });
    } else {
      how = k(r.won ? "rk_won" : "rk_lost");
      if (points) how += " " + k("rk_points", { points: r.points });
    }
    if (r.made && r.made.length) how += ", " + r.made.map((m) => k("rk_made_" + m)).join(", ");
    if (r.missed) how += ", " + k("rk_missed_" + r.missed);
    let entry = r.won ? "+" + (r.overbid ? r.lost_at : r.value) : (r.factor > 1 ? "−" + r.factor + " × " : "−") + (r.overbid ? r.lost_at : r.value);
    if (r.kontra) entry += " × " + 2 ** r.kontra + " (" + k(r.kontra === 1 ? "rk_kontra" : "rk_kontra_re") + ")";
    if (entry !== signed(r.score)) entry += " = " + signed(r.score);
    if (r.revoke) parts.push(k("rk_revoke_" + r.revoke));
    parts.push(head + (r.overbid ? "; " : ", ") + how + ": " + entry);
    if (r.instead_of_ramsch) parts.push(k("rk_instead"));
  }
  if (r.round_doubled) parts.push(k("rk_bock_doubled"));
  if (r.trigger_doubled) parts.push(k("rk_trigger_doubled"));
  if (r.events && r.events.length) parts.push(k("rk_bock_due"));
  return parts.join("; ");
}

/** @param {string} name */
function ruleLabel(name) {
  const key = "rs_" + (name === "isko" ? "isko2018" : name);
  const label = t(key);
  return label === key ? name : label;
}

/** @returns {KeeperRules} */
function rules() { return (K.state && K.state.sheet && K.state.sheet.rules) || {}; }

/** The list's state: there is one whenever the list is drawn. */
function listState() {
  if (!K.state) throw new Error("no list yet");
  return K.state;
}


// ------------------------------------------------------------------ routing
function route() {
  const m = location.pathname.match(/^\/k\/([A-Za-z0-9_-]+)\/?$/);
  if (m) openList(m[1]);
  else showNew();
}

// ------------------------------------------------------------------ a new list
const NEW = { count: 3, names: ["", "", "", "", ""], first: 0, ruleset: "isko2018", error: "", touched: false };

function showNew() {
  $("#k-new").classList.remove("hidden");
  input("#k-author").value = author();
  renderNew();
  renderMine();
  api("GET", "/api/keeper/meta").then((meta) => {
    K.meta = meta;
    if (meta.default_ruleset && !NEW.touched) NEW.ruleset = meta.default_ruleset;
    renderRulesets();
  }).catch(() => renderRulesets());
  renderRulesets();
}

/** A rule set as the page offers it: its name, description and what it plays. */
/** @typedef {{name: string, description?: string, [about: string]: unknown}} RulesetInfo */

/** @returns {RulesetInfo[]} */
function metaRulesets() {
  /** @type {unknown} */
  const raw = K.meta && (K.meta.rulesets || K.meta.ruleset_list);
  /** @type {RulesetInfo[]} */
  let list = [];
  if (Array.isArray(raw)) list = raw.map((r) => (typeof r === "string" ? { name: r } : /** @type {RulesetInfo} */ (r)));
  else if (raw && typeof raw === "object") {
    list = Object.entries(raw).map(([name, r]) => ({ name, ...(r && typeof r === "object" ? r : { description: String(r) }) }));
  }
  if (!list.length) list = KNOWN_RULESETS.map((name) => ({ name }));
  return list.filter((r) => r && r.name);
}

/** What a rule set plays, as meta names it (flags, or the rule options themselves). */
/** @param {RulesetInfo} r */
function playsOf(r) {
  /** @param {unknown} x */
  const obj = (x) => (x && typeof x === "object" ? /** @type {Record<string, unknown>} */ (x) : {});
  /** @type {Record<string, unknown>} */
  const f = { ...obj(r.rules), ...obj(r.options), ...obj(r.plays), ...r };
  /** @param {unknown} v */
  const yes = (v) => v === true || (Array.isArray(v) && v.length > 0) || (typeof v === "string" && v !== "" && v !== "none");
  const out = [];
  if (yes(f.kontra)) out.push(k("ruleKontra"));
  if (yes(f.ramsch) || f.all_pass === "ramsch") out.push(k("ruleRamsch"));
  if (yes(f.schieberamsch)) out.push(k("ruleSchieber"));
  if (yes(f.bock) || yes(f.bock_triggers) || yes(f.bock_rounds)) out.push(k("ruleBock"));
  if (yes(f.pirate)) out.push(k("rulePirate"));
  return out;
}

function renderRulesets() {
  const sel = $("#k-ruleset");
  const list = metaRulesets();
  if (!list.some((r) => r.name === NEW.ruleset)) NEW.ruleset = list[0].name;
  sel.replaceChildren(...list.map((r) => h("option", { value: r.name, selected: r.name === NEW.ruleset }, ruleLabel(r.name))));
  const r = list.find((x) => x.name === NEW.ruleset) || { name: NEW.ruleset };
  const plays = playsOf(r);
  // the page's words for a rule set it knows; the server's (English) description only on an English page
  const about = "rsAbout_" + r.name in CATALOGS.en.keeper ? k("rsAbout_" + r.name) : LANG === "en" ? r.description || "" : "";
  $("#k-ruleset-about").textContent = [about, plays.length ? "(" + plays.join(", ") + ")" : ""].filter(Boolean).join(" ");
}

function renderNew() {
  $("#k-count").replaceChildren(...[3, 4, 5].map((n) => h("button", {
    type: "button", "aria-pressed": n === NEW.count ? "true" : "false", cls: "k-tog" + (n === NEW.count ? " on" : ""),
    "data-count": n, onclick: () => { NEW.count = n; NEW.first = Math.min(NEW.first, n - 1); renderNew(); $(`#k-count [data-count="${n}"]`).focus(); },
  }, k("nPlayers", { n }))));
  const box = $("#k-names");
  const have = box.querySelectorAll("input").length;
  if (have !== NEW.count) {
    box.replaceChildren(...Array.from({ length: NEW.count }, (_, i) => h("label", { cls: "k-row" },
      h("span", {}, k("playerN", { n: i + 1 })),
      h("input", { id: "k-p" + i, value: NEW.names[i], maxlength: "40", autocomplete: "off", autocapitalize: "words", enterkeyhint: "next" }))));
    box.querySelectorAll("input").forEach((input, i) => input.addEventListener("input", () => { NEW.names[i] = input.value; renderFirst(); }));
  } else {
    box.querySelectorAll("label > span").forEach((span, i) => { span.textContent = k("playerN", { n: i + 1 }); });
  }
  renderFirst();
  const err = $("#k-new-error");
  err.textContent = NEW.error;
  err.classList.toggle("hidden", !NEW.error);
}

function renderFirst() {
  $("#k-first").replaceChildren(...Array.from({ length: NEW.count }, (_, i) =>
    h("option", { value: String(i), selected: i === NEW.first }, NEW.names[i].trim() || k("playerN", { n: i + 1 }))));
}

/** @param {Event} ev */
async function createList(ev) {
  ev.preventDefault();
  const names = NEW.names.slice(0, NEW.count).map((s) => s.trim());
  if (names.some((n) => !n) || new Set(names).size !== names.length) {
    NEW.error = k("namesDiffer");
    renderNew();
    return;
  }
  /** @type {Record<string, unknown>} */
  const body = { players: names, ruleset: NEW.ruleset, first_dealer: names[NEW.first] };
  const price = input("#k-price").value.trim().replace(",", ".");
  if (price) body.price = price;
  if (select("#k-settle").value === "pairwise") body.settle = "pairwise";
  const name = input("#k-name").value.trim();
  if (name) body.name = name;
  const who = input("#k-author").value.trim();
  if (who) localStorage.setItem("skat.keeper.author", who);
  const button = $("#k-create", HTMLButtonElement);
  button.disabled = true;
  button.textContent = k("creating");
  try {
    /** @type {KeeperState & {key: string}} */
    const res = await api("POST", "/api/keeper", body);
    setKey(res.id, res.key);
    remember(res);
    location.assign(res.url || "/k/" + res.id);
  } catch (e) {
    NEW.error = statusOf(e) ? messageOf(e) : k("error", { m: messageOf(e) });
    button.disabled = false;
    button.textContent = k("create");
    renderNew();
  }
}

function renderMine() {
  const lists = LS.get("skat.keeper.lists", /** @type {MyList[]} */ ([]));
  const ul = $("#k-my-lists");
  if (!lists.length) { ul.replaceChildren(h("li", { cls: "muted" }, k("noLists"))); return; }
  ul.replaceChildren(...lists.map((x) => {
    const title = x.name || x.players.join(", ");
    return h("li", {},
      h("a", { href: "/k/" + x.id }, h("b", {}, title), x.name ? h("span", { cls: "muted small" }, " " + x.players.join(", ")) : ""),
      h("span", { cls: "muted small" }, " · " + k("gamesCount", { n: x.played || 0 }) + " · " + k(keyOf(x.id) ? "keeping" : "following")),
      " ", h("button", { type: "button", cls: "small", "aria-label": k("forgetName", { name: title }), onclick: () => {
        LS.set("skat.keeper.lists", LS.get("skat.keeper.lists", /** @type {MyList[]} */ ([])).filter((y) => y.id !== x.id));
        renderMine();
      } }, k("forget")));
  }));
}

// ------------------------------------------------------------------ one list
/** @param {string} id */
async function openList(id) {
  K.id = id;
  const m = location.hash.match(/[#&]key=([^&]+)/);
  if (m) {
    setKey(id, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  K.key = keyOf(id);
  K.form = blankForm();
  $("#k-list").classList.remove("hidden");
  document.body.classList.toggle("k-keeper", Boolean(K.key));
  const cached = LS.get("skat.keeper.state." + id, /** @type {KeeperState | null} */ (null));
  if (cached) applyState(cached, true);
  try {
    applyState(await api("GET", `/api/keeper/${id}`));
  } catch (e) {
    if (statusOf(e) === 404) { showNotFound(); return; }
    if (!statusOf(e)) setOnline(false);
    renderAll();
  }
  connect();
  flush();
}

function showNotFound() {
  K.notFound = true;
  if (K.socket) { const ws = K.socket; K.socket = null; ws.close(); }
  $("#k-loading").textContent = k("noSuchList");
  $("#k-loading").classList.add("k-problem");
  ["#k-next", "#k-entry", "#k-sheet-box", "#k-share"].forEach((s) => $(s).classList.add("hidden"));
}

/** A list's state from the server (GET, a change's answer, the WebSocket): shown unless older than the one we have. */
/** @param {KeeperState | null | undefined} st @param {boolean} [cached] */
function applyState(st, cached) {
  if (!st || !st.sheet) return;
  if (K.state && typeof st.seq === "number" && st.seq < K.state.seq) return;
  K.state = st;
  if (!cached) {
    try { LS.set("skat.keeper.state." + K.id, { id: st.id, seq: st.seq, name: st.name, list: st.list, sheet: st.sheet, tournament: st.tournament }); } catch { /* full */ }
    remember(st);
  }
  renderAll();
}

function renderAll() {
  if (K.notFound) return;
  renderBanner();
  if (!K.state) return;
  $("#k-loading").classList.add("hidden");
  const st = K.state;
  const name = st.tournament ? k("tournamentTable", { series: st.tournament.series, table: st.tournament.table })
    : st.name || "";
  $("#k-list-name").textContent = name;
  document.title = (name ? name + " · " : "") + k("pageTitle");
  renderNext();
  // the form is rebuilt when what it offers changed (the next dealer, the round), never under the keeper's typing
  const next = upcoming(K.correcting);
  const key = [next.dealer, next.number, st.sheet.upcoming_round, st.sheet.games.length, K.edit, K.correcting, LANG].join("|");
  if (K.key && (key !== K.ctxKey || !$("#k-entry").childElementCount)) { K.ctxKey = key; renderEntry(); scheduleCheck(); }
  $("#k-entry").classList.toggle("hidden", !K.key);
  renderSheet();
  renderShare();
  if (K.dialog) renderDialog();
}

// ------------------------------------------------------------------ the connection
function connect() {
  if (K.socket || K.notFound || !K.id) return;
  clearTimeout(K.retryTimer);
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/keeper/${K.id}`);
  K.socket = ws;
  ws.onopen = () => { if (K.socket !== ws) return; K.retry = 0; setOnline(true); flush(); };
  ws.onmessage = (ev) => {
    if (K.socket !== ws) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    // while changes are being sent, their answer brings the state (the queue emptied with it): a state that
    // came first would count the sent games twice, once in the list and once as waiting
    if (msg.type === "list") { if (K.flushing) K.heldState = msg; else applyState(msg); }
    else if (msg.type === "error" && (msg.code || msg.error) === "no_list") showNotFound();
  };
  ws.onclose = () => {
    if (K.socket !== ws) return;
    K.socket = null;
    setOnline(false);
    reconnectLater();
  };
}

function reconnectLater() {
  if (K.notFound) return;
  clearTimeout(K.retryTimer);
  K.retry = Math.min(K.retry + 1, 6);
  K.retryTimer = setTimeout(connect, 500 * K.retry);
}

/** @param {boolean} on */
function setOnline(on) {
  if (K.online === on) return;
  K.online = on;
  renderBanner();
}

function renderBanner() {
  const b = $("#k-banner");
  const waiting = K.id ? queueOf(K.id).filter((c) => !c.error).length : 0;
  let text = "";
  if (K.keyProblem) text = k("badKey", { m: K.keyProblem });
  else if (!K.online && K.id) text = K.key ? k("offline") : k("offlineFollow");
  if (waiting && K.key) text = (text ? text + " " : "") + k("sending", { n: waiting }) + ".";
  b.textContent = text;
  b.classList.toggle("hidden", !text);
  b.classList.toggle("k-offline", !K.online);
}

window.addEventListener("offline", () => {
  setOnline(false);
  if (K.socket) { const ws = K.socket; K.socket = null; ws.close(); reconnectLater(); }
});
window.addEventListener("online", () => { K.retry = 0; connect(); flush(); });
setInterval(() => { if (K.socket && K.socket.readyState === WebSocket.OPEN) K.socket.send(JSON.stringify({ type: "ping" })); }, 25000);

// ------------------------------------------------------------------ sending changes
/** A change as the server takes it (without what the page noted on it). */
/** @param {KeeperChange} c */
function wire(c) {
  /** @type {KeeperChange} */
  const out = { id: c.id, op: c.op, author: c.author, at: c.at };
  if (c.entry) out.entry = c.entry;
  if (c.number) out.number = c.number;
  if (c.reason) out.reason = c.reason;
  return out;
}

/** Queue a change and send the queue; `done(result)` hears of it (`{offline: true}` when it stays queued). */
/** @param {KeeperChange} change @param {(outcome: ChangeOutcome) => void} [done] */
function submit(change, done) {
  const q = queueOf(K.id).filter((c) => c.id !== change.id);
  q.push(change);
  setQueue(K.id, q);
  if (done) K.direct.set(change.id, done);
  flush();
}

/** Send the waiting changes (not the refused ones) in order, one request at a time. */
async function flush() {
  if (!K.key || !K.id) return;
  if (K.flushing) { K.flushAgain = true; return; }  // asked again while a request is out: once more after it
  clearTimeout(K.flushTimer);
  const q = queueOf(K.id).filter((c) => !c.error);
  if (!q.length) return;
  K.flushing = true;
  K.flushAgain = false;
  /** @type {(KeeperState & {results?: KeeperResult[]}) | null} */
  let res = null;
  /** @type {{status: number, message: string} | null} */
  let failure = null;
  try {
    if (navigator.onLine === false) throw new TypeError("offline");
    res = await api("POST", `/api/keeper/${K.id}/changes`, { changes: q.slice(0, 200).map(wire) }, { "X-Keeper-Key": K.key });
  } catch (e) {
    failure = { status: statusOf(e), message: messageOf(e) };
  }
  K.flushing = false;
  const held = K.heldState;
  K.heldState = null;
  if (failure || !res) {
    if (held) applyState(held);
    failure = failure || { status: 0, message: "" };
    const message = failure.message;
    // kept; tried again when the connection is back, when asked meanwhile, and every little while
    K.flushDelay = Math.min((K.flushDelay || 2500) * 2, 30000);
    K.flushTimer = setTimeout(flush, K.flushAgain ? 0 : K.flushDelay);
    K.flushAgain = false;
    if (failure.status === 403) K.keyProblem = failure.message;
    else if (failure.status && failure.status < 500) {
      // the request itself was refused (400, 413): every change of it is kept with the reason, for correction
      const sent = new Set(q.map((c) => c.id));
      setQueue(K.id, queueOf(K.id).map((c) => (sent.has(c.id) ? { ...c, error: message } : c)));
    } else setOnline(false);
    for (const c of q) {
      const done = K.direct.get(c.id);
      if (done) { K.direct.delete(c.id); done({ offline: !failure.status, error: failure.status ? message : "" }); }
    }
    renderAll();
    return;
  }
  K.keyProblem = "";
  K.flushDelay = 0;
  const results = new Map((res.results || []).map((r) => [r.id, r]));
  /** @type {[(outcome: ChangeOutcome) => void, KeeperResult][]} */
  const heard = [];
  const left = [];
  for (const c of queueOf(K.id)) {
    const r = results.get(c.id);
    if (!r) { left.push(c); continue; }
    const done = K.direct.get(c.id);
    if (done) { K.direct.delete(c.id); heard.push([done, r]); }
    if (r.ok) continue;
    if (done) continue;  // refused while the keeper looks: the form (or the dialog) shows why and keeps it
    left.push({ ...c, error: reasonText(r) || k("refusedNoReason") });
  }
  setQueue(K.id, left);
  applyState(res);
  if (held) applyState(held);
  // "kept on this phone, sent when the connection is back": now the server has it
  const noted = K.noticeFor ? results.get(K.noticeFor) : undefined;
  if (noted) {
    K.noticeFor = null;
    K.notice = noted.ok ? ["saved", { n: noted.number ?? "" }] : null;
    renderPreview();
  }
  for (const [done, r] of heard) done(r);
  renderAll();
  if (K.flushAgain || queueOf(K.id).some((c) => !c.error)) { K.flushAgain = false; flush(); }
}

// ------------------------------------------------------------------ the entry form


/** What the next entry (or the edited one) is about: its number, dealer, the three who play, the round. */
/** @returns {EntryContext} */
function ctx() {
  const sh = listState().sheet;
  const players = sh.players;
  if (K.edit) {
    const line = sh.games[K.edit - 1];
    return { number: K.edit, dealer: line ? line.dealer : "", seats: (line && line.seats) || players.slice(0, 3),
      round: (line && line.round) || "normal", players };
  }
  return upcoming(K.correcting);
}

/** The next game as this browser sees it: the server's next game moved on by the games waiting here (entered
 * offline, or being sent; not a refused one), each dealt by the next player (a deal all passed under "redeal" by
 * the same one); `upto` stops before a waiting change (the one being corrected takes its place). The round is the
 * server's. */
/** @param {string | null} [upto] @returns {EntryContext} */
function upcoming(upto) {
  const sh = listState().sheet;
  const players = sh.players;
  const redeal = rules().all_pass === "redeal";
  let number = sh.games.length + 1;
  let d = Math.max(0, players.indexOf(sh.next_dealer));
  for (const c of queueOf(K.id)) {
    if (c.id === upto) break;
    if (c.op !== "add" || c.error) continue;  // a refused one waits for its correction: the server goes on without it
    number += 1;
    if (!(redeal && c.entry && c.entry.declarer === "passed")) d = (d + 1) % players.length;
  }
  return { number, dealer: players[d], seats: seatsFor(d, players.length).map((i) => players[i]),
    round: sh.upcoming_round || "normal", players };
}


const CARD_SUITS = /** @type {const} */ (["C", "S", "H", "D"]);
const CARD_RANKS = ["J", "A", "T", "K", "Q", "9", "8", "7"];
const SUIT_OF = /** @type {const} */ ({ C: "clubs", S: "spades", H: "hearts", D: "diamonds" });

/** The declarer's 12 cards (hand and skat), tapped in a grid of the 32: the server counts the matadors. */
/** @param {KeeperForm} f */
function cardPicker(f) {
  /** @param {string} r */
  const rank = (r) => (r === "T" ? "10" : /\d/.test(r) ? r : k("rank_" + r));
  const rows = CARD_SUITS.map((su) => h("div", { cls: "k-card-row" },
    h("span", { cls: "k-card-suit" + (RED.has(SUIT_OF[su]) ? " red" : ""), "aria-hidden": "true" }, SYMBOL[SUIT_OF[su]]),
    CARD_RANKS.map((r) => {
      const card = su + r;
      const on = f.cards.includes(card);
      return tog(rank(r), on, () => change((x) => {
        x.cards = on ? x.cards.filter((c) => c !== card) : x.cards.length < 12 ? [...x.cards, card] : x.cards;
      }), { f: "card-" + card, cls: "k-card" + (RED.has(SUIT_OF[su]) ? " red" : ""), label: gameName(SUIT_OF[su]) + " " + rank(r) });
    })));
  return h("div", { cls: "k-cards" }, h("p", { cls: "muted small", "aria-live": "polite" }, k("cardsCount", { n: f.cards.length })), rows);
}


/** A toggle button of the form. */
/** @param {Child} label @param {boolean} on @param {() => void} onTap @param {{cls?: string, f?: string, label?: string}} [attrs] */
function tog(label, on, onTap, attrs) {
  return h("button", { type: "button", cls: "k-tog" + (on ? " on" : "") + (attrs && attrs.cls ? " " + attrs.cls : ""),
    "aria-pressed": on ? "true" : "false", "data-f": attrs && attrs.f, "aria-label": attrs && attrs.label,
    onclick: onTap }, label);
}

/** @param {string} id @param {string} title @param {Child[]} children */
function group(id, title, ...children) {
  return h("div", { cls: "k-group", role: "group", "aria-labelledby": id }, h("h3", { id, cls: "k-gtitle" }, title), ...children);
}

/** Change the form, rebuild it and keep the focus where it was; then value it again. */
/** @param {(form: KeeperForm) => void} fn */
function change(fn) {
  fn(K.form);
  K.notice = null;
  K.noticeFor = null;
  renderEntry();
  scheduleCheck();
}

function renderEntry() {
  const box = $("#k-entry");
  if (!K.key || !K.state) { box.replaceChildren(); return; }
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const focusKey = active && box.contains(active) ? active.dataset.f : null;
  const caret = focusKey && active instanceof HTMLInputElement ? [active.selectionStart, active.selectionEnd] : null;
  const f = K.form;
  const c = ctx();
  const r = rules();
  const sh = K.state.sheet;
  const full = !K.edit && sh.limit && sh.played >= sh.limit;
  const title = K.correcting ? k("correctGame") : K.edit ? k("editGame", { n: K.edit }) : k("enterGame", { n: c.number });
  const ramschRound = isRamschRound(c.round);
  const passedOk = r.all_pass !== "ramsch" && !ramschRound;
  const ramschOk = r.all_pass === "ramsch" || ramschRound;
  const declarersOk = !ramschRound || r.ramsch_grand_hand;
  /** @type {HTMLElement[]} */
  const parts = [h("h2", { id: "k-entry-title", tabindex: "-1" }, title)];
  if (full) parts.push(h("p", { cls: "k-note" }, k("listFull", { n: sh.limit })));

  // who declared (the three who play this deal, in seat order), or passed in / Ramsch
  const seatWord = ["forehand", "middlehand", "rearhand"];
  /** @type {HTMLButtonElement[]} */
  const who = [];
  if (declarersOk) {
    c.seats.forEach((name, i) => who.push(tog([h("span", { cls: "k-name" }, name), h("small", {}, t(seatWord[i]))],
      f.kind === "game" && f.declarer === name, () => change((x) => {
        x.kind = "game"; x.declarer = name;
        if (ramschRound) { x.game = "grand"; x.hand = true; }
      }), { f: "decl-" + i, cls: "k-decl" })));
  }
  const special = [];
  if (passedOk) special.push(tog(k("passedIn"), f.kind === "passed", () => change((x) => { x.kind = "passed"; x.declarer = null; }), { f: "passed", cls: "k-special" }));
  if (ramschOk) special.push(tog(t("game_ramsch"), f.kind === "ramsch", () => change((x) => { x.kind = "ramsch"; x.declarer = null; }), { f: "ramsch", cls: "k-special" }));
  parts.push(group("k-g-decl", k("declarer"),
    ramschRound && declarersOk ? h("p", { cls: "muted small" }, k("grandHandOnly")) : "",
    h("div", { cls: "k-buttons k-decls k-n" + who.length }, who), special.length ? h("div", { cls: "k-buttons k-specials" }, special) : ""));

  if (f.kind === "game") parts.push(...gameParts(f, r, ramschRound));
  if (f.kind === "ramsch") parts.push(...ramschParts(f, r, c));
  if (f.kind) {
    parts.push(h("details", { cls: "k-more", open: f.more || undefined },
      h("summary", { "data-f": "more" }, k("more")),
      f.kind === "game" ? group("k-g-revoke", k("revoke"), h("div", { cls: "k-buttons" },
        /** @type {[KeeperForm["revoke"], string][]} */ ([[null, "revokeNone"], ["declarer", "revokeDeclarer"], ["defenders", "revokeDefenders"]]).map(([v, label]) =>
          tog(k(label), f.revoke === v, () => change((x) => { x.revoke = v; x.more = true; }), { f: "revoke-" + (v || "none") })))) : "",
      h("label", { cls: "k-row k-note-row" }, h("span", {}, k("note")),
        h("input", { id: "k-note", "data-f": "note", value: f.note, maxlength: "200", autocomplete: "off" }))));
  }
  parts.push(h("div", { id: "k-preview", cls: "k-preview", "aria-live": "polite" }));
  const actions = [h("button", { type: "button", id: "k-save", cls: "primary k-big", "data-f": "save", onclick: save },
    K.edit ? k("saveEdit") : k("save"))];
  if (K.edit || K.correcting) actions.push(h("button", { type: "button", id: "k-cancel", "data-f": "cancel", onclick: resetForm }, k("cancel")));
  else if (f.kind) actions.push(h("button", { type: "button", id: "k-clear", "data-f": "clear", onclick: resetForm }, k("clear")));
  parts.push(h("div", { cls: "k-actions" }, actions));
  box.replaceChildren(...parts);
  box.classList.toggle("k-editing", Boolean(K.edit || K.correcting));

  // the typed fields change the form without rebuilding it (the phone's keyboard stays)
  const note = $maybe("#k-note", HTMLInputElement);
  if (note) note.addEventListener("input", () => { K.form.note = note.value; scheduleCheck(); });
  const details = box.querySelector("details.k-more");
  if (details instanceof HTMLDetailsElement) details.addEventListener("toggle", () => { K.form.more = details.open; });
  const points = $maybe("#k-points", HTMLInputElement);
  if (points) points.addEventListener("input", () => {
    K.form.points = points.value.replace(/[^\d]/g, "");
    if (points.value !== K.form.points) points.value = K.form.points;
    if (K.form.points) { K.form.result = null; K.form.schneider = false; }
    box.querySelectorAll(".k-result button").forEach((b) => { b.classList.remove("on"); b.setAttribute("aria-pressed", "false"); });
    const sn = $maybe("#k-schneider-made");
    if (sn) sn.classList.toggle("hidden", Boolean(K.form.points));
    scheduleCheck();
  });
  const bid = $maybe("#k-bid", HTMLSelectElement);
  if (bid) bid.addEventListener("change", () => { K.form.bid = Number(bid.value); scheduleCheck(); });
  box.querySelectorAll("input.k-ramsch-points").forEach((el) => el instanceof HTMLInputElement && el.addEventListener("input", () => {
    const v = el.value.replace(/[^\d]/g, "");
    if (v !== el.value) el.value = v;
    K.form.ramsch[el.dataset.name || ""] = v;
    renderRamschSum();
    scheduleCheck();
  }));
  renderRamschSum();
  renderPreview();
  if (focusKey) {
    const el = box.querySelector(`[data-f="${focusKey}"]`);
    if (el instanceof HTMLElement) {
      el.focus({ preventScroll: true });
      if (caret && el instanceof HTMLInputElement) try { el.setSelectionRange(caret[0], caret[1]); } catch { /* not a text field */ }
    }
  }
}

/** @param {KeeperForm} f @param {KeeperRules} r @param {boolean} ramschRound @returns {HTMLElement[]} */
function gameParts(f, r, ramschRound) {
  /** @type {HTMLElement[]} */
  const parts = [];
  const isNull = f.game === "null";
  parts.push(group("k-g-game", k("game"), h("div", { cls: "k-buttons k-games" }, GAMES.map((g) => {
    const locked = ramschRound && g !== "grand";
    const label = [SYMBOL[g] ? h("span", { cls: "k-sym" + (RED.has(g) ? " red" : ""), "aria-hidden": "true" }, SYMBOL[g]) : "",
      h("span", {}, t("game_" + g))];
    const b = tog(label, f.game === g, () => change((x) => {
      x.game = g;
      if (g === "null") { x.mat = null; x.schneider_announced = x.schwarz_announced = false; x.schneider = x.schwarz = false; x.points = ""; }
      if (g === "grand" && x.mat !== null && x.mat > 4) x.mat = null;
    }), { f: "game-" + g, cls: "k-game k-game-" + g });
    if (locked) b.disabled = true;
    return b;
  }))));
  if (!f.game) return parts;
  // Hand; Schneider and Schwarz announced (hand games only); Ouvert
  const levels = [tog(t("hand"), f.hand || (f.ouvert && !isNull), () => change((x) => {
    x.hand = !x.hand;
    if (!x.hand) { x.schneider_announced = x.schwarz_announced = false; if (!isNull) x.ouvert = false; }
  }), { f: "hand" })];
  if (ramschRound) levels[0].disabled = true;
  if (!isNull && f.hand && !f.ouvert) {
    levels.push(tog(t("announced_schneider"), f.schneider_announced || f.schwarz_announced,
      () => change((x) => { x.schneider_announced = !x.schneider_announced; if (!x.schneider_announced) x.schwarz_announced = false; }), { f: "sa" }));
    levels.push(tog(t("announced_schwarz"), f.schwarz_announced,
      () => change((x) => { x.schwarz_announced = !x.schwarz_announced; if (x.schwarz_announced) x.schneider_announced = true; }), { f: "swa" }));
  }
  if (!ramschRound) levels.push(tog(t("ouvert"), f.ouvert, () => change((x) => { x.ouvert = !x.ouvert; if (x.ouvert && !isNull) x.hand = true; }), { f: "ouvert" }));
  parts.push(group("k-g-levels", k("levels"), h("div", { cls: "k-buttons k-levels" }, levels),
    !isNull && !f.hand ? h("p", { cls: "muted small k-tip" }, k("announceNeedsHand")) : ""));
  // matadors: with/without 1..4 (grand) or 1..11 (a suit game)
  if (!isNull) {
    const max = f.game === "grand" ? 4 : 11;
    const byCards = tog(k("byCards"), f.byCards, () => change((x) => { x.byCards = !x.byCards; }), { f: "by-cards" });
    parts.push(group("k-g-mat", k("matadors"),
      h("div", { cls: "k-buttons k-seg2" },
        tog(k("with"), f.matWith && !f.byCards, () => change((x) => { x.matWith = true; x.byCards = false; }), { f: "mat-with" }),
        tog(k("without"), !f.matWith && !f.byCards, () => change((x) => { x.matWith = false; x.byCards = false; }), { f: "mat-without" })),
      f.byCards ? cardPicker(f) : h("div", { cls: "k-buttons k-mats k-max" + max }, Array.from({ length: max }, (_, i) => i + 1).map((n) =>
        tog(String(n), f.mat === n, () => change((x) => { x.mat = n; }),
          { f: "mat-" + n, label: t(f.matWith ? "matadorsWith" : "matadorsWithout", { n }) }))),
      h("div", { cls: "k-buttons" }, byCards)));
  }
  // the result: card points, or won / lost (Null: always), with Schneider / Schwarz made
  if (!f.revoke) {
    /** @type {HTMLElement[]} */
    const res = [];
    if (!isNull) {
      res.push(h("label", { cls: "k-row k-points-row", for: "k-points" },
        h("span", {}, k("cardPoints"), h("small", { cls: "muted" }, " (" + k("cardPointsHint") + ")")),
        h("input", { id: "k-points", "data-f": "points", type: "text", inputmode: "numeric", pattern: "[0-9]*", maxlength: "3",
          autocomplete: "off", enterkeyhint: "done", value: f.points })));
      res.push(h("p", { cls: "muted small k-or" }, k("orResult")));
    }
    res.push(h("div", { cls: "k-buttons k-result" },
      tog(k("won"), f.result === "won" && !(f.points && !isNull), () => change((x) => { x.result = "won"; x.points = ""; }), { f: "won", cls: "k-won" }),
      tog(k("lost"), f.result === "lost" && !(f.points && !isNull), () => change((x) => { x.result = "lost"; x.points = ""; }), { f: "lost", cls: "k-lost" })));
    if (!isNull) {
      const sn = tog(t("schneider"), f.schneider, () => change((x) => { x.schneider = !x.schneider; }), { f: "schneider-made" });
      sn.id = "k-schneider-made";
      if (f.points) sn.classList.add("hidden");
      res.push(h("div", { cls: "k-buttons k-made" }, h("span", { cls: "muted small" }, k("made") + ":"), sn,
        tog(t("schwarz"), f.schwarz, () => change((x) => { x.schwarz = !x.schwarz; }), { f: "schwarz-made" })));
    }
    parts.push(group("k-g-result", k("result"), ...res));
  }
  // the bid (the ladder) and Kontra / Re
  const ladder = r.bid_values && r.bid_values.length ? r.bid_values : [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48];
  const bid = f.bid || ladder[0];
  /** @type {HTMLElement[]} */
  const bidRow = [h("label", { cls: "k-row", for: "k-bid" }, h("span", {}, k("bid")),
    h("select", { id: "k-bid", "data-f": "bid", title: k("bidHint") }, ladder.map((v) => h("option", { value: String(v), selected: v === bid }, String(v)))))];
  if (r.kontra) {
    bidRow.push(h("div", { cls: "k-buttons k-kontra", role: "group", "aria-label": k("kontraRe") },
      tog(t("kontra"), f.kontra, () => change((x) => { x.kontra = !x.kontra; if (!x.kontra) x.re = false; }), { f: "kontra" }),
      r.kontra_re !== false ? tog(t("re"), f.re, () => change((x) => { x.re = !x.re; if (x.re) x.kontra = true; }), { f: "re" }) : ""));
  }
  parts.push(h("div", { cls: "k-group k-bidrow" }, bidRow));
  return parts;
}

/** @param {KeeperForm} f @param {KeeperRules} r @param {EntryContext} c @returns {HTMLElement[]} */
function ramschParts(f, r, c) {
  const rows = c.seats.map((name, i) => h("div", { cls: "k-ramsch-row" },
    h("label", { for: "k-rp-" + i }, name),
    h("input", { id: "k-rp-" + i, cls: "k-ramsch-points", "data-f": "rp-" + i, "data-name": name, type: "text", inputmode: "numeric",
      pattern: "[0-9]*", maxlength: "3", autocomplete: "off", value: f.ramsch[name] || "" }),
    r.ramsch_jungfrau !== false ? tog(t("jungfrau"), f.jungfrau.includes(name), () => change((x) => {
      x.jungfrau = x.jungfrau.includes(name) ? x.jungfrau.filter((n) => n !== name) : [...x.jungfrau, name];
    }), { f: "jf-" + i, label: t("jungfrau") + ": " + name }) : "",
    r.ramsch_durchmarsch !== false ? tog(k("durchmarsch").split(" (")[0], f.durchmarsch === name, () => change((x) => { x.durchmarsch = x.durchmarsch === name ? null : name; }),
      { f: "dm-" + i, label: k("durchmarsch").split(" (")[0] + ": " + name }) : ""));
  const parts = [group("k-g-ramsch", k("ramschPoints"), rows, h("p", { id: "k-ramsch-sum", cls: "k-sum", "aria-live": "polite" }))];
  const schieber = c.round === "schieber" || r.schieberamsch;
  if (schieber && r.schieberamsch_unseen_push !== false && !(c.round === "schieber" && r.pirate)) {
    parts.push(group("k-g-push", k("pushes"), h("div", { cls: "k-stepper" },
      h("button", { type: "button", "data-f": "push-less", "aria-label": k("lessPushes"), disabled: f.pushes <= 0 || undefined,
        onclick: () => change((x) => { x.pushes = Math.max(0, x.pushes - 1); }) }, "−"),
      h("output", { id: "k-pushes", "aria-live": "polite" }, String(f.pushes)),
      h("button", { type: "button", "data-f": "push-more", "aria-label": k("morePushes"), disabled: f.pushes >= 3 || undefined,
        onclick: () => change((x) => { x.pushes = Math.min(3, x.pushes + 1); }) }, "+"))));
  }
  return parts;
}

function renderRamschSum() {
  const el = $maybe("#k-ramsch-sum");
  if (!el) return;
  const c = ctx();
  const sum = c.seats.reduce((s, n) => s + (Number(K.form.ramsch[n]) || 0), 0);
  const given = c.seats.filter((n) => String(K.form.ramsch[n] || "").trim()).length;
  const loserOnly = given === 1 && rules().ramsch_scoring !== "hoyle";
  el.textContent = loserOnly ? k("loserOnly") : sum === 120 ? k("sumOk") : k("sum", { s: sum });
  el.classList.toggle("ok", sum === 120 || loserOnly);
  el.classList.toggle("off", sum > 120);
}

function resetForm() {
  K.form = blankForm();
  K.edit = null;
  K.correcting = null;
  K.check = null;
  K.ctxKey = "";
  renderAll();
  renderEntry();
}

// ------------------------------------------------------------------ valuing before saving
function scheduleCheck() {
  clearTimeout(K.checkTimer);
  if (!K.key || !K.state) return;
  const r = entryOf(K.form, ctx(), rules());
  if (!("entry" in r)) { K.check = { need: r.need }; renderPreview(); return; }
  const entry = r.entry;
  const seq = ++K.checkSeq;
  K.check = { checking: true, entry };
  K.checkTimer = setTimeout(async () => {
    /** @type {{entry: KeeperEntry, number?: number}} */
    const body = { entry };
    if (K.edit) body.number = K.edit;
    /** @type {Check} */
    let answer;
    try {
      if (navigator.onLine === false) throw new TypeError("offline");
      answer = await api("POST", `/api/keeper/${K.id}/check`, body);
    } catch (e) {
      answer = statusOf(e) ? { ok: false, message: messageOf(e) } : { offline: true };
    }
    if (seq !== K.checkSeq) return;
    K.check = { ...answer, entry };
    renderPreview();
  }, 120);
  renderPreview();
}

function renderPreview() {
  const box = $maybe("#k-preview");
  const save = $maybe("#k-save", HTMLButtonElement);
  if (!box) return;
  const ch = K.check;
  let ready = false;
  const out = [];
  // said in the page's language when it is shown (the language may change meanwhile)
  if (K.notice) out.push(h("p", { cls: "k-saved", role: "status" }, k(...K.notice)));
  if (!ch || ch.need) out.push(h("p", { cls: "muted k-need" }, k((ch && ch.need) || "need_declarer")));
  else if (ch.checking) { out.push(h("p", { cls: "muted" }, k("checking"))); }
  else if (ch.offline) { ready = true; out.push(h("p", { cls: "k-note" }, k("offlineCheck"))); }
  else if (ch.ok === false) {
    out.push(h("p", { cls: "k-problem", role: "alert" }, h("b", {}, k("refused") + " "), reasonText(ch)));
  } else if (ch.ok && ch.line) {
    ready = true;
    out.push(lineSummary(ch.line, ch.entry));
  }
  box.replaceChildren(...out);
  if (save) save.disabled = !ready;
}

/** The value of a checked game: "Bob · ♣ Clubs with 2 · worth 36 · +36", and the server's explanation. */
/** @param {KeeperLine} line @param {KeeperEntry} [entry] */
function lineSummary(line, entry) {
  const players = listState().sheet.players;
  const e = entry || line.entry || null;
  /** @type {import("./dom.js").Leaf[]} */
  const head = [];
  if (line.declarer) {
    const i = players.indexOf(line.declarer);
    const score = i >= 0 && line.scores ? line.scores[i] : null;
    head.push(h("b", {}, line.declarer), " · ", gameText(e), matText(e) ? " " + matText(e) : "");
    const rk = line.reckoning;
    if (rk && rk.overbid) head.push(" · ", k("valueOverbid", { bid: rk.bid, v: line.value ?? rk.value }));
    else if (line.value !== null && line.value !== undefined) head.push(" · ", k("valueLine", { v: line.value }));
    if (score !== null) head.push(" · ", h("b", { cls: "k-score " + (score < 0 ? "lost" : "won") }, signed(score)));
  } else {
    head.push(h("b", {}, gameText(e)));
    (line.scores || []).forEach((s, i) => { if (s) head.push(" · ", players[i] + " ", h("b", { cls: "k-score " + (s < 0 ? "lost" : "won") }, signed(s))); });
  }
  if (line.bock) head.push(" ", h("span", { cls: "mark" }, k("roundShort_bock")));
  return h("div", { cls: "k-value" }, h("p", { cls: "k-value-head" }, head),
    line.explanation ? h("p", { cls: "k-explain" }, reckonText(line)) : "");
}

async function save() {
  const c = ctx();
  const r = entryOf(K.form, c, rules());
  if (!("entry" in r)) return;
  const entry = r.entry;
  const who = await askAuthor();
  if (who === null) return;
  /** @type {KeeperChange} */
  const changeObj = { id: K.correcting || newId(), op: K.edit ? "edit" : "add", entry, author: who, at: nowIso() };
  if (K.edit) changeObj.number = K.edit;
  const editing = K.edit;
  const saveButton = $maybe("#k-save", HTMLButtonElement);
  if (saveButton) saveButton.disabled = true;
  submit(changeObj, (res) => {
    if (res.offline) {
      K.form = blankForm(); K.edit = null; K.correcting = null; K.check = null;
      K.notice = ["queuedNote", {}];
      K.noticeFor = changeObj.id;
      renderEntry(); renderPreview();
      return;
    }
    if (res.ok) {
      K.form = blankForm(); K.edit = null; K.correcting = null; K.check = null; K.noticeFor = null;
      K.notice = editing ? ["savedEdit", { n: editing }] : ["saved", { n: res.number ?? "" }];
      K.ctxKey = "";
      renderAll();
      // ready for the next game: who deals and the round it belongs to, the declarers right under it
      const next = $maybe("#k-next");
      if (next && next.getBoundingClientRect().top < 0) next.scrollIntoView({ block: "start" });
      return;
    }
    K.check = { ok: false, message: res.message || res.error, code: res.code, params: res.params, entry };
    renderPreview();
  });
}

/** The keeper's name for the history (asked once, kept in localStorage); null when the keeper cancels. */
/** @returns {Promise<string | null>} */
function askAuthor() {
  const have = author();
  if (have) return Promise.resolve(have);
  return new Promise((resolve) => {
    const input = h("input", { id: "k-ask-name", maxlength: "100", autocomplete: "name" });
    /** @param {string | null} value */
    const done = (value) => { closeDialog(); resolve(value); };
    const ok = h("button", { type: "submit", cls: "primary" }, k("ok"));
    const form = h("form", { cls: "k-ask" }, h("label", { for: "k-ask-name" }, k("askAuthor")), input,
      h("div", { cls: "k-actions" }, ok, h("button", { type: "button", onclick: () => done(null) }, k("cancel"))));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const v = input.value.trim();
      if (!v) { input.focus(); return; }
      localStorage.setItem("skat.keeper.author", v);
      done(v);
    });
    openDialog("ask", [h("h2", { id: "k-dialog-title" }, k("yourName")), form], input);
  });
}

// ------------------------------------------------------------------ the list as players keep it
/** @param {KeeperEntry} e @param {KeeperRules} r */
function schneiderMade(e, r) {
  if (e.schneider || e.schwarz) return true;
  if (typeof e.points === "number") return e.points >= (Number(r.schneider_points) || 90) || e.points <= 30;
  return false;
}

/** @param {KeeperEntry | null | undefined} e @param {KeeperLine} [line] */
function levelMarks(e, line) {
  const r = rules();
  /** @type {HTMLElement[]} */
  const marks = [];
  /** @param {string} text @param {string} title @param {string} [cls] */
  const mark = (text, title, cls) => marks.push(h("abbr", { cls: "mark " + (cls || "level"), title }, text));
  if (!e || e.declarer === "passed" || e.declarer === "ramsch") {
    if (e && e.pushes) mark(e.pushes + "×", k("pushes"));
    if (e && e.jungfrau && e.jungfrau.length) mark("J", t("jungfrau"));
    if (e && e.durchmarsch) mark("D", k("durchmarsch"));
    return marks;
  }
  if (e.game !== "null") {
    if (e.schwarz) mark("Sw", t("schwarz"));
    else if (schneiderMade(e, r)) mark("S", t("schneider"));
  }
  if (line && line.kontra) mark(line.kontra === 2 ? "Re" : "K", line.kontra === 2 ? t("re") : t("kontra"), "kontra");
  else if (e.re) mark("Re", t("re"), "kontra");
  else if (e.kontra) mark("K", t("kontra"), "kontra");
  if (e.revoke) mark("!", k("revoke") + ": " + k(e.revoke === "declarer" ? "revokeDeclarer" : "revokeDefenders"));
  const rk = line && line.reckoning;
  if (rk && rk.overbid) mark(k("overbidMark"), k("valueOverbid", { bid: rk.bid, v: rk.value }), "overbid");
  return marks;
}

/** @param {KeeperLine} line */
function roundMarks(line) {
  /** @type {HTMLElement[]} */
  const out = [];
  if (line.bock) out.push(h("abbr", { cls: "mark bock", title: t("round_bock") }, "B"));
  if (line.round === "ramsch" || line.round === "schieber") {
    out.push(h("abbr", { cls: "mark ramsch", title: t("round_" + line.round) }, line.round === "ramsch" ? "R" : "Sch"));
  }
  return out;
}

function renderSheet() {
  const box = $("#k-sheet-box");
  box.classList.remove("hidden");
  const st = listState();
  const sh = st.sheet;
  const players = sh.players;
  const n = players.length;
  const stored = (st.list && st.list.games) || [];
  $("#k-mode").textContent = K.key ? k("keeperMode") : k("followMode");
  // the same list drawn again (a change's answer, then its broadcast) keeps its rows: focus, scroll and a row
  // the player is about to tap stay where they are
  const drawn = JSON.stringify([sh, stored, queueOf(K.id), !!K.key, LANG]);
  if (drawn === K.sheetDrawn && $maybe("#k-sheet table")) { fitSheet(); return; }
  K.sheetDrawn = drawn;
  const head = h("thead", {}, h("tr", {},
    h("th", { cls: "num", scope: "col", title: k("colNo") }, "#"),
    h("th", { cls: "sec k-c3", scope: "col" }, k("colDealer")), h("th", { cls: "sec", scope: "col" }, k("colDeclarer")),
    h("th", { scope: "col" }, k("colGame")), h("th", { cls: "sec k-c3", scope: "col" }, k("colMatadors")),
    h("th", { cls: "sec k-c3", scope: "col" }, k("colLevels")), h("th", { cls: "sec num", scope: "col" }, k("colBid")),
    h("th", { cls: "sec num", scope: "col" }, k("colValue")), h("th", { cls: "sec num", scope: "col", title: k("colEntryHint") }, k("colEntry")),
    players.map((name) => h("th", { cls: "num player", scope: "col", title: name }, name))));
  const rows = sh.games.map((line) => sheetRow(line, stored[line.number - 1], players));
  const waiting = queueOf(K.id).map((c) => waitingRow(c, n));
  const body = h("tbody", {}, rows, waiting);
  if (!rows.length && !waiting.length) {
    body.append(h("tr", { cls: "k-empty" }, h("td", { cls: "num" }, ""), h("td", { cls: "sec k-c3" }, ""), h("td", { cls: "sec" }, ""),
      h("td", { cls: "game muted" }, k("noGames")), h("td", { cls: "sec k-c3" }, ""), h("td", { cls: "sec k-c3" }, ""),
      h("td", { cls: "sec" }, ""), h("td", { cls: "sec" }, ""), h("td", { cls: "sec" }, ""), players.map(() => h("td", { cls: "num player" }, ""))));
  }
  // the label of a bottom row spans the columns before the players' (as many as the layout shows)
  /** @param {string} text @param {string} [cls] */
  const label = (text, cls) => [h("th", { scope: "row", cls: "sec k-lab-full " + (cls || ""), colspan: "9" }, text),
    h("th", { scope: "row", cls: "sec k-lab-mid " + (cls || ""), colspan: "6" }, text),
    h("th", { scope: "row", cls: "sum " + (cls || ""), colspan: "2" }, text)];
  const footRows = [
    h("tr", { cls: "total" }, label(k("total")), sh.totals.map((x) => h("td", { cls: "num" }, x))),
    h("tr", {}, label(k("wonLost"), "muted"), players.map((_, p) => h("td", { cls: "num" }, sh.games_won[p] + "/" + sh.games_lost[p]))),
    h("tr", { cls: "total" }, label(k("seeger")), sh.seeger_fabian.map((x) => h("td", { cls: "num" }, x))),
    h("tr", {}, label(k("settlement"), "muted"), sh.settlement.map((x) => h("td", { cls: "num" }, fmtNum(x)))),
  ];
  if (sh.settle === "pairwise") footRows.push(h("tr", {}, label(k("pairwise"), "muted"), sh.balance.map((x) => h("td", { cls: "num" }, fmtNum(x)))));
  if (sh.money) footRows.push(h("tr", { cls: "k-money" }, label(k("money", { p: fmtPrice(sh.price ?? "") })), sh.money.map((x) => h("td", { cls: "num" }, fmtMoney(x)))));
  const foot = h("tfoot", {}, footRows);
  const table = h("table", { cls: "list sheet k-table k-p" + n }, head, body, foot);
  const sheet = $("#k-sheet");
  sheet.replaceChildren(h("div", { cls: "k-scroll" }, table),
    sh.limit ? h("p", { cls: "muted small" }, k("listLimit", { played: sh.played, limit: sh.limit })) : "");
  fitSheet();
  sheet.querySelectorAll("tr[data-n]").forEach((tr) => tr instanceof HTMLElement && tr.addEventListener("click", (ev) => {
    if (ev.target instanceof Element && ev.target.closest("button, a")) return;
    const opener = tr.querySelector("button.k-open");
    openGame(Number(tr.dataset.n), opener instanceof HTMLElement ? opener : null);
  }));
}

/** Fold the list's columns until it fits its box (not on a phone, where style.css folds it): every column;
 * without dealer, matadors and extras (the last two in the game's cell); the phone's two-line game cell. */
function fitSheet() {
  const table = $maybe("#k-sheet table");
  if (!table) return;
  table.classList.remove("k-mid", "k-narrow");
  if (matchMedia("(max-width: 760px)").matches) return;
  const box = table.parentElement;
  if (!box) return;
  const over = () => table.getBoundingClientRect().width > box.clientWidth + 1;
  if (over()) table.classList.add("k-mid");
  if (over()) { table.classList.remove("k-mid"); table.classList.add("k-narrow"); }
}
window.addEventListener("resize", () => fitSheet());


/** @param {KeeperLine} line @param {KeeperStoredGame | undefined} stored @param {string[]} players */
function sheetRow(line, stored, players) {
  /** @type {KeeperEntry | null} */
  const e = line.entry || (stored ? strip(stored) : null);
  const number = line.number;
  const openButton = h("button", { type: "button", cls: "k-open", "aria-label": k("openGame", { n: number }),
    onclick: (ev) => openGame(number, ev.currentTarget instanceof HTMLElement ? ev.currentTarget : null) }, String(number));
  if (line.struck) {
    const reason = struckReason(stored);
    return h("tr", { cls: "k-line struck", "data-n": number },
      h("td", { cls: "num" }, openButton),
      h("td", { cls: "sec k-c3" }, ""), h("td", { cls: "sec" }, h("s", {}, e && e.declarer && !["passed", "ramsch"].includes(e.declarer) ? e.declarer : "")),
      h("td", { cls: "game" }, h("s", {}, h("span", { cls: "sum" }, declarerPrefix(e)), gameText(e), matText(e) ? " " + matText(e) : ""),
        h("span", { cls: "k-struck-word" }, " " + (reason ? k("struckReason", { r: reason }) : k("struck")))),
      h("td", { cls: "sec k-c3" }, ""), h("td", { cls: "sec k-c3" }, ""), h("td", { cls: "sec" }, ""), h("td", { cls: "sec" }, ""), h("td", { cls: "sec" }, ""),
      players.map(() => h("td", { cls: "num player muted" }, "")));
  }
  const d = line.declarer ? players.indexOf(line.declarer) : -1;
  const own = d >= 0 ? line.scores[d] : 0;
  const result = d >= 0 ? (line.won ? " won" : " lost") : "";
  const marks = levelMarks(e, line);
  const line2 = [d >= 0 && line.bid ? k("sheetBid", { v: line.bid }) : null, d >= 0 ? k("sheetValue", { v: line.value }) : null,
    d >= 0 ? h("b", { cls: result.trim() }, signed(own)) : null, k("sheetDealer", { who: line.dealer })].filter((x) => x !== null);
  return h("tr", { cls: "k-line" + (line.bock ? " bock" : "") + (line.round && line.round !== "normal" ? " round-" + line.round : ""), "data-n": number },
    h("td", { cls: "num" }, openButton, h("span", { cls: "marks" }, roundMarks(line))),
    h("td", { cls: "sec k-c3" }, line.dealer),
    h("td", { cls: "sec" }, line.declarer || ""),
    h("td", { cls: "game" },
      d >= 0 ? h("span", { cls: "sum k-decl-name" }, line.declarer + ": ") : "", gameText(e),
      matText(e) ? h("span", { cls: "sum k-fold" }, " " + matText(e)) : "",
      marks.length ? h("span", { cls: "sum k-fold" }, " ", marks.map((m) => m.cloneNode(true))) : "",
      e && e.declarer === "ramsch" && e.ramsch ? h("span", { cls: "k-ramsch-pts" },
        " " + Object.entries(e.ramsch).map(([name, p]) => name + "\u00a0" + p).join(" · ")) : "",
      e && e.note ? h("span", { cls: "k-rownote muted small" }, " — " + e.note) : "",
      h("span", { cls: "sum line2" }, line2.flatMap((x, i) => [i ? " · " : "", x]))),
    h("td", { cls: "sec k-c3 mats" }, matText(e)),
    h("td", { cls: "sec k-c3 marks-col" }, marks),
    h("td", { cls: "sec num" }, d >= 0 && line.bid ? line.bid : ""),
    h("td", { cls: "sec num" }, d >= 0 ? line.value ?? "" : ""),
    h("td", { cls: "sec num" + result }, d >= 0 ? signed(own) : ""),
    players.map((_, p) => {
      const s = line.scores[p];
      if (!s && p !== d) return h("td", { cls: "num player muted" }, "·");
      return h("td", { cls: "num player" + (p === d ? result : s < 0 ? " lost" : " won"), title: signed(s) + " → " + line.totals[p] },
        h("small", { cls: "entry" }, signed(s)), h("span", { cls: "total" }, line.totals[p]));
    }));
}

/** @param {KeeperEntry | null | undefined} e */
function declarerPrefix(e) {
  return e && e.declarer && !["passed", "ramsch"].includes(e.declarer) ? e.declarer + ": " : "";
}

/** A stored game's entry, without its history. */
/** @param {KeeperStoredGame} stored @returns {KeeperEntry} */
function strip(stored) {
  const out = { ...stored };
  delete out.history;
  delete out.struck;
  return out;
}

/** @param {KeeperStoredGame | undefined} stored */
function struckReason(stored) {
  const hist = (stored && stored.history) || [];
  const last = [...hist].reverse().find((c) => c.action === "strike");
  return last && last.reason ? last.reason : "";
}

/** A change waiting in this browser: "waiting to be sent", or refused with its reason (correct or discard it). */
/** @param {KeeperChange} c @param {number} n */
function waitingRow(c, n) {
  const e = c.entry || null;
  /** @type {import("./dom.js").Leaf[]} */
  let what;
  if (c.op === "add") what = [declarerPrefix(e), gameText(e), matText(e) ? " " + matText(e) : ""];
  else what = [k("gameN", { n: c.number }), ": ", c.op === "edit" ? k("act_edit") + " → " + declarerPrefix(e) + gameText(e)
    : k("act_" + c.op)];
  /** @type {HTMLElement[]} */
  const actions = [];
  if (c.error && K.key) {
    if (c.op === "add" || c.op === "edit") actions.push(h("button", { type: "button", cls: "small", onclick: () => correct(c) }, k("correct")));
    actions.push(h("button", { type: "button", cls: "small", onclick: () => discard(c) }, k("discard")));
  } else if (K.key) {
    actions.push(h("button", { type: "button", cls: "small", onclick: () => discard(c) }, k("discard")));
  }
  return h("tr", { cls: "k-line k-waiting" + (c.error ? " k-refused" : ""), "data-change": c.id },
    h("td", { cls: "num" }, c.error ? "!" : "…"),
    h("td", { cls: "sec k-c3" }, ""), h("td", { cls: "sec" }, ""),
    h("td", { cls: "game" }, h("span", {}, what), " ",
      h("span", { cls: "k-wait-word" }, c.error ? k("refusedRow", { m: c.error }) : k("waiting")), " ", actions),
    h("td", { cls: "sec k-c3" }, ""), h("td", { cls: "sec k-c3" }, ""),
    Array.from({ length: 3 }, () => h("td", { cls: "sec" }, "")),
    Array.from({ length: n }, () => h("td", { cls: "num player" }, "")));
}

/** @param {KeeperChange} c */
function correct(c) {
  K.correcting = c.id;
  K.edit = c.op === "edit" ? c.number ?? null : null;
  K.form = formFromEntry(c.entry || { declarer: "" });
  K.ctxKey = "";
  renderAll();
  renderEntry();
  scheduleCheck();
  focusEntry();
}

/** @param {KeeperChange} c */
function discard(c) {
  if (!confirm(k("discardConfirm"))) return;
  setQueue(K.id, queueOf(K.id).filter((x) => x.id !== c.id));
  if (K.correcting === c.id) resetForm();
  renderAll();
}

function focusEntry() {
  const title = $maybe("#k-entry-title");
  if (title) { title.scrollIntoView({ block: "start" }); title.focus({ preventScroll: true }); }
}

// ------------------------------------------------------------------ what comes next
function renderNext() {
  const box = $("#k-next");
  const sh = listState().sheet;
  const next = upcoming();
  const out = sh.players.filter((name) => !next.seats.includes(name));
  const round = next.round;
  /** @type {HTMLElement[]} */
  const parts = [h("p", { cls: "k-next-main" },
    h("span", { cls: "k-next-no" }, k("nextGame", { n: next.number })), " ",
    h("b", {}, k("nextDeals", { who: next.dealer })),
    out.length ? h("span", { cls: "k-next-out" }, " · " + k(out.length > 1 ? "sitOut" : "sitsOut", { who: out.join(", ") })) : "")];
  if (round !== "normal") parts.push(h("p", { cls: "k-round k-round-" + round }, k("round_" + round) || t("round_" + round)));
  if (sh.limit && sh.played >= sh.limit) parts.push(h("p", { cls: "k-note" }, k("listFull", { n: sh.limit })));
  box.replaceChildren(...parts);
  box.classList.remove("hidden");
  box.classList.toggle("k-special-round", round !== "normal");
}

// ------------------------------------------------------------------ sharing
function renderShare() {
  const box = $("#k-share");
  const open = box.querySelector("details.k-handover");
  const wasOpen = open instanceof HTMLDetailsElement ? open.open : false;
  const follow = location.origin + "/k/" + K.id;
  /** @type {HTMLElement[]} */
  const parts = [h("h2", { id: "k-share-title" }, k("share")), linkBox("k-follow-link", k("followLink"), follow)];
  if (K.key) {
    const details = h("details", { cls: "k-handover", open: wasOpen || undefined },
      h("summary", {}, k("keeperLink")),
      h("p", { cls: "k-warn" }, k("keeperLinkWarn")),
      linkBox("k-keeper-link", k("keeperLink"), follow + "#key=" + encodeURIComponent(K.key)));
    parts.push(details);
  }
  parts.push(h("p", { cls: "k-downloads" }, h("span", { cls: "muted" }, k("downloads") + ": "),
    h("a", { href: `/api/keeper/${K.id}/sheet.csv`, download: "" }, k("csv")), " · ",
    h("a", { href: `/api/keeper/${K.id}/list.pdf?lang=${LANG}`, target: "_blank", rel: "noopener" }, k("pdf")), " · ",
    h("a", { href: `/api/keeper/${K.id}/list.pdf?blank=1&lang=${LANG}`, target: "_blank", rel: "noopener" }, k("pdfBlank"))));
  box.replaceChildren(...parts);
  box.classList.remove("hidden");
}

/** @param {string} id @param {string} label @param {string} url */
function linkBox(id, label, url) {
  const input = h("input", { id, cls: "k-link", readonly: true, value: url });
  /** @type {HTMLButtonElement} */
  const button = h("button", { type: "button", cls: "k-copy", "aria-label": k("copy") + ": " + label, onclick: () => copy(input, button) }, k("copy"));
  return h("div", { cls: "k-linkbox" }, h("label", { for: id }, label), h("div", { cls: "k-linkrow" }, input, button));
}

/** @param {HTMLInputElement} input @param {HTMLButtonElement} button */
async function copy(input, button) {
  let ok = false;
  try { await navigator.clipboard.writeText(input.value); ok = true; } catch { /* not allowed here */ }
  if (!ok) {
    input.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
  }
  button.textContent = ok ? k("copied") : k("copy");
  input.select();
}

// ------------------------------------------------------------------ a game's dialog: edit, strike, restore, history
/** @param {number} n @param {HTMLElement | null} [from] */
function openGame(n, from) {
  K.dialog = n;
  K.strikeOpen = false;
  K.dialogMessage = "";
  K.returnFocus = from || null;
  renderDialog(true);
}

/** @param {boolean} [first] */
function renderDialog(first) {
  const n = K.dialog;
  const st = listState();
  const line = n === null ? undefined : st.sheet.games[n - 1];
  if (n === null || !line) { closeDialog(); return; }
  /** @type {KeeperStoredGame} */
  const stored = ((st.list && st.list.games) || [])[n - 1] || { declarer: "" };
  const e = line.entry || strip(stored);
  /** @type {HTMLElement[]} */
  const parts = [h("h2", { id: "k-dialog-title" }, k("gameN", { n }), ": ", declarerPrefix(e), gameText(e), matText(e) ? " " + matText(e) : "")];
  if (line.struck) parts.push(h("p", { cls: "k-problem" }, struckReason(stored) ? k("struckReason", { r: struckReason(stored) }) : k("struck")));
  else {
    parts.push(lineSummary(line, e));
    parts.push(h("p", { cls: "muted small" }, k("sheetDealer", { who: line.dealer }) + (line.bid ? " · " + k("sheetBid", { v: line.bid }) : "")));
  }
  if (K.dialogMessage) parts.push(h("p", { cls: "k-problem", role: "alert" }, h("b", {}, k("refused") + " "), K.dialogMessage));
  /** @type {HTMLElement[]} */
  const actions = [];
  /** @type {HTMLElement | null} */
  let focus = null;
  if (K.key) {
    if (!line.struck) {
      actions.push(h("button", { type: "button", id: "k-edit", onclick: () => startEdit(n) }, k("edit")));
      actions.push(h("button", { type: "button", id: "k-strike", "aria-expanded": K.strikeOpen ? "true" : "false",
        onclick: () => { K.strikeOpen = !K.strikeOpen; renderDialog(); const r = $maybe("#k-strike-reason"); if (r) r.focus(); } }, k("strike")));
    } else {
      actions.push(h("button", { type: "button", id: "k-restore", onclick: () => act({ op: "restore", number: n }) }, k("restore")));
    }
  }
  const close = h("button", { type: "button", id: "k-close", onclick: () => closeDialog() }, k("close"));
  actions.push(close);
  parts.push(h("div", { cls: "k-actions" }, actions));
  if (K.key && K.strikeOpen && !line.struck) {
    const reason = h("input", { id: "k-strike-reason", maxlength: "200", autocomplete: "off" });
    const form = h("form", { cls: "k-strike-form" }, h("label", { for: "k-strike-reason" }, k("strikeReason")), reason,
      h("button", { type: "submit", cls: "danger", id: "k-strike-go" }, k("strikeIt", { n })));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); act({ op: "strike", number: n, reason: reason.value.trim() }); });
    parts.push(form);
  }
  const hist = stored.history || [];
  parts.push(h("h3", {}, k("history")), h("ol", { cls: "k-history" }, hist.map((c) => h("li", {},
    h("time", { datetime: c.at }, fmtTime(c.at)), " ", h("b", {}, k("act_" + c.action)),
    c.author ? " " + k("byAuthor", { who: c.author }) : "",
    c.entry ? h("span", { cls: "k-hist-entry" }, ": " + entryWords(c.entry)) : "",
    c.reason ? h("span", { cls: "k-hist-entry" }, ": " + c.reason) : ""))));
  if (first) focus = close;
  openDialog("game", parts, focus);
}

/** @param {KeeperEntry} e */
function entryWords(e) {
  const parts = [declarerPrefix(e) + gameText(e)];
  if (matText(e)) parts.push(matText(e));
  if (typeof e.points === "number") parts.push(k("pointsShort", { n: e.points }));
  else if (e.result) parts.push(k(e.result));
  if (e.schwarz) parts.push(t("schwarz")); else if (e.schneider) parts.push(t("schneider"));
  if (e.ramsch) parts.push(Object.entries(e.ramsch).map(([name, p]) => name + " " + p).join(", "));
  if (e.bid) parts.push(k("sheetBid", { v: e.bid }));
  if (e.re) parts.push(t("re")); else if (e.kontra) parts.push(t("kontra"));
  if (e.revoke) parts.push(k("revoke") + " " + k(e.revoke === "declarer" ? "revokeDeclarer" : "revokeDefenders"));
  if (e.note) parts.push("“" + e.note + "”");
  return parts.join(", ");
}

/** @param {string} at */
function fmtTime(at) {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return at || "";
  return d.toLocaleString(LANG, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** @param {{op: "strike" | "restore", number: number, reason?: string}} c */
async function act(c) {
  const who = await askAuthor();
  if (who === null) { renderDialog(); return; }
  /** @type {KeeperChange} */
  const changeObj = { id: newId(), ...c, author: who, at: nowIso() };
  submit(changeObj, (res) => {
    if (res.ok || res.offline) { K.strikeOpen = false; K.dialogMessage = ""; if (K.dialog) renderDialog(); return; }
    K.dialogMessage = reasonText(res);
    if (K.dialog) renderDialog();
  });
  if (!K.dialog) openGame(c.number);
}

/** @param {number} n */
function startEdit(n) {
  const list = listState().list;
  const stored = ((list && list.games) || [])[n - 1];
  if (!stored) return;
  closeDialog(true);
  K.edit = n;
  K.correcting = null;
  K.form = formFromEntry(strip(stored));
  K.notice = null;
  K.ctxKey = "";
  renderAll();
  scheduleCheck();
  focusEntry();
}

/** @param {string} kind @param {HTMLElement[]} parts @param {HTMLElement | null} [focus] */
function openDialog(kind, parts, focus) {
  const box = $("#k-dialog");
  box.dataset.kind = kind;
  box.replaceChildren(...parts);
  $("#k-overlay").classList.remove("hidden");
  document.body.classList.add("k-dialog-open");
  if (focus) focus.focus();
}

/** @param {boolean} [keepFocus] */
function closeDialog(keepFocus) {
  $("#k-overlay").classList.add("hidden");
  document.body.classList.remove("k-dialog-open");
  const was = $("#k-dialog").dataset.kind;
  $("#k-dialog").replaceChildren();
  $("#k-dialog").dataset.kind = "";
  if (was === "game") {
    K.dialog = null;
    const n = K.returnFocus && K.returnFocus.textContent;
    K.returnFocus = null;
    if (!keepFocus && n) {
      const b = Array.from(document.querySelectorAll("button.k-open")).find((x) => x.textContent === n);
      if (b instanceof HTMLElement) b.focus();
    }
  }
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && !$("#k-overlay").classList.contains("hidden")) {
    const kind = $("#k-dialog").dataset.kind;
    if (kind === "ask") { const b = $maybe("#k-dialog .k-ask button[type=button]"); if (b) b.click(); } else closeDialog();
  }
});
$("#k-overlay").addEventListener("click", (ev) => {
  if (ev.target instanceof Element && ev.target.id === "k-overlay" && $("#k-dialog").dataset.kind === "game") closeDialog();
});

// ------------------------------------------------------------------ language
function applyStaticTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-k]").forEach((el) => { el.textContent = k(el.getAttribute("data-k") || ""); });
  document.querySelectorAll("[data-k-label]").forEach((el) => el.setAttribute("aria-label", k(el.getAttribute("data-k-label") || "")));
  input("#k-price").placeholder = k("pricePlaceholder");
  input("#k-name").placeholder = k("listNamePlaceholder");
  document.title = k("pageTitle") + " · " + k("keeperHome");
}

const selLang = select("#k-lang");
selLang.value = LANG;
selLang.addEventListener("change", () => {
  setLang(selLang.value);
  applyStaticTexts();
  if (K.id) { K.ctxKey = ""; renderAll(); if (K.state) renderPreview(); } else { renderNew(); renderRulesets(); renderMine(); }
});
$("#k-new-form").addEventListener("submit", createList);
select("#k-ruleset").addEventListener("change", () => { NEW.ruleset = select("#k-ruleset").value; NEW.touched = true; renderRulesets(); });
select("#k-first").addEventListener("change", () => { NEW.first = Number(select("#k-first").value); });

applyStaticTexts();
route();
// for the browser tests
Object.assign(window, { K, keeperWords: { k, t, setLang } });
