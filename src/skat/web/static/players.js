// A player's page: /me (the reader's own) and /players/{id} (a person with an account, a computer level). The
// profile (name, kind, rating μ ± σ, the leaderboard's value μ − 3σ, the rating's history as a chart), the
// statistics (GET /api/players/{id}: shares by game type and seat, Seeger-Fabian points, the form over the last
// games as a chart, the computer players at the reader's tables side by side) and, on the reader's own page, the
// history of deals (GET /api/me/history) with filters, each deal linked to its replay. The figures' words and the
// charts' geometry are stats-view.js's (pure, unit-tested); this module builds the page from them. Data goes into
// the page as text only (textContent, attributes): never as HTML.

import { $, h } from "./dom.js";
import { F, loadFriends, personButtons } from "./friends.js";
import { contractText, t } from "./i18n.js";
import { fill, LANG, setLang } from "./lang.js";
import {
  barGeometry, comparisonRows, FILTER_GAMES, FORM_WINDOW, formatNumber, formatShare, formatSigned, formatWhen,
  formGeometry, gameRows, historyQuery, isOwn, othersAt, PERIODS, playerOfPath, ratingGeometry, ratingPoints,
  ratingText, readStats, replayHref, resultKey, ROLES, SEATS,
} from "./stats-view.js";
import { splitPlaceholders } from "./text.js";
import { contractOfWords } from "./words.js";

/** @typedef {import("./protocol").MeAnswer} MeAnswer */
/** @typedef {import("./protocol").StatsAnswer} StatsAnswer */
/** @typedef {import("./protocol").RatingsAnswer} RatingsAnswer */
/** @typedef {import("./protocol").HistoryAnswer} HistoryAnswer */
/** @typedef {import("./protocol").HistoryDeal} HistoryDeal */
/** @typedef {import("./protocol").RatingPoint} RatingPoint */
/** @typedef {import("./stats-view.js").Stats} Stats */
/** @typedef {import("./stats-view.js").Filters} Filters */

/** A text of the players' section in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
const L = (key, params) => fill("players", key, params);

/** The computer levels in the order of their strength (docs/ratings.md), for the comparison's columns. */
const LEVELS = ["expert", "strong", "medium", "learned", "heuristic", "easy", "random"];
const params = new URLSearchParams(location.search);
/** The history's page size (`?per=`: a test's few deals over several pages). */
const PER = Math.min(200, Math.max(1, Number(params.get("per")) || 50));
const SVG_NS = "http://www.w3.org/2000/svg";

/** The page's player: "me" or an id of /players/{id}. */
const player = playerOfPath(location.pathname) || "me";

/** What the page knows: who the reader is, the player's statistics and ratings, the history loaded so far. */
const S = {
  /** @type {MeAnswer | null} */ me: null,
  own: player === "me",
  /** @type {StatsAnswer | null} */ answer: null,
  /** a person with no game yet (their page shows the name and the Follow and Block buttons) */
  /** @type {import("./protocol").FriendRef | null} */ person: null,
  /** @type {RatingPoint[]} */ ratings: [],
  /** @type {"loading" | "profile" | "missing" | "failed"} */ status: "loading",
  /** @type {HistoryDeal[]} */ deals: [],
  /** @type {string | null} */ next: null,
  total: 0,
  historyLoaded: false,
  /** @type {Filters} */ filters: {
    game: params.get("game") || "", role: params.get("role") || "", result: params.get("result") || "",
    period: params.get("period") || "all",
  },
  asked: 0,
  loadingHistory: false,
};

/** GET a JSON answer: its status and body (an empty object where it has none). */
/** @param {string} url @returns {Promise<{ok: boolean, status: number, body: any}>} */
async function get(url) {
  const r = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  const body = await r.json().catch(() => ({}));
  return { ok: r.ok, status: r.status, body };
}

/** An SVG element with its attributes and children (text as text nodes). */
/** @param {string} tag @param {Record<string, string | number>} attrs @param {(Node | string)[]} children */
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, typeof v === "number" ? v.toFixed(1) : v);
  el.append(...children);
  return el;
}

