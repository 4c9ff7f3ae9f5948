// The outbox's rules, apart from any page: a small state machine over each action a phone
// sends, and the loop that sends them in order. Pages (static/js/outbox.js for the table page,
// static/js/page_outbox.js for the other phone forms) give it a store, a way to send and a way
// to ask the server about the session; node's test runner drives it with fakes
// (tests/js/outbox_core.test.mjs, run by tests/platform/test_outbox_js.py).
//
// An action is in one of six states:
//   queued      waiting to be sent (again), perhaps with the last problem it met in `problem`
//   sending     on its way (a reload in between finds it `queued` again: same key, sent again)
//   recorded    the server recorded it (or recognised its key as recorded): it leaves the queue
//   refused     the server answered and recorded nothing (a rule, a conflict, 404, 413, ...):
//               it stays, in view with the reason, until the judge retries or discards it
//   signin      not signed in, or signed in as someone who may not record it: it stays until
//               a sign-in (on the page, in place) lets it go again
//   discarded   the judge tapped "Discard": it leaves the queue
// Only `recorded` and `discarded` leave. Every other answer keeps the action, in order: the
// first action that cannot go holds the ones behind it (they were made after it).
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) { module.exports = factory(); }
  else { root.DuneOutboxCore = factory(); }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // The words a judge reads come from the page's JavaScript catalogue (/jsi18n/<lang>/, loaded
  // before this script); without one (node's tests) they stay as written.
  var host = typeof self !== "undefined" ? self : {};
  var gettext = host.gettext || function (s) { return s; };
  var ngettext = host.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = host.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };

  var STATES = ["queued", "sending", "recorded", "refused", "signin", "discarded"];
  var LEAVES = { recorded: true, discarded: true };
  var LOGIN_PATH = /\/accounts\/login\//;

  function copy(item, changes) {
    var out = {};
    Object.keys(item).forEach(function (k) { out[k] = item[k]; });
    Object.keys(changes || {}).forEach(function (k) { out[k] = changes[k]; });
    return out;
  }

  // --- answers -------------------------------------------------------------------------------
  // What a fetch answered, in the terms the rules need. `response` is a fetch Response (or a
  // look-alike), `text` its body. Headers the server sets for the outbox:
  //   X-Record: the record number (or "done") of a recorded write;
  //   X-Refused: "sign-in" (no session), "csrf" (the form's token is out of date),
  //              "forbidden" (signed in, but this account may not do it).
  // `extra`: what the page read in the body ({refusal: "rule: message", stale: true}).
  function answerOf(response, text, extra) {
    var h = response.headers;
    var get = function (name) { return h && h.get ? h.get(name) : null; };
    return copy(extra || {}, {
      status: response.status,
      record: get("X-Record"),
      refused: get("X-Refused"),
      location: get("X-Location"),
      retryAfter: parseInt(get("Retry-After") || "", 10) || 0,
      loginPage: !!(response.redirected && LOGIN_PATH.test(response.url || "")),
      html: text || ""
    });
  }

  // What an answer means for the action: the state it goes to and the words the judge reads
  // (`reason`: what happened; `todo`: what to do). `refusal` is the refusal's own text (its
  // rule and message) when the page found one in the answer.
  function classify(answer) {
    if (!answer || answer.network) {
      return { kind: "network", state: "queued", reason: gettext("No connection to the server."),
        todo: gettext("It is sent by itself when the phone is back online.") };
    }
    var s = answer.status;
    if (s >= 200 && s < 300 && answer.record) {
      return { kind: "recorded", state: "recorded", record: answer.record, location: answer.location };
    }
    if (answer.loginPage || s === 401 || (s === 403 && answer.refused === "sign-in")) {
      return { kind: "signed-out", state: "signin", reason: gettext("Not signed in on this server: the sign-in ran out, or the event moved to another laptop (a spare took over)."),
        todo: gettext("Sign in again to send it.") };
    }
    if (s === 403 && answer.refused === "csrf") {
      return { kind: "csrf", state: "queued", refresh: true, reason: gettext("The page's security token was out of date."),
        todo: gettext("A new one is fetched and the action sent again.") };
    }
    if (s === 403 && answer.refused === "forbidden") {
      return { kind: "not-judge", state: "signin",
        reason: gettext("Refused: this account is not this table's judge (nor a head judge)."),
        todo: gettext("A head judge or this table's judge signs in here to send it, or discard it.") };
    }
    if (s === 403 && answer.refusal) {  // a command refused for who may do it, with its words
      return { kind: "refused", state: "refused", reason: interpolate(gettext("Refused: %(refusal)s"), { refusal: answer.refusal }, true), todo: gettext("Discard it, or retry.") };
    }
    if (s === 403) {  // a 403 that does not say why: ask the server about the session
      return { kind: "forbidden-unknown", state: "queued", refresh: true, reason: gettext("Refused (403) without a reason."),
        todo: gettext("The phone checks its sign-in and sends it again.") };
    }
    if (s >= 200 && s < 300) {
      return { kind: "unexpected", state: "queued",
        reason: gettext("The answer was a page this phone did not expect (a Wi-Fi sign-in page?): not known to be recorded."),
        todo: gettext("Open any web page to pass the Wi-Fi's sign-in, then Retry; the server records it at most once.") };
    }
    if (s === 409 && answer.stale) {
      return { kind: "conflict", state: "refused", reason: gettext("Not sent: the game moved on while this phone waited."),
        todo: gettext("Send it on the new position, or discard it.") };
    }
    if (s === 404) {
      return { kind: "not-found", state: "refused",
        reason: gettext("Not sent: this server does not know the page (404) — the table may not be on it (yet)."),
        todo: gettext("Retry once the head judge has restored the event, or discard it.") };
    }
    if (s === 413) {
      return { kind: "too-large", state: "refused", reason: gettext("Refused: too large for the server (413)."),
        todo: gettext("Discard it and record it in smaller parts.") };
    }
    if (s === 429 || s >= 500) {
      return { kind: "server", state: "queued", retryAfter: answer.retryAfter,
        reason: interpolate(gettext("The server could not answer (%(status)s)."), { status: s }, true),
        todo: gettext("It is sent again by itself in a moment, or Retry.") };
    }
    if (s >= 400 && s < 500) {
      // `insertBefore`: the record the engine found it holds before (out of order after records
      // made later): the judge may record it there, as a logged correction.
      return { kind: "refused", state: "refused", insertBefore: answer.insertBefore || null,
        reason: answer.refusal ? interpolate(gettext("Refused: %(refusal)s"), { refusal: answer.refusal }, true)
          : interpolate(gettext("Refused (%(status)s)."), { status: s }, true),
        todo: gettext("Discard it (the form keeps what was entered), or retry.") };
    }
    return { kind: "unexpected", state: "queued", reason: interpolate(gettext("Unexpected answer (%(status)s)."), { status: s }, true),
      todo: gettext("Retry.") };
  }

  // The action after an answer.
  function apply(item, outcome) {
    if (outcome.state === "recorded") {
      return copy(item, { state: "recorded", record: outcome.record, problem: null });
    }
    return copy(item, { notBefore: null,
      state: outcome.state,
      problem: { kind: outcome.kind, reason: outcome.reason, todo: outcome.todo, insertBefore: outcome.insertBefore || null },
      attempts: (item.attempts || 0) + 1
    });
  }

  // --- the judge's taps --------------------------------------------------------------------
  function discard(item) {
    if (item.state === "recorded" || item.state === "sending") {
      throw new Error("a " + item.state + " action cannot be discarded");
    }
    return copy(item, { state: "discarded" });
  }
  function retry(item) {
    if (LEAVES[item.state] || item.state === "sending") { return item; }
    return copy(item, { state: "queued", notBefore: null });
  }
  // The judge's "Earlier": an action not yet recorded goes before the one ahead of it (a move
  // entered late that belongs before shipments still waiting). The two swap their places in the
  // queue; nothing is voided. Returns the changed pair, or [] when it cannot move (first,
  // recorded, or on its way).
  function moveEarlier(items, key) {
    var open = items.filter(function (i) { return !leaves(i); }).sort(function (a, b) { return a.n - b.n; });
    var at = -1;
    open.forEach(function (i, n) { if (i.key === key) { at = n; } });
    if (at < 1) { return []; }
    var mine = open[at];
    var ahead = open[at - 1];
    if (mine.state === "sending" || ahead.state === "sending") { return []; }
    return [copy(mine, { n: ahead.n }), copy(ahead, { n: mine.n })];
  }

  // A sign-in on the page: everything that waited for one goes again, in order.
  function signedIn(items) {
    return items.map(function (item) { return item.state === "signin" ? copy(item, { state: "queued" }) : item; });
  }

  function leaves(item) { return !!LEAVES[item.state]; }

  // The next action to send: the first one, when it may go. Anything else holds the queue.
  // An action held back until `notBefore` (the same answer came back again) waits until then.
  function nextToSend(items, now) {
    var first = items.filter(function (i) { return !leaves(i); }).sort(function (a, b) { return a.n - b.n; })[0];
    if (first && first.notBefore && now !== undefined && now < first.notBefore) { return null; }
    // `sending` here is an action a reload or another tab left on its way: its key makes a
    // second send safe (the server records it at most once).
    return first && (first.state === "queued" || first.state === "sending") ? first : null;
  }


  // One line for the banner: what waits and what the judge should do.
  function summary(items) {
    var open = items.filter(function (i) { return !leaves(i); }).sort(function (a, b) { return a.n - b.n; });
    if (!open.length) { return { kind: "empty", text: "" }; }
    var first = open[0];
    var n = open.length;
    if (first.state === "signin") {
      if (first.problem && first.problem.kind === "not-judge") {
        return { kind: "signin", text: interpolate(ngettext("Not this table's judge: sign in as its judge or a head judge to send %(count)s action",
          "Not this table's judge: sign in as its judge or a head judge to send %(count)s actions", n), { count: n }, true) };
      }
      return { kind: "signin", text: interpolate(ngettext("Sign in again to send %(count)s action", "Sign in again to send %(count)s actions", n), { count: n }, true) };
    }
    if (first.state === "refused") {
      return { kind: "refused", text: interpolate(ngettext("%(reason)s — %(count)s action not sent", "%(reason)s — %(count)s actions not sent", n),
        { reason: first.problem ? first.problem.reason : gettext("Refused"), count: n }, true) };
    }
    if (first.problem && first.problem.kind === "lost") {  // no decision to make: it goes after the refill
      return { kind: "refilling", text: first.problem.reason };
    }
    if (first.problem && first.problem.kind !== "network") {
      return { kind: "trouble", text: interpolate(ngettext("%(count)s action not sent yet: %(reason)s", "%(count)s actions not sent yet: %(reason)s", n),
        { count: n, reason: first.problem.reason }, true) };
    }
    return { kind: "waiting", text: interpolate(ngettext("%(count)s action waiting to be sent", "%(count)s actions waiting to be sent", n), { count: n }, true) };
  }

  // --- never a loop --------------------------------------------------------------------------
  // The same answer again and again, with nothing in the queue moving on (a server that says
  // "recorded" but does not show the record), must not be asked again at once: each repeat of
  // one `signature` waits twice as long as the one before (`baseMs`, at most `maxMs`); another
  // signature starts afresh. Pure: `state` is what the previous call returned ({} at first).
  // Returns {state, count, waitMs} (waitMs 0 the first time).
  function backoff(state, signature, now, opts) {
    var o = opts || {};
    var base = o.baseMs || 2000;
    var max = o.maxMs || 120000;
    var same = !!state && state.signature === signature;
    if (same && now < state.until) {  // asked again while still waiting: the same wait, not a new repeat
      return { state: state, count: state.count, waitMs: state.until - now };
    }
    var count = same ? (state.count || 0) + 1 : 1;
    var wait = count < 2 ? 0 : Math.min(max, base * Math.pow(2, count - 2));
    return { state: { signature: signature, count: count, until: now + wait }, count: count, waitMs: wait };
  }

  // How long to wait before sending again after the connection was lost, the `attempt`th time
  // in a row (0 first): soon at first, then longer, never more than `maxMs`; `random` in [0, 1)
  // spreads the phones of a hall apart (they all lost the server at once).
  function retryDelay(attempt, random, maxMs) {
    var max = maxMs || 15000;
    var base = Math.min(max, 1000 * Math.pow(2, Math.max(0, attempt || 0)));
    return Math.round(base * (0.5 + 0.5 * (random || 0)));
  }

  // --- the loop ----------------------------------------------------------------------------
  // `opts`: store {load() -> Promise<items oldest first>, save(item), remove(item)};
  // send(item, token) -> Promise<answer> (rejects: no connection); session() -> Promise<
  // {signedIn, token}>; hooks: recorded(item, answer), problem(item, answer, outcome),
  // changed(items), offline(bool). Returns {flush, discard, retry, signedIn, setToken}.
  function create(opts) {
    var store = opts.store;
    var hooks = opts.hooks || {};
    var token = opts.token || "";
    var busy = null;
    var call = function (name) {
      var args = Array.prototype.slice.call(arguments, 1);
      return hooks[name] ? hooks[name].apply(null, args) : undefined;
    };

    function open() {
      return store.load().then(function (items) {
        return items.filter(function (i) { return !leaves(i); });
      });
    }

    function changed() { return open().then(function (items) { call("changed", items); return items; }); }

    function leave(item) { return store.remove(item); }

    function sendOne(item, refreshed) {
      var sending = copy(item, { state: "sending" });
      return store.save(sending).then(function () {
        return opts.send(sending, token).then(function (answer) { return answer; }, function () { return { network: true }; });
      }).then(function (answer) {
        var outcome = classify(answer);
        if (outcome.kind !== "network") { call("offline", false); }
        if (outcome.refresh && !refreshed) {  // a token out of date, or a 403 that says nothing
          return opts.session().then(function (now) {
            if (now && now.token) { token = now.token; }
            if (now && now.signedIn) { return sendOne(item, true); }
            var out = apply(item, classify({ status: 403, refused: "sign-in" }));
            return store.save(out).then(function () { call("problem", out, answer, outcome); return false; });
          }, function () {
            var out = apply(item, classify({ network: true }));
            return store.save(out).then(function () { call("offline", true); return false; });
          });
        }
        var next = apply(item, outcome);
        if (next.state === "recorded") {
          return leave(next).then(function () { return call("recorded", next, answer); }).then(function () { return true; });
        }
        if (outcome.kind === "network") { call("offline", true); }
        return store.save(next).then(function () { call("problem", next, answer, outcome); return false; });
      });
    }

    function flush() {
      if (busy) { return busy; }
      busy = (function loop() {
        return store.load().then(function (items) {
          var item = nextToSend(items, Date.now());
          if (!item) { return null; }
          return sendOne(item, false).then(function (sent) { return sent ? loop() : null; });
        });
      })().then(function () { busy = null; return changed(); }, function (error) {
        busy = null;
        return changed().then(function () { throw error; });
      });
      return busy;
    }

    function byKey(key) {
      return store.load().then(function (items) { return items.filter(function (i) { return i.key === key; })[0]; });
    }

    return {
      flush: flush,
      changed: changed,
      open: open,
      token: function () { return token; },
      setToken: function (t) { token = t || token; },
      // The judge's "Discard": this action leaves; the one behind it (made after it) waits
      // for the judge too, with the reason (`rebase` lets a page move it onto the table now).
      discard: function (key, rebase) {
        return byKey(key).then(function (item) {
          if (!item) { return null; }
          return leave(discard(item)).then(open).then(function (rest) {
            var after = rest[0];
            if (!after || after.state !== "queued") { return null; }
            var held = copy(after, { state: "refused", problem: {
              kind: "after-discarded", reason: interpolate(gettext("Made after “%(label)s”, which was discarded."), { label: item.label }, true),
              todo: gettext("Send it on the table as it is now, or discard it too.") } });
            return store.save(held);
          }).then(function () { return rebase ? rebase() : null; });
        }).then(changed);
      },
      earlier: function (key, rebase) {
        return store.load().then(function (items) {
          var pair = moveEarlier(items, key);
          return pair.reduce(function (done, i) { return done.then(function () { return store.save(i); }); }, Promise.resolve());
        }).then(function () { return rebase ? rebase() : null; }).then(changed);
      },
      retry: function (key) {
        return byKey(key).then(function (item) { return item ? store.save(retry(item)) : null; }).then(flush);
      },
      signedIn: function (newToken) {
        token = newToken || token;
        return store.load().then(function (items) {
          return Promise.all(signedIn(items).filter(function (i, n) { return i !== items[n]; }).map(store.save));
        }).then(flush);
      }
    };
  }

  // An in-memory store (the tests', and a page's when the phone keeps nothing).
  function memoryStore(initial) {
    var items = (initial || []).slice();
    return {
      items: function () { return items.slice(); },
      load: function () { return Promise.resolve(items.slice().sort(function (a, b) { return a.n - b.n; })); },
      save: function (item) {
        items = items.filter(function (i) { return i.n !== item.n; }).concat([item]);
        return Promise.resolve();
      },
      remove: function (item) { items = items.filter(function (i) { return i.n !== item.n; }); return Promise.resolve(); }
    };
  }

  return {
    STATES: STATES, backoff: backoff, retryDelay: retryDelay, answerOf: answerOf, classify: classify, apply: apply, discard: discard, retry: retry,
    signedIn: signedIn, leaves: leaves, nextToSend: nextToSend, moveEarlier: moveEarlier, summary: summary, create: create,
    memoryStore: memoryStore
  };
});
