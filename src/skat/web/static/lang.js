// The page's language, shared by every page (kept in localStorage as "skat.lang"), and its texts: the JSON
// catalogs i18n/LANG.json (one per language), imported as JSON modules, so they are loaded with the page's
// modules, before any of them runs (the page's texts are there when it starts, a switch of language is
// immediate, and no text waits for a request of its own).

import de from "./i18n/de.json" with { type: "json" };
import en from "./i18n/en.json" with { type: "json" };
import ko from "./i18n/ko.json" with { type: "json" };
import pl from "./i18n/pl.json" with { type: "json" };
import ru from "./i18n/ru.json" with { type: "json" };
import { fillText, isLang, LANGUAGES } from "./text.js";

export { LANGUAGES };

/** @typedef {import("./text.js").Lang} Lang */
/** @typedef {import("./text.js").SectionName} SectionName */
/** @typedef {import("./text.js").Params} Params */
/** @typedef {import("./text.js").Catalog} Catalog */
/** @typedef {import("./text.js").Catalogs} Catalogs */

/** @returns {Lang} */
function initial() {
  const saved = localStorage.getItem("skat.lang") || (navigator.language || "en").slice(0, 2);
  return isLang(saved) ? saved : "en";
}

/** The page's language. */
export let LANG = initial();

/** Every language's catalog. */
export const CATALOGS = /** @type {Catalogs} */ ({ en, de, ru, pl, ko });

/** Switch the page's language (remembered for every page of the site). */
/** @param {string} lang */
export function setLang(lang) {
  LANG = isLang(lang) ? lang : "en";
  localStorage.setItem("skat.lang", LANG);
}

/** The text `key` of a section of the catalogs (table, keeper, tournament, officers, cards) in the page's language
 * (English where missing), in its plural form for params.n, its {placeholders} filled. */
/** @param {SectionName} section @param {string} key @param {Params} [params] */
export function fill(section, key, params) {
  return fillText(CATALOGS, LANG, section, key, params);
}
