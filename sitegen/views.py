"""Template-facing values: plain, ready to print, URLs already resolved.

Templates only loop and branch over what is built here; HTML that the
pipeline produced (converted LaTeX, sanitised Markdown) is marked safe here
and nowhere else.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import quote

from markupsafe import Markup, escape

from sitegen.categories import subject_name
from sitegen.cite import csl_locale, csl_names, en_dashed, page_csl_item, record_type
from sitegen.enrich import normalise_name
from sitegen.exports import page_range
from sitegen.exports.bibtex import bibtex_entry, entry_type, publication_status, record_details, work_licence, work_version
from sitegen.exports.jsonld import blog_posting, organization_json_ld, owner_id, person_json_ld, profile_page, scholarly_article, script_json
from sitegen.fragments import Fragments
from sitegen.homepage.appearance import MAIN_STYLESHEET, STYLE_PATH
from sitegen.homepage.selection import PublicationFilter
from sitegen.homepage.settings import HomepageSettings
from sitegen.languages import LanguageLinks, own_language
from sitegen.markup import render_inline, sections_of, with_links
from sitegen.metrics import citation_total, h_index
from sitegen.model import LISTED_AUTHORS_FIRST, LISTED_AUTHORS_UNCUT, Entry, Record, Site, Subject, Text, listed_positions
from sitegen.names import FAMILY_FIRST_LETTER, family_first, shown_name, written_editors
from sitegen.notices import retracted, withdrawn
from sitegen.record_types import is_preprint_venue, is_workshop_paper, numbers_a_series, work_kind
from sitegen.sources.bibtex import MARK_NOTES
from sitegen.theme import format_date_range
from sitegen.urls import (
    MOST_CITED_PATH,
    NEWS_FEED_PATH,
    POSTS_FEED_PATH,
    POSTS_PATH,
    WEB_PREFIXES,
    SiteUrls,
    is_relative_path,
    no_link_preview_format,
    picture_elsewhere_problem,
    post_path,
    record_path,
    slugify,
    subject_path,
    tag_path,
)

PROFILE_LINKS = {  # kind -> (label, URL for a bare identifier)
    "orcid": ("ORCID", "https://orcid.org/{}"),
    "google_scholar": ("Google Scholar", "https://scholar.google.com/citations?user={}"),
    "github": ("GitHub", "https://github.com/{}"),
    "arxiv": ("arXiv", "https://arxiv.org/a/{}"),
    "gitlab": ("GitLab", "https://gitlab.com/{}"),
    "linkedin": ("LinkedIn", "https://www.linkedin.com/in/{}"),
    "mastodon": ("Mastodon", "{}"),
    "bluesky": ("Bluesky", "https://bsky.app/profile/{}"),
    "x": ("X", "https://x.com/{}"),
    "twitter": ("X", "https://x.com/{}"),  # X's old name, as al-folio and Hugo Blox still call it
    "dblp": ("dblp", "{}"),
    "researchgate": ("ResearchGate", "https://www.researchgate.net/profile/{}"),
    "semantic_scholar": ("Semantic Scholar", "https://www.semanticscholar.org/author/{}"),
    "openreview": ("OpenReview", "https://openreview.net/profile?id={}"),
    "huggingface": ("Hugging Face", "https://huggingface.co/{}"),
    "youtube": ("YouTube", "{}"),
    "pubmed": ("PubMed", "{}"),
    "ssrn": ("SSRN", "{}"),
    "repec": ("RePEc", "{}"),  # an economist's RePEc/IDEAS page
    "nber": ("NBER", "{}"),
    "osf": ("OSF", "{}"),
    "website": ("Website", "{}"),
    "cv": ("CV", "{}"),
}


# report series whose documents are cited by the series' name and the number alone, without "No.": the IETF's RFCs,
# BCPs and Internet-Drafts ("Internet-Draft draft-ietf-quic-transport-34"), IEEE's and ANSI's standards
NAMED_WITH_NUMBER = re.compile(r"^(?:RFC|BCP|STD|FYI|Internet-Draft|I-D|(?:.* )?Std\.?)$", re.IGNORECASE)
# a user name as Mastodon reads one (Account::USERNAME_RE): '.' and '-' between its first and last characters, as
# other fediverse servers' names have them ('@jane.doe@pixelfed.social')
_FEDIVERSE_USER = r"([A-Za-z0-9_]+(?:[.-]+[A-Za-z0-9_]+)*)"  # Mastodon's, written so that no input makes it backtrack
_MASTODON_PROFILE = re.compile(rf"https?://([A-Za-z0-9.-]+\.[A-Za-z]{{2,}})/@{_FEDIVERSE_USER}/?")
_FEDIVERSE_HANDLE = re.compile(rf"@?{_FEDIVERSE_USER}@([A-Za-z0-9.-]+\.[A-Za-z]{{2,}})")


def fediverse_handle(link: str) -> str | None:
    """A Mastodon profile's address ('https://fediscience.org/@lena') or handle ('@lena@fediscience.org') as the
    handle `fediverse:creator` names; None for anything else."""
    link = link.strip()
    if found := _MASTODON_PROFILE.fullmatch(link):
        return f"@{found[2]}@{found[1].lower()}"
    if found := _FEDIVERSE_HANDLE.fullmatch(link):
        return f"@{found[1]}@{found[2].lower()}"
    return None


# a footnote's mark (`#fn-<hash>-<n>`) and its ways back (`#fnref-...`, `#fnref2-...`), as markup.py leaves them
_FOOTNOTE_LINK = re.compile(r'<a href="#(fn(ref\d*)?-([0-9a-f]+)-(\d+))"(?: title="[^"]*")?>')


_X_PROFILE = re.compile(r"https?://(?:www\.|mobile\.)?(?:x|twitter)\.com/@?([A-Za-z0-9_]{1,15})/?")
_X_HANDLE = re.compile(r"@?([A-Za-z0-9_]{1,15})")


def x_handle(link: str) -> str | None:
    """An X (Twitter) profile's address ('https://x.com/priya_nlp') or handle ('@priya_nlp', 'priya_nlp') as
    `twitter:creator` names it ('@priya_nlp'); None for anything else."""
    link = link.strip()
    found = _X_PROFILE.fullmatch(link) or _X_HANDLE.fullmatch(link)
    return f"@{found[1]}" if found else None


def title_label(title: Text) -> str:
    """A title holding a formula as a screen reader is to name its heading or link (its plain text: Chromium
    leaves MathML out of the name it computes from content, and reads "Breaking the Barrier"); else empty,
    the title naming itself."""
    return title.plain if "<math" in title.html else ""


def profile_link_label(kind: str) -> str:
    return PROFILE_LINKS[kind][0] if kind in PROFILE_LINKS else kind.replace("_", " ").title()


def link_label(kind: str) -> str:
    """A record's or a talk's link of a kind the theme has no string for: "PyPI" for `pypi`, "Docs" for `docs`."""
    return NAMED_LINKS.get(kind.lower()) or kind.replace("_", " ").capitalize()


def fetched_orcid(value: Any) -> str | None:
    """profile.yaml's `orcid:` ('0000-0002-1825-0097', or its address) as the iD, or None when it is none (a list,
    a mistyped iD: `sitegen fetch` says what is wrong with it)."""
    from sitegen.sources.orcid import normalise_orcid

    if not isinstance(value, str):
        return None
    try:
        return normalise_orcid(value)
    except ValueError:
        return None


def profile_link_url(kind: str, value: str) -> str:
    """A link of profile.yaml as written, or made from a bare identifier (`orcid: 0000-...`)."""
    value = value.strip()
    if "://" in value or value.startswith("mailto:"):
        return value
    if kind == "mastodon" and (handle := fediverse_handle(value)):  # '@priya@sigmoid.social', as Mastodon shows it
        user, server = handle[1:].split("@")
        return f"https://{server}/@{user}"
    pattern = PROFILE_LINKS[kind][1] if kind in PROFILE_LINKS else "{}"
    # a handle as the network shows it ('@priya_nlp', '@priya.bsky.social') is the identifier without its '@'
    return pattern.format(value.removeprefix("@")) if pattern != "{}" else value


RECORD_LINKS = {
    "abs": "arXiv",
    "pdf": "PDF",
    "doi": "DOI",
    "pubmed": "PubMed",
    "pmc": "PMC",  # PubMed Central's full text
    # the work's pages in its field's databases (record_types.DATABASE_IDS)
    "ads": "ADS",
    "inspire": "INSPIRE",
    "mathscinet": "MathSciNet",
    "zbmath": "zbMATH",
    "openreview": "OpenReview",  # the paper's reviews and discussion
    "code": "Code",
    "slides": "Slides",
    "video": "Video",
    "poster": "Poster",
    "data": "Data",
    "supp": "Supplementary",
    "html": "HTML",
    "blog": "Blog",
    "website": "Website",
    "trial": "Trial registration",  # a clinical trial's (`trial: NCT04567890`)
    # the notices published about the work (sitegen.notices)
    "correction": "Correction",
    "retraction": "Retraction notice",
    "concern": "Expression of concern",
    # a paper's discussion in its journal (Crossref's `relation`): the comments on it, the replies to them
    "comment": "Comment",
    "reply": "Reply",
    "comment_on": "Comment on",  # a comment's link to the paper it discusses
    "reply_to": "Reply to",  # a reply's link to the comment it answers
}
# links the fetchers give a record, shown after the kinds above
SOURCE_LINKS = {"dblp": "dblp", "openalex": "OpenAlex", "url": "Web page"}
# other kinds of link a record or a talk may have, named as the sites and package indexes spell themselves (any other
# kind is shown as written, first letter capitalised: `docs` "Docs", `notebook` "Notebook")
NAMED_LINKS = {
    "pypi": "PyPI",
    "conda": "conda",
    "cran": "CRAN",
    "npm": "npm",
    "crates": "crates.io",
    "bioconductor": "Bioconductor",
    "zenodo": "Zenodo",
    "figshare": "figshare",
    "dryad": "Dryad",
    "software_heritage": "Software Heritage",
    "hal": "HAL",  # biblatex's eprint types (a .bib entry's `eprinttype`)
    "jstor": "JSTOR",
    "handle": "Handle",
    "googlebooks": "Google Books",
    "joss": "JOSS",
    "colab": "Colab",
    "binder": "Binder",
    "readthedocs": "Read the Docs",
    "dockerhub": "Docker Hub",
}
_LINK_ORDER = {kind: index for index, kind in enumerate(RECORD_LINKS)}  # others follow, by name
# the theme names these kinds of link in its language (i18n: links.<kind>); others show the kind as written
TRANSLATED_LINKS = frozenset(RECORD_LINKS) | frozenset(PROFILE_LINKS) | frozenset(SOURCE_LINKS) | {"email"}
# a merged record's further link of a kind (sitegen.merge.merge_mappings): `pdf_preprint`, `doi_2`
_LINK_VERSION = re.compile(r"(?P<kind>.+?)(?P<preprint>_preprint)?(?:_(?P<number>\d+))?")
# link kind -> the icon drawn for it (partials/icons.html); any other kind gets "link"
LINK_ICONS = {
    "abs": "arxiv",
    "arxiv": "arxiv",
    "pdf": "pdf",
    "poster": "pdf",
    "cv": "pdf",
    "doi": "doi",
    "code": "code",
    "slides": "slides",
    "video": "video",
    "data": "data",
    "supp": "pdf",
    "email": "email",
    "orcid": "orcid",
    "google_scholar": "google_scholar",
    "github": "github",
    "gitlab": "gitlab",
    "linkedin": "linkedin",
    "mastodon": "mastodon",
    "bluesky": "bluesky",
    "x": "x",
    "twitter": "x",
    "dblp": "dblp",
}
# how lists grouped by type (site.yaml `group_by: type`) order the types: published work first
TYPE_ORDER = ("article", "inproceedings", "chapter", "book", "thesis", "report", "patent", "preprint", "software", "dataset", "other")
_TYPE_RANK = {name: rank for rank, name in enumerate(TYPE_ORDER)}
# the pages of the homepage's own content the menu links to when the site has them: (kind, string, address)
MENU_KINDS = (
    ("projects", "menu.projects", "projects/index.html"),
    ("cv", "menu.cv", "cv/index.html"),
    ("posts", "menu.posts", POSTS_PATH),
    ("news", "menu.news", "news/index.html"),
    ("talks", "menu.talks", "talks/index.html"),
)
FAVICON_TYPES = {".svg": "image/svg+xml", ".png": "image/png", ".ico": "image/x-icon"}
NEWS_ON_PROFILE = 3  # the latest news items the profile shows; all are on news/
# records on one page from which a list's years out of view are left unrendered (style.css: `.search-long`,
# content-visibility), from the first paint on: the page says so itself (search.js's LONG_LIST, the same number)
# SPEC §7 types whose records are publications. A patent, a program, a dataset and a web page or blog post (biblatex's
# @online) are works of other kinds: a list that holds one counts its records as "works" (ORCID's word for them all)
PUBLICATION_TYPES = frozenset({"article", "inproceedings", "preprint", "thesis", "book", "chapter", "report", "other"})
LONG_LIST = 150
# the languages giscus speaks (its `data-lang`: Greek is `gr`, Khmer `kh`), by the tag site.yaml's `language` writes;
# comments of a site in any other language are in English
GISCUS_LANGUAGES = {
    **{tag: tag for tag in "ar be bg ca cs da de en eo es eu fa fr gsw he hu id it ja ko nl pl pt ro ru th tr uk uz vi".split()},
    "el": "gr",
    "km": "kh",
    "zh": "zh-CN",
    "zh-Hans": "zh-CN",
    "zh-CN": "zh-CN",
    "zh-Hant": "zh-TW",
    "zh-TW": "zh-TW",
    "zh-HK": "zh-TW",
}
POSTS_ON_PROFILE = 3  # the latest blog posts the profile names; all are on posts/
# Open Graph wants a locale with a territory: the usual one for a language tag without
OG_LOCALES = {
    "en": "en_US",
    "de": "de_DE",
    "fr": "fr_FR",
    "es": "es_ES",
    "it": "it_IT",
    "pt": "pt_PT",
    "nl": "nl_NL",
    "sv": "sv_SE",
    "da": "da_DK",
    "nb": "nb_NO",
    "fi": "fi_FI",
    "pl": "pl_PL",
    "cs": "cs_CZ",
    "ru": "ru_RU",
    "ja": "ja_JP",
    "zh": "zh_CN",
    "ko": "ko_KR",
    "ar": "ar_AR",
    "he": "he_IL",
    "fa": "fa_IR",
    "tr": "tr_TR",
    "el": "el_GR",
    "uk": "uk_UA",
    "hu": "hu_HU",
    "ro": "ro_RO",
    "bg": "bg_BG",
    "hr": "hr_HR",
    "sk": "sk_SK",
    "sl": "sl_SI",
    "sr": "sr_RS",
    "lt": "lt_LT",
    "lv": "lv_LV",
    "et": "et_EE",
    "ca": "ca_ES",
    "id": "id_ID",
    "vi": "vi_VN",
    "th": "th_TH",
    "hi": "hi_IN",
    "is": "is_IS",
    "nn": "nn_NO",
}
# languages written right to left (their primary subtag), and the scripts that are, for a tag that names its script
RIGHT_TO_LEFT_LANGUAGES = {"ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug", "syr"}
RIGHT_TO_LEFT_SCRIPTS = {"arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg", "mand", "samr"}


HIGHWIRE_VENUE = {  # BibTeX entry type -> Google Scholar's (Highwire Press's) tag for the venue
    "inproceedings": "citation_conference_title",
    "incollection": "citation_inbook_title",
    "book": "citation_publisher",
    "article": "citation_journal_title",
    "phdthesis": "citation_dissertation_institution",
    "mastersthesis": "citation_dissertation_institution",
    "techreport": "citation_technical_report_institution",
}


@dataclass
class EmbeddedLists:
    """The lists of records of one page (a page, a post, the CV) made so far: how many, how many of them searchable."""

    count: int = 0
    searchable: int = 0


class ViewBuilder:
    """Builds the values of every page of one site."""

    def __init__(
        self,
        site: Site,
        urls: SiteUrls,
        static_files: list[str],
        render_item: Callable[[dict[str, Any]], str],
        fragments: Fragments | None = None,
        strings: Mapping[str, Any] | None = None,
        favicon: str | None = None,
        languages: LanguageLinks | None = None,
    ):
        """`render_item` renders one record's list item (partials/record_item.html) from its values; `strings`:
        the theme's, in the site's language (what a footnote's links are named); `languages`: a site in several,
        each page's versions (sitegen.languages)."""
        self.site = site
        self.languages = languages
        self.strings = strings or {}
        self.urls = urls
        self.static_files = set(static_files)
        self.favicon = favicon  # the pages' icon, a file under static/ (render.favicon_file)
        self._render_item = render_item
        self._last_item: tuple[Entry | None, dict[str, Any]] = (None, {})
        self._icons: dict[str, frozenset[str]] = {}  # entry id -> the icons of its links
        self.fragments = fragments if fragments is not None else Fragments()  # per-record pieces of output (sitegen.fragments)
        self._subject_links: dict[str, dict[str, str]] = {}
        self.subject_positions: dict[Subject, tuple[int, ...]] = {s: site.subject_positions.get(s.code, ()) for s in site.subjects}
        self.subject_counts = {s.code: len(positions) for s, positions in self.subject_positions.items()}
        self.settings = site.kind_value("site-menu", HomepageSettings())
        self.group_by = self.settings.group_by
        # the look site.yaml chooses (accent, fonts): CSS of checked colours and font names, printed as it is; the same
        # on every page, so worked out once (an accent's shades are searched for contrast)
        self.style = Markup(self.settings.appearance.style_sheet())  # written as STYLE_PATH (pages/exports.py)
        self._coauthors = dict(_content_site_wide(site, "coauthors") or ())  # normalised name -> URL as written
        from sitegen.pages.people import author_links

        self._people_link = author_links(site, urls)  # author name -> their people page (SPEC §9), None without people

    # -- shared by every page -------------------------------------------------

    def common(self, page_path: str) -> dict[str, Any]:
        """What every page shows: the site's names and addresses, the menu, the link previews' tags."""
        alternates = self.languages.alternates(page_path) if self.languages is not None else []
        return {
            "site": {**self._site_values, **self._language_values(), "menu": self.menu(page_path)},
            "page_url": self.urls.page(page_path),
            "canonical_url": self.urls.absolute(page_path) if self.urls.origin else None,
            "icons": (),  # the link icons the page draws (partials/icons.html): set by the pages that show links
            "page_image": None,  # the link preview's picture ({url, alt}) when not the profile's photo: a record page's
            # a site in several languages: the page's versions (hreflang), and the switcher's links; [] in one language
            "alternates": alternates,
            "og_locale_alternates": _og_locale_alternates(alternates, self._site_values["og_locale"]),
            "language_links": self.languages.switcher(self.site.config.language, page_path, self.urls.page(page_path)) if self.languages is not None else [],
        }

    def _language_values(self) -> dict[str, Any]:
        """`site`'s values of a site in several languages that its language's pages have of their own: its home, and
        its search facets, and its feeds of news and posts when it has news or posts of its own (else the default
        language's). Known only once every language's pages are listed (`_site_values` may be made before, as the posts
        are listed), so asked on each page; none for a site in one language. (A feed's link has no hreflang: search
        engines take every `rel="alternate"` link with one for a version of the page.)"""
        if self.languages is None:
            return {}
        return {"home_url": self.urls.page("index.html"), "facets_url": self._own_facets(), **self._feed_urls()}

    def _feed_urls(self) -> dict[str, str | None]:
        """The addresses of the feeds of news and posts, when the site has them."""
        return {
            "news_feed_url": self.urls.page(NEWS_FEED_PATH) if _content_site_wide(self.site, "news") else None,
            "posts_feed_url": self.urls.page(POSTS_FEED_PATH) if _content_site_wide(self.site, "posts") else None,
        }

    def _own_facets(self) -> str | None:
        """The address of the search facets in the page's language (its type filter's words), when it is not the
        default language's, at `search_url`: a page of a language but the default of a site in several."""
        from sitegen.pages.search_index import FACETS_PATH

        own = self.urls.page(FACETS_PATH)
        return own if own != self._site_values["search_url"] + FACETS_PATH.removeprefix("search/") else None

    @functools.cached_property
    def _site_values(self) -> dict[str, Any]:
        """`common`'s `site` but its menu, which marks the page's own entry: the same on every page, made once."""
        config = self.site.config
        profile = self.site.profile
        photo = self._photo()
        analytics = self.settings.analytics
        appearance = self.settings.appearance
        return {
            "title": config.title,
            "description": config.description,
            "language": config.language,
            "og_locale": _og_locale(config.language),
            "direction": text_direction(config.language),
            "csl_locale": csl_locale(config.language),
            "home_url": self.urls.page("index.html"),  # a page of a site in several languages: its language's (_language_values)
            "facets_url": None,
            "static_url": self.urls.page("static/"),
            # made once, in the default language, for every language's lists to search and link to
            "search_url": self.urls.page("search/"),
            "records_url": self.urls.page("records/"),
            "feed_url": self.urls.page("feed.xml"),
            **self._feed_urls(),
            "bibtex_url": self.urls.page("publications.bib"),
            "json_url": self.urls.page("records.json"),
            "owner": profile.name,
            "group_by": self.group_by,
            # link previews need an absolute address: none when base_url names no host
            # and a picture X, Facebook and LinkedIn can show (no SVG: validate warns about it)
            "social_image": self.urls.absolute(f"static/{quote(photo)}") if photo and self.urls.origin and not no_link_preview_format(photo) else None,
            "analytics": {"kind": analytics.kind, "domain": analytics.domain, "endpoint": analytics.endpoint, "script": analytics.script}
            if analytics
            else None,
            "verification": [{"name": name, "content": code} for name, code in self.settings.verification],  # site.yaml `verification`
            "fediverse_creator": fediverse_handle(profile.links.get("mastodon", "")),  # Mastodon's author of shared links
            "style": self.style,
            # base.html links it: for a theme without style.css, which else ends with it (pages/exports.py)
            "style_url": self.urls.page(STYLE_PATH) if self.style and MAIN_STYLESHEET not in self.static_files else None,
            "dark_mode": appearance.dark_mode,  # 'auto', 'light' (light only) or 'dark' (dark unless chosen light)
            "favicon_url": self.urls.page(f"static/{self.favicon}") if self.favicon else None,
            "favicon_type": FAVICON_TYPES.get(PurePosixPath(self.favicon or "").suffix, ""),
            "twitter_creator": x_handle(profile.links.get("x", profile.links.get("twitter", ""))),  # X's
            "extra": config.extra,
        }

    def menu(self, page_path: str) -> list[dict[str, Any]]:
        """The menu for visitors (SPEC §7): site.yaml `nav`, else Publications, the pages with `nav`,
        CV, Blog, News and Talks, as the site has them. `current` marks the entry of this page."""
        here = self.urls.page(page_path)
        home = self.urls.page("index.html")
        entries = []
        if self.settings.nav is not None:
            # its titles are the default language's (a menu in every language), marked as such on the other languages'
            # pages, or the language's own (`nav` written for each language)
            languages = self.site.config.languages
            lang = self._other_language(self.settings.nav_language or languages[0], "") if languages else ""
            for entry in self.settings.nav:
                written = entry.in_site()  # './' for '/' and './': the site's home
                url = home + written if written.startswith("#") else self.urls.link(written)
                entries.append({"title": entry.title, "key": None, "url": url, "lang": lang})
        else:
            entries.append({"title": self._menu_title("menu.publications"), "key": "menu.publications", "url": home + "#publications", "lang": ""})
            for _, title, slug, language in _content_site_wide(self.site, "pages") or ():
                # an English page's title among French ones: marked, so that a screen reader says it in English
                lang = self._other_language(language, "") if language else ""
                entries.append({"title": title, "key": None, "url": self.urls.page(f"{slug}/index.html"), "lang": lang})
            for kind, key, path in MENU_KINDS:
                if _content_site_wide(self.site, kind):
                    entries.append({"title": self._menu_title(key), "key": key, "url": self.urls.page(path), "lang": ""})
            if self._people_link is not None:  # the site has people pages (SPEC §9)
                entries.append({"title": self._menu_title("menu.people"), "key": "menu.people", "url": self.urls.page("people/index.html"), "lang": ""})
        # the entry of this page: the first that is its address, else the first that is a part of it ('#publications')
        at_here = [entry for entry in entries if entry["url"].split("#", 1)[0] == here and (here != home or page_path == "index.html")]
        current = next((entry for entry in at_here if "#" not in entry["url"]), at_here[0] if at_here else None)
        for entry in entries:
            entry["current"] = entry is current
        return entries

    def _menu_title(self, key: str) -> str:
        """The title of a menu entry sitegen makes, ready to print: the theme's string `key` names (a theme from
        scratch without it: the key's last part, "Publications")."""
        return str(self.strings.get(key) or key.rpartition(".")[2].capitalize())

    # -- pieces ---------------------------------------------------------------

    def subject(self, subject: Subject) -> dict[str, Any]:
        return {
            "code": subject.code,
            "name": subject.name,
            "lang": self._subject_language(subject),
            "url": self.urls.page(subject_path(subject.slug)),
            "count": self.subject_counts.get(subject.code, 0),
            "counts_works": self.subject_counts_works(subject),
        }

    def subject_list_inputs(self) -> list[tuple[str, int, bool]]:
        """What a list of every subject (partials/subject_cloud.html) shows of each: its code, count and whether the
        count says "works" (a record becoming a patent changes the word, not the count): the cache's key of it."""
        return sorted((subject.code, self.subject_counts.get(subject.code, 0), self.subject_counts_works(subject)) for subject in self.subject_positions)

    def subject_counts_works(self, subject: Subject) -> bool:
        """Does the subject's list say "works" (counts_works)? Asked by its page and by every subject list that
        counts it (the profile's, the 404 page's), which must say the same word."""
        return not self._work_positions.isdisjoint(self.subject_positions.get(subject, ()))

    @functools.cached_property
    def _work_positions(self) -> frozenset[int]:
        """The positions in `site.entries` of the records that are no publication (is_work): looked for once, as
        each subject's list and the profile's ask whether they hold one."""
        return frozenset(position for position, entry in enumerate(self.site.entries) if is_work(entry))

    def subject_link(self, subject: Subject) -> dict[str, Any]:
        """One per subject, shared by every record that has it (made 20,000 times a build otherwise)."""
        link = self._subject_links.get(subject.code)
        if link is None:
            url = self.urls.page(subject_path(subject.slug))
            link = self._subject_links[subject.code] = {"code": subject.code, "name": subject.name, "lang": self._subject_language(subject), "url": url}
        return link

    def _subject_language(self, subject: Subject) -> str:
        """'en' for a subject named by arXiv's English name ("Number Theory" for math.NT) on a site in another
        language, so that a screen reader says it in English; else '' (a subject named as written is the site's)."""
        english_name = subject.name != subject.code and subject.name == subject_name(subject.code)
        return "en" if english_name and self.site.config.language.partition("-")[0].lower() != "en" else ""

    def record_item(self, entry: Entry) -> dict[str, Any]:
        """A record as lists and its own page show it.

        Only the last one is kept: a page asks for its record's values a few times in a row, and a
        record's list item, made once (`item_html`), is all a list page needs of it. Keeping every
        record's values for the whole build held about 5 KB a record in each process that renders.
        """
        last_entry, item = self._last_item
        if last_entry is not entry:
            item = self._record_item(entry)
            self._last_item = (entry, item)
        return item

    def item_html(self, entry: Entry) -> Markup:
        """A record's list item as rendered: the same on the profile and on each of its subjects' pages."""
        # kept as UTF-8: a third of the memory of the str of a list item with MathML in it
        html = self.fragments.get("list item", entry, lambda e: self._render_item(self.record_item(e)).encode())
        return Markup(html.decode())

    def _record_item(self, entry: Entry) -> dict[str, Any]:
        record = entry.record
        authors: list[dict[str, Any]] = [
            {"name": a.name, "is_owner": a.is_owner, "mark": a.mark, "gap_before": False, "position": 0, "url": self._coauthor_url(a.name, a.is_owner)}
            for a in entry.authors
        ]
        if self._people_link is not None:  # a people page first, else whatever link the name had
            for author in authors:
                author["url"] = self._people_link(entry, author["name"]) or author.get("url")
        listed_authors, author_count = _listed_authors(authors, listed_positions(entry.authors))
        editors = [{"name": e.name, "is_owner": e.is_owner, "url": self._coauthor_url(e.name, e.is_owner)} for e in entry.editors]
        translators = [{"name": t.name, "is_owner": t.is_owner, "url": self._coauthor_url(t.name, t.is_owner)} for t in entry.translators]
        return {
            "id": record.id,
            "anchor": f"r-{entry.slug}",
            "old_anchors": [f"r-{slugify(old)}" for old in record.old_ids],  # the ids it had: links to them find it
            "url": self.urls.page(record_path(entry.slug)),
            "title": Markup(entry.title.html),
            "title_text": entry.title.plain,
            "title_label": title_label(entry.title),
            # the language of the title and abstract when not the site's, for their `lang` (a screen reader's voice)
            "lang": (lang := self._other_language(record.language, entry.title.plain + "\n" + entry.abstract_plain)),
            # the CSL locale its citations are formatted in when not the site's: an English paper's on a Chinese site
            # says "In" and "&", not "收入" and "和" (the English locale is always written beside the site's)
            "csl_locale": ENGLISH_CSL_LOCALE if lang.partition("-")[0].lower() == "en" and self._site_values["csl_locale"] != ENGLISH_CSL_LOCALE else "",
            # "ltr" or "rtl" when the title and abstract are written the other way than the page, for their `dir`
            "dir": self._other_direction(record.language, entry.title.plain + "\n" + entry.abstract_plain),
            "authors": authors,  # everyone: the record page
            "listed_authors": listed_authors,  # lists: a long list cut short
            "author_count": author_count,  # when it is cut short, else 0
            "cut_after": bool(author_count) and listed_authors[-1]["position"] != author_count,  # names left out after the last one named
            "more_authors": bool(record.extra.get("et_al")),  # BibTeX's `and others`: the authors named are the first
            "editors": editors,  # a book's, or those of the book a chapter is in
            "editors_in_byline": bool(editors) and not authors,  # an edited book: named where the authors would be, marked
            "editor_mark_key": "record.editor_mark" if len(editors) == 1 else "record.editors_mark",  # "(Ed.)", "(Eds.)"
            "translators": translators,  # after the authors: "; translated by ..."
            "collaboration": self.collaboration(entry),  # after the authors: "(ATLAS Collaboration)"
            "type": _type_of(entry),
            "type_key": _type_key(entry),
            "type_label": self.type_label(entry),
            "source": self.venue(entry),
            # a venue in Chinese, Japanese or Korean letters, which have no italics (a browser slants them by itself):
            # the theme sets it upright
            "source_upright": bool(FAMILY_FIRST_LETTER.search(entry.source.plain)),
            "locator": self.locator(entry),
            "year": record.year,
            "date": record.date.isoformat() if record.date else "",
            "abstract": self.markdown_html(entry.abstract_html),  # its links to static/ from the site's root, as a bio's
            "subjects": [self.subject_link(s) for s in entry.subjects],
            "links": self.record_links(entry),
            "featured": record.featured,
            "retracted": retracted(record),  # marked wherever it is listed (sitegen.notices)
            "withdrawn": withdrawn(record),  # a withdrawn preprint: marked wherever it is listed, as arXiv does
            "author_notes": _author_notes(entry),
            "award": Markup(entry.award.html) if entry.award else "",
            "status": Markup(render_inline(status).html) if (status := publication_status(record)) else "",
            "venue_short": Markup(entry.venue_short.html) if entry.venue_short else "",
            # a picture of another site is left out of the pages (validate warns): visitors' browsers load nothing from
            # elsewhere; it stays the link preview's (page_image), which the services that show previews fetch
            "image": self.urls.link(record.image) if record.image and not picture_elsewhere_problem(record.image) else None,
            "image_alt": record.image_alt,  # "" for a picture that only decorates
            "citations": record.citations,
            "extra": record.extra,
        }

    def _other_language(self, language: str, text: str) -> str:
        """The language of a record's title and abstract when it is not the site's, else '': its `language`, or, when
        it says none, what its letters tell for sure (written_language): a Japanese title on an English page is read
        and drawn as Japanese (the Japanese forms of its kanji), an English one on a Chinese page as English; else
        site.yaml's `records_language`: on a French site whose fetched papers are English, `en`, so that a screen
        reader does not read their titles with a French voice."""
        site = self.site.config.language.lower()
        written = language or written_language(text, site) or records_language_of(text, self.site.config.records_language)
        if not written or written.lower() == site or (not language and written == site.partition("-")[0]):
            return ""
        return written

    def _other_direction(self, language: str, text: str) -> str:
        page = self._site_values["direction"] or "ltr"  # the site's, worked out once
        written = (text_direction(language) or "ltr") if language else written_direction(text)
        return written if written and written != page else ""

    def locator(self, entry: Entry) -> str:
        """Where in its venue a work is, as a list prints it after the venue (a CV's reference, as a grant
        application asks for it): an article's volume, issue and pages ("24(3), 600–619"), a paper's or a chapter's
        pages ("pp. 31–58"); '' for a work that is a whole (a book's, a thesis's pages are their number)."""
        kind = _type_of(entry)
        if kind not in ("article", "inproceedings", "chapter"):
            return ""
        details = record_details(entry.record.extra)
        volume = details.get("volume", "")
        if volume and details.get("number"):
            volume += f"({details['number']})"
        pages = en_dashed(details["pages"]) if "pages" in details else ""
        if pages and not volume and kind != "article" and "–" in pages:
            pages = str(self.strings.get("details.page_range", "pp. {pages}")).replace("{pages}", pages)
        return ", ".join(part for part in (volume, pages) if part)

    def type_label(self, entry: Entry) -> str:
        """What the venue line names the record as, ready to print: its type's string ("Journal article", "PhD
        thesis"), a report's series and number in its place ("NBER Working Paper No. 31567", "Report No. DP18901",
        as APA cites a working paper: its number is said here, not again among the page's details)."""
        key = _type_key(entry)
        label = str(self.strings.get(key, key.rpartition(".")[2].capitalize()))
        if _type_of(entry) not in ("patent", "report"):
            return label
        details = record_details(entry.record.extra)
        if _type_of(entry) == "patent":  # its kind ("European patent", biblatex's `type = {patenteu}`) in place of "Patent"
            kind = render_inline(details["report_type"]).plain if "report_type" in details else label
            return patent_label(kind, details.get("number", ""))
        series = render_inline(details["report_type"]).plain if "report_type" in details else label
        if "number" not in details:
            return series
        if NAMED_WITH_NUMBER.match(series):
            return f"{series} {details['number']}"  # "RFC 9420", "IEEE Std 802.1AE-2018": as these are cited
        numbered = str(self.strings.get("details.report_numbered", "{series} No. {number}"))
        return numbered.replace("{series}", series).replace("{number}", details["number"])

    def collaboration(self, entry: Entry) -> str:
        """The collaboration the authors wrote for (a .bib file's `collaboration = {ATLAS}`, as INSPIRE writes it), as the
        byline names it after them: "ATLAS Collaboration"; '' when there is none, or when an author is the collaboration
        already (ADS's first author `{Event Horizon Telescope Collaboration}`, merged with INSPIRE's entry)."""
        given = entry.record.extra.get("collaboration")
        name = " ".join(given.split()) if isinstance(given, str) else ""
        if not name:
            return ""
        if "ollaboration" not in name:
            name = f"{name} {self.strings.get('record.collaboration', 'Collaboration')}"
        named = {" ".join(author.name.split()).casefold() for author in entry.authors}
        bare = re.sub(r"\s*\bcollaborations?$", "", name, flags=re.IGNORECASE).casefold()
        if named & {name.casefold(), bare, f"{bare} collaboration", f"the {bare} collaboration"}:
            return ""
        return name

    def record_links(self, entry: Entry) -> list[dict[str, str]]:
        ordered = sorted(entry.links.items(), key=lambda kv: (_LINK_ORDER.get(_version_of(kv[0])[0], len(_LINK_ORDER)), kv[0]))
        return [self._record_link(name, url) for name, url in ordered]

    def _record_link(self, name: str, url: str) -> dict[str, Any]:
        """A record's link, labelled as its kind is: a merged record's second PDF, DOI or OpenAlex page
        (`pdf_preprint`, `doi_2`: sitegen.merge) is "PDF (preprint)" or "DOI 2", not "Pdf preprint"."""
        kind, preprint, number = _version_of(name)
        label = RECORD_LINKS.get(kind) or SOURCE_LINKS.get(kind) or link_label(kind)
        return {**self.link(kind, label, url), "preprint": preprint, "number": number}  # the template says which version

    def link(self, kind: str, label: str, url: str) -> dict[str, Any]:
        """A link of a record, a talk or the profile: `key` names its label in the theme's strings
        (None: show `label`), `icon` the icon drawn beside it."""
        return {
            "kind": kind,
            "label": label,
            "key": f"links.{kind}" if kind in TRANSLATED_LINKS else None,
            "icon": LINK_ICONS.get(kind, "link"),
            "url": self.urls.link(url),
        }

    def venue(self, entry: Entry) -> Markup:
        """Where the work appeared: the record's venue, or its journal reference when the venue
        names only a preprint server and arXiv knows where it was published."""
        journal_ref = entry.record.extra.get("journal_ref")
        if isinstance(journal_ref, str) and journal_ref.strip() and is_preprint_venue(entry.source.plain):
            return Markup(render_inline(journal_ref).html)
        return Markup(entry.source.html)

    def _coauthor_url(self, name: str, is_owner: bool) -> str | None:
        """The co-author's page (content/coauthors.yaml), as links print it; None for the owner and the unknown."""
        if is_owner or not self._coauthors:
            return None
        url = self._coauthors.get(normalise_name(name))
        return self.urls.link(url) if url else None

    def record_absolute_url(self, entry: Entry) -> str:
        return self.urls.absolute(record_path(entry.slug))

    def record_feed_id(self, entry: Entry) -> str:
        """The record's entry id in the feeds: the address of its page under its first id (Record.feed_id), under
        site.yaml's feed_id_base: a record renamed, merged with its journal version or moved with the site is the
        entry a feed reader knows already."""
        return self.urls.permanent(self.urls.absolute(record_path(slugify(entry.record.feed_id))))

    def bibtex(self, entry: Entry) -> str:
        """The record's BibTeX entry in publications.bib and in its people's files: all it has (sitegen.exports.bibtex).
        Kept for the build only when people pages ask for it again: else publications.bib is its one use."""
        return self.fragments.get(
            "bibtex",
            entry,
            lambda e: bibtex_entry(e, self.record_absolute_url(e), self.absolute_work_links(e), full=True),
            shared=self._people_link is not None,
        )

    def cite_bibtex(self, entry: Entry) -> str:
        """The record's BibTeX entry on its page, short, for pasting into a paper."""
        return self.fragments.get("bibtex cite", entry, lambda e: bibtex_entry(e, self.record_absolute_url(e), self.absolute_work_links(e)), shared=False)

    def absolute_image(self, entry: Entry) -> str | None:
        """The record's picture as an absolute URL (link previews, JSON-LD, records.json); None when it has
        none, or when it is a path in the site and base_url names no host."""
        image = self.urls.absolute_link(entry.record.image) if entry.record.image else None
        return image if image and image.startswith(WEB_PREFIXES) else None

    def absolute_links(self, entry: Entry) -> dict[str, str]:
        """The record's links as written, relative ones with the site's host and path (for records.json)."""
        return {kind: self.urls.absolute_link(url) for kind, url in entry.record.links.items()}

    def absolute_work_links(self, entry: Entry) -> dict[str, str]:
        """The work's links (`Entry.links`: the record's, its DOI's and arXiv's addresses), relative ones with the site's
        host and path (for the citation formats, which give one of them as the work's own address)."""
        return {kind: self.urls.absolute_link(url) for kind, url in entry.links.items()}

    def year_groups(self, ordered: list[Entry], anchor_prefix: str = "") -> list[dict[str, Any]]:
        """Records in listing order, grouped by year: `rendered_items`, their list items as rendered
        (what the bundled theme prints), and `records`, their values for templates that want them."""
        groups = [(year, list(group)) for year, group in groupby(ordered, key=lambda e: e.record.year)]
        return [
            {"year": year, "anchor": f"year-{year}", "rendered_items": self._rendered(group, anchor_prefix), "records": RecordItems(self, group)}
            for year, group in groups
        ]

    def groups(self, ordered: list[Entry], anchor_prefix: str = "") -> list[dict[str, Any]]:
        """Records in listing order, grouped as site.yaml `group_by` says: by year, or by type with years inside."""
        if self.group_by != "type":
            return self.year_groups(ordered, anchor_prefix)
        groups = []
        for kind, members in groupby(ordered, key=_type_of):
            listed = list(members)
            groups.append(
                {
                    "type": kind,
                    "plural_key": f"types_plural.{kind}",
                    "anchor": f"type-{kind}",
                    "count": len(listed),  # "Journal articles (30)", as a grant office counts them
                    "years": self.year_groups(listed, anchor_prefix),
                }
            )
        return groups

    def _rendered(self, entries: list[Entry], anchor_prefix: str) -> list[Markup]:
        """The list items; with a prefix, made again with ids of their own (a second list on a page may repeat a record)."""
        if not anchor_prefix:
            return [self.item_html(e) for e in entries]
        return [Markup(self._render_item({**self.record_item(e), "anchor": anchor_prefix + self.record_item(e)["anchor"]})) for e in entries]

    def icons_of(self, entries: Sequence[Entry], *more: Sequence[dict[str, Any]]) -> list[str]:
        """The icons the links of these records (and of `more` lists of links) draw: what the page's sprite holds."""
        found = set().union(*map(self._icons_of_entry, entries))
        found |= {link["icon"] for links in more for link in links}
        return sorted(found)

    def _icons_of_entry(self, entry: Entry) -> frozenset[str]:
        icons = self._icons.get(entry.id)
        if icons is None:
            icons = self._icons[entry.id] = frozenset(link["icon"] for link in self.record_links(entry))
        return icons

    def entries_at(self, positions: Sequence[int]) -> list[Entry]:
        entries = self.site.entries
        return [entries[position] for position in positions]

    def listing_pages(self, positions: Sequence[int], prefix: str, one_page: str | None = None) -> list[tuple[str, list[int], dict[str, Any]]]:
        """A list of records (their positions in `site.entries`) split into pages of at most
        `records_per_page`, with their navigation; with `one_page` (a path), all on that one page."""
        entries = self.site.entries
        by_type = self.group_by == "type"
        if by_type:
            ordered = type_order(entries, positions)
        else:
            ordered = listing_order(entries, positions) if self.site.featured else list(positions)
        per_page = self.site.config.records_per_page if one_page is None else max(len(ordered), 1)
        chunks = [ordered[i : i + per_page] for i in range(0, len(ordered), per_page)] or [[]]
        paths = [listing_path(prefix, number) for number in range(1, len(chunks) + 1)] if one_page is None else [one_page]
        urls = [self.urls.page(path) for path in paths]
        # a group's link goes to the page of its first record
        year_links: list[dict[str, Any]]
        if by_type:
            year_links = []
            group_links = [
                {"year": None, "key": f"types_plural.{t}", "url": f"{urls[start // per_page]}#type-{t}"} for t, start in type_starts(entries, ordered).items()
            ]
        else:
            year_links = [{"year": y, "key": None, "url": f"{urls[start // per_page]}#year-{y}"} for y, start in year_starts(entries, ordered).items()]
            group_links = year_links
        pages = []
        for number, (path, chunk) in enumerate(zip(paths, chunks), start=1):
            pagination = {
                "number": number,
                "count": len(chunks),
                "previous_url": urls[number - 2] if number > 1 else None,
                "next_url": urls[number] if number < len(chunks) else None,
                "page_urls": urls,  # every page's, shared: `pages` is made for a page only when it is rendered
                "year_links": year_links,
                "group_links": group_links,  # years, or types with `group_by: type`
            }
            pages.append((path, chunk, pagination))
        return pages

    def profile(self) -> dict[str, Any]:
        profile = self.site.profile
        links = []
        if profile.email:
            links.append(self.email_link(profile.email))
        for kind, label, url in self._profile_links():
            links.append({**self.link(kind, label, url), "text": label})
        photo = self._photo()
        return {
            "name": profile.name,
            "position": profile.position,
            "affiliation": profile.affiliation,
            "bio": self.markdown_html(self.site.bio_html),
            "photo_url": self.urls.page(f"static/{quote(photo)}") if photo else None,
            "links": links,
            "extra": profile.extra,
        }

    def email_link(self, address: str) -> dict[str, Any]:
        """An e-mail address as a link of the profile or a person: with site.yaml's `protect_email`, `mailto:` as
        character references and the address percent-encoded, its text as character references: browsers show and
        open it as written, and the programs that collect `mailto:` and `name@host` from pages' bytes miss it (as
        al-folio's `encode_email` does). `url` and `text` are then Markup, printed as they are."""
        if not self.settings.protect_email:
            return {**self.link("email", "Email", f"mailto:{address}"), "text": address}
        scheme = "".join(f"&#{ord(character)};" for character in "mailto:")
        encoded = Markup(scheme + "".join(f"%{byte:02X}" for byte in address.encode()))  # no `mailto:` in the page's bytes
        return {**self.link("email", "Email", ""), "url": encoded, "text": Markup("".join(f"&#{ord(character)};" for character in address))}

    def _profile_links(self) -> list[tuple[str, str, str]]:
        """(kind, label, URL as written or made from an identifier) of each link in profile.yaml; the ORCID iD of
        `orcid:` (what `sitegen fetch` reads) too, when `links:` has none, as a person's of content/people/ is."""
        written = dict(self.site.profile.links)
        if "orcid" not in written and (orcid := fetched_orcid(self.site.profile.extra.get("orcid"))):
            written["orcid"] = orcid
        return [(kind, profile_link_label(kind), profile_link_url(kind, value)) for kind, value in written.items()]

    def _photo(self) -> str | None:
        """The profile photo's file in static/, when there is one."""
        return self.site.profile.photo if self.site.profile.photo in self.static_files else None

    # -- pages ----------------------------------------------------------------

    def index_list_page(self, path: str, chunk: list[int], pagination: dict[str, Any]) -> dict[str, Any]:
        context = self.index_page(path)
        entries = self.entries_at(chunk)
        groups = self.groups(entries)
        first = pagination["number"] == 1
        news = self.site.kind_value("news", ()) if first else ()
        cv = self.site.kind_value("cv")
        context.update(
            groups=groups,
            years=groups,
            long_list=len(entries) >= LONG_LIST,
            pagination=with_page_links(pagination),
            news=[self.news_item(item) for item in news[:NEWS_ON_PROFILE]],
            news_url=self.urls.page("news/index.html"),
            posts=[self.post_link(post) for post in self.latest_posts()] if first else [],
            posts_url=self.urls.page(POSTS_PATH),
            cv_sections=[self.cv_section(section) for section in cv.profile_sections()] if cv is not None and first else [],
            cv_url=self.urls.page("cv/index.html") if cv is not None else None,
            icons=self.icons_of(entries + (list(self.site.featured) if first else []), context["profile"]["links"] if first else []),
        )
        return context

    def theme_page(self, path: str) -> dict[str, Any]:
        """A page a theme declares (`pages:` in theme.yaml): the profile's values, with every record on this one page
        (`years`, `groups`, `posts`, `icons`, ...), so that a theme can make a page of all publications by year."""
        [(_, chunk, pagination)] = self.listing_pages(range(len(self.site.entries)), "", one_page=path)
        return self.index_list_page(path, chunk, pagination)

    def profile_inputs(self) -> tuple:
        """What the profile shows of the homepage's content besides records (the latest news, the CV's
        sections marked `profile`, the latest posts' names): part of the profile pages' inputs."""
        news = self.site.kind_value("news", ())
        cv = self.site.kind_value("cv")
        return (news[:NEWS_ON_PROFILE], cv.profile_sections() if cv is not None else None, [self.post_link(post) for post in self.latest_posts()])

    def latest_posts(self) -> tuple:
        return self.site.kind_value("posts", ())[:POSTS_ON_PROFILE]

    # -- the homepage's own pages (sitegen/pages: pages, cv, news, talks) ---------------

    def content_page(self, page, shown: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
        """A page of content/pages/: its Markdown parts as HTML, and the records it shows where it asks."""
        context = self.common(f"{page.slug}/index.html")
        parts, shown_entries = self.page_parts(page, shown)
        page_values = {
            "title": page.title,
            "description": page.description,
            "parts": parts,
            "contents": contents(page, parts),
            **self.written_in(page.language),
        }
        context.update(page=page_values, icons=self.icons_of(shown_entries))
        return context

    def list_intro(self, kind: str) -> dict[str, Any]:
        """A list page's own heading and text, from the kind's `_index.md` in the page's language ('_index.fr.md' on
        the French pages; with none, the theme's heading and no text): `list_title` (its `title`; '' for the theme's
        word), `intro_description` (its `description` or first paragraph, for link previews; ''), `intro` (its text's
        parts, as a page's), `intro_lang` and `intro_dir` (its front matter's `language`)."""
        content = self.site.content.get(kind)
        intro = content.intros.get(own_language(self.site)) if content is not None else None
        if intro is None:
            return {"list_title": "", "intro_description": "", "intro": [], "intro_lang": "", "intro_dir": ""}
        parts, _ = self.page_parts(intro, tuple(() for _ in intro.parts))
        written = self.written_in(intro.language)
        return {"list_title": intro.title, "intro_description": intro.description, "intro": parts, "intro_lang": written["lang"], "intro_dir": written["dir"]}

    def written_in(self, language: str) -> dict[str, str]:
        """`lang` and `dir` for a text of the site's own whose front matter names its language (an English page or
        post on a French site), each '' when it is the page's: the theme marks its title and text with them, and the
        menu, the dates and the theme's words around them stay in the site's language."""
        if not language:
            return {"lang": "", "dir": ""}
        return {"lang": self._other_language(language, ""), "dir": self._other_direction(language, "")}

    def page_parts(self, page, shown: tuple[tuple[int, ...], ...]) -> tuple[list[dict[str, Any]], list[Entry]]:
        """A page's (or a post's) text as HTML and its lists of records, and the records it shows."""
        parts: list[dict[str, Any]] = []
        shown_entries: list[Entry] = []
        lists = EmbeddedLists()
        for part, positions in zip(page.parts, shown):
            if part.publications is None:
                parts.append({"html": self.markdown_html(part.html)})
                continue
            entries = self.ordered_entries(positions)
            shown_entries += entries
            number, groups, search = self.embedded_list(entries, part.publications, lists)
            parts.append({"anchor": f"publications-{number}", "title": part.publications.title, "groups": groups, "search": search})
        return parts, shown_entries

    def embedded_list(self, entries: list[Entry], chosen: PublicationFilter, lists: EmbeddedLists) -> tuple[int, list[dict[str, Any]], dict[str, Any] | None]:
        """A list of records shown in a page, a post or the CV (`chosen`: its PublicationFilter), the next of
        `lists` on its page: its number there, its groups, and its search form's values (None: it has none).

        The page's first list gives its records the ids of the list pages (`r-<slug>`), a further one ids of
        its own (`list2-r-<slug>`). The page's first searchable list has the search form's ids and address
        query (`?q=&year=&type=&subject=`) of the list pages; a further one prefixes both with `list<n>-`
        (`?list3-q=`), so that each restores and shares its own state."""
        lists.count += 1
        number = lists.count
        prefix = "" if number == 1 else f"list{number}-"
        search = None
        if chosen.searchable(len(entries)):
            names = "" if lists.searchable == 0 else f"list{number}-"
            search = {
                "ids": names,
                "query_prefix": names,
                "record_prefix": prefix,
                "record_count": len(entries),
                "counts_works": counts_works(entries),
                "script": lists.searchable == 0,
            }
            lists.searchable += 1
        return number, self.groups(entries, prefix), search

    def post_page(self, post, shown: tuple[tuple[int, ...], ...], newer, older) -> dict[str, Any]:
        """A blog post: its text, its day, and the posts before and after it."""
        context = self.common(post_path(post.page.slug))
        parts, shown_entries = self.page_parts(post.page, shown)
        beside = {name: self.post_link(other) if other else None for name, other in (("newer", newer), ("older", older))}
        tags = [self.tag_link(tag) for tag in post.tags]
        page = {"title": post.page.title, "description": post.page.description, "date": post.date, "parts": parts, "contents": contents(post.page, parts)}
        page.update(tags=tags, **beside)
        page.update(self.written_in(post.page.language))
        image = self.urls.absolute_link(post.image) if post.image else None
        image = image if image and image.startswith(WEB_PREFIXES) else None  # none when base_url names no host
        preview = image if image and not no_link_preview_format(image) else None  # one X, Facebook and LinkedIn show
        about = blog_posting(
            post.page.title,
            post.date,
            post.page.description,
            self.urls.absolute(post_path(post.page.slug)),
            self.site.profile.name,
            self.urls.absolute("index.html"),
            image,
            self.owner_node_id,
            # on a site in several languages, which of them the post is in (a site in one language says none, as before)
            (post.page.language or self.site.config.language) if self.site.config.languages else "",
        )
        context.update(
            page=page,
            page_image={"url": preview, "alt": post.image_alt or post.page.title} if preview else None,  # the link preview's picture
            icons=self.icons_of(shown_entries),
            list_url=self.urls.page(POSTS_PATH),
            jsonld=Markup(script_json(about)),
            comments=self.comments() if post.comments else None,
        )
        return context

    def comments(self) -> dict[str, str] | None:
        """What a post's comments section hands giscus (site.yaml's `comments`), ready to print as its data attributes,
        and the repository's Discussions for readers whose browser runs no script; None when the site has none."""
        comments = self.settings.comments
        if comments is None:
            return None
        language = self.site.config.language
        return {
            "repo": comments.repo,
            "repo_id": comments.repo_id,
            "category": comments.category,
            "category_id": comments.category_id,
            "mapping": comments.mapping,
            "reactions": "1" if comments.reactions else "0",
            "lang": next((GISCUS_LANGUAGES[tag] for tag in (language, language.split("-")[0]) if tag in GISCUS_LANGUAGES), "en"),
            "discussions_url": f"https://github.com/{comments.repo}/discussions",
        }

    def posts_page(self, posts, tags: Mapping[Any, Sequence[Any]], tag=None) -> dict[str, Any]:
        """The blog's list, or (`tag`) the list of one tag's posts: by year, newest first, each post's day, title and
        description; and every tag with its number of posts."""
        context = self.common(tag_path(tag.slug) if tag else POSTS_PATH)
        context.update(
            years=[{"year": year, "posts": [self.post_link(post) for post in group]} for year, group in groupby(posts, key=lambda post: post.date[:4])],
            tag=tag.name if tag else None,
            tags=[{**self.tag_link(other), "count": len(tagged), "current": other == tag} for other, tagged in tags.items()],
            list_url=self.urls.page(POSTS_PATH),
            **self.list_intro("posts"),
        )
        if tag:  # a tag's list: the blog's heading leads back, its text stays on the blog's own list
            context.update(intro=[], intro_description="")
        return context

    def tag_link(self, tag) -> dict[str, Any]:
        return {"name": tag.name, "url": self.urls.page(tag_path(tag.slug))}

    def post_link(self, post) -> dict[str, Any]:
        """A blog post as lists name it: its day, title, description and address."""
        url = self.urls.page(post_path(post.page.slug))
        return {"title": post.page.title, "date": post.date, "description": post.page.description, "url": url, **self.written_in(post.page.language)}

    def ordered_entries(self, positions: Sequence[int]) -> list[Entry]:
        """Records (positions in `site.entries`) in the order lists show them: by year or by type, as the site says."""
        ordered = type_order(self.site.entries, positions) if self.group_by == "type" else listing_order(self.site.entries, positions)
        return self.entries_at(ordered)

    def cv_page(self, cv, shown: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
        context = self.common("cv/index.html")
        profile = self.profile()
        sections, shown_entries = [], []
        lists = EmbeddedLists()
        for section, positions in zip(cv.sections, shown):
            if section.publications is None:
                sections.append(self.cv_section(section))
                continue
            entries = self.ordered_entries(positions)
            shown_entries += entries
            number, groups, search = self.embedded_list(entries, section.publications, lists)
            anchor_prefix = "cv-" if number == 1 else f"cv-list{number}-"
            sections.append(
                {"title": section.title, "groups": groups, "anchor_prefix": anchor_prefix, "search": search, "author_notes": list_author_notes(entries)}
            )
        context.update(profile=profile, sections=sections, icons=self.icons_of(shown_entries, profile["links"]))
        return context

    def cv_section(self, section) -> dict[str, Any]:
        return {"title": section.title, "entries": [self.cv_entry(entry) for entry in section.entries]}

    def cv_entry(self, entry) -> dict[str, Any]:
        once = entry.end and entry.end == entry.start  # `start: 2019, end: 2019`: "2019", not "2019 – 2019"
        return {
            "title": entry.title,
            "dir": self._other_direction("", entry.title),  # its title's, when written the other way than the page
            "org": entry.org,
            "location": entry.location,
            "start": "" if once else entry.start,
            "end": "" if once else entry.end,
            "date": entry.start if once else entry.date,
            "ongoing": entry.ongoing,
            "details": self.markdown_html(entry.details_html),
            "url": self.urls.link(entry.url) if entry.url else None,
        }

    def news_item(self, item) -> dict[str, Any]:
        return {"date": item.date, "title": item.title, "body": self.markdown_html(item.body_html), "anchor": item.anchor, **self.written_in(item.language)}

    def markdown_html(self, html: str) -> Markup:
        """Converted Markdown of the site's own content, its links to paths (teaching/, static/cv.pdf) taken
        from the site's root, as a record's are: the same text is right on every page that shows it."""
        if 'href="#fn' in html:  # a footnote's mark or its note (a page's parts may part them)
            html = self._named_footnote_links(html)
        return Markup(with_links(html, self.urls.link))

    def _named_footnote_links(self, html_text: str) -> str:
        """A footnote's mark (a link showing "1") and its way back from the note ("↩", titled in English by
        Python-Markdown) named in the site's language: "Footnote 1", "Back to the text of footnote 1"."""
        mark = str(self.strings.get("footnotes.mark", "Footnote {number}"))
        back = str(self.strings.get("footnotes.back", "Back to the text of footnote {number}"))

        def named(match: re.Match) -> str:
            label = str(escape((back if match[2] else mark).replace("{number}", match[4])))
            title = f' title="{label}"' if match[2] else ""
            return f'<a href="#{match[1]}" aria-label="{label}"{title}>'

        return _FOOTNOTE_LINK.sub(named, html_text)

    def news_page(self, items) -> dict[str, Any]:
        context = self.common("news/index.html")
        years = [{"year": year, "news": [self.news_item(item) for item in group]} for year, group in groupby(items, key=lambda item: item.date[:4])]
        context.update(years=years, **self.list_intro("news"))
        return context

    def talks_page(self, talks) -> dict[str, Any]:
        context = self.common("talks/index.html")
        years, icons = [], set()
        for year, group in groupby(talks, key=lambda talk: talk.date[:4]):
            shown = []
            for talk in group:
                links = [self.link(kind, link_label(kind), url) for kind, url in talk.links]
                icons |= {link["icon"] for link in links}
                shown.append(
                    {
                        "title": talk.title,
                        "title_text": talk.title,
                        "dir": self._other_direction(talk.language, talk.title),  # an English talk's title on a Persian page: "ltr"
                        # a site in several languages: a talk of the default language's on another's page
                        "lang": self._other_language(talk.language, "") if talk.language else "",
                        "event": talk.event,
                        "event_url": self.urls.link(talk.event_url) if talk.event_url else "",
                        "kind": talk.kind,
                        "date": talk.date,
                        "location": talk.location,
                        "links": links,
                        "abstract": self.markdown_html(talk.abstract_html),
                        "anchor": talk.anchor,
                    }
                )
            years.append({"year": year, "talks": shown})
        context.update(years=years, talk_count=len(talks), icons=sorted(icons), **self.list_intro("talks"))
        return context

    def projects_page(self, projects) -> dict[str, Any]:
        """The projects as cards, the active ones first; a heading over each status when some are past."""
        context = self.common("projects/index.html")
        groups = [
            {"status": status, "key": f"projects.{status}", "projects": [self.project_card(project) for project in group]}
            for status, group in groupby(projects, key=lambda project: project.status)
        ]
        context.update(groups=groups, headed=any(group["status"] == "past" for group in groups), **self.list_intro("projects"))
        return context

    def project_card(self, project) -> dict[str, Any]:
        """A project as the list shows it: its title, description, picture (a file of the site) and address."""
        image = project.image if project.image and is_relative_path(project.image) else ""
        return {
            "title": project.page.title,
            "description": project.page.description,
            "url": self.urls.page(f"projects/{project.page.slug}/index.html"),
            "image": self.urls.link(image) if image else None,
            "image_alt": project.image_alt,
            "status": project.status,
            **self.written_in(project.page.language),
        }

    def project_page(self, project, shown: tuple[tuple[int, ...], ...]) -> dict[str, Any]:
        """A project: its picture, links and text, and under it its publications, listed as the profile lists records."""
        path = f"projects/{project.page.slug}/index.html"
        context = self.common(path)
        parts, shown_entries = self.page_parts(project.shown_page, shown)
        if project.publications is not None:  # the last part: its `records` and `subjects`, under a heading of their own
            parts[-1]["title"] = self.strings.get("projects.publications") or "Publications"
        links = [self.link(kind, link_label(kind), url) for kind, url in project.links]
        page = {**self.project_card(project), "parts": parts, "contents": contents(project.shown_page, parts), "links": links}
        absolute = self.urls.absolute_link(project.image) if project.image else None
        absolute = absolute if absolute and absolute.startswith(WEB_PREFIXES) else None  # none when base_url names no host
        preview = absolute if absolute and not no_link_preview_format(absolute) else None  # one X, Facebook and LinkedIn show
        about: dict[str, Any] = {
            "@context": "https://schema.org",
            "@type": "ResearchProject",
            "name": project.page.title,
            "url": self.urls.absolute(path),
            "member": {"@id": self.owner_node_id},
        }
        if project.page.description:
            about["description"] = project.page.description
        if absolute:
            about["image"] = absolute
        context.update(
            page=page,
            page_image={"url": preview, "alt": project.image_alt or project.page.title} if preview else None,
            icons=self.icons_of(shown_entries, links),
            list_url=self.urls.page("projects/index.html"),
            jsonld=Markup(script_json(about)),
        )
        return context

    def record_projects(self, entry: Entry) -> list[dict[str, str]]:
        """The projects a record belongs to (their `records` or `subjects` name it), as its page links to them."""
        return self._projects_of_records.get(entry.slug, [])

    @functools.cached_property
    def _projects_of_records(self) -> dict[str, list[dict[str, str]]]:
        from sitegen.pages.projects import projects_of_records

        return {
            slug: [{"title": project.page.title, "url": self.urls.page(f"projects/{project.page.slug}/index.html")} for project in projects]
            for slug, projects in projects_of_records(self.site).items()
        }

    def index_page(self, path: str = "index.html") -> dict[str, Any]:
        context = self.common(path)
        profile = self.profile()
        home = self.urls.absolute("index.html")
        web_links = [self.urls.absolute_link(url) for kind, _, url in self._profile_links() if kind != "email"]
        photo = self._photo()
        photo_absolute = self.urls.absolute(f"static/{quote(photo)}") if photo else None
        context.update(
            profile=profile,
            record_count=len(self.site.entries),
            counts_works=self.site_counts_works,
            featured=[self.record_item(e) for e in self.site.featured],
            subjects=[self.subject(s) for s in self.site.subjects],
            jsonld=Markup(script_json(self._owner_json_ld(home, photo_absolute, web_links, self.urls.absolute(path)))),
            metrics=self.metrics(),
        )
        return context

    @functools.cached_property
    def site_counts_works(self) -> bool:
        """Does the profile's count say "works"? Every page of the list says it, whichever page holds the patent."""
        return bool(self._work_positions)

    def _owner_json_ld(self, home: str, photo: str | None, links: list[str], page: str) -> dict[str, Any]:
        """Who the site is of: a person, on the profile page (`page`: its address, page/2/ for the rest of a long
        list), or on a site with person files the lab (docs/people.md)."""
        from sitegen.pages.people import is_lab_site

        with_email = not self.settings.protect_email
        if is_lab_site(self.site):
            return organization_json_ld(self.site.profile, home, photo, links, with_email=with_email)
        return profile_page(person_json_ld(self.site.profile, home, photo, links, with_email=with_email), page)

    @functools.cached_property
    def owner_node_id(self) -> str:
        """The `@id` of the profile's person (a lab site's organisation), which records and posts name their owner by."""
        from sitegen.pages.people import is_lab_site

        return owner_id(self.urls.absolute("index.html"), organisation=is_lab_site(self.site))

    def metrics(self) -> dict[str, Any] | None:
        """Total citations and h-index of the shown records, and where they are listed most cited first;
        None when no record has a count (a 0 would be a false figure)."""
        entries = self.site.entries
        total = citation_total(entries)
        if total is None:
            return None
        return {"citations": total, "h_index": h_index(e.record.citations for e in entries), "most_cited_url": self.urls.page(MOST_CITED_PATH)}

    def record_page(self, entry: Entry) -> dict[str, Any]:
        path = record_path(entry.slug)
        context = self.common(path)
        absolute = self.record_absolute_url(entry)
        image = self.absolute_image(entry)
        preview = image if image and not no_link_preview_format(image) else None  # one X, Facebook and LinkedIn show
        context.update(
            record=self.record_item(entry),
            page_image={"url": preview, "alt": entry.record.image_alt or entry.title.plain} if preview else None,  # the link preview's picture
            details=record_details_shown(entry, self.strings),
            projects=self.record_projects(entry),
            bibtex=self.cite_bibtex(entry),
            cite_key=entry.cite_key,
            description=_shorten(entry.abstract_plain or record_summary(entry), 300),
            meta=self.highwire(entry),
            icons=self.icons_of([entry]),
            jsonld=Markup(script_json(scholarly_article(entry, absolute, self.urls.absolute("index.html"), image, record_summary(entry), self.owner_node_id))),
            csl=Markup(script_json(page_csl_item(entry))),  # the record as CSL-JSON, the authors its citations name: partials/cite.html, static/cite.js
        )
        return context

    def highwire(self, entry: Entry) -> list[tuple[str, str]]:
        """Google Scholar's citation_* tags, in its documented order."""
        record = entry.record
        meta = [("citation_title", entry.title.plain)]
        # "Family, Given", as Scholar's guidelines write it: Zotero splits a name without a comma at its last space
        meta += [("citation_author", family_first(name)) for name in csl_names(record.authors, [a.name for a in entry.authors])]
        meta.append(("citation_publication_date", _highwire_date(record)))
        source = entry.source.plain
        details = record_details(record.extra)
        # the same reading of the venue as the BibTeX entry type (workshop -> conference, thesis -> institution); a
        # preprint's server as Scholar reads one; software, a dataset, a patent or other work is in no journal
        venue_tag = HIGHWIRE_VENUE.get(entry_type(entry)) or ("citation_journal_title" if record.type == "preprint" else None)
        if source and source.lower() != "arxiv" and venue_tag and not (venue_tag == "citation_publisher" and "publisher" in details):
            meta.append((venue_tag, source))
        meta += _highwire_details(details, entry_type(entry), numbers_a_series(record_type(entry), record.extra))
        written = written_editors(record.extra)
        editors = csl_names(written, [shown_name(name) for name in written])
        meta += [("citation_editor", family_first(name)) for name in editors]  # Zotero's editors of a book or chapter
        if entry.abstract_plain:
            meta.append(("citation_abstract", entry.abstract_plain))  # whole: Zotero's abstract, else the description cut short
        pdf = record.links.get("pdf") or (f"https://arxiv.org/pdf/{record.arxiv}" if record.arxiv else None)
        if pdf:
            meta.append(("citation_pdf_url", self.urls.absolute_link(pdf)))
        if record.arxiv:
            meta.append(("citation_arxiv_id", record.arxiv))
        if record.doi:
            meta.append(("citation_doi", record.doi))
        if record.ids.get("pmid"):
            meta.append(("citation_pmid", record.ids["pmid"]))  # Highwire Press's tag, which Zotero reads as the PMID
        meta.append(("citation_abstract_html_url", self.record_absolute_url(entry)))
        return meta

    def subject_list_page(self, subject: Subject, count: int, path: str, chunk: list[int], pagination: dict[str, Any]) -> dict[str, Any]:
        context = self.common(path)
        entries = self.entries_at(chunk)
        groups = self.groups(entries)
        context.update(
            subject=self.subject(subject),
            record_count=count,
            counts_works=self.subject_counts_works(subject),
            groups=groups,
            years=groups,
            long_list=len(entries) >= LONG_LIST,
            pagination=with_page_links(pagination),
            icons=self.icons_of(entries),
        )
        return context

    def most_cited_page(self, entries: list[Entry]) -> dict[str, Any]:
        """The records with a citation count, most cited first (the profile's "most cited" order)."""
        context = self.common(MOST_CITED_PATH)
        context.update(
            profile=self.profile(),
            metrics=self.metrics(),
            record_count=len(entries),
            counts_works=counts_works(entries),
            items=[self.item_html(entry) for entry in entries],
            icons=self.icons_of(entries),
        )
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


def type_order(entries: Sequence[Entry], positions: Sequence[int]) -> list[int]:
    """By type (TYPE_ORDER), then as `listing_order`: newest year first, featured first within a year."""
    return sorted(positions, key=lambda p: (_TYPE_RANK[_type_of(entries[p])], -entries[p].record.year, not entries[p].record.featured))


def type_starts(entries: Sequence[Entry], ordered: Sequence[int]) -> dict[str, int]:
    """Each type -> the index in `ordered` (sorted by `type_order`) of its first record."""
    starts: dict[str, int] = {}
    for index, position in enumerate(ordered):
        starts.setdefault(_type_of(entries[position]), index)
    return starts


# the meanings sitegen itself gives the marks of biblatex's author+an (bibtex.MARK_NOTES), in English: the theme's
# strings say them in the site's language
_OWN_NOTE_KEYS = {(mark, text): {"*": "record.equal_contribution", "†": "record.corresponding_author"}[mark] for mark, text in MARK_NOTES.items()}


def _author_notes(entry: Entry) -> list[dict[str, str]]:
    """What the marks after the authors' names mean (`author_notes: {"*": Equal contribution}`), for the marks used;
    `key`: the theme's string for a meaning sitegen wrote itself (author+an), else empty (print `text`)."""
    notes = entry.record.extra.get("author_notes")
    if not isinstance(notes, dict):
        return []
    used = "".join(author.mark for author in entry.authors)
    return [_author_note(mark, str(text)) for mark, text in notes.items() if mark and mark in used]


def _author_note(mark: str, text: str) -> dict[str, str]:
    return {"mark": mark, "text": text, "key": _OWN_NOTE_KEYS.get((mark, text), "")}


def list_author_notes(entries: Sequence[Entry]) -> list[dict[str, str]]:
    """What the marks after authors' names mean in a list of records (a CV's key to "Emma Richter§"): each mark
    its records use, in the order first met, with the one meaning they give it; a mark two records explain two
    ways is left to their pages."""
    meanings: dict[str, set[str]] = {}
    for entry in entries:
        for note in _author_notes(entry):
            meanings.setdefault(note["mark"], set()).add(" ".join(note["text"].split()))
    return [_author_note(mark, next(iter(texts))) for mark, texts in meanings.items() if len(texts) == 1]


def _type_of(entry: Entry) -> str:
    kind = entry.record.type
    return kind if kind in _TYPE_RANK else "other"


def _type_key(entry: Entry) -> str:
    """The theme's string naming the record's type: 'types.article', ...; a thesis whose degree is known
    'thesis_degrees.phd' ("PhD thesis"), 'thesis_degrees.masters', 'thesis_degrees.bachelors'; a book review, an
    encyclopedia entry, an edited volume or an online piece read from biblatex's entry for it 'kinds.review', ...;
    a workshop's paper 'kinds.workshop' ("Workshop paper", kept apart from a conference's main track)."""
    kind = _type_of(entry)
    degree = entry.thesis_degree if kind == "thesis" else ""
    if degree:
        return f"thesis_degrees.{degree}"
    special = work_kind(kind, entry.record.extra)
    if not special and is_workshop_paper(kind, (entry.record.source, entry.record.venue_short or "")):
        special = "workshop"
    return f"kinds.{special}" if special else f"types.{kind}"


# the details a record page lists (record_details_shown), in this order: BibTeX's name -> the theme's string
SHOWN_DETAILS = {
    "volume": "details.volume",
    "number": "details.issue",
    "pages": "details.pages",
    "chapter": "details.chapter",
    "edition": "details.edition",
    "series": "details.series",
    "publisher": "details.publisher",
    "organization": "details.organization",
    "holder": "details.holder",
    "address": "details.address",
    "howpublished": "details.howpublished",
    "isbn": "details.isbn",
    "issn": "details.issn",
    "note": "details.note",
}
_DETAILS_AS_WRITTEN = frozenset({"volume", "number", "pages", "isbn", "issn"})  # numbers and identifiers: no LaTeX to convert


def contents(page, parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A page's or a post's table of contents (front matter `toc: true`; else none): each section (a `##` heading, or a
    list of records with its heading) with its subsections (`###`), as links to them; a `###` before any `##` is a
    section of its own. A list of records with no title of its own has `title` "" (the theme names it)."""
    if not page.toc:
        return []
    headings: list[tuple[int, str, str]] = []
    for part, shown in zip(page.parts, parts):
        if part.publications is None:
            headings += [(level, anchor, text) for level, anchor, text in sections_of(part.html) if level <= 3]
        else:
            headings.append((2, shown["anchor"], shown["title"]))
    sections: list[dict[str, Any]] = []
    for level, anchor, text in headings:
        link = {"title": text, "url": f"#{anchor}"}
        if level == 3 and sections:
            sections[-1]["sections"].append(link)
        else:
            sections.append({**link, "sections": []})
    return sections


def counts_works(entries: Sequence[Entry]) -> bool:
    """Does a list hold a record that is no publication (a patent, software, a dataset, a web page), so that its count
    says "12 works", not "12 publications" (which readers of a CV take for papers)?"""
    return any(is_work(entry) for entry in entries)


def is_work(entry: Entry) -> bool:
    """Is a record no publication: a patent, software, a dataset, a web page (counts_works)?"""
    return record_type(entry) not in PUBLICATION_TYPES or work_kind(entry.record.type, entry.record.extra) == "online"


def patent_label(label: str, number: str) -> str:
    """A patent as a CV lists it, by its number: "US Patent 11,503,892", "US Patent App. 17/845,221" (Google Scholar's
    number says what it is), else the type's name before it ("Patent US 11,503,892 B2"); the name alone without one."""
    number = " ".join(number.split())
    if not number:
        return label
    return number if re.search(r"\bpatent\b", number, re.IGNORECASE) else f"{label} {number}"


def _event(record: Record, source: str, strings: Mapping[str, Any]) -> str:
    """The meeting a paper was given at, as biblatex prints it after the proceedings: its `eventtitle` and, after
    commas, its place (`venue`) and its days (`eventdate`, as the theme's `strings` write a range of days): "NeurIPS
    2023, New Orleans, December 10–16, 2023"; '' when it has none, or when it is the record's venue and no days are
    known (a talk's .bib entry, `@unpublished{eventtitle = ..., eventdate = ...}`, names the meeting as its venue)."""
    place, days = record.extra.get("event_place"), record.extra.get("eventdate")
    start, _, end = days.partition("/") if isinstance(days, str) else ("", "", "")
    when = format_date_range(start, end or start, strings)
    title = record.extra.get("eventtitle") or (source if when else "")
    if not isinstance(title, str) or not title.strip() or (title.strip() == source.strip() and not when):
        return ""
    return ", ".join(part.strip() for part in (title, place, when) if isinstance(part, str) and part.strip())


def record_details_shown(entry: Entry, strings: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What a record page lists below its venue: the editors of the book it is in (an edited book's are named in
    place of authors), volume, issue (a report's number), pages (a range with an en dash), publisher and the other
    details the record has, each as `key` (the theme's string naming it) and `value` (ready to print), or `people`
    (the editors, as the authors are given)."""
    record = entry.record
    shown: list[dict[str, Any]] = []
    if entry.editors and entry.authors:
        shown.append({"key": "details.editors", "value": "", "people": [{"name": e.name, "is_owner": e.is_owner} for e in entry.editors]})
    details = record_details(record.extra)
    if details.get("howpublished") == entry.source.source:  # the venue of a @misc: shown as the venue already
        del details["howpublished"]
    if version := work_version(record):  # a program's or a dataset's: "Version v2.3.1"
        shown.append({"key": "details.version", "value": version, "people": []})
    if event := _event(record, entry.source.source, strings):
        shown.append({"key": "details.event", "value": Markup(render_inline(event).html), "people": []})
    for name, key in SHOWN_DETAILS.items():
        value = details.get(name)
        if value is None:
            continue
        if name == "number" and _type_of(entry) in ("report", "patent"):
            continue  # in the venue line: "NBER Working Paper No. 31567", "US Patent 11,503,892" (ViewBuilder.type_label)
        elif name == "number" and numbers_a_series(record_type(entry), record.extra):
            key = "details.series_number"  # 'Number in series', beside the series
        if name == "pages":
            value = en_dashed(value)
        elif name in _SERIAL_NUMBERS:
            value = ", ".join(serial_numbers(value))
        shown.append({"key": key, "value": value if name in _DETAILS_AS_WRITTEN else Markup(render_inline(value).html), "people": []})
    keys = [detail["key"] for detail in shown]
    if "details.series_number" in keys and "details.series" in keys:  # the number in the series after the series' name
        shown.insert(keys.index("details.series"), shown.pop(keys.index("details.series_number")))
    if licence := work_licence(record):  # biblatex-software's `license` ('BSD-3-Clause'), a YAML record's `license:`
        shown.append({"key": "details.license", "value": licence, "people": []})
    return shown


def _content_site_wide(site: Site, kind: str) -> Any:
    content = site.content.get(kind)
    return None if content is None else content.site_wide


def text_direction(language: str) -> str | None:
    """'rtl' for a language written right to left ('ar', 'he-IL', 'fa', 'az-Arab'), None for one written left to right
    (the pages' default, so that their <html> says nothing of it)."""
    subtags = language.lower().replace("_", "-").split("-")
    script = next((tag for tag in subtags[1:] if len(tag) == 4 and tag.isalpha()), None)
    if script is not None:
        return "rtl" if script in RIGHT_TO_LEFT_SCRIPTS else None
    return "rtl" if subtags[0] in RIGHT_TO_LEFT_LANGUAGES else None


ENGLISH_CSL_LOCALE = "en-US"  # citeproc-js's fallback, written beside the site's locale (sitegen.pages.search_index)
_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]")
_LATIN_LETTER = re.compile("[A-Za-z\u00c0-\u024f]")
CJK_LANGUAGES = frozenset({"zh", "ja", "ko"})


def written_language(text: str, site_language: str) -> str:
    """The language a text's letters tell for sure, else '': 'ja' for one with kana, 'ko' for one with Hangul, and 'en'
    for one of Latin letters alone on a Chinese, Japanese or Korean site (where an English paper is the one such a
    researcher writes in Latin letters). Han characters alone say nothing: Chinese and Japanese share them."""
    cjk_site = site_language.partition("-")[0] in CJK_LANGUAGES
    if text.isascii():  # most records' title and abstract: no kana, Hangul or Han to look for
        return "en" if cjk_site and _LATIN_LETTER.search(text) else ""
    if _KANA.search(text):
        return "ja"
    if _HANGUL.search(text):
        return "ko"
    if cjk_site and _LATIN_LETTER.search(text) and not FAMILY_FIRST_LETTER.search(text):
        return "en"
    return ""


def records_language_of(text: str, records_language: str) -> str:
    """site.yaml's `records_language` for a record that names no language, unless its letters are of another script:
    `records_language: en` made a Russian title ("О сортировке ключей") English, read by a screen reader with an
    English voice and cited with the English CSL locale. A text mostly of Latin letters (an English title with an
    "α" in it) gets a language written in them, one mostly of other letters a language that is not."""
    if not records_language or text.isascii():  # most records: nothing but Latin letters to count
        return records_language
    letters = sum(character.isalpha() for character in text)
    latin_led = 2 * len(_LATIN_LETTER.findall(text)) > letters
    written_in_latin = records_language.partition("-")[0].lower() not in NON_LATIN_SCRIPT_LANGUAGES
    return records_language if latin_led == written_in_latin else ""


# languages written in a script other than Latin letters (Cyrillic, Greek, Arabic, Hebrew, Indic, Chinese, ...)
NON_LATIN_SCRIPT_LANGUAGES = frozenset(
    "am ar as be bg bn bo dv el fa gu he hi hy ja ka kk km kn ko ky lo mk ml mn mr my ne or pa ps ru si ta te tg th ti uk ur yi zh".split()
)


def written_direction(text: str) -> str:
    """'rtl' for a text whose letters are all of scripts written right to left (Arabic, Hebrew, ...), 'ltr' for one
    whose letters are all of scripts written left to right, '' for one with both ("Transformers برای ...": it takes
    the page's direction) or none. Digits, punctuation and formulas' symbols say nothing."""
    if text.isascii():  # most titles and abstracts: ASCII's left-to-right letters are A-Z and a-z
        return "ltr" if _ASCII_LETTER.search(text) else ""
    right_to_left = any(unicodedata.bidirectional(character) in ("R", "AL") for character in _RIGHT_TO_LEFT_BLOCKS.findall(text))
    left_to_right = any(unicodedata.bidirectional(character) == "L" for character in text)  # stops at the first letter
    if right_to_left != left_to_right:
        return "rtl" if right_to_left else "ltr"
    return ""


_ASCII_LETTER = re.compile("[A-Za-z]")  # the letters of ASCII, all written left to right
# the blocks of the scripts written right to left (Hebrew, Arabic, Syriac, Thaana, NKo, ..., their presentation
# forms): the letters among them are those whose bidirectional class says so
_RIGHT_TO_LEFT_BLOCKS = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\U00010800-\U00010fff\U0001e800-\U0001efff]")


def _og_locale_alternates(alternates: list[dict[str, str]], own: str | None) -> list[str]:
    """The Open Graph locales of a page's versions in the other languages (og:locale:alternate), each once."""
    found = [_og_locale(each["hreflang"]) for each in alternates if each["hreflang"] != "x-default"]
    return list(dict.fromkeys(locale for locale in found if locale and locale != own))


def _og_locale(language: str) -> str | None:
    """'de-CH' -> 'de_CH'; 'de' -> 'de_DE'; None for a language without a usual territory here."""
    parts = language.replace("_", "-").split("-")
    if len(parts) >= 2 and len(parts[-1]) == 2 and parts[-1].isalpha():
        return f"{parts[0].lower()}_{parts[-1].upper()}"
    return OG_LOCALES.get(parts[0].lower())


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


def _listed_authors(authors: list[dict[str, Any]], positions: list[int]) -> tuple[list[dict[str, Any]], int]:
    """The authors a list names (`positions`: model.listed_positions of the entry's authors), and the count of all
    when it leaves some out (else 0).

    An owner beyond the first ones is named too, with `gap_before` (names were left out before them)
    and `position`, their place in the whole list counted from 1 ("author 1,412 of 2,900").
    """
    if len(authors) <= LISTED_AUTHORS_UNCUT:
        return authors, 0
    owners_later = [{**authors[i], "gap_before": True, "position": i + 1} for i in positions[LISTED_AUTHORS_FIRST:]]
    return authors[:LISTED_AUTHORS_FIRST] + owners_later, len(authors)


PAGE_LINKS_AROUND = 2  # page links shown on each side of the current page; the first and last are always shown


def _highwire_details(details: dict[str, str], bibtex_type: str, series_number: bool = False) -> list[tuple[str, str]]:
    """Volume, issue (a report's number, a patent's), first and last page, ISBN, ISSN and publisher, as Google Scholar names them.
    A book's number in its series (`series_number`) has no tag: it is no issue."""
    tags = {"techreport": "citation_technical_report_number", "patent": "citation_patent_number"}  # Google Patents' own tag
    number_tag = tags.get(bibtex_type) or ("" if series_number else "citation_issue")
    meta = [(tag, details[name]) for tag, name in (("citation_volume", "volume"), (number_tag, "number")) if tag and name in details]
    if "pages" in details:
        first, last = page_range(details["pages"])
        meta += [("citation_firstpage", first)] + ([("citation_lastpage", last)] if last else [])
    for tag, name in (("citation_isbn", "isbn"), ("citation_issn", "issn")):
        meta += [(tag, number) for number in serial_numbers(details.get(name, ""))]  # a tag each: print and electronic
    if "publisher" in details:
        meta.append(("citation_publisher", details["publisher"]))
    return meta


_SERIAL_NUMBERS = frozenset({"isbn", "issn"})
_SERIAL_SEPARATORS = re.compile(r"\s*[,;]\s*|(?<=\d{4}-\d{3}[\dXx])\s+(?=\d{4}-\d{3}[\dXx])")


def serial_numbers(value: str) -> list[str]:
    """The ISSNs (or ISBNs) of a field that gives several, as MathSciNet writes a journal's print and electronic
    ones: '0003-486X,1939-8980' -> ['0003-486X', '1939-8980']."""
    return [number for number in _SERIAL_SEPARATORS.split(value.strip()) if number]


def _version_of(name: str) -> tuple[str, bool, str]:
    """A record's link name -> its kind, whether it is a preprint's beside a published version's, and its number."""
    version = _LINK_VERSION.fullmatch(name)
    if version is None:
        return name, False, ""
    return version["kind"], bool(version["preprint"]), version["number"] or ""


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


def _highwire_date(record: Record) -> str:
    """2024/03/05, 2024/03 (BibTeX's `month` without a day) or 2024: as much of the date as is known."""
    if record.date:
        return record.date.strftime("%Y/%m/%d")
    month = record.extra.get("month")
    return f"{record.year}/{month:02d}" if type(month) is int and 1 <= month <= 12 else str(record.year)


def record_summary(entry: Entry) -> str:
    """Who, where and when, in words of no language: the description of a record page without an abstract
    (a link preview shows it under the title)."""
    names = [author.name for author in entry.authors]
    who = ", ".join(names[:3]) + (", …" if len(names) > 3 or entry.record.extra.get("et_al") else "")
    return " · ".join(part for part in (who, entry.source.plain, str(entry.record.year)) if part)


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + "…"
