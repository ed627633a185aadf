// Learn Skat (/learn): guided deals with chosen cards. The server replays the lesson after the learner's actions
// (POST /api/learn/{lesson}, skat.lessons) and says every step's rule as {key, params} items; this page says them in
// its language (the catalogs' "learn" section), draws the cards, and keeps the learner's actions (localStorage), so a
// reload goes on where the learner was.

import { cardBack, cardEl, cardLabel } from "./cards.js";
import { $, h } from "./dom.js";
import { fill, LANG, setLang } from "./lang.js";

/** @typedef {import("./protocol").Card} Card */
/** @typedef {import("./protocol").Explanation} Explanation */
/** @typedef {import("./protocol").LessonAnswer} LessonAnswer */
/** @typedef {import("./protocol").SkatView} LessonView */

/** A text of the learn section in the page's language. */
/** @param {string} key @param {import("./text.js").Params} [params] */
const L = (key, params) => fill("learn", key, params);

const NAMES = ["Anna", "Bernd"];
const SAVED = "skat.learn";

/** @type {{lesson: string, actions: string[]}} */
let progress = readProgress();
/** @type {LessonAnswer | null} */
let current = null;
/** @type {Card[]} */
let chosen = [];
let showing = false;

/** @returns {{lesson: string, actions: string[]}} */
function readProgress() {
  try {
    const saved = JSON.parse(localStorage.getItem(SAVED) || "null");
    if (saved && typeof saved.lesson === "string" && Array.isArray(saved.actions)) return saved;
  } catch { /* a broken note: start the first lesson */ }
  return { lesson: "first-game", actions: [] };
}

function saveProgress() {
  localStorage.setItem(SAVED, JSON.stringify(progress));
}

/** The name of a seat: "You" for the learner, else Anna and Bernd in seat order. */
/** @param {number} seat */
function seatName(seat) {
  if (!current || seat === current.seat) return L("you");
  const others = [0, 1, 2].filter((s) => s !== current?.seat);
  return NAMES[others.indexOf(seat)];
}

/** An action token in words: "Yes (hold)", "Bid 20", "Play clubs", a card's name. */
/** @param {string} token */
function actionWords(token) {
  if (token === "hold" || token === "pass" || token === "pickup") return L(token);
  if (/^\d+$/.test(token)) return L("bid", { v: token });
  if (token.startsWith("discard ")) return L("discardThese", { cards: cardList(token.split(" ").slice(1)) });
  if (token.startsWith("declare ")) {
    const [, game, ...extra] = token.split(" ");
    return L("declare", { game: gameWord(game) + extra.map((w) => " " + L("extra_" + w)).join("") });
  }
  return cardLabel(/** @type {Card} */ (token));
}

/** @param {unknown} game */
function gameWord(game) { return L("game_" + String(game)); }
/** @param {unknown} cards */
function cardList(cards) { return (Array.isArray(cards) ? cards : []).map((c) => cardLabel(c)).join(", "); }

/** One explanation in the page's language: the params made words (seats, cards, suits, games, lists), a
 * learner's own form of the text where the catalog has one (…You), and booleans chosen into the key. */
/** @param {Explanation} item @returns {string} */
function say(item) {
  const p = item.params;
  /** @type {import("./text.js").Params} */
  const words = {};
  let key = item.key;
  for (const [name, value] of Object.entries(p)) {
    if (name === "who") words.who = seatName(Number(value));
    else if (name === "card" || name === "led") words[name] = cardLabel(/** @type {Card} */ (value));
    else if (name === "cards" || name === "missing") words[name] = cardList(value);
    else if (name === "suit") words.suit = L("suit_" + String(value));
    else if (name === "game") words.game = gameWord(value);
    else if (name === "why") words.why = L(String(value));
    else if (name === "levels" && Array.isArray(value)) words.levels = value.map((x) => say(x)).join(" + ");
    else if (name === "games" && Array.isArray(value)) words.games = value.map((g) => gameLine(g, Number(p.bid))).join("; ");
    else if (typeof value === "boolean") key += (name === "won" ? (value ? "Won" : "Lost") : name === "trump"
      ? (value ? "Trump" : "Discard") : name === "matWith" ? (value ? "With" : "Without") : name === "hand" && value ? "Hand" : "");
    else if (value !== null && value !== undefined) words[name] = /** @type {string | number} */ (value);
  }
  if ("mat" in p) words.n = Number(p.mat);
  if ("who" in p && current && Number(p.who) === current.seat && L(key + "You") !== key + "You") key += "You";
  return L(key, words);
}

/** A game's worth as a line: "clubs with 2: 3 × 12 = 36", marked where it is less than the bid (and what it is
 * worth with Schneider, where that reaches the bid). */
