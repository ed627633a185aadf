// The club tournament (docs/keeper-server.md, "Tournaments"): /tournament starts one (players, rule set, games
// per table); /tn/{id} is the director's desk where this browser holds the director's key (register, withdraw,
// draw a series, hand each table its keeper's link, print) and the live ranking for everyone else, followed
// over /ws/tournament/{id}. The server decides everything (draws, Seeger-Fabian points, ranks); the page shows.

import { $, h } from "./dom.js";
import { CATALOGS, fill, LANG, setLang } from "./lang.js";
import { tableSizes } from "./keeper-entry.js";
import { ApiError, api } from "./net.js";

/** @typedef {import("./protocol").TournamentState} TournamentState */
/** @typedef {import("./protocol").TournamentSeries} TournamentSeries */
/** @typedef {import("./protocol").TournamentTable} TournamentTable */
/** @typedef {import("./protocol").SeriesKeys} SeriesKeys */
/** @typedef {import("./protocol").KeeperMeta} KeeperMeta */

/** A text of this page in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
const T = (key, params) => fill("tournament", key, params);
const KEY_HEADER = "X-Tournament-Key";
/** The director's key of a tournament, where this browser holds it. */
/** @param {string} id */
const stored = (id) => localStorage.getItem("skat.tournament." + id);
/** The page's own element that `sel` finds, as an input, a select, a button, a link. */
/** @param {string} sel */
const input = (sel) => $(sel, HTMLInputElement);
/** @param {string} sel */
const select = (sel) => $(sel, HTMLSelectElement);
/** @param {string} sel */
const textarea = (sel) => $(sel, HTMLTextAreaElement);
/** @param {string} sel */
const link = (sel) => $(sel, HTMLAnchorElement);

/** What the page knows (window.TN for the tests): the tournament's state, the tables' keeper links, whether
 * this browser is the director's, and whether the follower's connection is up. */
/**
 * @type {{id: string | null, key: string | null, director: boolean, state: TournamentState | null, keys: SeriesKeys[],
 *   connected: boolean, meta: KeeperMeta | null}}
 */
const TN = { id: null, key: null, director: false, state: null, keys: [], connected: false, meta: null };
Object.assign(window, { TN });

// ------------------------------------------------------------------ words
function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = T(el.getAttribute("data-t") || ""); });
  select("#tn-lang").value = LANG;
  $("#tn-lang").setAttribute("aria-label", T("language"));
  input("#f-name").placeholder = T("f_namePh");
  $("#tn-season").textContent = fill("season", "clubSeason");  // the club's season across its evenings (season.html)
  fillRulesets();
  if (TN.state) render();
  else countPlayers();
}

/** "2 tables of 4, 1 table of 3". */
/** @param {number[]} sizes */
function tablesText(sizes) {
  const fours = sizes.filter((s) => s === 4).length;
  const threes = sizes.length - fours;
  return [fours && T("fours", { n: fours }), threes && T("threes", { n: threes })].filter(Boolean).join(", ");
}


/** @param {number} n */
function seatsText(n) {
  const sizes = tableSizes(n);
  const players = T("nPlayers", { n });
  if (sizes) return T("seats", { players, tables: tablesText(sizes) });
  return n < 3 ? T("seatsTooFew", { players }) : T("cannotSeat", { players });
}

/** Put text on the clipboard: the Clipboard API where the page may use it (https, localhost), else the old way
 * (a club's server on the local network is plain http). */
/** @param {string} text */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const area = h("textarea", { readonly: true, cls: "sr-only", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
  }
}

/** @param {HTMLElement} button @param {() => string} text */
function copyButton(button, text) {
  button.addEventListener("click", async () => {
    await copyText(text());
    const words = button.querySelector(".vis") || button;
    words.textContent = T("copied");
    button.classList.add("done");
    setTimeout(() => { words.textContent = T("copy"); button.classList.remove("done"); }, 2000);
  });
}

/** A link as one can read it out and type it: without "http://", its long ids in groups of four (the groups
 * spaced by CSS, so that a copied selection is the link itself). */
/** @param {string} url @param {string} id */
function readable(url, id) {
  const u = new URL(url);
  /** @param {string} text */
  const groups = (text) => (text.match(/.{1,4}/g) || []).map((g) => h("span", { cls: "g" }, g));
  /** @type {(string | HTMLElement)[]} */
  const parts = [u.host];
  for (const piece of (u.pathname + u.hash).split(/([0-9a-f]{32})/)) {
    if (/^[0-9a-f]{32}$/.test(piece)) parts.push(...groups(piece));
    else if (piece) parts.push(piece);
  }
  return h("code", { cls: "tn-url", id, "data-url": url }, parts);
}

