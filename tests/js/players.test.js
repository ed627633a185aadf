// A player's page without the page (src/skat/web/static/stats-view.js): the statistics read from an answer, the
// figures in the reader's language, the history's query, the charts' geometry; and every text the page asks for
// is in the catalogs' "players" section.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as sv from "../../src/skat/web/static/stats-view.js";
import { LANGUAGES } from "../../src/skat/web/static/text.js";
import { CATALOGS, STATIC } from "./catalogs.js";

/** An answer's stats as the server writes them (history.py, _stats_of): two games, one declared and won. */
const ANSWER = {
  games: 2, deals: 2, sat_out: 0, declarer: 1, declarer_share: 0.5, declarer_won: 1, declarer_won_share: 1,
  defender: 1, defender_won_share: 0, by_game: { grand: { declared: 1, won: 1, won_share: 1 } },
  by_seat: [{ games: 1, declared: 1, won: 1, won_share: 1 }, { games: 1, declared: 0, won: 0, won_share: null },
    { games: 0, declared: 0, won: 0, won_share: null }],
  grands: 1, nulls: 0, overbid: 0, passed: 0, ramsch: 0, ramsch_lost: 0,
  kontra: { declarer: { games: 0, won: 0 }, defender: { games: 1, won: 0 } },
  sf: 74, score: 96, sf_per_game: 37, sf_per_list: 1332,
};

test("the statistics of an answer: its figures, and 0 or null where one is missing", () => {
  const s = sv.readStats(ANSWER);
  assert.equal(s.games, 2);
  assert.equal(s.declarer_won_share, 1);
  assert.deepEqual(s.by_game.grand, { declared: 1, won: 1, won_share: 1 });
  assert.equal(s.by_seat[2].won_share, null);
  const empty = sv.readStats({});
  assert.equal(empty.games, 0);
  assert.equal(empty.declarer_share, null);
  assert.equal(empty.by_seat.length, 3);
  assert.deepEqual(empty.kontra, { declarer: { games: 0, won: 0 }, defender: { games: 0, won: 0 } });
  assert.equal(sv.readStats(null).sf_per_list, null);
});

test("numbers in the reader's language: decimals, signs, shares, a rating, a dash for none", () => {
  assert.equal(sv.formatNumber(23.45, "en"), "23.5");
  assert.equal(sv.formatNumber(23.45, "de"), "23,5");
  assert.equal(sv.formatNumber(null, "en"), "–");
  assert.equal(sv.formatNumber(-2.76, "en"), "\u22122.8");
  assert.equal(sv.formatSigned(12, "en"), "+12");
  assert.equal(sv.formatSigned(-5, "en"), "\u22125");  // a minus sign, not a hyphen
  assert.equal(sv.formatSigned(0, "en"), "0");
  assert.equal(sv.formatSigned(-7.25, "de", 1), "\u22127,3");
  assert.equal(sv.formatShare(0.75, "en"), "75%");
  assert.match(sv.formatShare(0.75, "de"), /^75\s%$/);
  assert.equal(sv.formatShare(null, "de"), "–");
  assert.equal(sv.ratingText({ mu: 27.34, sigma: 6.08 }, "en"), "27.3 ± 6.1");
  assert.equal(sv.ratingText({ mu: 27.34, sigma: 6.08 }, "ru"), "27,3 ± 6,1");
  assert.match(sv.formatWhen(1764957600, "en", "UTC"), /Dec 5, 2025.*6:00\s?PM/);
  assert.match(sv.formatWhen(1764957600, "de", "UTC"), /05\.12\.2025.*18:00/);
});

test("the page's player: /me, /players/{id}; the reader's own page by GET /api/me", () => {
  assert.equal(sv.playerOfPath("/me"), "me");
  assert.equal(sv.playerOfPath("/players/b-strong"), "b-strong");
  assert.equal(sv.playerOfPath("/players/a-x%20y/"), "a-x y");
  assert.equal(sv.playerOfPath("/players/"), null);
  assert.equal(sv.playerOfPath("/t/abc"), null);
  const me = { player: { id: "a-abc", name: "Ada", kind: "person" }, signed_in: true };
  assert.ok(sv.isOwn("me", null));
  assert.ok(sv.isOwn("a-abc", me));
  assert.ok(!sv.isOwn("a-xyz", me));
  assert.ok(!sv.isOwn("b-strong", { player: null, signed_in: false }));
});

