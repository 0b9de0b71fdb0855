// APA and IEEE citations of a record page (partials/cite.html), formatted in the browser by
// citeproc-js from the record's CSL-JSON item and the CSL styles the build ships (static/csl/).
// Nothing is fetched until the reader opens "APA and IEEE"; then citeproc-js (static/vendor/),
// the two styles and the en-US locale are fetched once. citeproc-js's HTML is parsed inertly and
// rebuilt from a few inline elements, with all text set as textContent.
(function () {
  "use strict";
  var box = document.querySelector("details.cite-styles[data-csl-item]");
  if (!box || !window.fetch || !window.DOMParser) return;
  var section = box.closest("section");
  var status = section.querySelector(".copy-status");
  var STYLES = { apa: "apa.csl", ieee: "ieee.csl" };
  var NAMES = { apa: "APA", ieee: "IEEE" };
  var LOCALE = "locales-en-US.xml";
  var KEPT = { I: "i", EM: "i", B: "b", STRONG: "b", SUP: "sup", SUB: "sub" };
  var KEPT_STYLES = /^(font-style:\s*italic|font-weight:\s*(bold|lighter|normal)|font-variant:\s*small-caps|font-style:\s*normal|text-decoration:\s*underline|vertical-align:\s*(sup|sub))$/;
  var started = null;
  var plain = {};

  function text(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      return response.text();
    });
  }
  function loadCiteproc() {
    if (window.CSL && window.CSL.Engine) return Promise.resolve(window.CSL);
    return new Promise(function (resolve, reject) {
      // citeproc.js is citeproc-js's CommonJS build, unmodified: it ends by `module.exports = CSL`
      var hadModule = "module" in window;
      if (!hadModule) window.module = { exports: {} };
      var script = document.createElement("script");
      script.src = box.getAttribute("data-citeproc");
      script.onload = function () {
        var engine = window.CSL || (window.module && window.module.exports);
        if (!hadModule) delete window.module;
        if (engine && engine.Engine) resolve(engine); else reject(new Error("citeproc-js did not load"));
      };
      script.onerror = function () { if (!hadModule) delete window.module; reject(new Error("citeproc-js could not be fetched")); };
      document.head.appendChild(script);
    });
  }

  // one record, alone in the reference list: no list number, no "2024a"
  function format(CSL, styleXml, localeXml, item, outputFormat) {
    var engine = new CSL.Engine({
      retrieveLocale: function () { return localeXml; },
      retrieveItem: function (id) { return id === item.id ? item : null; },
    }, styleXml, "en-US", true);
    engine.setOutputFormat(outputFormat);
    engine.updateItems([item.id]);
    var entries = engine.makeBibliography()[1];
    return entries[0] || "";
  }

  function fragment(html) {
    var parsed = new DOMParser().parseFromString("<div>" + html + "</div>", "text/html");
    var entry = parsed.body.querySelector(".csl-right-inline") || parsed.body.querySelector(".csl-entry") || parsed.body.firstChild;
    var out = document.createDocumentFragment();
    copyInline(entry, out);
    return out;
  }
  function copyInline(from, to) {
    from.childNodes.forEach(function (node) {
      if (node.nodeType === 3) { to.appendChild(document.createTextNode(node.nodeValue)); return; }
      if (node.nodeType !== 1) return;
      if (node.classList.contains("csl-left-margin")) return; // IEEE's "[1]"
      var tag = KEPT[node.tagName];
      var style = node.tagName === "SPAN" ? (node.getAttribute("style") || "").trim().replace(/;$/, "") : "";
      var target = to;
      if (tag) target = to.appendChild(document.createElement(tag));
      else if (style && KEPT_STYLES.test(style)) { target = to.appendChild(document.createElement("span")); target.style.cssText = style; }
      copyInline(node, target);
    });
  }
  function oneLine(value) { return value.replace(/[ \t\r\n]+/g, " ").trim(); }

  function start() {
    if (started) return started;
    var item = JSON.parse(box.getAttribute("data-csl-item"));
    var base = box.getAttribute("data-csl");
    var styleNames = Object.keys(STYLES);
    started = Promise.all([loadCiteproc(), text(base + LOCALE)].concat(styleNames.map(function (n) { return text(base + STYLES[n]); })))
      .then(function (loaded) {
        var CSL = loaded[0], locale = loaded[1];
        styleNames.forEach(function (name, i) {
          var target = document.getElementById("cite-" + name);
          var styleXml = loaded[2 + i];
          var html = format(CSL, styleXml, locale, item, "html");
          plain[name] = oneLine(format(CSL, styleXml, locale, item, "text")).replace(/^\[1\]\s*/, "");
          target.textContent = "";
          target.appendChild(fragment(html));
          var button = section.querySelector('button[data-cite-copy="' + name + '"]');
          button.disabled = false;
        });
      })
      .catch(function (error) {
        started = null;
        styleNames.forEach(function (name) {
          document.getElementById("cite-" + name).textContent = "Could not format the citation (" + error.message + "). The BibTeX entry above has every detail.";
        });
      });
    return started;
  }

  function fallbackCopy(value) {
    var area = document.createElement("textarea");
    area.value = value;
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
  function copy(value) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(value).catch(function () { return fallbackCopy(value); });
    }
    return fallbackCopy(value);
  }

  section.querySelectorAll("button[data-cite-copy]").forEach(function (button) {
    var name = button.getAttribute("data-cite-copy");
    var label = button.textContent;
    var timer = null;
    button.addEventListener("click", function () {
      if (!plain[name]) return;
      copy(plain[name]).then(function () {
        button.textContent = "Copied";
        button.classList.add("done");
        status.textContent = NAMES[name] + " citation copied to the clipboard.";
      }, function () {
        status.textContent = "Copy failed: select the citation and copy it by hand.";
      }).then(function () {
        clearTimeout(timer);
        timer = setTimeout(function () { button.textContent = label; button.classList.remove("done"); }, 2500);
      });
    });
  });

  box.hidden = false;
  box.addEventListener("toggle", function () { if (box.open) start(); });
  if (box.open) start();
})();
