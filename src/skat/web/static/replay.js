// The replay of a finished deal (/replay/{table}/{deal}, docs/history.md): every step from the deal to the result
// (GET /api/replays/{table}/{deal}), all hands face up round the felt, the trick in the middle, the step list of the
// auction and the tricks, First / Back / Forward / Last with the keys and a slider, the double-dummy analysis of the
// card played at a step (GET .../analysis, once), the ISS record and a link to share. What is shown of a step is
// replay-view.js's; this module draws it.

import { cardEl, cardLabel, DECK, rankIndex, setDeck, suitColour, suitSvg } from "./cards.js";
import { $, h } from "./dom.js";
import { fill, LANG, setLang } from "./lang.js";
import * as RV from "./replay-view.js";
import { splitPlaceholders } from "./text.js";
import { tableName } from "./view.js";
import { contractWords } from "./words.js";

/** @typedef {import("./protocol").ReplayAnswer} ReplayAnswer */
/** @typedef {import("./protocol").Analysis} Analysis */
/** @typedef {import("./protocol").Card} Card */
/** @typedef {import("./protocol").Seat} Seat */
/** @typedef {import("./dom.js").Child} Child */
/** @typedef {import("./text.js").Params} Params */

/** A text of the replay's section in the page's language. */
/** @param {string} key @param {Params} [params] */
const R = (key, params) => fill("replay", key, params);
/** A text of the table's section (the Skat words the table page says too). */
/** @param {string} key @param {Params} [params] */
const t = (key, params) => fill("table", key, params);

/** The page's words for replay-view.js. */
/** @type {RV.ReplayWords} */
const W = {
  t, r: R,
  card: (key, params) => fill("cards", key, params),
  get lang() { return LANG; },
  get deck() { return DECK; },
};

const [, , tableId = "", dealText = ""] = location.pathname.split("/").map((p) => decodeURIComponent(p));
const dealNo = Number(dealText);

/** The analysis asked for: loading, its answer, or why there is none (`retry`: seconds the server asked to wait). */
/** @typedef {{loading: boolean, data: Analysis | null, error: string | null, retry: number | null}} AnalysisAsk */

/** The page's state: the replay, the step shown, the analysis. */
const P = {
  /** @type {ReplayAnswer | null} */ answer: null,
  index: 0,
  /** @type {AnalysisAsk | null} */ analysis: null,
  /** @type {string[]} */ names: [],
  /** @type {string[]} */ short: [],
};

// for the browser tests and a curious reader's console
Object.assign(window, { replayState: () => ({ index: P.index, steps: P.answer ? P.answer.steps.length : 0, analysis: P.analysis }) });

// ------------------------------------------------------------------ texts of the page
function applyStaticTexts() {
  document.documentElement.lang = LANG;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = R(el.getAttribute("data-i18n") || ""); });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => { el.setAttribute("aria-label", R(el.getAttribute("data-i18n-label") || "")); });
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.getAttribute("data-t") || ""); });
  document.querySelectorAll("[data-t-label]").forEach((el) => { el.setAttribute("aria-label", t(el.getAttribute("data-t-label") || "")); });
}

// ------------------------------------------------------------------ cards
/** A card as a small chip in the text (rank and suit sign in the page's deck), named for assistive technology. */
/** @param {Card} name */
function chip(name) {
  const el = h("span", { cls: "cardchip", role: "img", "aria-label": cardLabel(name), title: cardLabel(name), "data-card": name });
  el.style.color = suitColour(name);
  const inner = h("span", { "aria-hidden": "true" });
  inner.innerHTML = `<b>${rankIndex(name)}</b>${suitSvg(name[0], "pip")}`;
  el.append(inner);
  return el;
}

/** @param {Card[]} cards */
function chips(cards) { return h("span", { cls: "chips" }, cards.map(chip)); }

/** A text with {card} and {cards} placeholders filled with chips. */
/** @param {string} text @param {Card[]} cards @returns {Child[]} */
function withCards(text, cards) {
  return splitPlaceholders(text, { card: cards.length ? chip(cards[0]) : "", cards: chips(cards) });
}

