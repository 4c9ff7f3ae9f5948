/* A refused form comes back with the field at fault marked aria-invalid and its message beside
 * it. Bring that field into view (the message follows it), so a form low on a long page (the
 * desk's registration under the roster) does not answer out of sight. Without JavaScript the
 * message is there all the same, a scroll away. A page that names its own place (#swap,
 * #player-12) keeps it. Focus is left alone: on a phone it would open the keyboard over the
 * message.
 * A form answered in place (a refusal, a question to confirm) names the page it stands for
 * (body[data-page-address]): that address replaces the POST in the history, so a reload shows
 * the page instead of posting the form again. */
(function () {
  "use strict";
  var here = document.body && document.body.getAttribute("data-page-address");
  if (here && window.history && history.replaceState) { history.replaceState(null, "", here + location.hash); }
  function show() {
    if (location.hash) { return; }
    var field = document.querySelector("main [aria-invalid=true]");
    if (field && field.scrollIntoView) { field.scrollIntoView({ block: "center" }); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", show); } else { show(); }
})();
