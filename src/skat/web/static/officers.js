// Officers' Skat (two players) against the computer or another person. The table is a server table like any other: created
// with POST /api/tables, played over the table WebSocket (docs/protocol.md, "Officers' Skat tables"). The
// server sends only what this seat may see (view) and its legal action tokens. Card faces come from cards.js.

import { cardBack, cardEl } from "./cards.js";
import { clockOffset, clockText, countdown, isAway } from "./clock.js";
import { fill, LANG, setLang } from "./lang.js";
import { api as request, keep, TableSocket } from "./net.js";

/** @typedef {import("./protocol").Card} Card */
/** @typedef {import("./protocol").Seat} Seat */
/** @typedef {import("./protocol").Position} Position */
/** @typedef {import("./protocol").OfficersView} OfficersView */
/** @typedef {import("./protocol").OfficersStateMessage} OfficersStateMessage */
/** @typedef {import("./protocol").ClientMessage} ClientMessage */
/** The table as the drawing code reads it (wsState): the view from this seat (a spectator's from forehand's). */
/**
 * @typedef {{table: string, seat: Seat, seq: number, game_no: number | null | undefined, variant: string | null | undefined,
 *   view: OfficersView & {seat: Seat}, legal: string[], position: Position | null, totals: number[], positions: Position[],
 *   games: number, people: {name: string | null, bot: boolean}[], clock: import("./clock.js").ClockInfo | null}} OfficersState
 */

/** A text of this page in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
function T(key, params) {
  return fill("officers", key, params);
}

/** Text made safe for HTML. */
/** @param {unknown} s */
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page's state (window.O for the browser tests and a curious player's console).
 * @type {{table: string | null, token: string | null, state: OfficersState | null, selected: Card[], showAllBids: boolean,
 *   busy: boolean, ws: TableSocket<OfficersStateMessage | import("./protocol").ServerMessage> | null, invite: string | null,
 *   sheet: {rows: unknown[]} | null, resultClosed?: boolean}}
 */
const O = { table: null, token: null, state: null, selected: [], showAllBids: false, busy: false,
  ws: null, invite: null, sheet: null };
/** The page's own element of this id (typed as the kind given; HTMLElement when none). */
/** @template {HTMLElement} [E=HTMLElement] @param {string} id @param {{new (): E, prototype: E}} [kind] @returns {E} */
const $ = (id, kind) => {
  const el = document.getElementById(id);
  if (el && kind && !(el instanceof kind)) throw new TypeError(`#${id} is no ${kind.name}`);
  return /** @type {E} */ (el);
};
/** @param {string} id */
const input = (id) => $(id, HTMLInputElement);
/** @param {string} id */
const select = (id) => $(id, HTMLSelectElement);
Object.assign(window, { O });  // for the browser tests and a curious player's console

/** The state: there is one whenever the table is drawn. */
function state() {
  if (!O.state) throw new Error("no state from the server yet");
  return O.state;
}

function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = T(el.getAttribute("data-t") || ""); });
  document.querySelectorAll("[data-t-label]").forEach((el) => el.setAttribute("aria-label", T(el.getAttribute("data-t-label") || "")));
  select("o-lang").value = LANG;
  document.title = T("title");
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let errorTimer;

/** @param {string} msg */
function showError(msg) {
  const b = $("o-banner");
  b.textContent = `${T("errorPrefix")} ${msg}`;
  b.classList.remove("hidden");
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => b.classList.add("hidden"), 5000);
}

/** An error's message (whatever was thrown). */
/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** @template [R=any] @param {string} method @param {string} path @param {unknown} [body] @returns {Promise<R>} */
function api(method, path, body) {
  return request(method, path, body, O.token ? { "X-Seat-Token": O.token } : {});
}

