// What the Skat table shows, from the server's state message (docs/protocol.md): names, roles, the line in the
// middle of the table, the cards in display order, labels of action tokens, the contract chooser's arithmetic.
// Pure: the state and the reader's words (words.js) come in as arguments, so the unit tests (tests/js) check it
// without a page.

import { contractWords, youForm } from "./words.js";

/** @typedef {import("./protocol").StateMessage} StateMessage */
/** @typedef {import("./protocol").SeatView} SeatView */
/** @typedef {import("./protocol").Card} Card */
/** @typedef {import("./protocol").Seat} Seat */
/** @typedef {import("./protocol").Position} Position */
/** @typedef {import("./protocol").Hints} Hints */
/** @typedef {import("./protocol").Result} Result */
/** @typedef {import("./protocol").BidEstimate} BidEstimate */
/** @typedef {import("./protocol").ContractHint} ContractHint */
/** @typedef {import("./protocol").Game} Game */
/** @typedef {import("./words.js").Words} Words */
/** A trick held in the middle after it was taken: its leader, cards, winner and the cards shown before. */
/** @typedef {{leader: Seat, cards: Card[], winner: Seat, prevCards: Card[]}} HeldTrick */
/** What the contract chooser has chosen. */
/** @typedef {{game: Game | null, schneider: boolean, schwarz: boolean, ouvert: boolean}} Choice */
/** Where a table position sits as this page shows it: round the table from one's own seat at the bottom, the
 * next player (to one's left) on the left; at five two sit across, top left and top right. */
/** @typedef {"bottom" | "left" | "top" | "topleft" | "topright" | "right"} Where */
/** A sheet row (the score sheet: what it books). */
/** @typedef {import("./protocol").SheetRow} SheetRow */
/** @typedef {import("./protocol").Sheet} Sheet */

export const SEAT_KEYS = ["forehand", "middlehand", "rearhand"];

/** The position shown at the bottom: one's own, or the first for a spectator. */
/** @param {StateMessage} st @returns {Position} */
export function bottomPosition(st) { return st.you.position !== null ? st.you.position : 0; }

/** The table position of a game seat. */
/** @param {StateMessage} st @param {Seat} seat @returns {Position} */
export function seatPos(st, seat) { return st.table.positions[seat]; }

/** A player's name as the reader sees it: "You", the name, a computer's level in the reader's language. */
/** @param {StateMessage} st @param {Position} pos @param {Words} w */
export function playerName(st, pos, w) {
  if (st.you.position === pos) return w.t("you");
  return seatLabel(st.table.seats[pos], pos, w);
}

/** A seat's name as the lobby and the table show it: a computer's level in the reader's language. */
/** @param {{kind: string, name: string, bot?: string | null}} s @param {number} pos @param {Words} w */
export function seatLabel(s, pos, w) {
  const level = s.kind === "bot" && s.bot ? ` (${s.bot})` : "";
  if (s.bot && level && s.name && s.name.endsWith(level)) { // the server names a computer player "Anna (strong)"
    const word = w.t("lvl_" + s.bot);
    return s.name.slice(0, -level.length) + " (" + (word === "lvl_" + s.bot ? s.bot : word) + ")";
  }
  return s.name || w.t("seat", { n: pos + 1 });
}

/** The name of whoever holds a game seat. */
/** @param {StateMessage} st @param {Seat} seat @param {Words} w */
export function seatName(st, seat, w) { return playerName(st, seatPos(st, seat), w); }

/** Where a position sits on the screen, the reader's own at the bottom. */
/** @param {StateMessage} st @param {Position} pos @returns {Where} */
export function relative(st, pos) {
  const n = st.table.n_players;
  const r = (pos - bottomPosition(st) + n) % n;
  if (r === 0) return "bottom";
  if (n === 3) return r === 1 ? "left" : "right";
  if (n === 5) return /** @type {Where[]} */ (["bottom", "left", "topleft", "topright", "right"])[r];
  return /** @type {Where[]} */ (["bottom", "left", "top", "right"])[r];
}

/** The places of the other positions at a table of n: left, top..., right (the page's boxes, in seating order). */
/** @param {number} n @returns {Where[]} */
export function otherPlaces(n) {
  return n === 3 ? ["left", "right"] : n === 5 ? ["left", "topleft", "topright", "right"] : ["left", "top", "right"];
}

