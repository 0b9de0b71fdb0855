"""What readers search and cite with (SPEC §8): the search index of every list page, and the
citation styles that record pages format citations with in the browser.

**Search.** Every list page (the profile, each subject, and each of their pages past
`records_per_page`) searches and filters the whole list, not just the page in view, so
the records are described once for the whole site, in two files that
`static/search.js` reads:

- `search/facets.json`, fetched when a list page loads: for every shown record in
  site order its slug, year, type, subjects and whether it is featured, and the names
  of the types and subjects. It fills the year, type and subject filters and counts,
  and it is small (some 25 bytes a record, before compression). A site in several languages
  has one a language (`fr/search/facets.json`: the types named in French), the text once.
- `search/text.json`, fetched at the first keystroke (or when the page opens with a
  search in its address): the same records' title, authors, venue and abstract as
  readers see them (LaTeX converted, so "O(n²)" is found as it is printed).

Both are JSON written here and read with `JSON.parse`; record text reaches the page
through `textContent` only.

**Citations.** A record page carries its CSL-JSON item (`sitegen.cite.csl_item`); APA,
IEEE and Vancouver are made from it in the browser by citeproc-js (`static/vendor/`) when the
reader opens them. The styles are the ones in `sitegen/csl/` that citeproc-py uses
(so the two can be compared), served as `static/csl/apa.csl`, `ieee.csl` and `vancouver.csl`,
with citeproc-py's en-US locale as `static/csl/locales-en-US.xml` and the locale of the site's
language beside it (`locales-de-DE.xml`: `sitegen.cite.csl_locale`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import cache

import orjson

from sitegen.cite import CSL_DIR, STYLES, csl_locale, csl_locales
from sitegen.model import RECORD_TYPES, Entry, short_byline
from sitegen.pages import Page, RenderContext, register_page_kind

FACETS_PATH = "search/facets.json"
TEXT_PATH = "search/text.json"
CSL_OUTPUT = "static/csl/"
LOCALE = "locales-en-US.xml"


@register_page_kind("search")
def search_files(context: RenderContext) -> Iterable[Page]:
    yield Page(TEXT_PATH, (context.everything,), lambda: search_text(context.site.entries), every_record=True)


@register_page_kind("search-facets", per_language=True)
def search_facet_files(context: RenderContext) -> Iterable[Page]:
    """The facets in each language of a site in several (`es/search/facets.json`): their names of the types are what
    that language's type filter says; the records' text (`search/text.json`) is the same in every language."""
    type_labels = {kind: str(context.strings.get(f"types.{kind}", kind)) for kind in RECORD_TYPES}  # what the type filter says
    yield Page(FACETS_PATH, (context.everything,), lambda: search_facets(context.site.entries, context.site.subjects, type_labels), every_record=True)


@register_page_kind("citation_styles")
def citation_style_files(context: RenderContext) -> Iterable[Page]:
    for name, data in csl_files(csl_locale(context.site.config.language)).items():
        yield Page(CSL_OUTPUT + name, (hashlib.blake2b(data, digest_size=16).hexdigest(),), _made_of(data))


def _made_of(data: bytes) -> Callable[[], bytes]:
    """A page's `make` that returns `data` as it is (a function of its own for each file of a loop)."""
    return lambda: data


def search_facets(entries: Iterable[Entry], subjects: Iterable, type_labels: dict[str, str]) -> bytes:
    """search/facets.json: `types` (labelled as `type_labels` say) and `subjects` as [code, label] pairs; `records` as
    [slug, year, type index, [subject indexes], featured (0/1)] in site order."""
    entries = list(entries)
    present = {entry.record.type for entry in entries}
    types = [kind for kind in RECORD_TYPES if kind in present]
    type_index = {kind: i for i, kind in enumerate(types)}
    subject_list = list(subjects)
    subject_index = {subject.code: i for i, subject in enumerate(subject_list)}
    records = [
        [
            entry.slug,
            entry.record.year,
            type_index.get(entry.record.type, -1),
            [subject_index[s.code] for s in entry.subjects if s.code in subject_index],
            1 if entry.record.featured else 0,
        ]
        for entry in entries
    ]
    data = {
        "types": [[kind, type_labels[kind]] for kind in types],
        "subjects": [[s.code, s.name] for s in subject_list],
        "records": records,
    }
    return orjson.dumps(data)


def search_text(entries: Iterable[Entry]) -> bytes:
    """search/text.json: [title, authors (the names a list shows, ", "-joined, "…" for those left out of a
    collaboration's list; an edited book's editors), venue, abstract] per record, in site order, as plain text.
    The last is only searched, never shown: a record's award and short venue name go there too, so that
    "best paper" and "ICML" find it."""
    return orjson.dumps([[entry.title.plain, short_byline(entry.authors or entry.editors), entry.source.plain, _searched_text(entry)] for entry in entries])


def _searched_text(entry: Entry) -> str:
    return "\n".join([entry.abstract_plain, *(text.plain for text in (entry.award, entry.venue_short) if text is not None)])


@cache
def csl_files(locale: str = "en-US") -> dict[str, bytes]:
    """Output name under static/csl/ -> bytes: the styles citeproc-py formats with, its en-US locale (citeproc-js's
    fallback for a term another locale lacks) and the locale of the site's language (`csl_locale`)."""
    files = {name: (CSL_DIR / name).read_bytes() for name in sorted(STYLES.values())}
    for name in dict.fromkeys((LOCALE, f"locales-{locale}.xml")):
        files[name] = csl_locales().joinpath(name).read_bytes()
    return files