/** A text where {lobby} and {account} are links (to the lobby, to the account page). */
/** @param {string} key @param {import("./text.js").Params} [words] */
function withLinks(key, words) {
  return splitPlaceholders(L(key, words), {
    lobby: h("a", { href: "/" }, L("lobbyLink")),
    account: h("a", { href: "/account" }, L("accountLink")),
  });
}

// ------------------------------------------------------------------ friends
/** A signed-in reader on another person's page: Follow and Block (docs/friends.md). */
/** @param {string | null} person the page's a-ID, null where there is nothing to follow @param {string} name
 * @param {Element} [box] where the buttons go (the profile's head) */
async function friendPart(person, name, box = $("#p-friend")) {
  if (!person || !S.me || !S.me.signed_in) { box.replaceChildren(); return; }
  try {
    const data = await loadFriends();
    if (!data) return;
    /** @param {import("./friends.js").FriendsAnswer} d */
    const draw = (d) => box.replaceChildren(personButtons(d, person, name, draw));
    draw(data);
  } catch (e) { console.debug("GET /api/friends", e); }
}

// ------------------------------------------------------------------ loading
async function load() {
  try {
    const me = await get("/api/me");
    S.me = me.ok ? /** @type {MeAnswer} */ (me.body) : null;
    S.own = isOwn(player, S.me);
    const stats = await get(`/api/players/${encodeURIComponent(player)}`);
    if (stats.ok) {
      S.answer = /** @type {StatsAnswer} */ (stats.body);
      const ratings = await get(`/api/players/${encodeURIComponent(player)}/ratings`);
      S.ratings = ratings.ok ? /** @type {RatingsAnswer} */ (ratings.body).history : [];
      S.status = "profile";
    } else if (stats.status === 404 && S.own && S.me && S.me.signed_in && S.me.player) {
      S.status = "profile";  // signed in, no game yet: the profile with nothing in it
    } else {
      S.status = stats.status === 404 ? "missing" : "failed";
      if (stats.status === 404 && player.startsWith("a-") && !S.own) {  // a person with no game yet: a name all the same
        const found = await get(`/api/people/${encodeURIComponent(player)}`);
        S.person = found.ok ? /** @type {import("./protocol").FriendRef} */ (found.body) : null;
      }
    }
  } catch {
    S.status = "failed";
  }
  if (S.status === "profile" && !S.answer) S.historyLoaded = true;  // no game yet: no history to ask for
  render();
  if (S.status === "profile" && S.own && S.answer) await loadHistory(false);
}

/** Load the history's first page for the filters (more: the page after the last one loaded). */
/** @param {boolean} more */
async function loadHistory(more) {
  const asked = ++S.asked;
  S.loadingHistory = true;
  const query = historyQuery(S.filters, Date.now() / 1000, more ? S.next : null, PER);
  $("#p-more").setAttribute("aria-busy", "true");
  try {
    const r = await get(`/api/me/history?${query}`);
    if (asked !== S.asked) return;  // the filters changed meanwhile: a newer answer is on its way
    if (!r.ok) {
      $("#p-history-error").textContent = r.status === 404 ? "" : L("failed");
      if (r.status === 404) { S.deals = []; S.next = null; S.total = 0; S.historyLoaded = true; renderHistory(); }
      return;
    }
    const page = /** @type {HistoryAnswer} */ (r.body);
    S.deals = more ? [...S.deals, ...page.deals] : page.deals;
    S.next = page.next;
    S.total = page.total;
    S.historyLoaded = true;
    $("#p-history-error").textContent = "";
    renderHistory();
  } catch {
    if (asked === S.asked) $("#p-history-error").textContent = L("failed");
  } finally {
    if (asked === S.asked) { $("#p-more").removeAttribute("aria-busy"); S.loadingHistory = false; }
  }
}