/** Cards in the server's display order for the game (trumps first): hints.sorted holds the own hand and the
 * open hands, each already sorted; a card it does not hold goes last. */
/** @param {Card[]} cards @param {Hints} hints @param {Seat} [seat] */
export function sortCards(cards, hints, seat) {
  const sorted = (hints && hints.sorted) || { hand: [], open: {} };
  const list = seat === undefined ? sorted.hand : (sorted.open[String(seat)] || []);
  /** @param {Card} c */
  const idx = (c) => { const i = list.indexOf(c); return i < 0 ? 99 : i; };
  return [...cards].sort((a, b) => idx(a) - idx(b));
}

/** A position's role in this deal: "forehand · declarer", "dealer, sits out". */
/** @param {StateMessage} st @param {Position} pos @param {Words} w */
export function roleOf(st, pos, w) {
  const v = st.view;
  if (!st.table.deal_no) return ""; // no deal yet: nobody is forehand or dealer
  const seat = st.table.positions.indexOf(pos);
  const parts = [];
  if (seat >= 0) parts.push(w.t(SEAT_KEYS[seat]));
  if (pos === st.table.dealer) parts.push(seat >= 0 ? w.t("dealer") : w.t("dealer") + ", " + w.t("sitsOut"));
  else if (seat < 0) parts.push(w.t("sitsOut"));  // at five: the third player to the dealer's left
  if (v && seat >= 0 && v.declarer === seat) parts.push(w.t("declarer"));
  return parts.join(" · ");
}

/** What a seat said last in the auction ("yes", "pass", "20"), while the auction runs. */
/** @param {SeatView | null} v @param {Seat} seat @param {Words} w */
export function lastWord(v, seat, w) {
  if (!v || v.phase !== "bidding") return null;
  for (let i = v.auction.length - 1; i >= 0; i--) {
    if (v.auction[i][0] === seat) {
      const said = v.auction[i][1];
      return said === "hold" ? w.t("saysHold") : said === "pass" ? w.t("saysPass") : said;
    }
  }
  return null;
}

/** How many tricks a seat has taken. */
/** @param {SeatView | null} v @param {Seat} seat */
export function tricksTaken(v, seat) {
  return v ? v.tricks.filter((x) => x[2] === seat).length : 0;
}

/** @param {SeatView | null} v */
export function isPassedIn(v) { return !!v && v.phase === "finished" && !!v.result && v.result.kind === "passed_in"; }
/** @param {SeatView | null} v */
export function isRamsch(v) {
  return !!v && v.declarer === null && ["play", "finished"].includes(v.phase) && v.contract === null && !isPassedIn(v);
}
/** @param {SeatView | null} v */
export function kontraLevel(v) { return (v && v.kontra_level) || 0; }

/** A Tournee game's name: "Grand Tournee", "Tournee Hearts". */
/** @param {string} name @param {Words} w */
export function tourneeName(name, w) {
  const key = "tg_" + name.replace(/_(diamonds|hearts|spades|clubs)$/, "");
  const suit = (name.match(/_(diamonds|hearts|spades|clubs)$/) || [])[1];
  const base = w.t(key) === key ? name.replace(/_/g, " ") : w.t(key);
  return suit ? base + " " + w.t("game_" + suit) : base;
}

/** The game in words: the Tournee game's own name when there is one, else the contract. */
/** @param {SeatView} v @param {Words} w */
export function gameText(v, w) {
  const r = v.result;
  if (r && r.game_name && v.ruleset === "tournee") return tourneeName(r.game_name, w);
  return contractWords(v.contract, w);
}

/** A button label for any action token the engine offers (bids, Tournee, Grand Hand, Schieberamsch). */
/** @param {string} a @param {Words} w */
export function actionLabel(a, w) {
  if (a.startsWith("declare ")) {
    const words = a.slice(8).split(" ");
    return contractWords({ game: /** @type {Game} */ (words[0]), hand: words.includes("hand"), ouvert: words.includes("ouvert"),
      schneider: words.includes("schneider"), schwarz: words.includes("schwarz") }, w);
  }
  if (/^\d+$/.test(a)) return w.t("bid", { v: a });
  const key = /** @type {Record<string, string>} */ ({ turn: "tourneeTurn", accept: "tourneeAccept", reject: "tourneeReject",
    pickup: "gucki", pass: "pass", push: "pushUnseen" })[a];
  return key ? w.t(key) : a;
}

