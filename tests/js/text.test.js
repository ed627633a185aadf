import assert from "node:assert/strict";
import { test } from "node:test";

import { fillPlaceholders, fillText, isLang, placeholders, pluralForm, splitPlaceholders } from "../../src/skat/web/static/text.js";
import { CATALOGS } from "./catalogs.js";

const tiny = {
  en: { table: { hello: "Hello {who}", tricks: { one: "{n} trick", other: "{n} tricks" }, onlyEn: "English" },
        keeper: {}, tournament: {}, officers: {}, cards: {} },
  de: { table: { hello: "Hallo {who}", tricks: { one: "{n} Stich", other: "{n} Stiche" } },
        keeper: {}, tournament: {}, officers: {}, cards: {} },
  ru: { table: { tricks: { one: "{n} взятка", few: "{n} взятки", many: "{n} взяток", other: "{n} взятки" } },
        keeper: {}, tournament: {}, officers: {}, cards: {} },
};

test("placeholders are filled, every occurrence", () => {
  assert.equal(fillPlaceholders("{a} and {a} and {b}", { a: 1, b: "x" }), "1 and 1 and x");
  assert.equal(fillPlaceholders("{a} stays {c}", { a: "A" }), "A stays {c}");
  assert.equal(fillPlaceholders("no params"), "no params");
});

test("a text in the reader's language, English where it is missing, the key where English lacks it too", () => {
  assert.equal(fillText(tiny, "de", "table", "hello", { who: "Ada" }), "Hallo Ada");
  assert.equal(fillText(tiny, "de", "table", "onlyEn"), "English");
  assert.equal(fillText(tiny, "de", "table", "nowhere"), "nowhere");
  assert.equal(fillText(tiny, "xx", "table", "hello", { who: "Bo" }), "Hello Bo");  // an unknown language reads English
});

test("plural forms follow each language's rules", () => {
  assert.equal(fillText(tiny, "en", "table", "tricks", { n: 1 }), "1 trick");
  assert.equal(fillText(tiny, "en", "table", "tricks", { n: 0 }), "0 tricks");
  assert.equal(fillText(tiny, "de", "table", "tricks", { n: 2 }), "2 Stiche");
  assert.deepEqual([1, 3, 5, 21, 22, 11].map((n) => fillText(tiny, "ru", "table", "tricks", { n })),
    ["1 взятка", "3 взятки", "5 взяток", "21 взятка", "22 взятки", "11 взяток"]);
  assert.equal(pluralForm({ other: "x" }, "ru", 1), "x");  // a missing form: `other`
  assert.equal(pluralForm({ one: "one", other: "other" }, "en", "not a number"), "other");
});

test("the real catalogs: counts and their words", () => {
  const t = (lang, key, params) => fillText(CATALOGS, lang, "table", key, params);
  assert.deepEqual([1, 2].map((n) => t("en", "tricks", { n })), ["1 trick", "2 tricks"]);
  assert.deepEqual([1, 3, 21].map((n) => t("de", "cards", { n })), ["1 Karte", "3 Karten", "21 Karten"]);
  assert.deepEqual([1, 3, 5, 21].map((n) => t("ru", "cards", { n })), ["1 карта", "3 карты", "5 карт", "21 карта"]);
  assert.equal(t("de", "points", { n: 1 }), "1 Auge");
  assert.equal(t("de", "waitingFor", { who: "Ada" }), "Warten auf Ada");
  assert.equal(t("ru", "waitingFor", { who: "Ada" }), "ждём: Ada");
});

test("placeholders() names a text's placeholders once, in every plural form", () => {
  assert.deepEqual(placeholders("{who} plays {contract}, {who}"), ["who", "contract"]);
  assert.deepEqual(placeholders({ one: "{n} card", other: "{n} cards of {who}" }), ["n", "who"]);
});

test("splitPlaceholders() puts nodes in a text's place", () => {
  const node = { node: true };
  assert.deepEqual(splitPlaceholders("Trick {trick}: {card} wins", { trick: 3, card: node }), ["Trick ", 3, ": ", node, " wins"]);
  assert.deepEqual(splitPlaceholders("{unknown} stays", {}), ["{unknown}", " stays"]);
});

test("isLang knows the pages' languages only", () => {
  assert.ok(isLang("de") && isLang("en") && isLang("ru"));
  assert.ok(!isLang("fr") && !isLang(undefined) && !isLang(3));
});
