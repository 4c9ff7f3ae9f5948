// The phone's journal of acknowledged actions (static/js/journal.js), under node --test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const journal = require("../../static/js/journal.js");

const T0 = Date.UTC(2026, 6, 28, 9, 0, 0);

function withRecords(seqs, at = T0) {
  let j = journal.empty();
  for (const seq of seqs) { j = journal.recorded(j, { key: "k" + seq, seq: String(seq), label: "a" + seq }, at); }
  return j;
}

test("keyed by tournament and table, not by the server's address", () => {
  assert.equal(journal.keyOf(3, 12), "dune-journal-v1:3:12");
});

test("a restored server lacks what came after its backup: those, in order, each once", () => {
  const j = withRecords([18, 19, 20, 21]);
  assert.equal(j.highest, 21);
  assert.equal(journal.behind(j, 17), 4);
  assert.deepEqual(journal.missing(j, 17).map((e) => e.key), ["k18", "k19", "k20", "k21"]);
  assert.deepEqual(journal.missing(j, 19).map((e) => e.seq), [20, 21]);
  assert.equal(journal.behind(j, 21), 0);
  assert.deepEqual(journal.missing(j, 21), []);
});

test("the same key recorded twice (a replayed answer) is one entry", () => {
  let j = withRecords([5]);
  j = journal.recorded(j, { key: "k5", seq: "5" }, T0 + 1000);
  assert.equal(j.entries.length, 1);
});

test("a record number seen on the page counts as told, even without an entry", () => {
  const j = journal.saw(withRecords([5]), 9);
  assert.equal(j.highest, 9);
  assert.equal(journal.behind(j, 7), 2);
  assert.deepEqual(journal.missing(j, 7), []);  // the phone only sends again what it recorded
});

test("bounded: a day of one table, at most MAX_ENTRIES", () => {
  let j = withRecords([1, 2], T0);
  j = journal.recorded(j, { key: "late", seq: 3 }, T0 + journal.DAY_MS + 1);
  assert.deepEqual(j.entries.map((e) => e.seq), [3]);
  let big = journal.empty();
  for (let s = 1; s <= journal.MAX_ENTRIES + 50; s++) { big = journal.recorded(big, { key: "k" + s, seq: s }, T0); }
  assert.equal(big.entries.length, journal.MAX_ENTRIES);
  assert.equal(big.entries[0].seq, 51);
  assert.equal(big.highest, journal.MAX_ENTRIES + 50);
});

test("what the judge reads", () => {
  assert.equal(journal.words(3), "3 records sent again after the server was restored");
  assert.equal(journal.words(1), "1 record sent again after the server was restored");
});

test("a server showing fewer records than an action was made against lost them: no conflict", () => {
  const j = withRecords([33, 34, 35]);
  assert.deepEqual(journal.lost(j, 32, 35), { from: 33, to: 35 });
  assert.equal(journal.lostWords(journal.lost(j, 32, 35)), "The server lost records #33–#35; sending them again.");
  assert.equal(journal.lostWords(journal.lost(j, 34, 35)), "The server lost record #35; sending it again.");
  assert.equal(journal.lostWords({ from: 33, to: 51 }, { many: "Perdus : #%(from)s à #%(to)s." }), "Perdus : #33 à #51.");
});

test("a record this phone does not hold, or a server ahead of the action, is a real conflict", () => {
  const j = withRecords([33, 35]);
  assert.equal(journal.lost(j, 32, 35), null);  // #34 came from another phone
  assert.equal(journal.lost(withRecords([33]), 34, 33), null);  // the game moved on
  assert.equal(journal.lost(withRecords([33]), 33, 33), null);
});
