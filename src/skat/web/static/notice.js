// Noticing your turn at the table (issue 30, point 5): an optional sound for a card played and for your turn;
// while the tab is hidden the title says it is your turn and, if the player allowed it, a system notification
// does too. The player's choices are kept in localStorage ("skat.notice"). The sounds are made by Web Audio (two
// short tones): no sound files. The decisions are pure functions (turnEvents, noticeTitle), unit-tested.

/** @typedef {{sound: boolean, notify: boolean}} NoticeSettings */
/** @typedef {{seq: number, deal_no: number, phase: string | null, myTurn: boolean, cards: number}} TurnPoint */

const SAVED = "skat.notice";
/** The title's mark while it is your turn in a hidden tab. */
export const TURN_MARK = "● ";

/** The player's choices (both off until chosen). */
/** @returns {NoticeSettings} */
export function loadSettings() {
  try {
    const raw = JSON.parse(localStorage.getItem(SAVED) || "{}");
    return { sound: raw.sound === true, notify: raw.notify === true };
  } catch { return { sound: false, notify: false }; }
}

/** @param {NoticeSettings} settings */
export function saveSettings(settings) {
  localStorage.setItem(SAVED, JSON.stringify(settings));
}

/** What a state says for noticing: the deal, the phase, whether it is this seat's turn, the cards on the table
 * (the trick's and the taken tricks'). */
/** @param {{seq: number, table: {deal_no: number}, you: {seat: number | null}, view: null | {phase: string, to_move: number | null, legal_actions: string[], trick: unknown[], tricks: unknown[]}}} st
 * @returns {TurnPoint} */
export function turnPoint(st) {
  const v = st.view;
  if (!v) return { seq: st.seq, deal_no: st.table.deal_no, phase: null, myTurn: false, cards: 0 };
  return {
    seq: st.seq, deal_no: st.table.deal_no, phase: v.phase,
    myTurn: st.you.seat !== null && v.to_move === st.you.seat && v.legal_actions.length > 0,
    cards: v.trick.length + 3 * v.tricks.length,
  };
}

/** What happened between two states: cards played in the card play (a number), and whether this seat's turn
 * began (the first state of a deal where it is the seat's turn, or the first after another player's). */
/** @param {TurnPoint | null} before @param {TurnPoint} now @returns {{played: number, turn: boolean}} */
export function turnEvents(before, now) {
  const same = before !== null && before.deal_no === now.deal_no;
  const played = same && now.phase === "play" ? Math.max(0, now.cards - before.cards) : 0;
  // a turn begins when it was not this seat's turn before (the declarer's skat, discard and declaration in a row
  // are one turn: no second sound, no second notification)
  return { played, turn: now.myTurn && !(same && before.myTurn) };
}

/** The page's title: marked while it is your turn and the tab is hidden. */
/** @param {string} base @param {string} yourTurn @param {boolean} mark */
export function noticeTitle(base, yourTurn, mark) {
  return mark ? `${TURN_MARK}${yourTurn} · ${base}` : base;
}

/** The sounds, made when first needed (a browser lets a page play sound after the player's first gesture). */
export class Sounds {
  constructor() {
    /** @type {AudioContext | null} */
    this.context = null;
  }

  /** @param {number} frequency @param {number} seconds @param {number} [delay] */
  tone(frequency, seconds, delay = 0) {
    try {
      if (!this.context) this.context = new AudioContext();
      const ctx = this.context;
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      const start = ctx.currentTime + delay;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.15, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + seconds + 0.02);
    } catch (e) { console.debug("no sound", e); }
  }

  /** A short click: a card was played. */
  card() { this.tone(520, 0.06); }

  /** Two rising tones: your turn. */
  turn() { this.tone(660, 0.12); this.tone(880, 0.16, 0.13); }
}
