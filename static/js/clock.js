/* Table and round clocks: count down from the server's time.
 *
 * Every clock element carries data-server-now (the database's time when the page was
 * rendered), data-next-at (the next deadline), data-paused and data-remaining. The offset
 * between the server's clock and this device's is kept and renewed from each API answer, so
 * a wrong phone clock does not matter. When the page becomes visible again (the phone woke
 * up), when a deadline passes, and every 30 seconds, the clocks are fetched again.
 */
(function () {
  "use strict";
  if (window.duneClocks) { window.duneClocks.scan(); return; }
  // The words a person reads, from the page's JavaScript catalogue when it is loaded.
  var gettext = window.gettext || function (s) { return s; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };

  var STATES = ["pending", "running", "last_30", "last_turn", "time_up", "finished"];
  var offset = 0;          // server time minus local time, in ms
  var clocks = {};         // table id -> clock record
  var inFlight = false;
  var lastFetch = 0;

  function parse(iso) { if (!iso) return null; var t = Date.parse(iso); return isNaN(t) ? null : t; }
  function serverNow() { return Date.now() + offset; }

  function fmt(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }

  function record(el) {
    var rem = el.getAttribute("data-remaining");
    return {
      el: el,
      table: el.getAttribute("data-table"),
      api: el.getAttribute("data-api"),
      nextAt: parse(el.getAttribute("data-next-at")),
      paused: el.getAttribute("data-paused") === "true",
      remaining: rem === "" || rem === null ? null : parseFloat(rem),
      state: el.getAttribute("data-state")
    };
  }

  function scan() {
    var els = document.querySelectorAll("[data-clock]");
    var unsure = false;
    for (var i = 0; i < els.length; i++) {
      // Until the first API answer, the offset comes from the time the page was rendered.
      if (i === 0 && lastFetch === 0) {
        var rendered = parse(els[i].getAttribute("data-server-now"));
        if (rendered !== null) {
          offset = rendered - Date.now();
          // A public page is rendered once and served to every phone while nothing changes,
          // so its time may be minutes old (or this phone's clock is wrong): when the two
          // disagree by more than two seconds, ask the server now rather than count from it.
          unsure = Math.abs(offset) > 2000;
        }
      }
      clocks[els[i].getAttribute("data-table") + ":" + i] = record(els[i]);
    }
    tick();
    if (unsure) refresh();
  }

  function text(el, selector, value) {
    var node = el.querySelector(selector);
    if (node && node.textContent !== value) node.textContent = value;
  }

  function render(c) {
    var left = null;
    if (c.paused) left = c.remaining;
    else if (c.nextAt !== null) left = (c.nextAt - serverNow()) / 1000;
    text(c.el, "[data-clock-remaining]", left === null ? "—" : fmt(left));
    return left;
  }

  function tick() {
    var due = false;
    for (var key in clocks) {
      var c = clocks[key];
      var left = render(c);
      // A deadline passed here: ask the server what the clock is now (the worker moves it).
      if (!c.paused && left !== null && left <= 0) due = true;
    }
    // Called clocks (WBC time guidelines) on the table clock page.
    var calls = document.querySelectorAll("[data-call-ends]");
    for (var i = 0; i < calls.length; i++) {
      var ends = parse(calls[i].getAttribute("data-call-ends"));
      var node = calls[i].querySelector("[data-call-remaining]");
      if (ends === null || !node) continue;
      var callLeft = (ends - serverNow()) / 1000;
      node.textContent = callLeft > 0 ? interpolate(gettext("%(time)s left"), { time: fmt(callLeft) }, true)
        : gettext("time is up: the default action is recorded");
    }
    if (due && Date.now() - lastFetch > 1500) refresh();
  }

  function apply(c, body) {
    c.nextAt = body.next ? parse(body.next.at) : null;
    c.paused = !!body.paused;
    c.remaining = body.remaining_seconds === null || body.remaining_seconds === undefined ? null : body.remaining_seconds;
    if (c.state !== body.display_state) {
      for (var i = 0; i < STATES.length; i++) c.el.classList.remove("state-" + STATES[i]);
      c.el.classList.add("state-" + body.display_state);
      c.state = body.display_state;
      c.el.setAttribute("data-state", c.state);
    }
    c.el.classList.toggle("is-paused", c.paused);
    c.el.setAttribute("data-paused", c.paused ? "true" : "false");
    text(c.el, "[data-clock-label]", body.state_label);
    if (body.next) {
      var nextNode = c.el.querySelector("[data-clock-next]");
      if (nextNode) nextNode.textContent = body.next.words || body.next.label;
    } else {
      text(c.el, "[data-clock-next]", "");
    }
    if (body.deadline_labels) {
      for (var name in body.deadline_labels) {
        var label = body.deadline_labels[name];
        if (label) text(c.el, '[data-clock-deadline="' + name + '"] > span', label);
      }
    }
    if (body.turn) text(c.el, "[data-clock-turn]", body.turn + (body.max_turns ? " / " + body.max_turns : ""));
    render(c);
  }

  function fetchJson(url) {
    var t0 = Date.now();
    return fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
      .then(function (body) {
        var t1 = Date.now();
        var s = parse(body.server_now);
        // The server read its clock roughly halfway through the round trip.
        if (s !== null) offset = s - (t0 + t1) / 2;
        return body;
      });
  }

  function byTable(table) {
    var found = [];
    for (var key in clocks) if (clocks[key].table === String(table)) found.push(clocks[key]);
    return found;
  }

  function refresh() {
    if (inFlight) return;
    inFlight = true;
    lastFetch = Date.now();
    var round = document.querySelector("[data-clocks-api]");
    var done = function () { inFlight = false; lastFetch = Date.now(); tick(); };
    if (round) {
      fetchJson(round.getAttribute("data-clocks-api")).then(function (body) {
        for (var i = 0; i < body.clocks.length; i++) {
          var row = body.clocks[i];
          byTable(row.table).forEach(function (c) { apply(c, row); });
        }
      }).catch(function () {}).then(done);
      return;
    }
    var pending = [];
    var seen = {};
    for (var key in clocks) {
      var c = clocks[key];
      if (seen[c.api]) continue;
      seen[c.api] = true;
      pending.push(fetchJson(c.api).then((function (table) {
        return function (body) { byTable(table).forEach(function (x) { apply(x, body); }); };
      })(c.table)).catch(function () {}));
    }
    Promise.all(pending).then(done);
  }

  document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  window.addEventListener("pageshow", function (e) { if (e.persisted) refresh(); });
  window.addEventListener("online", refresh);

  window.duneClocks = { scan: scan, refresh: refresh, offset: function () { return offset; } };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
  setInterval(tick, 250);
  setInterval(function () { if (!document.hidden) refresh(); }, 30000);
})();
