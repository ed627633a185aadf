// The replay page's logic (src/skat/web/static/replay-view.js): a finished deal's steps (GET /api/replays/...) as the
// page shows them: names and places, hands in a player's order, the cards in the middle, each step in words, the
// step list, the result, the analysis of a card; and every text the page asks for is in the catalogs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as RV from "../../src/skat/web/static/replay-view.js";
import { fillText } from "../../src/skat/web/static/text.js";
import { CATALOGS, STATIC, wordsFor } from "./catalogs.js";

/** A reader's words with the replay's own texts. */
function words(lang = "en") {
  return { ...wordsFor(lang), r: (key, params) => fillText(CATALOGS, lang, "replay", key, params) };
}
const en = words("en"), de = words("de");

const HANDS = [["D9", "DJ", "DA", "H8", "HT", "SJ", "SK", "SA", "C8", "C9"],
  ["D8", "DK", "H9", "HJ", "S7", "S9", "SQ", "CJ", "CQ", "CA"],
  ["DT", "DQ", "H7", "HQ", "HA", "S8", "ST", "C7", "CT", "CK"]];
const DIAMONDS = { game: "diamonds", hand: false, schneider: false, schwarz: false, ouvert: false };

/** The steps of a deal as the server makes them (skat.server.replays): Bernd (middlehand) bids 18, the others pass,
 * he picks up the skat (D7 HK), puts away H9 HK, plays Diamonds; the first trick D9 D7 DT goes to Clara, who leads HA. */
function answer(over = {}) {
  const hands = HANDS.map((h) => [...h]);
  const steps = [];
  let s = { seat: null, action: null, phase: "bidding", to_move: 1, trick: [], last_trick: null, tricks: [0, 0, 0],
    points: [0, 0, 0], bid: 0, declarer: null, contract: null, kontra: 0 };
  const push = (change, handsChange) => {
    if (handsChange) handsChange();
    s = { ...s, ...change, hands: hands.map((h) => [...h]) };
    steps.push(s);
  };
  const play = (seat, card) => hands[seat].splice(hands[seat].indexOf(card), 1);
  push({});
  push({ seat: 1, action: "18", to_move: 0, bid: 18 });
  push({ seat: 0, action: "pass", to_move: 2 });
  push({ seat: 2, action: "pass", phase: "skat", to_move: 1, declarer: 1 });
  push({ seat: 1, action: "pickup", phase: "discard" }, () => hands[1].push("D7", "HK"));
  push({ seat: 1, action: "discard H9 HK", phase: "declare" }, () => { play(1, "H9"); play(1, "HK"); });
  push({ seat: 1, action: "declare diamonds", phase: "play", to_move: 0, contract: DIAMONDS });
  push({ seat: 0, action: "D9", to_move: 1, trick: [[0, "D9"]] }, () => play(0, "D9"));
  push({ seat: 1, action: "D7", to_move: 2, trick: [[0, "D9"], [1, "D7"]] }, () => play(1, "D7"));
  push({ seat: 2, action: "DT", to_move: 2, trick: [], last_trick: { leader: 0, cards: ["D9", "D7", "DT"], winner: 2 },
    tricks: [0, 0, 1], points: [0, 0, 10] }, () => play(2, "DT"));
  push({ seat: 2, action: "HA", to_move: 0, trick: [[2, "HA"]] }, () => play(2, "HA"));
  const result = { kind: "played", declarer: 1, contract: DIAMONDS, bid: 18, won: true, declarer_points: 63, defender_points: 57,
    declarer_tricks: 5, skat: ["D7", "HK"], discard: ["H9", "HK"], scores: [0, 18, 0],
    outcome: { contract: DIAMONDS, bid: 18, won: true, overbid: false, matadors_with: true, matadors: 1, multiplier: 2, base_value: 9,
      game_value: 18, score: 18, declarer_points: 63, declarer_tricks: 5, schneider: false, schwarz: false, explanation: "won" },
    explanation: "won: diamonds with 1 is worth 18 (2 x 9), 63 card points" };
  return {
    table_id: "9a42536b376f", deal_no: 1, table_name: "Table 9a42", table_closed: false, variant: "standard", ruleset: "isko2018",
    record: { hands: HANDS, skat: ["D7", "HK"], actions: steps.slice(1).map((x) => [x.seat, x.action]),
      table: { id: "9a42536b376f", name: "Table 9a42", deal_no: 1, dealer: 2, positions: [0, 1, 2], players: ["Ada", "Bernd (heuristic)", "Clara"] } },
    steps, result, you: 0, analysable: true, iss: true,
    sheet_row: { deal_no: 1, dealer: 2, declarer: 1, game: "diamonds", won: true, score: 18, scores: [0, 18, 0], round: "normal", bock: false,
      events: [] },
    ...over,
  };
}