// ------------------------------------------------------------------ the page
function render() {
  $("#p-main").setAttribute("aria-busy", S.status === "loading" ? "true" : "false");
  $("#p-loading").classList.toggle("hidden", S.status !== "loading");
  $("#p-missing").classList.toggle("hidden", S.status !== "missing" && S.status !== "failed");
  for (const id of ["#p-profile", "#p-stats"]) $(id).classList.toggle("hidden", S.status !== "profile");
  $("#p-history").classList.toggle("hidden", S.status !== "profile" || !S.own || !S.answer);
  if (S.own) $("#p-nav-me").setAttribute("aria-current", "page");
  else $("#p-nav-me").removeAttribute("aria-current");
  if (S.status === "missing" || S.status === "failed") renderMissing();
  if (S.status !== "profile") {
    $("#p-compare").classList.add("hidden");
    document.title = L("pageTitle");
    return;
  }
  renderProfile();
  renderStats();
  renderCompare();
  if (S.own) { renderFilters(); renderHistory(); }
}

function renderMissing() {
  if (S.status === "missing" && S.person) {  // a person who has played no game here yet: follow or block them
    const name = S.person.name;
    $("#p-missing-title").textContent = name;
    document.title = L("pageTitleOf", { name });
    $("#p-missing-text").textContent = F("noGames", { name });
    $("#p-missing-links").replaceChildren();
    void friendPart(player, name, $("#p-missing-links"));
    return;
  }
  const guest = player === "me" && !(S.me && S.me.signed_in);
  const [title, text] = S.status === "failed" ? ["failedTitle", "failed"]
    : guest ? ["nothingYetTitle", "nothingYetGuest"] : ["noPlayerTitle", "noPlayer"];
  $("#p-missing-title").textContent = L(title);
  $("#p-missing-text").textContent = L(text, { id: player });
  $("#p-missing-links").replaceChildren(...(S.status === "failed" ? [] : guest
    ? withLinks("nothingYetLinks") : withLinks("noPlayerLinks")));
}

/** The player's name as the page shows it: the account's, the computer level's, "you" for a guest. */
function playerName() {
  const ref = S.answer ? S.answer.player : S.me && S.me.player;
  if (!ref) return L("you");
  if (ref.kind === "computer") return L("computerName", { level: levelName(ref.name || ref.id.slice(2)) });
  if (ref.kind === "guest" || !ref.name) return L("guestName");
  return ref.name;
}

/** A computer level's name in the page's language (the table's words: "strong", "stark"). */
/** @param {string} level */
function levelName(level) {
  const key = "lvl_" + level;
  const text = t(key);
  return text === key ? level : text;
}

function renderProfile() {
  const a = S.answer;
  const ref = a ? a.player : S.me && S.me.player;
  const kind = ref ? ref.kind : "guest";
  const name = playerName();
  $("#p-name").textContent = name;
  document.title = L("pageTitleOf", { name });
  $("#p-kind").replaceChildren(L("kind_" + kind), ...(kind === "guest" ? [" ", ...withLinks("guestHint")] : []));
  void friendPart(kind === "person" && !S.own && ref ? ref.id : null, name);
  const r = a ? a.rating : null;
  const box = $("#p-rating");
  if (r) {
    box.replaceChildren(
      figure("rating", ratingText(r, LANG), null, "p-big"),
      figure("leaderValue", formatNumber(r.conservative, LANG), L("leaderValueNote")),
      figure("lists", formatNumber(r.lists, LANG, 0), L("listsGames", { n: r.games })));
    $("#p-rating-note").textContent = L("ratingNote");
  } else {
    box.replaceChildren(figure("rating", L("notRatedShort"), null, "p-big p-unrated"));
    $("#p-rating-note").textContent = ref && ref.kind === "computer" ? "" : L("notRated");
  }
  renderRatingChart();
}

/** A figure of a <dl>: its label, its value (and a note under it). */
/** @param {string} key @param {string} value @param {string | null} [note] @param {string} [cls] */
function figure(key, value, note, cls) {
  return h("div", { cls: "p-figure" + (cls ? " " + cls : ""), "data-figure": key },
    h("dt", {}, L("fig_" + key)), h("dd", {}, h("span", { cls: "p-value" }, value),
      note ? h("span", { cls: "p-note" }, note) : null));
}

/** The width a chart may take: its box's (the page lays the box out; the chart is drawn for it, its text at the
 * page's size on a phone too). */
