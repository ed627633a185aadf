// The messages and answers of the table server as the browser client reads and sends them (docs/protocol.md,
// docs/keeper-server.md, docs/analysis.md), written by hand. They are kept in this one file so that types
// generated from the protocol's JSON Schema (docs/protocol.schema.json) can take its place: the client's
// modules import them from here only (`import("./protocol")` in their JSDoc). A declaration file: nothing of it
// runs, the server serves it like any static file.

// ------------------------------------------------------------------ cards and seats
/** A card in ISS notation: suit letter (C S H D) and rank (7 8 9 T J Q K A): "CJ", "HT", "D7". */
export type Card = string;
/** A game seat: 0 forehand, 1 middlehand, 2 rearhand (Officers' Skat: 0 forehand, 1 dealer). */
export type Seat = number;
/** A table position: where a person sits, 0 .. n_players - 1; the seats move round the positions deal by deal. */
export type Position = number;
/** An action token (`18`, `hold`, `pass`, `pickup`, `discard CT DT`, `declare grand hand`, a card, `kontra`...). */
export type ActionToken = string;

export type Game = "diamonds" | "hearts" | "spades" | "clubs" | "grand" | "null";
export type Phase = "bidding" | "skat" | "discard" | "declare" | "play" | "finished" | "grand_hand" | "push";
export type Round = "normal" | "bock" | "pirate_bock" | "ramsch" | "schieber";
export type TableStatus = "waiting" | "starting" | "playing" | "between_deals" | "finished" | "paused" | "stopped";

export interface Contract {
  game: Game;
  hand?: boolean;
  ouvert?: boolean;
  schneider?: boolean;
  schwarz?: boolean;
}

// ------------------------------------------------------------------ TableInfo
export interface SeatInfo {
  position: Position;
  kind: "human" | "bot";
  name: string | null;
  bot: string | null;
  taken: boolean;
  connected: boolean;
  game_seat?: Seat | null;
}

export interface Upcoming {
  round: Round | null;
  queued?: Round[];
  next_pirate_threshold?: number | null;
}

export interface TableInfo {
  id: string;
  name: string;
  variant: "skat" | "officers" | string;
  officers_variant?: string;
  ruleset: string | null;
  options?: Record<string, unknown>;
  seeded?: boolean;
  public: boolean;
  hints: boolean;
  n_players: number;
  status: TableStatus;
  stopped: string | null;
  deal_no: number;
  game_no?: number;
  round: Round | null;
  upcoming: Upcoming | null;
  dealer: Position;
  /** The position of seat 0, 1, 2. */
  positions: Position[];
  seats: SeatInfo[];
  ready: Position[];
  spectators?: number;
  totals: { classic: number[]; seeger_fabian: number[] };
}

/** A table in the lobby's list (GET /api/tables). */
export interface LobbyTable {
  id: string;
  name: string;
  variant?: string;
  status: TableStatus;
  seats: { taken: boolean; name: string | null }[];
}

// ------------------------------------------------------------------ SeatView
export interface Outcome {
  won: boolean;
  score: number;
  game_value: number;
  base_value?: number;
  multiplier?: number;
  matadors: number;
  matadors_with: boolean;
  overbid: boolean;
  bid: number;
  schneider: boolean;
  schwarz: boolean;
  declarer_points: number;
}

export interface RamschBlock {
  card_points: number[];
  tricks: number[];
  losers: Seat[];
  jungfrauen: Seat[];
  durchmarsch: Seat | null | false;
  pushes: number;
  multiplier: number;
  scores?: number[];
  explanation?: string;
}

export interface Result {
  kind: string;
  declarer: Seat;
  contract: Contract | null;
  bid: number;
  won?: boolean;
  declarer_points: number | null;
  defender_points: number | null;
  skat: Card[];
  discard: Card[] | null;
  outcome: Outcome | null;
  scores: number[];
  explanation: string;
  ramsch?: RamschBlock | null;
  kontra_level?: number;
  game_name?: string | null;
}

/** A trick done: its leader, its three cards in the order played, its winner. */
export type DoneTrick = [Seat, Card[], Seat];

export interface SeatView {
  seat: Seat | null;
  phase: Phase;
  to_move: Seat | null;
  hand: Card[];
  legal_actions: ActionToken[];
  side_actions: ActionToken[];
  auction: [Seat, ActionToken][];
  bid: number;
  declarer: Seat | null;
  contract: Contract | null;
  skat: Card[] | null;
  discard: Card[] | null;
  open_hands: Record<string, Card[]>;
  trick: [Seat, Card][];
  tricks: DoneTrick[];
  trick_points?: number[];
  hand_sizes: number[];
  result: Result | null;
  ruleset: string;
  kontra_level: number;
}

// ------------------------------------------------------------------ hints
export interface Matadors { with: boolean; count: number }

