"""Quarto websites (`project: type: website`): the owner from the home page (`index.qmd`) and its `about:`
template (`jolla`, `trestles`, `solana`, `marquee`, `broadside`: its title, subtitle, image and `links:`); the
publications of a listing (`listing: contents: publications`: each item's front matter, its `citation:`
metadata, which is CSL's, and its text) as Markdown records in sitegen's own fields; the project's
`bibliography:` (.bib or CSL-JSON, as sitegen reads them) copied as it is; the posts of any other listing; the
other pages as pages, in the menu when `website: navbar:` had them there.

Quarto writes `page.qmd` as `page.html` and lets pages link each other by their source (`[papers](papers.qmd)`):
such a link is read as one to that page's address. What Quarto makes by running code (a cell's output: a
plot, a table) is not in the source: a cell comes over as code, and a note says so.
"""

from __future__ import annotations

import datetime
import fnmatch
import re
from functools import partial
from pathlib import PurePosixPath
from typing import Any

from sitegen.migrate import (
    OWN_PAGE_NAMES,
    PROJECTS,
    TEACHING,
    Collection,
    Imported,
    OldSite,
    a_list,
    a_mapping,
    a_string,
    collection_page,
    custom_domain,
    giscus_comments,
    iso_date,
    link_kind,
    markdown_file,
    markdown_page,
    markdown_text,
    old_aliases,
    page_text,
    person_links,
    plain_text,
    posts_files,
    register_tool,
    talks_file,
)
from sitegen.migrate.links import outside_code, own_file
from sitegen.sources.bibtex import link_kind as url_kind
from sitegen.sources.markdown_records import PUBLICATION_TYPES, quarto_authors
from sitegen.urls import slugify

SOURCES = (".qmd", ".md", ".ipynb", ".rmd")
LISTING_FILES = (".yml", ".yaml")  # a listing's items written in a YAML file of their own (`contents: papers.yml`)
# a listing whose folder (or page) has one of these names lists publications; talks; anything else: posts
PUBLICATION_NAMES = frozenset({"publications", "publication", "papers", "pubs", "articles", "preprints"})
# a listing of these: one page (content/pages/NAME.md), a section per item, as other tools' projects and courses
PROJECT_NAMES = frozenset({"projects", "project", "research", "portfolio", "software"})
TEACHING_NAMES = frozenset({"teaching", "courses", "course"})
TALK_NAMES = frozenset({"talks", "talk", "presentations", "slides"})
POST_NAMES = frozenset({"posts", "post", "blog", "news"})
# CSL's variables of a `citation:` that a record keeps under another name (the others: see `_publication`)
CITATION_FIELDS = {
    "container-title": "source",
    "volume": "volume",
    "issue": "number",
    "number": "number",
    "page": "pages",
    "publisher": "publisher",
    "publisher-place": "address",
    "collection-title": "series",
    "edition": "edition",
    "isbn": "isbn",
    "issn": "issn",
    "note": "note",
}
# what Quarto's `citation:` holds that a record has no place for, or Quarto reads for its own page
CITATION_PASSED_OVER = frozenset({"url", "doi", "type", "pdf-url", "title", "author", "issued", "available-date", "citation-key", "abstract"})
CODE_CELL = re.compile(r"^(?P<indent>[ \t]{0,3})(?P<fence>`{3,}|~{3,})[ \t]*\{[ \t]*\.?(?P<language>[\w+-]+)[^}\n]*\}[ \t]*$", re.MULTILINE)
CELL_OPTION = re.compile(r"^[ \t]*#\|.*\n", re.MULTILINE)
DIV_FENCE = re.compile(r"^[ \t]*:{3,}.*\n?", re.MULTILINE)
ATTRIBUTES = re.compile(r"(?<=[)\]])\{[^{}\n]*\}|(?<=\S)[ \t]+\{#[^{}\n]*\}[ \t]*$", re.MULTILINE)  # ![a](x.png){width=50%}, ## Heading {#sec-x}
# (the patterns below stop at the next opening they look for, so that a line of 100,000 `[` or `{{<` is read once,
# not from every one of them to its end)
SHORTCODE = re.compile(r"\{\{<\s*(?P<name>[\w-]+)\b(?P<arguments>(?:[^>{]|\{(?!\{<))*)>\}\}")
# the words of a publication's own links, on a line of their own below its text ('[PDF](paper.pdf) | [Code](...)')
LINK_WORDS = {"pdf": "pdf", "paper": "pdf", "preprint": "preprint", "code": "code", "software": "code", "slides": "slides"}
LINK_WORDS |= {"video": "video", "data": "data", "dataset": "data", "poster": "poster", "supplement": "supp", "arxiv": "abs"}
LINK_LINE = re.compile(r"\[(?P<words>[^\[\]\n]+)\]\((?P<target>[^)\s]+)\)")
BRACKETS = re.compile(r"\[[^\[\]\n]*\]")  # Pandoc's citations are in brackets: [@key], [see @key, p. 3]
CITED_KEY = re.compile(r"-?@\w")
QMD_LINK = re.compile(r"(\]\(\s*<?[^()\s>#]*?)\.(?:qmd|ipynb|rmd)(?=[#)\s>])", re.IGNORECASE)


