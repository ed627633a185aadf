// The arithmetic of the lists of real tables: the score keeper's (keeper.js draws it) and a tournament's
// seating (tournament.js): who plays when a player deals, the
// entry the form holds as the server takes it (docs/keeper-server.md) or what is still missing, and how the list
// writes its numbers. Pure: no page, so the unit tests (tests/js) check it.

/** @typedef {import("./protocol").KeeperEntry} KeeperEntry */
/** @typedef {import("./protocol").KeeperRules} KeeperRules */
/** @typedef {import("./protocol").KeeperForm} KeeperForm */
/** What the entry is about: its number, dealer, the three who play, the round, every player. */
/** @typedef {{number: number, dealer: string, seats: string[], round: string, players: string[]}} EntryContext */

/** An entry as "+24", "−48" (a minus sign, not a hyphen) or "0". */
/** @param {number} x */
export function signed(x) { return x > 0 ? "+" + x : x < 0 ? "−" + -x : "0"; }

/** The indices of the players who play when the player at `dealer` deals: three of 3, 4 (the dealer sits out)
 * or 5 (the dealer and the one across sit out). */
/** @param {number} dealer @param {number} n @returns {number[]} */
export function seatsFor(dealer, n) {
  const d = dealer;
  if (n === 3) return [(d + 1) % 3, (d + 2) % 3, d];
  if (n === 4) return [(d + 1) % 4, (d + 2) % 4, (d + 3) % 4];
  return [(d + 1) % 5, (d + 2) % 5, (d + 4) % 5];
}

/** An empty entry form. */
/** @returns {KeeperForm} */
export function blankForm() {
  return { kind: null, declarer: null, game: null, hand: false, schneider_announced: false, schwarz_announced: false,
    ouvert: false, matWith: true, mat: null, points: "", result: null, schneider: false, schwarz: false, bid: null,
    kontra: false, re: false, revoke: null, note: "", ramsch: {}, jungfrau: [], durchmarsch: null, pushes: 0, more: false,
    byCards: false, cards: [] };
}

/** The form holding an entry (to edit or correct it). */
/** @param {KeeperEntry} e @returns {KeeperForm} */
export function formFromEntry(e) {
  const f = blankForm();
  if (e.declarer === "passed" || e.declarer === "ramsch") f.kind = e.declarer;
  else { f.kind = "game"; f.declarer = e.declarer; }
  Object.assign(f, {
    game: e.game || null, hand: Boolean(e.hand), schneider_announced: Boolean(e.schneider_announced),
    schwarz_announced: Boolean(e.schwarz_announced), ouvert: Boolean(e.ouvert), schneider: Boolean(e.schneider),
    schwarz: Boolean(e.schwarz), bid: e.bid || null, kontra: Boolean(e.kontra), re: Boolean(e.re), revoke: e.revoke || null,
    note: e.note || "", result: e.result || null, points: e.points === undefined || e.points === null ? "" : String(e.points),
    jungfrau: e.jungfrau ? [...e.jungfrau] : [], durchmarsch: e.durchmarsch || null, pushes: e.pushes || 0,
  });
  if (e.with) { f.matWith = true; f.mat = e.with; } else if (e.without) { f.matWith = false; f.mat = e.without; }
  if (e.cards) { f.byCards = true; f.cards = [...e.cards]; }
  if (e.ramsch) for (const [n, p] of Object.entries(e.ramsch)) f.ramsch[n] = String(p);
  f.more = Boolean(e.revoke || e.note);
  return f;
}

/** Whether a round's every deal is a Ramsch. */
/** @param {string} round */
export const isRamschRound = (round) => round === "ramsch" || round === "schieber";

