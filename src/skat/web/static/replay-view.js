// What the replay page (/replay/{table}/{deal}, replay.js) shows of a finished deal at each of its steps
// (GET /api/replays/..., docs/history.md): the players' names and places round the felt, the hands in the order a
// player holds them, the cards in the middle, each step in words, the step list's auction and tricks, the result,
// and the double-dummy analysis of the card played at a step. Pure: the answer and the reader's words come in as
// arguments, so the unit tests (tests/js/replay.test.js) check it without a page.

import { contractOfWords, contractWords } from "./words.js";
import { actionLabel, bookedText, ramschWhy, resultSentence, SEAT_KEYS, seatLabel } from "./view.js";

/** @typedef {import("./protocol").ReplayAnswer} ReplayAnswer */
/** @typedef {import("./protocol").ReplayStep} ReplayStep */
/** @typedef {import("./protocol").Card} Card */
/** @typedef {import("./protocol").Seat} Seat */
/** @typedef {import("./protocol").Result} Result */
/** @typedef {import("./protocol").Analysis} Analysis */
/** @typedef {import("./protocol").AnalysisCard} AnalysisCard */
/** @typedef {import("./protocol").StateMessage} StateMessage */
/** @typedef {import("./words.js").TextOf} TextOf */
/** The reader's words (words.js) and the replay's own texts (the catalogs' "replay" section). */
/** @typedef {import("./words.js").Words & {r: TextOf}} ReplayWords */
/** Where a seat sits on the screen: the reader's own (or forehand) at the bottom, the next player on the left. */
/** @typedef {"bottom" | "left" | "right"} Place */
/** The cards in the middle of the felt at a step: the trick being played, or the one just taken (`winner`). */
/** @typedef {{cards: [Seat, Card][], winner: Seat | null}} Middle */
/** An entry of the step list: an action of the auction (or the deal itself), or a trick with its cards' steps. */
/** @typedef {{kind: "step", index: number} | {kind: "trick", trick: number, steps: number[]}} ListEntry */

const LEVELS = ["easy", "medium", "strong", "expert", "learned", "heuristic", "random"];

/** Whether an action token is a card ("CJ", "HT"). */
/** @param {string | null | undefined} token @returns {boolean} */
export function isCard(token) { return typeof token === "string" && /^[CSHD][789TJQKA]$/.test(token); }

/** The game seat the reader sat at (null: the reader did not play this deal, or sat out as the dealer of four). */
/** @param {ReplayAnswer} a @returns {Seat | null} */
export function yourSeat(a) {
  if (a.you === null) return null;
  const seat = positionsOf(a).indexOf(a.you);
  return seat < 0 ? null : seat;
}

/** The table positions of the game seats (forehand, middlehand, rearhand). */
/** @param {ReplayAnswer} a @returns {number[]} */
function positionsOf(a) {
  const table = /** @type {{positions?: number[]}} */ (a.record.table || {});
  return Array.isArray(table.positions) ? table.positions : [0, 1, 2];
}

/** The players' names as the record has them, by game seat. */
/** @param {ReplayAnswer} a @returns {string[]} */
function recordNames(a) {
  const table = /** @type {{players?: string[]}} */ (a.record.table || {});
  return Array.isArray(table.players) ? table.players : [];
}

/** A seat of the table as the table page's name functions take it: a computer player's level ("Anna (strong)")
 * said in the reader's language. */
/** @param {string} name @param {number} position */
function seatOf(name, position) {
  const m = /\((\w+)\)$/.exec(name || "");
  const bot = m && LEVELS.includes(m[1]) ? m[1] : null;
  return { position, kind: bot ? "bot" : "human", name, bot, taken: true, connected: true };
}

/** The names of the three seats in the reader's language ("Anna (stark)"; "Seat 2" for a seat without one). */
/** @param {ReplayAnswer} a @param {ReplayWords} w @returns {string[]} */
export function seatNames(a, w) {
  const names = recordNames(a), positions = positionsOf(a);
  return [0, 1, 2].map((s) => seatLabel(seatOf(names[s], positions[s]), positions[s], w));
}

