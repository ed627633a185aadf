// A player's page (/me, /players/{id}) without the page: the figures of GET /api/players/{id} read and written in
// the reader's language, the history's query, and the geometry of the charts (the rating history, the won share by
// game type, the form). Pure: no page, no browser, so tests/js/players.test.js tests the same code the page runs.

/** @typedef {import("./protocol").FormGame} FormGame */
/** @typedef {import("./protocol").RatingPoint} RatingPoint */
/** @typedef {import("./protocol").Rating} Rating */
/** @typedef {import("./protocol").HistoryDeal} HistoryDeal */

/** A game type's figures as declarer: games declared, won, the won share (null: none declared). */
/** @typedef {{declared: number, won: number, won_share: number | null}} GameFigures */
/** A seat's figures (forehand, middlehand, rearhand): games at it, declared, won, the won share as declarer. */
/** @typedef {{games: number, declared: number, won: number, won_share: number | null}} SeatFigures */
/** Kontra in games a player declared or defended: how many, and how many of them the player's side won. */
/** @typedef {{games: number, won: number}} KontraFigures */
/** The statistics of a player (src/skat/server/history.py, _stats_of); shares are null where they count nothing. */
/**
 * @typedef {{games: number, deals: number, sat_out: number, declarer: number, declarer_share: number | null,
 *   declarer_won: number, declarer_won_share: number | null, defender: number, defender_won_share: number | null,
 *   by_game: Record<string, GameFigures>, by_seat: SeatFigures[], grands: number, nulls: number, overbid: number,
 *   passed: number, ramsch: number, ramsch_lost: number, kontra: {declarer: KontraFigures, defender: KontraFigures},
 *   sf: number, score: number, sf_per_game: number | null, sf_per_list: number | null,
 *   stand_in: {deals: number, decisions: number}}} Stats
 */

/** The game types a declarer plays, in the order of their base values. */
export const GAME_TYPES = /** @type {const} */ (["grand", "clubs", "spades", "hearts", "diamonds", "null"]);
/** The history's game filter: the game types, Ramsch and the deals passed in. */
export const FILTER_GAMES = /** @type {const} */ ([...GAME_TYPES, "ramsch", "passed"]);
/** The roles of a deal in the history (out: sat out as the dealer at a table of four or five). */
export const ROLES = /** @type {const} */ (["declarer", "defender", "ramsch", "passed", "out"]);
/** The history's periods. */
export const PERIODS = /** @type {const} */ (["7d", "30d", "all"]);
/** The seats' keys (game seat 0, 1, 2). */
export const SEATS = /** @type {const} */ (["forehand", "middlehand", "rearhand"]);
/** A new player's rating (OpenSkill's scale: history.py's MU, SIGMA): the rating chart starts there. */
export const START = { mu: 25, sigma: 25 / 3 };
/** The games of a list (Seeger-Fabian points per list: per 36 games). */
export const LIST = 36;
/** The games the form chart's running mean takes (a list of a table's ratings: history.py's LIST_GAMES). */
export const FORM_WINDOW = 12;
const DAY = 86400;

/** A number of an answer, or `fallback` where it is none. */
/** @param {unknown} x @param {number} [fallback] */
function num(x, fallback = 0) {
  return typeof x === "number" && Number.isFinite(x) ? x : fallback;
}

/** A share of an answer (null where it is none). */
/** @param {unknown} x @returns {number | null} */
function share(x) {
  return typeof x === "number" && Number.isFinite(x) ? x : null;
}

/** The statistics of an answer's open object (a missing figure is 0, a missing share null). */
/** @param {unknown} open @returns {Stats} */
export function readStats(open) {
  const o = /** @type {Record<string, any>} */ (open && typeof open === "object" ? open : {});
  /** @type {Record<string, GameFigures>} */
  const byGame = {};
  for (const [game, g] of Object.entries(o.by_game && typeof o.by_game === "object" ? o.by_game : {})) {
    byGame[game] = { declared: num(g?.declared), won: num(g?.won), won_share: share(g?.won_share) };
  }
  const seats = Array.isArray(o.by_seat) ? o.by_seat : [];
  const kontra = o.kontra && typeof o.kontra === "object" ? o.kontra : {};
  /** @param {any} k @returns {KontraFigures} */
  const kontraOf = (k) => ({ games: num(k?.games), won: num(k?.won) });
  return {
    games: num(o.games), deals: num(o.deals), sat_out: num(o.sat_out), declarer: num(o.declarer),
    declarer_share: share(o.declarer_share), declarer_won: num(o.declarer_won),
    declarer_won_share: share(o.declarer_won_share), defender: num(o.defender),
    defender_won_share: share(o.defender_won_share), by_game: byGame,
    by_seat: [0, 1, 2].map((s) => ({ games: num(seats[s]?.games), declared: num(seats[s]?.declared),
      won: num(seats[s]?.won), won_share: share(seats[s]?.won_share) })),
    grands: num(o.grands), nulls: num(o.nulls), overbid: num(o.overbid), passed: num(o.passed),
    ramsch: num(o.ramsch), ramsch_lost: num(o.ramsch_lost),
    kontra: { declarer: kontraOf(kontra.declarer), defender: kontraOf(kontra.defender) },
    sf: num(o.sf), score: num(o.score), sf_per_game: share(o.sf_per_game), sf_per_list: share(o.sf_per_list),
    stand_in: { deals: num(o.stand_in?.deals), decisions: num(o.stand_in?.decisions) },
  };
}

