// A blog post's comments (site.yaml's `comments`): giscus's script is loaded only when the reader asks for the
// comments, so that reading a post asks nothing of another site. Without JavaScript the link to the repository's
// Discussions stays, and the button stays hidden.
(function () {
  "use strict";
  var frame = document.querySelector(".comments-frame");
  var button = frame && frame.querySelector(".comments-show");
  if (!button) return;
  var settings = ["repo", "repo-id", "category", "category-id", "mapping", "reactions-enabled", "lang"];
  function theme() {
    var chosen = document.documentElement.getAttribute("data-colour-scheme");  // the header's toggle (colour-scheme.js)
    if (chosen === "dark" || chosen === "light") return chosen;
    var site = frame.getAttribute("data-dark-mode");
    return site === "light" || site === "dark" ? site : "preferred_color_scheme";
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    var script = document.createElement("script");
    settings.forEach(function (name) { script.setAttribute("data-" + name, frame.getAttribute("data-" + name)); });
    script.setAttribute("data-strict", "0");
    script.setAttribute("data-emit-metadata", "0");
    script.setAttribute("data-input-position", "bottom");
    script.setAttribute("data-theme", theme());
    script.setAttribute("crossorigin", "anonymous");
    script.async = true;
    script.src = "https://giscus.app/client.js";
    frame.appendChild(script);
    button.remove();
    // the header's toggle, pressed later: giscus's frame takes the new look as giscus documents (setConfig)
    new MutationObserver(function () {
      var shown = frame.querySelector("iframe.giscus-frame");
      if (shown) shown.contentWindow.postMessage({ giscus: { setConfig: { theme: theme() } } }, "https://giscus.app");
    }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-colour-scheme"] });
  });
})();