// ------------------------------------------------------------------ loading
async function load() {
  let res;
  try {
    res = await fetch(`/api/replays/${encodeURIComponent(tableId)}/${encodeURIComponent(dealText)}`);
  } catch (e) {
    return showMessage("loadFailedTitle", R("loadFailed", { msg: String(e) }));
  }
  const body = await res.json().catch(() => ({}));
  if (res.status === 403) return showMessage("notYoursTitle", R("notYours"));
  if (res.status === 404 || (res.status === 422 && !Number.isInteger(dealNo))) return showMessage("noDealTitle", R("noDeal", { n: dealText }));
  if (!res.ok) return showMessage("loadFailedTitle", R("loadFailed", { msg: body.message || res.statusText || res.status }));
  P.answer = /** @type {ReplayAnswer} */ (body);
  const fromHash = Number(location.hash.slice(1));
  P.index = Number.isInteger(fromHash) && fromHash > 0 ? Math.min(fromHash, P.answer.steps.length - 1) : 0;
  $("#r-loading").classList.add("hidden");
  for (const id of ["#r-head", "#r-felt", "#r-side"]) $(id).classList.remove("hidden");
  const slider = /** @type {HTMLInputElement} */ ($("#r-slider"));
  slider.max = String(P.answer.steps.length - 1);
  renderAll();
}

/** A page that has no replay to show: why, in the page's language. */
/** @param {string} titleKey @param {string} text */
function showMessage(titleKey, text) {
  $("#r-loading").classList.add("hidden");
  $("#r-message").dataset.kind = titleKey;
  $("#r-message-title").textContent = R(titleKey);
  $("#r-message-text").textContent = text;
  $("#r-message").classList.remove("hidden");
}

// ------------------------------------------------------------------ drawing
function renderAll() {
  const a = P.answer;
  if (!a) return;
  P.names = RV.seatNames(a, W);
  P.short = RV.shortNames(a, W);
  renderHead(a);
  renderList(a);
  render();
}

/** @param {ReplayAnswer} a */
function renderHead(a) {
  const name = tableName({ id: a.table_id, name: a.table_name }, W) + " · " + t("dealNo", { n: a.deal_no });
  $("#r-name").textContent = name;
  document.title = name + " · " + R("pageTitle");
  $("#r-contract").textContent = RV.contractLine(a, W, P.names) || "";
  const res = RV.resultText(a, W);
  const sentence = $("#r-result-sentence");  // the sentence names the winner or loser; a Ramsch's heading says who lost
  const said = res.sentence && res.won !== null ? res.sentence : [res.title, res.sentence].filter(Boolean).join(" — ");
  sentence.textContent = said === $("#r-contract").textContent ? "" : said;  // a deal passed in: said once
  sentence.className = res.won === null ? "" : res.won ? "won" : "lost";
  $("#r-score").textContent = res.score;
  const iss = /** @type {HTMLAnchorElement} */ ($("#r-iss"));
  iss.href = `/api/replays/${encodeURIComponent(a.table_id)}/${a.deal_no}.iss`;
  iss.classList.toggle("hidden", !a.iss);
}

/** The step list: the auction's steps in lines, the tricks with a button for each card. */
/** @param {ReplayAnswer} a */
function renderList(a) {
  const items = RV.listEntries(a.steps).map((entry) => {
    if (entry.kind === "step") {
      const step = a.steps[entry.index];
      return h("li", { cls: "r-line" }, stepButton(entry.index, withCards(RV.stepText(a, entry.index, W, P.names), RV.stepCards(step))));
    }
    // the trick's number: said in full to assistive technology, a number on the screen (the cards need the room)
    return h("li", { cls: "r-trick" }, h("span", { cls: "r-trick-no" }, h("span", { cls: "visually-hidden" }, R("trickN", { n: entry.trick })),
      h("span", { "aria-hidden": "true" }, entry.trick)),
      entry.steps.map((i) => {
        const step = a.steps[i];
        const seat = /** @type {Seat} */ (step.seat);
        const button = stepButton(i, [h("span", { cls: "r-card-who" }, P.short[seat]), chip(/** @type {Card} */ (step.action))],
          R("cardOf", { who: P.names[seat], card: cardLabel(/** @type {Card} */ (step.action)) }));
        if (RV.trickWinner(a.steps, entry) === seat) button.classList.add("r-won");  // who took the trick: in bold
        return button;
      }));
  });
  $("#r-list").replaceChildren(...items);
}

