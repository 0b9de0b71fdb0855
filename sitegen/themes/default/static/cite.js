// APA, IEEE, Vancouver and Chicago (author-date) citations of a record page (partials/cite.html), formatted in the browser by
// citeproc-js from the record's CSL-JSON item and the CSL styles the build ships (static/csl/).
// Nothing is fetched until the reader opens the styles ("APA, IEEE, Vancouver and Chicago"); then citeproc-js (static/vendor/),
// the styles and the locale of the site's language (data-csl-locale: de-DE) are fetched once. citeproc-js's HTML is parsed inertly and
// rebuilt from a few inline elements, with all text set as textContent.
(function () {
  "use strict";
  var box = document.querySelector("details.cite-styles[data-csl-item]");
  if (!box || !window.fetch || !window.DOMParser) return;
  var section = box.closest("section");
  var status = section.querySelector(".copy-status");
  var STYLES = { apa: "apa.csl", ieee: "ieee.csl", vancouver: "vancouver.csl", chicago: "chicago-author-date.csl" };
  var NAMES = { apa: "APA", ieee: "IEEE", vancouver: "Vancouver", chicago: "Chicago" };
  var ENGLISH = "en-US"; // citeproc-js's fallback for a term another locale lacks
  var LOCALE = box.getAttribute("data-csl-locale") || ENGLISH;
  var KEPT = { I: "i", EM: "i", B: "b", STRONG: "b", SUP: "sup", SUB: "sub" };
  var KEPT_STYLES = /^(font-style:\s*italic|font-weight:\s*(bold|lighter|normal)|font-variant:\s*small-caps|font-style:\s*normal|text-decoration:\s*underline|vertical-align:\s*(sup|sub))$/;
  var started = null;
  function say(name, values) { // what the section says, in the site's language (partials/cite.html's data-text-* attributes)
    var text = section.getAttribute("data-text-" + name) || "";
    return text.replace(/\{(\w+)\}/g, function (whole, key) { return key in values ? String(values[key]) : whole; });
  }
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
        if (engine && engine.Engine) resolve(rememberMacros(engine)); else reject(new Error("citeproc-js did not load"));
      };
      script.onerror = function () { if (!hadModule) delete window.module; reject(new Error("citeproc-js could not be fetched")); };
      document.head.appendChild(script);
    });
  }

  // citeproc-js finds a macro by searching the whole style each time the style calls it, and APA calls
  // hundreds: each search's answer is kept per style tree (never changed once parsed), as sitegen.cite does
  // for citeproc-py
  function rememberMacros(CSL) {
    var find = CSL.XmlJSON && CSL.XmlJSON.prototype.getNodesByName;
    if (!find || find.remembers) return CSL;
    var found = new WeakMap();
    var remembering = function (tree, name, value, into) {
      if (name !== "macro" || !value || into || !tree) return find.apply(this, arguments);
      var macros = found.get(tree);
      if (!macros) found.set(tree, (macros = {}));
      if (!Object.prototype.hasOwnProperty.call(macros, value)) macros[value] = find.call(this, tree, name, value);
      return macros[value].slice();
    };
    remembering.remembers = true;
    CSL.XmlJSON.prototype.getNodesByName = remembering;
    return CSL;
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

  // An author list that names only the first authors (BibTeX's "and others") ends with the name {"literal": "others"},
  // which citeproc-js does not know: it is given the name "et al." after a mark, and the word joining that name to
  // the others ("&", "and") is taken out of the citation, as sitegen.cite.with_et_al does for citeproc-py.
  var ET_AL_MARK = "\ue003";
  var ET_AL = new RegExp(",? (?:(?:&#38;|&amp;|&|and|\u2026) )?" + ET_AL_MARK + "et al\\.", "g");
  var ET_AL_HTML = { apa: ", et al.", ieee: " <i>et al.</i>", vancouver: ", et al.", chicago: ", et al." }; // after the names, as the style prints its own "et al."
  function forProcessor(item) {
    var authors = item.author || [];
    var last = authors[authors.length - 1];
    if (!last || last.literal !== "others" || Object.keys(last).length !== 1) return item;
    var copy = Object.assign({}, item);
    copy.author = authors.slice(0, -1).concat([{ literal: ET_AL_MARK + "et al." }]);
    return copy;
  }
  function withEtAl(citation, name, asHtml) {
    var words = ET_AL_HTML[name] || ", et al.";
    return citation.replace(ET_AL, asHtml ? words : words.replace(/<[^>]*>/g, ""));
  }

  // APA and Chicago print a patent as its office, "Patent" (the item's genre, else the locale's term) and number: a number
  // that says what it is ("US Patent 11,503,892") is given to them in those parts, not printed after "Patent No." again
  // (IEEE and Vancouver print the number as written), as sitegen.cite.patent_designation does for citeproc-py
  var PATENT_NAMING = { apa: true, chicago: true };
  var PATENT_DESIGNATION = /^(\D*?)\s*\b(patent\b\D*?)\s*(?:\bNo\.?\s*)?(\d.*)$/i;
  function forStyle(name, item) {
    if (!PATENT_NAMING[name] || item.type !== "patent" || typeof item.number !== "string") return item;
    var found = PATENT_DESIGNATION.exec(item.number.trim());
    if (!found) return item;
    var copy = Object.assign({}, item, { number: found[3] });
    delete copy.genre; // the number's own words say what it is, not its kind ("U.S. patent") again
    if (found[1]) copy.authority = found[1];
    if (found[2].toLowerCase() !== "patent") copy.genre = found[2];
    return copy;
  }

  // one record, alone in the reference list: no list number, no "2024a"
  function show(CSL, name, styleXml, locales, item) {
    item = forStyle(name, item);
    var engine = new CSL.Engine({
      retrieveLocale: function (lang) { return locales[lang] || locales[ENGLISH]; },
      retrieveItem: function (id) { return id === item.id ? item : null; },
    }, styleXml, LOCALE, true);
    engine.updateItems([item.id]);
    engine.setOutputFormat("html");
    var html = withEtAl(engine.makeBibliography()[1][0] || "", name, true);
    engine.setOutputFormat("text");
    plain[name] = withEtAl(oneLine(engine.makeBibliography()[1][0] || "").replace(/^(?:\[1\]|1\.)\s*/, ""), name, false);
    var target = document.getElementById("cite-" + name);
    target.textContent = "";
    target.appendChild(fragment(html));
    section.querySelector('button[data-cite-copy="' + name + '"]').disabled = false;
  }

  function start() {
    if (started) return started;
    var item = forProcessor(JSON.parse(box.getAttribute("data-csl-item")));
    var base = box.getAttribute("data-csl");
    var styleNames = Object.keys(STYLES);
    var english = text(base + "locales-" + ENGLISH + ".xml");
    var own = LOCALE === ENGLISH ? english : text(base + "locales-" + LOCALE + ".xml");
    started = Promise.all([loadCiteproc(), english, own].concat(styleNames.map(function (n) { return text(base + STYLES[n]); })))
      .then(function (loaded) {
        var CSL = loaded[0], locales = {};
        locales[ENGLISH] = loaded[1];
        locales[LOCALE] = loaded[2];
        // the quickest style first, each in a task of its own, so that one shows while the next is built
        var order = styleNames.map(function (name, i) { return { name: name, xml: loaded[3 + i] }; })
          .sort(function (a, b) { return a.xml.length - b.xml.length; });
        return order.reduce(function (previous, style) {
          return previous.then(function () {
            return new Promise(function (resolve) { setTimeout(resolve, 0); });
          }).then(function () { show(CSL, style.name, style.xml, locales, item); });
        }, Promise.resolve());
      })
      .catch(function (error) {
        started = null;
        styleNames.forEach(function (name) {
          document.getElementById("cite-" + name).textContent = say("format-failed", { error: error.message });
        });
      });
    return started;
  }

  section.querySelectorAll("button[data-cite-copy]").forEach(function (button) {
    var name = button.getAttribute("data-cite-copy");
    var label = button.textContent;
    var timer = null;
    button.addEventListener("click", function () {
      if (!plain[name]) return;
      window.sitegenCopy(plain[name]).then(function () {
        button.textContent = say("copied", {});
        button.classList.add("done");
        status.textContent = say("citation-copied", { style: NAMES[name] });
      }, function () {
        status.textContent = say("copy-failed", {});
      }).then(function () {
        clearTimeout(timer);
        timer = setTimeout(function () { button.textContent = label; button.classList.remove("done"); }, 2500);
      });
    });
  });

  box.hidden = false;
  box.addEventListener("toggle", function () { if (box.open) start(); });
  // a pointer over it or the focus on it: the reader is about to open it
  var summary = box.querySelector("summary");
  ["pointerenter", "focus", "touchstart"].forEach(function (type) { summary.addEventListener(type, start, { passive: true }); });
  if (box.open) start();
})();
