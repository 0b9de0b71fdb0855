"""Template-facing values: plain, ready to print, URLs already resolved.

Templates only loop and branch over what is built here; HTML that the
pipeline produced (converted LaTeX, sanitised Markdown) is marked safe here
and nowhere else.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from itertools import groupby
from typing import Any

from markupsafe import Markup

from sitegen.exports.bibtex import bibtex_entry, entry_type
from sitegen.cite import csl_item
from sitegen.exports.jsonld import person_json_ld, scholarly_article, script_json
from sitegen.model import Entry, Site, Subject
from sitegen.urls import SiteUrls, record_path, subject_path

PROFILE_LINKS = {  # kind -> (label, URL for a bare identifier)
    "orcid": ("ORCID", "https://orcid.org/{}"),
    "google_scholar": ("Google Scholar", "https://scholar.google.com/citations?user={}"),
    "github": ("GitHub", "https://github.com/{}"),
    "arxiv": ("arXiv", "https://arxiv.org/a/{}"),
    "gitlab": ("GitLab", "https://gitlab.com/{}"),
    "linkedin": ("LinkedIn", "https://www.linkedin.com/in/{}"),
    "mastodon": ("Mastodon", "{}"),
    "bluesky": ("Bluesky", "https://bsky.app/profile/{}"),
    "dblp": ("dblp", "{}"),
    "website": ("Website", "{}"),
    "cv": ("CV", "{}"),
}
RECORD_LINKS = {"abs": "arXiv", "pdf": "PDF", "doi": "DOI", "code": "Code", "slides": "Slides", "video": "Video", "poster": "Poster", "data": "Data", "html": "HTML", "blog": "Blog", "website": "Website"}
_LINK_ORDER = {kind: index for index, kind in enumerate(RECORD_LINKS)}  # others follow, by name


HIGHWIRE_VENUE = {  # BibTeX entry type -> Google Scholar's tag for the venue
    "inproceedings": "citation_conference_title",
    "incollection": "citation_conference_title",
    "article": "citation_journal_title",
    "phdthesis": "citation_dissertation_institution",
    "mastersthesis": "citation_dissertation_institution",
    "techreport": "citation_technical_report_institution",
}


class ViewBuilder:
    """Builds the values of every page of one site."""

    def __init__(self, site: Site, urls: SiteUrls, static_files: list[str], render_item: Callable[[dict[str, Any]], str]):
        """`render_item` renders one record's list item (partials/record_item.html) from its values."""
        self.site = site
        self.urls = urls
        self.static_files = set(static_files)
        self._render_item = render_item
        self._items: dict[str, dict[str, Any]] = {}
        self._item_html: dict[str, Markup] = {}
        self._subject_links: dict[str, dict[str, str]] = {}
        self.subject_positions: dict[Subject, tuple[int, ...]] = {s: site.subject_positions.get(s.code, ()) for s in site.subjects}
        self.subject_counts = {s.code: len(positions) for s, positions in self.subject_positions.items()}
        from sitegen.pages.people import author_links

        self._people_link = author_links(site, urls)  # author name -> their people page (SPEC §9), None without people

    # -- shared by every page -------------------------------------------------

    def common(self, page_path: str) -> dict[str, Any]:
        config = self.site.config
        profile = self.site.profile
        return {
            "site": {
                "title": config.title,
                "description": config.description,
                "language": config.language,
                "home_url": self.urls.page("index.html"),
                "static_url": self.urls.page("static/"),
                "feed_url": self.urls.page("feed.xml"),
                "bibtex_url": self.urls.page("publications.bib"),
                "json_url": self.urls.page("records.json"),
                "owner": profile.name,
                "extra": config.extra,
            },
            "page_url": self.urls.page(page_path),
            "canonical_url": self.urls.absolute(page_path) if self.urls.origin else None,
        }

    # -- pieces ---------------------------------------------------------------

    def subject(self, subject: Subject) -> dict[str, Any]:
        return {
            "code": subject.code,
            "name": subject.name,
            "url": self.urls.page(subject_path(subject.slug)),
            "count": self.subject_counts.get(subject.code, 0),
        }

    def subject_link(self, subject: Subject) -> dict[str, Any]:
        """One per subject, shared by every record that has it (made 20,000 times a build otherwise)."""
        link = self._subject_links.get(subject.code)
        if link is None:
            link = self._subject_links[subject.code] = {"code": subject.code, "name": subject.name, "url": self.urls.page(subject_path(subject.slug))}
        return link

    def record_item(self, entry: Entry) -> dict[str, Any]:
        """A record as lists and its own page show it (made once per build)."""
        item = self._items.get(entry.id)
        if item is None:
            item = self._items[entry.id] = self._record_item(entry)
        return item

    def item_html(self, entry: Entry) -> Markup:
        """A record's list item as rendered: the same on the profile and on each of its subjects' pages."""
        html = self._item_html.get(entry.id)
        if html is None:
            html = self._item_html[entry.id] = Markup(self._render_item(self.record_item(entry)))
        return html

    def _record_item(self, entry: Entry) -> dict[str, Any]:
        record = entry.record
        authors = [{"name": a.name, "is_owner": a.is_owner, "gap_before": False} for a in entry.authors]
        if self._people_link is not None:  # a people page first, else whatever link the name had
            for author in authors:
                author["url"] = self._people_link(entry, author["name"]) or author.get("url")
        listed_authors, author_count = _listed_authors(authors)
        return {
            "id": record.id,
            "anchor": f"r-{entry.slug}",
            "url": self.urls.page(record_path(entry.slug)),
            "title": Markup(entry.title.html),
            "title_text": entry.title.plain,
            "authors": authors,  # everyone: the record page
            "listed_authors": listed_authors,  # lists: a long list cut short
            "author_count": author_count,  # when it is cut short, else 0
            "source": Markup(entry.source.html),
            "year": record.year,
            "date": record.date.isoformat() if record.date else "",
            "abstract": Markup(entry.abstract_html),
            "subjects": [self.subject_link(s) for s in entry.subjects],
            "links": self.record_links(entry),
            "featured": record.featured,
            "extra": record.extra,
        }

    def record_links(self, entry: Entry) -> list[dict[str, str]]:
        links = dict(entry.record.links)
        if entry.record.doi and "doi" not in links:
            links["doi"] = f"https://doi.org/{entry.record.doi}"
        if entry.record.arxiv and "abs" not in links:
            links["abs"] = f"https://arxiv.org/abs/{entry.record.arxiv}"
        ordered = sorted(links.items(), key=lambda kv: (_LINK_ORDER.get(kv[0], len(_LINK_ORDER)), kv[0]))
        return [{"kind": k, "label": RECORD_LINKS.get(k, k.replace("_", " ").capitalize()), "url": self.urls.link(u)} for k, u in ordered]

    def record_absolute_url(self, entry: Entry) -> str:
        return self.urls.absolute(record_path(entry.slug))

    def absolute_links(self, entry: Entry) -> dict[str, str]:
        """The record's links as written, relative ones with the site's host and path (for records.json)."""
        return {kind: self.urls.absolute_link(url) for kind, url in entry.record.links.items()}

    def year_groups(self, ordered: list[Entry]) -> list[dict[str, Any]]:
        """Records in listing order, grouped by year: `items`, their list items as rendered
        (what the bundled theme prints), and `records`, their values for templates that want them."""
        groups = [(year, list(group)) for year, group in groupby(ordered, key=lambda e: e.record.year)]
        return [{"year": year, "rendered_items": [self.item_html(e) for e in group], "records": RecordItems(self, group)} for year, group in groups]

    def entries_at(self, positions: Sequence[int]) -> list[Entry]:
        entries = self.site.entries
        return [entries[position] for position in positions]

    def listing_pages(self, positions: Sequence[int], prefix: str) -> list[tuple[str, list[int], dict[str, Any]]]:
        """A list of records (their positions in `site.entries`) split into pages of at most
        `records_per_page`, with their navigation."""
        entries = self.site.entries
        ordered = listing_order(entries, positions) if self.site.featured else list(positions)
        per_page = self.site.config.records_per_page
        chunks = [ordered[i : i + per_page] for i in range(0, len(ordered), per_page)] or [[]]
        paths = [listing_path(prefix, number) for number in range(1, len(chunks) + 1)]
        urls = [self.urls.page(path) for path in paths]
        # a year's link goes to the page of its first record
        year_links = [{"year": y, "url": f"{urls[start // per_page]}#year-{y}"} for y, start in year_starts(entries, ordered).items()]
        pages = []
        for number, (path, chunk) in enumerate(zip(paths, chunks), start=1):
            pagination = {
                "number": number,
                "count": len(chunks),
                "previous_url": urls[number - 2] if number > 1 else None,
                "next_url": urls[number] if number < len(chunks) else None,
                "page_urls": urls,  # every page's, shared: `pages` is made for a page only when it is rendered
                "year_links": year_links,
            }
            pages.append((path, chunk, pagination))
        return pages

    def profile(self) -> dict[str, Any]:
        profile = self.site.profile
        links = []
        if profile.email:
            links.append({"kind": "email", "label": "Email", "url": f"mailto:{profile.email}", "text": profile.email})
        for kind, label, url in self._profile_links():
            links.append({"kind": kind, "label": label, "url": self.urls.link(url), "text": label})
        photo = self._photo()
        return {
            "name": profile.name,
            "position": profile.position,
            "affiliation": profile.affiliation,
            "bio": Markup(self.site.bio_html),
            "photo_url": self.urls.page(f"static/{photo}") if photo else None,
            "links": links,
            "extra": profile.extra,
        }

    def _profile_links(self) -> list[tuple[str, str, str]]:
        """(kind, label, URL as written or made from an identifier) of each link in profile.yaml."""
        links = []
        for kind, value in self.site.profile.links.items():
            label, pattern = PROFILE_LINKS.get(kind, (kind.replace("_", " ").title(), "{}"))
            links.append((kind, label, value if "://" in value or value.startswith("mailto:") else pattern.format(value)))
        return links

    def _photo(self) -> str | None:
        """The profile photo's file in static/, when there is one."""
        return self.site.profile.photo if self.site.profile.photo in self.static_files else None

    # -- pages ----------------------------------------------------------------

    def index_listing(self) -> list[tuple[str, list[int], dict[str, Any]]]:
        return self.listing_pages(range(len(self.site.entries)), "")

    def index_list_page(self, path: str, chunk: list[int], pagination: dict[str, Any]) -> dict[str, Any]:
        context = self.index_page(path)
        context.update(years=self.year_groups(self.entries_at(chunk)), pagination=with_page_links(pagination))
        return context

    def index_page(self, path: str = "index.html") -> dict[str, Any]:
        context = self.common(path)
        profile = self.profile()
        home = self.urls.absolute("index.html")
        web_links = [self.urls.absolute_link(url) for kind, _, url in self._profile_links() if kind != "email"]
        photo = self._photo()
        photo_absolute = self.urls.absolute(f"static/{photo}") if photo else None
        context.update(
            profile=profile,
            record_count=len(self.site.entries),
            featured=[self.record_item(e) for e in self.site.featured],
            subjects=[self.subject(s) for s in self.site.subjects],
            jsonld=Markup(script_json(person_json_ld(self.site.profile, home, photo_absolute, web_links))),
        )
        return context

    def record_page(self, entry: Entry) -> dict[str, Any]:
        path = record_path(entry.slug)
        context = self.common(path)
        record = entry.record
        absolute = self.record_absolute_url(entry)
        context.update(
            record=self.record_item(entry),
            bibtex=bibtex_entry(entry, absolute),
            cite_key=entry.cite_key,
            description=_shorten(entry.abstract_plain, 300),
            meta=self.highwire(entry),
            jsonld=Markup(script_json(scholarly_article(entry, absolute, self.urls.absolute("index.html")))),
            csl=Markup(script_json(csl_item(entry))),  # the record as CSL-JSON: partials/cite.html, static/cite.js
        )
        return context

    def highwire(self, entry: Entry) -> list[tuple[str, str]]:
        """Google Scholar's citation_* tags, in its documented order."""
        record = entry.record
        meta = [("citation_title", entry.title.plain)]
        meta += [("citation_author", a.name) for a in entry.authors]
        date = record.date.strftime("%Y/%m/%d") if record.date else str(record.year)
        meta.append(("citation_publication_date", date))
        source = entry.source.plain
        if source and source.lower() != "arxiv":
            # the same reading of the venue as the BibTeX entry type (workshop -> conference, thesis -> institution)
            meta.append((HIGHWIRE_VENUE.get(entry_type(entry), "citation_journal_title"), source))
        pdf = record.links.get("pdf") or (f"https://arxiv.org/pdf/{record.arxiv}" if record.arxiv else None)
        if pdf:
            meta.append(("citation_pdf_url", self.urls.absolute_link(pdf)))
        if record.arxiv:
            meta.append(("citation_arxiv_id", record.arxiv))
        if record.doi:
            meta.append(("citation_doi", record.doi))
        meta.append(("citation_abstract_html_url", self.record_absolute_url(entry)))
        return meta

    def subject_listing(self, subject: Subject, positions: Sequence[int]) -> list[tuple[str, list[int], dict[str, Any]]]:
        return self.listing_pages(positions, subject_path(subject.slug).removesuffix("index.html"))

    def subject_list_page(self, subject: Subject, count: int, path: str, chunk: list[int], pagination: dict[str, Any]) -> dict[str, Any]:
        context = self.common(path)
        context.update(subject=self.subject(subject), record_count=count, years=self.year_groups(self.entries_at(chunk)), pagination=with_page_links(pagination))
        return context

    def not_found_page(self) -> dict[str, Any]:
        context = self.common("404.html")
        context.update(subjects=[self.subject(s) for s in self.site.subjects])
        return context


