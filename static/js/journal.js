// A phone's journal of acknowledged actions, per tournament and table (not per server address):
// every action the server answered "recorded #N" is kept here with its key and body, for a
// day of one table, so that a server restored from an older backup gets back, in order and
// once each, the records it lost. Pure functions over a plain object
// ({highest, entries: [{key, seq, at, ...}]}), stored by the page (static/js/outbox.js);
// node's test runner drives them (tests/js/journal.test.mjs).
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) { module.exports = factory(); }
  else { root.DuneJournal = factory(); }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // The words a judge reads, from the page's JavaScript catalogue when it is loaded (node's
  // tests have none: the words stay as written).
  var host = typeof self !== "undefined" ? self : {};
  var gettext = host.gettext || function (s) { return s; };
  var ngettext = host.ngettext || function (s, p, n) { return n === 1 ? s : p; };

  var DAY_MS = 24 * 3600 * 1000;
  var MAX_ENTRIES = 1000;  // a long day of one table is a few hundred records

  function empty() { return { highest: 0, entries: [] }; }

  function keyOf(tournament, table) { return "dune-journal-v1:" + tournament + ":" + table; }

  // Keep the last day's entries, at most MAX_ENTRIES, ordered by record number.
  function prune(journal, now) {
    var kept = journal.entries.filter(function (e) { return now - e.at < DAY_MS; })
      .sort(function (a, b) { return a.seq - b.seq; });
    return { highest: journal.highest, entries: kept.slice(Math.max(0, kept.length - MAX_ENTRIES)) };
  }

  // The server answered "recorded #seq" for this action: into the journal (once per key).
  function recorded(journal, entry, now) {
    var seq = parseInt(entry.seq, 10);
    if (!(seq > 0)) { return journal; }
    var entries = journal.entries.filter(function (e) { return e.key !== entry.key && e.seq !== seq; });
    var kept = {};
    Object.keys(entry).forEach(function (k) { kept[k] = entry[k]; });
    kept.seq = seq;
    kept.at = now;
    entries.push(kept);
    return prune({ highest: Math.max(journal.highest, seq), entries: entries }, now);
  }

  // The server showed record #seq for the table: the highest this phone was told.
  function saw(journal, seq) {
    return { highest: Math.max(journal.highest, seq || 0), entries: journal.entries };
  }

  // How far the server is behind what this phone was told (0 when it is not).
  function behind(journal, serverSeq) { return Math.max(0, journal.highest - serverSeq); }

  // The acknowledged records the server lacks, in order: to send again with their own keys.
  function missing(journal, serverSeq) {
    return journal.entries.filter(function (e) { return e.seq > serverSeq; })
      .sort(function (a, b) { return a.seq - b.seq; });
  }

  // A server that answers "the game moved on" to an action made against record #expected while
  // it shows only #serverSeq has not moved on: it lost records #serverSeq+1..#expected. When this
  // phone holds every one of them, that is no conflict: they are sent again and the action goes
  // after them. Returns the lost range {from, to}, or null (a real conflict, or records this
  // phone does not hold: another phone made them).
  function lost(journal, serverSeq, expected) {
    if (!(serverSeq >= 0) || !(expected > serverSeq)) { return null; }
    var held = {};
    journal.entries.forEach(function (e) { held[e.seq] = true; });
    for (var seq = serverSeq + 1; seq <= expected; seq++) {
      if (!held[seq]) { return null; }
    }
    return { from: serverSeq + 1, to: Math.max(expected, journal.highest) };
  }

  // The words for a lost range, from the page's (translated) templates: `one` names one record
  // (%(from)s), `many` a range (%(from)s, %(to)s).
  function lostWords(range, templates) {
    var t = templates || {};
    var one = t.one || gettext("The server lost record #%(from)s; sending it again.");
    var many = t.many || gettext("The server lost records #%(from)s–#%(to)s; sending them again.");
    return (range.from === range.to ? one : many).replace("%(from)s", String(range.from)).replace("%(to)s", String(range.to));
  }

  function words(sentAgain) {
    return ngettext("%(count)s record sent again after the server was restored",
      "%(count)s records sent again after the server was restored", sentAgain).replace("%(count)s", String(sentAgain));
  }

  return { DAY_MS: DAY_MS, MAX_ENTRIES: MAX_ENTRIES, empty: empty, keyOf: keyOf, prune: prune, recorded: recorded,
    saw: saw, behind: behind, missing: missing, words: words, lost: lost, lostWords: lostWords };
});