/** @param {Element} box */
function chartWidth(box) {
  return Math.max(260, Math.min(1200, Math.floor(box.getBoundingClientRect().width) || 600));
}

/** An accessible chart: role img, named by its title and described by its description. */
/** @param {string} id @param {number} width @param {number} height @param {string} title @param {string} desc */
function chartSvg(id, width, height, title, desc) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, width: String(width), height: String(height), role: "img",
    "aria-labelledby": `${id}-title ${id}-desc`, class: "p-plot" },
  s("title", { id: `${id}-title` }, title), s("desc", { id: `${id}-desc` }, desc));
}

/** The y axis's grid lines and labels of a chart's frame. */
/**
 * @param {SVGElement} svg @param {{x0: number, x1: number, ticks: {value: number, y: number}[]}} f
 * @param {(v: number) => string} label
 */
function yAxis(svg, f, label) {
  for (const tick of f.ticks) {
    svg.append(s("line", { x1: f.x0, x2: f.x1, y1: tick.y, y2: tick.y, class: tick.value === 0 ? "zero" : "grid" }),
      s("text", { x: f.x0 - 6, y: tick.y + 4, "text-anchor": "end", class: "tick" }, label(tick.value)));
  }
}

function renderRatingChart() {
  const box = $("#p-rating-chart");
  const history = S.ratings;
  box.classList.toggle("hidden", history.length === 0);
  if (!history.length) return;
  const holder = /** @type {HTMLElement} */ (box.querySelector(".p-svg"));
  const points = ratingPoints(history);
  const width = chartWidth(holder);
  const height = 200;
  const g = ratingGeometry(points, width, height);
  const last = points[points.length - 1];
  const svg = chartSvg("p-rating-svg", width, height, L("ratingChart"),
    L("ratingDesc", { from: ratingText(points[0], LANG), to: ratingText(last, LANG), n: history.length,
      value: formatNumber(last.conservative, LANG) }));
  yAxis(svg, g, (v) => formatNumber(v, LANG, 0));
  svg.append(s("path", { d: g.band, class: "band" }), s("path", { d: g.conservative, class: "cons" }),
    s("path", { d: g.mu, class: "mu" }), ...g.dots.map((d) => s("circle", { cx: d.x, cy: d.y, r: 3.5, class: "mu-dot" })),
    ...g.xLabels.map((l, i) => s("text", { x: l.x, y: height - 8, "text-anchor": i ? "end" : "start", class: "tick" },
      l.n === 0 ? L("start") : L("afterLists", { n: l.n }))));
  holder.replaceChildren(svg);
}

function renderStats() {
  const a = S.answer;
  const stats = readStats(a ? a.stats : {});
  const none = !a || stats.games === 0;
  $("#p-no-games").classList.toggle("hidden", !none);
  $("#p-stats-body").classList.toggle("hidden", none);
  if (none) {
    $("#p-no-games").replaceChildren(...(S.own ? withLinks("noGamesOwn") : [L("noGames")]));
    return;
  }
  const k = stats.kontra;
  $("#p-figures").replaceChildren(
    figure("games", formatNumber(stats.games, LANG, 0), stats.sat_out ? L("satOut", { n: stats.sat_out }) : null),
    figure("declarerShare", formatShare(stats.declarer_share, LANG), L("ofGames", { k: stats.declarer, n: stats.games })),
    figure("declarerWon", formatShare(stats.declarer_won_share, LANG),
      stats.declarer ? L("ofGames", { k: stats.declarer_won, n: stats.declarer }) : null),
    figure("defenderWon", formatShare(stats.defender_won_share, LANG), L("defended", { n: stats.defender })),
    figure("sfPerGame", formatSigned(stats.sf_per_game, LANG, 1), L("sfInAll", { sf: formatSigned(stats.sf, LANG) })),
    figure("sfPerList", formatSigned(stats.sf_per_list, LANG, 0), L("perList")),
    figure("grands", formatNumber(stats.grands, LANG, 0)),
    figure("nulls", formatNumber(stats.nulls, LANG, 0)),
    figure("overbid", formatNumber(stats.overbid, LANG, 0)),
    k.declarer.games + k.defender.games
      ? figure("kontra", L("kontraValue", { won: k.declarer.won + k.defender.won, n: k.declarer.games + k.defender.games }),
        L("kontraNote", { dn: k.declarer.games, dw: k.declarer.won, fn: k.defender.games, fw: k.defender.won }))
      : figure("kontra", "–", L("noKontra")),
    figure("passed", formatNumber(stats.passed, LANG, 0)),
    figure("ramsch", formatNumber(stats.ramsch, LANG, 0), stats.ramsch ? L("ramschLost", { n: stats.ramsch_lost }) : null),
    figure("standIn", formatNumber(stats.stand_in.deals, LANG, 0),
      stats.stand_in.deals ? L("standInNote", { n: stats.stand_in.decisions }) : null));
  renderGamesChart(stats);
  $("#p-seats tbody").replaceChildren(...stats.by_seat.map((seat, i) => h("tr", {},
    h("th", { scope: "row" }, L("seat_" + SEATS[i])), h("td", { cls: "num" }, formatNumber(seat.games, LANG, 0)),
    h("td", { cls: "num" }, formatNumber(seat.declared, LANG, 0)), h("td", { cls: "num" }, formatNumber(seat.won, LANG, 0)),
    h("td", { cls: "num" }, formatShare(seat.won_share, LANG)))));
  renderFormChart();
}