// ---------------------------------------------------------------- labels
// Who sits at a table position: this page's person ("You"), the computer, or a person by name (a spectator
// sees both players by name). form: "label" (Computer), "subject" (The computer, starting a sentence) or
// "mid" (computer, inside one).
/** @param {Position} pos @param {"label" | "subject" | "mid"} [form] */
function whoAt(pos, form) {
  const st = state();
  if (st.position !== null && pos === st.position) return T(form === "mid" ? "youMid" : "you");
  const p = st.people[pos];
  if (!p || p.bot) return T(form === "subject" ? "theComputer" : form === "mid" ? "computerMid" : "computer");
  return p.name || T("opponent");
}

// Who plays game seat ``seat`` (0 forehand, 1 dealer) in this game.
/** @param {Seat} seat @param {"label" | "subject" | "mid"} [form] */
function who(seat, form) { return whoAt(state().positions[seat], form); }

/** @param {string | null | undefined} g */
function gameName(g) { return g ? T("g_" + g) : ""; }

/** @param {OfficersView["contract"] | undefined} c */
function contractName(c) {
  if (!c) return "";
  let s = gameName(c.game);
  for (const w of /** @type {const} */ (["hand", "schneider", "schwarz"])) if (c[w]) s += " " + T("w_" + w);
  return s;
}

/** @param {string} token */
function actionLabel(token) {
  if (/^\d+$/.test(token)) return T("bid", { v: token });
  const words = token.split(" ");
  if (words[0] === "declare") {
    return [gameName(words[1]), ...words.slice(2).map((w) => T("w_" + w))].join(" ");
  }
  return T("a_" + token);
}

// ---------------------------------------------------------------- drawing
/** A card (a back for a card this seat cannot see); one of this seat's that may be played is a button. */
/** @param {Card | null} name @param {{mine?: boolean, inHand?: boolean, cls?: string}} [opts] */
function cardNode(name, opts) {
  opts = opts || {};
  if (name === null) return cardBack(opts.cls);
  const legal = O.state && O.state.legal;
  const phase = O.state && O.state.view.phase;
  const clickable = !!opts.mine && !!legal && ((phase === "play" && legal.includes(name)) ||
    (phase === "discard" && !!opts.inHand));
  const el = cardEl(name, { button: clickable, cls: opts.cls });
  if (clickable) {
    el.classList.add("playable");
    if (O.selected.includes(name)) el.classList.add("selected");
    el.addEventListener("click", () => cardClicked(name));
  }
  return el;
}

// A pile lists its cards from the top down; the top card lies over the covered one.
/** @param {HTMLElement} box @param {(Card | null)[][]} piles @param {boolean} mine */
function drawPiles(box, piles, mine) {
  box.innerHTML = "";
  piles.forEach((pile) => {
    const p = document.createElement("div");
    // A covered card that faces this seat (Harlequin) peeks out further, so its suit shows too.
    const peek = pile.length > 1 && pile[1] !== null;
    p.className = "o-pile" + (pile.length === 0 ? " empty" : "") + (peek ? " o-peek" : "");
    const order = [...pile].reverse(); // bottom first, so the top card is drawn last (in front)
    order.forEach((name, i) => {
      const isTop = i === order.length - 1;
      const el = cardNode(name, { mine: mine && isTop, cls: isTop ? "o-top" : "o-under" });
      p.appendChild(el);
    });
    box.appendChild(p);
  });
}

/** @param {HTMLElement} box @param {Card[] | null | undefined} cards @param {number} count @param {boolean} mine */
function drawHand(box, cards, count, mine) {
  box.innerHTML = "";
  if (cards) cards.forEach((c) => box.appendChild(cardNode(c, { mine, inHand: true })));
  else for (let i = 0; i < count; i++) box.appendChild(cardBack());
  box.classList.toggle("hidden", box.children.length === 0);
}

