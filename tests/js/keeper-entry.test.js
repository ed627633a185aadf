import assert from "node:assert/strict";
import { test } from "node:test";

import { blankForm, entryOf, fmtMoney, fmtNum, fmtPrice, formFromEntry, isRamschRound, seatsFor, signed, tableSizes }
  from "../../src/skat/web/static/keeper-entry.js";

const ctx = { number: 1, dealer: "Cid", seats: ["Ann", "Bob", "Cid"], round: "normal", players: ["Ann", "Bob", "Cid"] };
const isko = { kontra: false, bid_values: [18, 20, 22] };

/** A form with some fields tapped. */
const form = (over) => ({ ...blankForm(), ...over });

test("entries are written with a minus sign", () => {
  assert.deepEqual([24, -48, 0].map(signed), ["+24", "−48", "0"]);
});

test("who plays when a player deals: 3, 4 (the dealer sits out) or 5 players", () => {
  assert.deepEqual(seatsFor(2, 3), [0, 1, 2]);
  assert.deepEqual(seatsFor(0, 3), [1, 2, 0]);
  assert.deepEqual(seatsFor(3, 4), [0, 1, 2]);
  assert.deepEqual(seatsFor(1, 4), [2, 3, 0]);
  assert.deepEqual(seatsFor(0, 5), [1, 2, 4]);
});

test("the form says what is missing, step by step", () => {
  assert.deepEqual(entryOf(blankForm(), ctx, isko), { need: "need_declarer" });
  assert.deepEqual(entryOf(form({ kind: "game" }), ctx, isko), { need: "need_declarer" });
  assert.deepEqual(entryOf(form({ kind: "game", declarer: "Ann" }), ctx, isko), { need: "need_game" });
  assert.deepEqual(entryOf(form({ kind: "game", declarer: "Ann", game: "clubs" }), ctx, isko), { need: "need_matadors" });
  assert.deepEqual(entryOf(form({ kind: "game", declarer: "Ann", game: "clubs", mat: 2 }), ctx, isko), { need: "need_result" });
  assert.deepEqual(entryOf(form({ kind: "game", declarer: "Ann", game: "clubs", byCards: true, cards: ["CJ"] }), ctx, isko),
    { need: "need_cards" });
});

test("a suit game with its matadors, points and the lowest bid", () => {
  const f = form({ kind: "game", declarer: "Ann", game: "clubs", mat: 2, matWith: false, points: " 91 ", note: " ok " });
  assert.deepEqual(entryOf(f, ctx, isko),
    { entry: { declarer: "Ann", game: "clubs", without: 2, points: 91, bid: 18, note: "ok" } });
});

test("announcements need a hand game; Null has no matadors; Schwarz made without the points", () => {
  const open = form({ kind: "game", declarer: "Bob", game: "grand", mat: 1, schneider_announced: true, result: "won", bid: 24 });
  assert.deepEqual(entryOf(open, ctx, isko).entry, { declarer: "Bob", game: "grand", with: 1, result: "won", bid: 24 });
  const hand = { ...open, hand: true, schwarz_announced: true, schwarz: true };
  assert.deepEqual(entryOf(hand, ctx, isko).entry,
    { declarer: "Bob", game: "grand", hand: true, schwarz_announced: true, with: 1, result: "won", schwarz: true, bid: 24 });
  const nul = form({ kind: "game", declarer: "Cid", game: "null", ouvert: true, result: "lost", schwarz: true });
  assert.deepEqual(entryOf(nul, ctx, isko).entry, { declarer: "Cid", game: "null", ouvert: true, result: "lost", bid: 18 });
});

test("Kontra and Re only where the rules have them", () => {
  const f = form({ kind: "game", declarer: "Ann", game: "hearts", mat: 1, result: "lost", kontra: true, re: true });
  assert.equal(entryOf(f, ctx, isko).entry.kontra, undefined);
  const pub = { kontra: true, kontra_re: true, bid_values: [18] };
  assert.deepEqual([entryOf(f, ctx, pub).entry.kontra, entryOf(f, ctx, pub).entry.re], [true, true]);
  assert.equal(entryOf(f, ctx, { ...pub, kontra_re: false }).entry.re, undefined);
});