def recognise(old: OldSite) -> bool:
    return old.has("_quarto.yml") or old.has("_quarto.yaml")


@register_tool("Quarto", recognise)
def read(old: OldSite) -> Imported:
    config = old.yaml("_quarto.yml") or old.yaml("_quarto.yaml")
    website = a_mapping(config.get("website"))
    imported = Imported("Quarto")
    if (address := a_string(website.get("site-url"))).startswith(("https://", "http://")):
        imported.base_url = address.rstrip("/") + "/"
    custom_domain(old, imported)
    output = a_string(a_mapping(config.get("project")).get("output-dir")) or "_site"
    sources = [p for p in old.files("", SOURCES) if _a_page(p, output)]
    home = _home(old, sources)
    _profile(old, imported, home, website)
    menu = _menu(old, imported, website)
    listed: set[str] = set()
    for relative in sources:
        for listing in _listings(old.front_matter(relative)[0]):
            items = _listed_files(old, relative, listing, sources)
            listed |= {item for item in items if not item.endswith(LISTING_FILES)}
            _list_brought_over(old, imported, relative, items, menu)
    _bibliographies(old, imported, config, sources)
    for relative in sources:
        if relative != home and relative not in listed:
            _page(old, imported, relative, menu)
    _settings_left(imported, config, website)
    return imported


def _home(old: OldSite, sources: list[str]) -> str:
    """The page about the owner: the one with an `about:` template (index.qmd, else about.qmd, ...), else index.qmd
    (a site whose home page is its blog's listing keeps its about page as about.qmd)."""
    ordered = sorted(sources, key=lambda relative: (relative.count("/"), PurePosixPath(relative).stem != "index", relative))
    with_about = [relative for relative in ordered if isinstance(old.front_matter(relative)[0].get("about"), (dict, str))]
    return next(iter(with_about), next((relative for relative in ordered if PurePosixPath(relative).stem == "index" and "/" not in relative), ""))


def _a_page(relative: str, output: str) -> bool:
    """Whether a source file is one of the site's pages: not in the output folder, a folder of Quarto's
    (`_extensions/`, `_freeze/`) or a hidden one, nor a partial (`_footer.qmd`, which pages include)."""
    parts = PurePosixPath(relative).parts
    return not relative.startswith(output.strip("/") + "/") and not any(part.startswith(("_", ".")) for part in parts) and parts[-1] != "README.md"


def old_address(relative: str, front: dict[str, Any] | None = None) -> str:
    """Where Quarto put a page ('papers/x.qmd' -> 'papers/x.html', 'posts/a/index.qmd' -> 'posts/a/'): an `OldAddress`."""
    path = PurePosixPath(relative)
    return f"{path.parent.as_posix()}/".lstrip("./") if path.stem == "index" else path.with_suffix(".html").as_posix()