test("names by seat, a computer's level in the reader's language; short names for the step list", () => {
  assert.deepEqual(RV.seatNames(answer(), en), ["Ada", "Bernd (heuristic)", "Clara"]);
  assert.deepEqual(RV.seatNames(answer(), de), ["Ada", `Bernd (${de.t("lvl_heuristic")})`, "Clara"]);
  assert.deepEqual(RV.shortNames(answer(), en), ["Ada", "Bernd", "Clara"]);
});

test("the reader's own seat at the bottom, the next player on the left; forehand for one who did not play", () => {
  assert.equal(RV.yourSeat(answer()), 0);
  assert.deepEqual(RV.places(answer()), { bottom: 0, left: 1, right: 2 });
  assert.deepEqual(RV.places(answer({ you: 2 })), { bottom: 2, left: 0, right: 1 });
  assert.equal(RV.yourSeat(answer({ you: null })), null);
  assert.deepEqual(RV.places(answer({ you: null })), { bottom: 0, left: 1, right: 2 });
  // at four the dealer sits out: positions 1, 2, 3 play; position 0 dealt
  const four = answer({ you: 3 });
  four.record.table.positions = [1, 2, 3];
  assert.equal(RV.yourSeat(four), 2);
  assert.equal(RV.yourSeat(answer({ you: 0, record: { ...four.record } })), null);
});

test("hands in the order a player holds them: the jacks, trumps, then clubs, hearts, spades, diamonds", () => {
  const hand = ["D9", "DJ", "DA", "H8", "HT", "SJ", "SK", "SA", "C8", "C9"];
  assert.deepEqual(RV.sortHand(hand, "diamonds"), ["SJ", "DJ", "DA", "D9", "C9", "C8", "HT", "H8", "SA", "SK"]);
  assert.deepEqual(RV.sortHand(hand, null), ["SJ", "DJ", "C9", "C8", "HT", "H8", "SA", "SK", "DA", "D9"]);  // as a grand
  assert.deepEqual(RV.sortHand(hand, "grand"), RV.sortHand(hand, null));
  assert.deepEqual(RV.sortHand(["HA", "HT", "HK", "HQ", "HJ", "H9", "H8", "H7"], "hearts"), ["HJ", "HA", "HT", "HK", "HQ", "H9", "H8", "H7"]);
  // null: no trumps, the ten below the jack
  assert.deepEqual(RV.sortHand(["HA", "HT", "HK", "HQ", "HJ", "H9", "CJ"], "null"), ["CJ", "HA", "HK", "HQ", "HJ", "HT", "H9"]);
  assert.equal(RV.gameOf(answer().steps[0]), null);
  assert.equal(RV.gameOf(answer().steps[7]), "diamonds");
  assert.equal(RV.sortGame(answer(), 0), "diamonds");  // the deal's game from the first step
  assert.equal(RV.sortGame(answer({ result: null }), 0), null);
});

test("each step in words, the reader's language", () => {
  const a = answer(), names = RV.seatNames(a, en);
  const said = a.steps.map((_, i) => RV.stepText(a, i, en, names));
  assert.deepEqual(said.slice(0, 8), ["The deal", "Bernd (heuristic) bids 18", "Ada passes", "Clara passes",
    "Bernd (heuristic) picks up the skat", "Bernd (heuristic) puts away {cards}", "Bernd (heuristic) plays Diamonds", "Ada plays {card}"]);
  assert.deepEqual(RV.stepCards(a.steps[5]), ["H9", "HK"]);
  assert.deepEqual(RV.stepCards(a.steps[7]), ["D9"]);
  assert.deepEqual(RV.stepCards(a.steps[1]), []);
  const namesDe = RV.seatNames(a, de);
  assert.equal(RV.stepText(a, 5, de, namesDe), `Bernd (${de.t("lvl_heuristic")}) drückt {cards}`);
  assert.equal(RV.stepText(a, 2, de, namesDe), "Ada: passe");
  // a hold names the value held; Kontra, a claim and a Grand Hand's declaration
  const held = answer();
  held.steps[2] = { ...held.steps[2], action: "hold" };
  assert.equal(RV.stepText(held, 2, en, names), "Ada: yes (18)");
  held.steps[8] = { ...held.steps[8], action: "kontra", seat: 2 };
  assert.equal(RV.stepText(held, 8, en, names), "Clara: Kontra!");
  held.steps[6] = { ...held.steps[6], action: "declare grand hand schneider" };
  assert.equal(RV.stepText(held, 6, en, names), "Bernd (heuristic) plays Grand Hand Schneider announced");
  held.steps[9] = { ...held.steps[9], action: "claim", seat: 1 };
  assert.equal(RV.stepText(held, 9, en, names), "Bernd (heuristic) claims the rest");
});

