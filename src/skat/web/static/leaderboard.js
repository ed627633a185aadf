// The leaderboards (/leaderboard, docs/history.md and docs/ratings.md): people or computer players, all time (by
// the rating's conservative value mu - 3 sigma, with mu ± sigma and the rated lists beside it) or the last 30 days
// (by Seeger-Fabian points per game). GET /api/leaderboard answers; GET /api/me says which row is the reader's own.
// The choice is kept in the address (?kind=computer&period=30d), so a link shows the same board.

import { $, h } from "./dom.js";
import { CATALOGS, fill, LANG, setLang } from "./lang.js";
import { api } from "./net.js";

/** @typedef {import("./protocol").LeaderboardAnswer} LeaderboardAnswer */
/** @typedef {import("./protocol").LeaderRow} LeaderRow */
/** @typedef {import("./protocol").MeAnswer} MeAnswer */
/** @typedef {"person" | "computer"} Kind */
/** @typedef {"all" | "30d"} Period */

/** A text of the account section (the leaderboard's texts are there) in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
const A = (key, params) => fill("account", key, params);

/** The board shown, the answer for it (null while it loads), the reader (GET /api/me) and a failure to load. */
/** @type {{kind: Kind, period: Period, board: LeaderboardAnswer | null, me: MeAnswer | null, error: string | null}} */
const P = { kind: "person", period: "all", board: null, me: null, error: null };

{
  const q = new URLSearchParams(location.search);
  if (q.get("kind") === "computer") P.kind = "computer";
  if (q.get("period") === "30d") P.period = "30d";
}