/** @param {HTMLElement} el @param {unknown} err */
function showError(el, err) {
  el.textContent = T("error", { m: (err instanceof Error && err.message) || String(err) });
  el.classList.remove("hidden");
}

// ------------------------------------------------------------------ the new tournament
function names() {
  return textarea("#f-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
}

function countPlayers() {
  const list = names();
  const twice = [...new Set(list.filter((p, i) => list.indexOf(p) !== i))];
  // nothing typed yet: what to do, not what is wrong
  $("#f-count").textContent = !list.length ? T("seatsNone")
    : seatsText(list.length) + (twice.length ? " · " + T("twice", { names: twice.join(", ") }) : "");
  $("#f-count").classList.toggle("bad", list.length > 0 && (!tableSizes(list.length) || twice.length > 0));
  $("#f-count").classList.toggle("tn-empty", !list.length);
}

function fillRulesets() {
  const rulesets = select("#f-ruleset");
  if (!TN.meta) return;
  const chosen = rulesets.value || TN.meta.default_ruleset;
  rulesets.replaceChildren(...TN.meta.rulesets.map((r) => h("option", { value: r.name },
    "rs_" + r.name in CATALOGS.en.tournament ? T("rs_" + r.name) : r.description || r.name)));
  rulesets.value = chosen;
}

async function startNew() {
  $("#tn-new").classList.remove("hidden");
  document.title = T("newTitle");
  $("#f-players").addEventListener("input", countPlayers);
  const addOne = () => {
    const name = input("#f-one").value.trim();
    if (!name) return;
    const text = textarea("#f-players").value.replace(/\s+$/, "");
    textarea("#f-players").value = (text ? text + "\n" : "") + name + "\n";
    input("#f-one").value = "";
    $("#f-one").focus();
    countPlayers();
  };
  $("#f-add").addEventListener("click", addOne);
  $("#f-one").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); addOne(); } });
  $("#tn-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("#f-create", HTMLButtonElement);
    button.disabled = true;
    button.textContent = T("creating");
    $("#f-error").classList.add("hidden");
    try {
      /** @type {{id: string, key: string}} */
      const made = await api("POST", "/api/tournaments", {
        name: input("#f-name").value.trim(), players: names(), ruleset: select("#f-ruleset").value,
        games: { 4: Number(input("#f-games4").value), 3: Number(input("#f-games3").value) },
      });
      localStorage.setItem("skat.tournament." + made.id, made.key);
      location.assign("/tn/" + made.id);
    } catch (err) {
      showError($("#f-error"), err);
      button.disabled = false;
      button.textContent = T("create");
    }
  });
  countPlayers();
  try {
    TN.meta = await api("GET", "/api/keeper/meta");
    fillRulesets();
  } catch (err) {
    showError($("#f-error"), err);
  }
}

// ------------------------------------------------------------------ one tournament
/** The banner under the top bar (why: "drop" while the connection is lost; cleared when it is back). */
/** @param {string} text @param {string} [why] */
function banner(text, why) {
  const b = $("#tn-banner");
  b.textContent = text || "";
  b.dataset.why = why || "";
  b.classList.toggle("hidden", !text);
}

/** A request of the director (with the key). */
/** @template [R=TournamentState] @param {string} method @param {string} path @param {unknown} [body] @returns {Promise<R>} */
function director(method, path, body) {
  return api(method, `/api/tournaments/${TN.id}${path}`, body, { [KEY_HEADER]: TN.key || "" });
}

/** @param {HTMLButtonElement} button @param {() => Promise<TournamentState>} call */
async function deskAction(button, call) {
  const err = $("#tn-error");
  err.classList.add("hidden");
  button.disabled = true;
  try {
    const state = await call();
    if (state.keys) TN.keys = state.keys;
    update(state);
    return true;
  } catch (e) {
    showError(err, e);
    return false;
  } finally {
    button.disabled = false;
  }
}

/** A new state of the tournament (from an answer or the follower): shown, and the keeper links fetched when a
 * series came that this page has no links of. */
/** @param {TournamentState} state */
function update(state) {
  if (TN.state && state.seq < TN.state.seq) return;  // an older answer overtaken by the follower
  TN.state = state;
  render();
  if (TN.director && TN.keys.length < state.series.length) loadKeys();
}

