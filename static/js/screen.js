/* The room screen shows one panel at a time (seating, clocks, standings), moving on every
 * data-cycle seconds. The panels are replaced by the live region's updates, so the panel
 * shown is remembered by name and applied again after each update. */
(function () {
  "use strict";
  var current = 0;
  function panels() { return document.querySelectorAll("#screen-live [data-panel]"); }
  function show() {
    var all = panels();
    if (!all.length) return;
    current = current % all.length;
    for (var i = 0; i < all.length; i++) all[i].hidden = i !== current;
  }
  function start() {
    var root = document.getElementById("screen-live");
    var seconds = root ? parseFloat(root.getAttribute("data-cycle")) || 12 : 12;
    show();
    setInterval(function () { current += 1; show(); }, seconds * 1000);
    document.addEventListener("htmx:afterSettle", show);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