/** The legal push ("discard X Y") whose two cards are the selected ones, or null. */
/** @param {SeatView} v @param {Set<Card>} selected */
export function pushToken(v, selected) {
  if (selected.size !== 2) return null;
  const want = [...selected].sort().join(" ");
  return v.legal_actions.find((a) => a.startsWith("discard ") && a.slice(8).split(" ").sort().join(" ") === want) || null;
}

/** Who took the trick: "You take the trick", "Ann takes the trick". */
/** @param {StateMessage} st @param {Seat} seat @param {Words} w */
export function wonBy(st, seat, w) {
  return seat === st.you.seat ? w.t("trickWonByYou") : w.t("trickWonBy", { who: seatName(st, seat, w) });
}

/** The line in the middle of the table: whose turn, what is asked, the game being played. */
/** @param {StateMessage} st @param {HeldTrick | null} hold @param {Words} w */
export function infoText(st, hold, w) {
  const t = w.t;
  const v = st.view;
  if (!v) return st.table.status === "waiting" ? waitingPlayersText(st, w) : "";
  const mySeat = st.you.seat;
  /** @param {Seat | null} seat */
  const who = (seat) => seat === null ? "" : seatName(st, seat, w);
  if (v.phase === "bidding") {
    if (v.to_move === mySeat) return t("yourBid");
    const turn = st.hints.auction_turn;  // what the mover is asked: "NAME is to bid 20?"
    const key = turn ? { hold: "waitHold", bid: "waitBidN", play: "waitPlay" }[turn.asks] : null;
    return key && turn ? t(key, { who: who(v.to_move), v: turn.value }) : t("waitBid", { who: who(v.to_move) });
  }
  if (v.phase === "grand_hand") return v.to_move === mySeat ? t("grandHandYou") : t("grandHandWait", { who: who(v.to_move) });
  if (v.phase === "push") return v.to_move === mySeat ? t("pushYou") : t("pushWait", { who: who(v.to_move) });
  if (isRamsch(v) && v.phase === "play") {
    if (hold) return t("ramschPlay") + " — " + wonBy(st, hold.winner, w);
    return t("ramschPlay") + " — " + (v.to_move === mySeat ? t("yourTurn") : t("turnOf", { who: who(v.to_move) }));
  }
  if (v.phase === "finished" && v.result && v.result.kind === "ramsch") return t("ramschPlay");
  // all passed (ISkO: passed in): a finished deal without a declarer, so nobody to name below
  if (isPassedIn(v)) return t("passedIn");
  if (v.declarer === null) return v.phase === "finished" ? t("result") : "";
  const mine = v.declarer === mySeat;
  if (v.phase === "skat") return t(mine ? "auctionWonYou" : "auctionWon", { who: who(v.declarer), v: v.bid });
  if (v.phase === "discard") return t(mine ? "pickingUpYou" : "pickingUp", { who: who(v.declarer) });
  if (v.phase === "declare") return t(mine ? "declaringYou" : "declaring", { who: who(v.declarer) });
  const plays = t(mine ? "playsYou" : "plays", { who: who(v.declarer), contract: gameText(v, w) }) + ", " + t("bidWas", { v: v.bid })
    + (kontraLevel(v) ? " — " + t(kontraLevel(v) === 2 ? "re" : "kontra") : "");
  if (v.phase === "play") {
    if (hold) return plays + " — " + wonBy(st, hold.winner, w);
    return plays + " — " + (v.to_move === mySeat ? t("yourTurn") : t("turnOf", { who: who(v.to_move) }));
  }
  return plays;
}

/** While seats are free: how many the table waits for, and who sits already ("Waiting for 2 more players (Ada,
 * Bob are here)"). */
/** @param {StateMessage} st @param {Words} w */
export function waitingPlayersText(st, w) {
  const free = st.table.seats.filter((s) => !s.taken).length;
  if (!free) return w.t("waitingPlayers");
  const here = st.table.seats.filter((s) => s.taken).map((s) => playerName(st, s.position, w)).join(", ");
  return w.t(free === 1 ? "waitingOnePlayer" : "waitingNPlayers", { n: free, here });
}

