/* A "Print" button on the printable sheets ([data-print]); the sheets print fine without it. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-print]")) window.print();
  });
})();
