// Online tournaments (docs/online-tournaments.md): /online lists those scheduled and running and schedules a new one
// (the director's key comes back once and is kept in this browser); /online/{id} is one tournament: its state, the
// signed-in person's registration and table link, the live ranking, the rounds and their tables, and the
// director's desk (start now, cancel) where this browser holds the key. The server decides everything (the draw,
// the seats, the ranking); the page asks for the tournament again every few seconds.

import { $, h } from "./dom.js";
import { fill, LANG, setLang } from "./lang.js";
import { ApiError, api } from "./net.js";

/** @typedef {import("./protocol").OnlineState} OnlineState */
/** @typedef {import("./protocol").OnlineCreated} OnlineCreated */
/** @typedef {import("./protocol").OnlineList} OnlineList */
/** @typedef {import("./protocol").OnlineSeat} OnlineSeat */

/** @param {string} key @param {import("./text.js").Params} [params] */
const T = (key, params) => fill("online", key, params);
const KEY_HEADER = "X-Tournament-Key";
/** How often the page asks again (ms). */
const POLL_MS = 3000;
/** @param {string} sel */
const input = (sel) => $(sel, HTMLInputElement);
/** @param {string} sel */
const select = (sel) => $(sel, HTMLSelectElement);

/** What the page knows (window.OT for the tests). */
/** @type {{id: string | null, key: string | null, state: OnlineState | null, list: OnlineList | null, me: {name: string} | null, seat: OnlineSeat | null}} */
const OT = { id: null, key: null, state: null, list: null, me: null, seat: null };
Object.assign(window, { OT });

/** A time (Unix seconds) in the page's language. @param {number} at */
const when = (at) => new Date(at * 1000).toLocaleString(LANG, { dateStyle: "medium", timeStyle: "short" });

/** The value of a datetime-local input for a time (Unix seconds), in the browser's time zone. @param {number} at */
function localValue(at) {
  const d = new Date(at * 1000);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// ------------------------------------------------------------------ words
function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = T(el.getAttribute("data-t") || ""); });
  select("#ot-lang").value = LANG;
  $("#ot-lang").setAttribute("aria-label", T("language"));
  input("#f-name").placeholder = T("f_namePh");
  account();
  if (OT.state) renderState();
  if (OT.list) renderList();
}

function account() {
  const a = $("#ot-account", HTMLAnchorElement);
  a.textContent = OT.me ? OT.me.name : T("signIn");
  a.href = OT.me ? "/me" : "/account";
}

/** @param {HTMLElement} el @param {unknown} err */
function showError(el, err) {
  el.textContent = T("error", { m: (err instanceof Error && err.message) || String(err) });
  el.classList.remove("hidden");
}

/** @param {string} text @param {string} [why] */
function banner(text, why) {
  const b = $("#ot-banner");
  b.textContent = text || "";
  b.dataset.why = why || "";
  b.classList.toggle("hidden", !text);
}

/** The words of a status. @param {string} status */
const statusWord = (status) => T("status_" + status);

// ------------------------------------------------------------------ the list and a new tournament
function renderList() {
  const list = OT.list ? OT.list.tournaments : [];
  $("#ot-none").classList.toggle("hidden", list.length > 0);
  $("#ot-tournaments").replaceChildren(...list.map((t) => h("li", { cls: "ot-card ot-" + t.status },
    h("a", { href: t.url, cls: "ot-card-name" }, t.name),
    h("span", { cls: "ot-badge" }, statusWord(t.status)),
    h("span", { cls: "muted" }, t.status === "registering" ? T("startsAt", { when: when(t.starts_at) })
      : T("roundOf", { n: t.round, rounds: t.rounds })),
    h("span", { cls: "muted" }, T("playersN", { n: t.players })))));
}

async function startList() {
  $("#ot-list").classList.remove("hidden");
  input("#f-start").value = localValue(Date.now() / 1000 + 3600);
  const standard = "isko2018";
  /** @type {string[]} */
  let names = [standard];
  try {
    /** @type {{rulesets: string[]}} */
    const meta = await api("GET", "/api/meta");
    names = meta.rulesets.filter((r) => r !== "tournee");  // Tournee Skat has games of its own: no tournament
  } catch (e) { console.debug("GET /api/meta", e); }
  select("#f-ruleset").replaceChildren(...names.map((r) => h("option", { value: r }, r)));
  select("#f-ruleset").value = standard;
  $("#ot-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = $("#f-error");
    err.classList.add("hidden");
    const button = $("#f-create", HTMLButtonElement);
    button.disabled = true;
    const decision = Number(select("#f-clock").value);
    try {
      /** @type {OnlineCreated} */
      const made = await api("POST", "/api/online-tournaments", {
        name: input("#f-name").value.trim(), starts_at: new Date(input("#f-start").value).getTime() / 1000,
        rounds: Number(input("#f-rounds").value), games: Number(input("#f-games").value),
        ruleset: select("#f-ruleset").value, clock: { decision } });
      localStorage.setItem("skat.online." + made.id, made.key);
      location.href = made.url;
    } catch (e) {
      showError(err, e);
      button.disabled = false;
    }
  });
  await refreshList();
  setInterval(() => { if (!document.hidden) refreshList(); }, POLL_MS * 3);
}

