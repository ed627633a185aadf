// Texts of the table in English and German. t(key, params) fills {name} placeholders.
"use strict";

const I18N = {
  en: {
    title: "Skat", scoreSheet: "Score sheet", invite: "Invite", deck: "Deck", language: "Language",
    deckFrench: "French", deckGerman: "German", deckFour: "Four-colour",
    newTable: "New table", tableName: "Table name", yourName: "Your name", players: "Players", ruleset: "Rules",
    create: "Create and sit down", openTables: "Open tables", noTables: "No open tables.",
    seat: "Seat {n}", person: "a person", level_strong: "computer: strong", level_heuristic: "computer: heuristic",
    level_random: "computer: random", join: "Sit down", watch: "Watch", free: "free",
    status_waiting: "waiting for players", status_playing: "playing", status_between_deals: "between deals",
    status_starting: "starting",
    lastTrick: "Last trick", keysHelp: "Keys: ←/→ choose a card, Enter play, B bid, H hold, P pass, L last trick, S score sheet, N next game, Esc close.",
    forehand: "forehand", middlehand: "middlehand", rearhand: "rearhand", dealer: "dealer", sitsOut: "sits out",
    declarer: "declarer", you: "You", thinking: "thinking…", away: "away",
    cards: "{n} cards", points: "{n} points", tricks: "{n} tricks",
    bidding: "Bidding", yourBid: "Your bid", bidHint: "Computer estimate for your hand: {hint}",
    estimatePass: "pass", estimateUpTo: "up to {v} ({game})",
    bid: "Bid {v}", hold: "Hold {v}", pass: "Pass", playAt18: "Play at {v}", moreBids: "higher…",
    says: "{who}: {what}", saysHold: "yes", saysPass: "pass",
    waitBid: "{who} to bid", auctionWon: "{who} won the auction at {v}",
    skatChoice: "You won the auction at {v}. Pick up the skat or play hand?",
    pickup: "Pick up the skat", playHand: "Play hand…", back: "Back",
    discardPrompt: "Choose two cards to put away ({n}/2)", discard: "Put away",
    declarePrompt: "Announce your game (bid {v})", declareHandPrompt: "Announce your hand game (bid {v})",
    valueExact: "{v}", valueAbout: "≈{v}",
    declaring: "{who} is choosing the game", pickingUp: "{who} looks at the skat",
    declaringYou: "Choose your game", pickingUpYou: "You picked up the skat", auctionWonYou: "You won the auction at {v}",
    plays: "{who} plays {contract}", playsYou: "You play {contract}", bidWas: "bid {v}",
    yourTurn: "Your turn", turnOf: "{who} to play",
    claim: "Claim the rest", resign: "Give up", concede: "Concede", confirmAction: "Really {what}?",
    yes: "Yes", no: "No", close: "Close",
    resultTitle_won: "{who} won", resultTitle_lost: "{who} lost", passedIn: "Passed in: nobody bid.",
    nextGame: "Next game", waitingOthers: "Waiting for the others…", downloadJson: "Game record (JSON)",
    downloadIss: "ISS record", skatWas: "Skat", putAway: "Put away",
    cardPoints: "{d} : {o} card points", matadorsWith: "with {n}", matadorsWithout: "without {n}",
    schneider: "Schneider", schwarz: "Schwarz", overbid: "overbid: the game is worth {v}, the bid was {b}",
    scoreEntry: "Score: {s}", gameValue: "game value {v} = {m} × {b}",
    why_won: "{who} won {contract} {mat}: {pts} card points{extra}. Worth {v}.",
    why_lost: "{who} lost {contract} {mat}: only {pts} card points{extra}. Lost games count double. {s}.",
    why_lost_announce: "{who} lost {contract} {mat}: the announced {what} was not made. {s}.",
    why_overbid: "{who} lost {contract} {mat}, overbid: the game is worth {v} but the bid was {b}. {s}.",
    why_null_won: "{who} won {contract}: no trick taken. Worth {v}.",
    why_null_lost: "{who} lost {contract}: took a trick. {s}.",
    conceded: " (the defenders conceded)", resigned: " (the declarer gave up)",
    sheetTitle: "Score sheet", deal: "Deal", game: "Game", classic: "Classic", seeger: "Seeger-Fabian",
    total: "Total", wonLost: "won / lost", chartTitle: "Running totals", none: "—",
    inviteText: "Send this link to a friend to sit at a free seat:", copy: "Copy", copied: "Copied",
    takeSeat: "Take the free seat", watching: "You are watching.", waitingPlayers: "Waiting for players to join…",
    reconnecting: "Connection lost — reconnecting…", error: "Error",
    game_diamonds: "Diamonds", game_hearts: "Hearts", game_spades: "Spades", game_clubs: "Clubs",
    game_grand: "Grand", game_null: "Null", hand: "Hand", ouvert: "Ouvert", announced_schneider: "Schneider announced",
    announced_schwarz: "Schwarz announced", openHand: "open hand", trickWonBy: "{who} takes the trick",
    dealNo: "Deal {n}", result: "Result", scoresClassic: "Classic", scoresSF: "Seeger-Fabian",
  },
  de: {
    title: "Skat", scoreSheet: "Spielliste", invite: "Einladen", deck: "Blatt", language: "Sprache",
    deckFrench: "Französisch", deckGerman: "Deutsch", deckFour: "Turnierbild",
    newTable: "Neuer Tisch", tableName: "Tischname", yourName: "Dein Name", players: "Spieler", ruleset: "Regeln",
    create: "Tisch anlegen und Platz nehmen", openTables: "Offene Tische", noTables: "Keine offenen Tische.",
    seat: "Platz {n}", person: "ein Mensch", level_strong: "Computer: stark", level_heuristic: "Computer: Heuristik",
    level_random: "Computer: zufällig", join: "Platz nehmen", watch: "Zuschauen", free: "frei",
    status_waiting: "wartet auf Spieler", status_playing: "spielt", status_between_deals: "zwischen zwei Spielen",
    status_starting: "beginnt",
    lastTrick: "Letzter Stich", keysHelp: "Tasten: ←/→ Karte wählen, Enter spielen, B reizen, H halten, P passen, L letzter Stich, S Spielliste, N nächstes Spiel, Esc schließen.",
    forehand: "Vorhand", middlehand: "Mittelhand", rearhand: "Hinterhand", dealer: "Geber", sitsOut: "setzt aus",
    declarer: "Alleinspieler", you: "Du", thinking: "überlegt…", away: "nicht da",
    cards: "{n} Karten", points: "{n} Augen", tricks: "{n} Stiche",
    bidding: "Reizen", yourBid: "Dein Gebot", bidHint: "Schätzung des Computers für dein Blatt: {hint}",
    estimatePass: "passen", estimateUpTo: "bis {v} ({game})",
    bid: "{v} sagen", hold: "{v} halten (ja)", pass: "Passe", playAt18: "Für {v} spielen", moreBids: "höher…",
    says: "{who}: {what}", saysHold: "ja", saysPass: "passe",
    waitBid: "{who} ist mit Reizen dran", auctionWon: "{who} hat das Reizen mit {v} gewonnen",
    skatChoice: "Du hast das Reizen mit {v} gewonnen. Skat aufnehmen oder Hand spielen?",
    pickup: "Skat aufnehmen", playHand: "Hand spielen…", back: "Zurück",
    discardPrompt: "Wähle zwei Karten zum Drücken ({n}/2)", discard: "Drücken",
    declarePrompt: "Sag dein Spiel an (gereizt bis {v})", declareHandPrompt: "Sag dein Handspiel an (gereizt bis {v})",
    valueExact: "{v}", valueAbout: "≈{v}",
    declaring: "{who} sagt das Spiel an", pickingUp: "{who} schaut in den Skat",
    declaringYou: "Sag dein Spiel an", pickingUpYou: "Du hast den Skat aufgenommen", auctionWonYou: "Du hast das Reizen mit {v} gewonnen",
    plays: "{who} spielt {contract}", playsYou: "Du spielst {contract}", bidWas: "gereizt bis {v}",
    yourTurn: "Du bist dran", turnOf: "{who} ist dran",
    claim: "Rest beanspruchen", resign: "Aufgeben", concede: "Abgeben", confirmAction: "Wirklich: {what}?",
    yes: "Ja", no: "Nein", close: "Schließen",
    resultTitle_won: "{who} hat gewonnen", resultTitle_lost: "{who} hat verloren", passedIn: "Eingepasst: niemand hat gereizt.",
    nextGame: "Nächstes Spiel", waitingOthers: "Warte auf die anderen…", downloadJson: "Spielprotokoll (JSON)",
    downloadIss: "ISS-Protokoll", skatWas: "Skat", putAway: "Gedrückt",
    cardPoints: "{d} : {o} Augen", matadorsWith: "mit {n}", matadorsWithout: "ohne {n}",
    schneider: "Schneider", schwarz: "Schwarz", overbid: "überreizt: das Spiel ist {v} wert, gereizt bis {b}",
    scoreEntry: "Wertung: {s}", gameValue: "Spielwert {v} = {m} × {b}",
    why_won: "{who} gewinnt {contract} {mat}: {pts} Augen{extra}. Wert {v}.",
    why_lost: "{who} verliert {contract} {mat}: nur {pts} Augen{extra}. Verlorene Spiele zählen doppelt. {s}.",
    why_lost_announce: "{who} verliert {contract} {mat}: angesagt war {what}, nicht erreicht. {s}.",
    why_overbid: "{who} verliert {contract} {mat}, überreizt: das Spiel ist {v} wert, gereizt bis {b}. {s}.",
    why_null_won: "{who} gewinnt {contract}: keinen Stich bekommen. Wert {v}.",
    why_null_lost: "{who} verliert {contract}: einen Stich bekommen. {s}.",
    conceded: " (die Gegenspieler haben abgegeben)", resigned: " (der Alleinspieler hat aufgegeben)",
    sheetTitle: "Spielliste", deal: "Spiel", game: "Spielart", classic: "Klassisch", seeger: "Seeger-Fabian",
    total: "Summe", wonLost: "gewonnen / verloren", chartTitle: "Punktestand im Verlauf", none: "—",
    inviteText: "Schick diesen Link an Freunde, damit sie sich an einen freien Platz setzen:", copy: "Kopieren", copied: "Kopiert",
    takeSeat: "Freien Platz nehmen", watching: "Du schaust zu.", waitingPlayers: "Warte auf Mitspieler…",
    reconnecting: "Verbindung verloren — verbinde neu…", error: "Fehler",
    game_diamonds: "Karo", game_hearts: "Herz", game_spades: "Pik", game_clubs: "Kreuz",
    game_grand: "Grand", game_null: "Null", hand: "Hand", ouvert: "Ouvert", announced_schneider: "Schneider angesagt",
    announced_schwarz: "Schwarz angesagt", openHand: "offen", trickWonBy: "{who} bekommt den Stich",
    dealNo: "Spiel {n}", result: "Ergebnis", scoresClassic: "Klassisch", scoresSF: "Seeger-Fabian",
  },
};

let LANG = localStorage.getItem("skat.lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en");

function t(key, params) {
  let s = (I18N[LANG] && I18N[LANG][key]) || I18N.en[key] || key;
  if (params) for (const k in params) s = s.split("{" + k + "}").join(params[k]);
  return s;
}

const GERMAN_SUIT_GAMES = {
  en: { diamonds: "Bells", hearts: "Hearts", spades: "Leaves", clubs: "Acorns" },
  de: { diamonds: "Schellen", hearts: "Herz", spades: "Grün", clubs: "Eichel" },
};

function contractText(c) {
  if (!c) return "";
  const german = typeof DECK !== "undefined" && DECK === "german" && GERMAN_SUIT_GAMES[LANG] && GERMAN_SUIT_GAMES[LANG][c.game];
  const words = [german || t("game_" + c.game)];
  if (c.hand && !c.ouvert) words.push(t("hand"));
  if (c.ouvert) words.push(c.game === "null" && c.hand ? t("hand") + " " + t("ouvert") : t("ouvert"));
  else if (c.schwarz) words.push(t("announced_schwarz"));
  else if (c.schneider) words.push(t("announced_schneider"));
  return words.join(" ");
}