test("a revoke takes the place of the result", () => {
  const f = form({ kind: "game", declarer: "Ann", game: "spades", mat: 3, revoke: "defenders", points: "30", schwarz: true });
  assert.deepEqual(entryOf(f, ctx, isko).entry, { declarer: "Ann", game: "spades", with: 3, revoke: "defenders", bid: 18 });
});

test("a Ramsch: every player's card points, or the loser's alone", () => {
  const all = form({ kind: "ramsch", ramsch: { Ann: "50", Bob: "40", Cid: "30" }, jungfrau: ["Cid", "Dora"], pushes: 2 });
  assert.deepEqual(entryOf(all, ctx, isko).entry,
    { declarer: "ramsch", ramsch: { Ann: 50, Bob: 40, Cid: 30 }, jungfrau: ["Cid"], pushes: 2 });
  assert.deepEqual(entryOf(form({ kind: "ramsch", ramsch: { Ann: "70" } }), ctx, isko).entry,
    { declarer: "ramsch", ramsch: { Ann: 70 } });
  assert.deepEqual(entryOf(form({ kind: "ramsch", ramsch: { Ann: "70" } }), ctx, { ramsch_scoring: "hoyle" }), { need: "need_ramsch" });
  assert.deepEqual(entryOf(form({ kind: "ramsch", ramsch: { Ann: "7x", Bob: "1", Cid: "2" } }), ctx, isko), { need: "need_ramsch" });
  assert.deepEqual(entryOf(form({ kind: "passed", note: "" }), ctx, isko), { entry: { declarer: "passed" } });
});

test("an entry goes back into the form it came from", () => {
  const entry = { declarer: "Ann", game: "clubs", hand: true, without: 2, points: 91, bid: 20, note: "late" };
  const f = formFromEntry(entry);
  assert.equal(f.kind, "game");
  assert.equal(f.matWith, false);
  assert.equal(f.points, "91");
  assert.ok(f.more);
  assert.deepEqual(entryOf(f, ctx, isko).entry, entry);
  const ramsch = formFromEntry({ declarer: "ramsch", ramsch: { Ann: 50, Bob: 40, Cid: 30 } });
  assert.deepEqual([ramsch.kind, ramsch.ramsch.Bob], ["ramsch", "40"]);
});

test("Ramsch rounds", () => {
  assert.ok(isRamschRound("ramsch") && isRamschRound("schieber") && !isRamschRound("bock"));
});

test("the list's numbers: settlements, prices and money", () => {
  assert.deepEqual([12, 12.5, -3.333, "n/a"].map(fmtNum), ["12", "12.50", "-3.33", "n/a"]);
  assert.equal(fmtPrice("1/20"), "0.05");
  assert.equal(fmtPrice("1/3"), "0.333333");
  assert.equal(fmtPrice("0.10"), "0.10");
  assert.deepEqual([1.5, "x"].map(fmtMoney), ["1.50", "x"]);
});

test("a tournament seats its players at as few tables of 4 and 3 as it can", () => {
  assert.equal(tableSizes(2), null);
  assert.deepEqual(tableSizes(3), [3]);
  assert.deepEqual(tableSizes(4), [4]);
  assert.equal(tableSizes(5), null);
  assert.deepEqual(tableSizes(6), [3, 3]);
  assert.deepEqual(tableSizes(7), [4, 3]);
  assert.deepEqual(tableSizes(9), [3, 3, 3]);
  assert.deepEqual(tableSizes(13), [4, 3, 3, 3]);
  for (let n = 6; n <= 60; n++) {
    const sizes = tableSizes(n);
    assert.ok(sizes, String(n));
    assert.equal(sizes.reduce((a, b) => a + b, 0), n);
  }
});