def quarto_markdown(old: OldSite, imported: Imported, relative: str, text: str) -> str:
    """Quarto's Markdown as sitegen's: a code cell (```{r}) as a code block without its `#|` options, a note that
    its output (a plot, a table) is not brought over; the `:::` lines of divs and callouts and `{...}` attributes
    left out (their text kept); a link to another source file (`papers.qmd`) as one to its page (`papers.html`);
    `{{< video URL >}}` a link to the video, any other shortcode left out with a note."""
    cells = CODE_CELL.findall(text)
    if cells:
        languages = ", ".join(dict.fromkeys(language for _, _, language in cells))
        imported.left.append(f"{relative}: its code cells ({languages}) come over as code; their output (plots, tables) does not: sitegen runs no code")
    text = CELL_OPTION.sub("", CODE_CELL.sub(lambda m: f"{m['indent']}{m['fence']}{m['language']}", text)) if cells else text
    left: list[str] = []

    def shortcode(match: re.Match[str]) -> str:
        arguments = match["arguments"].split()
        if match["name"] == "video" and arguments and arguments[0].strip("\"'").startswith(("https://", "http://")):
            return f"[Video]({arguments[0].strip(chr(34) + chr(39))})"
        left.append(match["name"])
        return ""

    text = SHORTCODE.sub(shortcode, text)
    if left:
        imported.left.append(f"{relative}: its shortcodes ({', '.join(dict.fromkeys(left))}) left out of its text")
    cited = [found for prose in _prose(text) for found in BRACKETS.findall(prose) if CITED_KEY.search(found)]  # not in code, where @ is code
    if cited:
        imported.left.append(f"{relative}: its citations ({', '.join(cited[:3])}) are shown as written: link the works you cite instead")
    return QMD_LINK.sub(r"\1.html", ATTRIBUTES.sub("", DIV_FENCE.sub("", text)))


def _prose(text: str) -> list[str]:
    """The pieces of a Markdown text outside its code blocks and code spans."""
    pieces: list[str] = []

    def kept(prose: str) -> str:
        pieces.append(prose)
        return prose

    outside_code(text, kept)
    return pieces


def _text(old: OldSite, imported: Imported, relative: str, body: str) -> str:
    return page_text(old, imported, relative, quarto_markdown(old, imported, relative, body), "/" + old_address(relative))


def _profile(old: OldSite, imported: Imported, home: str, website: dict[str, Any]) -> None:
    """The owner from the home page: its `title` (else the website's), `subtitle`, `image` and the `about:`
    template's `links:` (the navbar's icons too), its text the bio."""
    front, body = old.front_matter(home) if home else ({}, "")
    about = a_mapping(front.get("about")) or ({"template": front["about"]} if isinstance(front.get("about"), str) else {})  # `about: jolla`
    imported.name = plain_text(a_string(front.get("title"))) or plain_text(a_string(website.get("title")))
    imported.position = plain_text(a_string(front.get("subtitle")))
    navbar = a_mapping(website.get("navbar"))
    icons = [item for side in ("left", "right") for item in a_list(navbar.get(side)) if a_string(a_mapping(item).get("icon"))]
    imported.email, imported.links = person_links(old, imported, a_list(about.get("links")) + icons, home or "_quarto.yml")
    picture = a_string(about.get("image")) or a_string(front.get("image"))
    if picture and (copied := own_file(old, imported, picture, home)):
        imported.photo = PurePosixPath(copied).relative_to("static").as_posix()
    elif picture:
        imported.left.append(
            f"{home}: image names {picture}, no file of the site: no photo brought over; put yours in static/ and name it as `photo:` in content/profile.yaml"
        )
    if home:
        imported.bio = _text(old, imported, home, body)
        if not about:
            imported.left.append(f"{home}: no `about:` template: its title is the name, its text the bio; check content/profile.yaml")
    for kind, url in list(imported.links.items()):
        if kind == "website" and PurePosixPath(url).suffix.lower() == ".pdf":  # a CV linked from the about page
            imported.links["cv"] = imported.links.pop(kind)


def _listings(front: dict[str, Any]) -> list[dict[str, Any]]:
    """A page's listings: `listing:` is one (a mapping), several (a list of them), or a folder's name."""
    listing = front.get("listing")
    if isinstance(listing, str):
        return [{"contents": listing}]
    return [a_mapping(one) for one in (a_list(listing) if isinstance(listing, list) else [listing]) if isinstance(one, dict)]


