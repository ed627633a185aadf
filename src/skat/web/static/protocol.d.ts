// The messages and answers of the table server as the browser client reads and sends them (docs/protocol.md,
// docs/keeper-server.md, docs/analysis.md). The client's modules import them from here only
// (`import("./protocol")` in their JSDoc). A declaration file: nothing of it runs, the server serves it like any
// static file.
//
// Every type the protocol's JSON Schema describes comes from protocol.generated.d.ts, which `npm run gen:protocol`
// writes from docs/protocol.schema.json (the server's pydantic models): all its exports are exported from here
// under their schema names (State, SkatView, TableCreated, ...), and the names the client's code uses are aliases
// of them below. Written by hand here only: what the schema leaves open (a keeper's list and sheet, the
// analysis's cards, which the models pass on as plain objects), what is the client's own (the keeper's entry
// form, the changes it queues), and the narrowing of a State to one game's page (a Skat table's view and
// totals, an Officers' Skat table's), which the schema says as a union.

import type * as G from "./protocol.generated";

export type * from "./protocol.generated";

/** `T` with the properties of `R` in place of its own (an open object of the schema given the shape the client
 * reads); unlike `Omit`, it keeps the named properties of a `T` that also has an index signature. */
type Refine<T, R> = { [K in keyof T as K extends keyof R ? never : K]: T[K] } & R;

// ------------------------------------------------------------------ cards and seats
// Card, Seat and Position: the generated ones (the schema's inline card, game seat and table position).

/** An action token (`18`, `hold`, `pass`, `pickup`, `discard CT DT`, `declare grand hand`, a card, `kontra`...);
 * the schema says a plain string. */
export type ActionToken = G.Action["action"];

/** A contract's game (with `ramsch`, which a Ramsch deal's result names). */
export type Game = G.Contract["game"];
export type Phase = G.SkatView["phase"];
/** A round of the table (`normal`, `bock`, `pirate_bock`, `ramsch`, `schieber`; the schema says a string). */
export type Round = string;
export type TableStatus = G.TableInfo["status"];

// ------------------------------------------------------------------ TableInfo
/** A table in the lobby's list (GET /api/tables): one this process holds, or one another holds. */
export type LobbyTable = G.LobbyAnswer["tables"][number];

/** A Skat table's info: the schema's TableInfo with the standard game's totals. */
export interface SkatTableInfo extends Omit<G.TableInfo, "totals"> {
  totals: G.SkatTotals;
}

/** An Officers' Skat table's info: the schema's TableInfo with that game's totals. */
export interface OfficersTableInfo extends Omit<G.TableInfo, "totals"> {
  totals: G.OfficersTotals;
}

// ------------------------------------------------------------------ a seat's view of a Skat deal
export type SeatView = G.SkatView;
export type Result = G.SkatResult;
export type RamschBlock = G.RamschOutcome;
/** A trick done: its leader, its three cards in the order played, its winner. */
export type DoneTrick = G.SkatView["tricks"][number];
/** A contract the hints value: its token, contract, value. */
export type ContractHint = G.ContractValue;

// ------------------------------------------------------------------ server -> client (/ws/{table_id})
/** A Skat table's state as the Skat page reads it (the page sends an Officers' Skat table's to that page). */
export interface StateMessage extends Omit<G.State, "table" | "view"> {
  table: SkatTableInfo;
  view: G.SkatView | null;
}

/** An Officers' Skat table's state as the Officers' Skat page reads it. */
export interface OfficersStateMessage extends Omit<G.State, "table" | "view"> {
  table: OfficersTableInfo;
  view: G.OfficersView | null;
}

export type Sheet = G.SkatSheet;
export type WelcomeMessage = G.Welcome;
export type ClosedMessage = G.Closed;
export type StoppedMessage = G.Stopped;
export type PongMessage = G.Pong;
export type SpectatorsMessage = G.Spectators;
// ServerMessage (what a table's WebSocket sends), HintMessage, SheetMessage, ErrorMessage: the generated ones.