test("the history's query: only the filters given, a period as its first moment, the cursor and the page size", () => {
  const now = 1_800_000_000;
  assert.equal(sv.historyQuery({}, now), "");
  assert.equal(sv.historyQuery({ game: "grand", role: "declarer", result: "won", period: "all" }, now, null, 50),
    "game=grand&role=declarer&result=won&limit=50");
  assert.equal(sv.historyQuery({ period: "7d" }, now), `since=${now - 7 * 86400}`);
  assert.equal(sv.historyQuery({ period: "30d" }, now, "1799.5:12"), `since=${now - 30 * 86400}&cursor=1799.5%3A12`);
  // values the server would refuse are left out
  assert.equal(sv.historyQuery({ game: "skat", role: "king", result: "draw" }, now), "");
  assert.equal(sv.historyQuery({ game: "passed", role: "out" }, now), "game=passed&role=out");
});

test("a deal of the history: its replay's address, the others at its table, its result", () => {
  const deal = { table_id: "ab12", deal_no: 3, position: 1, players: ["Anna", "Ada", "Bernd"], won: true };
  assert.equal(sv.replayHref(deal), "/replay/ab12/3");
  assert.equal(sv.replayHref({ table_id: "a/b", deal_no: 1 }), "/replay/a%2Fb/1");
  assert.deepEqual(sv.othersAt(deal), ["Anna", "Bernd"]);
  assert.equal(sv.resultKey(deal), "won");
  assert.equal(sv.resultKey({ won: false }), "lost");
  assert.equal(sv.resultKey({ won: null }), "none");
});

test("the figures by game type: every game type in order, 0 of 0 where none was declared", () => {
  const rows = sv.gameRows(sv.readStats(ANSWER));
  assert.deepEqual(rows.map((r) => r.game), ["grand", "clubs", "spades", "hearts", "diamonds", "null"]);
  assert.deepEqual(rows[0], { game: "grand", declared: 1, won: 1, share: 1 });
  assert.deepEqual(rows[5], { game: "null", declared: 0, won: 0, share: null });
});

test("the comparison with the computer players: the same figures side by side", () => {
  const own = sv.readStats(ANSWER);
  const bot = sv.readStats({ ...ANSWER, games: 4, declarer_share: 0.25, sf_per_game: -12.5, sf_per_list: -450 });
  const rows = sv.comparisonRows(own, [bot], "en");
  assert.deepEqual(rows.map((r) => r.key), sv.COMPARED.map(([k]) => k));
  const by = Object.fromEntries(rows.map((r) => [r.key, r.values]));
  assert.deepEqual(by.games, ["2", "4"]);
  assert.deepEqual(by.declarer_share, ["50%", "25%"]);
  assert.deepEqual(by.sf_per_game, ["+37.0", "\u221212.5"]);
  assert.deepEqual(by.sf_per_list, ["+1,332", "\u2212450"]);
});

test("an axis's ticks are round numbers, its range round ends around the values", () => {
  assert.deepEqual(sv.niceTicks(0, 10, 5), [0, 2, 4, 6, 8, 10]);
  assert.deepEqual(sv.niceTicks(-37, 120, 4), [0, 50, 100]);
  assert.deepEqual(sv.niceTicks(0.1, 0.3, 2), [0.1, 0.2, 0.3]);
  assert.deepEqual(sv.niceTicks(5, 5), [5]);
  assert.deepEqual(sv.axisRange([-37, 120]), [-50, 150]);
  const [lo, hi] = sv.axisRange([25, 25], 5);
  assert.ok(lo <= 22.5 && hi >= 27.5, `${lo} ${hi}`);
  assert.deepEqual(sv.axisRange([0, 40]), [0, 50]);  // room above the highest value; 0 stays the bottom
  const none = sv.axisRange([]);
  assert.ok(none[0] === 0 && none[1] >= 1, `${none}`);
});

test("the running mean over the last games", () => {
  assert.deepEqual(sv.runningMean([10, 20, 30, 40], 2), [10, 15, 25, 35]);
  assert.deepEqual(sv.runningMean([], 12), []);
  assert.equal(sv.linePath([[0, 1], [2.25, 3]]), "M0.0,1.0 L2.3,3.0");
});

