// The table page works without this file; it keeps the judge in step with the table:
// - after every action the next step's control is at the top of the screen, with focus on it
//   (a refusal instead sits right above its form, the field at fault focused);
// - an idle page asks every POLL_MS whether the game moved on, sending the ETag of what it
//   shows (an unchanged game is answered 304, no body), and says so when another judge recorded;
// - a copy of the page kept for offline reloads says which record it shows and since when.
(function () {
  "use strict";
  // The words a person reads come from the page's JavaScript catalogue (/jsi18n/<lang>/, loaded
  // before this script); without it they stay as written.
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var POLL_MS = 15000;
  var MARGIN = 8;
  function live() { return document.getElementById("table-live"); }
  if (!live()) { return; }

  // --- the next step in view, with focus --------------------------------------------------
  function nextControl() {
    var next = document.getElementById("next");
    if (!next) { return null; }
    return next.querySelector("[data-next-control]") ||
      next.querySelector("button.primary, a.button.primary") || next.querySelector("button, a.button");
  }

  function scrollToTop(el) {
    var top = el.getBoundingClientRect().top + window.scrollY - MARGIN;
    window.scrollTo(0, Math.max(0, top));
  }

  // The screen's height above the one-line banners at its bottom edge (offline, waiting).
  function clearHeight() {
    var banner = document.getElementById("net-banner");
    return window.innerHeight - (banner ? banner.getBoundingClientRect().height : 0);
  }

  function bringIntoView(el) {  // without moving what is already in view
    var box = el.getBoundingClientRect();
    if (box.bottom > clearHeight()) { window.scrollBy(0, box.bottom - clearHeight() + MARGIN); }
    box = el.getBoundingClientRect();
    if (box.top < 0) { window.scrollBy(0, box.top - MARGIN); }
  }

  function showNextStep() {
    var next = document.getElementById("next");
    if (!next) { return; }
    var pinned = document.getElementById("pinned");
    // The one-line notice ("Recorded: ...") just above the next step, when there is one.
    scrollToTop(pinned && pinned.nextElementSibling === next && pinned.innerText.trim() ? pinned : next);
    var control = nextControl();
    if (!control) { (document.getElementById("next-h") || next).focus({ preventScroll: true }); return; }
    bringIntoView(control);
    control.focus({ preventScroll: true });
  }

  // A refusal goes right above the form it refuses, and the field at fault gets the focus.
  function showRefusal(refusal) {
    var action = refusal.dataset.refused;
    var field = refusal.dataset.refusedField;
    var error = document.getElementById("err-" + action + "-" + (field || "form")) ||
      live().querySelector(".field-error");
    var form = error ? error.closest("form") : null;
    if (!form && action) { form = live().querySelector('form[data-action="' + action + '"], form[data-action="next-' + action + '"]'); }
    if (!form) { scrollToTop(refusal); refusal.tabIndex = -1; refusal.focus({ preventScroll: true }); return; }
    var details = form.closest("details");
    if (details) { details.open = true; }
    form.parentNode.insertBefore(refusal, form);
    scrollToTop(refusal);
    var target = (field && form.elements[field]) || (error && error.previousElementSibling) || form.querySelector("input:not([type=hidden]), select, button");
    if (target && target.length && !target.focus) { target = target[0]; }
    if (target && target.focus) { target.focus({ preventScroll: true }); }
    if (error) { bringIntoView(error); }
    if (refusal.getBoundingClientRect().top < 0) { scrollToTop(refusal); }
  }

  function settle() {
    var refusal = document.getElementById("refusal");
    if (refusal) { showRefusal(refusal); return; }
    var stale = document.getElementById("stale");
    var conflict = document.getElementById("conflict");
    if (conflict && !conflict.hidden) { return; }  // the judge decides first
    var outbox = window.tableOutbox;
    if (outbox && outbox.typing && outbox.typing()) { return; }  // the judge is typing: the page keeps still
    showNextStep();
    if (stale) { stale.open = false; }
  }
  // After the outbox swapped the answer in (and put a refused form's entries back).
  document.addEventListener("table:updated", function () { setTimeout(settle, 0); });
  document.addEventListener("table:settle", function () { setTimeout(settle, 0); });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.detail && event.detail.elt && event.detail.elt.id === "table-live") { settle(); }
  });

  // --- quiet when idle: ETag polls ----------------------------------------------------------
  var moved = false;
  function refresh() {
    moved = false;
    var url = live().dataset.page;
    var outbox = window.tableOutbox;
    if (outbox && outbox.swapIn) {  // the game now, without the parts this page shows unchanged
      fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true", "X-Table-Parts": outbox.partsShown() } })
        .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
        .then(outbox.swapIn)
        .catch(function () { location.reload(); });
    } else if (window.htmx && window.htmx.ajax) {
      window.htmx.ajax("GET", url, { target: "#table-live", swap: "outerHTML" });
    } else {
      location.reload();
    }
  }

  function poll() {
    if (moved || document.hidden || !navigator.onLine) { return; }
    var counter = document.getElementById("outbox");
    if (counter && counter.dataset.queued !== "0") { return; }  // the outbox brings the page up to date
    if (document.documentElement.dataset.offlineCopy) { refresh(); return; }  // back online: the game now
    var headers = { Accept: "application/json" };
    if (live().dataset.etag) { headers["If-None-Match"] = live().dataset.etag; }
    fetch(live().dataset.api, { credentials: "same-origin", headers: headers })
      .then(function (r) { return r.status === 200 ? r.json() : null; })  // 304: nothing new
      .then(function (data) {
        var note = document.getElementById("live-note");
        if (!data || data.seq === parseInt(live().dataset.seq, 10) || !note) { return; }
        moved = true;  // no more polls until the judge looks: one answer is enough
        note.hidden = false;
        note.textContent = "";
        var words = document.createElement("span");
        words.textContent = interpolate(gettext("The game moved on to record #%(seq)s."), { seq: data.seq }, true);
        note.appendChild(words);
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = gettext("Show it");
        button.addEventListener("click", refresh);
        note.appendChild(button);
      })
      .catch(function () { /* offline: the outbox keeps the actions */ });
  }
  setInterval(poll, POLL_MS);
  document.addEventListener("visibilitychange", poll);
  window.addEventListener("online", function () { setTimeout(poll, 1000); });

  // A put-back form opened under a removed stack comes into view whole (it opens below the fold
  // on a phone). `toggle` does not bubble: listen while it goes down.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches("#table-live details.put-back") || !details.open) { return; }
    var form = details.querySelector("form");
    if (form && form.scrollIntoView) { form.scrollIntoView({ block: "nearest" }); }
  }, true);

  // --- a battle's resolution, read before it is recorded ------------------------------------
  // Asking the engine what a battle comes to (the form's "preview" button) records nothing, so it
  // is not an action for the outbox's queue: it is asked at once (capture phase, before the outbox sees the submit) and
  // the answer, the form with the resolution and its "Record the battle" button, swapped in.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var asked = event.submitter;
    if (!form.matches || !form.matches("#table-live form[data-action=battle]") || !asked || asked.name !== "preview") { return; }
    var outbox = window.tableOutbox;
    if (!outbox || !outbox.swapIn || !navigator.onLine) { return; }  // the plain post, or the queue
    event.preventDefault();
    event.stopPropagation();
    fetch(live().dataset.page, {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(new FormData(form, asked)),
      headers: { "HX-Request": "true", "HX-Target": "table-live" }
    }).then(function (r) { return r.text(); })
      .then(outbox.swapIn)
      .catch(function () { form.submit(); });
  }, true);

  // --- the offline copy says what it is -------------------------------------------------------
  var copy = document.documentElement.dataset.offlineCopy;
  if (copy) {
    var line = document.getElementById("offline-copy");
    if (line) {
      line.textContent = interpolate(gettext("Offline copy as of %(time)s. Actions wait on this phone."), { time: copy }, true);
      line.hidden = false;
    }
  }

  // Without the outbox (a plain form post that came back refused), show the refused form.
  if (document.getElementById("refusal")) { settle(); }
  window.tablePage = { settle: settle, nextControl: nextControl };
})();
