import assert from "node:assert/strict";
import { test } from "node:test";

import * as view from "../../src/skat/web/static/view.js";
import { wordsFor } from "./catalogs.js";

const en = wordsFor("en"), de = wordsFor("de"), ru = wordsFor("ru");

/** A state message as the server sends it (docs/protocol.md), with the parts a test changes. */
function state({ view: v = null, you = { position: 0, seat: 0, role: "player" }, table = {}, hints = {} } = {}) {
  return {
    type: "state", seq: 5, stopped: null, dealt: null, hints, you, view: v,
    table: {
      id: "bc27f00d", name: "Table bc27", variant: "skat", ruleset: "isko2018", public: true, hints: true, n_players: 3,
      status: "playing", stopped: null, deal_no: 3, round: "normal", upcoming: null, dealer: 2, positions: [0, 1, 2],
      seats: [{ position: 0, kind: "human", name: "Ada", bot: null, taken: true, connected: true },
              { position: 1, kind: "bot", name: "Anna (strong)", bot: "strong", taken: true, connected: true },
              { position: 2, kind: "human", name: "Clara", bot: null, taken: true, connected: true }],
      ready: [], totals: { classic: [0, 0, 0], seeger_fabian: [0, 0, 0] }, ...table,
    },
  };
}

function seatView(over = {}) {
  return { seat: 0, phase: "play", to_move: 0, hand: [], legal_actions: [], side_actions: [], auction: [], bid: 18,
    declarer: null, contract: null, skat: null, discard: null, open_hands: {}, trick: [], tricks: [], hand_sizes: [10, 10, 10],
    result: null, ruleset: "isko2018", kontra_level: 0, ...over };
}

test("the title: a server-named table in the reader's language, and the deal's number", () => {
  assert.equal(view.titleText(state(), de), "Tisch bc27 · Spiel 3");
  assert.equal(view.titleText(state(), en), "Table bc27 · Deal 3");
  assert.equal(view.titleText(state({ table: { name: "Donnerstag", deal_no: 0 } }), de), "Donnerstag");
  assert.equal(view.tableName({ id: "ffff1234", name: "Table bc27" }, de), "Table bc27");  // a name a person gave
});

test("names: You, a computer's level in the reader's language, a seat without a name", () => {
  const st = state();
  assert.deepEqual([0, 1, 2].map((p) => view.playerName(st, p, en)), ["You", "Anna (strong)", "Clara"]);
  assert.equal(view.playerName(st, 1, de), "Anna (stark)");
  assert.equal(view.playerName(st, 1, ru), "Anna (сильный)");
  const unnamed = state({ table: { seats: [...st.table.seats.slice(0, 2), { ...st.table.seats[2], name: null }] } });
  assert.equal(view.playerName(unnamed, 2, en), "Seat 3");
});

test("where each position sits: one's own at the bottom, three or four at the table", () => {
  assert.deepEqual([0, 1, 2].map((p) => view.relative(state(), p)), ["bottom", "left", "right"]);
  assert.deepEqual([0, 1, 2].map((p) => view.relative(state({ you: { position: 1, seat: 1, role: "player" } }), p)),
    ["right", "bottom", "left"]);
  const four = state({ you: { position: 2, seat: 1, role: "player" }, table: { n_players: 4 } });
  assert.deepEqual([0, 1, 2, 3].map((p) => view.relative(four, p)), ["top", "right", "bottom", "left"]);
  assert.equal(view.relative(state({ you: { position: null, seat: null, role: "spectator" } }), 0), "bottom");
});

test("cards in the server's display order, unknown ones last", () => {
  const hints = { sorted: { hand: ["CJ", "SJ", "HA", "H7"], open: { "1": ["DA", "D7"] } } };
  assert.deepEqual(view.sortCards(["H7", "XX", "CJ", "HA"], hints), ["CJ", "HA", "H7", "XX"]);
  assert.deepEqual(view.sortCards(["D7", "DA"], hints, 1), ["DA", "D7"]);
  assert.deepEqual(view.sortCards(["D7", "DA"], {}), ["D7", "DA"]);  // no order known: as they came
});

