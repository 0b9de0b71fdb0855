// A formula wider than the page (MathML does not break lines) scrolls sideways within itself
// (style.css) instead of widening the page; this gives each formula that does a place in the
// keyboard's tab order and a name, so it can be scrolled without a mouse. Checked again when
// the window's width changes.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll("math").forEach(function (formula) {
      var wide = formula.scrollWidth > formula.clientWidth + 1;
      if (wide && !formula.hasAttribute("tabindex")) {
        formula.setAttribute("tabindex", "0");
        formula.setAttribute("data-wide", "");
      } else if (!wide && formula.hasAttribute("data-wide")) {
        formula.removeAttribute("tabindex");
        formula.removeAttribute("data-wide");
      }
    });
  }
  var timer = null;
  window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(mark, 200); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
})();