async function loadKeys() {
  try {
    /** @type {{series: SeriesKeys[]}} */
    const keys = await director("GET", "/keys");
    TN.keys = keys.series;
    render();
  } catch (e) {
    if (e instanceof ApiError && e.status === 403) dropKey();
  }
}

function dropKey() {
  localStorage.removeItem("skat.tournament." + TN.id);
  TN.key = null;
  TN.director = false;
  banner(T("badKey"));
  render();
}

/** @param {TournamentSeries} series */
function unfinished(series) {
  const played = series.tables.reduce((a, t) => a + t.played, 0);
  const limit = series.tables.reduce((a, t) => a + t.limit, 0);
  return played < limit ? { played, limit } : null;
}

function render() {
  const s = TN.state;
  if (!s) return;
  const base = location.origin + s.url;
  document.body.classList.toggle("director", TN.director);
  document.body.classList.toggle("public", !TN.director);
  document.title = (s.name || T("title")) + " · " + T(TN.director ? "desk" : "ranking");
  $("#tn-title").textContent = TN.director ? T("desk") : T("title");
  $("#tn-name").textContent = s.name || T("title");
  const rs = "rs_" + s.ruleset in CATALOGS.en.tournament ? T("rs_" + s.ruleset) : s.ruleset;
  $("#tn-settings").textContent = T("ruleset", { r: rs }) + " · " + T("gamesSetting", { four: s.games["4"], three: s.games["3"] });
  const sw = $("#tn-switch");
  const held = TN.id && stored(TN.id);
  sw.classList.toggle("hidden", !held);
  if (held) {
    sw.textContent = TN.director ? T("publicView") : T("desk");
    link("#tn-switch").href = TN.director ? s.url + "?view=public" : s.url;
  }
  $("#tn-desk").classList.toggle("hidden", !TN.director);
  $("#tn-share").classList.toggle("hidden", !TN.director);
  $("#tn-public-url").replaceWith(readable(base, "tn-public-url"));
  link("#tn-projector").href = s.url + "?view=public";
  link("#tn-rank-pdf").href = `/api/tournaments/${s.id}/ranking.pdf?lang=${LANG}`;
  link("#tn-rank-csv").href = `/api/tournaments/${s.id}/ranking.csv`;
  $("#tn-live").classList.toggle("off", !TN.connected);
  if (TN.director) renderDesk(s);
  renderRanking(s);
  renderSeries(s);
}

/** @param {TournamentState} s */
function renderDesk(s) {
  const out = new Set(s.withdrawn);
  $("#tn-player-count").textContent = [T("activeCount", { n: s.active.length }),
    out.size ? T("withdrawnCount", { n: out.size }) : ""].filter(Boolean).join(" · ");
  $("#tn-player-list").replaceChildren(...s.players.map((p) => h("li", { cls: out.has(p) ? "withdrawn" : "" },
    h("span", { cls: "tn-pname" }, p), out.has(p) ? h("span", { cls: "tn-tag" }, T("withdrawn"))
      : h("button", { type: "button", cls: "small-btn", "aria-label": T("withdrawName", { name: p }),
        onclick: (ev) => {
          const button = ev.currentTarget;
          if (button instanceof HTMLButtonElement && confirm(T("withdrawConfirm", { name: p }))) {
            deskAction(button, () => director("POST", "/players", { withdraw: p }));
          }
        } },
      T("withdraw")))));
  const next = s.series.length + 1;
  $("#tn-draw-h").textContent = T("drawTitle", { n: next });
  $("#tn-draw-seats").textContent = seatsText(s.active.length);
  $("#tn-draw-lot").textContent = T("drawLot", { n: next });
  $("#tn-draw-ranking").textContent = T("drawRanking", { n: next });
  $("#tn-draw-rank-row").classList.toggle("hidden", next === 1);
  const last = s.series[s.series.length - 1];
  const open = last && unfinished(last);
  $("#tn-draw-warn").classList.toggle("hidden", !open);
  if (open) $("#tn-draw-warn").textContent = T("unfinished", { n: last.number, ...open });
}

