// The move clock at the table (issue 30, point 1; docs/clock.md): how long the player to move has for the decision
// and then from the deal's reserve, how long the finished deal waits for the next one, and who is away (a computer
// stand-in decides for them). The server sends its clock with every state (`table.clock`, wall-clock seconds; the
// state's `now` is the server's clock); the browser corrects for its own clock's difference and counts down. Pure functions, unit-tested
// (tests/js/clock.test.js).

/** @typedef {{position: number, started: number, decision_ends: number, ends: number}} ClockTurn */
/** @typedef {{decision: number, reserve: number, grace: number, ready: number, stand_in: string, turn: ClockTurn | null,
 *   ready_ends: number | null, reserve_left: Record<string, number>, away: number[]}} ClockInfo */
/** @typedef {{position: number, seconds: number, reserve: boolean, urgent: boolean}} Countdown */

/** Seconds to add to this browser's clock to read the server's (from a state's `now` and when it came). */
/** @param {number} serverNow the state's `now` @param {number} receivedAt this browser's Date.now() / 1000 then */
export function clockOffset(serverNow, receivedAt) {
  return serverNow - receivedAt;
}

/** The decision's countdown at a browser time: whose, the seconds left (of the decision's own time, then of the
 * reserve: `reserve` true) and whether it is nearly over; null when the clock runs for no decision. */
/** @param {ClockInfo | null | undefined} clock @param {number} localNow @param {number} offset
 * @returns {Countdown | null} */
export function countdown(clock, localNow, offset) {
  if (!clock || !clock.turn) return null;
  const now = localNow + offset;
  const turn = clock.turn;
  const own = turn.decision_ends - now;
  if (own > 0) return { position: turn.position, seconds: own, reserve: false, urgent: own <= 5 && turn.ends <= turn.decision_ends };
  const left = Math.max(0, turn.ends - now);
  return { position: turn.position, seconds: left, reserve: true, urgent: left <= 5 };
}

/** Seconds until a finished deal stops waiting for people to be ready (null: it does not wait). */
/** @param {ClockInfo | null | undefined} clock @param {number} localNow @param {number} offset */
export function readyLeft(clock, localNow, offset) {
  if (!clock || clock.ready_ends === null) return null;
  return Math.max(0, clock.ready_ends - (localNow + offset));
}

/** A countdown as a person reads it: "0:27", "1:05" (whole seconds, rounded up: "0:00" only at the end). */
/** @param {number} seconds */
export function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds - 1e-6));
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

/** Whether the computer stand-in decides for a table position. */
/** @param {ClockInfo | null | undefined} clock @param {number | null} position */
export function isAway(clock, position) {
  return !!clock && position !== null && clock.away.includes(position);
}