def _listed_files(old: OldSite, page: str, listing: dict[str, Any], sources: list[str]) -> list[str]:
    """The source files a listing lists: its `contents`, one or several folders, files or globs, from the listing
    page's folder (the page itself is not among them); all the page's folder's others without `contents`."""
    contents = listing.get("contents")
    patterns = [a_string(c) for c in (a_list(contents) if isinstance(contents, list) else [contents]) if a_string(c)]
    folder = PurePosixPath(page).parent
    found: list[str] = []
    for pattern in patterns or ["*"]:
        pattern = (folder / pattern.removeprefix("./")).as_posix().lstrip("./") if not pattern.startswith("/") else pattern.lstrip("/")
        if pattern.endswith(LISTING_FILES) and old.has(pattern):
            found.append(pattern)
            continue
        for relative in sources:
            inside = relative.startswith(pattern.rstrip("/") + "/") and "*" not in pattern
            if relative != page and relative not in found and (inside or relative == pattern or fnmatch.fnmatch(relative, pattern)):
                found.append(relative)
    return found


def _list_brought_over(old: OldSite, imported: Imported, page: str, items: list[str], menu: list[str]) -> None:
    """A listing's items as publications, projects or courses, talks or posts: by their `citation:` (or `doi:`),
    else by the name of their folder or of the listing page. Items of a YAML file (`contents: papers.yml`) are
    publications."""
    # the names of the items' folders (or YAML files) say what they are; else the listing page's name
    names = {(PurePosixPath(item).stem if item.endswith(LISTING_FILES) or "/" not in item else PurePosixPath(item).parts[0]).lower() for item in items}
    if not names & (PUBLICATION_NAMES | PROJECT_NAMES | TEACHING_NAMES | TALK_NAMES | POST_NAMES):
        names.add(PurePosixPath(page).stem.lower())
    fronts = [old.front_matter(item)[0] for item in items if not item.endswith(LISTING_FILES)]
    list_address = old_address(page)
    if any("citation" in front or "doi" in front for front in fronts) or names & PUBLICATION_NAMES or (items and not fronts):
        for item in items:
            if item.endswith(LISTING_FILES):
                _yaml_publications(old, imported, item)
            else:
                front, body = old.front_matter(item)
                _publication(old, imported, item, front, _text(old, imported, item, body), PurePosixPath(item))
        imported.redirects[list_address] = "#publications"
    elif collection := names & (PROJECT_NAMES | TEACHING_NAMES):
        _collection(old, imported, page, items, TEACHING if collection & TEACHING_NAMES else PROJECTS, menu)
    elif names & TALK_NAMES:
        links = {"slides": "slides", "video": "video", "code": "code", "pdf": "pdf"}
        talks_file(old, imported, items, "event", links, old_address, (), lambda relative, body: quarto_markdown(old, imported, relative, body))
        imported.redirects[list_address] = "talks/"
    else:
        posts_files(old, imported, items, old_address, (list_address,), lambda relative, body: quarto_markdown(old, imported, relative, body))


def _collection(old: OldSite, imported: Imported, page: str, items: list[str], kind: Collection, menu: list[str]) -> None:
    """A listing of projects or courses as one page named as the listing page (`research.qmd`: content/pages/research.md,
    "Research"), a section per item, the listing page's text first; in the menu where the navbar had it."""
    front, body = old.front_matter(page)
    name = PurePosixPath(page).stem.lower() if PurePosixPath(page).stem != "index" else PurePosixPath(page).parent.name.lower()
    slug = slugify(name) if slugify(name) not in OWN_PAGE_NAMES and name else kind.slug
    nav = 10 + menu.index(name) if name in menu else kind.nav
    collection = Collection(plain_text(a_string(front.get("title"))) or kind.title, slug, nav, kind.facts, kind.by_importance)
    markup = partial(quarto_markdown, old, imported)
    collection_page(old, imported, items, collection, old_address, _text(old, imported, page, body), markup)
    imported.redirects[old_address(page)] = collection.address