/** @param {number} index @param {Child[]} content @param {string} [title] */
function stepButton(index, content, title) {
  return h("button", { cls: "r-step", "data-step": index, title: title || null, onclick: () => go(index) }, ...content);
}

function render() {
  const a = P.answer;
  if (!a) return;
  const i = P.index, n = a.steps.length - 1;
  const step = a.steps[i];
  const places = RV.places(a);
  for (const place of /** @type {RV.Place[]} */ (["left", "right", "bottom"])) renderSeat(a, place, places[place]);
  renderMiddle(a, places);
  /** @type {HTMLButtonElement} */ ($("#r-first")).disabled = i === 0;
  /** @type {HTMLButtonElement} */ ($("#r-back")).disabled = i === 0;
  /** @type {HTMLButtonElement} */ ($("#r-forward")).disabled = i === n;
  /** @type {HTMLButtonElement} */ ($("#r-last")).disabled = i === n;
  const slider = /** @type {HTMLInputElement} */ ($("#r-slider"));
  slider.value = String(i);
  slider.setAttribute("aria-valuetext", R("stepOf", { i, n }));
  $("#r-counter").textContent = `${i} / ${n}`;
  $("#r-now").replaceChildren(h("span", {}, ...withCards(RV.stepText(a, i, W, P.names), RV.stepCards(step))));
  document.querySelectorAll("#r-list .r-step").forEach((b) => {
    const on = Number(b.getAttribute("data-step")) === i;
    b.classList.toggle("current", on);
    if (on) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
  });
  renderAnalysis(a);
  const current = document.querySelector("#r-list .r-step.current");
  const list = $("#r-steps");
  if (current instanceof HTMLElement && list.scrollHeight > list.clientHeight + 1) {  // keep the step in the list's view
    const box = list.getBoundingClientRect(), at = current.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) list.scrollTop += at.top - box.top - box.height / 3;
  }
}

/** One seat round the felt: name, role, tricks and card points, its hand face up (the skat's cards marked while the
 * declarer holds them), what it said last in the auction, the skat it put away. */
/** @param {ReplayAnswer} a @param {RV.Place} place @param {Seat} seat */
function renderSeat(a, place, seat) {
  const i = P.index, step = a.steps[i];
  const box = $("#r-" + place);
  const decl = step.declarer === seat;
  box.className = "r-seat" + (decl ? " decl" : "") + (step.to_move === seat && step.phase !== "finished" ? " to-move" : "");
  box.dataset.seat = String(seat);
  const said = RV.lastWord(a.steps, i, seat, W);
  const you = RV.yourSeat(a) === seat;
  const playing = step.phase === "play" || (step.phase === "finished" && !!a.result && a.result.kind !== "passed_in");
  const skatPts = RV.skatPointsOf(a, i, seat);
  const stats = playing ? h("span", { cls: "r-stats small" }, t("tricks", { n: step.tricks[seat] }), " · ",
    R("cardPoints", { n: step.points[seat] }), skatPts ? " " + R("plusSkat", { n: skatPts }) : "") : "";
  const head = h("div", { cls: "r-who" },
    h("strong", { cls: "r-name" }, P.names[seat]),
    you ? h("span", { cls: "r-you" }, R("youTag")) : "",
    h("span", { cls: "r-role" }, RV.roleText(seat, W)),
    decl ? h("span", { cls: "r-badge" }, t("declarer")) : "",
    decl && step.kontra ? h("span", { cls: "r-badge kontra" }, RV.kontraWords(step.kontra, W)) : "",
    said ? h("span", { cls: "r-said" }, said) : "", stats);
  const skat = RV.pickedUp(a, i);
  const hand = RV.sortHand(step.hands[seat], RV.sortGame(a, i));
  const cards = h("div", { cls: "r-hand", role: "group", "aria-label": t("handOf", { who: P.names[seat] }) },
    hand.map((c) => cardEl(c, { cls: "small" + (skat.includes(c) ? " from-skat" : "") })));
  cards.style.setProperty("--n", String(Math.max(hand.length, 1)));
  const away = decl ? RV.putAway(a, i) : [];
  const extra = away.length && step.phase !== "declare" ? h("div", { cls: "r-away small" }, t("putAway") + ": ", chips(away)) : "";
  box.replaceChildren(head, hand.length ? cards : h("div", { cls: "r-hand empty" }), extra);
}

