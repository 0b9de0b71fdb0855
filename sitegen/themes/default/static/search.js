// Search and filters of a list page (SPEC §8): partials/search.html's form, over the whole list.
//
// search/facets.json (slug, year, type, subjects, featured of every record) is fetched when the
// page loads and fills the filters; search/text.json (title, authors, venue, abstract words) when
// the reader first types or focuses the search box, or opens a searched address. A list that is
// all on this page is filtered in place (records hidden and shown); a list split into pages shows
// the matches of every page in a list of their own. The state lives in the address
// (?q=&year=&type=&subject=): restored on load and on back/forward. Record text is only ever
// set as textContent.
//
// A page may hold several forms (a page or a post with several lists of records): each searches
// the records of its own list (data-only-listed-here; a further list's record ids start with its
// data-record-prefix) and keeps its state in names of its own (data-query-prefix: ?list3-q=...).
// The two index files are fetched, and the text folded, once for all of them.
(function () {
  "use strict";
  if (window.sitegenSearch) return; // loaded once a page, whatever includes it
  window.sitegenSearch = true;
  var forms = document.querySelectorAll("form.search[data-index]");
  if (!forms.length || !window.fetch || !window.URLSearchParams || !window.history.replaceState) return;
  var indexUrl = forms[0].getAttribute("data-index");
  // a page in a language but the default of a site in several: its facets, with its words for the types
  var facetsUrl = forms[0].getAttribute("data-facets") || indexUrl + "facets.json";

  // -- the index, fetched once for every form of the page --------------------------------------------
  var requests = {};
  function getJson(name) {
    if (!requests[name]) {
      requests[name] = fetch(name === "facets.json" ? facetsUrl : indexUrl + name, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error(name + ": HTTP " + response.status);
        return response.json();
      });
      requests[name].catch(function () { delete requests[name]; }); // asked again later, by the next keystroke
    }
    return requests[name];
  }
  var facetYear = [];
  var foldedTexts = null;
  function getTexts() { // each record's text, folded once for the whole page
    return getJson("text.json").then(function (rows) {
      if (!foldedTexts) {
        foldedTexts = rows.map(function (row, i) {
          return { title: row[0], authors: row[1], venue: row[2], folded: searchable(row[0] + "\n" + row[1] + "\n" + row[2] + "\n" + row[3]) + "\n" + (facetYear[i] || "") };
        });
      }
      return foldedTexts;
    });
  }

  // -- text as readers type it: case, accents and letter forms ignored -------------------------
  // (and the soft and hard signs of a transliterated Russian name, left out: "drinfeld" finds Drinfelʹd, as MathSciNet's)
  var LETTERS = { "ß": "ss", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th", "ŀ": "l", "ħ": "h", "\u02b9": "", "\u02ba": "" };
  var LETTER = /[ßøđðłæœıþŀħ\u02b9\u02ba]/g;
  // accents, and the vowel marks of Hebrew (niqqud, cantillation) and Arabic (harakat, hamza over or under a letter:
  // NFKD sets it apart), which most texts leave out
  var MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed]/g;
  // the letters Arabic and Persian write differently (a Persian keyboard types ی and ک, an Arabic one ي and ك), ة as
  // ه, Persian and Arabic-Indic digits as 0-9, and the kashida and the zero-width non-joiner ("می‌کنیم" is also typed
  // "میکنیم") left out
  var ARABIC_FORMS = { "\u064a": "\u06cc", "\u0649": "\u06cc", "\u0643": "\u06a9", "\u0629": "\u0647", "\u0640": "", "\u200c": "" };
  var ARABIC_FORM = /[\u064a\u0649\u0643\u0629\u0640\u200c\u0660-\u0669\u06f0-\u06f9]/g;
  function arabicForm(c) {
    var code = c.charCodeAt(0);
    if (code >= 0x0660 && code <= 0x0669) return String(code - 0x0660);
    if (code >= 0x06f0 && code <= 0x06f9) return String(code - 0x06f0);
    return ARABIC_FORMS[c];
  }
  var DASHES = /[\u2010-\u2015\u2212]/g;
  var QUOTES = /[\u2018\u2019\u201a\u201b\u2032]/g;
  var DQUOTES = /[\u201c\u201d\u201e\u201f\u2033]/g;
  // Chinese and Japanese write no spaces between words, and a name is written "山田 太郎" or "山田太郎": the spaces
  // between two CJK characters (Han, kana, Hangul) are dropped in the text and in what is typed, so either finds
  // either; a space next to a Latin letter stays ("山田 Taro")
  var CJK = "\u3005-\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff";
  var CJK_GAP = new RegExp("([" + CJK + "])[^\\S\\n]+(?=[" + CJK + "])", "g");
  function fold(text) {
    return text.replace(CJK_GAP, "$1").normalize("NFKD").replace(MARKS, "").toLowerCase().replace(LETTER, function (c) { return LETTERS[c]; })
      .replace(ARABIC_FORM, arabicForm).replace(DASHES, "-").replace(QUOTES, "'").replace(DQUOTES, '"');
  }
  // German umlauts are also typed ae, oe, ue ("Mueller" for Müller): a text that has them is searched that way too
  var UMLAUTS = { "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue" };
  var UMLAUT = /[äöüÄÖÜ]/g;
  var HAS_UMLAUT = /[äöüÄÖÜ]/;
  function searchable(text) {
    var folded = fold(text);
    return HAS_UMLAUT.test(text.normalize("NFC")) ? folded + "\n" + fold(text.normalize("NFC").replace(UMLAUT, function (c) { return UMLAUTS[c]; })) : folded;
  }
  function cssEscape(value) { return window.CSS && CSS.escape ? CSS.escape(value) : value.replace(/["\\]/g, "\\$&"); }
  function option(value, text) {
    var element = document.createElement("option");
    element.value = value;
    element.textContent = text;
    return element;
  }

  var facetsRequest = getJson("facets.json");
  Array.prototype.forEach.call(forms, function (form) { searchForm(form, facetsRequest); });

  function searchForm(form, facetsRequest) {
    var controls = form.querySelector(".search-controls");
    var input = form.querySelector("input[type=search]");
    var selects = { year: form.querySelector("select[name=year]"), type: form.querySelector("select[name=type]"), subject: form.querySelector("select[name=subject]") };
    var countLine = form.querySelector(".search-count");
    var status = form.querySelector("[data-search-status]");
    var section = form.parentElement;
    var recordsUrl = form.getAttribute("data-records");
    var ownSubject = form.getAttribute("data-subject") || "";
    var queryPrefix = form.getAttribute("data-query-prefix") || ""; // this list's names in the address
    var recordPrefix = form.getAttribute("data-record-prefix") || ""; // before r-<slug>, the ids of this list's records
    var FIELDS = ["q", "year", "type", "subject"];
    var SHOWN_AT_ONCE = 250; // matches from other pages shown before "Show more"
    var TYPING_PAUSE = 400; // ms without a keystroke before the address takes the search
    var LONG_LIST = 150; // records on the page from which offscreen ones are left unrendered (style.css: .search-long; the build writes it on its own lists: views.LONG_LIST)

    var list = null; // this list's records, in the order the list shows them
    var inPlace = false; // every record of the list is on this page
    var texts = null; // folded text per record (site order), once search/text.json is in
    var textRequest = null;
    var typeLabels = {};
    var subjectNames = {};
    var last = { filters: null, query: null, matches: null };
    var results = null; // the list of matches from every page (lists split into pages)
    var shownLimit = SHOWN_AT_ONCE;
    var announceTimer = null;
    var announceAll = false; // the reader's own change is to be announced, even one that lists everything

    // -- what the form says, in the site's language (partials/search.html's data-text-* attributes) ----
    function say(name, values) {
      var text = form.getAttribute("data-text-" + name) || "";
      return text.replace(/\{(\w+)\}/g, function (whole, key) { return key in values ? String(values[key]) : whole; });
    }

    // -- state <-> address <-> controls -------------------------------------------------------------
    function stateFromAddress() {
      var params = new URLSearchParams(window.location.search);
      var state = {};
      FIELDS.forEach(function (name) { state[name] = (params.get(queryPrefix + name) || "").trim(); });
      return state;
    }
    function stateFromControls() {
      return { q: input.value.trim(), year: selects.year.value, type: selects.type.value, subject: selects.subject.value };
    }
    function address(state) {
      var params = new URLSearchParams(window.location.search);
      FIELDS.forEach(function (name) { if (state[name]) params.set(queryPrefix + name, state[name]); else params.delete(queryPrefix + name); });
      var query = params.toString();
      return window.location.pathname + (query ? "?" + query : "") + window.location.hash;
    }
    function remember(state, how) {
      var url = address(state);
      if (url === window.location.pathname + window.location.search + window.location.hash) return;
      var previous = window.history.state;
      // typing replaces the entry it made at its first keystroke in this list; a filter, a clearing, a new search push one
      var entry = { sitegenSearch: how, list: queryPrefix };
      if (how === "typing" && previous && previous.sitegenSearch === "typing" && previous.list === queryPrefix) window.history.replaceState(entry, "", url);
      else window.history.pushState(entry, "", url);
    }
    function show(state) {
      if (input.value.trim() !== state.q) input.value = state.q;
      ["year", "type", "subject"].forEach(function (name) {
        var select = selects[name];
        if (state[name] && !select.querySelector('option[value="' + cssEscape(state[name]) + '"]')) {
          select.appendChild(option(state[name], label(name, state[name]) + " (0)")); // a shared address naming what this list lacks
        }
        select.value = state[name];
      });
    }
    function label(name, value) {
      if (name === "type") return typeLabels[value] || value;
      if (name === "subject") return subjectNames[value] || value;
      return value;
    }

    // -- the index --------------------------------------------------------------------------------
    function loadText() {
      if (!textRequest) {
        textRequest = getTexts().then(function (folded) {
          texts = folded;
          last.query = null;
          update(stateFromControls());
        }, function () {
          textRequest = null;
          countLine.textContent = say("not-loaded", {});
        });
      }
      return textRequest;
    }

    function useFacets(facets) {
      facets.types.forEach(function (pair) { typeLabels[pair[0]] = pair[1]; });
      facets.subjects.forEach(function (pair) { subjectNames[pair[0]] = pair[1]; });
      var records = facets.records.map(function (row, i) {
        facetYear[i] = row[1];
        return {
          index: i, slug: row[0], year: String(row[1]), type: row[2] >= 0 ? facets.types[row[2]][0] : "",
          subjects: row[3].map(function (s) { return facets.subjects[s][0]; }), featured: row[4] === 1, element: null, item: null,
        };
      });
      list = records.filter(function (r) { return !ownSubject || r.subjects.indexOf(ownSubject) >= 0; });
      if (form.hasAttribute("data-only-listed-here")) { // a person's page: the records of its list
        list = list.filter(function (r) { var element = document.getElementById(recordPrefix + "r-" + r.slug); return element && section.contains(element); });
      }
      if (list.some(function (r) { return r.featured; })) { // as the list is ordered: newest year first, featured first within a year
        list.sort(function (a, b) { return b.year - a.year || (b.featured - a.featured) || a.index - b.index; });
      }
      var found = 0;
      list.forEach(function (r) {
        var element = document.getElementById(recordPrefix + "r-" + r.slug);
        if (element && section.contains(element)) { r.element = element; found += 1; }
      });
      inPlace = found === list.length;
      if (section.querySelectorAll("li.record").length >= LONG_LIST) section.classList.add("search-long");
      fillFilters();
    }
    function fillFilters() {
      var counts = { year: {}, type: {}, subject: {} };
      list.forEach(function (r) {
        counts.year[r.year] = (counts.year[r.year] || 0) + 1;
        if (r.type) counts.type[r.type] = (counts.type[r.type] || 0) + 1;
        r.subjects.forEach(function (s) { if (s !== ownSubject) counts.subject[s] = (counts.subject[s] || 0) + 1; });
      });
      var order = {
        year: Object.keys(counts.year).sort(function (a, b) { return b - a; }),
        type: Object.keys(typeLabels).filter(function (t) { return counts.type[t]; }),
        subject: Object.keys(subjectNames).filter(function (s) { return counts.subject[s]; }),
      };
      ["year", "type", "subject"].forEach(function (name) {
        var select = selects[name];
        while (select.options.length > 1) select.remove(1);
        order[name].forEach(function (value) { select.appendChild(option(value, label(name, value) + " (" + counts[name][value] + ")")); });
        select.parentElement.hidden = order[name].length === 0 && name === "subject";
      });
    }

    // -- matching -----------------------------------------------------------------------------------
    // each word typed, folded, with its umlauts as ae, oe, ue too ("Müller" also finds a record that spells it "Mueller")
    function terms(query) {
      return query.normalize("NFC").split(/\s+/).filter(Boolean).map(function (word) {
        var folded = fold(word);
        var spelled = HAS_UMLAUT.test(word) ? fold(word.replace(UMLAUT, function (c) { return UMLAUTS[c]; })) : folded;
        return spelled === folded ? [folded] : [folded, spelled];
      }).filter(function (forms) { return forms[0]; });
    }
    function matches(state) {
      var filters = [state.year, state.type, state.subject].join("\u0000");
      var query = terms(state.q);
      var searching = query.length > 0 && texts !== null;
      var joined = searching ? query.map(function (forms) { return forms[0]; }).join(" ") : "";
      // more letters typed on the same filters: only the records that matched before can match now
      var candidates = list;
      if (last.filters === filters && last.query !== null && last.matches && joined.indexOf(last.query) === 0 && searching === (last.query !== "")) {
        candidates = last.matches;
      }
      var found = [];
      for (var i = 0; i < candidates.length; i++) {
        var r = candidates[i];
        if (state.year && r.year !== state.year) continue;
        if (state.type && r.type !== state.type) continue;
        if (state.subject && r.subjects.indexOf(state.subject) < 0) continue;
        if (searching) {
          var text = texts[r.index].folded;
          var all = true;
          for (var t = 0; t < query.length; t++) {
            if (text.indexOf(query[t][0]) < 0 && (query[t].length < 2 || text.indexOf(query[t][1]) < 0)) { all = false; break; }
          }
          if (!all) continue;
        }
        found.push(r);
      }
      last = { filters: filters, query: joined, matches: found };
      return found;
    }

    // -- showing ------------------------------------------------------------------------------------
    // `byReader`: the reader changed the search (typed, chose, cleared, went Back): once typing pauses, the live region
    // says what is shown, the whole list too ("22 publications" after a clear); the page as it opens says nothing
    function update(state, byReader) {
      if (!list) return;
      var active = Boolean(state.q || state.year || state.type || state.subject);
      if (state.q && texts === null) loadText();
      var found = active ? matches(state) : list;
      if (inPlace) showInPlace(found, active);
      else showAcrossPages(found, active);
      var total = list.length;
      var noun = say(total === 1 ? "one" : "many", {});
      var line;
      if (!active) line = total + " " + noun;
      // the text of the records is needed to search, and to show matches of other pages of a paged list
      else if (texts === null && (state.q || !inPlace)) line = say("searching", { total: total, publications: noun });
      else line = say("found", { found: found.length, total: total, publications: noun });
      countLine.textContent = line;
      form.classList.toggle("search-filtered", active); // on paper the count says the list is a selection ("2 of 80")
      clearTimeout(announceTimer);
      if (byReader) announceAll = true;
      announceTimer = setTimeout(function () {
        status.textContent = active ? say("shown", { line: line }) : announceAll ? line : "";
        announceAll = false;
      }, 600);
    }

    // A record left out keeps its place in the page, unrendered (style.css: .search-out, content-visibility:
    // hidden): showing it again reuses its rendering, where display: none would rebuild it from scratch.
    function leaveOut(element, out) {
      if (element.classList.contains("search-out") === out) return;
      element.classList.toggle("search-out", out);
      if (out) element.setAttribute("aria-hidden", "true");
      else element.removeAttribute("aria-hidden");
    }
    function showInPlace(found, active) {
      var wanted = new Set(active ? found : []);
      var groups = new Map();
      list.forEach(function (r) {
        r.show = !active || wanted.has(r);
        var group = r.group || (r.group = r.element.closest(".year-group"));
        if (group && r.show) groups.set(group, true);
        else if (group && !groups.has(group)) groups.set(group, false);
      });
      // a year left out whole is left out as one; its records are set when it is shown again
      list.forEach(function (r) { if (!r.group || groups.get(r.group)) leaveOut(r.element, !r.show); });
      groups.forEach(function (shown, group) { leaveOut(group, !shown); });
      section.querySelectorAll(".year-nav a[href^='#']").forEach(function (link) {
        var target = document.getElementById(link.getAttribute("href").slice(1));
        var group = target && target.closest(".year-group");
        var item = link.parentElement;
        var hide = Boolean(group && group.classList.contains("search-out"));
        if (item.hidden !== hide) item.hidden = hide;
      });
    }

    function showAcrossPages(found, active) {
      var originals = section.querySelectorAll(".year-group:not(.search-match-group), .pagination, .year-nav");
      originals.forEach(function (element) { element.hidden = active; });
      if (!active) { if (results) results.hidden = true; return; }
      if (!results) {
        results = document.createElement("div");
        results.className = "search-matches";
        form.insertAdjacentElement("afterend", results);
      }
      results.hidden = false;
      results.textContent = "";
      if (texts === null) { loadText(); return; }
      var shown = found.slice(0, shownLimit);
      var group = null, year = null;
      shown.forEach(function (r) {
        if (r.year !== year) {
          year = r.year;
          var box = document.createElement("section");
          box.className = "year-group search-match-group";
          var heading = document.createElement("h3");
          heading.className = "year";
          heading.textContent = year;
          box.appendChild(heading);
          group = document.createElement("ol");
          group.className = "records";
          box.appendChild(group);
          results.appendChild(box);
        }
        group.appendChild(r.item || (r.item = matchItem(r)));
      });
      if (found.length > shown.length) {
        var more = document.createElement("button");
        more.type = "button";
        more.className = "search-more";
        more.textContent = say("more", { hidden: found.length - shown.length });
        more.addEventListener("click", function () {
          shownLimit += SHOWN_AT_ONCE;
          update(stateFromControls());
          var next = results.querySelectorAll("li.record")[shown.length];
          if (next) next.querySelector("a").focus();
        });
        results.appendChild(more);
      }
    }

    function matchItem(r) {
      var text = texts[r.index];
      var item = document.createElement("li");
      item.className = "record" + (r.featured ? " featured" : "");
      var heading = document.createElement("h4");
      heading.className = "record-title";
      var link = document.createElement("a");
      link.href = recordsUrl + r.slug + "/";
      link.textContent = text.title;
      heading.appendChild(link);
      item.appendChild(heading);
      if (text.authors) {
        var authors = document.createElement("p");
        authors.className = "authors";
        authors.textContent = text.authors;
        item.appendChild(authors);
      }
      var venue = document.createElement("p");
      venue.className = "venue";
      var parts = [typeLabels[r.type], text.venue, r.year].filter(Boolean);
      venue.textContent = parts.join(" · ");
      item.appendChild(venue);
      return item;
    }

    function announceNow() {
      clearTimeout(announceTimer);
      var state = stateFromControls();
      status.textContent = state.q || state.year || state.type || state.subject ? say("shown", { line: countLine.textContent }) : countLine.textContent;
    }

    // -- wiring -------------------------------------------------------------------------------------
    // the address follows typing once it pauses (a history entry costs the browser more than the whole update)
    var pending = null;
    function flush() {
      if (pending === null) return;
      clearTimeout(pending);
      pending = null;
      remember(stateFromControls(), "typing");
    }
    function changed(how) {
      shownLimit = SHOWN_AT_ONCE;
      var state = stateFromControls();
      update(state, true);
      if (how === "typing") {
        clearTimeout(pending);
        pending = setTimeout(flush, TYPING_PAUSE);
      } else {
        flush();
        remember(state, how);
      }
    }
    input.addEventListener("input", function () { changed("typing"); });
    input.addEventListener("blur", flush);
    document.addEventListener("pointerdown", flush, true);
    window.addEventListener("pagehide", flush);
    input.addEventListener("focus", function () { if (list) loadText(); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && input.value) { event.preventDefault(); input.value = ""; changed("clear"); }
    });
    ["year", "type", "subject"].forEach(function (name) {
      selects[name].addEventListener("change", function () { changed("filter"); });
    });
    form.querySelector(".search-reset").addEventListener("click", function () {
      input.value = "";
      ["year", "type", "subject"].forEach(function (name) { selects[name].value = ""; });
      changed("clear");
      input.focus();
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); announceNow(); });
    window.addEventListener("popstate", function () {
      clearTimeout(pending);
      pending = null;
      var state = stateFromAddress();
      show(state);
      shownLimit = SHOWN_AT_ONCE;
      update(state, true);
    });

    facetsRequest.then(function (facets) {
      useFacets(facets);
      var state = stateFromAddress();
      show(state);
      controls.disabled = false;
      if (state.q) loadText();
      update(state);
    }, function () {
      countLine.textContent = say("unavailable", {});
    });
  }
})();
