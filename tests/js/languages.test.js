// Polish and Korean (issue 32): the plural forms Polish counts need (one, few, many), Korean's one form, the reader
// addressed in Polish ("Ty wygrywasz", not "Ty wygrywa"), the Polish and Korean card names and corner letters.
import assert from "node:assert/strict";
import { test } from "node:test";

import { fillText } from "../../src/skat/web/static/text.js";
import { resultSentence } from "../../src/skat/web/static/view.js";
import { cardName, contractWords, deckIndex, youForm } from "../../src/skat/web/static/words.js";
import { CATALOGS, wordsFor } from "./catalogs.js";

const t = (lang, key, params) => fillText(CATALOGS, lang, "table", key, params);

test("Polish counts take one, few and many; Korean has one form", () => {
  assert.deepEqual([1, 2, 4, 5, 12, 22, 25, 0].map((n) => t("pl", "cards", { n })),
    ["1 karta", "2 karty", "4 karty", "5 kart", "12 kart", "22 karty", "25 kart", "0 kart"]);
  assert.deepEqual([1, 3, 11].map((n) => t("pl", "tricks", { n })), ["1 lewa", "3 lewy", "11 lew"]);
  assert.deepEqual([1, 3, 11].map((n) => t("ko", "tricks", { n })), ["트릭 1개", "트릭 3개", "트릭 11개"]);
  assert.equal(fillText(CATALOGS, "pl", "keeper", "gamesCount", { n: 3 }), "3 gry");
  assert.equal(fillText(CATALOGS, "ko", "keeper", "gamesCount", { n: 3 }), "게임 3판");
});

test("the Polish reader is addressed: the verb agrees with Ty", () => {
  assert.equal(youForm(t("pl", "resultTitle_won", { who: t("pl", "you") }), "pl"), "Ty wygrywasz");
  assert.equal(youForm(t("pl", "resultTitle_lost", { who: t("pl", "you") }), "pl"), "Ty przegrywasz");
  assert.equal(youForm(t("pl", "durchmarsch", { who: "Ty" }), "pl"), "Durchmarsch! Ty bierzesz wszystkie lewy");
  assert.equal(youForm(t("pl", "why_null_lost", { who: "Ty", contract: "Null", s: "Zapis: -46" }), "pl"),
    "Ty przegrywasz Null: bierzesz lewę. Zapis: -46.");
  assert.equal(youForm(t("pl", "resultTitle_won", { who: "Tymon" }), "pl"), "Tymon wygrywa");  // a name stays
  assert.equal(youForm("나 승리", "ko"), "나 승리");  // Korean verbs do not change with the person
});

test("a result in Polish and Korean, the reader the declarer", () => {
  const seat = (/** @type {number} */ position, /** @type {string} */ name) =>
    ({ position, kind: "human", name, bot: null, taken: true, connected: true });
  const st = { you: { seat: 0, position: 0, role: "player" }, view: null,
    table: { positions: [0, 1, 2], seats: [seat(0, "Ola"), seat(1, "Bea"), seat(2, "Cyd")] } };
  const r = { declarer: 0, kind: "played", contract: { game: "grand", hand: false, ouvert: false, schneider: false, schwarz: false },
    outcome: { won: true, score: 96, game_value: 96, matadors_with: true, matadors: 2, schneider: false, schwarz: false,
      overbid: false, declarer_points: 78 }, explanation: "" };
  const pl = resultSentence(/** @type {any} */ (st), /** @type {any} */ (r), wordsFor("pl"));
  assert.match(pl, /^Ty wygrywasz Grand z 2, oczka: 78\. Wartość 96\.$/);
  const ko = resultSentence(/** @type {any} */ (st), /** @type {any} */ (r), wordsFor("ko"));
  assert.match(ko, /^나 승리: 그랜드 마타도르 2 있음, 카드 점수 78\. 가치 96\.$/);
});

test("cards and contracts in Polish and Korean", () => {
  const pl = wordsFor("pl"), ko = wordsFor("ko"), plGerman = wordsFor("pl", "german");
  assert.equal(cardName("HA", "french", pl.card), "as kier");
  assert.equal(cardName("CJ", "french", pl.card), "walet trefl");
  assert.equal(cardName("SQ", "german", plGerman.card), "dama grin");
  assert.deepEqual(["CJ", "CQ", "CK", "CA", "CT", "C7"].map((c) => deckIndex(c, "french", pl.card)), ["W", "D", "K", "A", "10", "7"]);
  assert.equal(cardName("HA", "french", ko.card), "하트 에이스");
  assert.equal(cardName("DJ", "german", ko.card), "방울 잭");
  assert.deepEqual(["CJ", "CQ"].map((c) => deckIndex(c, "german", ko.card)), ["U", "O"]);
  const c = { game: "hearts", hand: true, ouvert: false, schneider: true, schwarz: false };
  assert.equal(contractWords(c, pl), "Kier Hand Schneider zapowiedziany");
  assert.equal(contractWords(c, ko), "하트 핸드 슈나이더 선언");
  assert.equal(contractWords({ ...c, game: "clubs" }, plGerman), "Krojc Hand Schneider zapowiedziany");
});