/** The names as the step list's tricks show them, short: without a computer player's level ("Anna"). */
/** @param {ReplayAnswer} a @param {ReplayWords} w @returns {string[]} */
export function shortNames(a, w) {
  return seatNames(a, w).map((name, s) => {
    const short = name.replace(/\s*\([^()]*\)$/, "");
    return short && seatNames(a, w).filter((other, o) => o !== s && other.replace(/\s*\([^()]*\)$/, "") === short).length === 0 ? short : name;
  });
}

/** The seat shown at each place: the reader's own at the bottom (forehand for one who did not play), the next
 * player (middlehand of forehand) on the left, as at the table. */
/** @param {ReplayAnswer} a @returns {Record<Place, Seat>} */
export function places(a) {
  const bottom = yourSeat(a) ?? 0;
  return { bottom, left: (bottom + 1) % 3, right: (bottom + 2) % 3 };
}

/** The table page's state for the table's name functions (view.js): the record's seats, nobody addressed as
 * "You" (a replay names everyone), the finished deal and its sheet row. */
/** @param {ReplayAnswer} a @returns {StateMessage} */
export function stateOf(a) {
  const names = recordNames(a), positions = positionsOf(a);
  const n = Math.max(3, ...positions.map((p) => p + 1));
  const seats = Array.from({ length: n }, (_, p) => seatOf(names[positions.indexOf(p)] || "", p));
  const row = a.sheet_row || null;
  const table = /** @type {{dealer?: number}} */ (a.record.table || {});
  return /** @type {StateMessage} */ (/** @type {unknown} */ ({
    type: "state", protocol: 1, seq: 0, stopped: null, dealt: null, hints: {},
    you: { position: null, seat: null, role: "spectator" },
    table: { id: a.table_id, name: a.table_name, variant: a.variant, ruleset: a.ruleset, n_players: n, positions, seats,
      dealer: table.dealer ?? null, deal_no: a.deal_no, game_no: row ? row.deal_no : null,
      round: row && typeof row.round === "string" ? row.round : "normal", ready: [] },
    view: { phase: "finished", ruleset: a.ruleset, result: a.result },
  }));
}

/** The suits in the order a player holds them, colours alternating: clubs, hearts, spades, diamonds. */
const SUITS = ["C", "H", "S", "D"];
const RANKS_TRUMP = "ATKQ987";  // A 10 K Q 9 8 7 (the jacks apart)
const RANKS_NULL = "AKQJT987";

/** Cards in the order a player holds them for the game (trumps first, then the other suits, highest first); before
 * a game is declared, and in a Ramsch, as for a grand: the jacks, then the suits. */
/** @param {Card[]} cards @param {string | null | undefined} game @returns {Card[]} */
export function sortHand(cards, game) {
  const isNull = game === "null";
  const trumpSuit = { clubs: "C", spades: "S", hearts: "H", diamonds: "D" }[String(game)] || null;
  const order = isNull ? RANKS_NULL : RANKS_TRUMP;
  /** @param {Card} c */
  const key = (c) => {
    const [suit, rank] = [c[0], c[1]];
    if (!isNull && rank === "J") return "CSHD".indexOf(suit);  // the jacks, clubs highest
    const group = suit === trumpSuit ? 0 : 1 + SUITS.filter((s) => s !== trumpSuit).indexOf(suit);
    return 10 + group * 10 + order.indexOf(rank);
  };
  return [...cards].sort((x, y) => key(x) - key(y));
}

/** The game of a step's contract ("spades", "null", ...), "ramsch" during a Ramsch's play, null before a game. */
/** @param {ReplayStep} step */
export function gameOf(step) {
  const c = /** @type {{game?: string} | null} */ (step.contract);
  if (c && c.game) return c.game;
  return step.declarer === null && (step.phase === "play" || step.phase === "finished") ? "ramsch" : null;
}

/** The game the hands are sorted for: the deal's game from its first step (a Skat player reads a deal knowing what
 * was played; the heading says it), the grand's order for a Ramsch and a deal passed in. */
/** @param {ReplayAnswer} a @param {number} index @returns {string | null} */
export function sortGame(a, index) {
  const r = /** @type {Result | null} */ (a.result);
  const game = r && r.contract ? r.contract.game : a.steps[index] ? gameOf(a.steps[index]) : null;
  return game === "ramsch" ? null : game;
}