test("what the seats said in the auction, while it runs", () => {
  const a = answer();
  assert.equal(RV.lastWord(a.steps, 1, 1, en), "18");
  assert.equal(RV.lastWord(a.steps, 2, 0, en), "pass");
  assert.equal(RV.lastWord(a.steps, 2, 2, en), null);
  assert.equal(RV.lastWord(a.steps, 3, 1, en), null);  // the auction is over
});

test("the middle: the trick being played, and the trick just taken with its winner; the last trick apart", () => {
  const a = answer();
  assert.deepEqual(RV.middleOf(a.steps[8]), { cards: [[0, "D9"], [1, "D7"]], winner: null });
  assert.deepEqual(RV.middleOf(a.steps[9]), { cards: [[0, "D9"], [1, "D7"], [2, "DT"]], winner: 2 });
  assert.equal(RV.lastTrickOf(a.steps[9]), null);  // the middle shows it
  assert.deepEqual(RV.middleOf(a.steps[10]), { cards: [[2, "HA"]], winner: null });
  assert.deepEqual(RV.lastTrickOf(a.steps[10]), { leader: 0, cards: ["D9", "D7", "DT"], winner: 2 });
  assert.deepEqual(RV.middleOf(a.steps[3]), { cards: [], winner: null });
});

test("the skat: on the table in the auction, marked in the declarer's hand, then put away and counted for him", () => {
  const a = answer();
  assert.deepEqual(RV.skatOnTable(a, 0), ["D7", "HK"]);
  assert.deepEqual(RV.skatOnTable(a, 3), ["D7", "HK"]);
  assert.deepEqual(RV.skatOnTable(a, 4), []);
  assert.deepEqual(RV.pickedUp(a, 4), ["D7", "HK"]);
  assert.deepEqual(RV.pickedUp(a, 5), []);
  assert.deepEqual(RV.putAway(a, 4), []);
  assert.deepEqual(RV.putAway(a, 9), ["H9", "HK"]);
  assert.equal(RV.skatPoints(a, 5), null);  // no card play yet
  assert.equal(RV.skatPoints(a, 9), 4);
  assert.equal(RV.cardPoints(["CA", "DT", "HK", "SQ", "CJ", "D7"]), 30);
});

test("the step list: the auction in lines, the tricks with their cards' steps; card numbers", () => {
  const a = answer();
  assert.deepEqual(RV.listEntries(a.steps), [0, 1, 2, 3, 4, 5, 6].map((index) => ({ kind: "step", index }))
    .concat([{ kind: "trick", trick: 1, steps: [7, 8, 9] }, { kind: "trick", trick: 2, steps: [10] }]));
  assert.deepEqual(a.steps.map((_, i) => RV.cardNumber(a.steps, i)), [null, null, null, null, null, null, null, 1, 2, 3, 4]);
  assert.equal(RV.trickWinner(a.steps, { steps: [7, 8, 9] }), 2);
  assert.equal(RV.trickWinner(a.steps, { steps: [10] }), null);
  assert.ok(RV.isCard("HT") && !RV.isCard("18") && !RV.isCard("pass") && !RV.isCard(null));
});