/** @param {OfficersView & {seat: Seat}} v */
function drawTrick(v) {
  const box = $("o-trick");
  box.innerHTML = "";
  const cur = document.createElement("div");
  cur.className = "o-trick-now";
  cur.innerHTML = `<div class="o-cap">${T("trick")}</div>`;
  const row = document.createElement("div");
  row.className = "o-trick-cards";
  v.trick.forEach(([seat, c]) => {
    const fig = document.createElement("figure");
    fig.className = seat === v.seat ? "o-by-me" : "o-by-opp";
    fig.appendChild(cardEl(c));
    const cap = document.createElement("figcaption");
    cap.textContent = who(seat);
    fig.appendChild(cap);
    row.appendChild(fig);
  });
  cur.appendChild(row);
  box.appendChild(cur);
  if (v.skat_size && ["bidding", "skat"].includes(v.phase)) { // Admiral's: the skat lies face down
    const sk = document.createElement("div");
    sk.className = "o-skat";
    sk.innerHTML = `<div class="o-cap">${T("skat")}</div>`;
    const r = document.createElement("div");
    r.className = "o-trick-cards";
    for (let i = 0; i < v.skat_size; i++) r.appendChild(cardBack("small"));
    sk.appendChild(r);
    box.appendChild(sk);
  }
  if (v.tricks.length) {
    const [leader, cards, winner] = v.tricks[v.tricks.length - 1];
    const last = document.createElement("div");
    last.className = "o-trick-last";
    last.innerHTML = `<div class="o-cap">${T("lastTrick")} → ${esc(who(winner))}</div>`;
    const r = document.createElement("div");
    r.className = "o-trick-cards";
    cards.forEach((c, i) => {
      const seat = (leader + i) % 2;
      r.appendChild(cardEl(c, { cls: "small " + (seat === v.seat ? "o-by-me" : "o-by-opp") }));
    });
    last.appendChild(r);
    box.appendChild(last);
  }
}

/** @param {OfficersView} v @param {Seat} seat */
function role(v, seat) {
  const parts = [seat === 0 ? T("forehand") : T("dealer")];
  if (v.chooser === seat) parts.push(v.variant === "admiral" ? T("declarer") : T("chooser"));
  return "(" + parts.join(", ") + ")";
}

/** @param {string} label @param {() => void} onClick @param {string} [cls] */
function button(label, onClick, cls) {
  const b = document.createElement("button");
  b.textContent = label;
  if (cls) b.className = cls;
  b.addEventListener("click", onClick);
  return b;
}

/** @param {OfficersView & {seat: Seat}} v @param {string[]} legal */
function drawPanel(v, legal) {
  const panel = $("o-panel");
  panel.innerHTML = "";
  const yours = v.to_move === v.seat && legal.length > 0;
  const p = document.createElement("p");
  p.id = "o-prompt";
  panel.appendChild(p);
  if (v.phase === "finished") { p.textContent = ""; panel.appendChild(button(T("nextGame"), nextGame, "primary")); return; }
  if (!yours) { // a spectator is told who is to move, a player who they wait for
    p.textContent = T("p_wait", { who: who(state().position === null ? (v.to_move ?? 0) : 1 - v.seat, "subject") });
    return;
  }
  const acts = document.createElement("div");
  acts.className = "actions";
  panel.appendChild(acts);
  /** @param {string} token */
  const add = (token) => {
    const b = button(actionLabel(token), () => send(token), token === "pickup" ? "primary" : "");
    b.dataset.action = token;
    acts.appendChild(b);
  };
  switch (v.phase) {
    case "choose": p.textContent = legal.includes("pass") ? T("p_choose_pass") : T("p_choose"); legal.forEach(add); break;
    case "kontra": p.textContent = T("p_kontra", { who: who(1 - v.seat, "subject"), g: contractName(v.contract) || gameName(v.game) });
      legal.forEach(add); break;
    case "re": p.textContent = T("p_re", { who: who(1 - v.seat, "subject") }); legal.forEach(add); break;
    case "bidding": {
      if (legal.includes("hold")) { p.textContent = T("p_hold", { who: who(1 - v.seat, "subject"), v: v.bid }); legal.forEach(add); break; }
      p.textContent = T("p_bidding");
      const bids = legal.filter((t) => /^\d+$/.test(t));
      (O.showAllBids ? bids : bids.slice(0, 6)).forEach(add);
      if (!O.showAllBids && bids.length > 6) acts.appendChild(button(T("moreBids"), () => { O.showAllBids = true; render(); }));
      add("pass");
      break;
    }
    case "skat": p.textContent = T("p_skat", { v: v.bid }); legal.forEach(add); break;
    case "declare": p.textContent = T("p_declare"); legal.forEach(add); break;
    case "discard": {
      p.textContent = T("p_discard", { n: O.selected.length });
      const b = button(T("p_discardBtn"), () => {
        const tok = discardToken(legal);
        if (tok) send(tok);
      }, "primary");
      b.dataset.action = "discard";
      b.disabled = !discardToken(legal);
      acts.appendChild(b);
      break;
    }
    case "play": p.textContent = v.trick.length ? T("p_follow") : T("p_play"); break;
    default: legal.forEach(add);
  }
}