export interface BidEstimate {
  value: number;
  game: Game | null;
  hand: boolean;
  p?: number;
  matadors?: Matadors | null;
  trumps?: number;
  aces?: number;
  tens?: number;
}

export interface ContractHint {
  token: ActionToken;
  contract: Contract;
  value: number;
  exact: boolean;
  matadors?: Matadors | null;
}

export interface AuctionTurn { seat: Seat; asks: "bid" | "hold" | "play"; value: number }

export interface Hints {
  bid_estimate?: BidEstimate | null;
  contracts?: ContractHint[];
  sorted?: { hand: Card[]; open: Record<string, Card[]> };
  auction_turn?: AuctionTurn | null;
}

// ------------------------------------------------------------------ server -> client
export interface You { position: Position | null; seat: Seat | null; role: "player" | "spectator" }

export interface StateMessage {
  type: "state";
  protocol?: number;
  seq: number;
  stopped: string | null;
  table: TableInfo;
  you: You;
  view: SeatView | null;
  hints: Hints;
  dealt: { hands: Card[][]; skat: Card[] } | null;
}

export interface HintWhy { key: string; card?: Card; points?: number; n?: number; k?: number; [value: string]: unknown }

export interface HintMessage { type: "hint"; card: Card; reason: string; why: HintWhy[]; seq: number }

export interface SheetRow {
  deal_no: number;
  dealer: Position;
  declarer: Position | null;
  game: string;
  contract: string | null;
  won: boolean;
  score: number;
  scores: number[];
  round: Round | null;
  bock: boolean;
  kontra: number;
  events?: unknown[];
  /** The running totals per position, classic and Seeger-Fabian. */
  classic: number[];
  seeger: number[];
  bid: number;
  value: number | null;
  matadors: number | null;
  matadors_with: boolean | null;
  hand: boolean;
  ouvert: boolean;
  schneider_announced: boolean;
  schwarz_announced: boolean;
  schneider: boolean;
  schwarz: boolean;
  overbid: boolean;
}

export interface Sheet {
  n_players: number;
  ruleset: string;
  rows: SheetRow[];
  classic: number[];
  seeger_fabian: number[];
  won: number[];
  lost: number[];
  settlement?: number[];
  upcoming?: Upcoming | null;
}

export interface SheetMessage { type: "sheet"; sheet: Sheet }
export interface WelcomeMessage { type: "welcome"; protocol: number; table_id: string; position: Position | null; role: "player" | "spectator" }
export interface ErrorMessage { type: "error"; code: string; message: string }
export interface ClosedMessage { type: "closed"; table_id: string; message: string; reason?: string }
export interface StoppedMessage { type: "stopped"; table_id: string; reason: string }
export interface PongMessage { type: "pong"; t?: unknown }

/** What a Skat table's WebSocket sends. */
export type ServerMessage = StateMessage | HintMessage | SheetMessage | WelcomeMessage | ErrorMessage | ClosedMessage
  | StoppedMessage | PongMessage;

// ------------------------------------------------------------------ client -> server
export interface HelloMessage { type: "hello"; protocol: number; token?: string; invite?: string }
export interface ActionMessage { type: "action"; action: ActionToken; seq?: number }
export interface NextDealMessage { type: "next_deal" }
export interface StateRequest { type: "state" }
export interface SheetRequest { type: "sheet" }
export interface PingMessage { type: "ping"; t?: unknown }
export interface HintRequest { type: "hint" }

/** What the client sends on a table's WebSocket. */
export type ClientMessage = HelloMessage | ActionMessage | NextDealMessage | StateRequest | SheetRequest | PingMessage
  | HintRequest;

// ------------------------------------------------------------------ REST
/** GET /api/meta */
export interface Meta {
  levels: string[];
  rulesets: string[];
  default_level: string;
  ruleset_descriptions?: Record<string, string>;
  iss_records?: boolean;
}

/** POST /api/tables */
export interface CreatedTable { table_id: string; position: Position | null; token: string; invite: string | null }

/** POST /api/tables/{id}/join */
export interface Joined { table_id: string; position: Position; token: string }

/** GET /api/tables/{id}/games: a row of the list. */
export interface GameListing { deal_no: number; sheet_row?: { deal_no: number } | null }

// ------------------------------------------------------------------ analysis (docs/analysis.md)
export interface AnalysisCard {
  number: number;
  trick: number;
  seat: Seat;
  role: "declarer" | "defender";
  card: Card;
  legal: Card[];
  best: Card[];
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
  seat?: Seat | null;
  description: string;
  after_cards: number;
  points: number | null;
  wins: boolean;
  turning_point: boolean;
}

