// Every text a reader sees comes from the catalogs (src/skat/web/static/i18n/LANG.json): no words written into the
// pages' scripts or HTML, where they would show in one language on every page (English on a German page). What
// is found in the scripts: string literals put into textContent, innerText, title, placeholder, alt or
// aria-label, the `text`/`title`/`aria-label`/`placeholder`/`label` attributes of h(), setAttribute() of those,
// the first child of h() written as a literal, and a literal handed to the pages' message functions (alert,
// confirm, prompt, showError, banner, alertBox, confirmBox); in the HTML: text and those attributes, except in an element
// whose text or label a script replaces from the catalogs (data-i18n, data-k, data-t, data-l and their -label forms).
// Text without words (numbers, "♣", "—", "+/−") is no language; ALLOWED names the few words that are none either.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { STATIC } from "./catalogs.js";

/** Words that are no language: the names of the languages in their own (the language menu), abbreviations of the
 * trade, file formats. */
const ALLOWED = new Set(["English", "Deutsch", "Русский", "Polski", "한국어", "ISS", "K/Re", "CSV", "JSON", "PDF"]);

/** Whether a text has words in it (two letters in a row), and is not allowed. */
const isWords = (s) => /\p{L}{2,}/u.test(s) && !ALLOWED.has(s.trim()) && !/^[a-z]+_$/.test(s);  // "rs_" + name: a key

const scripts = readdirSync(STATIC).filter((f) => f.endsWith(".js"));
const pages = readdirSync(STATIC).filter((f) => f.endsWith(".html"));

/** The user-facing literals a script writes, with their line numbers. */
export function scriptFindings(source) {
  const found = [];
  const lit = String.raw`(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|\x60((?:[^\x60\\$]|\\.)*)\x60)`;
  const patterns = [
    new RegExp(String.raw`\.(?:textContent|innerText|title|placeholder|alt)\s*=\s*` + lit, "g"),
    new RegExp(String.raw`(?:[{,]\s*)(?:text|title|placeholder|label|alt|"aria-label"|"title"|"placeholder")\s*:\s*` + lit, "g"),
    new RegExp(String.raw`setAttribute\(\s*"(?:aria-label|title|placeholder|alt)"\s*,\s*` + lit, "g"),
    new RegExp(String.raw`\bh\(\s*"[a-z0-9]+"\s*,\s*(?:\{[^{}]*\}|null|\{\})\s*,\s*` + lit, "g"),
    new RegExp(String.raw`\b(?:alert|confirm|prompt|showError|banner|alertBox|confirmBox)\(\s*` + lit, "g"),
  ];
  for (const re of patterns) {
    for (const m of source.matchAll(re)) {
      const text = m[1] ?? m[2] ?? m[3] ?? "";
      if (isWords(text.replace(/\$\{[^}]*\}/g, ""))) {
        found.push(`${source.slice(0, m.index).split("\n").length}: ${text}`);
      }
    }
  }
  return found;
}

/** The user-facing words of an HTML page that no script replaces from the catalogs. */
export function pageFindings(html) {
  const found = [];
  const body = html.replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style)\b[\s\S]*?<\/\1>/g, "");
  /** @type {{tag: string, translated: boolean}[]} */
  const open = [];
  const VOID = new Set(["meta", "link", "input", "br", "img", "hr", "source"]);
  for (const m of body.matchAll(/<!(?:[^>]*)>|<(\/?)([a-zA-Z0-9]+)([^>]*)>|([^<]+)/g)) {
    const [, close, tag, attrs = "", text] = m;
    if (tag === undefined && text === undefined) continue;  // <!doctype html>
    const line = body.slice(0, m.index).split("\n").length;
    if (text !== undefined) {
      const words = text.trim();
      if (words && isWords(words) && !open.some((e) => e.translated)) found.push(`${line}: ${words}`);
      continue;
    }
    if (close) {
      while (open.length && open.pop().tag !== tag.toLowerCase());
      continue;
    }
    const translated = /\sdata-(?:i18n|k|t|l)=/.test(attrs);
    const labelled = /\sdata-(?:i18n|k|t|l)-label=/.test(attrs);
    for (const a of attrs.matchAll(/\s(title|aria-label|placeholder|alt)="([^"]*)"/g)) {
      if (isWords(a[2]) && !(a[1] === "aria-label" && labelled)) found.push(`${line}: ${a[1]}="${a[2]}"`);
    }
    if (!VOID.has(tag.toLowerCase()) && !attrs.trim().endsWith("/")) open.push({ tag: tag.toLowerCase(), translated });
  }
  return found;
}

test("the scanner finds words written into a script and a page, and lets the catalogs' texts and symbols pass", () => {
  assert.deepEqual(scriptFindings('el.textContent = "Hello";\nh("b", { text: "Table" });\nel.title = "♣";\n' +
    'h("th", { cls: "num" }, "Dealer");\nb.setAttribute("aria-label", "Your hand");\nel.textContent = t("x");\n' +
    'showError("not connected");\nbanner(T("ok"));'),
  ["1: Hello", "2: Table", "5: Your hand", "4: Dealer", "7: not connected"]);
  assert.deepEqual(pageFindings('<p data-i18n="x">Fallback <b>bold</b></p>\n<p>Stray words</p>\n<i title="A title">—</i>' +
    '<select data-i18n-label="y" aria-label="Language"></select><option>English</option>'),
  ["2: Stray words", '3: title="A title"']);
});

for (const file of scripts) {
  test(`${file} writes no words of its own into the page`, () => {
    assert.deepEqual(scriptFindings(readFileSync(new URL(file, STATIC), "utf8")), []);
  });
}

for (const file of pages) {
  test(`${file} has no words that its script does not replace from the catalogs`, () => {
    assert.deepEqual(pageFindings(readFileSync(new URL(file, STATIC), "utf8")), []);
  });
}