/** @param {TournamentState} s */
function renderRanking(s) {
  const numbers = s.series.map((x) => x.number);
  /** @param {string} long @param {string} short @param {string} cls */
  const th = (long, short, cls) => h("th", { scope: "col", cls, title: long },
    h("span", { cls: "long" }, long), h("span", { cls: "short" }, short));
  const head = h("tr", {}, th(T("rank"), T("rankShort"), "num"), h("th", { scope: "col" }, T("player")),
    h("th", { scope: "col", cls: "num pts", title: T("points") },
      h("span", { cls: "short" }, T("pointsShort")), h("span", { cls: "long" }, T("pointsShort"), h("small", {}, " " + T("sf")))), th(T("won"), T("wonShort"), "num"), th(T("lost"), T("lostShort"), "num"),
    numbers.map((n) => th(T("seriesCol", { n }), T("seriesShort", { n }), "num ser")));
  const rows = s.ranking.map((r) => h("tr", { cls: [r.withdrawn ? "withdrawn" : "", r.rank <= 3 ? "top" : ""].join(" ").trim() || null },
    h("td", { cls: "num rank" }, r.rank),
    h("th", { scope: "row", cls: "who" }, h("span", { cls: "tn-pname" }, r.player),
      r.withdrawn ? h("span", { cls: "tn-tag" }, T("withdrawn")) : ""),
    h("td", { cls: "num pts" }, r.points), h("td", { cls: "num" }, r.won), h("td", { cls: "num" }, r.lost),
    numbers.map((_, i) => h("td", { cls: "num ser" }, r.series[i] === null || r.series[i] === undefined ? T("noPoints") : r.series[i]))));
  $("#tn-rank-table").replaceChildren(h("caption", { cls: "sr-only" }, T("ranking")), h("thead", {}, head), h("tbody", {}, rows));
}

/** " · Table n" for a screen reader, after a link's or button's visible words (which stay its name's start). */
/** @param {number} n */
function ofTable(n) {
  return h("span", { cls: "sr-only" }, " · " + T("table", { n }));
}

/** @param {TournamentSeries} series @param {TournamentTable} t */
function tableCard(series, t) {
  const n = t.table;
  const links = TN.keys.find((k) => k.number === series.number);
  const link = links && links.tables.find((x) => x.table === n);
  const done = t.played >= t.limit;
  const share = Math.min(100, Math.round((100 * t.played) / Math.max(1, t.limit)));
  const card = h("article", { cls: "tn-table" + (done ? " done" : ""), "aria-labelledby": `tn-t-${series.number}-${n}` },
    h("div", { cls: "tn-table-head" }, h("h4", { id: `tn-t-${series.number}-${n}` }, T("table", { n })),
      h("span", { cls: "tn-played" }, T("games", { played: t.played, limit: t.limit }), done ? " ✓" : "")),
    h("div", { cls: "tn-bar", "aria-hidden": "true" }, h("span", { style: null, cls: "tn-fill" })),
    h("ol", { cls: "tn-seats" }, t.players.map((p, i) => h("li", {}, h("span", { cls: "tn-pname" }, p),
      i === 0 ? h("span", { cls: "tn-dealer" }, T("dealsFirst")) : ""))),
    h("p", { cls: "tn-links" }, h("a", { href: t.url, target: "_blank", rel: "noopener" }, T("follow"), ofTable(n))));
  const fill = card.querySelector(".tn-fill");
  if (fill instanceof HTMLElement) fill.style.width = share + "%";  // a style attribute would break the CSP's style-src
  if (TN.director && link) {
    const url = location.origin + link.keeper_url;
    const shown = readable(url, `tn-k-${series.number}-${n}`);
    shown.classList.add("tn-keeper-url");
    const copy = h("button", { type: "button", cls: "copy" }, h("span", { cls: "vis" }, T("copy")), ofTable(n));
    copyButton(copy, () => url);
    card.append(h("div", { cls: "tn-keeper" },
      h("p", { cls: "tn-keeper-h", id: shown.id + "-h" }, T("keeperLink"), ofTable(n)),
      h("div", { cls: "tn-copyrow" }, shown, copy),
      h("p", { cls: "tn-links" }, h("a", { href: link.keeper_url, target: "_blank", rel: "noopener", cls: "tn-enter" },
        T("enter"), ofTable(n)))));
  }
  return card;
}

/** @param {TournamentState} s */
function renderSeries(s) {
  const box = $("#tn-series");
  if (!s.series.length) {
    box.replaceChildren(h("section", { cls: "panel" }, h("p", { cls: "muted" }, T(TN.director ? "noSeries" : "noSeriesPublic"))));
    return;
  }
  const latest = [...s.series].reverse();  // the series being played first
  box.replaceChildren(...latest.map((series) => {
    const base = `/api/tournaments/${s.id}/series/${series.number}/lists.pdf`;
    const open = unfinished(series);
    return h("section", { cls: "panel tn-one-series", "aria-labelledby": `tn-s-${series.number}` },
      h("div", { cls: "tn-h-row" }, h("h3", { id: `tn-s-${series.number}` }, T("series", { n: series.number })),
        h("span", { cls: "muted" }, open ? T("games", open) : T("finished") + " ✓")),
      TN.director ? h("p", { cls: "tn-files" },
        h("a", { href: `${base}?blank=1&lang=${LANG}`, target: "_blank", rel: "noopener" }, T("blankLists")),
        h("a", { href: `${base}?lang=${LANG}`, target: "_blank", rel: "noopener" }, T("filledLists"))) : "",
      h("p", { cls: "muted small" }, T("seatOrder")),
      h("div", { cls: "tn-tables" }, series.tables.map((t) => tableCard(series, t))));
  }));
}