/** The bid estimate in one line, with why: "up to 30 (Hearts Hand) — with 1, 7 trumps, 2 aces: wins about 97%". */
/** @param {BidEstimate} est @param {Words} w */
export function estimateText(est, w) {
  const t = w.t;
  if (!est.value) return t("estimatePass") + (est.p !== undefined ? " — " + t("estimatePassWhy", { p: est.p }) : "");
  const upTo = t("estimateUpTo", { v: est.value, game: est.game ? contractWords({ game: est.game, hand: est.hand }, w) : "" });
  if (est.p === undefined) return upTo;
  if (!est.matadors) return upTo + " — " + t("estimateWhyNull", { p: est.p });
  const m = est.matadors;
  const facts = [t(m.with ? "matadorsWith" : "matadorsWithout", { n: m.count }), t("nTrumps", { n: est.trumps }),
    est.aces ? t("nAces", { n: est.aces }) : ""].filter(Boolean).join(", ");
  return upTo + " — " + t("estimateWhy", { facts, p: est.p });
}

/** Whether a contract hint is the chosen game with the chosen announcements (hand or not, when handOnly says). */
/** @param {ContractHint} c @param {Choice} choice @param {boolean} [handOnly] */
export function contractMatches(c, choice, handOnly) {
  const k = c.contract;
  if (k.game !== choice.game || (handOnly !== undefined && k.hand !== handOnly) || !!k.ouvert !== choice.ouvert) return false;
  return k.game === "null" || (!!k.schneider === choice.schneider && !!k.schwarz === choice.schwarz);
}

/** The lowest announcement of game g that can be declared: plain if it can reach the bid, else Schneider, Schwarz
 * or Ouvert announced (a high bid may leave only those). */
/** @param {ContractHint[]} hints @param {Game} g @param {boolean} [handOnly] @returns {Choice} */
export function lowestLevel(hints, g, handOnly) {
  const levels = g === "null" ? [{ ouvert: false }, { ouvert: true }]
    : [{}, { schneider: true }, { schneider: true, schwarz: true }, { schneider: true, schwarz: true, ouvert: true }];
  for (const level of levels) {
    const choice = { game: g, schneider: false, schwarz: false, ouvert: false, ...level };
    if (hints.some((c) => contractMatches(c, choice, handOnly))) return choice;
  }
  return { game: g, schneider: false, schwarz: false, ouvert: false };
}

/** The chooser's choice after switching one announcement on or off: Schwarz takes Schneider with it, Ouvert
 * (not in Null) both; Schneider off drops Schwarz and Ouvert, Schwarz off drops Ouvert. */
/** @param {Choice} choice @param {"schneider" | "schwarz" | "ouvert"} name @param {boolean} on @returns {Choice} */
export function toggleLevel(choice, name, on) {
  const next = { ...choice, [name]: on };
  if (name === "schwarz" && on) next.schneider = true;
  if (name === "ouvert" && on && choice.game !== "null") next.schneider = next.schwarz = true;
  if (name === "schneider" && !on) next.schwarz = next.ouvert = false;
  if (name === "schwarz" && !on) next.ouvert = false;
  return next;
}

/** The result of a game in one sentence in the reader's language, the reader addressed where the declarer is;
 * `booked`: what the sheet books when it is not the game's score ("+27 × 2 (Bock) = +54"). */
/** @param {StateMessage} st @param {Result} r @param {Words} w @param {string | null} [booked] */
export function resultSentence(st, r, w, booked) {
  return youForm(resultSentenceRaw(st, r, w, booked), w.lang);
}

/** @param {StateMessage} st @param {Result} r @param {Words} w @param {string | null} [booked] */
function resultSentenceRaw(st, r, w, booked) {
  const tourneeGame = st.view && st.view.ruleset === "tournee" && r.game_name ? tourneeName(r.game_name, w) : null;
  const t = w.t;
  const who = seatName(st, /** @type {Seat} */ (r.declarer), w);
  const o = r.outcome;
  if (!o || !r.contract) return r.explanation;
  const s = t("scoreEntry", { s: booked || (o.score > 0 ? "+" + o.score : String(o.score)) });
  // a Tournee game by its own name ("Tournee Hearts", "Grand Tournee"), in the reader's language
  const contract = tourneeGame || contractWords(r.contract, w);
  const extra = r.kind === "conceded" || r.kind === "claimed" ? t("conceded") : r.kind === "resigned" ? t("resigned") : "";
  if (r.contract.game === "null") return t(o.won ? "why_null_won" : "why_null_lost", { who, contract, v: o.game_value, s }) + extra;
  const mat = t(o.matadors_with ? "matadorsWith" : "matadorsWithout", { n: o.matadors });
  const flags = [o.schneider ? t("schneider") : "", o.schwarz ? t("schwarz") : ""].filter(Boolean).join(", ");
  const more = flags ? ", " + flags : "";
  if (o.overbid) return t("why_overbid", { who, contract, mat, v: o.game_value, b: o.bid, s }) + extra;
  if (o.won) return t("why_won", { who, contract, mat, pts: o.declarer_points, extra: more, v: o.game_value }) + extra;
  if (/** @type {number} */ (o.declarer_points) >= 61) {
    const what = r.contract.schwarz ? t("schwarz") : t("schneider");
    return t("why_lost_announce", { who, contract, mat, what, s }) + extra;
  }
  return t("why_lost", { who, contract, mat, pts: o.declarer_points, extra: more, s }) + extra;
}

