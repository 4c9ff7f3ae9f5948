// Print sheets: the Print button opens the browser's print dialog (no inline handlers, for the CSP).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.addEventListener("click", () => window.print());
});
