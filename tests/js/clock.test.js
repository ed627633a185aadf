// The move clock at the table (src/skat/web/static/clock.js): the countdown of the decision and the reserve, the
// browser's clock corrected by the server's, the wait for the next deal, who is away.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockOffset, clockText, countdown, isAway, readyLeft } from "../../src/skat/web/static/clock.js";

/** A clock as the server sends it. */
function clock({ turn = { position: 1, started: 1000, decision_ends: 1030, ends: 1090 }, ready_ends = null, away = [] } = {}) {
  return { decision: 30, reserve: 60, grace: 20, ready: 60, stand_in: "strong", turn, ready_ends, reserve_left: {}, away };
}

test("the decision's own time counts down first, then the reserve", () => {
  const c = clock();
  assert.deepEqual(countdown(c, 1010, 0), { position: 1, seconds: 20, reserve: false, urgent: false });
  const reserve = countdown(c, 1040, 0);
  assert.equal(reserve.reserve, true);
  assert.equal(reserve.seconds, 50);
  assert.equal(countdown(c, 1087, 0).urgent, true);
  assert.equal(countdown(c, 2000, 0).seconds, 0);  // over: the stand-in decides
});

test("without a reserve the last seconds of the decision are urgent", () => {
  const c = clock({ turn: { position: 0, started: 1000, decision_ends: 1030, ends: 1030 } });
  assert.equal(countdown(c, 1026, 0).urgent, true);
  assert.equal(countdown(c, 1020, 0).urgent, false);
});

test("a browser whose clock is off by minutes still counts the server's seconds", () => {
  const c = clock();
  const offset = clockOffset(1000, 1000 - 300);  // the state came at the server's 1000: this browser is 5 minutes behind
  assert.equal(offset, 300);
  assert.equal(countdown(c, 700 + 10, offset).seconds, 20);
});

test("no countdown without a clock or a decision; the wait for the next deal", () => {
  assert.equal(countdown(null, 0, 0), null);
  assert.equal(countdown(clock({ turn: null }), 0, 0), null);
  assert.equal(readyLeft(clock({ turn: null }), 1000, 0), null);
  assert.equal(readyLeft(clock({ turn: null, ready_ends: 1045 }), 1000, 0), 45);
  assert.equal(readyLeft(clock({ turn: null, ready_ends: 1045 }), 1100, 0), 0);
});

test("countdowns read as minutes and seconds, rounded up", () => {
  assert.equal(clockText(27.2), "0:28");
  assert.equal(clockText(65), "1:05");
  assert.equal(clockText(0), "0:00");
  assert.equal(clockText(-3), "0:00");
  assert.equal(clockText(0.01), "0:01");
});

test("who is away", () => {
  const c = clock({ away: [2] });
  assert.equal(isAway(c, 2), true);
  assert.equal(isAway(c, 0), false);
  assert.equal(isAway(c, null), false);
  assert.equal(isAway(null, 2), false);
});