def _yaml_publications(old: OldSite, imported: Imported, relative: str) -> None:
    """The items of a listing's YAML file (`- title: ...`, `author`, `date`, `path`, `description`, `citation`):
    each a publication, its `path` (a web address, or a file of the site) its link."""
    for number, item in enumerate(a_list(old.yaml_data(relative)), start=1):
        front = a_mapping(item)
        path = a_string(front.get("path") or front.get("href"))
        citation = a_mapping(front.get("citation"))
        if path and "url" not in citation and "pdf-url" not in citation:
            front = {**front, "citation": {**citation, ("pdf-url" if path.lower().endswith(".pdf") else "url"): path}}
        name = PurePosixPath(f"{slugify(a_string(front.get('title')))[:40].strip('-') or PurePosixPath(relative).stem + f'-{number}'}.yml")
        text = plain_text(a_string(front.get("abstract")) or a_string(front.get("description")))
        _publication(old, imported, f"{relative} (item {number})", front, text, name, relative)


def _publication(old: OldSite, imported: Imported, relative: str, front: dict[str, Any], text: str, source: PurePosixPath, folder_file: str = "") -> None:
    """A publication (a listing's page, or an item of its YAML file) as a Markdown record
    (content/records/publications/NAME.md, NAME from `source`) in sitegen's fields: its front matter's title,
    authors, date, categories and DOI, its `citation:` (CSL: the type, journal, volume, pages, the address),
    `text` the abstract; the page's old address leads to the record's page. `folder_file`: the file whose
    folder its relative links start from, when it is not `relative`."""
    citation = a_mapping(front.get("citation"))
    title = plain_text(a_string(front.get("title")) or a_string(citation.get("title")))
    date = iso_date(front.get("date")) or iso_date(citation.get("issued"))
    year = date[:4] or (match[0] if (match := re.search(r"\b(1[89]|20)\d\d\b", a_string(front.get("date")) or a_string(citation.get("issued")))) else "")
    if not (title and year):
        imported.left.append(f"{relative}: {'no date' if title else 'no title'}: not brought over; add it to content/records/ by hand")
        return
    record: dict[str, Any] = {"title": title, "authors": _authors(front.get("author") or citation.get("author"))}
    record |= {"date": datetime.date.fromisoformat(date)} if date else {"year": int(year)}
    kind = a_string(citation.get("type")).lower()
    if kind in PUBLICATION_TYPES:
        record["type"] = PUBLICATION_TYPES[kind]
    elif kind:
        imported.left.append(f"{relative}: citation type {kind} has no type of sitegen's: none set (sitegen guesses one); set `type:`")
    for key, name in CITATION_FIELDS.items():
        if (value := plain_text(a_string(citation.get(key)))) and name not in record:
            record[name] = value
    if doi := a_string(front.get("doi")) or a_string(citation.get("doi")):
        record["doi"] = doi
    links = {}
    for key, kind in (("url", ""), ("pdf-url", "pdf")):
        url = a_string(citation.get(key))
        if copied := own_file(old, imported, url, folder_file or relative):
            links[kind or "pdf"] = copied
        elif url.startswith(("https://", "http://")) and not (doi and url.lower().endswith(doi.lower())):  # the DOI's: its link says it
            links[kind or url_kind(url)] = url  # named by what it leads to, as a .bib entry's `url` is
    if categories := [c for c in map(plain_text, map(a_string, a_list(front.get("categories")))) if c]:
        record["categories"] = categories
    abstract = _links_taken(text or plain_text(a_string(front.get("abstract")) or a_string(front.get("description"))), links)
    if links:
        record["links"] = links
    if (picture := a_string(front.get("image"))) and (copied := own_file(old, imported, picture, folder_file or relative)):
        record["image"] = copied  # the listing's thumbnail: the record's, in lists and link previews
    if front.get("draft") is True:
        record["hidden"] = True
    if left := sorted(str(key) for key in citation if str(key).lower() not in CITATION_FIELDS and str(key).lower() not in CITATION_PASSED_OVER):
        imported.left.append(f"{relative}: citation fields {', '.join(left)} not brought over; add what you need to its record")
    name = slugify(source.parent.name if source.stem == "index" else source.stem)
    target = PurePosixPath("content/records/publications", f"{name}.md")
    if target in imported.files:
        imported.left.append(f"{relative}: a second publication named {name}: not brought over; add it to content/records/ by hand")
        return
    imported.files[target] = markdown_file(record, abstract)
    imported.records += 1
    for address in [old_address(relative) if not folder_file else "", *old_aliases(front)]:  # Quarto's `aliases:` too
        if address:
            imported.redirects[address] = f"records/{name}/"


