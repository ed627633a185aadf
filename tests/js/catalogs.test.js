// The catalogs (src/skat/web/static/i18n/LANG.json): every language has every text, in the plural forms its
// rules need, with the placeholders the code fills; and the code asks for no text a catalog lacks.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { LANGUAGES, placeholders, SECTIONS } from "../../src/skat/web/static/text.js";
import { CATALOGS, STATIC } from "./catalogs.js";

const keysOf = (lang, section) => Object.keys(CATALOGS[lang][section] || {}).sort();

test("there is a catalog for every language of the pages, and no other", () => {
  const files = readdirSync(new URL("i18n/", STATIC)).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
  assert.deepEqual(files, [...LANGUAGES].sort());
});

test("every catalog has the same sections", () => {
  for (const lang of LANGUAGES) assert.deepEqual(Object.keys(CATALOGS[lang]).sort(), [...SECTIONS].sort(), lang);
});

for (const lang of LANGUAGES) {
  test(`${lang} has every text that any language has (no key missing)`, () => {
    for (const section of SECTIONS) {
      const all = [...new Set(LANGUAGES.flatMap((l) => keysOf(l, section)))].sort();
      const missing = all.filter((k) => !(k in CATALOGS[lang][section]));
      assert.deepEqual(missing, [], `${lang}.json, section ${section}`);
    }
  });

  test(`${lang}: each text is a string or plural forms of its language, "other" always`, () => {
    const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const section of SECTIONS) {
      for (const [key, text] of Object.entries(CATALOGS[lang][section])) {
        if (typeof text === "string") continue;
        assert.equal(typeof text, "object", `${section}.${key}`);
        const forms = Object.keys(text);
        assert.ok(forms.includes("other"), `${lang} ${section}.${key} has no "other" form`);
        // a form the language never picks is a slip (a missing one reads "other": a form equal to it may be left out)
        for (const form of forms) assert.ok(needed.includes(form), `${lang} ${section}.${key}: ${lang} has no form "${form}"`);
        for (const form of forms) assert.equal(typeof text[form], "string", `${section}.${key}.${form}`);
      }
    }
  });

  test(`${lang}: a translation has no placeholder that English lacks`, () => {
    if (lang === "en") return;
    for (const section of SECTIONS) {
      for (const [key, text] of Object.entries(CATALOGS[lang][section])) {
        const english = placeholders(CATALOGS.en[section][key]);
        const extra = placeholders(text).filter((p) => !english.includes(p));
        assert.deepEqual(extra, [], `${lang} ${section}.${key}`);
      }
    }
  });
}

test("the texts the code asks for by a literal key are in the English catalog", () => {
  // t("key"), k("key"), T("key"), fill("section", "key"), data-i18n="key": each literal key must exist
  const calls = { "app.js": ["t", "table"], "i18n.js": ["t", "table"], "view.js": ["t", "table"], "keeper.js": ["k", "keeper"],
    "tournament.js": ["T", "tournament"], "officers.js": ["T", "officers"], "season.js": ["T", "season"] };
  const missing = [];
  for (const [file, [fn, section]] of Object.entries(calls)) {
    const src = readFileSync(new URL(file, STATIC), "utf8");
    const re = new RegExp(String.raw`(?<![\w.])(?:w\.)?${fn}\(\s*"([A-Za-z0-9_]+)"(?!\s*\+)`, "g");
    for (const m of src.matchAll(re)) if (!(m[1] in CATALOGS.en[section])) missing.push(`${file}: ${m[1]}`);
    if (file === "keeper.js") {  // the keeper page also says the table's words
      for (const m of src.matchAll(/(?<![\w.])t\(\s*"([A-Za-z0-9_]+)"(?!\s*\+)/g)) if (!(m[1] in CATALOGS.en.table)) missing.push(`${file}: t ${m[1]}`);
    }
  }
  const pages = { "index.html": ["data-i18n", "table"], "keeper.html": ["data-k", "keeper"], "officers.html": ["data-t", "officers"],
    "tournament.html": ["data-t", "tournament"], "season.html": ["data-t", "season"] };
  for (const [file, [attr, section]] of Object.entries(pages)) {
    const html = readFileSync(new URL(file, STATIC), "utf8");
    for (const m of html.matchAll(new RegExp(String.raw`\s${attr}(?:-label)?="([^"]+)"`, "g"))) {
      if (!(m[1] in CATALOGS.en[section])) missing.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});
