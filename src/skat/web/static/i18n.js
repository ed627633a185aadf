// The Skat table's words: t(key, params) over the texts (texts.js) in the page's language, and the name of a
// contract in the page's language and deck.

import { DECK } from "./cards.js";
import { fill, LANG } from "./lang.js";
import { I18N } from "./texts.js";

export { I18N };

/** A text of the Skat table in the page's language, its {placeholders} filled from params. */
export function t(key, params) {
  return fill(I18N, key, params);
}

const GERMAN_SUIT_GAMES = {
  en: { diamonds: "Bells", hearts: "Hearts", spades: "Leaves", clubs: "Acorns" },
  de: { diamonds: "Schellen", hearts: "Herz", spades: "Grün", clubs: "Eichel" },
};

/** A contract in words: "Clubs Hand Schneider announced", with the German deck's suit names under it. */
export function contractText(c) {
  if (!c) return "";
  const german = DECK === "german" && GERMAN_SUIT_GAMES[LANG] && GERMAN_SUIT_GAMES[LANG][c.game];
  const words = [german || t("game_" + c.game)];
  if (c.hand && !c.ouvert) words.push(t("hand"));
  if (c.ouvert) words.push(c.game === "null" && c.hand ? t("hand") + " " + t("ouvert") : t("ouvert"));
  else if (c.schwarz) words.push(t("announced_schwarz"));
  else if (c.schneider) words.push(t("announced_schneider"));
  return words.join(" ");
}