test("the contract line and the result in the reader's words", () => {
  const a = answer(), names = RV.seatNames(a, en);
  assert.equal(RV.contractLine(a, en, names), "Bernd (heuristic) plays Diamonds · bid 18");
  assert.equal(RV.contractLine(answer({ result: { ...a.result, kontra_level: 2 } }), en, names), "Bernd (heuristic) plays Diamonds · bid 18 · Kontra · Re");
  assert.equal(RV.kontraWords(1, de), "Kontra");
  const res = RV.resultText(a, en);
  assert.equal(res.title, "Bernd (heuristic) won");
  assert.equal(res.won, true);
  assert.match(res.sentence, /^Bernd \(heuristic\) won Diamonds with 1: 63 card points\. Worth 18\.$/);
  assert.equal(res.score, "Score: +18");
  // a Bock round doubles what the sheet books
  const bock = answer({ sheet_row: { ...answer().sheet_row, scores: [0, 36, 0], bock: true, round: "bock" } });
  assert.equal(RV.resultText(bock, en).score, "Score: +18 × 2 (Bock) = +36");
  const passed = answer({ result: { kind: "passed_in", declarer: null, contract: null, bid: 0, won: null, declarer_points: null,
    defender_points: null, declarer_tricks: 0, skat: [], discard: null, outcome: null, scores: [0, 0, 0], explanation: "passed in" } });
  assert.equal(RV.resultText(passed, de).title, de.t("passedIn"));
  assert.equal(RV.contractLine(passed, en, names), en.t("passedIn"));
});

test("the analysis of the card played at a step: how it was judged, every legal card best first for its player", () => {
  const row = (over) => ({ number: 1, trick: 1, seat: 0, role: "defender", card: "D9", legal: ["D9", "DA", "DJ"], best: ["DJ"],
    analysed: true, points_before: 60, wins_before: false, points_after: 64, wins_after: false, cost: 4, turning_point: false, note: "",
    moves: [{ card: "D9", declarer_points: 64, declarer_wins: false }, { card: "DA", declarer_points: 75, declarer_wins: true },
      { card: "DJ", declarer_points: 60, declarer_wins: false }], ...over });
  const analysis = (r) => ({ cards: [r], contract: "diamonds", goal: { kind: "points", points: 61, reason: null }, bid: 18 });
  const steps = answer().steps;
  let v = RV.cardVerdict(analysis(row()), steps, 7);
  assert.equal(v.verdict, "costly");
  assert.deepEqual(v.moves.map((m) => m.card), ["DJ", "D9", "DA"]);  // a defender: fewest card points for the declarer first
  assert.deepEqual(v.moves.map((m) => [m.best, m.played]), [[true, false], [false, true], [false, false]]);
  v = RV.cardVerdict(analysis(row({ role: "declarer", best: ["DA"], turning_point: true })), steps, 7);
  assert.equal(v.verdict, "turn");
  assert.deepEqual(v.moves.map((m) => m.card), ["DA", "D9", "DJ"]);  // the declarer: the game won, then most points
  assert.equal(RV.cardVerdict(analysis(row({ best: ["D9", "DJ"], cost: 0 })), steps, 7).verdict, "best");
  assert.equal(RV.cardVerdict(analysis(row({ legal: ["D9"] })), steps, 7).verdict, "only");
  assert.equal(RV.cardVerdict(analysis(row({ analysed: false })), steps, 7).verdict, "unsolved");
  assert.equal(RV.cardVerdict(analysis(row()), steps, 6), null);  // no card at the declaration
  assert.equal(RV.cardVerdict(analysis(row()), steps, 8), null);  // the analysis has no row for card 2
  assert.equal(RV.valueText({ points: 64, wins: false }, en), "64 card points, lost");
  assert.equal(RV.valueText({ points: null, wins: true }, en), "won");
  assert.equal(RV.valueText({ points: 10, wins: null }, en), en.t("anaNotSolved"));
  assert.equal(RV.goalText(analysis(row()), en), "61 card points");
  assert.equal(RV.goalText({ goal: { kind: "all_tricks", reason: "ouvert: Schwarz announced" }, bid: 18 }, en), "every trick (ouvert: Schwarz announced)");
});

test("the replay page asks only for texts the catalogs have", () => {
  const missing = [];
  for (const file of ["replay.js", "replay-view.js"]) {
    const src = readFileSync(new URL(file, STATIC), "utf8");
    for (const m of src.matchAll(/(?<![\w.])(?:w\.)?([Rrt])\(\s*"([A-Za-z0-9_]+)"(?!\s*\+)/g)) {
      const section = m[1] === "t" ? "table" : "replay";
      if (!(m[2] in CATALOGS.en[section])) missing.push(`${file}: ${section}.${m[2]}`);
    }
  }
  const html = readFileSync(new URL("replay.html", STATIC), "utf8");
  for (const m of html.matchAll(/\sdata-(i18n|t)(?:-label)?="([^"]+)"/g)) {
    const section = m[1] === "t" ? "table" : "replay";
    if (!(m[2] in CATALOGS.en[section])) missing.push(`replay.html: ${section}.${m[2]}`);
  }
  assert.deepEqual(missing, []);
});