/** The number of the card played at step `index` (1 to 30), null where the step is no card. */
/** @param {ReplayStep[]} steps @param {number} index @returns {number | null} */
export function cardNumber(steps, index) {
  if (!steps[index] || !isCard(steps[index].action)) return null;
  let n = 0;
  for (let i = 1; i <= index; i++) if (isCard(steps[i].action)) n++;
  return n;
}

/** The cards in the middle at a step: the trick being played; right after its third card, the trick just taken
 * with its winner. */
/** @param {ReplayStep} step @returns {Middle} */
export function middleOf(step) {
  if (step.trick.length) return { cards: step.trick.map((x) => /** @type {[Seat, Card]} */ ([Number(x[0]), String(x[1])])), winner: null };
  const last = /** @type {{leader: Seat, cards: Card[], winner: Seat} | null} */ (step.last_trick);
  if (last && isCard(step.action)) {
    return { cards: last.cards.map((c, i) => /** @type {[Seat, Card]} */ ([(last.leader + i) % 3, c])), winner: last.winner };
  }
  return { cards: [], winner: null };
}

/** The last trick taken before this step's own (the "last trick" box: null while none, or while the middle shows it). */
/** @param {ReplayStep} step @returns {{leader: Seat, cards: Card[], winner: Seat} | null} */
export function lastTrickOf(step) {
  const last = /** @type {{leader: Seat, cards: Card[], winner: Seat} | null} */ (step.last_trick);
  if (!last || (!step.trick.length && isCard(step.action))) return null;
  return last;
}

/** The two cards of the skat the declarer took into the hand (shown marked until they are put away). */
/** @param {ReplayAnswer} a @param {number} index @returns {Card[]} */
export function pickedUp(a, index) {
  const step = a.steps[index];
  if (!step || step.phase !== "discard" || step.declarer === null) return [];
  const skat = /** @type {Card[]} */ (a.record.skat || []);
  return skat.filter((c) => step.hands[/** @type {Seat} */ (step.declarer)].includes(c));
}

/** The cards the declarer put away (the discard), once put away. */
/** @param {ReplayAnswer} a @param {number} index @returns {Card[]} */
export function putAway(a, index) {
  for (let i = 1; i <= index && i < a.steps.length; i++) {
    const token = a.steps[i].action || "";
    if (token.startsWith("discard ") && a.steps[i].seat === a.steps[i].declarer) return /** @type {Card[]} */ (token.split(" ").slice(1));
  }
  return [];
}

/** The skat lying on the table at a step (before the declarer took it; in a hand game, all the deal), else none. */
/** @param {ReplayAnswer} a @param {number} index @returns {Card[]} */
export function skatOnTable(a, index) {
  const step = a.steps[index];
  if (!step) return [];
  const skat = /** @type {Card[]} */ (a.record.skat || []);
  const inHand = step.hands.some((hand) => skat.some((c) => hand.includes(c)));
  const played = skat.some((c) => a.steps.slice(1, index + 1).some((s) => s.action === c));
  return inHand || played || putAway(a, index).length ? [] : skat;
}

/** What a seat said last in the auction, while it runs ("18", "yes", "pass"); null for nothing. */
/** @param {ReplayStep[]} steps @param {number} index @param {Seat} seat @param {ReplayWords} w */
export function lastWord(steps, index, seat, w) {
  if (!steps[index] || steps[index].phase !== "bidding") return null;
  for (let i = index; i >= 1; i--) {
    if (steps[i].seat === seat && steps[i - 1].phase === "bidding") {
      const said = steps[i].action || "";
      return said === "hold" ? w.t("saysHold") : said === "pass" ? w.t("saysPass") : said;
    }
  }
  return null;
}

/** Step `index` in words: "Bernd bids 18", "Ada: yes (18)", "Clara passes", "Ada picks up the skat", "Ada puts away
 * {cards}", "Ada plays Spades", a card ("Ada: {card}"). Placeholders {card} and {cards} are left for the page to
 * fill with pictures of the cards (text.js splitPlaceholders); `cards` in `params` gives them as text instead. */