/** The legal discard of the two selected cards, or null. */
/** @param {string[]} legal */
function discardToken(legal) {
  if (O.selected.length !== 2) return null;
  const want = [...O.selected].sort().join(" ");
  return legal.find((t) => t.startsWith("discard ") && t.slice(8).split(" ").sort().join(" ") === want) || null;
}

/** How a game was scored, in the page's language: the server's explanation is English, so another language says
 * it from the outcome's numbers with the catalogs' words (the game and its matadors, the value as multiplier times
 * base, Schneider, Schwarz, Kontra or Re). */
/** @param {import("./protocol").OfficersResult} r */
function resultExplanation(r) {
  const o = r.outcome;
  if (LANG === "en" || !o) return r.explanation;
  /** @param {string} key @param {import("./text.js").Params} [params] */
  const table = (key, params) => fill("table", key, params);
  const game = r.contract ? contractName(r.contract) : gameName(o.game);
  const parts = [];
  if (o.game === "ramsch") parts.push(table("ramschPlay"));
  else if (o.game === "null" && o.game_value !== null) parts.push(fill("keeper", "rk_null", { value: o.game_value }));
  else parts.push(o.matadors === null ? game : `${game} ${table(o.matadors_with ? "matadorsWith" : "matadorsWithout", { n: o.matadors })}`);
  if (o.game !== "null" && o.game_value && o.base_value) {
    parts.push(table("gameValue", { v: o.game_value, m: o.game_value / o.base_value, b: o.base_value }));
  }
  if (o.schneider) parts.push(table("schneider"));
  if (o.schwarz) parts.push(table("schwarz"));
  if (o.kontra_level) parts.push(table(o.kontra_level >= 2 ? "kontraRe" : "kontraSaid"));
  return parts.join(" · ");
}

/** @param {OfficersView & {seat: Seat}} v */
function drawResult(v) {
  const box = $("o-result");
  const r = v.result;
  if (!r || O.resultClosed) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  const me = v.seat, him = 1 - v.seat;
  const title = $("o-result-title");
  let key = "draw";
  /** @type {Seat | null} */
  let winner = null;
  if (r.kind === "passed_in") key = "passedIn";
  else if (r.scores[me] !== r.scores[him]) winner = r.scores[me] > r.scores[him] ? me : him;
  else if (r.outcome && typeof r.outcome.winner === "number") winner = r.outcome.winner;
  if (winner !== null) key = state().position === null ? "wonBy" : winner === me ? "won" : "lost";
  title.textContent = T(key, { who: winner === null ? "" : who(winner) }) +
    (r.game ? ` — ${contractName(r.contract) || gameName(r.game)}` : "");
  title.className = key === "won" ? "won" : key === "lost" ? "lost" : "";
  $("o-result-explain").textContent = resultExplanation(r);
  const totals = state().totals, pos = state().positions;
  $("o-result-table").innerHTML =
    `<tr><th></th><th class="num">${esc(who(me))}</th><th class="num">${esc(who(him))}</th></tr>` +
    `<tr><td>${T("score")}</td><td class="num">${r.scores[me]}</td><td class="num">${r.scores[him]}</td></tr>` +
    `<tr><td>${T("cardPoints")}</td><td class="num">${r.points[me]}</td><td class="num">${r.points[him]}</td></tr>` +
    `<tr><td>${T("tricks")}</td><td class="num">${r.tricks[me]}</td><td class="num">${r.tricks[him]}</td></tr>` +
    `<tr><th>${T("series")}</th><th class="num">${totals[pos[me]]}</th><th class="num">${totals[pos[him]]}</th></tr>`;
  const cards = $("o-result-cards");
  cards.innerHTML = "";
  if (r.skat && r.skat.length) {
    const row = document.createElement("div");
    row.className = "cardrow";
    row.innerHTML = `<span>${T("skat")}:</span>`;
    r.skat.forEach((c) => row.appendChild(cardEl(c, { cls: "small" })));
    cards.appendChild(row);
  }
}