test("roles: forehand, the dealer, the declarer; none before the first deal", () => {
  const st = state({ view: seatView({ declarer: 1 }) });
  assert.deepEqual([0, 1, 2].map((p) => view.roleOf(st, p, en)), ["forehand", "middlehand · declarer", "rearhand · dealer"]);
  assert.equal(view.roleOf(state({ table: { deal_no: 0 } }), 0, en), "");
  const four = state({ view: seatView(), table: { n_players: 4, dealer: 3, positions: [0, 1, 2] } });
  assert.equal(view.roleOf(four, 3, de), "Geber, setzt aus");
});

test("the line in the middle during the auction says what the mover is asked", () => {
  const bidding = (turn, toMove = 1) => state({ view: seatView({ phase: "bidding", to_move: toMove }), hints: { auction_turn: turn } });
  assert.equal(view.infoText(bidding({ seat: 1, asks: "bid", value: 20 }), null, en), "Anna (strong) is to bid 20?");
  assert.equal(view.infoText(bidding({ seat: 1, asks: "hold", value: 23 }), null, en), "Anna (strong): hold 23?");
  assert.equal(view.infoText(bidding({ seat: 1, asks: "play", value: 18 }), null, en), "Anna (strong): play at 18?");
  assert.equal(view.infoText(bidding(null, 0), null, en), "Your bid");
});

test("the line in the middle during the play: the game, the bid, whose turn, Kontra", () => {
  const v = seatView({ declarer: 0, contract: { game: "hearts", hand: true }, bid: 20, to_move: 1, kontra_level: 1 });
  assert.equal(view.infoText(state({ view: v }), null, en), "You play Hearts Hand, bid 20 — Kontra — Anna (strong) to play");
  const held = { leader: 0, cards: ["HA", "H7", "H8"], winner: 0, prevCards: [] };
  assert.equal(view.infoText(state({ view: { ...v, kontra_level: 0 } }), held, en),
    "You play Hearts Hand, bid 20 — " + en.t("trickWonByYou"));
  assert.equal(view.infoText(state({ view: { ...v, kontra_level: 2 } }), { ...held, winner: 2 }, de),
    "Du spielst Herz Hand, gereizt bis 20 — Re — " + de.t("trickWonBy", { who: "Clara" }));
  assert.equal(view.infoText(state({ view: null, table: { status: "playing" } }), null, en), "");
});

test("the waiting table and a deal passed in", () => {
  assert.equal(view.infoText(state({ view: null, table: { status: "waiting" } }), null, en), en.t("waitingPlayers"));
  const passed = seatView({ phase: "finished", result: { kind: "passed_in" } });
  assert.ok(view.isPassedIn(passed) && !view.isRamsch(passed));
  assert.equal(view.infoText(state({ view: passed }), null, de), de.t("passedIn"));
});

test("a Ramsch is a game without a declarer and contract", () => {
  const ramsch = seatView({ phase: "play", declarer: null, contract: null, to_move: 2 });
  assert.ok(view.isRamsch(ramsch));
  assert.equal(view.infoText(state({ view: ramsch }), null, en), en.t("ramschPlay") + " — Clara to play");
});

test("the last word of each seat while the auction runs", () => {
  const v = seatView({ phase: "bidding", auction: [[0, "18"], [1, "hold"], [0, "20"], [1, "pass"]] });
  assert.equal(view.lastWord(v, 0, en), "20");
  assert.equal(view.lastWord(v, 1, de), de.t("saysPass"));
  assert.equal(view.lastWord(v, 2, en), null);
  assert.equal(view.lastWord({ ...v, phase: "play" }, 0, en), null);
});

test("tricks taken by a seat", () => {
  const v = seatView({ tricks: [[0, ["CA", "C7", "C8"], 0], [0, ["HA", "H7", "H8"], 2], [2, ["SA", "S7", "S8"], 2]] });
  assert.deepEqual([0, 1, 2].map((s) => view.tricksTaken(v, s)), [1, 0, 2]);
  assert.equal(view.tricksTaken(null, 0), 0);
});

test("labels of action tokens", () => {
  assert.equal(view.actionLabel("declare grand hand", en), "Grand Hand");
  assert.equal(view.actionLabel("20", en), "Bid 20");
  assert.equal(view.actionLabel("turn", en), en.t("tourneeTurn"));
  assert.equal(view.actionLabel("whatever", en), "whatever");
});

test("a push is the legal discard of exactly the two selected cards", () => {
  const v = seatView({ legal_actions: ["discard HA H7", "discard HA SA", "pickup"] });
  assert.equal(view.pushToken(v, new Set(["H7", "HA"])), "discard HA H7");
  assert.equal(view.pushToken(v, new Set(["CJ", "HA"])), null);
  assert.equal(view.pushToken(v, new Set(["HA"])), null);
});