/** The page's font as a canvas takes it, at `px` pixels (for the width of the bar chart's labels). */
/** @param {string} text @param {number} [px] */
function textWidth(text, px = 13) {
  const ctx = document.createElement("canvas").getContext("2d");
  if (!ctx) return text.length * px * 0.6;
  ctx.font = `${px}px ${getComputedStyle(document.body).fontFamily}`;
  return ctx.measureText(text).width;
}

/** @param {Stats} stats */
function renderGamesChart(stats) {
  const holder = $("#p-games-chart .p-svg");
  const rows = gameRows(stats);
  const names = rows.map((r) => t("game_" + r.game));
  const width = chartWidth(holder);
  const g = barGeometry(rows, width, Math.ceil(Math.max(...names.map((n) => textWidth(n)))));
  const said = rows.map((r, i) => r.declared ? L("barDesc", { game: names[i], share: formatShare(r.share, LANG), won: r.won, n: r.declared })
    : L("barNone", { game: names[i] }));
  const svg = chartSvg("p-games-svg", width, g.height, L("byGameChart"), said.join("; "));
  g.rows.forEach((r, i) => {
    const mid = r.y + r.h / 2 + 4.5;
    svg.append(s("text", { x: g.x0 - 8, y: mid, "text-anchor": "end", class: "label" }, names[i]),
      s("rect", { x: g.x0, y: r.y, width: g.x1 - g.x0, height: r.h, rx: 3, class: "track" }),
      ...(r.w ? [s("rect", { x: g.x0, y: r.y, width: r.w, height: r.h, rx: 3, class: "bar", "data-game": r.game })] : []),
      s("text", { x: g.textX, y: mid, class: r.declared ? "value" : "value none" },
        r.declared ? L("barValue", { share: formatShare(r.share, LANG), won: r.won, n: r.declared }) : "–"));
  });
  holder.replaceChildren(svg);
}

function renderFormChart() {
  const form = S.answer ? S.answer.form : [];
  const box = $("#p-form-chart");
  box.classList.toggle("hidden", form.length === 0);
  if (!form.length) return;
  $("#p-form-caption").textContent = L("formChart", { n: form.length });
  $("#p-legend-mean").textContent = L("legendMean", { n: FORM_WINDOW });
  const holder = /** @type {HTMLElement} */ (box.querySelector(".p-svg"));
  const width = chartWidth(holder);
  const height = 220;
  const g = formGeometry(form, width, height);
  const sum = form.reduce((acc, x) => acc + x.sf, 0);
  const svg = chartSvg("p-form-svg", width, height, L("formChart", { n: form.length }),
    L("formDesc", { n: form.length, sf: formatSigned(sum, LANG), per: formatSigned(sum / form.length, LANG, 1),
      won: form.filter((x) => x.won === true).length, lost: form.filter((x) => x.won === false).length }));
  yAxis(svg, g, (v) => formatSigned(v, LANG));
  svg.append(...g.bars.map((b) => s("rect", { x: b.x, y: b.y, width: b.w, height: b.h, class: "game " + b.kind })),
    s("path", { d: g.mean, class: "mean" }),
    ...g.xLabels.map((l, i) => s("text", { x: l.x, y: height - 8, "text-anchor": i ? "end" : "start", class: "tick" },
      i ? L("newest") : L("oldest"))));
  holder.replaceChildren(svg);
}

