"""Records kept as Markdown files with YAML (or Hugo's TOML) front matter, the way Hugo Blox (`content/publication/<name>/index.md`),
Quarto (a listing's `publications/<name>.qmd`, its `author` and `citation:` read)
and academicpages (`_publications/<name>.md`) keep them: copied into content/records/, they build as they are.

Their fields are read under sitegen's names (`publication` or `venue` is the `source`, `url_pdf` or
`paperurl` a `pdf` link, `tags` are `categories`, `draft` is `hidden`); the text below the front
matter is the abstract when the front matter has none. The id is the file's name (a Hugo Blox page
bundle's folder name for `index.md`). Fields those tools use only for their own page layout are
passed over; any other field is kept, and validated, as in a YAML record.
"""

from __future__ import annotations

import copy
import re
import tomllib
import urllib.parse
from collections.abc import Callable
from typing import Any

from sitegen.errors import Location, Problem
from sitegen.homepage.frontmatter import split_front_matter
from sitegen.load import PositionedDict
from sitegen.sources import OWN_LIST, Reader, ReadResult, register_reader
from sitegen.values import whole_number

RENAMED = {"publication": "source", "publication_short": "venue_short", "venue": "source", "tags": "categories", "draft": "hidden"}
LINK_FIELDS = {  # Hugo Blox's url_* and academicpages' *url -> sitegen's link kinds
    "url_pdf": "pdf",
    "url_code": "code",
    "url_slides": "slides",
    "url_video": "video",
    "url_dataset": "data",
    "url_poster": "poster",
    "url_project": "website",
    "url_source": "html",
    "url_preprint": "preprint",
    "paperurl": "pdf",
    "slidesurl": "slides",
}
LINK_TYPES = {"dataset": "data", "source": "html", "project": "website"}  # Hugo Blox's `links: [{type: ...}]`
# Hugo Blox's publication types: the old numbers and the CSL names of later versions
PUBLICATION_TYPES = {
    "1": "inproceedings",
    "2": "article",
    "3": "preprint",
    "4": "report",
    "5": "book",
    "6": "chapter",
    "7": "thesis",
    "8": "patent",
    "paper-conference": "inproceedings",
    "article-journal": "article",
    "article": "article",
    "manuscript": "preprint",
    "report": "report",
    "book": "book",
    "chapter": "chapter",
    "thesis": "thesis",
    "patent": "patent",
    "software": "software",  # CSL's, as later Hugo Blox writes them
    "dataset": "dataset",
}
# what Quarto reads for its own page (how to render and run it, where the listing shows it)
QUARTO_LAYOUT_FIELDS = frozenset(
    {"format", "execute", "jupyter", "engine", "knitr", "freeze", "toc", "editor", "listing", "aliases", "subtitle", "title-block-banner", "page-layout"}
)
# what those tools use for their own pages and sitegen has no use for (summary and excerpt: see below)
LAYOUT_FIELDS = frozenset(
    {
        "collection",
        "permalink",
        "citation",
        "excerpt",
        "summary",
        "publishdate",
        "lastmod",
        "projects",
        "slides",
        "header",
        "share",
        "commentable",
        "math",
        "highlight",
        "bibtexurl",
        *QUARTO_LAYOUT_FIELDS,
    }
)
# Hugo Blox's `author_notes` (one note per author, "Equal contribution", "Corresponding author"): each note is a mark
# after the names it is given to, as papers print them, and sitegen's `author_notes` says what each mark means
NOTE_MARKS = ("*", "†", "‡", "§", "¶")
ACADEMICPAGES_CATEGORIES = {"manuscripts": "article", "conferences": "inproceedings", "books": "book"}
READ_BELOW = frozenset({"date", "links", "url_custom", "publication_types", "category", "hugoblox", "author", "description", *LINK_FIELDS})
# Quarto's `citation:` (CSL's variables, for its page's citation and Google Scholar tags) -> a record's fields
QUARTO_CITATION = {"container-title": "source", "volume": "volume", "issue": "number", "page": "pages", "publisher": "publisher", "doi": "doi"}
_EMPHASIS = re.compile(r"(\*{1,2}|_{1,2})(.+?)\1")
# a day with or without its leading zeros, and the time Hugo writes after it ('2021-8-20T00:00:00Z')
_LOOSE_DATE = re.compile(r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?")
_DOI_ADDRESS = re.compile(r"https?://(?:dx\.)?doi\.org/(?P<doi>10\.\d{4,9}/\S+)", re.IGNORECASE)
_TOML_KEY = re.compile(r"\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*=")


def read_markdown_record(text: str, display_path: str) -> ReadResult:
    text = text.lstrip("\ufeff")
    if text.startswith("+++"):  # Hugo's TOML front matter (Hugo Academic, Hugo Blox's forerunner, wrote it)
        data, body, body_line, problems = toml_front_matter(text, display_path)
    elif text.startswith("---"):
        data, body, body_line, problems = split_front_matter(text, display_path)
    else:  # a README.md, say
        return [], [Problem("not read: a Markdown record starts with YAML front matter ('---', title: ..., '---')", Location(display_path, 1), warning=True)]
    if data is None:
        return [], problems
    record = PositionedDict()
    record.line = 1
    record.key_lines = {}

    def put(name: str, value: Any, key: str) -> None:
        if name not in record and value not in (None, "", [], {}):  # Hugo Blox's template leaves `doi: ''`, `tags: []`
            record[name] = value
            record.key_lines[name] = data.line_of(key) if key else 1

    put("id", _id_of(display_path), "")
    for key, value in data.items():
        name = RENAMED.get(key, key)
        if key == "image" and isinstance(value, dict):  # Hugo Blox's settings of a featured picture beside the file (caption, focal point)
            continue
        if str(key).lower() not in LAYOUT_FIELDS and key not in READ_BELOW:
            put(name, _plain_venue(value) if name in ("source", "venue_short") else value, key)
    if "date" in data:
        date = _date(data["date"])
        put("year" if isinstance(date, int) and not isinstance(date, bool) else "date", date, "date")
    if "author" in data:  # Quarto's
        put("authors", quarto_authors(data["author"]), "author")
    _put_quarto_citation(put, data)
    if (kind := PUBLICATION_TYPES.get(_first(data.get("publication_types")))) is not None:
        put("type", kind, "publication_types")
    if (kind := ACADEMICPAGES_CATEGORIES.get(_first(data.get("category")))) is not None:
        put("type", kind, "category")
    written = data.get("links")
    if isinstance(written, dict):  # sitegen's own form
        put("links", written, "links")
    elif links := _links(data):
        # `paperurl: 'https://doi.org/10.1017/...'`: the publisher's page, no PDF (Scholar's citation_pdf_url would say so)
        if (doi := _DOI_ADDRESS.fullmatch(links.get("pdf", ""))) is not None and not data.get("doi"):
            put("doi", urllib.parse.unquote(doi["doi"]), next((key for key in ("paperurl", "url_pdf") if key in data), ""))
            del links["pdf"]
        if links:
            put("links", links, "links" if "links" in data else next((key for key in LINK_FIELDS if key in data), ""))
    ids = data.get("hugoblox", {}).get("ids") if isinstance(data.get("hugoblox"), dict) else None
    if isinstance(ids, dict):
        put("doi", ids.get("doi"), "hugoblox")
        put("arxiv", ids.get("arxiv"), "hugoblox")  # `arxiv: 2501.04567`: the validator says to quote a number
    for item in _list(data.get("links")):  # Hugo Blox's `- type: preprint`, `provider: arxiv`, `id: 2501.04567`
        if isinstance(item, dict) and str(item.get("provider", "")).lower() == "arxiv":
            put("arxiv", item.get("id"), "links")
    if _first(data.get("publication_types")) == "article" and "arxiv" in record and not data.get("publication"):
        record["type"] = "preprint"  # CSL's `article` with no journal: Hugo Blox's template for a preprint
    for key in ("summary", "excerpt", "description"):  # a summary stands in for a missing abstract, after the text below (Quarto's: description)
        if not body.strip() and isinstance(data.get(key), str):
            body, body_line = data[key], data.line_of(key)
            break
    _put_author_notes(record, data)
    if body.strip() and "abstract" not in record:
        record["abstract"] = body.strip("\n")
        record.key_lines["abstract"] = body_line
    return [record], problems


def quarto_authors(value: Any) -> list[Any]:
    """Quarto's `author`: a name, or a list of names and of `name:` mappings (the name as text, or `given` and
    `family`, beside `affiliations`, `orcid`, ...), as a list of names; anything else as it is, for the validator.
    One text that names several people ('Ada Lindqvist, Erik Berg and Maja Holm', which Quarto would print as one
    name) is each of them; 'Lindqvist, Ada' stays one."""
    if isinstance(value, str):
        pieces = [piece.strip() for piece in re.split(r",\s*(?:and\s+)?|\s+and\s+", value) if piece.strip()]
        return pieces if len(pieces) > 1 and all(" " in piece for piece in pieces) else [value]
    names = []
    for author in value if isinstance(value, list) else [value]:
        name = author.get("name") if isinstance(author, dict) else author
        if isinstance(name, dict):
            name = " ".join(str(name[part]).strip() for part in ("given", "family") if isinstance(name.get(part), str)) or name.get("literal")
        if name is not None:  # an author entry without a name (affiliations alone): none
            names.append(name)
    return names


def _put_quarto_citation(put: Callable[[str, Any, str], None], data: PositionedDict) -> None:
    """Quarto's `citation:` mapping (academicpages' `citation` is the text of one, and passed over): its CSL type,
    journal, volume, issue, pages, publisher and DOI, and its `url` and `pdf-url` as links, under the record's
    fields that the front matter does not give itself."""
    citation = data.get("citation")
    if not isinstance(citation, dict):
        return
    for key, name in QUARTO_CITATION.items():
        put(name, str(citation[key]) if isinstance(citation.get(key), (int, float)) else citation.get(key), "citation")
    if (kind := PUBLICATION_TYPES.get(str(citation.get("type", "")).strip())) is not None:
        put("type", kind, "citation")
    doi = str(data.get("doi") or citation.get("doi") or "").strip().lower()
    links = {
        kind: citation[key].strip()
        for key, kind in (("url", "html"), ("pdf-url", "pdf"))
        if _usable(citation.get(key)) and not (doi and citation[key].strip().lower().endswith(doi))  # the DOI's address: its own link
    }
    if "links" not in data and links:
        put("links", links, "citation")


def _put_author_notes(record: PositionedDict, data: PositionedDict) -> None:
    """Hugo Blox's `author_notes: ["Equal contribution", "Equal contribution", ""]`: 'Chen Li*', 'Ada Lovelace*' (the
    build shows the mark after the name, sitegen.enrich._marks_apart) and `author_notes: {"*": "Equal contribution"}`."""
    notes, authors = data.get("author_notes"), record.get("authors")
    if not isinstance(notes, list) or not isinstance(authors, list):
        return
    marks: dict[str, str] = {}
    marked = copy.copy(authors)  # a PositionedList keeps each name's line
    for index, note in enumerate(notes[: len(authors)]):
        if isinstance(note, str) and note.strip() and isinstance(authors[index], str):
            if note.strip() not in marks and len(marks) < len(NOTE_MARKS):
                marks[note.strip()] = NOTE_MARKS[len(marks)]
            if note.strip() in marks:
                marked[index] = f"{authors[index]}{marks[note.strip()]}"
    if not marks:
        return
    record["authors"] = marked
    record["author_notes"] = {mark: note for note, mark in marks.items()}
    record.key_lines["author_notes"] = data.line_of("author_notes")


def toml_front_matter(text: str, path: str) -> tuple[PositionedDict | None, str, int, list[Problem]]:
    """As `split_front_matter`, for TOML between lines '+++': (settings, body, the body's first line, problems)."""
    lines = text.split("\n")
    end = next((n for n in range(1, len(lines)) if lines[n].strip() == "+++"), None)
    if end is None:
        return None, "", 1, [Problem("the front matter is not closed: add a line '+++' after its settings", Location(path, 1))]
    try:
        parsed = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as error:
        at = re.search(r"at line (\d+)", str(error))
        return None, "", 1, [Problem(f"invalid TOML front matter: {error}", Location(path, int(at[1]) + 1 if at else end + 1))]
    data = PositionedDict(parsed)
    data.line = 1
    data.key_lines = {}
    for number, line in enumerate(lines[1:end], start=2):
        if line.lstrip().startswith("["):  # a table: its keys are not the front matter's own
            break
        if (key := _TOML_KEY.match(line)) is not None:
            data.key_lines.setdefault(key[1].strip("\"'"), number)
    return data, "\n".join(lines[end + 1 :]), end + 2, []


def _id_of(display_path: str) -> str:
    """'content/records/2009-10-01-paper.md' -> '2009-10-01-paper'; '.../conference-paper/index.md' -> 'conference-paper'."""
    parts = display_path.rsplit("/", 2)
    stem = parts[-1].rsplit(".", 1)[0]
    return parts[-2] if stem.lower() in ("index", "_index") and len(parts) > 2 else stem


def _date(value: Any) -> Any:
    """A date as those tools write it, as sitegen's: Hugo Blox's '2013-07-01T00:00:00Z' is its day; Jekyll's and
    Hugo's '2021-3-5' (and '2021-8-20T00:00:00Z') is 2021-03-05; academicpages' `date: 2023` is a year (an int:
    the caller makes it the record's `year`). Anything else is left for the validator to name."""
    if isinstance(value, str) and (day := _LOOSE_DATE.fullmatch(value.strip())):
        return f"{day['year']}-{int(day['month']):02d}-{int(day['day']):02d}"
    if isinstance(value, str) and len(value.strip()) == 4 and (year := whole_number(value)) is not None:
        return year
    return value


def _plain_venue(value: Any) -> Any:
    """'In *Wowchemy Conference*' -> 'Wowchemy Conference' (Hugo Blox writes the venue as Markdown)."""
    if not isinstance(value, str):
        return value
    return _EMPHASIS.sub(r"\2", value.strip()).removeprefix("In ").strip()


def _first(value: Any) -> str:
    if isinstance(value, list) and value:
        value = value[0]
    return str(value).strip() if isinstance(value, (str, int)) else ""


def _links(data: PositionedDict) -> dict[str, str]:
    """The url_* fields, academicpages' paperurl, and Hugo Blox's `links:` and `url_custom:` lists, empty ones and '#' left out."""
    links: dict[str, str] = {}
    for key, kind in LINK_FIELDS.items():
        if _usable(data.get(key)):
            links.setdefault(kind, data[key].strip())
    for item in [*_list(data.get("links")), *_list(data.get("url_custom"))]:
        if isinstance(item, dict) and _usable(item.get("url")):
            kind_of_type = str(item.get("type") or "").strip().lower()
            kind = LINK_TYPES.get(kind_of_type, kind_of_type) or str(item.get("name") or "link").strip().lower().replace(" ", "_")
            links.setdefault(kind, item["url"].strip())
    return links


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _usable(url: Any) -> bool:
    return isinstance(url, str) and url.strip() not in ("", "#")


# Hugo Blox names the site's owner `admin` (the folder of their author page) in `authors`, some sites `me`
MARKDOWN = register_reader(Reader("markdown", (".md", ".qmd"), read_markdown_record, rank=OWN_LIST, owner_aliases=("admin", "me")))
