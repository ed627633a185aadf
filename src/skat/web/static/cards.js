// Card faces for the three decks: French, German (Eichel, Grün, Herz, Schellen) and the
// four-colour tournament deck. Cards are named in ISS notation: suit letter + rank letter (CJ, HT, D7).

import { fill } from "./lang.js";
import { cardName, deckIndex } from "./words.js";

const SUIT_PATHS = {
  heart: '<path d="M12 21.5s-8.5-5.2-9.7-10.6C1.5 7 4.2 4 7.3 4c2 0 3.6 1.2 4.7 3 1.1-1.8 2.7-3 4.7-3 3.1 0 5.8 3 5 6.9C20.5 16.3 12 21.5 12 21.5z"/>',
  diamond: '<path d="M12 1.5 20.5 12 12 22.5 3.5 12z"/>',
  spade: '<path d="M12 1.5c-2.6 4.6-9 7.4-9 12.3a4.6 4.6 0 0 0 8 3.1L9.6 22.5h4.8L13 16.9a4.6 4.6 0 0 0 8-3.1c0-4.9-6.4-7.7-9-12.3z"/>',
  club: '<circle cx="12" cy="6.6" r="4.6"/><circle cx="6.4" cy="14" r="4.6"/><circle cx="17.6" cy="14" r="4.6"/><path d="M10.6 12h2.8l1.2 10.5H9.4z"/>',
};

/** @typedef {import("./words.js").DeckName} DeckName */
/** @typedef {import("./protocol").Card} Card */
/** @typedef {"C" | "S" | "H" | "D"} Suit */

/** Each deck's suit pictures (a shape of SUIT_PATHS, or the German deck's own) and colours. */
/** @type {Record<DeckName, {suits: Record<Suit, [string, string]>}>} */
export const DECKS = {
  french: { suits: { C: ["club", "#1b1b1b"], S: ["spade", "#1b1b1b"], H: ["heart", "#c62828"], D: ["diamond", "#c62828"] } },
  four: { suits: { C: ["club", "#1b1b1b"], S: ["spade", "#1e7d32"], H: ["heart", "#c62828"], D: ["diamond", "#e08a00"] } },
  german: { suits: { C: ["acorn", "#7a4a12"], S: ["leaf", "#2e7d32"], H: ["heart", "#c62828"], D: ["bell", "#d08a00"] } },
};

/** @param {string | null} deck @returns {deck is DeckName} */
function isDeck(deck) { return deck === "french" || deck === "german" || deck === "four"; }

const savedDeck = localStorage.getItem("skat.deck");
/** The page's deck. */
export let DECK = /** @type {DeckName} */ (isDeck(savedDeck) ? savedDeck : "french");

/** Switch the page's deck (remembered for every page of the site). */
/** @param {string} deck */
export function setDeck(deck) {
  DECK = isDeck(deck) ? deck : "french";
  localStorage.setItem("skat.deck", DECK);
}

/** The page's words for the pure functions of words.js (the cards' section of the catalogs). */
/** @param {string} key @param {import("./text.js").Params} [params] */
const cardText = (key, params) => fill("cards", key, params);

/** A suit sign in the page's deck: the German deck's own pictures (acorns, leaves, hearts, bells: told apart at
 * small sizes), drawn shapes for the French suits. */
/** @param {string} suit @param {string} cls @returns {string} HTML */
export function suitSvg(suit, cls) {
  if (DECK === "german") return `<img class="${cls}" src="/static/cards/german/suit-${suit}.svg" alt="">`;
  const [shape, colour] = DECKS[DECK].suits[/** @type {Suit} */ (suit)];
  return `<svg class="${cls}" viewBox="0 0 24 24" fill="${colour}" aria-hidden="true">${SUIT_PATHS[/** @type {keyof SUIT_PATHS} */ (shape)]}</svg>`;
}

/** A card's name in the page's language: "Ace of Hearts", "Herz Ass", "туз черви"; with the German deck in
 * German the German suits ("Eichel Bube"). */
/** @param {Card} name */
export function cardLabel(name) {
  return cardName(name, DECK, cardText);
}

/** The colour of a card's suit in the page's deck. */
/** @param {Card} name */
export function suitColour(name) {
  return DECKS[DECK].suits[/** @type {Suit} */ (name[0])][1];
}

/** The rank of a card as its corner shows it in the page's deck and language ("B" for a jack in German). */
/** @param {Card} name */
export function rankIndex(name) {
  return deckIndex(name, DECK, cardText);
}

/** The picture of a card face (or "back") in the page's deck: one SVG file a card (static/cards/LICENSE.md). */
/** @param {Card | "back"} name */
export function cardArt(name) {
  const img = document.createElement("img");
  img.className = "art";
  img.src = `/static/cards/${DECK}/${name}.svg`;
  img.alt = "";
  img.draggable = false;
  return img;
}

/** A card face as an element (a <button> when clickable); its accessible name is the card's name. */
/** @param {Card} name @param {{button?: boolean, cls?: string}} [opts] */
export function cardEl(name, opts) {
  opts = opts || {};
  const el = opts.button ? document.createElement("button") : document.createElement("div");
  el.className = "card face" + (opts.cls ? " " + opts.cls : "");
  el.dataset.card = name;
  el.style.setProperty("--suit", suitColour(name));
  if (!opts.button) el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(name));
  el.title = cardLabel(name);
  el.append(cardArt(name), cardIndex(name));
  return el;
}

/** A large corner index (rank and suit sign) over the picture's own, for cards too small to read it (shown by
 * the style sheet: small cards, and every card on a phone); hidden from assistive technology, which reads
 * the card's name. */
/** @param {Card} name */
export function cardIndex(name) {
  const idx = document.createElement("span");
  idx.className = "idx";
  idx.setAttribute("aria-hidden", "true");
  // the rank is drawn by the style sheet (b::before), not text content: the card's name is its accessible name
  idx.innerHTML = `<b data-rank="${rankIndex(name)}"></b>${suitSvg(name[0], "pip")}`;
  return idx;
}

/** A card's back. */
/** @param {string} [cls] */
export function cardBack(cls) {
  const el = document.createElement("div");
  el.className = "card back" + (cls ? " " + cls : "");
  el.setAttribute("aria-hidden", "true");
  el.append(cardArt("back"));
  return el;
}