/** A number in the page's language with `digits` decimals. */
/** @param {number} x @param {number} [digits] */
function num(x, digits = 1) {
  return new Intl.NumberFormat(LANG, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A signed number (+12, −3) in the page's language. */
/** @param {number} x @param {number} [digits] */
function signedNum(x, digits = 0) {
  return new Intl.NumberFormat(LANG, { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: "exceptZero" }).format(x);
}

/** A player's name as shown: a computer player by its level in the page's language. */
/** @param {LeaderRow["player"]} player */
function playerName(player) {
  const name = player.name || "";
  if (player.kind === "computer") return "level_" + name in CATALOGS.en.table ? fill("table", "level_" + name) : name;
  return name;
}

/** The columns of the board shown: [key of the header text, numeric]. */
function columns() {
  return P.period === "all"
    ? [["colRank", true], ["colPlayer", false], ["colRating", true], ["colSkill", true], ["colLists", true], ["colGames", true]]
    : [["colRank", true], ["colPlayer", false], ["colGames", true], ["colSf", true], ["colSfPerGame", true]];
}

/** @param {LeaderRow} row @param {boolean} mine */
function rowCells(row, mine) {
  const link = h("a", { href: "/players/" + encodeURIComponent(row.player.id) }, playerName(row.player));
  const player = h("td", { cls: "player" }, link, mine ? h("span", { cls: "you" }, A("you")) : null);
  const rank = h("td", { cls: "num rank" }, row.rank);
  if (P.period === "all") {
    const r = row.rating;
    if (!r) return [rank, player, h("td"), h("td", { cls: "skill-col" }), h("td"), h("td")];
    const skill = `${num(r.mu)} ± ${num(r.sigma)}`;
    // on a phone mu ± sigma stands under the rating (its own column is hidden there)
    return [rank, player, h("td", { cls: "num rating" }, num(r.conservative), h("span", { cls: "skill-inline" }, skill)),
      h("td", { cls: "num skill skill-col" }, skill),
      h("td", { cls: "num" }, r.lists), h("td", { cls: "num" }, r.games)];
  }
  return [rank, player, h("td", { cls: "num" }, row.games ?? ""), h("td", { cls: "num" }, row.sf === undefined || row.sf === null ? "" : signedNum(row.sf)),
    h("td", { cls: "num rating" }, row.sf_per_game === undefined || row.sf_per_game === null ? "" : signedNum(row.sf_per_game, 1))];
}

function render() {
  /** @type {Record<string, string>} */
  const names = { person: A("people"), computer: A("computers"), all: A("allTime"), "30d": A("last30") };
  $("#lb-person", HTMLInputElement).checked = P.kind === "person";
  $("#lb-computer", HTMLInputElement).checked = P.kind === "computer";
  $("#lb-all", HTMLInputElement).checked = P.period === "all";
  $("#lb-30d", HTMLInputElement).checked = P.period === "30d";
  $("#lb-explain").textContent = A(P.period === "all" ? "explainAll" : "explain30");
  $("#lb-caption").textContent = A("caption", { who: names[P.kind], period: names[P.period] });
  $("#lb-error").textContent = P.error ? A("loadError", { message: P.error }) : "";
  const board = P.board && P.board.kind === P.kind && P.board.period === P.period ? P.board : null;
  const rows = board ? board.rows : [];
  $("#lb-table").classList.toggle("hidden", !rows.length);
  $("#lb-table").setAttribute("aria-busy", board ? "false" : "true");
  const empty = $("#lb-empty");
  empty.classList.toggle("hidden", !!rows.length && !!board);
  empty.classList.toggle("muted", !board);
  empty.textContent = !board ? (P.error ? "" : A("loading")) : rows.length ? "" : A(P.period === "all" ? "emptyAll" : "empty30");
  const head = $("#lb-head");
  head.replaceChildren(...columns().map(([key, numeric]) => h("th", { scope: "col",
    cls: [numeric ? "num" : "", key === "colSkill" ? "skill-col" : ""].join(" ").trim() || null }, A(String(key)))));
  const me = P.me && P.me.player && P.me.signed_in ? P.me.player.id : null;
  $("#lb-rows").replaceChildren(...rows.map((row) => {
    const mine = me !== null && row.player.id === me;
    return h("tr", { cls: mine ? "mine" : null, "aria-current": mine ? "true" : null }, rowCells(row, mine));
  }));
  topLinks();
}

/** The top bar's link: "Sign in", or the signed-in person's name to their games. */
function topLinks() {
  const link = $("#lb-account", HTMLAnchorElement);
  const person = P.me && P.me.signed_in && P.me.player ? P.me.player : null;
  if (person) {
    link.removeAttribute("data-l");
    link.textContent = person.name || "";
    link.setAttribute("href", "/me");
    link.className = "me-link";
    link.title = A("myGames");
  }
}

let asked = 0;
async function load() {
  const ask = ++asked;
  P.board = null;
  P.error = null;
  render();
  try {
    /** @type {LeaderboardAnswer} */
    const board = await api("GET", `/api/leaderboard?kind=${P.kind}&period=${P.period}`);
    if (ask !== asked) return;  // another board was chosen meanwhile
    P.board = board;
  } catch (e) {
    if (ask !== asked) return;
    P.error = e instanceof Error ? e.message : String(e);
  }
  render();
}

/** Show the board the switches say, and keep it in the address. */
function choose() {
  P.kind = $("#lb-computer", HTMLInputElement).checked ? "computer" : "person";
  P.period = $("#lb-30d", HTMLInputElement).checked ? "30d" : "all";
  const q = new URLSearchParams();
  if (P.kind !== "person") q.set("kind", P.kind);
  if (P.period !== "all") q.set("period", P.period);
  history.replaceState(null, "", location.pathname + (q.size ? "?" + q : ""));
  void load();
}
document.querySelectorAll("#lb-switches input").forEach((el) => el.addEventListener("change", choose));

function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-l]").forEach((el) => { el.textContent = A(el.getAttribute("data-l") || ""); });
  document.querySelectorAll("[data-l-label]").forEach((el) => el.setAttribute("aria-label", A(el.getAttribute("data-l-label") || "")));
  document.title = A("lbPageTitle");
}

const selLang = $("#lb-lang", HTMLSelectElement);
selLang.value = LANG;
selLang.addEventListener("change", () => {
  setLang(selLang.value);
  applyTexts();
  render();
});

applyTexts();
render();
void load();
api("GET", "/api/me").then((me) => { P.me = me; render(); }).catch((e) => console.debug("GET /api/me", e));

// for the browser tests and a curious player's console: the board shown and the reader
Object.assign(window, { leaderboard: () => ({ kind: P.kind, period: P.period, board: P.board, me: P.me }) });
