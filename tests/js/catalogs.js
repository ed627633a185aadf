// The catalogs as the pages load them (src/skat/web/static/i18n/LANG.json), and the reader's words built from them
// with the pages' own code (text.js), for the unit tests.
import { readFileSync } from "node:fs";

import { fillText, LANGUAGES } from "../../src/skat/web/static/text.js";

export const STATIC = new URL("../../src/skat/web/static/", import.meta.url);

/** @type {import("../../src/skat/web/static/text.js").Catalogs} */
export const CATALOGS = Object.fromEntries(LANGUAGES.map((lang) =>
  [lang, JSON.parse(readFileSync(new URL(`i18n/${lang}.json`, STATIC), "utf8"))]));

/** The words of a reader in `lang` with `deck` (words.js's Words). */
export function wordsFor(lang = "en", deck = "french") {
  return {
    t: (key, params) => fillText(CATALOGS, lang, "table", key, params),
    card: (key, params) => fillText(CATALOGS, lang, "cards", key, params),
    lang,
    deck,
  };
}