test("the rating chart: from a new player's rating, μ's line, the band μ ± σ closed, μ − 3σ below", () => {
  const history = [{ at: 1, mu: 27, sigma: 7, conservative: 6, sf: 80, table_id: "t", first_game: 1, last_game: 2 },
    { at: 2, mu: 29, sigma: 6, conservative: 11, sf: 90, table_id: "t", first_game: 3, last_game: 4 }];
  const points = sv.ratingPoints(history);
  assert.equal(points.length, 3);
  assert.deepEqual(points[0], { mu: 25, sigma: 25 / 3, conservative: 0, at: null });
  const g = sv.ratingGeometry(points, 600, 200);
  assert.equal(g.dots.length, 3);
  assert.ok(g.band.startsWith("M") && g.band.endsWith(" Z"));
  assert.equal(g.band.split(/[ML]/).filter(Boolean).length, 6);  // up the upper edge, back along the lower one
  assert.ok(g.dots[0].x < g.dots[2].x && g.dots[2].y < g.dots[0].y);  // a higher μ is drawn higher
  const top = g.y(Math.max(...points.map((p) => p.mu + p.sigma)));
  const bottom = g.y(Math.min(...points.map((p) => p.conservative)));
  assert.ok(top >= g.y0 - 0.01 && bottom <= g.y1 + 0.01, "the band and μ − 3σ lie in the plot");
  assert.deepEqual(g.xLabels.map((l) => l.n), [0, 2]);
});

test("the form chart: a bar up for a game's gain, down for a loss, the running mean's line", () => {
  const form = [{ sf: 74, won: true }, { sf: -90, won: false }, { sf: 0, won: null }];
  const g = sv.formGeometry(form, 500, 200);
  assert.deepEqual(g.bars.map((b) => b.kind), ["up", "down", "zero"]);
  assert.ok(Math.abs(g.bars[0].y + g.bars[0].h - g.zero) < 0.01, "a gain stands on the zero line");
  assert.ok(Math.abs(g.bars[1].y - g.zero) < 0.01, "a loss hangs from it");
  assert.ok(g.bars.every((b) => b.x >= g.x0 && b.x + b.w <= g.x1));
  assert.equal(g.mean.split("L").length, 3);
  assert.deepEqual(g.xLabels.map((l) => l.n), [1, 3]);
  assert.deepEqual(sv.formGeometry([], 500, 200).bars, []);
});

test("the bar chart by game type: a bar as long as the won share, none where nothing was declared", () => {
  const rows = sv.gameRows(sv.readStats({ by_game: { grand: { declared: 4, won: 3, won_share: 0.75 },
    clubs: { declared: 2, won: 0, won_share: 0 } } }));
  const g = sv.barGeometry(rows, 500, 80);
  const full = g.x1 - g.x0;
  assert.ok(Math.abs(g.rows[0].w - 0.75 * full) < 0.01);
  assert.equal(g.rows[1].w, 0);  // declared and lost: an empty track, the text says 0 %
  assert.equal(g.rows[2].w, 0);
  assert.ok(g.textX > g.x1 && g.height >= rows.length * 20);
});

test("every text the page asks for is in the players section of every catalog", () => {
  const js = readFileSync(new URL("players.js", STATIC), "utf8");
  const html = readFileSync(new URL("players.html", STATIC), "utf8");
  const keys = new Set();
  for (const m of js.matchAll(/(?<![\w.])(?:L|withLinks)\(\s*"([A-Za-z0-9_]+)"(?!\s*\+)/g)) keys.add(m[1]);
  for (const m of html.matchAll(/\sdata-l(?:-label)?="([^"]+)"/g)) keys.add(m[1]);
  // the keys made of a prefix and a value: the figures, the roles, seats, kinds, periods, comparisons, columns
  for (const key of ["rating", "leaderValue", "lists", "games", "declarerShare", "declarerWon", "defenderWon", "sfPerGame",
    "sfPerList", "grands", "nulls", "overbid", "kontra", "passed", "ramsch", "standIn"]) keys.add("fig_" + key);
  for (const role of sv.ROLES) keys.add("role_" + role);
  for (const seat of sv.SEATS) keys.add("seat_" + seat);
  for (const kind of ["person", "guest", "computer"]) keys.add("kind_" + kind);
  for (const period of sv.PERIODS) keys.add("period_" + period);
  for (const [key] of sv.COMPARED) keys.add("cmp_" + key);
  for (const col of ["when", "table", "game", "role", "seat", "bid", "result", "score", "sf"]) keys.add("col" + col[0].toUpperCase() + col.slice(1));
  for (const m of js.matchAll(/(?<![\w.])figure\(\s*"([A-Za-z0-9_]+)"/g)) assert.ok(keys.has("fig_" + m[1]), m[1]);
  assert.ok(keys.size > 80, `${keys.size}`);
  for (const lang of LANGUAGES) {
    const missing = [...keys].filter((k) => !(k in CATALOGS[lang].players)).sort();
    assert.deepEqual(missing, [], lang);
  }
});