function render() {
  const st = O.state;
  if (!st) return;
  const v = st.view, legal = st.legal;
  $("o-start").classList.add("hidden");
  $("o-board").classList.remove("hidden");
  $("o-leave").classList.remove("hidden");
  const mine = st.position === null ? 0 : st.position; // the series by table position, this person's first
  $("o-variant-name").textContent = T("v_" + v.variant) + ` · #${st.game_no}` + (st.games
    ? ` · ${whoAt(mine)} ${st.totals[mine]} : ${st.totals[1 - mine]} ${whoAt(1 - mine)}` : "");
  $("o-opp-name").textContent = who(1 - v.seat);
  $("o-my-name").textContent = who(v.seat);
  $("o-opp-hand").setAttribute("aria-label", st.people[st.positions[1 - v.seat]].bot && st.position !== null
    ? T("theirHand") : T("handOf", { who: who(1 - v.seat) }));
  $("o-opp-turn").classList.toggle("hidden", v.phase === "finished" || v.to_move !== 1 - v.seat);
  // the computer thinks; a person is on the move
  $("o-opp-turn").textContent = T(st.people[st.positions[1 - v.seat]].bot ? "thinking" : "onTheMove");
  $("o-opp-role").textContent = role(v, 1 - v.seat);
  $("o-my-role").textContent = role(v, v.seat);
  $("o-opp").classList.toggle("to-move", v.to_move === 1 - v.seat);
  $("o-me").classList.toggle("to-move", v.to_move === v.seat);
  drawPiles($("o-opp-piles"), v.opponent_piles, false);
  drawPiles($("o-my-piles"), v.own_piles, true);
  drawHand($("o-opp-hand"), v.opponent_hand, v.opponent_hand ? 0 : v.opponent_hand_size, false);
  drawHand($("o-my-hand"), v.hand, 0, true);
  drawTrick(v);
  const info = [];
  if (v.game) {
    let g = T("game", { g: contractName(v.contract) || gameName(v.game) });
    if (v.kontra_level >= 1) g += " · " + T("kontraSaid");
    if (v.kontra_level >= 2) g += " · " + T("reSaid");
    info.push(g);
  }
  if (v.variant === "admiral" && v.bid) info.push(T("bidNow", { v: v.bid }));
  $("o-info").textContent = info.join(" · ");
  $("o-score").textContent = ["choose", "bidding"].includes(v.phase) ? "" : T("points", {
    me: who(v.seat, "mid"), who: who(1 - v.seat, "mid"), a: v.trick_points[v.seat], b: v.trick_points[1 - v.seat], c: v.tricks_won[v.seat], d: v.tricks_won[1 - v.seat] });
  drawPanel(v, legal);
  drawResult(v);
  const away = isAway(st.clock, st.position);  // the move clock (docs/clock.md): your time ran out
  $("o-away").classList.toggle("hidden", !away);
  $("o-away-text").textContent = away ? fill("table", "clockAwayYou") : "";
  $("o-back").textContent = fill("table", "clockBack");
  if (isAway(st.clock, st.positions[1 - v.seat])) $("o-opp-turn").textContent = fill("table", "clockStandIn", { who: who(1 - v.seat) });
  tickClock();
}