/** The middle of the felt: the trick (by where its players sit), or what the deal is at: the skat in the auction,
 * the skat picked up or put away, the game announced, the result. */
/** @param {ReplayAnswer} a @param {Record<RV.Place, Seat>} places */
function renderMiddle(a, places) {
  const i = P.index, step = a.steps[i];
  const mid = RV.middleOf(step);
  const name = (/** @type {Seat | null} */ s) => s === null ? "" : P.names[s];
  /** @type {Child[]} */
  const parts = [];
  if (mid.cards.length) {
    const placeOf = (/** @type {Seat} */ s) => s === places.bottom ? "bottom" : s === places.left ? "left" : "right";
    const trick = h("div", { cls: "r-trick-cards" + (mid.winner !== null ? " taken" : "") },
      mid.cards.map(([s, c], k) => {
        const el = cardEl(c, { cls: "at-" + placeOf(s) + (k === mid.cards.length - 1 && RV.isCard(step.action) ? " just" : "") + (mid.winner === s ? " winner" : "") });
        return el;
      }));
    parts.push(trick);
    parts.push(h("p", { cls: "r-caption" }, mid.winner !== null ? t("trickWonBy", { who: name(mid.winner) })
      : step.to_move !== null ? t("turnOf", { who: name(step.to_move) }) : ""));
  } else if (step.phase === "bidding") {
    parts.push(h("p", { cls: "r-caption" }, i === 0 ? R("dealtBy", { who: dealerName(a) }) : step.to_move !== null ? t("waitBid", { who: name(step.to_move) }) : ""));
  } else if (step.phase === "grand_hand") {
    parts.push(h("p", { cls: "r-caption" }, step.to_move !== null ? t("grandHandWait", { who: name(step.to_move) }) : ""));
  } else if (step.phase === "skat") {
    parts.push(h("p", { cls: "r-caption" }, t("auctionWon", { who: name(step.declarer), v: step.bid })));
  } else if (step.phase === "discard") {
    parts.push(h("p", { cls: "r-caption" }, R("skatInHand", { who: name(step.declarer) })));
  } else if (step.phase === "declare") {
    parts.push(h("p", { cls: "r-caption" }, t("declaring", { who: name(step.declarer) })));
  } else if (step.phase === "play" && step.declarer !== null && step.contract) {
    parts.push(h("p", { cls: "r-caption" }, RV.contractLine(a, W, P.names) || "", h("br"), step.to_move !== null ? t("turnOf", { who: name(step.to_move) }) : ""));
  } else if (step.phase === "play") {
    parts.push(h("p", { cls: "r-caption" }, t("ramschPlay"), h("br"), step.to_move !== null ? t("turnOf", { who: name(step.to_move) }) : ""));
  }
  const skat = RV.skatOnTable(a, i);
  const away = step.phase === "declare" ? RV.putAway(a, i) : [];
  if (skat.length || away.length) {
    parts.push(h("div", { cls: "r-skat" }, h("span", { cls: "small" }, t(away.length ? "putAway" : "skatWas")),
      h("div", { cls: "r-skat-cards" }, (away.length ? away : skat).map((c) => cardEl(c, { cls: "small" })))));
  }
  if (step.phase === "finished") {
    const res = RV.resultText(a, W);
    parts.push(h("div", { cls: "r-final" }, h("strong", { cls: res.won === null ? "" : res.won ? "won" : "lost" }, res.title),
      res.score ? h("span", {}, res.score) : ""));
  }
  const last = RV.lastTrickOf(step);
  const lastBox = last ? h("div", { cls: "r-last-trick small" }, h("span", {}, t("lastTrick") + ": "),
    chips(last.cards), h("span", {}, " → " + name(last.winner))) : "";
  $("#r-middle").replaceChildren(h("div", { cls: "r-mid-main" }, ...parts), lastBox);
}

