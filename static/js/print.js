// The event report's "print or save as PDF" button: shown only where scripts run.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
document.querySelectorAll("[data-print-hint]").forEach((hint) => { hint.hidden = true; });