/** @param {ReplayAnswer} a @param {number} index @param {ReplayWords} w @param {string[]} names */
export function stepText(a, index, w, names) {
  const step = a.steps[index];
  if (!step || step.action === null || step.seat === null) return w.r("stepDealt");
  const text = actionText(a, index, w, names);
  return byStandIn(a, index) ? text + " " + w.r("stepStandIn") : text;
}

/** Whether the computer stand-in made a step's action for the person in that seat (their time ran out; the record's
 * `stand_in` lists the numbers of those actions). */
/** @param {ReplayAnswer} a @param {number} index */
export function byStandIn(a, index) {
  const marked = /** @type {{stand_in?: unknown}} */ (a.record).stand_in;
  return index > 0 && Array.isArray(marked) && marked.includes(index - 1);
}

/** @param {ReplayAnswer} a @param {number} index @param {ReplayWords} w @param {string[]} names */
function actionText(a, index, w, names) {
  const step = a.steps[index];
  if (!step || step.action === null || step.seat === null) return w.r("stepDealt");
  const who = names[step.seat] || "";
  const token = step.action;
  const before = a.steps[index - 1];
  if (/^\d+$/.test(token)) return w.r("stepBid", { who, v: token });
  if (token === "hold") return w.r("stepHold", { who, v: before ? before.bid : "" });
  if (token === "pass") return w.r(before && before.phase === "grand_hand" ? "stepNoGrandHand" : "stepPass", { who });
  if (token === "pickup") return w.r("stepPickup", { who });
  if (token.startsWith("discard ")) return w.r("stepDiscard", { who });
  if (token.startsWith("declare ")) return w.r("stepDeclare", { who, contract: contractWords(contractOfWords(token.slice(8)), w) });
  if (isCard(token)) return w.r("stepCard", { who });
  const key = { kontra: "stepKontra", re: "stepRe", claim: "stepClaim", concede: "stepConcede", resign: "stepResign",
    accept: "stepAccept", reject: "stepReject", push: "stepPush", turn: "stepTurn" }[token];
  return key ? w.r(key, { who }) : w.r("stepOther", { who, what: actionLabel(token, w) });
}

/** The cards a step names: the card played, the two put away. */
/** @param {ReplayStep | undefined} step @returns {Card[]} */
export function stepCards(step) {
  const token = step && step.action || "";
  if (isCard(token)) return [token];
  if (token.startsWith("discard ")) return /** @type {Card[]} */ (token.split(" ").slice(1));
  return [];
}

/** The step list: the deal and each action of the auction, skat and declaration (and a Kontra) in a line of its own,
 * and the card play as tricks, each with the steps of its cards. */
/** @param {ReplayStep[]} steps @returns {ListEntry[]} */
export function listEntries(steps) {
  /** @type {ListEntry[]} */
  const out = [{ kind: "step", index: 0 }];
  let cards = 0;
  /** @type {{kind: "trick", trick: number, steps: number[]} | null} */
  let trick = null;
  for (let i = 1; i < steps.length; i++) {
    if (isCard(steps[i].action)) {
      if (cards % 3 === 0) { trick = { kind: "trick", trick: cards / 3 + 1, steps: [] }; out.push(trick); }
      /** @type {{kind: "trick", trick: number, steps: number[]}} */ (trick).steps.push(i);
      cards++;
    } else {
      out.push({ kind: "step", index: i });
    }
  }
  return out;
}

/** Who took a trick of the step list (null: a trick the deal ended in before its third card). */
/** @param {ReplayStep[]} steps @param {{steps: number[]}} trick @returns {Seat | null} */
export function trickWinner(steps, trick) {
  if (trick.steps.length < 3) return null;
  const last = /** @type {{winner: Seat} | null} */ (steps[trick.steps[2]].last_trick);
  return last ? last.winner : null;
}