/** Seconds to add to this browser's clock to read the server's (the last state's `now`). */
const CLOCK = { offset: 0 };

/** The move clock's countdown beside the player to move (the decision's time, then the reserve). */
function tickClock() {
  const st = O.state;
  if (!st) return;
  const running = countdown(st.clock, Date.now() / 1000, CLOCK.offset);
  const mine = st.positions[st.view.seat];
  for (const [id, pos] of [["o-my-clock", mine], ["o-opp-clock", st.positions[1 - st.view.seat]]]) {
    const el = $(String(id));
    if (!el) continue;
    const on = !!running && running.position === pos && st.view.phase !== "finished";
    el.textContent = on && running ? (running.reserve ? fill("table", "clockReserve", { time: clockText(running.seconds) }) : clockText(running.seconds)) : "";
    el.classList.toggle("urgent", on && !!running && running.urgent);
  }
}
setInterval(() => { try { tickClock(); } catch (e) { console.debug("clock", e); } }, 250);

// ---------------------------------------------------------------- actions
/** @param {Card} name */
function cardClicked(name) {
  const v = state().view;
  if (v.phase === "discard") {
    const i = O.selected.indexOf(name);
    if (i >= 0) O.selected.splice(i, 1);
    else if (O.selected.length < 2) O.selected.push(name);
    render();
    return;
  }
  send(name);
}

/** @param {OfficersState} st */
function setState(st) {
  const newGame = !O.state || O.state.game_no !== st.game_no;
  if (newGame) O.resultClosed = false;
  O.state = st;
  O.selected = [];
  O.showAllBids = false;
  render();
}

/** @param {string} token */
function send(token) {
  wsSend({ type: "action", action: token, seq: state().seq });
}

function nextGame() {
  wsSend({ type: "next_deal" });
}

/** @param {Event} [ev] */
async function startTable(ev) {
  if (ev) ev.preventDefault();
  const variant = select("o-variant").value;
  /** @type {Record<string, boolean>} */
  const options = {};
  if (!input("o-kontra").checked) options.kontra = false;
  if (variant !== "admiral") {
    if (input("o-null").checked) options.allow_null = true;
    if (input("o-ramsch").checked) options.allow_ramsch = true;
  }
  /** @type {{variant: string, options: Record<string, boolean>, seed?: number}} */
  const body = { variant, options };
  const seed = input("o-seed").value;
  if (seed !== "") body.seed = Number(seed);
  return wsStart(body);
}

// The person leaves: the table is closed for good on the server, then the start form shows again.
async function closeTable() {
  if (!O.table || O.busy || !confirm(T("closeConfirm"))) return;
  O.busy = true;
  try {
    await api("POST", `/api/tables/${O.table}/close`, { token: O.token });
    forgetTable();
  } catch (e) {
    showError(messageOf(e));
  } finally {
    O.busy = false;
  }
}

// The table is closed (here, or in another tab of this seat): drop it and show the start form.
function forgetTable() {
  leaveSocket();
  O.table = null;
  O.token = null;
  showStart();
}

function showStart() {
  O.state = null;
  $("o-leave").classList.add("hidden");
  $("o-board").classList.add("hidden");
  $("o-result").classList.add("hidden");
  $("o-start").classList.remove("hidden");
}

function syncForm() {
  const admiral = select("o-variant").value === "admiral";
  document.querySelectorAll(".not-admiral").forEach((el) => el.classList.toggle("hidden", admiral));
}

