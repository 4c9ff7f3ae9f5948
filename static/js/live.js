/* Live regions ([data-live], polled by htmx with hx-trigger="every Ns").
 *
 * - No request while the tab is hidden: a phone in a pocket costs the server nothing.
 * - Each poll sends the ETag of what is shown (data-etag) in If-None-Match; an unchanged
 *   region answers 304 and htmx leaves it alone (htmx-config in base.html).
 * - After a region is replaced, the clocks in it count down again (static/js/clock.js).
 */
(function () {
  "use strict";
  function live(event) {
    var el = event.detail && event.detail.elt;
    return el && el.hasAttribute && el.hasAttribute("data-live") ? el : null;
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (live(event) && document.visibilityState === "hidden") event.preventDefault();
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var el = live(event);
    var etag = el && el.getAttribute("data-etag");
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (window.duneClocks && window.duneClocks.scan) window.duneClocks.scan();
  });
  // Coming back to the tab: refresh at once instead of waiting for the next tick.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    var regions = document.querySelectorAll("[data-live]");
    for (var i = 0; i < regions.length; i++) window.htmx.trigger(regions[i], "live:refresh");
  });
})();