class RecordItems(Sequence):
    """The values of some records (`record_item`, and `html`: the list item as rendered), each made when a
    template first reads it: the bundled theme prints the rendered items and never reads these."""

    def __init__(self, views: ViewBuilder, entries: list[Entry]):
        self._views = views
        self._entries = entries

    def __len__(self) -> int:
        return len(self._entries)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._values(entry) for entry in self._entries[index]]
        return self._values(self._entries[index])

    def _values(self, entry: Entry) -> dict[str, Any]:
        return {**self._views.record_item(entry), "html": self._views.item_html(entry)}


def listing_order(entries: Sequence[Entry], positions: Sequence[int]) -> list[int]:
    """Newest year first; within a year, featured records first, then newest first (entries come newest first,
    so without featured records the order stays as it is: `listing_pages` then does not sort)."""
    return sorted(positions, key=lambda p: (-entries[p].record.year, not entries[p].record.featured))


def year_starts(entries: Sequence[Entry], ordered: Sequence[int]) -> dict[int, int]:
    """Each year -> the index in `ordered` of its first record (`ordered`: positions in `entries`, newest year first).

    Found by bisection: a few looks per year, not one at each of 100,000 records.
    """
    starts: dict[int, int] = {}
    index = 0

    def minus_year(position: int) -> int:
        return -entries[position].record.year

    while index < len(ordered):
        year = entries[ordered[index]].record.year
        starts[year] = index
        index = bisect_right(ordered, -year, index, key=minus_year)  # the first record of an older year
    return starts