document.addEventListener("DOMContentLoaded", async () => {
  applyTexts();
  syncForm();
  $("o-variant").addEventListener("change", syncForm);
  $("o-form").addEventListener("submit", startTable);
  $("o-new").addEventListener("click", () => { leaveSocket(); O.table = null; showStart(); });
  $("o-leave").addEventListener("click", closeTable);
  $("o-back").addEventListener("click", () => wsSend({ type: "back" }));
  $("o-next").addEventListener("click", nextGame);
  $("o-close").addEventListener("click", () => { O.resultClosed = true; render(); });
  select("o-lang").addEventListener("change", () => {
    setLang(select("o-lang").value);
    applyTexts();
    render();
  });
  const params = new URLSearchParams(location.search);
  select("o-variant").value = params.get("variant") || select("o-variant").value;
  input("o-seed").value = params.get("seed") || input("o-seed").value;
  syncForm();
  sessionStorage.removeItem("officers.table"); // a table of the retired REST API (its record stays readable)
  const inv = /invite=([^&]+)/.exec(location.hash);
  const id = params.get("table") || sessionStorage.getItem("officers.ws");
  if (id && inv) keep.setInvite(id, inv[1]);
  if (inv) history.replaceState(null, "", location.pathname + location.search);
  if (id) { openTable(id); return; }
  if (params.get("start")) startTable();
});

// ------------------------------------------------------ the table WebSocket
// The club server plays Officers' Skat at its server tables (docs/protocol.md): detected by /api/meta.
/** @param {{variant: string, options: Record<string, boolean>, seed?: number}} body */
async function wsStart(body) {
  /** @type {Record<string, unknown>} */
  const req = { variant: "officers", officers_variant: body.variant, options: body.options, public: false,
    player_name: localStorage.getItem("skat.name") || "" };
  if (body.seed !== undefined) req.seed = body.seed;
  try {
    /** @type {import("./protocol").CreatedTable & {token: string}} a seat claimed: its token */
    const res = await api("POST", "/api/tables", req);
    keep.setToken(res.table_id, res.token);
    if (res.invite) keep.setInvite(res.table_id, res.invite);
    O.state = null;
    O.sheet = null;
    openTable(res.table_id);
  } catch (e) { showError(messageOf(e)); }
}

// Open a table: its seat token (kept like the Skat table's, in localStorage) takes the seat; without one
// the page watches (at a private table with its invite).
/** @param {string} id */
function openTable(id) {
  if (O.ws) { const old = O.ws; O.ws = null; old.close(); }
  O.table = id;
  O.token = keep.token(id);
  O.invite = keep.invite(id);
  sessionStorage.setItem("officers.ws", id);
  connect();
}

function connect() {
  if (!O.table) return;
  O.ws = new TableSocket(O.table, {
    credentials: () => (O.token ? { token: O.token } : { invite: O.invite }),
    onMessage,
    onDrop: () => { O.busy = false; },
    retryMs: 300,
  });
}

/** @param {OfficersStateMessage | import("./protocol").ServerMessage} m */
function onMessage(m) {
  if (m.type === "state") {
    O.busy = false;
    const st = /** @type {OfficersStateMessage} */ (m);
    if (st.view) { $("o-wait").classList.add("hidden"); setState(wsState(st, st.view)); }
    else if (st.table.status === "waiting") showWaiting(st);
  } else if (m.type === "sheet") {
    O.sheet = /** @type {{rows: unknown[]}} */ (/** @type {unknown} */ (m.sheet));
  } else if (m.type === "error") {
    O.busy = false;
    if (["bad_token", "no_table", "table_broken", "invite_required", "bad_invite"].includes(m.code)) {
      showError(m.message);
      forgetTable();
      return;
    }
    if (m.code !== "stale") showError(m.message); // a fresh state follows a stale action
  } else if (m.type === "closed") {
    forgetTable();
  } else if (m.type === "stopped") {
    showError(m.reason);
  }
}