function renderCompare() {
  const a = S.answer;
  const levels = a ? Object.keys(a.computers).sort((x, y) => rank(x) - rank(y) || x.localeCompare(y)) : [];
  const show = !!a && a.player.kind !== "computer" && levels.length > 0 && readStats(a.stats).games > 0;
  $("#p-compare").classList.toggle("hidden", !show);
  if (!show || !a) return;
  $("#p-compare-title").textContent = S.own ? L("compareTitle") : L("compareTitleOther");
  $("#p-compare-note").textContent = S.own ? L("compareNote") : L("compareNoteOther");
  const own = readStats(a.stats);
  const others = levels.map((lv) => readStats(a.computers[lv]));
  $("#p-compare-table thead").replaceChildren(h("tr", {}, h("th", { scope: "col" }, L("figureCol")),
    h("th", { scope: "col", cls: "num" }, S.own ? L("you") : playerName()),
    ...levels.map((lv) => h("th", { scope: "col", cls: "num level" }, levelName(lv)))));
  $("#p-compare-table tbody").replaceChildren(...comparisonRows(own, others, LANG).map((row) => h("tr", {},
    h("th", { scope: "row" }, L("cmp_" + row.key)), ...row.values.map((v) => h("td", { cls: "num" }, v)))));
}

/** @param {string} level */
function rank(level) {
  const i = LEVELS.indexOf(level);
  return i < 0 ? LEVELS.length : i;
}

// ------------------------------------------------------------------ the history
function renderFilters() {
  /** @param {string} id @param {string} value @param {[string, string][]} options */
  const fillSelect = (id, value, options) => {
    const sel = /** @type {HTMLSelectElement} */ ($(id));
    sel.replaceChildren(...options.map(([v, label]) => h("option", { value: v }, label)));
    sel.value = options.some(([v]) => v === value) ? value : options[0][0];
  };
  const f = S.filters;
  fillSelect("#f-game", f.game || "", [["", L("anyGame")], ...FILTER_GAMES.map((g) => /** @type {[string, string]} */ (
    [g, g === "passed" ? L("passedIn") : t("game_" + g)]))]);
  fillSelect("#f-role", f.role || "", [["", L("anyRole")], ...ROLES.map((r) => /** @type {[string, string]} */ ([r, L("role_" + r)]))]);
  fillSelect("#f-result", f.result || "", [["", L("anyResult")], ["won", L("won")], ["lost", L("lost")]]);
  fillSelect("#f-period", f.period || "all", PERIODS.map((p) => /** @type {[string, string]} */ ([p, L("period_" + p)])));
}

function filtersChanged() {
  const value = (/** @type {string} */ id) => /** @type {HTMLSelectElement} */ ($(id)).value;
  S.filters = { game: value("#f-game"), role: value("#f-role"), result: value("#f-result"), period: value("#f-period") };
  const q = new URLSearchParams(location.search);
  for (const [k, v] of Object.entries(S.filters)) {
    if (v && !(k === "period" && v === "all")) q.set(k, v); else q.delete(k);
  }
  const search = q.toString();
  history.replaceState(null, "", location.pathname + (search ? "?" + search : ""));
  void loadHistory(false);
}

/** A deal's game in words: the contract ("Grand Hand"), Ramsch, passed in; Kontra or Re and an overbid game
 * after it. */
