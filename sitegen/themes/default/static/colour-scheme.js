// Dark mode: the visitor's choice, kept in localStorage, over the system's setting. A line of script
// in base.html's <head> applies a stored choice before the page is drawn; this file, loaded `async`,
// wires the header's toggle (hidden without JavaScript: the system's setting rules), and applies the
// stored choice too, for a server whose Content-Security-Policy refuses that line (`default-src 'self'`
// without its hash, docs/security.md): the choice then holds from page to page, set a moment later.
(function () {
  "use strict";
  var KEY = "sitegen-colour-scheme"; // base.html reads it too
  var root = document.documentElement;
  try {
    var stored = window.localStorage.getItem(KEY);
    if (stored === "dark" || stored === "light") root.setAttribute("data-colour-scheme", stored);
  } catch (e) { /* storage refused: the system's setting rules */ }
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
