// Dark mode: the visitor's choice, kept in localStorage, over the system's setting.
// Loaded `async` in <head>: it does not hold up the first paint, so a visitor whose choice differs
// from the system's may see the system's colours for a moment. It then wires the header's toggle
// (hidden without JavaScript: the system's setting rules).
(function () {
  "use strict";
  var KEY = "sitegen-colour-scheme";
  var root = document.documentElement;
  var stored = null;
  try { stored = window.localStorage.getItem(KEY); } catch (e) { stored = null; }
  if (stored === "dark" || stored === "light") root.setAttribute("data-colour-scheme", stored);
  var system = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function current() {
    return root.getAttribute("data-colour-scheme") || (system && system.matches ? "dark" : "light");
  }

  function wire() {
    var button = document.querySelector("button.scheme-toggle");
    if (!button) return;
    function show() { button.setAttribute("aria-pressed", current() === "dark" ? "true" : "false"); }
    show();
    button.hidden = false;
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute("data-colour-scheme", next);
      try { window.localStorage.setItem(KEY, next); } catch (e) { /* private mode: this page only */ }
      show();
    });
    if (system && system.addEventListener) system.addEventListener("change", show);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wire);
  else wire();
})();
