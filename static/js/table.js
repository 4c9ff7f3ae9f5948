// The table page works without this file; it only makes it quicker to use at the table:
// no double taps, the page comes back to where the judge was, and a banner appears as soon
// as someone else records something (so a stale form is noticed before it is sent).
(function () {
  "use strict";
  var head = document.querySelector(".game-head");
  if (!head) { return; }
  var key = "table-scroll-" + head.dataset.table;

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var button = form.querySelector("button[type=submit]");
    if (form.dataset.sent) { event.preventDefault(); return; }
    form.dataset.sent = "1";
    if (button) { button.disabled = true; }
    try { sessionStorage.setItem(key, String(window.scrollY)); } catch (e) { /* private mode */ }
  });

  try {
    var saved = sessionStorage.getItem(key);
    if (saved !== null && !location.hash) { window.scrollTo(0, parseInt(saved, 10) || 0); }
    sessionStorage.removeItem(key);
  } catch (e) { /* private mode */ }

  var seq = parseInt(head.dataset.seq, 10);
  var note = document.getElementById("live-note");
  function poll() {
    if (document.hidden) { return; }
    fetch(head.dataset.api, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data || data.seq === seq || !note) { return; }
        note.hidden = false;
        note.textContent = "";
        note.appendChild(document.createTextNode("The game moved on to record #" + data.seq + ". "));
        var link = document.createElement("a");
        link.href = location.pathname;
        link.textContent = "Reload";
        note.appendChild(link);
      })
      .catch(function () { /* offline: the forms still carry their sequence number */ });
  }
  setInterval(poll, 10000);
  document.addEventListener("visibilitychange", poll);
})();
