// The board panels work without this file (the server draws every board into the page).
// With it: the table page's board opens by itself on a wide screen, follows the table in
// place when the record moves on, a tapped territory's stacks are read out in words, the
// room screen's boards keep up by themselves, and the history's replay steps through the
// records without reloading the page.
(function () {
  "use strict";
  if (window.duneBoard) { return; }
  // The words a person reads, from the page's JavaScript catalogue when it is loaded.
  var gettext = window.gettext || function (s) { return s; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };

  window.duneBoard = true;

  function load(slot, url, seq) {
    var target = url + (seq ? "?seq=" + seq : "");
    return fetch(target, { credentials: "same-origin", cache: "no-cache" })
      .then(function (r) { return r.ok ? r.text() : r.text().then(function (t) { throw new Error(t); }); })
      .then(function (html) { slot.innerHTML = html; return slot; });
  }

  function shownSeq(panel) {
    var body = panel.querySelector(".board-body");
    return body ? body.getAttribute("data-seq") : "";
  }

  // The table page: open on a wide screen; follow the live part's record number.
  var panels = document.querySelectorAll(".board-panel[data-panel]");
  Array.prototype.forEach.call(panels, function (panel) {
    var fold = panel.querySelector("details[data-open-wide]");
    if (fold && window.matchMedia && window.matchMedia("(min-width: 60em)").matches) { fold.open = true; }
    var slot = panel.querySelector(".board-slot");
    function liveSeq() {
      var live = document.querySelector(panel.getAttribute("data-follow"));
      return live ? live.getAttribute("data-seq") : null;
    }
    if (panel.getAttribute("data-follow")) {
      // After every answer (htmx's swap, or the outbox's `table:updated`) the board is drawn
      // again at the page's record; folded away, it is drawn when it is next opened, so a
      // judge who does not look at it pays no bytes for it.
      var behind = false;
      var follow = function () {
        var seq = liveSeq();
        if (!seq || seq === shownSeq(panel)) { behind = false; return; }
        if (fold && !fold.open) { behind = true; return; }
        behind = false;
        load(slot, panel.getAttribute("data-panel")).then(function () {
          if (liveSeq() !== shownSeq(panel)) { follow(); }  // the page moved on meanwhile
        }).catch(function () { behind = true; /* offline: keep what is shown */ });
      };
      document.addEventListener("htmx:afterSettle", follow);
      document.addEventListener("table:updated", follow);
      if (fold) { fold.addEventListener("toggle", function () { if (fold.open && behind) { follow(); } }); }
    }
    var every = parseInt(panel.getAttribute("data-poll") || "0", 10);
    if (every > 0) {
      setInterval(function () {
        if (document.hidden) { return; }
        fetch(panel.getAttribute("data-panel"), { credentials: "same-origin", cache: "no-cache" })
          .then(function (r) { return r.ok ? r.text() : null; })
          .then(function (html) {
            if (!html) { return; }
            var box = document.createElement("div");
            box.innerHTML = html;
            var body = box.querySelector(".board-body");
            if (body && body.getAttribute("data-seq") !== shownSeq(panel)) { slot.innerHTML = html; }
          })
          .catch(function () { /* try again at the next tick */ });
      }, every * 1000);
    }
  });

  // A tapped territory: its stacks in words, from the table beside the drawing.
  document.addEventListener("click", function (event) {
    var place = event.target.closest && event.target.closest(".board-body svg [data-territory]");
    if (!place) { return; }
    var body = place.closest(".board-body");
    var pick = body.querySelector(".board-pick");
    var id = place.getAttribute("data-territory");
    var named = body.querySelector('svg .map [data-territory="' + id + '"]') || place;
    var title = named.querySelector("title");
    var name = title ? title.textContent.split(":")[0] : id;
    var stacks = [];
    Array.prototype.forEach.call(body.querySelectorAll(".board-stacks tr[data-where]"), function (row) {
      if (row.getAttribute("data-where") === id) {
        stacks.push(row.cells[1].textContent + " " + row.cells[2].textContent + " (" + row.cells[0].textContent + ")");
      }
    });
    pick.hidden = false;
    pick.textContent = interpolate(gettext("%(territory)s: %(stacks)s."),
      { territory: name, stacks: stacks.length ? stacks.join("; ") : gettext("no forces") }, true);
    fillForms(id, place.getAttribute("data-sector"));
  });

  // The tapped territory goes into the table page's open forms that take a territory: the
  // territory (or its tapped sector) in each; a move's "From" first, then its "To".
  function option(select, id, sector) {
    var exact = sector ? id + "@" + sector : id;
    var found = null;
    Array.prototype.forEach.call(select.options, function (o) {
      if (!found && (o.value === exact || o.value === id)) { found = o; }
    });
    Array.prototype.forEach.call(select.options, function (o) {
      if (!found && o.value.indexOf(id + "@") === 0) { found = o; }
    });
    return found;
  }
  function fillForms(id, sector) {
    var forms = document.querySelectorAll("#table-live form");
    Array.prototype.forEach.call(forms, function (form) {
      var details = form.closest("details");
      if (details && !details.open) { return; }
      var from = form.elements.from_piece, to = form.elements.to_piece;
      var targets = [];
      if (from && to) { targets.push(from.value && from.value.split("@")[0] !== id ? to : from); }
      ["piece", "territory"].forEach(function (name) {
        var el = form.elements[name];
        if (el && el.tagName === "SELECT") { targets.push(el); }
      });
      targets.forEach(function (select) {
        var o = option(select, id, sector);
        if (o) { select.value = o.value; select.dispatchEvent(new Event("change", { bubbles: true })); }
      });
    });
  }

  // The replay: a slider and previous / next buttons step through the records.
  var replay = document.getElementById("board-replay");
  if (!replay) { return; }
  var range = document.getElementById("replay-at");
  var out = document.getElementById("replay-out");
  var slot = document.getElementById("replay-slot");
  var latest = parseInt(replay.getAttribute("data-latest"), 10);
  var pending = null;
  function show(at) {
    at = Math.max(1, Math.min(latest, at));
    range.value = String(at);
    out.textContent = "#" + at + " of " + latest;
    Array.prototype.forEach.call(document.querySelectorAll("#replay-records li"), function (li) {
      li.hidden = li.getAttribute("data-seq") !== String(at);
    });
    pending = at;
    load(slot, replay.getAttribute("data-panel"), at).then(function () {
      if (pending === at) { replay.setAttribute("data-shown", String(at)); }
    }).catch(function (error) { slot.textContent = error.message; });
    if (window.history && window.history.replaceState) {
      window.history.replaceState(null, "", "?at=" + at + "#board-replay");
    }
  }
  range.addEventListener("input", function () { show(parseInt(range.value, 10)); });
  document.getElementById("replay-prev").addEventListener("click", function (event) {
    event.preventDefault(); show(parseInt(range.value, 10) - 1);
  });
  document.getElementById("replay-next").addEventListener("click", function (event) {
    event.preventDefault(); show(parseInt(range.value, 10) + 1);
  });
  replay.setAttribute("data-shown", range.value);
})();
