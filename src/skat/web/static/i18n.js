// The Skat table's words: t(key, params) over the catalogs' "table" section in the page's language, and the name
// of a contract in the page's language and deck.

import { DECK } from "./cards.js";
import { CATALOGS, fill, LANG } from "./lang.js";
import { contractWords } from "./words.js";

/** The table's texts by language (for the browser tests and a curious player's console). */
export const I18N = Object.fromEntries(Object.entries(CATALOGS).map(([lang, catalog]) => [lang, catalog.table]));

/** A text of the Skat table in the page's language, its {placeholders} filled from params. */
/** @param {string} key @param {import("./text.js").Params} [params] */
export function t(key, params) {
  return fill("table", key, params);
}

/** The words of the page as the pure functions of words.js take them. */
/** @type {import("./words.js").Words} */
export const WORDS = {
  t,
  card: (key, params) => fill("cards", key, params),
  get lang() { return LANG; },
  get deck() { return DECK; },
};

/** A contract in words: "Clubs Hand Schneider announced", with the German deck's suit names under it. */
/** @param {Parameters<typeof contractWords>[0]} c */
export function contractText(c) {
  return contractWords(c, WORDS);
}
