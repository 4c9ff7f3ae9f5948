// Print buttons open the browser's print dialog (no inline handlers, for the CSP). A button
// left hidden for readers without scripts is shown, and the words telling them to use the
// browser's own Print instead are hidden.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
document.querySelectorAll("[data-print-hint]").forEach((hint) => { hint.hidden = true; });
