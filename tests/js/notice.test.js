// Noticing your turn (src/skat/web/static/notice.js): which states make a sound, when the title is marked, and the
// player's choices kept.
import assert from "node:assert/strict";
import { test } from "node:test";

import { noticeTitle, TURN_MARK, turnEvents, turnPoint } from "../../src/skat/web/static/notice.js";

/** A state as the server sends it, with only what noticing reads. */
function state({ seq = 1, deal = 1, phase = "play", toMove = 0, seat = 0, legal = ["CJ"], trick = 0, tricks = 0 } = {}) {
  return {
    seq, table: { deal_no: deal }, you: { seat },
    view: { phase, to_move: toMove, legal_actions: toMove === seat ? legal : [], trick: Array(trick).fill([0, "C7"]),
            tricks: Array(tricks).fill([0, ["C7", "C8", "C9"], 0]) },
  };
}

test("a turn begins once, when it was another player's before", () => {
  const mine = turnPoint(state({ toMove: 0 }));
  const theirs = turnPoint(state({ seq: 2, toMove: 1 }));
  assert.deepEqual(turnEvents(null, mine), { played: 0, turn: true });
  assert.equal(turnEvents(theirs, turnPoint(state({ seq: 3, toMove: 0, trick: 2 }))).turn, true);
  // the declarer's skat, discard and declaration in a row are one turn
  const skat = turnPoint(state({ phase: "skat", legal: ["take"] }));
  const discard = turnPoint(state({ seq: 2, phase: "discard", legal: ["discard C7 C8"] }));
  assert.equal(turnEvents(skat, discard).turn, false);
  // a new deal where it is this seat's turn at once
  assert.equal(turnEvents(mine, turnPoint(state({ deal: 2, phase: "bidding", legal: ["18", "pass"] }))).turn, true);
});

test("cards played are counted in the card play only, the tricks taken included", () => {
  const before = turnPoint(state({ toMove: 1, trick: 2, tricks: 3 }));
  const after = turnPoint(state({ seq: 2, toMove: 2, trick: 0, tricks: 4 }));  // the third card took the trick
  assert.equal(turnEvents(before, after).played, 1);
  const bidding = turnPoint(state({ phase: "bidding", toMove: 1 }));
  assert.equal(turnEvents(bidding, turnPoint(state({ seq: 2, phase: "bidding", toMove: 2 }))).played, 0);
  assert.equal(turnEvents(before, turnPoint(state({ deal: 2, toMove: 1, trick: 1 }))).played, 0);  // another deal
});

test("a spectator never has a turn, and a state without a view is nobody's", () => {
  assert.equal(turnPoint(state({ seat: null, toMove: 0 })).myTurn, false);
  assert.equal(turnPoint({ seq: 0, table: { deal_no: 0 }, you: { seat: 0 }, view: null }).myTurn, false);
});

test("the title is marked only while it is your turn in a hidden tab", () => {
  assert.equal(noticeTitle("Skat", "Your turn", false), "Skat");
  assert.equal(noticeTitle("Skat", "Du bist dran", true), `${TURN_MARK}Du bist dran · Skat`);
});