// ------------------------------------------------------------------ numbers in the reader's language
/** A number with `digits` decimals in `lang` ("23.4", "23,4"); a dash for none. */
/** @param {number | null | undefined} x @param {string} lang @param {number} [digits] */
export function formatNumber(x, lang, digits = 1) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x)
    .replace("-", "\u2212");  // a minus sign
}

/** A number with its sign ("+23", "−5", "0"), as Seeger-Fabian points and list scores are written; a dash for
 * none. */
/** @param {number | null | undefined} x @param {string} lang @param {number} [digits] */
export function formatSigned(x, lang, digits = 0) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  const text = new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits,
    signDisplay: "exceptZero" }).format(x);
  return text.replace("-", "\u2212");  // a minus sign, as wide as the plus
}

/** A share as a percentage in `lang` ("75%", "75 %"); a dash for none. */
/** @param {number | null | undefined} x @param {string} lang */
export function formatShare(x, lang) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "–";
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(x);
}

/** A rating as "μ ± σ" ("27.3 ± 6.1"). */
/** @param {{mu: number, sigma: number}} r @param {string} lang */
export function ratingText(r, lang) {
  return `${formatNumber(r.mu, lang)} ± ${formatNumber(r.sigma, lang)}`;
}

/** A moment (Unix seconds) as the reader's language writes a date and a time. */
/** @param {number} at @param {string} lang @param {string} [timeZone] */
export function formatWhen(at, lang, timeZone) {
  return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(at * 1000));
}

// ------------------------------------------------------------------ the page's player and history
/** The player a page's path names: "me" (/me), the id of /players/{id}, or null for another path. */
/** @param {string} pathname @returns {string | null} */
export function playerOfPath(pathname) {
  if (/^\/me\/?$/.test(pathname)) return "me";
  const m = pathname.match(/^\/players\/([^/]+)\/?$/);
  if (!m) return null;
  try { return decodeURIComponent(m[1]); } catch { return null; }
}

/** Whether the page's player is the reader: /me, or the id GET /api/me says is the reader's. */
/** @param {string} player @param {{player: {id: string} | null} | null} me */
export function isOwn(player, me) {
  return player === "me" || (!!me && !!me.player && me.player.id === player);
}

/** The history's filters: a game of FILTER_GAMES, a role, a result (won, lost), a period of PERIODS ("" or
 * "all": any). */
/** @typedef {{game?: string, role?: string, result?: string, period?: string}} Filters */

/** The first moment (Unix seconds) of a period ending `now`, or null for all time. */
/** @param {string | undefined} period @param {number} now */
export function sinceOf(period, now) {
  if (period === "7d") return Math.floor(now - 7 * DAY);
  if (period === "30d") return Math.floor(now - 30 * DAY);
  return null;
}

/** The query of GET /api/me/history for the filters (and the next page's cursor). */
/** @param {Filters} f @param {number} now @param {string | null} [cursor] @param {number} [limit] */
export function historyQuery(f, now, cursor, limit) {
  const q = new URLSearchParams();
  if (f.game && (/** @type {readonly string[]} */ (FILTER_GAMES)).includes(f.game)) q.set("game", f.game);
  if (f.role && (/** @type {readonly string[]} */ (ROLES)).includes(f.role)) q.set("role", f.role);
  if (f.result === "won" || f.result === "lost") q.set("result", f.result);
  const since = sinceOf(f.period, now);
  if (since !== null) q.set("since", String(since));
  if (cursor) q.set("cursor", cursor);
  if (limit) q.set("limit", String(limit));
  return q.toString();
}

