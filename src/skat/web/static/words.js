// The Skat words that do not depend on a page: a card's name and corner index, a contract in words, the
// reader's verb agreement. Pure: the page's language, deck and texts come in as a Words object (i18n.js makes
// the page's; the unit tests in tests/js make their own from the catalogs).

/** @typedef {import("./protocol").Card} Card */
/** @typedef {import("./protocol").Contract} Contract */
/** @typedef {import("./text.js").Params} Params */
/** @typedef {"french" | "german" | "four"} DeckName */
/** A text of a section in the reader's language, filled. */
/** @typedef {(key: string, params?: Params) => string} TextOf */
/** The reader's words: the table's texts (t), the cards' texts (card), the language and the deck. */
/** @typedef {{t: TextOf, card: TextOf, readonly lang: string, readonly deck: DeckName}} Words */

/** The German deck's own letters for the jack (Unter), the queen (Ober) and the ace (Daus), in every language:
 * the letters its pictures print in their corners, so that a small card and a large one read alike. */
const GERMAN_INDEX = /** @type {Record<string, string>} */ ({ J: "U", Q: "O", A: "D" });

/** A card's name: "Ace of Hearts", "Herz Ass", "туз черви" (the German deck's suits where the language has
 * them: "Eichel Bube"). */
/** @param {Card} card @param {DeckName} deck @param {TextOf} cardText */
export function cardName(card, deck, cardText) {
  const suit = cardText((deck === "german" ? "gsuit_" : "suit_") + card[0]);
  return cardText("cardLabel", { rank: cardText("rank_" + card[1]), suit });
}

/** The rank as a card's corner shows it: 7 8 9 10, then J Q K A (B D K A in German, В Д К Т in Russian); the
 * German deck's U, O and D in every language. */
/** @param {Card} card @param {DeckName} deck @param {TextOf} cardText */
export function deckIndex(card, deck, cardText) {
  const rank = card[1];
  if (deck === "german" && rank in GERMAN_INDEX) return GERMAN_INDEX[rank];
  return "789".includes(rank) ? rank : cardText("index_" + rank);
}

/** A contract in words: "Clubs Hand Schneider announced", with the German deck's suit names under it. */
/** @param {Partial<Omit<Contract, "game">> & {game: string} | null | undefined} c @param {Words} w */
export function contractWords(c, w) {
  if (!c) return "";
  const suitGame = ["diamonds", "hearts", "spades", "clubs"].includes(c.game);
  const words = [w.deck === "german" && suitGame ? w.card("ggame_" + c.game) : w.t("game_" + c.game)];
  if (c.hand && !c.ouvert) words.push(w.t("hand"));
  if (c.ouvert) words.push(c.game === "null" && c.hand ? w.t("hand") + " " + w.t("ouvert") : w.t("ouvert"));
  else if (c.schwarz) words.push(w.t("announced_schwarz"));
  else if (c.schneider) words.push(w.t("announced_schneider"));
  return words.join(" ");
}

/** A contract from its action token's words ("clubs hand schneider"); Schwarz implies Schneider. */
/** @param {string} words @returns {Contract} */
export function contractOfWords(words) {
  const parts = words.split(" ");
  return { game: /** @type {Contract["game"]} */ (parts[0]), hand: parts.includes("hand"), ouvert: parts.includes("ouvert"),
    schneider: parts.includes("schneider") || parts.includes("schwarz"), schwarz: parts.includes("schwarz") };
}

/** The texts name the declarer in the third person ({who}); when {who} is the reader ("You", "Du", "Вы", "Ty"), the
 * verb agrees (Korean verbs do not change with the person). */
/** @param {string} text @param {string} lang */
export function youForm(text, lang) {
  if (lang === "en") return text.replace(/\bYou scores\b/, "You score");
  if (lang === "ru") {
    return text.replace(/(^|[:!] )Вы (выигрыва|проигрыва|игра|выбира)ет /, "$1Вы $2ете ")
      .replace(/(^|[:!] )Вы смотрит /, "$1Вы смотрите ").replace(/(^|[:!] )Вы выиграл /, "$1Вы выиграли ")
      .replace(/^(Вы проигрываете [^:]*): взял взятку/, "$1: взяли взятку");
  }
  if (lang === "pl") {  // "Ty wygrywa" -> "Ty wygrywasz" (the texts' verbs are in the present: no gender)
    return text.replace(/(^|[:!] )Ty (wygrywa|przegrywa|bierze|gra|ma)(?=[ .,]|$)/, "$1Ty $2sz")
      .replace(/^(Ty przegrywasz [^:]*): bierze lewę/, "$1: bierzesz lewę");
  }
  if (lang !== "de") return text;
  return text.replace(/(^|[:!] )Du hat /, "$1Du hast ").replace(/(^|[:!] )Du gewinnt /, "$1Du gewinnst ")
    .replace(/(^|[:!] )Du verliert/, "$1Du verlierst").replace(/(^|[:!] )Du schreibt/, "$1Du schreibst");
}