// ------------------------------------------------------------------ client -> server (/ws/{table_id})
export type HelloMessage = G.Hello;
export type ActionMessage = G.Action;
export type NextDealMessage = G.NextDeal;
export type PingMessage = G.Ping;
// ClientMessage (what the client sends on a table's WebSocket), StateRequest, SheetRequest, HintRequest: the
// generated ones.

// ------------------------------------------------------------------ REST
/** GET /api/meta */
export type Meta = G.MetaAnswer;
/** POST /api/tables */
export type CreatedTable = G.TableCreated;
/** GET /api/tables/{id}/games: a row of the list. */
export type GameListing = G.GameEntry;
// Joined (POST /api/tables/{id}/join): the generated one.

// ------------------------------------------------------------------ analysis (docs/analysis.md)
// The schema's Analysis leaves its parts open (skat.analysis.GameAnalysis.to_json() owns their shape).

export interface AnalysisCard {
  number: number;
  trick: number;
  seat: G.Seat;
  role: "declarer" | "defender";
  card: G.Card;
  legal: G.Card[];
  best: G.Card[];
  analysed: boolean;
  points_before: number | null;
  wins_before: boolean | null;
  points_after: number | null;
  wins_after: boolean | null;
  cost: number | null;
  turning_point: boolean;
  note?: string | null;
}

export interface AnalysisEnding {
  kind: string;
  seat?: G.Seat | null;
  description: string;
  after_cards: number;
  points: number | null;
  wins: boolean;
  turning_point: boolean;
}

/** GET /api/tables/{id}/games/{n}/analysis: the schema's Analysis with its parts' shapes. */
export type Analysis = Refine<G.Analysis, {
  goal: { kind: string; points?: number; reason?: string | null } | null;
  start: { declarer_points: number | null; declarer_wins: boolean | null };
  actual: { ended_by: string; won: boolean | null; declarer_points: number | null };
  ending: AnalysisEnding | null;
  cards: AnalysisCard[];
}>;

// ------------------------------------------------------------------ Officers' Skat (docs/protocol.md)
/** A pile card: its face, or null where this seat cannot see it. */
export type PileCard = G.OfficersView["own_piles"][number][number];
// OfficersView, OfficersResult: the generated ones.

// ------------------------------------------------------------------ the score keeper (docs/keeper-server.md)
// The schema's list and sheet are open objects (skat.table.keeper owns their shape): written here.

/** A game of a keeper's list as the server takes it (POST /api/keeper/{id}/check, .../games). */
export interface KeeperEntry {
  declarer: string;
  game?: Game;
  hand?: boolean;
  ouvert?: boolean;
  schneider_announced?: boolean;
  schwarz_announced?: boolean;
  with?: number;
  without?: number;
  cards?: G.Card[];
  points?: number;
  result?: "won" | "lost";
  schneider?: boolean;
  schwarz?: boolean;
  bid?: number;
  kontra?: boolean;
  re?: boolean;
  revoke?: "declarer" | "defenders";
  note?: string;
  ramsch?: Record<string, number>;
  jungfrau?: string[];
  durchmarsch?: string;
  pushes?: number;
}

/** The rules of a list, as far as its entry form asks about them. */
export interface KeeperRules {
  ramsch?: boolean;
  ramsch_scoring?: string;
  kontra?: boolean;
  kontra_re?: boolean;
  bid_values?: number[];
  schieberamsch?: boolean;
  bock?: boolean;
  [rule: string]: unknown;
}

/** The keeper's entry form: what has been tapped so far (the typed numbers as typed). The client's own. */
export interface KeeperForm {
  kind: "game" | "passed" | "ramsch" | null;
  declarer: string | null;
  game: Game | null;
  hand: boolean;
  schneider_announced: boolean;
  schwarz_announced: boolean;
  ouvert: boolean;
  matWith: boolean;
  mat: number | null;
  points: string;
  result: "won" | "lost" | null;
  schneider: boolean;
  schwarz: boolean;
  bid: number | null;
  kontra: boolean;
  re: boolean;
  revoke: "declarer" | "defenders" | null;
  note: string;
  ramsch: Record<string, string>;
  jungfrau: string[];
  durchmarsch: string | null;
  pushes: number;
  more: boolean;
  byCards: boolean;
  cards: G.Card[];
}

