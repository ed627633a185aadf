// The filling of a text from the catalogs (i18n/LANG.json): {name} placeholders, plural forms by the language's
// rules ({one, few, many, other}, chosen by params.n), English where a language lacks a text. Pure: no page, no
// browser, so the pages (through lang.js) and the unit tests (tests/js) use the same code.

/** The languages of the pages, each with its catalog i18n/LANG.json. */
export const LANGUAGES = /** @type {const} */ (["en", "de", "ru", "pl", "ko"]);

/** @typedef {typeof LANGUAGES[number]} Lang */
/** @typedef {Intl.LDMLPluralRule} PluralCategory */
/** A text: a string, or its plural forms (which of them a language needs: Intl.PluralRules; `other` always). */
/** @typedef {string | ({other: string} & Partial<Record<PluralCategory, string>>)} Text */
/** @typedef {Record<string, Text>} Section */
/** The pages' parts, each a section of every catalog. */
export const SECTIONS = /** @type {const} */ (["table", "keeper", "tournament", "officers", "cards", "learn", "account", "players", "replay", "season", "chat", "friends", "online"]);
/** @typedef {typeof SECTIONS[number]} SectionName */
/** @typedef {Record<SectionName, Section>} Catalog */
/** @typedef {Partial<Record<Lang, Catalog>> & {en: Catalog}} Catalogs */
/** The values put into a text's {placeholders}; `n` also chooses the plural form. */
/** @typedef {Record<string, string | number | null | undefined>} Params */

/** Whether `lang` is one of the pages' languages. */
/** @param {unknown} lang @returns {lang is Lang} */
export function isLang(lang) {
  return typeof lang === "string" && /** @type {readonly string[]} */ (LANGUAGES).includes(lang);
}

/** The plural form of `text` for the count `n` in `lang` (`other` where the language's form is missing). */
/** @param {Text} text @param {string} lang @param {unknown} n @returns {string} */
export function pluralForm(text, lang, n) {
  if (typeof text === "string") return text;
  const count = Number(n);
  return text[new Intl.PluralRules(lang).select(Number.isFinite(count) ? count : 0)] || text.other;
}

/** `text` with each {name} replaced by params[name] (every occurrence; unknown placeholders stay). */
/** @param {string} text @param {Params} [params] @returns {string} */
export function fillPlaceholders(text, params) {
  let s = text;
  if (params) for (const k in params) s = s.split("{" + k + "}").join(String(params[k]));
  return s;
}

/** The names of the {placeholders} of a text (each once, in order). */
/** @param {Text} text @returns {string[]} */
export function placeholders(text) {
  const all = typeof text === "string" ? [text] : Object.values(text);
  const names = all.flatMap((s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  return [...new Set(names)];
}

/** The text `key` of `section` in `lang` (English where missing there, the key itself where missing in English
 * too), in its plural form for params.n, its placeholders filled. */
/** @param {Catalogs} catalogs @param {string} lang @param {SectionName} section @param {string} key @param {Params} [params] */
export function fillText(catalogs, lang, section, key, params) {
  const own = isLang(lang) ? catalogs[lang] : undefined;
  const text = (own && own[section][key]) || catalogs.en[section][key] || key;
  return fillPlaceholders(pluralForm(text, lang, params && params.n), params);
}

/** `text` split at its {placeholders}: strings, and the nodes (or anything) params give for them, in order. */
/** @template T @param {string} text @param {Record<string, T>} [params] @returns {(string | T)[]} */
export function splitPlaceholders(text, params) {
  /** @type {(string | T)[]} */
  const out = [];
  text.split(/(\{\w+\})/).forEach((part) => {
    const m = part.match(/^\{(\w+)\}$/);
    if (m && params && m[1] in params) out.push(params[m[1]]);
    else if (part) out.push(part);
  });
  return out;
}