/** The contract line: "Ada plays Spades Hand · bid 23"; a Ramsch and a deal passed in say so; null before a game. */
/** @param {ReplayAnswer} a @param {ReplayWords} w @param {string[]} names */
export function contractLine(a, w, names) {
  const r = /** @type {Result | null} */ (a.result);
  if (!r) return null;
  if (r.kind === "passed_in") return w.t("passedIn");
  if (r.ramsch) return w.t("game_ramsch");
  if (!r.contract || r.declarer === null) return null;
  const line = w.r("contractLine", { who: names[r.declarer], contract: contractWords(r.contract, w), v: r.bid });
  const kontra = kontraWords(r.kontra_level || 0, w);
  return kontra ? line + " · " + kontra : line;
}

/** Kontra and Re as said ("Kontra", "Kontra · Re"); "" for neither. */
/** @param {number} level @param {ReplayWords} w */
export function kontraWords(level, w) {
  return level >= 2 ? w.t("kontra") + " · " + w.t("re") : level === 1 ? w.t("kontra") : "";
}

/** The result's heading and sentence in the reader's language ("Ada won", "Ada won Spades with 2: 72 card points.
 * Worth 30."), what the sheet books (a Bock round doubles it) and whether the declarer won (null: no declarer). */
/** @param {ReplayAnswer} a @param {ReplayWords} w @returns {{title: string, sentence: string, score: string, won: boolean | null}} */
export function resultText(a, w) {
  const r = /** @type {Result | null} */ (a.result);
  const st = stateOf(a);
  const names = seatNames(a, w);
  if (!r) return { title: "", sentence: "", score: "", won: null };
  if (r.kind === "passed_in") return { title: w.t("passedIn"), sentence: "", score: "", won: null };
  if (r.ramsch) {
    const R = r.ramsch;
    /** @param {Seat[]} seats */
    const list = (seats) => seats.map((s) => names[s]).join(", ");
    const durch = R.durchmarsch !== null && R.durchmarsch !== undefined;
    const scores = R.losers.some((s) => r.scores[s] > 0);
    const title = durch ? w.t("durchmarsch", { who: names[/** @type {Seat} */ (R.durchmarsch)] })
      : w.t(scores ? "ramschScores" : R.losers.length > 1 ? "ramschLosers" : "ramschLoser", { who: list(R.losers) });
    const score = [0, 1, 2].map((s) => `${names[s]} ${signed(r.scores[s])}`).join(" · ");
    return { title, sentence: ramschWhy(st, R, w) || "", score, won: null };
  }
  const o = r.outcome;
  if (!o || r.declarer === null) return { title: w.t("result"), sentence: r.explanation, score: "", won: r.won };
  const sheet = a.sheet_row ? /** @type {import("./protocol").Sheet} */ (/** @type {unknown} */ ({ rows: [a.sheet_row] })) : null;
  const booked = bookedText(st, sheet, r.declarer, o.score, w);
  return {
    title: w.t(o.won ? "resultTitle_won" : "resultTitle_lost", { who: names[r.declarer] }),
    sentence: resultSentence(st, r, w, booked),
    score: w.t("scoreEntry", { s: booked || signed(o.score) }),
    won: o.won,
  };
}

/** @param {number} x */
function signed(x) { return x > 0 ? "+" + x : String(x); }

/** A seat's place in the deal: "forehand", "middlehand", "rearhand" (the declarer is marked apart). */
/** @param {Seat} seat @param {ReplayWords} w */
export function roleText(seat, w) {
  return w.t(SEAT_KEYS[seat]);
}

const CARD_POINTS = /** @type {Record<string, number>} */ ({ A: 11, T: 10, K: 4, Q: 3, J: 2 });

/** The card points of some cards (an ace 11, a ten 10, a king 4, a queen 3, a jack 2). */
/** @param {Card[]} cards */
export function cardPoints(cards) {
  return cards.reduce((sum, c) => sum + (CARD_POINTS[c[1]] || 0), 0);
}

/** The card points of the skat that count for a seat at a step: the declarer's skat (skatPoints), and at the end
 * of a Ramsch the skat of whoever it goes to (the result's card points against the tricks'); null for none. */
/** @param {ReplayAnswer} a @param {number} index @param {Seat} seat @returns {number | null} */
export function skatPointsOf(a, index, seat) {
  const step = a.steps[index];
  if (!step) return null;
  if (step.declarer !== null) return step.declarer === seat ? skatPoints(a, index) : null;
  const r = /** @type {Result | null} */ (a.result);
  if (step.phase !== "finished" || !r || !r.ramsch) return null;
  const more = r.ramsch.card_points[seat] - step.points[seat];
  return more > 0 ? more : null;
}