// ------------------------------------------------------------------ following
/** The tournament's WebSocket: every state it sends goes to update(); a lost connection is shown and opened
 * again (waiting a little longer each time, at most 5 s); a ping every 25 s keeps it through proxies. */
function follow() {
  let retry = 0;
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let ping;
  const open = () => {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/tournament/${TN.id}`);
    let gone = false;
    ws.onopen = () => {
      retry = 0;
      ping = setInterval(() => { if (ws.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}'); }, 25000);
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "tournament") {
        if (!TN.connected) { TN.connected = true; if ($("#tn-banner").dataset.why === "drop") banner(""); }
        const { type, ...state } = msg;
        update(state);
      } else if (msg.type === "error" && msg.code === "no_tournament") {
        gone = true;
        banner(T("notFound"));
      }
    };
    ws.onclose = () => {
      clearInterval(ping);
      TN.connected = false;
      $("#tn-live").classList.add("off");
      if (gone) return;
      banner(T("disconnected"), "drop");
      retry = Math.min(retry + 1, 10);
      setTimeout(open, 500 * retry);
    };
  };
  open();
}

/** @param {string} id */
async function startTournament(id) {
  TN.id = id;
  const fragment = new URLSearchParams(location.hash.slice(1));
  const key = fragment.get("key");
  if (key) {
    localStorage.setItem("skat.tournament." + id, key);
    history.replaceState(null, "", location.pathname + location.search);
  }
  TN.key = stored(id);
  TN.director = Boolean(TN.key) && new URLSearchParams(location.search).get("view") !== "public";
  $("#tn-view").classList.remove("hidden");
  if (TN.director) wireDesk();
  try {
    /** @type {TournamentState} */
    const state = await api("GET", `/api/tournaments/${id}`);
    update(state);
    if (TN.director && !state.series.length) loadKeys();  // is the key the director's? (else dropped)
  } catch (err) {
    banner(err instanceof ApiError && err.status === 404 ? T("notFound") : T("error", { m: err instanceof Error ? err.message : String(err) }));
    $("#tn-view").classList.add("hidden");
    return;
  }
  follow();
}

/** Whether to draw the next series: at once when the last one is finished, else when the director says so. */
function drawAnyway() {
  const s = TN.state;
  const last = s && s.series[s.series.length - 1];
  const open = last && unfinished(last);
  return !s || !last || !open || confirm(T("unfinished", { n: last.number, ...open }) + " " + T("drawConfirm", { n: s.series.length + 1 }));
}

function wireDesk() {
  copyButton($("#tn-copy-public"), () => $("#tn-public-url").dataset.url || "");
  $("#tn-view").insertBefore($("#tn-series"), $("#tn-ranking"));  // the tables to hand out before the ranking
  $("#tn-register").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = input("#tn-late").value.trim();
    if (!name) return;
    if (await deskAction($("#tn-register-btn", HTMLButtonElement), () => director("POST", "/players", { register: name }))) {
      input("#tn-late").value = "";
    }
  });
  $("#tn-draw-lot").addEventListener("click", () => {
    if (!drawAnyway()) return;
    const seed = input("#tn-seed").value.trim();
    deskAction($("#tn-draw-lot", HTMLButtonElement), () => director("POST", "/series", seed === "" ? {} : { seed: Number(seed) }))
      .then((ok) => { if (ok) input("#tn-seed").value = ""; });
  });
  $("#tn-draw-ranking").addEventListener("click", () => {
    if (drawAnyway()) deskAction($("#tn-draw-ranking", HTMLButtonElement), () => director("POST", "/series", { by_ranking: true }));
  });
}

// ------------------------------------------------------------------ start
select("#tn-lang").addEventListener("change", () => { setLang(select("#tn-lang").value); applyTexts(); });
applyTexts();
const match = location.pathname.match(/^\/tn\/([^/]*)/);
if (!match) startNew();
else if (/^[0-9a-f]{32}$/.test(match[1])) startTournament(match[1]);
else banner(T("notFound"));
