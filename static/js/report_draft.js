// A half-filled game report survives a reload or a dropped connection: every change is kept
// on this phone (localStorage) until the report is filed. The server's copy always wins
// when the page comes back with a refusal (the form then shows what was posted).
(function () {
  "use strict";
  var form = document.getElementById("report-form");
  if (!form || !window.localStorage) { return; }
  var key = form.dataset.draft;
  if (form.dataset.filed) { localStorage.removeItem(key); return; }

  function save() {
    var draft = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.type === "hidden" || el.name === "confirm") { return; }
      draft[el.name] = el.type === "checkbox" ? el.checked : el.value;
    });
    try { localStorage.setItem(key, JSON.stringify(draft)); } catch (e) { /* storage full or private */ }
  }

  var refused = document.getElementById("report-errors") || form.querySelector(".field-error");
  var kept = null;
  try { kept = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { kept = null; }
  if (kept && !refused) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!(el.name in kept) || el.type === "hidden") { return; }
      if (el.type === "checkbox") { el.checked = !!kept[el.name]; } else { el.value = kept[el.name]; }
    });
    var note = document.createElement("p");
    note.className = "notice";
    note.setAttribute("role", "status");
    note.textContent = window.gettext ? window.gettext("Your unfiled entries were restored from this phone.")
      : "Your unfiled entries were restored from this phone.";
    form.insertBefore(note, form.firstChild);
  }
  form.addEventListener("input", save);
  form.addEventListener("change", save);
})();