LISTED_AUTHORS_UNCUT = 12  # a list names every author of a record with at most this many
LISTED_AUTHORS_FIRST = 10  # of a longer author list (a collaboration's hundreds), the first this many, and the owner


def _listed_authors(authors: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """The authors a list names, and the count of all when it leaves some out (else 0).

    An owner beyond the first ones is named too, with `gap_before`: names were left out before them.
    """
    if len(authors) <= LISTED_AUTHORS_UNCUT:
        return authors, 0
    owners_later = [{**author, "gap_before": True} for author in authors[LISTED_AUTHORS_FIRST:] if author["is_owner"]]
    return authors[:LISTED_AUTHORS_FIRST] + owners_later, len(authors)


PAGE_LINKS_AROUND = 2  # page links shown on each side of the current page; the first and last are always shown


def with_page_links(pagination: dict[str, Any]) -> dict[str, Any]:
    """The navigation of one page: links to the first and last pages and to those around this one.

    A link to every page would be n links on each of n pages (400 on every
    page of a 100,000-record profile, 160,000 in all). A page after skipped
    numbers says so (`gap_before`); a gap never hides a single page.
    """
    number, urls = pagination["number"], pagination["page_urls"]
    shown = {1, len(urls), *range(max(1, number - PAGE_LINKS_AROUND), min(len(urls), number + PAGE_LINKS_AROUND) + 1)}
    shown |= {n + 1 for n in shown if n + 2 in shown}  # '1 … 3' would hide one page: show 2 instead
    pages, previous = [], 0
    for n in sorted(shown):
        pages.append({"number": n, "url": urls[n - 1], "current": n == number, "gap_before": n > previous + 1})
        previous = n
    return {**pagination, "pages": pages}


def listing_path(prefix: str, number: int) -> str:
    """Page 1 of a list is `<prefix>index.html`; page n is `<prefix>page/<n>/index.html`."""
    return f"{prefix}index.html" if number == 1 else f"{prefix}page/{number}/index.html"


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: limit].rsplit(" ", 1)[0] + "…"