def _links_taken(text: str, links: dict[str, str]) -> str:
    """A publication's text without the lines that only hold its own links (`[PDF](paper.pdf) | [Code](...)`, as
    Quarto's publication pages write them below the abstract): each is put in `links` by its words instead."""
    kept = []
    for line in text.split("\n"):
        found = list(LINK_LINE.finditer(line))
        rest = LINK_LINE.sub("", line).strip(" \t|·•,;-–")
        if found and not rest and all(plain_text(m["words"]).casefold() in LINK_WORDS for m in found):
            for match in found:
                links.setdefault(LINK_WORDS[plain_text(match["words"]).casefold()], match["target"])
            continue
        kept.append(line)
    return "\n".join(kept).strip()


def _authors(value: Any) -> list[str]:
    """Quarto's `author` as names (sitegen.sources.markdown_records.quarto_authors), text only."""
    return [name for name in (plain_text(a_string(author)) for author in quarto_authors(value)) if name]


def _bibliographies(old: OldSite, imported: Imported, config: dict[str, Any], sources: list[str]) -> None:
    """The `bibliography:` files that sitegen reads (.bib, CSL-JSON .json), copied as they are into content/records/:
    the project's, with a note that each entry is a publication of the owner's now (Quarto's pages cite from it),
    and a page's that lists them all (`nocite: '@*'`: the owner's list of publications, whose page is the
    profile's list now); a page's other bibliography holds the works it cites, and is named in a note."""
    named: list[tuple[str, Any, bool]] = [("_quarto.yml", config.get("bibliography"), False)]
    for relative in sources:
        front = old.front_matter(relative)[0]
        if front.get("bibliography"):
            named.append((relative, front.get("bibliography"), "@*" in a_string(front.get("nocite"))))
    for where, value, all_listed in named:
        for relative in (a_string(v) for v in (value if isinstance(value, list) else [value]) if a_string(v)):
            path = PurePosixPath(where).parent / relative if where != "_quarto.yml" and not relative.startswith("/") else PurePosixPath(relative.lstrip("/"))
            target = PurePosixPath("content/records", path.name)
            if target in imported.files:
                continue
            if where != "_quarto.yml" and not all_listed:
                imported.left.append(f"{where}: its bibliography {relative} (the works it cites) not brought over; its citations ([@key]) are shown as written")
                continue
            if path.suffix.lower() not in (".bib", ".json") or (data := old.read_bytes(path.as_posix())) is None:
                imported.left.append(f"{where}: bibliography {relative} not brought over (sitegen reads .bib and CSL-JSON .json files of the site)")
                continue
            imported.files[target] = data
            imported.records += 1
            if all_listed:
                imported.redirects[old_address(where)] = "#publications"
            else:
                imported.left.append(
                    f"{relative}: copied to {target}: each of its entries is a publication of yours on the new site; "
                    "remove the works of others it holds (the ones your pages cited)"
                )


def _menu(old: OldSite, imported: Imported, website: dict[str, Any]) -> list[str]:
    """The names of the pages of the navbar (`website: navbar: left:`, `right:`, their `menu:`s) and then of the
    sidebar (`website: sidebar: contents:`, its sections' `contents:`), in their order: the ones brought over as
    pages are in the new menu so; a link elsewhere (`href: https://...`) becomes a link of the profile (icons
    already are)."""
    navbar = a_mapping(website.get("navbar"))
    sidebars = website.get("sidebar")
    items = _menu_items([navbar.get("left"), navbar.get("right")])
    items += _menu_items([a_mapping(bar).get("contents") for bar in (sidebars if isinstance(sidebars, list) else [sidebars])])
    names = []
    for item in items:
        href = a_string(item) or a_string(a_mapping(item).get("href"))
        if href.startswith(("https://", "http://")):
            if not a_string(a_mapping(item).get("icon")):
                words = plain_text(a_string(a_mapping(item).get("text"))) or href
                kind = link_kind(href.split("/")[2])
                kind = kind if kind != "website" else (slugify(words).replace("-", "_") or "website")
                imported.links.setdefault(kind, href)
            continue
        if href:
            names.append(PurePosixPath(href.lstrip("/")).with_suffix("").as_posix().removesuffix("/index").removesuffix("index").lower())
    return names