/** The replay page of a deal of the history. */
/** @param {{table_id: string, deal_no: number}} deal */
export function replayHref(deal) {
  return `/replay/${encodeURIComponent(deal.table_id)}/${encodeURIComponent(String(deal.deal_no))}`;
}

/** The others at a deal's table (the names in position order, without the player's own). */
/** @param {{players: string[], position: number}} deal */
export function othersAt(deal) {
  return deal.players.filter((name, p) => p !== deal.position && name);
}

/** The key of a deal's result: won, lost, or none (passed in, sat out). */
/** @param {{won: boolean | null}} deal */
export function resultKey(deal) {
  return deal.won === true ? "won" : deal.won === false ? "lost" : "none";
}

// ------------------------------------------------------------------ the tables of figures
/** The figures by game type, every game type in GAME_TYPES' order (none declared: 0 of 0). */
/** @param {Stats} s @returns {{game: string, declared: number, won: number, share: number | null}[]} */
export function gameRows(s) {
  return GAME_TYPES.map((game) => {
    const g = s.by_game[game];
    return { game, declared: g ? g.declared : 0, won: g ? g.won : 0, share: g ? g.won_share : null };
  });
}

/** The figures that stand side by side in the comparison with the computer players (the key of each row's
 * label, and how each value is written). */
export const COMPARED = /** @type {const} */ ([
  ["games", "count"], ["declarer_share", "share"], ["declarer_won_share", "share"], ["defender_won_share", "share"],
  ["sf_per_game", "decimal"], ["sf_per_list", "signed"], ["grands", "count"], ["nulls", "count"], ["overbid", "count"],
]);

/** The comparison's rows: each figure of COMPARED, its value for the player and for each computer player. */
/** @param {Stats} own @param {Stats[]} others @param {string} lang @returns {{key: string, values: string[]}[]} */
export function comparisonRows(own, others, lang) {
  return COMPARED.map(([key, how]) => ({
    key,
    values: [own, ...others].map((s) => {
      const v = s[key];
      if (how === "share") return formatShare(v, lang);
      if (how === "decimal") return formatSigned(v, lang, 1);
      if (how === "signed") return formatSigned(v, lang, 0);
      return formatNumber(v, lang, 0);
    }),
  }));
}

// ------------------------------------------------------------------ the charts' geometry
/** Round numbers from lo to hi for an axis (about `count` of them), 1, 2 or 5 times a power of ten apart. */
/** @param {number} lo @param {number} hi @param {number} [count] @returns {number[]} */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) ticks.push(Math.round(v / step) * step);
  return ticks.map((v) => (Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12))));
}

/** The range a chart's axis shows for `values`: round ends (of niceTicks) around all of them with a little room,
 * `atLeast` apart; 0 stays an end where it is one (a chart of gains only starts at 0). */
/** @param {number[]} values @param {number} [atLeast] @returns {[number, number]} */
export function axisRange(values, atLeast = 1) {
  let lo = Math.min(...values), hi = Math.max(...values);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) { lo = 0; hi = atLeast; }
  if (hi - lo < atLeast) { const mid = (hi + lo) / 2; lo = mid - atLeast / 2; hi = mid + atLeast / 2; }
  const room = (hi - lo) * 0.05;  // a line at the highest value does not run along the frame's edge
  if (hi !== 0) hi += room;
  if (lo !== 0) lo -= room;
  const ticks = niceTicks(lo, hi);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : atLeast;
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
}

/** A linear map of [d0, d1] onto [r0, r1]. */
/** @param {number} d0 @param {number} d1 @param {number} r0 @param {number} r1 @returns {(v: number) => number} */
export function linear(d0, d1, r0, r1) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** An SVG path through points ("M1,2 L3,4 ..."), one decimal. */
/** @param {[number, number][]} points */
export function linePath(points) {
  return points.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
}

/** The running mean of the last `window` values at each value (fewer at the start). */
/** @param {number[]} values @param {number} window @returns {number[]} */
export function runningMean(values, window) {
  let sum = 0;
  return values.map((v, i) => {
    sum += v;
    if (i >= window) sum -= values[i - window];
    return sum / Math.min(i + 1, window);
  });
}

/** The margins of a chart: the axis labels' room at the left, a little at the right, the top and the bottom. */
const PAD = { left: 44, right: 12, top: 12, bottom: 26 };

/** The geometry of a chart's frame: the plot's box, the y axis's ticks (value, y), the y map. */
/**
 * @param {number} width @param {number} height @param {[number, number]} range
 * @returns {{x0: number, x1: number, y0: number, y1: number, y: (v: number) => number, ticks: {value: number, y: number}[]}}
 */