/** The entry the form holds, as the server takes it, or what is still missing (`need`). */
/** @param {KeeperForm} f @param {EntryContext} c @param {KeeperRules} r @returns {{entry: KeeperEntry} | {need: string}} */
export function entryOf(f, c, r) {
  if (!f.kind) return { need: "need_declarer" };
  const note = f.note.trim() ? { note: f.note.trim() } : {};
  if (f.kind === "passed") return { entry: { declarer: "passed", ...note } };
  if (f.kind === "ramsch") {
    /** @type {Record<string, number>} */
    const ramsch = {};
    const given = c.seats.filter((name) => (f.ramsch[name] || "").trim());
    for (const name of given) {
      const v = f.ramsch[name].trim();
      if (!/^\d+$/.test(v)) return { need: "need_ramsch" };
      ramsch[name] = Number(v);
    }
    // every player's card points, or the loser's alone (the others took fewer: all the list needs)
    if (given.length !== c.seats.length && (given.length !== 1 || r.ramsch_scoring === "hoyle")) return { need: "need_ramsch" };
    /** @type {KeeperEntry} */
    const e = { declarer: "ramsch", ramsch };
    const jf = f.jungfrau.filter((n) => c.seats.includes(n));
    if (jf.length) e.jungfrau = jf;
    if (f.durchmarsch && c.seats.includes(f.durchmarsch)) e.durchmarsch = f.durchmarsch;
    if (f.pushes) e.pushes = f.pushes;
    return { entry: { ...e, ...note } };
  }
  if (!f.declarer) return { need: "need_declarer" };
  if (!f.game) return { need: "need_game" };
  const isNull = f.game === "null";
  /** @type {KeeperEntry} */
  const e = { declarer: f.declarer, game: f.game };
  if (f.hand) e.hand = true;
  if (f.ouvert) e.ouvert = true;
  if (!isNull && !f.ouvert && f.hand) {
    if (f.schwarz_announced) e.schwarz_announced = true;
    else if (f.schneider_announced) e.schneider_announced = true;
  }
  if (!isNull && f.byCards) {
    if (f.cards.length !== 12) return { need: "need_cards" };
    e.cards = [...f.cards];
  } else if (!isNull) {
    if (!f.mat) return { need: "need_matadors" };
    e[f.matWith ? "with" : "without"] = f.mat;
  }
  if (f.revoke) e.revoke = f.revoke;
  else if (!isNull && /^\d+$/.test(f.points.trim())) e.points = Number(f.points.trim());
  else if (f.result) e.result = f.result;
  else return { need: "need_result" };
  if (!isNull && !f.revoke) {
    if (f.schwarz) e.schwarz = true;
    if (f.schneider && e.points === undefined && !f.schwarz) e.schneider = true;
  }
  e.bid = f.bid || (r.bid_values && r.bid_values[0]) || 18;
  if (r.kontra && f.kontra) { e.kontra = true; if (f.re && r.kontra_re !== false) e.re = true; }
  return { entry: { ...e, ...note } };
}

/** A number of the list: integers as they are, others with two decimals. */
/** @param {number | string} x */
export function fmtNum(x) { return typeof x === "number" ? (Number.isInteger(x) ? String(x) : x.toFixed(2)) : String(x); }
/** A price as the server keeps it ("1/20", "0.05") in decimals: 0.05. */
/** @param {number | string} p */
export function fmtPrice(p) {
  const m = String(p).match(/^(-?\d+)\/(\d+)$/);
  return m ? String(Math.round((Number(m[1]) / Number(m[2])) * 1e6) / 1e6) : String(p);
}
/** An amount of money: two decimals. */
/** @param {number | string} x */
export function fmtMoney(x) { return typeof x === "number" ? x.toFixed(2) : String(x); }

/** The tables of n players as a tournament seats them: as few as possible, of 4 and 3 (null: impossible). */
/** @param {number} n @returns {number[] | null} */
export function tableSizes(n) {
  if (n < 3) return null;
  const tables = Math.ceil(n / 4);
  const fours = n - 3 * tables;
  if (fours < 0) return null;
  return [...Array(fours).fill(4), ...Array(tables - fours).fill(3)];
}
