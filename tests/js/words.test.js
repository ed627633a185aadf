import assert from "node:assert/strict";
import { test } from "node:test";

import { cardName, contractOfWords, contractWords, deckIndex, youForm } from "../../src/skat/web/static/words.js";
import { wordsFor } from "./catalogs.js";

test("a card's name in each language and deck", () => {
  const en = wordsFor("en").card, de = wordsFor("de").card, ru = wordsFor("ru").card;
  assert.equal(cardName("HA", "french", en), "Ace of Hearts");
  assert.equal(cardName("CJ", "german", en), "Jack of Clubs");
  assert.equal(cardName("HA", "french", de), "Herz Ass");
  assert.equal(cardName("CJ", "german", de), "Eichel Bube");
  assert.equal(cardName("DT", "four", de), "Karo Zehn");
  assert.equal(cardName("HA", "french", ru), "туз черви");
});

test("a card's corner index: B and D in German, U and O in the German deck", () => {
  const en = wordsFor("en").card, de = wordsFor("de").card, ru = wordsFor("ru").card;
  assert.deepEqual(["C7", "CT", "CJ", "CQ", "CK", "CA"].map((c) => deckIndex(c, "french", en)), ["7", "10", "J", "Q", "K", "A"]);
  assert.deepEqual(["CJ", "CQ"].map((c) => deckIndex(c, "french", de)), ["B", "D"]);
  assert.deepEqual(["CJ", "CQ", "CA"].map((c) => deckIndex(c, "german", de)), ["U", "O", "D"]);  // as its pictures
  assert.deepEqual(["CJ", "CQ", "CA"].map((c) => deckIndex(c, "german", en)), ["U", "O", "D"]);
  assert.deepEqual(["CJ", "CA"].map((c) => deckIndex(c, "french", ru)), ["В", "Т"]);
});

test("a contract in words, with the German deck's suit names", () => {
  const en = wordsFor("en"), de = wordsFor("de"), deGerman = wordsFor("de", "german"), enGerman = wordsFor("en", "german");
  assert.equal(contractWords({ game: "clubs", hand: true, schneider: true }, en), "Clubs Hand Schneider announced");
  assert.equal(contractWords({ game: "null", hand: true, ouvert: true }, en), "Null Hand Ouvert");
  assert.equal(contractWords({ game: "grand", ouvert: true, hand: true, schneider: true, schwarz: true }, en), "Grand Ouvert");
  assert.equal(contractWords({ game: "clubs" }, de), "Kreuz");
  assert.equal(contractWords({ game: "clubs" }, deGerman), "Eichel");
  assert.equal(contractWords({ game: "diamonds" }, enGerman), "Bells");
  assert.equal(contractWords({ game: "grand" }, deGerman), "Grand");
  assert.equal(contractWords(null, en), "");
});

test("an action token's words make a contract; Schwarz implies Schneider", () => {
  assert.deepEqual(contractOfWords("spades hand schwarz"),
    { game: "spades", hand: true, ouvert: false, schneider: true, schwarz: true });
  assert.deepEqual(contractOfWords("null"), { game: "null", hand: false, ouvert: false, schneider: false, schwarz: false });
});

test("the verb agrees when the reader is the declarer", () => {
  assert.equal(youForm("You scores 24", "en"), "You score 24");
  assert.equal(youForm("Du gewinnt Grand", "de"), "Du gewinnst Grand");
  assert.equal(youForm("Ramsch: Du verliert", "de"), "Ramsch: Du verlierst");
  assert.equal(youForm("Anna gewinnt Grand", "de"), "Anna gewinnt Grand");
  assert.equal(youForm("Вы проигрывает Null: взял взятку", "ru"), "Вы проигрываете Null: взяли взятку");
  assert.equal(youForm("Du hat", "fr"), "Du hat");
});