function frame(width, height, range) {
  const x0 = PAD.left, x1 = width - PAD.right, y0 = PAD.top, y1 = height - PAD.bottom;
  const y = linear(range[0], range[1], y1, y0);
  const ticks = niceTicks(range[0], range[1], 4).map((value) => ({ value, y: y(value) }));
  return { x0, x1, y0, y1, y, ticks };
}

/** The rating after each rated list, from a new player's rating (START) on: each point's μ, σ and the
 * leaderboard's value μ − 3σ. */
/** @param {RatingPoint[]} history @returns {{mu: number, sigma: number, conservative: number, at: number | null}[]} */
export function ratingPoints(history) {
  return [{ ...START, conservative: START.mu - 3 * START.sigma, at: null },
    ...history.map((p) => ({ mu: p.mu, sigma: p.sigma, conservative: p.mu - 3 * p.sigma, at: p.at }))];
}

/** The rating chart: the line of μ over the lists, the band μ ± σ around it, the dashed line of μ − 3σ. */
/**
 * @param {ReturnType<typeof ratingPoints>} points @param {number} width @param {number} height
 */
export function ratingGeometry(points, width, height) {
  const values = points.flatMap((p) => [p.mu + p.sigma, p.mu - p.sigma, p.conservative]);
  const f = frame(width, height, axisRange(values, 5));
  const x = linear(0, Math.max(1, points.length - 1), f.x0, f.x1);
  /** @type {[number, number][]} */
  const upper = points.map((p, i) => [x(i), f.y(p.mu + p.sigma)]);
  /** @type {[number, number][]} */
  const lower = points.map((p, i) => [x(i), f.y(p.mu - p.sigma)]);
  return {
    ...f,
    mu: linePath(points.map((p, i) => [x(i), f.y(p.mu)])),
    band: linePath([...upper, ...lower.reverse()]) + " Z",
    conservative: linePath(points.map((p, i) => [x(i), f.y(p.conservative)])),
    dots: points.map((p, i) => ({ x: x(i), y: f.y(p.mu) })),
    xLabels: [{ x: x(0), n: 0 }, ...(points.length > 1 ? [{ x: x(points.length - 1), n: points.length - 1 }] : [])],
  };
}

/** The form chart: a bar for each game's Seeger-Fabian points (up: gained, down: lost), oldest at the left, and
 * the line of their running mean over FORM_WINDOW games. */
/** @param {{sf: number, won: boolean | null}[]} form @param {number} width @param {number} height */
export function formGeometry(form, width, height) {
  const sf = form.map((g) => g.sf);
  const mean = runningMean(sf, FORM_WINDOW);
  const f = frame(width, height, axisRange([0, ...sf, ...mean], 20));
  const n = Math.max(1, form.length);
  const slot = (f.x1 - f.x0) / n;
  const barWidth = Math.max(1, Math.min(18, slot * 0.7));
  const mid = (/** @type {number} */ i) => f.x0 + slot * (i + 0.5);
  const zero = f.y(0);
  return {
    ...f, zero,
    bars: form.map((g, i) => {
      const top = f.y(Math.max(0, g.sf)), bottom = f.y(Math.min(0, g.sf));
      return { x: mid(i) - barWidth / 2, y: top, w: barWidth, h: Math.max(1, bottom - top),
        kind: g.sf > 0 ? "up" : g.sf < 0 ? "down" : "zero" };
    }),
    mean: linePath(mean.map((m, i) => [mid(i), f.y(m)])),
    xLabels: form.length ? [{ x: f.x0, n: 1 }, ...(form.length > 1 ? [{ x: f.x1, n: form.length }] : [])] : [],
  };
}

/** The bar chart of the won share by game type: a row per game type, its bar as long as the share of the games
 * declared that were won (none declared: no bar). */
/** @param {ReturnType<typeof gameRows>} rows @param {number} width @param {number} labelWidth */
export function barGeometry(rows, width, labelWidth) {
  const rowHeight = 26, x0 = labelWidth + 16, valueWidth = 92;
  const x1 = Math.max(x0 + 40, width - valueWidth);
  return {
    height: rows.length * rowHeight + 4, x0, x1, textX: x1 + 6,
    rows: rows.map((r, i) => ({ ...r, y: 2 + i * rowHeight, h: rowHeight - 8,
      w: r.share === null ? 0 : Math.max(r.share > 0 ? 2 : 0, (x1 - x0) * r.share) })),
  };
}