/** @param {any} g @param {number} bid */
function gameLine(g, bid) {
  const line = L("gameLine", { game: gameWord(g.game), mat: L(g.matWith ? "matWith" : "matWithout", { n: g.mat }),
    levels: g.levels, base: g.base, v: g.v });
  if (g.enough) return line;
  return line + " " + (g.schneider >= bid ? L("notEnoughSchneider", { s: g.schneider }) : L("notEnough"));
}

async function load() {
  const answer = await fetch(`/api/learn/${encodeURIComponent(progress.lesson)}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ actions: progress.actions }),
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    if (progress.actions.length) {  // the last action was refused: take it back and say why
      progress.actions.pop();
      saveProgress();
      await load();
      $("#l-note").textContent = String(body.message || L("failed"));
      return;
    }
    progress = { lesson: "first-game", actions: [] };
    saveProgress();
    if (body.error === "no_lesson") await load();
    return;
  }
  current = /** @type {LessonAnswer} */ (body);
  chosen = [];
  showing = false;
  render();
}

/** @param {string} token */
function act(token) {
  progress.actions.push(token);
  saveProgress();
  $("#l-note").textContent = "";
  void load();
}

/** @param {string} lesson */
function start(lesson) {
  progress = { lesson, actions: [] };
  saveProgress();
  $("#l-note").textContent = "";
  void load();
}

function render() {
  if (!current) return;
  const c = current;
  const v = c.view;
  $("#l-list").replaceChildren(...c.lessons.map((id) => h("li", {}, h("button", {
    cls: id === c.lesson ? "lesson current" : "lesson", "aria-current": id === c.lesson ? "step" : null,
    onclick: () => start(id),
  }, L("lesson_" + id)))));
  $("#l-lesson-name").textContent = L("lesson_" + c.lesson);
  $("#l-topics").textContent = L("topics", { list: c.topics.map((t) => L(t)).join(", ") });
  renderOthers(v);
  renderTrick(v);
  renderHand(v);
  renderEvents(c);
  renderTurn(c);
  const result = $("#l-result");
  result.classList.toggle("hidden", !c.over);
  $("#l-result-steps").replaceChildren(...(c.result || []).map((item) => h("li", {}, say(item))));
  $("#l-next").classList.toggle("hidden", !c.over || c.lessons.indexOf(c.lesson) === c.lessons.length - 1);
  $("#l-show").classList.toggle("hidden", c.over);
  /** @type {HTMLButtonElement} */ ($("#l-undo")).disabled = progress.actions.length === 0;
}

/** @param {LessonView} v */
function renderOthers(v) {
  const others = [0, 1, 2].filter((s) => s !== current?.seat);
  $("#l-others").replaceChildren(...others.map((s) => h("div", { cls: "l-seat" + (v.to_move === s ? " to-move" : "") },
    h("strong", {}, seatName(s)),
    h("span", { cls: "muted small" }, " · " + L("pos" + s) + (v.declarer === s ? " · " + L("declarer") : "")),
    h("div", { cls: "l-backs", role: "img", "aria-label": L("cardsLeft", { n: v.hand_sizes[s] }) },
      ...Array.from({ length: Math.min(v.hand_sizes[s], 10) }, () => cardBack("small"))))));
}

/** The trick on the table, or the last one taken (with who took it). */
/** @param {LessonView} v */
function renderTrick(v) {
  const box = $("#l-trick");
  if (v.trick.length) {
    box.replaceChildren(h("p", { cls: "small muted" }, L("trick")), h("div", { cls: "l-cards" },
      ...v.trick.map(([s, card]) => h("figure", {}, cardEl(card), h("figcaption", {}, seatName(s))))));
  } else if (v.tricks.length) {
    const [leader, cards, winner] = v.tricks[v.tricks.length - 1];
    const said = winner === current?.seat ? L("lastTrickYou") : L("lastTrick", { who: seatName(winner) });
    box.replaceChildren(h("p", { cls: "small muted" }, said), h("div", { cls: "l-cards taken" },
      ...cards.map((card, i) => h("figure", {}, cardEl(card), h("figcaption", {}, seatName((leader + i) % 3))))));
  } else {
    box.replaceChildren(h("p", { cls: "small muted" }, L("pos" + (current ? current.seat : 0) + "You")));
  }
}

/** @param {LessonView} v */
function renderHand(v) {
  const c = /** @type {LessonAnswer} */ (current);
  const mine = v.to_move === c.seat && !c.over;
  const suggested = showing && c.suggestion ? c.suggestion.action : "";
  $("#l-hand").style.setProperty("--rest", String(Math.max(1, v.hand.length - 1)));
  $("#l-hand").replaceChildren(...v.hand.map((card) => {
    const legal = v.phase === "play" && v.legal_actions.includes(card);
    const el = cardEl(card, { button: true, cls: [legal ? "legal" : "", chosen.includes(card) ? "chosen" : "",
      suggested === card || suggested.split(" ").slice(1).includes(card) ? "suggested" : ""].join(" ") });
    el.addEventListener("click", () => clickCard(card));
    if (!mine) /** @type {HTMLButtonElement} */ (el).disabled = true;
    return el;
  }));
}

/** @param {Card} card */
function clickCard(card) {
  const c = current;
  if (!c || c.over) return;
  const v = c.view;
  if (v.phase === "discard") {
    chosen = chosen.includes(card) ? chosen.filter((x) => x !== card) : [...chosen, card].slice(-2);
    render();
    return;
  }
  if (v.phase !== "play") return;
  if (v.legal_actions.includes(card)) act(card);
  else $("#l-note").textContent = (c.illegal && c.illegal[card] ? c.illegal[card] : []).map(say).join(" ");
}

/** The events since the learner's last action (what the others did meanwhile), and the whole deal in the log. */
/** @param {LessonAnswer} c */
function renderEvents(c) {
  let from = 0;
  c.events.forEach((e, i) => { if (e.seat === c.seat) from = i; });
  const recent = c.events.slice(from);
  // a card is named in the line's head; a bid, the skat or a game is said by its explanation
  const card = (/** @type {string} */ token) => /^[CSHD][789TJQKA]$/.test(token);
  $("#l-events").replaceChildren(...recent.map((e) => h("li", { cls: "l-event" },
    card(e.action) || !e.explain.length ? h("strong", {}, seatName(e.seat) + ": " + actionWords(e.action)) : null,
    ...e.explain.map((item) => h("p", {}, say(item))))));
  if (!recent.length) $("#l-events").replaceChildren(h("li", { cls: "muted" }, L("nothingYet")));
  $("#l-log").replaceChildren(...c.events.map((e) => h("li", {}, seatName(e.seat) + ": " + actionWords(e.action))));
}

/** The learner's decision: what it is, its rule, the actions to choose from and (asked) the suggestion. */
/** @param {LessonAnswer} c */
function renderTurn(c) {
  const v = c.view;
  $("#l-turn").classList.toggle("hidden", c.over);
  $("#l-prompt").replaceChildren(...(c.prompt || []).map((item) => h("p", {}, say(item))));
  $("#l-actions").replaceChildren(...actionButtons(v));
  const s = c.suggestion;
  $("#l-suggest").replaceChildren(...(showing && s ? [h("p", { cls: "l-suggestion" },
    h("strong", {}, L("suggestion", { action: actionWords(s.action) })), " ", ...s.why.map(say))] : []));
}

/** @param {LessonView} v @returns {HTMLElement[]} */
function actionButtons(v) {
  if (!current || current.over || v.to_move !== current.seat) return [];
  const legal = v.legal_actions;
  if (v.phase === "bidding") {
    const bids = legal.filter((a) => /^\d+$/.test(a)).slice(0, 1);
    return [...legal.filter((a) => a === "hold"), ...bids, ...legal.filter((a) => a === "pass")]
      .map((a) => h("button", { cls: a === "pass" ? "" : "primary", onclick: () => act(a) }, actionWords(a)));
  }
  if (v.phase === "skat") {
    return [h("button", { cls: "primary", onclick: () => act("pickup") }, actionWords("pickup"))];
  }
  if (v.phase === "discard") {
    const pair = chosen.length === 2 ? legal.find((a) => {
      const cards = a.split(" ").slice(1);
      return a.startsWith("discard ") && chosen.every((x) => cards.includes(x));
    }) : undefined;
    return [h("p", { cls: "small" }, L("chooseTwo", { n: chosen.length })),
      h("button", { cls: "primary", disabled: !pair, onclick: () => pair && act(pair) }, L("putAway"))];
  }
  if (v.phase === "declare") {
    return legal.map((a) => h("button", { cls: "primary", onclick: () => act(a) }, actionWords(a)));
  }
  return [];
}

function applyTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-l]").forEach((el) => { el.textContent = L(el.getAttribute("data-l") || ""); });
  document.querySelectorAll("[data-l-label]").forEach((el) => el.setAttribute("aria-label", L(el.getAttribute("data-l-label") || "")));
  $("#l-panel").setAttribute("aria-label", L("title"));
  document.title = L("pageTitle");
}

const selLang = /** @type {HTMLSelectElement} */ ($("#l-lang"));
selLang.value = LANG;
selLang.addEventListener("change", () => {
  setLang(selLang.value);
  applyTexts();
  render();
});
$("#l-show").addEventListener("click", () => { showing = true; render(); });
$("#l-undo").addEventListener("click", () => {
  progress.actions.pop();
  saveProgress();
  $("#l-note").textContent = "";
  void load();
});
$("#l-again").addEventListener("click", () => start(progress.lesson));
$("#l-next").addEventListener("click", () => {
  if (!current) return;
  start(current.lessons[current.lessons.indexOf(current.lesson) + 1]);
});
applyTexts();
void load();

// for the browser tests and a curious player's console: the lesson as the server answered it, and its words
Object.assign(window, { learnWords: { L, say, actionWords }, learnState: () => current, learnActions: () => progress.actions.length });