/** How the server reckoned a game of a list (the English `explanation` in parts, for a page to say in its language). */
export interface KeeperReckoning {
  kind: "passed" | "ramsch" | "null" | "game" | string;
  redeal?: boolean;
  entry?: Record<string, number>;
  durchmarsch?: string | null;
  losers: string[];
  card_points: Record<string, number>;
  pushes?: number;
  jungfrauen: string[];
  multiplier: number;
  value: number;
  levels: [number, string][];
  base: number;
  overbid?: boolean;
  bid: number;
  lost_at: number;
  won: boolean;
  points?: number | null;
  made?: string[];
  missed?: string | null;
  factor: number;
  kontra?: number;
  score: number;
  revoke?: string | null;
  instead_of_ramsch?: boolean;
  round_doubled?: boolean;
  trigger_doubled?: boolean;
  events?: unknown[];
}

/** A game of a list's sheet. */
export interface KeeperLine {
  number: number;
  entry?: KeeperEntry | null;
  struck?: boolean;
  declarer: string | null;
  dealer: string;
  seats?: string[];
  scores: number[];
  totals: number[];
  won?: boolean;
  bid?: number;
  value?: number | null;
  round?: string;
  bock?: boolean;
  kontra?: number;
  explanation?: string;
  reckoning?: KeeperReckoning | null;
}

export interface KeeperSheet {
  players: string[];
  rules: KeeperRules;
  games: KeeperLine[];
  played: number;
  limit?: number | null;
  next_dealer: string;
  upcoming_round?: string | null;
  totals: number[];
  games_won: number[];
  games_lost: number[];
  seeger_fabian: number[];
  settlement: number[];
  settle?: "average" | "pairwise";
  balance: number[];
  money?: number[] | null;
  price?: string | number | null;
}

/** A change of the list's history. */
export interface KeeperHistoryItem { action: string; at: string; author?: string; entry?: KeeperEntry; reason?: string }

/** A game of the list as stored: its entry with its history. */
export interface KeeperStoredGame extends KeeperEntry { history?: KeeperHistoryItem[]; struck?: boolean }

/** A list's state (GET /api/keeper/{id}, each `list` message of /ws/keeper/{id}, a change's answer: the
 * schema's KeeperState, ListMessage, ChangesAnswer) with its list and sheet; a new list's answer adds its `key`. */
export interface KeeperState extends Omit<G.KeeperState, "list" | "sheet"> {
  list: { players?: string[]; games?: KeeperStoredGame[] };
  sheet: KeeperSheet;
  key?: string;
}

/** Why the server refused an entry or a change: its code and values for the page's words, and its English
 * message (the schema's ChangeResult and CheckAnswer; an HTTP refusal's `error`). */
export interface KeeperRefusal {
  code?: string | null;
  params?: KeeperParams | null;
  message?: string | null;
  error?: string | null;
}

/** A refusal's values for the page's words (the schema: an open object). */
export type KeeperParams = Record<string, string | number>;

/** A change of the list as the keeper's page queues and sends it (POST /api/keeper/{id}/changes). */
export interface KeeperChange {
  id: G.Change["id"];
  op: G.Change["op"];
  author: string;
  at: string;
  entry?: KeeperEntry;
  number?: number;
  reason?: string;
  /** Set by the page: the server refused it, and why. */
  error?: string;
}

/** The server's answer to one change: done (with its number), or refused. */
export type KeeperResult = Refine<G.ChangeResult, { params?: KeeperParams | null }>;

// ------------------------------------------------------------------ tournaments (docs/keeper-server.md, "Tournaments")
export type RankingRow = G.Standing;
/** A tournament's state (GET /api/tournaments/{id}, each `tournament` message of /ws/tournament/{id}); a
 * director's answer (the schema's DrawAnswer) adds the keeper links of each series. */
export interface TournamentState extends G.TournamentState {
  keys?: G.SeriesKeys[];
}
// TournamentSeries, TournamentTable, SeriesKeys, KeeperMeta (GET /api/keeper/meta): the generated ones.