test("Tournee names", () => {
  assert.equal(view.tourneeName("tournee_hearts", en), "Tournee Hearts");
  assert.equal(view.tourneeName("grand_solo", en), "Grand Solo");
  assert.equal(view.tourneeName("new_game", en), "new game");
});

test("the bid estimate in one line", () => {
  assert.equal(view.estimateText({ value: 0, game: null, hand: false }, en), "pass");
  const est = { value: 30, game: "hearts", hand: true, p: 97, matadors: { with: true, count: 1 }, trumps: 7, aces: 2 };
  assert.equal(view.estimateText(est, en), "up to 30 (Hearts Hand) — with 1, 7 trumps, 2 aces: wins about 97%");
  assert.equal(view.estimateText({ value: 23, game: "null", hand: false, p: 60, matadors: null }, en),
    "up to 23 (Null) — low cards: wins about 60%");
});

test("the contract chooser: the lowest announcement that reaches the bid, and the toggles", () => {
  const hint = (contract) => ({ token: "declare", contract, value: 0, exact: true });
  const hints = [hint({ game: "clubs", schneider: true }), hint({ game: "clubs", schneider: true, schwarz: true }),
    hint({ game: "null", ouvert: true })];
  assert.deepEqual(view.lowestLevel(hints, "clubs"), { game: "clubs", schneider: true, schwarz: false, ouvert: false });
  assert.deepEqual(view.lowestLevel(hints, "null"), { game: "null", schneider: false, schwarz: false, ouvert: true });
  const plain = { game: "spades", schneider: false, schwarz: false, ouvert: false };
  assert.deepEqual(view.toggleLevel(plain, "ouvert", true), { game: "spades", schneider: true, schwarz: true, ouvert: true });
  assert.deepEqual(view.toggleLevel({ ...plain, schneider: true, schwarz: true }, "schneider", false), plain);
  assert.deepEqual(view.toggleLevel({ game: "null", schneider: false, schwarz: false, ouvert: false }, "ouvert", true),
    { game: "null", schneider: false, schwarz: false, ouvert: true });
  assert.ok(view.contractMatches(hints[0], { game: "clubs", schneider: true, schwarz: false, ouvert: false }));
  assert.ok(!view.contractMatches(hints[0], { game: "clubs", schneider: true, schwarz: false, ouvert: false }, true));
});

test("the result in a sentence, the reader addressed", () => {
  const r = { kind: "normal", declarer: 0, contract: { game: "grand" }, bid: 24, declarer_points: 70, defender_points: 50,
    skat: [], discard: null, scores: [], explanation: "",
    outcome: { won: true, score: 48, game_value: 48, matadors: 1, matadors_with: true, overbid: false, bid: 24,
      schneider: false, schwarz: false, declarer_points: 70 } };
  assert.match(view.resultSentence(state(), r, en), /^You won Grand/);
  assert.match(view.resultSentence(state(), r, de), /^Du gewinnst Grand/);
  assert.match(view.resultSentence(state(), r, ru), /^Вы выигрываете Гранд/);
  assert.match(view.resultSentence(state(), { ...r, declarer: 2 }, en), /^Clara won Grand/);
  // a Tournee game by its own name, in the reader's language (it was the server's English sentence)
  const tournee = { ...state(), view: { ...state().view, ruleset: "tournee" } };
  const turned = { ...r, contract: { game: "hearts" }, game_name: "tournee_hearts" };
  assert.match(view.resultSentence(tournee, turned, de), /^Du gewinnst Tournee Herz/);
  assert.match(view.resultSentence(tournee, turned, en), /^You won Tournee Hearts/);
});

test("a computer player's level in the lobby and at the table in the reader's language", () => {
  const bot = { kind: "bot", name: "Anna (heuristic)", bot: "heuristic", taken: true };
  assert.equal(view.seatLabel(bot, 1, en), "Anna (heuristic)");
  assert.equal(view.seatLabel(bot, 1, wordsFor("pl")), "Anna (heurystyka)");
  assert.equal(view.seatLabel({ ...bot, name: "Anna (strong)", bot: "strong" }, 1, de), "Anna (" + de.t("lvl_strong") + ")");
  assert.equal(view.seatLabel({ kind: "human", name: "", bot: null }, 2, en), en.t("seat", { n: 3 }));
});