def _menu_items(lists: list[Any]) -> list[Any]:
    """The items of the menus' lists, each followed by those of its `menu:` or `contents:` (a dropdown, a section)."""
    items = []
    for item in (item for one in lists for item in a_list(one)):
        items.append(item)
        items += _menu_items([a_mapping(item).get("menu"), a_mapping(item).get("contents")])
    return items


def _page(old: OldSite, imported: Imported, relative: str, menu: list[str]) -> None:
    """A page (not the home page, nor a listing's item) as content/pages/NAME.md, in the menu where the navbar had
    it; a listing page is passed over (its items came over), with a note for its text; a note for any other."""
    front, body = old.front_matter(relative)
    if _listings(front):  # its items came over; a collection's page has its text
        if markdown_text(body) and imported.redirects.get(old_address(relative)) in (None, "posts/", "#publications", "talks/"):
            imported.left.append(f"{relative}: its text above its listing not brought over; copy it into the bio or content/pages/*.md")
        return
    name = old_address(relative).removesuffix(".html").strip("/").lower()
    text = quarto_markdown(old, imported, relative, body)
    if markdown_page(old, imported, relative, front, text, name, menu):
        if (address := old_address(relative)).endswith(".html"):
            imported.redirects[address] = f"{PurePosixPath(name).name}/"
        return
    if PurePosixPath(name).name in ("cv", "resume"):
        if "cv" not in imported.links and (pdf := next((f for f in old.files(str(PurePosixPath(relative).parent)) if f.lower().endswith(".pdf")), "")):
            imported.links["cv"] = own_file(old, imported, pdf, relative)
        where = f"its PDF is the profile's cv link ({imported.links['cv']}); " if "cv" in imported.links else ""
        imported.left.append(f"{relative}: the CV page not brought over: {where}for a CV page, write its entries into content/cv.yaml")
    elif PurePosixPath(name).name in ("talks", "talk", "presentations"):
        imported.left.append(f"{relative}: a page of talks not brought over; write each into content/talks/talks.yaml, which makes /talks/")
    elif text.strip():
        imported.left.append(f"{relative}: a page not brought over; copy its text into content/pages/*.md")


def _settings_left(imported: Imported, config: dict[str, Any], website: dict[str, Any]) -> None:
    """Notes for the settings of _quarto.yml that have no counterpart: the theme, CSS, footer, analytics."""
    html = a_mapping(a_mapping(config.get("format")).get("html"))
    if theme := html.get("theme"):
        shown = a_string(theme) or ", ".join(a_string(t) for t in a_list(theme)) or "light/dark"
        imported.left.append(f"_quarto.yml: the theme ({shown}) and its CSS not brought over: choose one of sitegen's themes (theme: in content/site.yaml)")
    if a_mapping(website.get("page-footer")) or a_string(website.get("page-footer")):
        imported.left.append("_quarto.yml: website.page-footer not brought over: sitegen writes its own footer")
    analytics = website.get("google-analytics")
    if code := a_string(analytics) or a_string(a_mapping(analytics).get("tracking-id")):
        imported.left.append(
            f"_quarto.yml: Google Analytics ({code}) not brought over: sitegen loads no script of another site unless "
            "content/site.yaml names one, and counts visitors with Plausible or GoatCounter (analytics:, docs/homepage.md)"
        )
    comments = a_mapping(website.get("comments")) or a_mapping(config.get("comments"))
    if comments and not giscus_comments(a_mapping(comments.get("giscus")), "_quarto.yml", imported) and not comments.get("giscus"):
        imported.left.append("_quarto.yml: comments (utterances, hypothesis) not brought over: sitegen's posts have giscus's comments alone")
