// Card faces for the three decks: French, German (Eichel, Grün, Herz, Schellen) and the
// four-colour tournament deck. Cards are named in ISS notation: suit letter + rank letter (CJ, HT, D7).

import { LANG } from "./lang.js";

const SUIT_PATHS = {
  heart: '<path d="M12 21.5s-8.5-5.2-9.7-10.6C1.5 7 4.2 4 7.3 4c2 0 3.6 1.2 4.7 3 1.1-1.8 2.7-3 4.7-3 3.1 0 5.8 3 5 6.9C20.5 16.3 12 21.5 12 21.5z"/>',
  diamond: '<path d="M12 1.5 20.5 12 12 22.5 3.5 12z"/>',
  spade: '<path d="M12 1.5c-2.6 4.6-9 7.4-9 12.3a4.6 4.6 0 0 0 8 3.1L9.6 22.5h4.8L13 16.9a4.6 4.6 0 0 0 8-3.1c0-4.9-6.4-7.7-9-12.3z"/>',
  club: '<circle cx="12" cy="6.6" r="4.6"/><circle cx="6.4" cy="14" r="4.6"/><circle cx="17.6" cy="14" r="4.6"/><path d="M10.6 12h2.8l1.2 10.5H9.4z"/>',
};

export const DECKS = {
  french: {
    suits: { C: ["club", "#1b1b1b"], S: ["spade", "#1b1b1b"], H: ["heart", "#c62828"], D: ["diamond", "#c62828"] },
    ranks: { en: { "7": "7", "8": "8", "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" },
             de: { "7": "7", "8": "8", "9": "9", T: "10", J: "B", Q: "D", K: "K", A: "A" },
             ru: { "7": "7", "8": "8", "9": "9", T: "10", J: "В", Q: "Д", K: "К", A: "Т" } },
  },
  four: {
    suits: { C: ["club", "#1b1b1b"], S: ["spade", "#1e7d32"], H: ["heart", "#c62828"], D: ["diamond", "#e08a00"] },
    ranks: { en: { "7": "7", "8": "8", "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" },
             de: { "7": "7", "8": "8", "9": "9", T: "10", J: "B", Q: "D", K: "K", A: "A" } },
  },
  german: {
    suits: { C: ["acorn", "#7a4a12"], S: ["leaf", "#2e7d32"], H: ["heart", "#c62828"], D: ["bell", "#d08a00"] },
    ranks: { en: { "7": "7", "8": "8", "9": "9", T: "10", J: "U", Q: "O", K: "K", A: "A" },
             de: { "7": "7", "8": "8", "9": "9", T: "10", J: "U", Q: "O", K: "K", A: "A" } },
  },
};

const SUIT_NAMES = {
  french: { en: { C: "clubs", S: "spades", H: "hearts", D: "diamonds" }, de: { C: "Kreuz", S: "Pik", H: "Herz", D: "Karo" },
            ru: { C: "трефы", S: "пики", H: "черви", D: "бубны" } },
  german: { en: { C: "acorns", S: "leaves", H: "hearts", D: "bells" }, de: { C: "Eichel", S: "Grün", H: "Herz", D: "Schellen" } },
};
const RANK_NAMES = {
  en: { "7": "seven", "8": "eight", "9": "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace" },
  de: { "7": "Sieben", "8": "Acht", "9": "Neun", T: "Zehn", J: "Bube", Q: "Dame", K: "König", A: "Ass" },
  ru: { "7": "семёрка", "8": "восьмёрка", "9": "девятка", T: "десятка", J: "валет", Q: "дама", K: "король", A: "туз" },
};

export let DECK = ["french", "german", "four"].includes(localStorage.getItem("skat.deck")) ? localStorage.getItem("skat.deck") : "french";

/** Switch the page's deck (remembered for every page of the site). */
export function setDeck(deck) {
  DECK = DECKS[deck] ? deck : "french";
  localStorage.setItem("skat.deck", DECK);
}

/** A suit sign in the page's deck: the German deck's own pictures (acorns, leaves, hearts, bells: told apart at
 * small sizes), drawn shapes for the French suits. */
export function suitSvg(suit, cls) {
  if (DECK === "german") return `<img class="${cls}" src="/static/cards/german/suit-${suit}.svg" alt="">`;
  const [shape, colour] = DECKS[DECK].suits[suit];
  return `<svg class="${cls}" viewBox="0 0 24 24" fill="${colour}" aria-hidden="true">${SUIT_PATHS[shape]}</svg>`;
}

const EN_SUITS = { C: "Clubs", S: "Spades", H: "Hearts", D: "Diamonds" };
const EN_RANKS = { "7": "Seven", "8": "Eight", "9": "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };

/** A card's name in the page's language: "Ace of Hearts", "Herz Ass", "туз черви"; with the German deck in
 * German the German suits ("Eichel Bube"). */
export function cardLabel(name) {
  if (LANG === "de") return `${SUIT_NAMES[DECK === "german" ? "german" : "french"].de[name[0]]} ${RANK_NAMES.de[name[1]]}`;
  if (LANG === "ru") return `${RANK_NAMES.ru[name[1]]} ${SUIT_NAMES.french.ru[name[0]]}`;
  return `${EN_RANKS[name[1]]} of ${EN_SUITS[name[0]]}`;
}

/** The picture of a card face (or "back") in the page's deck: one SVG file a card (static/cards/LICENSE.md). */
export function cardArt(name) {
  const img = document.createElement("img");
  img.className = "art";
  img.src = `/static/cards/${DECK}/${name}.svg`;
  img.alt = "";
  img.draggable = false;
  return img;
}

// A card face as an element (a <button> when clickable); its accessible name is the card's name.
export function cardEl(name, opts) {
  opts = opts || {};
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = "card face" + (opts.cls ? " " + opts.cls : "");
  el.dataset.card = name;
  el.style.setProperty("--suit", DECKS[DECK].suits[name[0]][1]);
  if (!opts.button) el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(name));
  el.title = cardLabel(name);
  el.append(cardArt(name), cardIndex(name));
  return el;
}

/** A large corner index (rank and suit sign) over the picture's own, for cards too small to read it (shown by
 * the style sheet: small cards, and every card on a phone); hidden from assistive technology, which reads
 * the card's name. */
export function cardIndex(name) {
  const deck = DECKS[DECK];
  const idx = document.createElement("span");
  idx.className = "idx";
  idx.setAttribute("aria-hidden", "true");
  // the rank is drawn by the style sheet (b::before), not text content: the card's name is its accessible name
  idx.innerHTML = `<b data-rank="${(deck.ranks[LANG] || deck.ranks.en)[name[1]]}"></b>${suitSvg(name[0], "pip")}`;
  return idx;
}

export function cardBack(cls) {
  const el = document.createElement("div");
  el.className = "card back" + (cls ? " " + cls : "");
  el.setAttribute("aria-hidden", "true");
  el.append(cardArt("back"));
  return el;
}