/** @param {ReplayAnswer} a */
function dealerName(a) {
  const table = /** @type {{dealer?: number, positions?: number[], players?: string[]}} */ (a.record.table || {});
  const seat = (table.positions || []).indexOf(table.dealer ?? -1);
  return seat >= 0 ? P.names[seat] : t("dealer");
}

// ------------------------------------------------------------------ analysis
/** The analysis of the card played at the step shown: how it was judged, and the value of every card that could
 * have been played; the button that asks for it (once: the answer serves every card). */
/** @param {ReplayAnswer} a */
function renderAnalysis(a) {
  const box = $("#r-ana");
  const button = /** @type {HTMLButtonElement} */ ($("#r-analyse"));
  const section = $("#r-analysis");
  // a Ramsch and a deal passed in have no contract: nothing to analyse (docs/analysis.md)
  const contract = !!(a.result && /** @type {{contract?: unknown}} */ (a.result).contract);
  section.classList.toggle("hidden", !a.analysable || !contract || !a.steps.some((s) => RV.isCard(s.action)));
  const isCardStep = RV.cardNumber(a.steps, P.index) !== null;
  const A = P.analysis;
  button.classList.toggle("hidden", !!(A && (A.data || A.loading)));
  button.disabled = !isCardStep;
  button.textContent = A && (A.error || A.retry) ? R("tryAgain") : R("analyse");
  if (!A) {
    box.replaceChildren(isCardStep ? "" : h("p", { cls: "muted small" }, R("anaPickCard")));
    return;
  }
  if (A.loading) {
    box.replaceChildren(h("p", { cls: "ana-wait", role: "status" }, h("span", { cls: "thinking" }, t("analysing")), " ",
      h("span", { cls: "muted small" }, t("analysingWhat"))));
    return;
  }
  if (A.retry !== null) { box.replaceChildren(h("p", { cls: "ana-error" }, R("busy", { s: A.retry }))); return; }
  if (A.error !== null || !A.data) { box.replaceChildren(h("p", { cls: "ana-error" }, t("analysisFailed", { msg: A.error || "" }))); return; }
  const data = A.data;
  if (data.skipped) {
    const key = data.actual.ended_by === "ramsch" ? "anaSkipRamsch" : data.actual.ended_by === "passed_in" ? "anaSkipPassedIn" : "";
    box.replaceChildren(h("p", {}, key ? t(key) : data.skipped));
    return;
  }
  const goal = h("p", { cls: "muted small" }, t("anaContract", { who: P.names[/** @type {Seat} */ (data.declarer)] || "",
    contract: contractName(a), b: data.bid, goal: RV.goalText(data, W) }));
  const v = RV.cardVerdict(data, a.steps, P.index);
  if (!v) {
    box.replaceChildren(h("p", {}, R("anaPickCard")), h("p", {}, t("anaStart") + ": ",
      h("b", {}, RV.valueText({ points: data.start.declarer_points, wins: data.start.declarer_wins }, W))), goal);
    return;
  }
  const row = v.row;
  const who = P.names[row.seat];
  const isNull = /^null/.test(data.contract || "");
  const verdictText = v.verdict === "only" ? R("anaOnly") : v.verdict === "unsolved" ? t("anaNotSolved")
    : v.verdict === "best" ? R(isNull ? "anaBestNull" : "anaBest")
    : v.verdict === "turn" ? R(row.role === "declarer" ? "anaTurnDeclarer" : "anaTurnDefender")
    : isNull || row.cost === null ? R("anaWorse") : R("anaCost", { n: row.cost });
  const parts = [
    h("p", { cls: "r-ana-card" }, ...withCards(R("anaCard", { n: row.number, trick: row.trick, who }), [row.card])),
    h("p", { cls: "r-ana-verdict " + v.verdict }, verdictText),
  ];
  if (v.verdict !== "best" && v.verdict !== "only" && row.best.length) parts.push(h("p", {}, R("anaBestCards") + " ", chips(row.best)));
  if (row.analysed) {
    parts.push(h("p", { cls: "small" }, R("anaBefore") + ": ", h("b", {}, RV.valueText({ points: row.points_before, wins: row.wins_before }, W)),
      h("br"), R("anaAfter") + ": ", h("b", {}, RV.valueText({ points: row.points_after, wins: row.wins_after }, W))));
  }
  if (v.moves.length > 1) {
    parts.push(h("table", { cls: "list small r-moves" },
      h("caption", {}, R("anaMoves", { who })),
      h("tr", {}, h("th", { scope: "col" }, t("cardCol")), h("th", { scope: "col" }, R("anaValueCol")), h("th", { scope: "col" }, R("anaMarkCol"))),
      v.moves.map((m) => h("tr", { cls: (m.played ? "played" : "") + (m.best ? " best" : "") },
        h("td", {}, chip(m.card)),
        h("td", { cls: "v " + (m.value.wins === null ? "unknown" : m.value.wins ? "won" : "lost") }, RV.valueText(m.value, W)),
        h("td", {}, [m.best ? R("markBest") : "", m.played ? R("markPlayed") : ""].filter(Boolean).join(" · "))))));
  }
  parts.push(goal);
  box.replaceChildren(...parts);
}