async function refreshList() {
  try {
    OT.list = await api("GET", "/api/online-tournaments");
    renderList();
    if ($("#ot-banner").dataset.why === "drop") banner("");
  } catch (e) {
    banner(T("disconnected"), "drop");
  }
}

// ------------------------------------------------------------------ one tournament
function renderState() {
  const s = OT.state;
  if (!s) return;
  document.title = s.name + " · " + T("title");
  $("#ot-name").textContent = s.name;
  const status = $("#ot-status");
  status.textContent = s.status === "registering" ? T("registeringUntil", { when: when(s.starts_at) })
    : s.status === "running" ? T("runningRound", { n: s.round, rounds: s.rounds })
      : s.status === "finished" ? T("finishedAt", { when: when(s.finished || s.starts_at) })
        : T("cancelledWhy", { why: s.reason || "" });
  status.dataset.status = s.status;
  const games = s.games["4"] === s.games["3"] ? String(s.games["4"]) : `${s.games["4"]} / ${s.games["3"]}`;
  $("#ot-settings").textContent = T("settings", { rounds: s.rounds, games, ruleset: s.ruleset, decision: s.clock.decision });
  renderYou();
  renderDesk();
  renderRanking();
  renderRounds();
  $("#ot-player-list").replaceChildren(...s.players.map((p) => h("li", { cls: OT.me && p.name === OT.me.name ? "ot-me" : "" },
    h("a", { href: "/players/a-" + p.account }, p.name))));
}

function renderYou() {
  const s = OT.state;
  const box = $("#ot-you");
  if (!s) return;
  /** @type {(string | Node)[]} */
  const parts = [];
  if (!s.you) {
    if (s.status === "registering") parts.push(h("a", { href: "/account", cls: "ot-action" }, T("signInToPlay")));
    else if (s.status === "running") parts.push(h("a", { href: "/account", cls: "ot-action" }, T("signIn")));
  } else if (s.status === "registering") {
    parts.push(h("span", {}, s.you.registered ? T("youRegistered") : T("youNot")));
    parts.push(h("button", { type: "button", id: "ot-register", cls: s.you.registered ? "" : "primary",
      onclick: () => you(s.you && s.you.registered ? "/withdraw" : "/register") },
    s.you.registered ? T("withdraw") : T("register")));
  } else if (s.status === "running" && s.you.registered) {
    parts.push(h("button", { type: "button", id: "ot-table", cls: "primary", onclick: () => goToTable() },
      T("toTable", { n: s.round })));
  } else if (s.you.registered) {
    parts.push(h("span", {}, T("youPlayed")));
  }
  box.replaceChildren(...parts);
}

/** Register or withdraw. @param {string} what */
async function you(what) {
  const err = $("#ot-you-error");
  err.classList.add("hidden");
  try {
    OT.state = await api("POST", `/api/online-tournaments/${OT.id}${what}`);
    renderState();
  } catch (e) { showError(err, e); }
}

/** The table of this round, with a fresh seat token: the table's page opens with it. */
async function goToTable() {
  const err = $("#ot-you-error");
  err.classList.add("hidden");
  try {
    /** @type {OnlineSeat} */
    const seat = await api("POST", `/api/online-tournaments/${OT.id}/seat`);
    OT.seat = seat;
    location.href = seat.url;
  } catch (e) { showError(err, e); }
}

function renderDesk() {
  const s = OT.state;
  const desk = Boolean(OT.key) && s !== null;
  $("#ot-desk").classList.toggle("hidden", !desk);
  $("#ot-desk-mark").classList.toggle("hidden", !desk);
  if (!desk || !s) return;
  $("#ot-director-url").textContent = `${location.origin}/online/${s.id}#key=${OT.key}`;
  $("#ot-start").classList.toggle("hidden", s.status !== "registering");
  $("#ot-cancel").classList.toggle("hidden", s.status === "finished" || s.status === "cancelled");
}

