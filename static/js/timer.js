/* The projector timer: one big countdown to the round's time up (data-ends-at), counted from the
 * server's time (data-server-now, renewed with each update of the live region), so a projector
 * laptop's own clock does not matter. A paused round shows its held time left. When the time is
 * up the region asks the server at once. */
(function () {
  "use strict";
  var offset = 0, endsAt = null, asked = false, seen = null;
  function fmt(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return h + ":" + (m < 10 ? "0" : "") + m + ":" + (r < 10 ? "0" : "") + r;
  }
  function read(root) {
    var now = Date.parse(root.getAttribute("data-server-now"));
    offset = isNaN(now) ? 0 : now - Date.now();
    var ends = Date.parse(root.getAttribute("data-ends-at") || "");
    endsAt = root.getAttribute("data-state") === "running" && !isNaN(ends) ? ends : null;
    asked = false;
    seen = root;
  }
  function tick() {
    var root = document.getElementById("timer-live");
    if (!root) return;
    if (root !== seen) read(root);
    if (endsAt === null) return;
    var left = (endsAt - (Date.now() + offset)) / 1000;
    var node = root.querySelector("[data-timer-remaining]");
    var text = fmt(left);
    if (node && node.textContent !== text) node.textContent = text;
    if (left <= 0 && !asked && window.htmx) { asked = true; window.htmx.trigger(root, "live:refresh"); }
  }
  function start() { tick(); setInterval(tick, 250); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