// The WebSocket state in the shape the drawing code reads (that of the REST answers). A spectator (position
// null) sees the table from forehand's side (view.seat 0). ``people`` by table position: each seat's name and whether the
// computer plays it; ``positions``: the table position of game seat 0 (forehand) and 1 (dealer) in this game.
/** @param {OfficersStateMessage} m @param {OfficersView} view @returns {OfficersState} */
function wsState(m, view) {
  CLOCK.offset = clockOffset(m.now, Date.now() / 1000);
  const seat = view.seat === null ? 0 : view.seat;
  return {
    table: m.table.id, seat, seq: m.seq, game_no: m.table.game_no,
    variant: m.table.officers_variant, view: { ...view, seat }, legal: view.legal_actions, position: m.you.position,
    totals: (m.table.totals && m.table.totals.scores) || [0, 0], positions: m.table.positions,
    games: ((O.sheet && O.sheet.rows) || []).length,
    people: m.table.seats.map((s) => ({ name: s.name, bot: s.kind !== "human" })),
    clock: m.table.clock || null,
  };
}

/** @param {ClientMessage} msg */
function wsSend(msg) {
  if (!O.ws || O.ws.readyState !== WebSocket.OPEN) { showError(T("notConnected")); return; }
  if (msg.type === "action") {
    if (O.busy) return;
    O.busy = true;
  }
  O.ws.send(msg);
}

// A table for two people before the second sits down: its seat holder gets the link to send (with the invite at a
// private table), a visitor with the link a free seat to take under a name of his own.
/** @param {OfficersStateMessage} m */
function showWaiting(m) {
  const box = $("o-wait");
  $("o-start").classList.add("hidden");
  $("o-board").classList.add("hidden");
  $("o-leave").classList.toggle("hidden", m.you.position === null);
  box.classList.remove("hidden");
  box.replaceChildren();
  /** @param {string} key */
  const text = (key) => fill("table", key);
  const para = (/** @type {string} */ s) => { const p = document.createElement("p"); p.textContent = s; return p; };
  if (m.you.position !== null) {
    const url = `${location.origin}/officers?table=${m.table.id}${O.invite ? "#invite=" + O.invite : ""}`;
    const link = document.createElement("input");
    link.readOnly = true;
    link.value = url;
    link.className = "invite-url";
    link.setAttribute("aria-label", text("officersWaiting"));
    const copy = document.createElement("button");
    copy.className = "primary";
    copy.textContent = text("copy");
    copy.addEventListener("click", async () => {
      link.select();
      try { await navigator.clipboard.writeText(url); } catch (e) { document.execCommand("copy"); }
      copy.textContent = text("copied");
    });
    const row = document.createElement("div");
    row.className = "invite-row";
    row.append(link, copy);
    box.append(para(text("officersWaiting")), row);
    return;
  }
  if (!m.table.seats.some((s) => !s.taken)) return;
  const form = document.createElement("form");
  form.className = "name-form";
  const name = document.createElement("input");
  name.id = "o-join-name";
  name.maxLength = 40;
  name.required = true;
  name.value = localStorage.getItem("skat.name") || "";
  const label = document.createElement("label");
  label.htmlFor = "o-join-name";
  label.textContent = text("yourName");
  const sit = document.createElement("button");
  sit.type = "submit";
  sit.className = "primary";
  sit.textContent = text("join");
  form.append(label, name, sit);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const who = name.value.trim().slice(0, 40);
    if (!who || !O.table) return;
    localStorage.setItem("skat.name", who);
    try {
      /** @type {import("./protocol").Joined & {token: string}} the seat taken: its token */
      const res = await api("POST", `/api/tables/${O.table}/join`, { name: who, invite: O.invite || undefined });
      keep.setToken(O.table, res.token);
      openTable(O.table);
    } catch (e) { showError(messageOf(e)); }
  });
  box.append(para(text("officersSitDown")), form);
}

// Stop watching the table here (it goes on on the server; its token stays, so ?table=ID returns to it).
function leaveSocket() {
  sessionStorage.removeItem("officers.ws");
  if (O.ws) { const ws = O.ws; O.ws = null; ws.close(); }
  if (new URLSearchParams(location.search).get("table")) history.replaceState(null, "", location.pathname);
}