/** @param {HistoryDeal} d */
function gameWords(d) {
  let words;
  if (d.game === "passed") words = L("passedIn");
  else if (d.game === "ramsch") words = t("game_ramsch");
  else if (["grand", "clubs", "spades", "hearts", "diamonds", "null"].includes(d.game)) {
    words = contractText(contractOfWords(d.contract));
  } else words = d.contract;
  if (d.kontra >= 2) words += " · " + t("re");
  else if (d.kontra === 1) words += " · " + t("kontra");
  if (d.overbid) words += " · " + L("overbidMark");
  if (d.stand_in) words += " · " + L("standInMark", { n: d.stand_in });
  return words;
}

/** A cell of the history's table, with its column's name for the phone's stacked rows. */
/** @param {string} col @param {string} cls @param {...import("./dom.js").Child} children */
function cell(col, cls, ...children) {
  return h("td", { cls: `c-${col} ${cls}`.trim(), "data-label": L("col" + col[0].toUpperCase() + col.slice(1)) }, ...children);
}

function renderHistory() {
  const filtered = !!(S.filters.game || S.filters.role || S.filters.result || (S.filters.period && S.filters.period !== "all"));
  const empty = S.historyLoaded && S.deals.length === 0;
  $("#p-history-empty").classList.toggle("hidden", !empty);
  $("#p-history-empty").replaceChildren(...(filtered ? [L("noMatch")] : withLinks("noGamesOwn")));
  $("#p-deals").classList.toggle("hidden", S.deals.length === 0);
  $("#p-count").textContent = S.historyLoaded && (S.total || filtered)
    ? L(filtered ? "countFiltered" : "count", { n: S.total, shown: S.deals.length }) : "";
  $("#p-more").classList.toggle("hidden", !S.next);
  $("#p-deals tbody").replaceChildren(...S.deals.map((d) => {
    const others = othersAt(d);
    const result = resultKey(d);
    return h("tr", { cls: "deal r-" + result, "data-table": d.table_id, "data-deal": d.deal_no, "data-role": d.role },
      cell("when", "", h("a", { href: replayHref(d), cls: "p-replay" }, formatWhen(d.at, LANG))),
      cell("table", "", h("span", { cls: "p-table-name" }, d.table_name),
        others.length ? h("span", { cls: "p-others" }, L("with", { names: others.join(", ") })) : null),
      cell("game", "", gameWords(d)),
      cell("role", "", L("role_" + d.role)),
      cell("seat", "", d.seat === null ? "–" : L("seat_" + SEATS[d.seat])),
      cell("bid", "num", d.bid ? String(d.bid) : "–"),
      cell("result", "", h("span", { cls: "p-result " + result }, result === "none" ? "–" : L(result))),
      cell("score", "num", formatSigned(d.score, LANG)),
      cell("sf", "num", formatSigned(d.sf, LANG)));
  }));
}

// ------------------------------------------------------------------ texts and events
function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-l]").forEach((el) => { el.textContent = L(el.getAttribute("data-l") || ""); });
  document.querySelectorAll("[data-l-label]").forEach((el) => el.setAttribute("aria-label", L(el.getAttribute("data-l-label") || "")));
}

const selLang = /** @type {HTMLSelectElement} */ ($("#p-lang"));
selLang.value = LANG;
selLang.addEventListener("change", () => {
  setLang(selLang.value);
  applyTexts();
  render();
});
for (const id of ["#f-game", "#f-role", "#f-result", "#f-period"]) $(id).addEventListener("change", filtersChanged);
$("#p-filters").addEventListener("submit", (ev) => ev.preventDefault());
$("#p-more").addEventListener("click", () => { if (S.next) void loadHistory(true); });

/** The charts are drawn for their boxes' widths: again when the window's width changes. */
let resizing = 0;
let lastWidth = window.innerWidth;
window.addEventListener("resize", () => {
  if (window.innerWidth === lastWidth) return;
  lastWidth = window.innerWidth;
  clearTimeout(resizing);
  resizing = window.setTimeout(() => { if (S.status === "profile") { renderRatingChart(); renderStats(); } }, 150);
});

applyTexts();
void load();

// for the browser tests and a curious player's console: what the page loaded
Object.assign(window, {
  playersPage: () => ({ status: S.status, own: S.own, player, deals: S.deals.length, total: S.total, next: S.next,
    historyLoaded: S.historyLoaded, loading: S.loadingHistory }),
});
