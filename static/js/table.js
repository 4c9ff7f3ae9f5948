// The table page works without this file; it keeps the judge in step with the table:
// a note (with an in-place update) as soon as someone else records something, and the
// refusal of a form brought into view next to that form; an opened put-back form in view.
(function () {
  "use strict";
  function live() { return document.getElementById("table-live"); }
  if (!live()) { return; }

  function refresh() {
    var url = live().dataset.page;
    if (window.htmx && window.htmx.ajax) {
      window.htmx.ajax("GET", url, { target: "#table-live", swap: "outerHTML" });
    } else {
      location.reload();
    }
  }

  function poll() {
    if (document.hidden || !navigator.onLine) { return; }
    var counter = document.getElementById("outbox");
    if (counter && counter.dataset.queued !== "0") { return; }  // the outbox brings the page up to date
    fetch(live().dataset.api, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        var note = document.getElementById("live-note");
        if (!data || data.seq === parseInt(live().dataset.seq, 10) || !note) { return; }
        note.hidden = false;
        note.textContent = "The game moved on to record #" + data.seq + " (another judge). ";
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = "Show it";
        button.addEventListener("click", refresh);
        note.appendChild(button);
      })
      .catch(function () { /* offline: the outbox keeps the actions */ });
  }
  setInterval(poll, 10000);
  document.addEventListener("visibilitychange", poll);

  // A put-back form opened under a removed stack comes into view whole (it opens below the fold
  // on a phone). `toggle` does not bubble: listen while it goes down.
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches("#table-live details.put-back") || !details.open) { return; }
    var form = details.querySelector("form");
    if (form && form.scrollIntoView) { form.scrollIntoView({ block: "nearest" }); }
  }, true);

  // Without the outbox (a plain form post that came back refused), show the refused form.
  var error = live().querySelector(".field-error");
  if (error && error.scrollIntoView) { error.scrollIntoView({ block: "center" }); }
})();