/** The name the lobby and the title bar show: the server names a table without one "Table " and its id's first
 * four letters, in English: said in the reader's language. */
/** @param {{id: string, name: string}} table @param {Words} w */
export function tableName(table, w) {
  return table.name === "Table " + table.id.slice(0, 4) ? w.t("tableDefaultName", { id: table.id.slice(0, 4) }) : table.name;
}

/** The title bar: the table's name and the deal's number. */
/** @param {StateMessage} st @param {Words} w */
export function titleText(st, w) {
  return tableName(st.table, w) + (st.table.deal_no ? " · " + w.t("dealNo", { n: st.table.deal_no }) : "");
}

/** The sheet's row of the finished deal shown (the row of its game number), or null before the sheet has it (a
 * redealt deal writes none). */
/** @param {StateMessage} st @param {Sheet | null} sheet @returns {SheetRow | null} */
export function sheetRowOf(st, sheet) {
  if (!sheet || !st.table.game_no || !st.view || st.view.phase !== "finished") return null;
  const rows = sheet.rows.filter((r) => r.deal_no === st.table.game_no);
  return rows.length ? rows[rows.length - 1] : null;
}

/** What the sheet books for a game seat of the finished deal against what the game itself scored (`score`), and
 * why they differ: "27 × 2 (Bock) = 54". Null when the sheet books the score as it is (or has no row yet). */
/** @param {StateMessage} st @param {Sheet | null} sheet @param {Seat} seat @param {number} score @param {Words} w */
export function bookedText(st, sheet, seat, score, w) {
  const row = sheetRowOf(st, sheet);
  if (!row) return null;
  const booked = row.scores[seatPos(st, seat)];
  if (booked === undefined || booked === score) return null;
  const round = st.table.round;
  const why = row.bock ? w.t(round === "pirate_bock" ? "bookedWhyPirateBock" : "bookedWhyBock")
    : row.events.length ? w.t("bookedWhyTrigger") : w.t("bookedWhyTable");
  /** @param {number} x */
  const signed = (x) => (x > 0 ? "+" : "") + x;
  if (score !== 0 && booked % score === 0) {
    return w.t("bookedTimes", { base: signed(score), m: booked / score, why, s: signed(booked) });
  }
  return w.t("bookedOther", { base: signed(score), why, s: signed(booked) });
}

/** Why the Ramsch ended as it did, in the reader's words, each seat by its player's name: who took the most card
 * points (they lose), who had the fewest (the historical Ramsch: they score), or that nobody loses. Null after a
 * Durchmarsch (the heading says it). */
/** @param {StateMessage} st @param {import("./protocol").RamschOutcome} R @param {Words} w */
export function ramschWhy(st, R, w) {
  if (R.durchmarsch !== null && R.durchmarsch !== undefined) return null;
  const names = R.losers.map((s) => seatName(st, s, w)).join(", ");
  if (!R.losers.length) return w.t("ramschNobody");
  const pts = R.card_points[R.losers[0]];
  if (R.losers.some((s) => R.scores[s] > 0)) return youForm(w.t("ramschWhyFewest", { who: names, n: pts }), w.lang);
  return youForm(w.t(R.losers.length > 1 ? "ramschWhyMostTied" : "ramschWhyMost", { who: names, n: pts }), w.lang);
}

/** The people the table waits for before the next deal: every person not yet ready, the reader left out. */
/** @param {StateMessage} st @param {Words} w */
export function notReady(st, w) {
  return st.table.seats.filter((s) => s.kind === "human" && s.position !== st.you.position
    && !st.table.ready.includes(s.position)).map((s) => playerName(st, s.position, w));
}