/** The card points of the skat that count for the declarer at a step of the card play: the two cards put away, or
 * in a hand game the skat; null where no skat is the declarer's (before the play, a Ramsch). */
/** @param {ReplayAnswer} a @param {number} index @returns {number | null} */
export function skatPoints(a, index) {
  const step = a.steps[index];
  if (!step || (step.phase !== "play" && step.phase !== "finished")) return null;
  if (step.declarer === null) return null;
  const away = putAway(a, index);
  return cardPoints(away.length ? away : /** @type {Card[]} */ (a.record.skat || []));
}

// ------------------------------------------------------------------ analysis
/** A value of a position as the analysis gives it: the declarer's final card points with best play (none in a null
 * game) and whether that wins the contract (null: not solved in time). */
/** @typedef {{points: number | null, wins: boolean | null}} Value */
/** A legal card at the position, its value, and whether it is a best card and the card played. */
/** @typedef {{card: Card, value: Value, best: boolean, played: boolean}} Move */
/** What the analysis says of the card played at a step: its row, how the card was judged, and every legal card. */
/** @typedef {{row: AnalysisCard, verdict: "only" | "unsolved" | "best" | "costly" | "turn", moves: Move[]}} CardVerdict */

/** The analysis of the card played at step `index` (null: the step is no card, or the analysis has no row for it). */
/** @param {Analysis} analysis @param {ReplayStep[]} steps @param {number} index @returns {CardVerdict | null} */
export function cardVerdict(analysis, steps, index) {
  const n = cardNumber(steps, index);
  if (n === null) return null;
  const row = analysis.cards.find((r) => r.number === n);
  if (!row) return null;
  const raw = /** @type {{moves?: {card: Card, declarer_points: number | null, declarer_wins: boolean | null}[]}} */ (/** @type {unknown} */ (row)).moves || [];
  const moves = raw.map((m) => ({ card: m.card, value: { points: m.declarer_points, wins: m.declarer_wins },
    best: row.best.includes(m.card), played: m.card === row.card }));
  // best first for the player to move: the declarer wants the game won and many card points, a defender neither
  const sign = row.role === "declarer" ? 1 : -1;
  /** @param {Move} m */
  const score = (m) => m.value.wins === null ? -1e6 : sign * ((m.value.wins ? 1000 : 0) + (m.value.points ?? 0));
  moves.sort((x, y) => score(y) - score(x));
  const verdict = row.legal.length === 1 ? "only" : !row.analysed ? "unsolved" : row.turning_point ? "turn"
    : row.best.includes(row.card) ? "best" : "costly";
  return { row, verdict, moves };
}

/** A value in words: "71 card points, won", "lost" (null games, or no card points), "not solved in time". */
/** @param {Value} v @param {ReplayWords} w */
export function valueText(v, w) {
  if (v.wins === null) return w.t("anaNotSolved");
  const res = w.t(v.wins ? "anaWon" : "anaLost");
  return v.points === null ? res : w.t("anaPointsResult", { p: v.points, r: res });
}

/** The goal of the declarer in words ("61 card points", "every trick (Schwarz announced)"). */
/** @param {Analysis} a @param {ReplayWords} w */
export function goalText(a, w) {
  const g = a.goal;
  if (!g) return "";
  const what = g.kind === "points" ? w.t("goalPoints", { n: g.points }) : w.t("goal_" + g.kind);
  const r = g.reason || "";
  const why = !r ? "" : r.startsWith("Schneider announced") ? w.t("goalWhySchneider") : r.startsWith("ouvert") ? w.t("goalWhyOuvert")
    : r.startsWith("Schwarz announced") ? w.t("goalWhySchwarz") : r.startsWith("the bid") ? w.t("goalWhyBid", { b: a.bid })
    : r.startsWith("overbid") ? w.t("goalWhyOverbid", { b: a.bid }) : "";
  return why ? `${what} (${why})` : what;
}
