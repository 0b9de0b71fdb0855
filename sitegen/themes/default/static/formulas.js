// A formula wider than the page (MathML does not break lines) scrolls sideways within itself
// (style.css) instead of widening the page; this gives each formula that does a place in the
// keyboard's tab order and a name, so it can be scrolled without a mouse. A formula is measured
// only once it is rendered and whenever its width changes (a ResizeObserver: an abstract opened,
// the window narrowed), never by forcing the layout of the whole page: a long list's years out of
// view (content-visibility) and its closed abstracts stay unrendered.
(function () {
  "use strict";
  function mark(formulas) {
    var wide = formulas.map(function (formula) { return formula.scrollWidth > formula.clientWidth + 1; }); // all reads, then all writes
    formulas.forEach(function (formula, i) {
      if (wide[i] && !formula.hasAttribute("tabindex")) {
        formula.setAttribute("tabindex", "0");
        formula.setAttribute("data-wide", "");
      } else if (!wide[i] && formula.hasAttribute("data-wide")) {
        formula.removeAttribute("tabindex");
        formula.removeAttribute("data-wide");
      }
    });
  }
  function start() {
    var formulas = document.querySelectorAll("math");
    if (!formulas.length) return;
    if (!("ResizeObserver" in window)) { mark(Array.prototype.slice.call(formulas)); return; }
    var observer = new ResizeObserver(function (entries) {
      mark(entries.filter(function (entry) { return entry.contentRect.width > 0; }).map(function (entry) { return entry.target; }));
    });
    formulas.forEach(function (formula) { observer.observe(formula); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
