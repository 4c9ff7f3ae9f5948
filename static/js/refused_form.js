/* A refused form comes back with the field at fault marked aria-invalid and its message beside
 * it. Bring that field into view (the message follows it), so a form low on a long page (the
 * desk's registration under the roster) does not answer out of sight. Without JavaScript the
 * message is there all the same, a scroll away. A page that names its own place (#swap,
 * #player-12) keeps it. Focus is left alone: on a phone it would open the keyboard over the
 * message. */
(function () {
  "use strict";
  function show() {
    if (location.hash) { return; }
    var field = document.querySelector("main [aria-invalid=true]");
    if (field && field.scrollIntoView) { field.scrollIntoView({ block: "center" }); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", show); } else { show(); }
})();