export interface Analysis {
  skipped?: string | null;
  contract: string | null;
  declarer: Seat | null;
  bid: number;
  players?: string[];
  positions?: (Position | null)[];
  goal?: { kind: string; points?: number; reason?: string | null } | null;
  start: { declarer_points: number | null; declarer_wins: boolean | null };
  actual: { ended_by: string; won: boolean | null; declarer_points: number | null };
  ending?: AnalysisEnding | null;
  cards: AnalysisCard[];
  points_lost: number[];
  turning_points_by_seat: number[];
  not_analysed: number[];
  time_limit: number;
}

// ------------------------------------------------------------------ Officers' Skat (docs/protocol.md)
/** A pile card: its face, or null where this seat cannot see it. */
export type PileCard = Card | null;

export interface OfficersResult {
  kind: string;
  game: string | null;
  contract?: OfficersView["contract"];
  skat?: Card[] | null;
  chooser: Seat | null;
  points: number[];
  tricks: number[];
  outcome?: { winner?: Seat | null; [fact: string]: unknown } | null;
  scores: number[];
  explanation: string;
}

export interface OfficersView {
  seat: Seat | null;
  variant: string;
  phase: "choose" | "kontra" | "re" | "bidding" | "skat" | "discard" | "declare" | "play" | "finished";
  to_move: Seat | null;
  legal_actions: ActionToken[];
  chooser: Seat | null;
  game: string | null;
  contract: { game: string; hand?: boolean; schneider?: boolean; schwarz?: boolean } | null;
  kontra_level: number;
  bid: number;
  auction: [Seat, ActionToken][];
  own_piles: PileCard[][];
  opponent_piles: PileCard[][];
  hand: Card[];
  opponent_hand_size: number;
  opponent_hand?: Card[] | null;
  skat: Card[] | null;
  discard: Card[] | null;
  skat_size: number;
  trick: [Seat, Card][];
  tricks: [Seat, Card[], Seat][];
  trick_points: number[];
  tricks_won: number[];
  result: OfficersResult | null;
  options: Record<string, unknown>;
}

export interface OfficersTableInfo extends Omit<TableInfo, "totals"> {
  totals: { scores: number[] };
}

export interface OfficersStateMessage extends Omit<StateMessage, "view" | "table"> {
  table: OfficersTableInfo;
  view: OfficersView | null;
}

// ------------------------------------------------------------------ the score keeper (docs/keeper-server.md)
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
  cards?: Card[];
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

/** The keeper's entry form: what has been tapped so far (the typed numbers as typed). */
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
  cards: Card[];
}

// ------------------------------------------------------------------ tournaments (docs/keeper-server.md, "Tournaments")
export interface TournamentTable {
  table: number;
  players: string[];
  played: number;
  limit: number;
  url: string;
}

export interface TournamentSeries { number: number; tables: TournamentTable[] }

export interface RankingRow {
  rank: number;
  player: string;
  points: number;
  won: number;
  lost: number;
  series: (number | null)[];
  withdrawn?: boolean;
}

/** The keeper links of a series' tables: the director's only (GET .../keys). */
export interface SeriesKeys { number: number; tables: { table: number; keeper_url: string }[] }

/** A tournament's state (GET /api/tournaments/{id}, and each `tournament` message of /ws/tournament/{id}). */
export interface TournamentState {
  id: string;
  seq: number;
  name: string;
  url: string;
  ruleset: string;
  games: Record<"3" | "4", number>;
  players: string[];
  active: string[];
  withdrawn: string[];
  series: TournamentSeries[];
  ranking: RankingRow[];
  /** With a director's answer: the keeper links. */
  keys?: SeriesKeys[];
}

/** GET /api/keeper/meta: the rule sets a list or a tournament may use. */
export interface KeeperMeta {
  rulesets: { name: string; description?: string; rules?: KeeperRules; [about: string]: unknown }[];
  default_ruleset: string;
  [about: string]: unknown;
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

/** A list's state (GET /api/keeper/{id}, a change's answer, each `list` message of /ws/keeper/{id}). */
export interface KeeperState {
  id: string;
  seq: number;
  name?: string | null;
  list?: { players?: string[]; games?: KeeperStoredGame[] } | null;
  sheet: KeeperSheet;
  tournament?: { series: number; table: number } | null;
  url?: string;
  key?: string;
}

/** Why the server refused an entry or a change: its code and values for the page's words, and its English message. */
export interface KeeperRefusal { code?: string; params?: Record<string, string | number>; message?: string; error?: string }

/** A change of the list as the keeper's page queues and sends it (POST /api/keeper/{id}/changes). */
export interface KeeperChange {
  id: string;
  op: "add" | "edit" | "strike" | "restore";
  author: string;
  at: string;
  entry?: KeeperEntry;
  number?: number;
  reason?: string;
  /** Set by the page: the server refused it, and why. */
  error?: string;
}

/** The server's answer to one change: done (with its number), or refused. */
export interface KeeperResult extends KeeperRefusal { id: string; ok: boolean; number?: number }
