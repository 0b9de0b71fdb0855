// "Copy BibTeX": shown only when JavaScript runs; the entry stays selectable text without it.
// window.sitegenCopy(text) is also what cite.js's "Copy" buttons call (a promise: copied, or not).
(function () {
  "use strict";
  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy failed"));
  }
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return fallbackCopy(text);
  }
  window.sitegenCopy = copy;
  document.querySelectorAll("button[data-copy-target]").forEach(function (button) {
    var source = document.getElementById(button.getAttribute("data-copy-target"));
    if (!source) return;
    var box = button.closest("section") || document;
    var status = box.querySelector(".copy-status");
    var say = function (name) { return (box.getAttribute && box.getAttribute("data-text-" + name)) || ""; }; // partials/cite.html, in the site's language
    var label = button.textContent;
    var timer = null;
    button.hidden = false;
    button.addEventListener("click", function () {
      copy(source.textContent).then(function () {
        button.textContent = say("copied");
        button.classList.add("done");
        if (status) status.textContent = say("bibtex-copied");
      }, function () {
        if (status) status.textContent = say("copy-failed");
      }).then(function () {
        clearTimeout(timer);
        timer = setTimeout(function () { button.textContent = label; button.classList.remove("done"); }, 2500);
      });
    });
  });
})();
