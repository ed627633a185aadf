// The page's language, shared by every page (kept in localStorage as "skat.lang"), and the filling of a text
// from a table of texts: {name} placeholders, plural forms by the language's rules ({one, few, many, other},
// chosen by params.n).

export const LANGUAGES = ["en", "de", "ru"];

function initial() {
  const saved = localStorage.getItem("skat.lang") || (navigator.language || "en").slice(0, 2);
  return LANGUAGES.includes(saved) ? saved : "en";
}

export let LANG = initial();

/** Switch the page's language (remembered for every page of the site). */
export function setLang(lang) {
  LANG = LANGUAGES.includes(lang) ? lang : "en";
  localStorage.setItem("skat.lang", LANG);
}

/** The text `key` of `table` ({en: {...}, de: {...}, ...}) in the page's language (English where missing), filled. */
export function fill(table, key, params) {
  let s = (table[LANG] && table[LANG][key]) || table.en[key] || key;
  if (typeof s === "object") {
    const n = params && Number(params.n);
    s = s[new Intl.PluralRules(LANG).select(Number.isFinite(n) ? n : 0)] || s.other;
  }
  if (params) for (const k in params) s = s.split("{" + k + "}").join(params[k]);
  return s;
}