/** The deal's contract in words ("Spades Hand"). */
/** @param {ReplayAnswer} a */
function contractName(a) {
  const r = /** @type {import("./protocol").Result | null} */ (a.result);
  return r && r.contract ? contractWords(r.contract, W) : "";
}

async function analyse() {
  const a = P.answer;
  if (!a || (P.analysis && (P.analysis.loading || P.analysis.data))) return;
  /** @type {AnalysisAsk} */
  const ask = { loading: true, data: null, error: null, retry: null };
  P.analysis = ask;
  render();
  try {
    const res = await fetch(`/api/replays/${encodeURIComponent(a.table_id)}/${a.deal_no}/analysis`);
    const body = await res.json().catch(() => ({}));
    if (res.status === 503 || res.status === 429) ask.retry = Number(res.headers.get("Retry-After")) || 5;
    else if (!res.ok) ask.error = body.message || res.statusText || String(res.status);
    else ask.data = /** @type {Analysis} */ (body);
  } catch (e) {
    ask.error = String(e);
  }
  ask.loading = false;
  if (P.analysis === ask) render();
}

// ------------------------------------------------------------------ moving
/** @param {number} index */
function go(index) {
  const a = P.answer;
  if (!a) return;
  const next = Math.max(0, Math.min(a.steps.length - 1, index));
  if (next === P.index) return;
  P.index = next;
  history.replaceState(null, "", next ? "#" + next : location.pathname);
  render();
}

$("#r-first").addEventListener("click", () => go(0));
$("#r-back").addEventListener("click", () => go(P.index - 1));
$("#r-forward").addEventListener("click", () => go(P.index + 1));
$("#r-last").addEventListener("click", () => go(Infinity));
$("#r-slider").addEventListener("input", () => go(Number(/** @type {HTMLInputElement} */ ($("#r-slider")).value)));
$("#r-analyse").addEventListener("click", () => { void analyse(); });
window.addEventListener("hashchange", () => go(Number(location.hash.slice(1)) || 0));
document.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (ev.target instanceof Element && ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
  const to = { ArrowLeft: P.index - 1, ArrowRight: P.index + 1, Home: 0, End: Infinity }[ev.key];
  if (to === undefined || !P.answer) return;
  ev.preventDefault();
  go(to);
});

// ------------------------------------------------------------------ sharing
$("#r-copy").addEventListener("click", async () => {
  const url = location.href;
  const input = /** @type {HTMLInputElement} */ ($("#r-url"));
  input.value = url;
  try {
    await navigator.clipboard.writeText(url);
    $("#r-copied").textContent = R("copied");
  } catch {
    input.classList.remove("hidden");  // no clipboard (a page not served over https, a refusal): copy it by hand
    input.focus();
    input.select();
    $("#r-copied").textContent = R("copyByHand");
  }
});

// ------------------------------------------------------------------ settings
const selLang = /** @type {HTMLSelectElement} */ ($("#r-lang"));
const selDeck = /** @type {HTMLSelectElement} */ ($("#r-deck"));
selLang.value = LANG;
selDeck.value = DECK;
selLang.addEventListener("change", () => {
  setLang(selLang.value);
  applyStaticTexts();
  if (P.answer) renderAll(); else if (!$("#r-message").classList.contains("hidden")) void load();
});
selDeck.addEventListener("change", () => { setDeck(selDeck.value); renderAll(); });
applyStaticTexts();
void load();
