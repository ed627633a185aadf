// The table's words for the flaws of issue 32 (tests/test_web_flaws_table.py shows them in a browser): what the
// sheet books in a Bock round and why, the Ramsch's loser by name, who the table waits for, the places round a
// table of five.
import assert from "node:assert/strict";
import { test } from "node:test";

import * as view from "../../src/skat/web/static/view.js";
import { wordsFor } from "./catalogs.js";

const en = wordsFor("en"), de = wordsFor("de"), ru = wordsFor("ru");

function state({ v = null, table = {}, you = { position: 0, seat: 0, role: "player" } } = {}) {
  return {
    type: "state", seq: 5, stopped: null, dealt: null, hints: {}, you, view: v,
    table: {
      id: "bc27f00d", name: "Table bc27", variant: "standard", ruleset: "pub", public: true, hints: true, n_players: 3,
      status: "between_deals", stopped: null, deal_no: 4, game_no: 4, round: "bock", upcoming: null, dealer: 2,
      positions: [1, 2, 0],
      seats: [{ position: 0, kind: "human", name: "Ada", bot: null, taken: true, connected: true },
              { position: 1, kind: "human", name: "Bea", bot: null, taken: true, connected: true },
              { position: 2, kind: "bot", name: "Clara (strong)", bot: "strong", taken: true, connected: true }],
      ready: [], totals: { classic: [0, 0, 0], seeger_fabian: [0, 0, 0] }, ...table,
    },
  };
}

const finished = { seat: 2, phase: "finished", to_move: null, result: {} };
/** A sheet whose last row is game 4: in Bock, position 1 (forehand) booked -176. */
const sheet = { rows: [{ deal_no: 3, scores: [0, 18, 0], bock: false, events: ["value"] },
  { deal_no: 4, scores: [0, -176, 0], bock: true, events: [] }] };

test("the result books what the sheet books, and says why", () => {
  const st = state({ v: finished });
  assert.equal(view.bookedText(st, sheet, 0, -88, en), "-88 × 2 (Bock) = -176");
  assert.equal(view.bookedText(st, sheet, 0, -88, de), "-88 × 2 (Bock) = -176");
  assert.equal(view.bookedText(st, sheet, 0, -176, en), null);  // as the game scored: nothing to say
  assert.equal(view.bookedText(state({ v: finished, table: { game_no: 5 } }), sheet, 0, -88, en), null);  // no row yet
  assert.equal(view.bookedText(state({ v: { ...finished, phase: "play" } }), sheet, 0, -88, en), null);
  const pirate = state({ v: finished, table: { round: "pirate_bock" } });
  const lostHand = { rows: [{ deal_no: 4, scores: [0, -216, 0], bock: true, events: [] }] };
  assert.equal(view.bookedText(pirate, lostHand, 0, -144, en), "-144 → -216 (pirate Bock)");
  const trigger = { rows: [{ deal_no: 4, scores: [0, 96, 0], bock: false, events: ["grand_hand_won"] }] };
  assert.equal(view.bookedText(state({ v: finished, table: { round: "normal" } }), trigger, 0, 48, en),
    "+48 × 2 (it starts a Bock round) = +96");
  const st2 = state({ v: finished, table: {} });
  const r = { outcome: { score: -88, won: false, matadors: 2, matadors_with: false, overbid: true, game_value: 33, bid: 40 },
    contract: { game: "spades", hand: false, ouvert: false, schneider: false, schwarz: false }, declarer: 0, kind: "normal" };
  assert.match(view.resultSentence(st2, /** @type {any} */ (r), en, "-88 × 2 (Bock) = -176"), /Score: -88 × 2 \(Bock\) = -176\.$/);
});

test("a Ramsch names who took the most card points, not a seat letter", () => {
  const st = state({ v: finished });
  const R = { scores: [0, 0, -48], card_points: [30, 42, 48], tricks: [3, 3, 4], losers: [2], jungfrauen: [],
    durchmarsch: null, pushes: 0, multiplier: 1, explanation: "Ramsch: R took most (48 card points): -48" };
  assert.equal(view.ramschWhy(st, R, en), "You took the most card points (48)");  // seat 2 is position 0: the reader
  assert.equal(view.ramschWhy(st, R, de), "Du hast die meisten Augen (48)");
  assert.equal(view.ramschWhy(st, { ...R, losers: [0], card_points: [48, 42, 30] }, en), "Bea took the most card points (48)");
  assert.equal(view.ramschWhy(st, { ...R, losers: [0, 1], card_points: [48, 48, 24] }, ru),
    `Больше всего очков: Bea, ${view.seatName(st, 1, ru)} (по 48)`);
  assert.equal(view.ramschWhy(st, { ...R, losers: [], scores: [0, 0, 0] }, en), en.t("ramschNobody"));
  assert.equal(view.ramschWhy(st, { ...R, durchmarsch: 1, losers: [] }, en), null);
});

test("the table waits for the people not ready, by name", () => {
  const st = state({ v: finished, table: { ready: [0] } });
  assert.deepEqual(view.notReady(st, en), ["Bea"]);
  assert.deepEqual(view.notReady(state({ v: finished, table: { ready: [0, 1] } }), en), []);
  const waiting = state({ table: { status: "waiting", seats: [
    { position: 0, kind: "human", name: "Ada", bot: null, taken: true, connected: true },
    { position: 1, kind: "human", name: "", bot: null, taken: false, connected: false },
    { position: 2, kind: "human", name: "", bot: null, taken: false, connected: false }] } });
  assert.equal(view.infoText(waiting, null, en), "Waiting for 2 more players (here: You)");
});

test("five round a table: left, two across, right; the third to the dealer's left sits out", () => {
  const five = state({ table: { n_players: 5, dealer: 4, positions: [0, 1, 3] },
    you: { position: 2, seat: null, role: "player" } });
  five.table.seats = [0, 1, 2, 3, 4].map((p) => ({ position: p, kind: "human", name: "P" + p, bot: null, taken: true, connected: true }));
  assert.deepEqual([3, 4, 0, 1].map((p) => view.relative(five, p)), ["left", "topleft", "topright", "right"]);
  assert.deepEqual(view.otherPlaces(5), ["left", "topleft", "topright", "right"]);
  assert.equal(view.roleOf(five, 2, en), "sits out");
  assert.equal(view.roleOf(five, 4, en), "dealer, sits out");
  assert.equal(view.roleOf(five, 0, en), "forehand");
});
