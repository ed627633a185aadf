// The chat's decisions (src/skat/web/static/chat.js): which messages a reader sees, what a message says in the
// reader's language, the refusals' words, the unread count and the muted list kept.
import assert from "node:assert/strict";
import { test } from "node:test";

import { errorText, isChatError, KEEP, lineText, loadMutes, merge, PHRASES, saveMutes, shown, unreadAfter }
  from "../../src/skat/web/static/chat.js";

/** A chat message as the server sends it. */
function line(id, { author = "a1", position = 0, channel = "players", text = "hi", phrase = null, name = "Anna" } = {}) {
  return { id, channel, from: { name, position, author }, text, phrase, at: 1.5 };
}

const words = (key, params) => key + (params ? JSON.stringify(params) : "");

test("merging keeps each message once, in order, the last ones", () => {
  const merged = merge([line(2), line(1)], [line(3), line(2, { text: "again" })]);
  assert.deepEqual(merged.map((l) => l.id), [1, 2, 3]);
  assert.equal(merged[1].text, "again");
  const many = merge([], Array.from({ length: KEEP + 5 }, (_, i) => line(i + 1)));
  assert.equal(many.length, KEEP);
  assert.equal(many[0].id, 6);
});

test("a muted author and, when hidden, the spectators' channel are not shown", () => {
  const lines = [line(1), line(2, { author: "b2", position: 1 }), line(3, { author: "s3", position: null, channel: "spectators" })];
  assert.deepEqual(shown(lines, { mutes: new Map([["b2", "Bert"]]), hideSpectators: false }).map((l) => l.id), [1, 3]);
  assert.deepEqual(shown(lines, { mutes: new Set(), hideSpectators: true }).map((l) => l.id), [1, 2]);
});

test("a phrase is said in the reader's words, a text as it was written (markup too)", () => {
  assert.equal(lineText(line(1, { text: null, phrase: "well_played" }), words), "phrase_well_played");
  assert.equal(lineText(line(1, { text: "<b>x</b>" }), words), "<b>x</b>");
  assert.equal(lineText(line(1, { text: null, phrase: "unknown" }), words), "unknown");
  assert.deepEqual(PHRASES, ["hello", "good_luck", "well_played", "good_game", "thanks", "sorry", "oops", "bye"]);
});

test("the chat's refusals have words of their own; others are said with the server's message", () => {
  for (const code of ["chat_too_long", "chat_empty", "chat_flood", "chat_muted", "chat_forbidden", "bad_phrase", "signed_out"]) {
    assert.equal(errorText(code, "x", words), "err_" + code);
  }
  assert.equal(errorText("db_unavailable", "the database is away", words), 'err_other{"message":"the database is away"}');
  assert.ok(isChatError("chat_flood") && isChatError("bad_phrase") && !isChatError("stale"));
});

test("unread messages are the others' after the last one seen", () => {
  const lines = [line(1), line(2, { position: 1 }), line(3, { position: 1 }), line(4)];
  assert.equal(unreadAfter(lines, 1, 0), 2);
  assert.equal(unreadAfter(lines, 0, null), 4);
});

test("the muted list is kept, and a broken one reads as empty", () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  saveMutes(new Map([["b2", "Bert"]]), storage);
  assert.deepEqual([...loadMutes(storage)], [["b2", "Bert"]]);
  store.set("skat.chat.muted", "[1, 2");
  assert.equal(loadMutes(storage).size, 0);
  store.set("skat.chat.muted", JSON.stringify(["x"]));
  assert.equal(loadMutes(storage).size, 0);
});