/** @param {string} what */
async function director(what) {
  const err = $("#ot-desk-error");
  err.classList.add("hidden");
  try {
    OT.state = await api("POST", `/api/online-tournaments/${OT.id}${what}`, undefined, { [KEY_HEADER]: OT.key || "" });
    renderState();
  } catch (e) { showError(err, e); }
}

function renderRanking() {
  const s = OT.state;
  if (!s) return;
  const rounds = s.series.length;
  $("#ot-rank-empty").classList.toggle("hidden", s.ranking.length > 0);
  const pdf = $("#ot-pdf", HTMLAnchorElement);
  pdf.classList.toggle("hidden", s.ranking.length === 0);
  pdf.href = `/api/online-tournaments/${s.id}/ranking.pdf?lang=${LANG}`;
  if (!s.ranking.length) { $("#ot-rank").replaceChildren(); return; }
  const head = h("tr", {}, h("th", { scope: "col" }, T("rank")), h("th", { scope: "col" }, T("player")),
    h("th", { scope: "col", cls: "num" }, T("points")), h("th", { scope: "col", cls: "num" }, T("won")),
    h("th", { scope: "col", cls: "num" }, T("lost")),
    ...Array.from({ length: rounds }, (_, i) => h("th", { scope: "col", cls: "num" }, T("roundN", { n: i + 1 }))));
  const rows = s.ranking.map((r) => h("tr", { cls: OT.me && r.player === OT.me.name ? "ot-me" : "" },
    h("td", { cls: "num" }, String(r.rank)), h("th", { scope: "row" }, r.player),
    h("td", { cls: "num ot-points" }, String(r.points)), h("td", { cls: "num" }, String(r.won)),
    h("td", { cls: "num" }, String(r.lost)),
    ...r.series.map((x) => h("td", { cls: "num" }, x === null ? "–" : String(x)))));
  $("#ot-rank").replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows));
}

function renderRounds() {
  const s = OT.state;
  if (!s) return;
  if (!s.series.length) {
    $("#ot-round-list").replaceChildren(h("p", { cls: "muted" }, T("noRounds")));
    return;
  }
  $("#ot-round-list").replaceChildren(...s.series.slice().reverse().map((r) => h("div", { cls: "ot-round" },
    h("h3", {}, T("roundN", { n: r.number })),
    h("ul", { cls: "ot-tables" }, ...r.tables.map((t) => h("li", { cls: "ot-table" },
      h("span", { cls: "ot-table-no" }, T("tableN", { n: t.number })),
      h("span", { cls: "ot-table-players" }, t.players.join(", ")),
      h("span", { cls: "muted" }, t.status === null ? "" : T("table_" + t.status, { n: t.deal_no || 0, games: t.games }))))))));
}

async function startOne(/** @type {string} */ id) {
  OT.id = id;
  const key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (key) {
    localStorage.setItem("skat.online." + id, key);
    history.replaceState(null, "", location.pathname + location.search);
  }
  OT.key = localStorage.getItem("skat.online." + id);
  $("#ot-start").addEventListener("click", () => director("/start"));
  $("#ot-cancel").addEventListener("click", () => { if (confirm(T("cancelConfirm"))) director("/cancel"); });
  await refreshOne();
  if (OT.key && OT.state) {
    try {
      await api("GET", `/api/online-tournaments/${id}/director`, undefined, { [KEY_HEADER]: OT.key });
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) { localStorage.removeItem("skat.online." + id); OT.key = null; renderDesk(); }
    }
  }
  setInterval(() => { if (!document.hidden) refreshOne(); }, POLL_MS);
}

async function refreshOne() {
  try {
    OT.state = await api("GET", `/api/online-tournaments/${OT.id}`);
    if ($("#ot-banner").dataset.why === "drop") banner("");
    renderState();
    // shown once it has something to show: a player never reads a half-filled page
    $("#ot-view").classList.remove("hidden");
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) { banner(T("notFound")); $("#ot-view").classList.add("hidden"); return; }
    banner(T("disconnected"), "drop");
  }
}

// ------------------------------------------------------------------ start
async function whoAmI() {
  try {
    /** @type {{account: {name: string}}} */
    const me = await api("GET", "/api/account/me");
    OT.me = me.account;
  } catch (e) { OT.me = null; }
  account();
}

select("#ot-lang").addEventListener("change", () => { setLang(select("#ot-lang").value); applyTexts(); });
applyTexts();
await whoAmI();
const match = location.pathname.match(/^\/online\/([^/]*)/);
if (!match) startList();
else if (/^[0-9a-f]{32}$/.test(match[1])) startOne(match[1]);
else banner(T("notFound"));
