"""`sitegen init DIR --from OLD`: a new site made from a site kept with another tool.

Each tool is one module that registers how to recognise its sites and what it
brings over (`register_tool`): al-folio (`alfolio.py`), academicpages
(`academicpages.py`), Hugo Blox (`hugoblox.py`) and Quarto (`quarto.py`). A tool's reader returns an
`Imported`: the profile's values (they fill in `content/profile.yaml`), the
files of the new site (publication files as sitegen's readers take them, news,
talks, PDFs and pictures for `static/`), and what it did not bring over, for
the owner to do by hand. `sitegen init` writes them with the rest of a new
site, refusing as it always does to overwrite a file.

The old site is read as a build reads a site: only regular files inside its
folder (a symbolic link that leads out of it is passed over with a note),
text as UTF-8. Nothing in it is run.
"""

from __future__ import annotations

import datetime
import itertools
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import yaml

from sitegen.errors import SitegenError
from sitegen.homepage.frontmatter import front_matter_end, split_front_matter
from sitegen.load import parse_yaml
from sitegen.markup import render_inline
from sitegen.migrate.links import HUGO_CITE, HUGO_REF, hugo_refs, link_new_addresses, linked_text, new_site_addresses, outside_code, own_file
from sitegen.pages.menu import GISCUS_MAPPINGS, GISCUS_REQUIRED
from sitegen.pages.talks import talk_anchor
from sitegen.sources.markdown_records import toml_front_matter
from sitegen.text_files import decode_text
from sitegen.urls import address_problem, file_slug, post_slug, slugify


@dataclass
class Imported:
    """What a tool's site gives the new one."""

    tool: str
    name: str = ""
    name_variants: tuple[str, ...] = ()
    position: str = ""
    affiliation: str = ""
    email: str = ""
    photo: str = ""  # a file name in the new site's static/ (among `files`)
    links: dict[str, str] = field(default_factory=dict)  # profile.yaml's links: kind -> identifier or URL
    bio: str = ""  # Markdown
    base_url: str = ""  # the old site's address, kept
    cname: str = ""  # site.yaml's `cname`: the old site's custom domain (its file CNAME), which base_url names then
    other_addresses: tuple[str, ...] = ()  # the old site's other address ('https://owner.github.io/' beside its domain)
    files: dict[PurePosixPath, bytes] = field(default_factory=dict)  # path in the new site -> content
    left: list[str] = field(default_factory=list)  # what was not brought over, said to the owner
    records: int = 0  # publication files brought over (the skeleton's sample records are then left out)
    redirects: dict[str, str] = field(default_factory=dict)  # an old address -> where its content is now (content/redirects.yaml)
    verification: dict[str, str] = field(default_factory=dict)  # site.yaml's `verification`: search engine -> its code
    giscus: dict[str, str] = field(default_factory=dict)  # site.yaml's `comments: {giscus: ...}`: the old site's giscus settings


@dataclass(frozen=True)
class Tool:
    name: str
    recognise: Callable[[OldSite], bool]
    read: Callable[[OldSite], Imported]


TOOLS: list[Tool] = []


def register_tool(name: str, recognise: Callable[[OldSite], bool]) -> Callable[[Callable[[OldSite], Imported]], Callable[[OldSite], Imported]]:
    def register(read: Callable[[OldSite], Imported]) -> Callable[[OldSite], Imported]:
        TOOLS.append(Tool(name, recognise, read))
        return read

    return register


class OldSite:
    """The folder of a site kept with another tool, read inside its bounds."""

    def __init__(self, root: Path):
        self.root = root.resolve()
        self.notes: list[str] = []
        self._texts: dict[str, str | None] = {}
        self._fronts: dict[str, tuple[dict[str, Any], str]] = {}

    def path(self, relative: str) -> Path | None:
        """The regular file or folder at `relative`, when it is one inside the site (else None, with a note for a link that leaves)."""
        path = self.root / relative
        if not path.exists() and not path.is_symlink():
            return None
        resolved = path.resolve()
        if not resolved.is_relative_to(self.root):
            self.notes.append(f"{relative}: a link to {resolved}, outside the old site: not read")
            return None
        return path

    def has(self, relative: str) -> bool:
        return self.path(relative) is not None

    def files(self, folder: str, suffixes: tuple[str, ...] = ()) -> list[str]:
        """The regular files under `folder` (relative paths, sorted), those ending with one of `suffixes` if given."""
        base = self.path(folder)
        if base is None or not base.is_dir():
            return []
        found = []
        for here, folders, names in os.walk(base):  # not into a linked folder: one leading out would be walked whole
            for name in folders:
                if (Path(here) / name).is_symlink():
                    self.path((Path(here) / name).relative_to(self.root).as_posix())  # noted when it leads out
            for name in names:
                relative = (Path(here) / name).relative_to(self.root).as_posix()
                if (not suffixes or name.lower().endswith(suffixes)) and (path := self.path(relative)) is not None and path.is_file():
                    found.append(relative)
        return sorted(found)

    def read_bytes(self, relative: str) -> bytes | None:
        path = self.path(relative)
        return path.read_bytes() if path is not None and path.is_file() else None

    def read_text(self, relative: str) -> str | None:
        """A text file's text (read once: recognising a tool and reading its site ask for some files twice)."""
        if relative not in self._texts:
            data = self.read_bytes(relative)
            text, problem = decode_text(data, relative) if data is not None else (None, None)
            if problem is not None:
                self.notes.append(f"{problem}; not read")
            self._texts[relative] = None if problem is not None else text
        return self._texts[relative]

    def json(self, relative: str) -> Any:
        """A JSON file's data (None when it is missing, or cannot be read: with a note)."""
        text = self.read_text(relative)
        try:
            return None if text is None else json.loads(text)
        except ValueError as error:
            self.notes.append(f"{relative}: not read: {error}")
            return None

    def yaml_data(self, relative: str) -> Any:
        """A YAML file's data, whatever it is (None when it is missing or cannot be read: with a note)."""
        text = self.read_text(relative)
        if text is None:
            return None
        data, problem = parse_yaml(text, relative)
        if problem is not None:
            self.notes.append(f"{problem}: not read")
        return data

    def yaml(self, relative: str) -> dict[str, Any]:
        """A YAML file's mapping ({} when it is missing or not a mapping, with a note when it cannot be read)."""
        return a_mapping(self.yaml_data(relative))

    def front_matter(self, relative: str) -> tuple[dict[str, Any], str]:
        """A Markdown file's front matter (YAML, or TOML between '+++' lines as Hugo Academic wrote it) and the
        text below it (({}, text) without front matter), read and parsed once: a file's page, its address and its
        authors are each asked for on their own."""
        if relative not in self._fronts:
            text = (self.read_text(relative) or "").lstrip("\ufeff")
            if not text.startswith(("---", "+++")):
                self._fronts[relative] = {}, text
            else:
                data, body, _, problems = (toml_front_matter if text.startswith("+++") else split_front_matter)(text, relative)
                self.notes += [f"{problem}: front matter not read" for problem in problems]
                self._fronts[relative] = a_mapping(data), body
        return self._fronts[relative]

    def featured(self, folder: str) -> str | None:
        """A Hugo page bundle's picture, `featured.*` in its folder, if it has one."""
        return next((p for p in self.files(folder) if PurePosixPath(p).stem == "featured" and p.lower().endswith(PICTURES)), None)


# Hugo's shortcodes ({{< x >}}, {{% x %}}) and Liquid's tags ({% x %}, {{ x }}), with the spaces after them
# (each ends before the next `{{` or `{%` opens: a line of 50,000 unclosed `{{<` is read once, not from each to its end)
TEMPLATE_TAGS = re.compile(r"(?:\{\{<(?:(?!\{[{%]).)*?>\}\}|\{\{%(?:(?!\{[{%]).)*?%\}\}|\{%(?:(?!\{[{%]).)*?%\}|\{\{(?:(?!\{[{%]).)*?\}\})[ \t]*", re.DOTALL)
# a code block in Liquid ({% highlight python %} ... {% endhighlight %}) or a Hugo shortcode ({{< highlight go >}} ... {{< /highlight >}})
HIGHLIGHT = re.compile(
    r"\{%-?\s*highlight\s*(?P<language>[\w+-]*)[^%]*%\}(?P<code>.*?)\{%-?\s*endhighlight\s*-?%\}"
    r"|\{\{<\s*highlight\s*\"?(?P<hugo_language>[\w+-]*)[^>]*>\}\}(?P<hugo_code>.*?)\{\{<\s*/highlight\s*>\}\}",
    re.DOTALL,
)
# Liquid's own words for the site's address: {{ site.baseurl }}/x, {{ '/x' | relative_url }}
LIQUID_SITE_ADDRESS = re.compile(r"\{\{-?\s*(?:site\.(?:url|baseurl)|base_path)\s*-?\}\}")  # base_path: academicpages' own
LIQUID_RELATIVE_URL = re.compile(r"\{\{-?\s*['\"](?P<path>[^'\"{}]*)['\"]\s*\|\s*(?:relative_url|absolute_url|prepend:\s*site\.baseurl)\s*-?\}\}")
LIQUID_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}(?P<text>.*?)\{%-?\s*endraw\s*-?%\}", re.DOTALL)
# a picture: al-folio's {% include figure.liquid path="..." %} (figure.html before), Hugo's {{< figure src="..." >}}
FIGURE = re.compile(r"(?P<liquid>\{%-?\s*include\s+figure\.(?:liquid|html)\b[^%]*%\})|\{\{<\s*figure\b[^>]*>\}\}")
FIGURE_VALUE = re.compile(r"\b(path|src|alt|title|caption)\s*=\s*\"([^\"]*)\"", re.IGNORECASE)
# Hugo Blox's link to a file of static/: {{< staticref "uploads/cv.pdf" "newtab" >}}my CV{{< /staticref >}}
STATICREF = re.compile(r"\{\{<\s*staticref\s+\"(?P<path>[^\"]+)\"[^>]*>\}\}(?P<text>.*?)\{\{<\s*/staticref\s*>\}\}", re.DOTALL)
# Hugo's videos of another site: {{< youtube D2vj0WcvH5c >}}, {{< youtube id="..." >}}, {{< vimeo 146022717 >}}
VIDEO = re.compile(r"\{\{<\s*(?P<site>youtube|vimeo)\s+(?:id=)?\"?(?P<id>[\w-]+)\"?[^>]*>\}\}", re.IGNORECASE)
VIDEO_ADDRESSES = {"youtube": "https://www.youtube.com/watch?v=", "vimeo": "https://vimeo.com/"}
LAYOUT_LINE = re.compile(r"[ \t]*(?:<div\b[^>]*>|</div>)[ \t]*")
HTML_TAGS = re.compile(r"<[^>]+>")
HTML_COMMENT = re.compile(r"<!--.*?-->[ \t]*", re.DOTALL)
HTML_ANCHOR = re.compile(r"<a\s(?:[^>]*?\s)?href\s*=\s*[\"'](?P<target>[^\"'\s]+)[\"'][^>]*>(?P<text>.*?)</a\s*>", re.IGNORECASE | re.DOTALL)
HTML_IMAGE = re.compile(r"<img\s[^>]*>", re.IGNORECASE)
HTML_ATTRIBUTE = re.compile(r"\b([a-z]+)\s*=\s*([\"'])(.*?)\2", re.IGNORECASE | re.DOTALL)
MARKDOWN_PICTURE = re.compile(r"!\[(?P<alt>(?:[^\]\\\n]|\\.)*)\]\((?P<target>[^)\n]*)\)")
HTML_EMPHASIS = re.compile(r"<(?P<tag>i|em|b|strong)>(?P<text>[^<>*_\n]+)</(?P=tag)>", re.IGNORECASE)
HTML_BREAK = re.compile(r"[ \t]*<br\s*/?>[ \t]*", re.IGNORECASE)
# tags that only lay text out (academicpages' `<p align="center">` around a picture, `<center>`, a `<div align>` in a
# line, `<span style>`): left out, their text kept; a paragraph's end is one
HTML_LAYOUT = re.compile(r"</?(?:p|center|div|span)\b[^>]*>", re.IGNORECASE)
HTML_PARAGRAPH_END = re.compile(r"[ \t]*</p\s*>[ \t]*(?:\n|(?=<p\b))", re.IGNORECASE)
# a YouTube or Vimeo video embedded (<iframe src="https://www.youtube.com/embed/ID">...</iframe>)
HTML_VIDEO = re.compile(
    r"<iframe\b[^>]*?\bsrc\s*=\s*[\"'](?:https?:)?//(?:www\.)?(?:(?P<youtube>youtube(?:-nocookie)?\.com/embed/)|(?P<vimeo>player\.vimeo\.com/video/))"
    r"(?P<id>[\w-]+)[^\"']*[\"'][^>]*>\s*(?:</iframe\s*>)?",
    re.IGNORECASE,
)
LINE_BREAKS = re.compile(r"\r\n|[\r\u2028\u2029]")
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\ufffe\uffff\ud800-\udfff]")
SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([,.;:!?])")  # where a closing tag stood: '<a>Institute</a>, Princeton'
# GitHub's emoji shortcodes (:sparkles:, :+1:), which Jekyll's jemoji (al-folio, academicpages) and Hugo's
# `enableEmoji` (Hugo Blox) show as the emoji; not inside a word ('a:b:c', '10:30:00')
EMOJI_SHORTCODE = re.compile(r"(?<!\w):[a-z0-9_+-]+:(?!\w)")
# text Markdown shows as it is, where a shortcode stays one: code (fenced, inline) and addresses
# (each part ends before the next one like it opens, and an address starts with its scheme at a word's start: `<[^>\s]*>`
# and `\S+://` tried every place of a line of 50,000 `<` or letters to its end)
VERBATIM = re.compile(
    r"^[ \t]{0,3}(?P<fence>`{3,}+|~{3,}+).*?(?:^[ \t]{0,3}(?P=fence)|\Z)|`[^`\n]*`|\]\([^()\s]*|<[^<>\s]*>|(?<![\w+.-])[A-Za-z][\w+.-]*://\S*",
    re.MULTILINE | re.DOTALL,
)


def read_old_site(folder: Path) -> Imported:
    """What the site in `folder` gives a new sitegen site; an error when no tool's site is recognised."""
    from sitegen.migrate import academicpages, alfolio, hugoblox, quarto  # noqa: F401  (each registers its tool)

    if not folder.is_dir():
        raise SitegenError(f"--from {folder}: no such folder")
    old = OldSite(folder)
    for tool in TOOLS:
        if tool.recognise(old):
            imported = tool.read(old)
            link_new_addresses(imported)  # now that every old page's new address is known
            imported.left = list(dict.fromkeys(old.notes)) + list(dict.fromkeys(imported.left))  # a file read, a link met twice: named once
            _write_redirects(imported)
            return imported
    names = ", ".join(tool.name for tool in TOOLS)
    raise SitegenError(f"--from {folder}: not a site sitegen can bring over (it knows {names})")


# folders of the new site whose pages an old address must not stand among
NEW_SITE_FOLDERS = ("records/", "subjects/", "static/", "people/", "search/", "page/", "cited/")


def _moved(imported: Imported, old_address: str, new_address: str, front: dict[str, Any] | None = None) -> None:
    """`old_address` (and the other addresses the page's `front` matter gives it) leads to `new_address`."""
    for address in [old_address, *old_aliases(front or {})]:
        if address:
            imported.redirects[address] = new_address


def old_aliases(front: dict[str, Any]) -> list[str]:
    """The other addresses a page had: jekyll-redirect-from's `redirect_from` (academicpages' about.md: /about/),
    Hugo's `aliases`; one address or a list of them."""
    found = []
    for key in ("redirect_from", "aliases"):
        value = front.get(key)
        found += [a_string(v) for v in (value if isinstance(value, list) else [value])]
    return [address for address in found if address and "://" not in address]


def _write_redirects(imported: Imported) -> None:
    """content/redirects.yaml: each old address that is no address of the new site, so that links to the old site
    keep working (one that is, or that cannot be a page of the new site, is left out)."""
    taken = new_site_addresses(imported) | {"cv/"} | {address.lower() for address in imported.redirects.values()}  # cv/: the owner's CV, to come
    moved = {}
    for old_address, new_address in sorted(imported.redirects.items()):
        address = old_address.strip("/")
        address += "" if address.endswith(".html") else "/"
        if address_problem(address.rstrip("/"), reserved=()):
            continue  # not an address a page of the new site can have
        if address.lower() not in taken and not address.lower().startswith(NEW_SITE_FOLDERS):
            moved[address] = new_address
    if moved:
        heading = b"# Addresses of the old site, and where their content is now: each old one sends the browser on.\n"
        imported.files[PurePosixPath("content/redirects.yaml")] = heading + yaml_document(moved)


# where the old site had a page: (its file, its front matter) -> its address there ('' when unknown)
OldAddress = Callable[[str, dict[str, Any]], str]
# a tool's own Markdown of a file (its path, its text) as the Markdown sitegen reads
Markup = Callable[[str, str], str]


def _month(value: Any) -> str:
    """'2024-10' of a date written without its day (`date: 2024-10`, which Jekyll keeps as text); '' otherwise."""
    match = re.fullmatch(r"(\d{4})-(\d{1,2})", str(value).strip()) if isinstance(value, str) else None
    return f"{match[1]}-{int(match[2]):02d}" if match and 1 <= int(match[2]) <= 12 else ""


def _no_date(value: Any, otherwise: str = "") -> str:
    """What a file's date lacks, said: 'its date (2024-13-01) is no day of the calendar', or 'no date (...)'."""
    if value not in (None, ""):
        return f"its date ({a_string(value) or value!r}) is no day of the calendar"
    return f"no date (its front matter has no `date:`{', ' + otherwise if otherwise else ''})"


def day_and_name(relative: str, front: dict[str, Any]) -> tuple[str, str]:
    """A post's day (its `date`, else the one its file name starts with) and its name (sitegen.urls.post_slug)."""
    return iso_date(front.get("date")) or iso_date(PurePosixPath(relative).name), post_slug(relative)


def jekyll_permalink(pattern: str) -> OldAddress:
    """A Jekyll page's address: its own `permalink`, else `pattern` (_config.yml's) with its placeholders filled."""
    return lambda relative, front: a_string(front.get("permalink")) or _filled(pattern, front, *day_and_name(relative, front), relative)


def jekyll_collection_permalink(config: dict[str, Any], collection: str) -> OldAddress:
    """The address Jekyll gave a file of a collection (`_talks/x.md`): its own `permalink`, else the collection's
    of _config.yml (academicpages: `/:collection/:path/`; Jekyll's own: `/:collection/:path:output_ext`), when
    the collection has pages (`output: true`)."""
    settings = a_mapping(a_mapping(config.get("collections")).get(collection))
    pattern = (a_string(settings.get("permalink")) or "/:collection/:path:output_ext") if settings.get("output") is True else ""
    return jekyll_permalink(pattern.replace(":collection", collection))


def _filled(pattern: str, front: dict[str, Any], date: str, name: str, relative: str = "") -> str:
    categories = front.get("categories") or front.get("category") or ""
    categories = "/".join(a_string(c) for c in categories) if isinstance(categories, list) else a_string(categories).replace(" ", "/")
    year, month, day = (date.split("-") + ["", "", ""])[:3]
    values = {
        ":categories": categories,
        ":year": year,
        ":month": month,
        ":i_month": month.lstrip("0"),
        ":day": day,
        ":i_day": day.lstrip("0"),
        ":title": name,
        ":slug": name,
        ":path": PurePosixPath(*PurePosixPath(relative).parts[1:]).with_suffix("").as_posix() if relative.count("/") else "",
        ":name": PurePosixPath(relative).stem,
        ":output_ext": ".html",
    }
    address = re.sub(r":[a-z_]+", lambda m: values.get(m[0], m[0]), pattern)
    return "" if ":" in address else re.sub(r"/{2,}", "/", address)


def plain_text(html: str) -> str:
    """Text of an HTML snippet (a subtitle, a role), tags and template tags left out, spaces tidied."""
    text = " ".join(HTML_TAGS.sub(" ", TEMPLATE_TAGS.sub("", _printable(html))).split())
    return emoji_shown(SPACE_BEFORE_PUNCTUATION.sub(r"\1", text))


def emoji_shown(text: str) -> str:
    """The text with the emoji shortcodes its tool showed as emoji (`:sparkles:` -> ✨) written as the emoji
    themselves, as GitHub names them (the `emoji` package's aliases): sitegen shows text as it is. Code and
    addresses are left as they are, and so is a shortcode of no emoji (`:my_icon:`)."""
    if not EMOJI_SHORTCODE.search(text):
        return text
    import emoji  # only for a text with something like a shortcode in it

    def shown(part: str) -> str:
        return EMOJI_SHORTCODE.sub(lambda match: emoji.emojize(match[0], language="alias"), part)

    parts, start = [], 0
    for verbatim in VERBATIM.finditer(text):
        parts += [shown(text[start : verbatim.start()]), verbatim[0]]
        start = verbatim.end()
    return "".join(parts) + shown(text[start:])


def page_text(old: OldSite, imported: Imported, relative: str, body: str, address: str) -> str:
    """Markdown of the text of the old site's file `relative` (its page was at `address`), its links to the old
    site's own files and pages as the new site names them (sitegen.migrate.links)."""
    return linked_text(old, imported, relative, address, markdown_text(hugo_refs(old, imported, relative, body)))


def record_file_text(old: OldSite, imported: Imported, relative: str, text: str, address: str, template_text: tuple[str, ...] = (), stand_in: str = "") -> str:
    """A publication file brought over: its front matter as written, its text below (the record's abstract when it
    has none) as `page_text` makes a page's, without the paragraphs the tool's template wrote there
    (`template_text`: how each starts); a note when template tags were left out of it. `stand_in`: the field that is
    the abstract of a file with no text (academicpages' `excerpt`), written as that text when it holds HTML,
    which an abstract would show as written."""
    lines = text.split("\n")
    end = front_matter_end(lines) if lines[0].strip() in ("---", "+++") else None
    if lines[0].strip() == "+++":
        end = next((n for n in range(1, len(lines)) if lines[n].strip() == "+++"), None)
    if end is None:
        return text
    body = "\n".join(lines[end + 1 :])
    if not body.strip() and "<" in stand_in:
        body = stand_in
    if not body.strip():
        return text
    converted = page_text(old, imported, relative, body, address)
    if template_text:
        paragraphs = converted.split("\n\n")
        # Hugo Blox's template since 2025 writes them as notes ('> [!NOTE]', then '> Click the _Cite_ button above...')
        converted = "\n\n".join(
            p for p in paragraphs if not re.sub(r"[*_]|^[ \t]*>[ \t]?|\[![A-Z]+\][ \t]*", "", p, flags=re.MULTILINE).lstrip().startswith(template_text)
        )
    pictures = outside_code(converted, lambda prose: MARKDOWN_PICTURE.sub(lambda m: f"[{m['alt'] or 'Picture'}]({m['target']})", prose))
    if pictures != converted:  # an abstract shows no picture: a link to it, then
        imported.left.append(f"{relative}: its pictures are links in its text (a record's abstract shows no picture)")
        converted = pictures
    if leaves_template_tags_out(body) and converted.strip():  # (the template's own sample text is no loss)
        imported.left.append(f"{relative}: its template tags ({{% ... %}}, {{{{< ... >}}}}) left out of its text")
    return "\n".join(lines[: end + 1]) + "\n" + converted + ("\n" if converted else "")


def markdown_text(text: str) -> str:
    """Markdown of another tool's page: its code blocks (`{% highlight python %}`) fenced, its other template tags
    (Liquid, Hugo shortcodes) left out, blank runs closed."""
    raw: list[str] = []  # {% raw %}...{% endraw %}: text as it is, template tags and all
    fenced = _tags_converted(text, raw)
    without = outside_code(_without_layout_blocks(TEMPLATE_TAGS.sub("", fenced)), _html_as_markdown)
    lines = "\n".join(line.rstrip() for line in without.split("\n"))
    kept = re.sub(r"\ue000(\d+)\ue001", lambda m: raw[int(m[1])], emoji_shown(lines))
    return re.sub(r"\n{3,}", "\n\n", kept).strip("\n").rstrip()


def _tags_converted(text: str, raw: list[str]) -> str:
    """The text with the template tags that have a Markdown equivalent written as it (code blocks, pictures, links
    to the site); `{% raw %}` blocks set aside into `raw` (a mark for each). The tags left are those to leave out."""

    def set_aside(match: re.Match[str]) -> str:
        raw.append(match["text"])
        return f"\ue000{len(raw) - 1}\ue001"

    text = LIQUID_RAW.sub(set_aside, _printable(text).replace("\ue000", ""))
    text = LIQUID_RELATIVE_URL.sub(lambda m: m["path"], LIQUID_SITE_ADDRESS.sub("", text))
    text = FIGURE.sub(_figure_picture, STATICREF.sub(lambda m: f"[{m['text']}](/{m['path'].lstrip('/')})", text))
    text = VIDEO.sub(lambda m: f"\n\n[Video on {m['site'].capitalize().replace('tube', 'Tube')}]({VIDEO_ADDRESSES[m['site'].lower()]}{m['id']})\n\n", text)
    return HIGHLIGHT.sub(lambda m: f"\n```{m['language'] or m['hugo_language'] or ''}\n{(m['code'] or m['hugo_code'] or '').strip(chr(10))}\n```\n", text)


def leaves_template_tags_out(text: str) -> bool:
    """Whether `markdown_text` leaves out some of the text's template tags (not those it writes as Markdown)."""
    return bool(TEMPLATE_TAGS.search(_tags_converted(HUGO_CITE.sub("", HUGO_REF.sub("", text)), [])))  # refs and cites: links (hugo_refs)


def _figure_picture(match: re.Match[str]) -> str:
    """al-folio's `{% include figure.liquid path="assets/img/9.jpg" %}` or Hugo's `{{< figure src="x.png" >}}` as a
    Markdown picture on a line of its own (al-folio's path is from the site's root)."""
    values = {name.lower(): value for name, value in FIGURE_VALUE.findall(match.group(0))}
    path = values.get("path") or values.get("src") or ""
    if not path:
        return ""
    if match["liquid"] and "://" not in path and not path.startswith("/"):
        path = "/" + path
    words = re.sub(r"[][]", "", plain_text(values.get("alt") or values.get("title") or values.get("caption") or ""))
    return f"\n\n![{words}]({path})\n\n"


def _html_as_markdown(text: str) -> str:
    """The HTML a page of the old site hid or showed, as the new site's Markdown shows it (which shows raw HTML as
    text): comments left out (academicpages' about.md keeps its template's notes in them), `<a href>` and
    `<img src>` as Markdown's link and picture (their links then follow the old site's files like any other),
    `<br>` as a line's end."""
    if "<" not in text:
        return text
    text = HTML_COMMENT.sub("", text)
    text = HTML_VIDEO.sub(
        lambda m: f"[Video on {'YouTube' if m['youtube'] else 'Vimeo'}]({VIDEO_ADDRESSES['youtube' if m['youtube'] else 'vimeo']}{m['id']})", text
    )
    text = HTML_LAYOUT.sub("", HTML_PARAGRAPH_END.sub("\n\n", text))
    text = HTML_ANCHOR.sub(lambda m: f"[{_link_words(m['text'])}]({_markdown_target(m['target'])})", text)
    text = HTML_IMAGE.sub(_html_picture, text)
    text = HTML_EMPHASIS.sub(
        lambda m: f"{'**' if m['tag'].lower() in ('b', 'strong') else '*'}{m['text']}{'**' if m['tag'].lower() in ('b', 'strong') else '*'}", text
    )
    lines = (re.sub(HTML_BREAK.pattern + "$", "", line, flags=re.IGNORECASE) for line in text.split("\n"))  # the line ends there anyway
    return "\n".join(HTML_BREAK.sub(" " if line.lstrip().startswith("|") else "\n", line) for line in lines)


def _html_picture(match: re.Match[str]) -> str:
    values = {name.lower(): value for name, _, value in HTML_ATTRIBUTE.findall(match[0])}
    if not values.get("src"):
        return ""
    return f"![{_link_words(values.get('alt') or values.get('title') or '')}]({_markdown_target(values['src'])})"


def _link_words(html: str) -> str:
    """A link's or a picture's words, as Markdown's [...] holds them."""
    return re.sub(r"([][])", r"\\\1", plain_text(html))


def _markdown_target(url: str) -> str:
    return f"<{url}>" if re.search(r"[\s()<>]", url) else url


def _without_layout_blocks(text: str) -> str:
    """Text without the lines that only open or close an HTML <div> (al-folio's rows and columns of pictures), the
    lines between them unindented: indented, Markdown would show them as code."""
    lines, depth = [], 0
    for line in text.split("\n"):
        if LAYOUT_LINE.fullmatch(line):
            depth = max(0, depth + (-1 if "</" in line else 1))
            continue
        lines.append(line.lstrip() if depth else line)
    return "\n".join(lines)


def _printable(text: str) -> str:
    """Line breaks as \\n (YAML reads U+2028 and U+2029 as line breaks too), and no control character a YAML
    file cannot hold (a page cannot show one either)."""
    return CONTROL_CHARACTERS.sub("", LINE_BREAKS.sub("\n", text))


def a_string(value: Any) -> str:
    """Text of a setting that should be text ('' for anything else), without the control characters no page can show."""
    return _printable(str(value)).strip() if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""


def custom_domain(old: OldSite, imported: Imported, *files: str) -> None:
    """The custom domain of a site GitHub Pages served (its file CNAME, Hugo's in static/): site.yaml's `cname`, and
    base_url its root, where GitHub serves a site with a domain; the old address (`url:`, often left at github.io)
    still read as the site's own in links."""
    domain = next((line for name in ("CNAME", *files) for line in (old.read_text(name) or "").split() if line), "").strip().lower().rstrip(".")
    if not re.fullmatch(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}", domain):
        return
    old_address = imported.base_url
    imported.cname = domain
    imported.base_url = f"https://{domain}/"
    if old_address and old_address != imported.base_url:
        imported.other_addresses += (old_address,)
    imported.left.append(
        f"CNAME: the custom domain {domain} is site.yaml's cname, and base_url is {imported.base_url}; with the GitHub Actions "
        "workflow, enter it under Settings -> Pages -> Custom domain too (docs/deploying.md)"
    )


def jekyll_drafts(old: OldSite, imported: Imported) -> None:
    """A note for Jekyll's `_drafts/`, the posts not yet published, which are not brought over."""
    if drafts := old.files("_drafts", (".md", ".markdown")):
        imported.left.append(
            f"_drafts/: {len(drafts)} draft{'s' if len(drafts) > 1 else ''} not brought over; to keep one, copy it into "
            "content/posts/_NAME.md with a `date:` (a draft, which `sitegen serve --drafts` shows)"
        )


def jekyll_analytics(config: dict[str, Any], imported: Imported) -> None:
    """A note for the Google Analytics id of a Jekyll site (academicpages' `analytics: google: tracking_id:`, al-folio's
    `google_analytics:`): sitegen has no Google Analytics, and the counts would stop without a word."""
    settings = a_mapping(config.get("analytics"))
    if a_string(settings.get("provider")).startswith("google"):  # academicpages: google, google-universal, google-gtag
        code = a_string(a_mapping(settings.get("google")).get("tracking_id"))
    else:
        code = a_string(config.get("google_analytics")) if config.get("enable_google_analytics") is True else ""
    if code:
        imported.left.append(
            f"_config.yml: Google Analytics ({code}) not brought over: sitegen loads no script of another site unless "
            "content/site.yaml names one, and counts visitors with Plausible or GoatCounter (analytics:, docs/homepage.md)"
        )


# the giscus settings sitegen keeps, by the names other tools' configurations give them (al-folio's _config.yml writes
# giscus's own names; Quarto's _quarto.yml writes them with hyphens)
GISCUS_NAMES = {
    "repo": "repo",
    "repo_id": "repo_id",
    "repo-id": "repo_id",
    "category": "category",
    "category_id": "category_id",
    "category-id": "category_id",
    "mapping": "mapping",
}


def giscus_comments(settings: dict[str, Any], where: str, imported: Imported) -> bool:
    """An old site's giscus settings as site.yaml's `comments` (True), when they name a repository and its ids
    (al-folio's sample leaves them empty; Quarto looks the ids up itself when it renders: a note then says what to add)."""
    written = {GISCUS_NAMES[name]: text for name, value in settings.items() if name in GISCUS_NAMES and (text := a_string(value).strip())}
    if not written.get("repo"):
        return False
    missing = [name for name in GISCUS_REQUIRED if name not in written]
    if missing:
        imported.left.append(
            f"{where}: giscus comments ({written['repo']}) not brought over: content/site.yaml's `comments:` needs "
            f"{', '.join(missing)}, which giscus.app gives for the repository (docs/homepage.md#comments)"
        )
        return False
    if "mapping" in written and written["mapping"] not in GISCUS_MAPPINGS:
        del written["mapping"]  # giscus's `specific` and `number` name one discussion for every page
    imported.giscus = written
    imported.left.append(
        f"{where}: giscus comments brought over (content/site.yaml's `comments:`): giscus finds a post's discussion by its "
        f"{written.get('mapping', 'pathname')}, which the new site may write otherwise: a post whose discussion it does not find "
        "starts a new one, and the old comments stay in the repository's Discussions"
    )
    return True


def jekyll_address(config: dict[str, Any]) -> str:
    """A Jekyll site's address, `url` and `baseurl` of its _config.yml, without a final slash ('' when it has none)."""
    url = a_string(config.get("url"))
    if not url.startswith(("https://", "http://")):
        return ""
    return (url.rstrip("/") + "/" + a_string(config.get("baseurl")).strip("/")).rstrip("/")


# Jekyll's settings of search engines' verification codes (al-folio's and academicpages' _config.yml) -> site.yaml's names
JEKYLL_VERIFICATION = {
    "google_site_verification": "google",
    "bing_site_verification": "bing",
    "yandex_site_verification": "yandex",
    "naver_site_verification": "naver",
    "baidu_site_verification": "baidu",
}


def jekyll_verification(config: dict[str, Any]) -> dict[str, str]:
    """The search engines' codes a Jekyll site's _config.yml gives (`google_site_verification: CODE`)."""
    return {engine: code for key, engine in JEKYLL_VERIFICATION.items() if (code := a_string(config.get(key)))}


def profile_links(settings: dict[str, Any], kinds: dict[str, tuple[str, str]]) -> dict[str, str]:
    """profile.yaml's links from another tool's settings: `kinds` maps a setting to (link kind, the URL of a bare
    identifier, '{}' standing for it); a value that is a URL already is kept."""
    links = {}
    for key, (kind, pattern) in kinds.items():
        if value := a_string(settings.get(key)):
            links[kind] = value if "://" in value else pattern.format(value)
    return links


LINK_HOSTS = {  # a social link's host -> profile.yaml's kind
    "orcid.org": "orcid",
    "scholar.google.com": "google_scholar",
    "github.com": "github",
    "gitlab.com": "gitlab",
    "www.linkedin.com": "linkedin",
    "linkedin.com": "linkedin",
    "bsky.app": "bluesky",
    "dblp.org": "dblp",
    "arxiv.org": "arxiv",
    "twitter.com": "x",
    "x.com": "x",
}


def person_links(old: OldSite, imported: Imported, items: list[Any], relative: str) -> tuple[str, dict[str, str]]:
    """A person's links (Hugo Blox's `social:`, `profiles:`, the person file's `links:`: each a `link:` or `url:`
    with an `icon:`; Quarto's about page's `links:`, each an `href:`) as the profile's email and links; a file of the
    old site (`icon: cv`, `url: uploads/resume.pdf`) copied to static/."""
    email, links = "", dict[str, str]()
    for social in map(a_mapping, items):
        link = a_string(social.get("link")) or a_string(social.get("url")) or a_string(social.get("href"))
        if link.startswith("mailto:"):
            email = email or link.removeprefix("mailto:")
        elif copied := own_file(old, imported, link, relative):  # `icon: cv`, `link: uploads/resume.pdf`
            links.setdefault(
                "cv" if a_string(social.get("icon")).rpartition("/")[2] in ("cv", "file-pdf", "file-earmark-pdf", "file-earmark-person") else "website", copied
            )
        elif link.startswith(("https://", "http://")):
            links.setdefault(link_kind(urlsplit(link).hostname or ""), link)
    return email, links


def link_kind(host: str) -> str:
    """profile.yaml's kind of a link to `host` ('scholar.google.co.uk' -> 'google_scholar'), 'website' for any other."""
    if host.startswith("scholar.google."):
        return "google_scholar"
    return LINK_HOSTS.get(host, "website")


def a_mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def a_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def iso_date(value: Any) -> str:
    """'2015-10-22' from a date, a datetime or text that starts with one (Jekyll and Hugo also read '2015-10-2',
    '2021-8-20T00:00:00Z'); '' otherwise, or for no day of the calendar."""
    match = re.match(r"(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)", str(value).strip()) if value is not None else None
    if not match:
        return ""
    try:
        return datetime.date(*(int(part) for part in match.groups())).isoformat()
    except ValueError:
        return ""


class _Dumper(yaml.SafeDumper):
    """Text of several lines as a block (`abstract: |`), as a person writes it."""


def _text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    block = "\n" in text and not text.startswith(" ") and all(line == line.rstrip() for line in text.split("\n"))
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|" if block else None)


_Dumper.add_representer(str, _text)


def yaml_document(data: Any) -> bytes:
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100).encode("utf-8")


@dataclass(frozen=True)
class Collection:
    """How another tool's collection of pages (courses, projects) becomes one page of the new site, in the menu."""

    title: str  # 'Teaching'
    slug: str  # 'teaching': content/pages/teaching.md, and static/teaching/ for its pictures
    nav: int
    facts: tuple[str, ...] = ()  # front matter fields for a line under each section's title ('term', 'location')
    by_importance: bool = False  # al-folio's projects: `importance` first (1 first), then the title; else newest first

    @property
    def address(self) -> str:
        return f"{self.slug}/"


TEACHING = Collection("Teaching", "teaching", 2, ("term", "type", "venue", "location"))
PROJECTS = Collection("Projects", "projects", 3, ("category",), by_importance=True)
PICTURES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".svg")


def collection_page(
    old: OldSite, imported: Imported, relatives: list[str], collection: Collection, old_address: OldAddress, intro: str = "", markup: Markup | None = None
) -> None:
    """Pages of another tool (Markdown with front matter) as one page of the new site: a section per page, a line
    of its facts and year under its title, its picture (`img`, or a Hugo bundle's `featured.*`, copied to
    static/), then its text (or its `description`, `summary`, `excerpt`) and its link elsewhere, if any; each
    page's old address leads to the new page. `intro`: Markdown before the sections (the text of Hugo's list
    page, `content/teaching/_index.md`); `markup`: as for `posts_files`."""
    sections = []
    for relative in relatives:
        front, body = old.front_matter(relative)
        body = markup(relative, body) if markup else body
        if not (title := plain_text(a_string(front.get("title")))):
            continue
        _moved(imported, old_address(relative, front), collection.address, front)
        when = iso_date(front.get("date")) or a_string(front.get("year"))
        line = ", ".join(fact for fact in [*(plain_text(a_string(front.get(key))) for key in collection.facts), when[:4]] if fact)
        text = headings_below(page_text(old, imported, relative, body, old_address(relative, front) or "/"))
        text = text or plain_text(a_string(front.get("description") or front.get("summary") or front.get("excerpt")))
        picture = _picture(old, imported, relative, a_string(front.get("img")) or _excerpt_picture(front) or a_string(front.get("image")), collection.slug)
        # Hugo Blox's `external_link`; its `links:` list since 2025 (`- type: site`, `url: ...`); Jekyll's `redirect`
        listed = [a_string(a_mapping(item).get("url")) for item in a_list(front.get("links"))]
        link = a_string(front.get("external_link") or front.get("redirect")) or next((url for url in listed if url.startswith(("https://", "http://"))), "")
        parts = [f"# {title}", f"*{line}*" if line else "", f"![{re.sub(r'[][]', '', title)}]({picture})" if picture else "", text]
        parts.append(f"<{link}>" if link.startswith(("https://", "http://")) and not any(c in link for c in "<> ") else "")
        importance = front.get("importance")
        order = (importance if isinstance(importance, int) and not isinstance(importance, bool) else 1000, title.lower()) if collection.by_importance else when
        sections.append((order, "\n\n".join(part for part in parts if part)))
    if sections or intro.strip():
        ordered = sorted(sections, key=lambda section: section[0], reverse=not collection.by_importance)
        text = "\n\n".join(part.strip() for part in [intro, *(section for _, section in ordered)] if part.strip())
        imported.files[PurePosixPath(f"content/pages/{collection.slug}.md")] = markdown_file({"title": collection.title, "nav": collection.nav}, text)


def _excerpt_picture(front: dict[str, Any]) -> str:
    """The picture in a page's `excerpt` (academicpages' portfolio shows its excerpt on the list, the item's picture
    in it: `A segmenter<br/><img src='/images/x.png'>`), '' when there is none."""
    shown = HTML_IMAGE.search(a_string(front.get("excerpt")))
    return next((value for name, _, value in HTML_ATTRIBUTE.findall(shown[0]) if name.lower() == "src"), "") if shown else ""


# a project's links elsewhere, as al-folio and Hugo Blox write them -> a project's link kinds
PROJECT_LINKS = {"external_link": "website", "redirect": "website", "url_code": "code", "url_pdf": "pdf", "url_slides": "slides", "url_video": "video"}


def projects_files(old: OldSite, imported: Imported, relatives: list[str], old_address: OldAddress, records: dict[str, list[str]] | None = None) -> None:
    """Another tool's project pages (al-folio's `_projects/`, Hugo Blox's `content/project/`, academicpages'
    `_portfolio/`) as content/projects/, each at the address of its old file's (or bundle's) name, to which its old
    address leads: its `description` (Hugo's `summary`, academicpages' `excerpt`), its place (`importance`, Hugo's
    `weight`) as `order`, its picture (`img`, the excerpt's, a bundle's `featured.*`, copied to static/projects/),
    its links elsewhere (`redirect`, `external_link`, Hugo Blox's `links:`
    and `url_*`, al-folio's `github:` repository) and its text. `records`: the records that name each project by its
    name (Hugo Blox's `projects:` of a publication), its `records:`. A draft (`draft: true`) stays one (`_name.md`)."""
    taken: set[str] = set()
    for relative in relatives:
        front, body = old.front_matter(relative)
        if not (title := plain_text(a_string(front.get("title")))):
            imported.left.append(f"{relative}: no title: not brought over; add it to content/projects/ with its `title:`")
            continue
        path = PurePosixPath(relative)
        name = path.parent.name if path.name == "index.md" else path.stem
        slug = unique_slug(name, taken, "project")
        project: dict[str, Any] = {"title": title}
        if description := plain_text(a_string(front.get("description") or front.get("summary") or front.get("excerpt"))):
            project["description"] = description
        if picture := _picture(old, imported, relative, a_string(front.get("img")) or _excerpt_picture(front) or a_string(front.get("image")), "projects"):
            project["image"] = picture
        place = front.get("importance", front.get("weight"))
        if isinstance(place, int) and not isinstance(place, bool):
            project["order"] = place
        if links := _project_links(old, imported, relative, front):
            project["links"] = links
        if named := (records or {}).get(name):
            project["records"] = named
        address = old_address(relative, front) or "/"
        draft = front.get("draft") is True or front.get("published") is False
        if not draft:
            _moved(imported, address if address.strip("/") != f"projects/{slug}" else "", f"projects/{slug}/", front)
        text = page_text(old, imported, relative, body, address)
        file_name = f"{'_' if draft else ''}{slug}.md"
        imported.files[PurePosixPath("content/projects", file_name)] = markdown_file(project, text)
        if leaves_template_tags_out(body):
            imported.left.append(f"{relative}: its template tags ({{% ... %}}, {{{{< ... >}}}}) left out of content/projects/{file_name}")


def _project_links(old: OldSite, imported: Imported, relative: str, front: dict[str, Any]) -> dict[str, str]:
    """A project's links, each kind once: its fields' (PROJECT_LINKS), Hugo Blox's `links:` list (`type:` or `name:`,
    and `url:`), al-folio's `github: owner/repo`; a file of the old site copied to static/."""
    found: dict[str, str] = {}
    written = [(kind, a_string(front.get(field))) for field, kind in PROJECT_LINKS.items()]
    for item in map(a_mapping, a_list(front.get("links"))):
        named = a_string(item.get("type") or item.get("name") or item.get("icon")).strip().lower()
        kind = "website" if named in ("", "site", "link", "custom link") else slugify(named).replace("-", "_").strip("_.") or "website"
        written.append((kind, a_string(item.get("url"))))
    if re.fullmatch(r"[\w.-]+/[\w.-]+", repository := a_string(front.get("github")).strip()):
        written.append(("code", f"https://github.com/{repository}"))
    for kind, url in written:
        url = url.strip()
        if not url or kind in found:
            continue
        if url.startswith(("https://", "http://")) and not any(c in url for c in "<> "):
            found[kind] = url
        elif copied := own_file(old, imported, url, relative):
            found[kind] = copied
    return found


_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_ATX_HEADING = re.compile(r"( {0,3})(#{1,6})(?=[ \t]|$)")
_SETEXT_LINE = re.compile(r" {0,3}(=+|-+)[ \t]*")
_NO_SETEXT_TEXT = re.compile(r" {0,3}(?:[-*+>#|]|\d+[.)])|\s*$")  # a list item, quote, heading, table row or blank line above


def headings_below(text: str) -> str:
    """A page's Markdown text with each heading one level lower (`#` -> `##`, `Title` over `===` -> `## Title`,
    over `---` -> `### Title`), for a section of a page under its own `# title`: a course's `Heading 1` is no
    heading as high as the courses'. Code blocks stay as they are."""
    lines: list[str] = []
    fence = ""
    for line in text.split("\n"):
        if fence:
            fence = "" if line.strip().startswith(fence) and not line.strip().strip(fence[0]) else fence
        elif opening := _FENCE.match(line):
            fence = opening.group(1)
        elif heading := _ATX_HEADING.match(line):
            line = heading.group(1) + "#" * min(len(heading.group(2)) + 1, 6) + line[heading.end() :]
        elif _SETEXT_LINE.fullmatch(line) and _paragraph_line(lines):
            title: list[str] = []
            while _paragraph_line(lines):  # the paragraph above is the heading's text, each of its lines
                title.insert(0, lines.pop().strip())
            lines.append(f"{'##' if '=' in line else '###'} {' '.join(title)}")
            continue
        lines.append(line)
    return "\n".join(lines)


def _paragraph_line(lines: list[str]) -> bool:
    """Whether the last of `lines` is a line of a paragraph's text (which a setext underline makes a heading)."""
    return bool(lines) and not _NO_SETEXT_TEXT.match(lines[-1]) and not _FENCE.match(lines[-1]) and not lines[-1].startswith("    ")


def _picture(old: OldSite, imported: Imported, relative: str, named: str, slug: str) -> str:
    """The picture a page names (a path in the old site, 'assets/img/1.jpg' or '/assets/img/1.jpg'), else its
    bundle's `featured.*` (Hugo): copied to static/<slug>/; its path in the new site ('' when there is none)."""
    folder = PurePosixPath(relative).parent
    found = named.lstrip("/") if named.lower().endswith(PICTURES) and "://" not in named else ""
    if found and not named.startswith("/") and not old.has(found) and old.has((folder / found).as_posix()):  # beside its page (Quarto's)
        found = (folder / found).as_posix()
    if not found and PurePosixPath(relative).name == "index.md":
        found = old.featured(str(folder)) or ""
    if not found or (data := old.read_bytes(found)) is None:
        return ""
    name = f"{folder.name}-{PurePosixPath(found).name}" if PurePosixPath(relative).stem == "index" else PurePosixPath(found).name
    target = PurePosixPath("static", slug, slugify(name))  # a name Markdown can link to as it is
    imported.files[target] = data
    return target.as_posix()


def talks_file(
    old: OldSite,
    imported: Imported,
    relatives: list[str],
    event: str,
    links: dict[str, str],
    old_address: OldAddress,
    owners: tuple[str, ...] = ("admin",),
    markup: Markup | None = None,
) -> None:
    """Another tool's talk pages (Markdown with front matter) as content/talks/talks.yaml. `event`: the field that
    names the event; `links`: fields -> link kinds (a web address, or a file of the old site, copied to static/),
    and Hugo Blox's `links:` list (`name:`, `url:`); each talk's old address leads to the talks page. `owners`: the
    names that stand for the owner among a talk's `authors`; `markup`: as for `posts_files`."""
    talks = []
    for relative in relatives:
        front, body = old.front_matter(relative)
        body = markup(relative, body) if markup else body
        # Hugo Blox's `event_start` (its `date` is the page's, which its template leaves at 2017-01-01)
        date, title = iso_date(front.get("event_start")) or iso_date(front.get("date")), plain_text(a_string(front.get("title")))
        if not title:
            imported.left.append(f"{relative}: no title: not brought over; add it to content/talks/talks.yaml with its title")
            continue
        if not date and (month := _month(front.get("event_start") or front.get("date"))):  # `date: 2024-10`: Jekyll keeps it
            date = f"{month}-01"
            imported.left.append(f"{relative}: date: {month} has no day: dated {date} in content/talks/talks.yaml; write its day there")
        if not date:
            imported.left.append(f"{relative}: {_no_date(front.get('event_start') or front.get('date'))}: not brought over; add it to content/talks/talks.yaml")
            continue
        kind = plain_text(a_string(front.get("type")))  # academicpages' kind of talk ('Tutorial'): talks.yaml's `type`
        for key in ("date_end", "event_end"):  # Hugo Blox's: a workshop of several days
            if (last := iso_date(front.get(key))) > date:
                imported.left.append(f"{relative}: its last day ({key}: {last}) not brought over; a talk has one date: say it in its abstract")
                break
        if speakers := [name for name in map(a_string, a_list(front.get("authors"))) if name and name not in owners]:  # Hugo Blox's
            imported.left.append(f"{relative}: its other speakers ({', '.join(speakers)}) not brought over; name them in its abstract")
        # its old page leads to it on the talks page (the first talk of a date and title: another's id is -2)
        _moved(imported, old_address(relative, front), f"talks/#{talk_anchor(date, render_inline(title).plain)}", front)
        talk: dict[str, Any] = {"title": title, "date": datetime.date.fromisoformat(date)}
        if kind and kind.casefold() != "talk":  # "Talk": the usual one, which the old lists did not set apart
            talk["type"] = kind
        address = a_mapping(front.get("address"))  # Hugo Blox's: street, city, region, postcode, country
        place = [plain_text(a_string(front.get("location"))), *(plain_text(a_string(address.get(key))) for key in ("city", "region", "country"))]
        for name, value in (("event", plain_text(a_string(front.get(event)))), ("location", ", ".join(dict.fromkeys(part for part in place if part)))):
            if value:
                talk[name] = value
        urls = {kind: url for key, kind in links.items() if (url := _talk_link(old, imported, relative, key, a_string(front.get(key))))}
        for link in map(a_mapping, a_list(front.get("links"))):  # Hugo Blox's since 2025: `- name: Video`, `url: ...`
            kind = re.sub(r"\W+", "_", plain_text(a_string(link.get("name") or link.get("type"))).casefold()).strip("_") or "website"
            if kind not in urls and (url := _talk_link(old, imported, relative, "links", a_string(link.get("url")))):
                urls[kind] = url
        if urls:
            talk["links"] = urls
        if abstract := a_string(front.get("abstract")) or page_text(old, imported, relative, body, "/talks/") or a_string(front.get("summary")):
            talk["abstract"] = abstract
        talks.append(talk)
    if talks:
        imported.files[PurePosixPath("content/talks/talks.yaml")] = yaml_document(talks)


def _talk_link(old: OldSite, imported: Imported, relative: str, key: str, url: str) -> str:
    """A talk's link as the new site names it: a web address as it is, a file of the old site as its copy in
    static/ ('' for nothing, or a path to no file of the old site: with a note)."""
    if not url:
        return ""
    if copied := own_file(old, imported, url, relative):
        return copied
    if url.startswith(("https://", "http://")):
        return url
    imported.left.append(f"{relative}: {key} names {url}, no file of the old site: not brought over")
    return ""


def posts_files(
    old: OldSite,
    imported: Imported,
    relatives: list[str],
    old_address: OldAddress,
    old_lists: tuple[str, ...] = (),
    markup: Markup | None = None,
    comments_flag: str = "",
) -> None:
    """Another tool's blog posts (Markdown with front matter: Jekyll's `_posts/2015-03-15-name.md`, Hugo's
    `post/name/index.md`) as content/posts/, each at the address of its old name, to which its old address
    leads; a draft (`draft: true`, `published: false`) stays a draft (`_name.md`); its `image`, a file of the old
    site (its link preview's picture, Quarto's listing's thumbnail), is the post's. The old site's lists of
    posts (`old_lists`: 'blog/') lead to the blog, once a post is published there. `markup`: what makes a post's
    text of the tool's own Markdown (Quarto's code cells, divs) the Markdown sitegen reads. `comments_flag`: the
    front matter's setting that gave a post its comments (al-folio's `giscus_comments: true`): a post without it
    has `comments: false` once the site has comments."""
    taken: set[str] = set()
    for relative in relatives:
        front, body = old.front_matter(relative)
        body = markup(relative, body) if markup else body
        (date, name), title = day_and_name(relative, front), plain_text(a_string(front.get("title")))
        if not (date and title):
            missing = _no_date(front.get("date"), "its file name none of the calendar") if title else "no title"
            imported.left.append(f"{relative}: {missing}: not brought over; give it `{'date: YYYY-MM-DD' if title else 'title: ...'}`")
            continue
        if (elsewhere := a_string(front.get("redirect"))).startswith(("https://", "http://")) and not body.strip():
            imported.left.append(f"{relative}: a post published elsewhere ({elsewhere}): not brought over; link it from a page or the bio")
            continue
        slug = unique_slug(name, taken, "post")
        draft = front.get("draft") is True or front.get("published") is False
        description = plain_text(a_string(front.get("description") or front.get("summary") or front.get("excerpt")))
        post = {"title": title, "date": datetime.date.fromisoformat(date), **({"description": description} if description else {})}
        if tags := post_tags(front):
            post["tags"] = tags
        if wants_contents(front):
            post["toc"] = True
        if (picture := a_string(front.get("image"))) and (
            copied := own_file(old, imported, picture, relative)
        ):  # its link preview's (Quarto's, jekyll-seo-tag's)
            post["image"] = copied
        if comments_flag and imported.giscus and front.get(comments_flag) is not True:
            post["comments"] = False
        file_name = f"{'_' if draft else ''}{date}-{slug}.md"
        if not draft:
            _moved(imported, old_address(relative, front), f"posts/{slug}/", front)
            imported.redirects |= dict.fromkeys(old_lists, "posts/")
        text = page_text(old, imported, relative, body, old_address(relative, front) or "/")
        imported.files[PurePosixPath("content/posts", file_name)] = markdown_file(post, text)
        if leaves_template_tags_out(body):
            imported.left.append(f"{relative}: its template tags ({{% ... %}}, {{{{< ... >}}}}) left out of content/posts/{file_name}")


def unique_slug(name: str, taken: set[str], fallback: str) -> str:
    """The address of a page brought over made of its old `name` ('post' or 'project' for a name with nothing
    left), '-2', '-3', ... after it when another took it (ignoring case, as macOS and Windows do); added to `taken`."""
    slug = base = slugify(name).strip("-.") or fallback
    for number in itertools.count(2):
        if slug.lower() not in taken:
            break
        slug = f"{base}-{number}"
    taken.add(slug.lower())
    return slug


def post_tags(front: dict[str, Any]) -> list[str]:
    """A post's tags and categories as one list of tags: Jekyll writes each as a list or as words in one
    string (`tags: formatting math`), Hugo as lists."""
    tags: dict[str, str] = {}
    for name in ("tags", "categories"):
        value = front.get(name) or []
        for tag in value.split() if isinstance(value, str) else value if isinstance(value, list) else []:
            if tag_name := " ".join(a_string(tag).split()):
                tags.setdefault(tag_name.casefold(), tag_name)
    return list(tags.values())


def files_moved(old: OldSite, imported: Imported, label: str, served: str) -> None:
    """A note when files the old site served came over to static/ (`served`: its folder served at the site's root,
    '' for Jekyll's, 'static/' for Hugo's): the new site serves them under /static/, where its own links lead; a
    link from another site to an old address (/files/cv.pdf) gives 404, and no redirect can send a file on."""
    moved = sorted(
        path.relative_to("static").as_posix()
        for path in imported.files
        if path.parts[0] == "static" and old.has(served + path.relative_to("static").as_posix())
    )
    if moved:
        where = "/static/" if served else f"/static/{label}"  # Hugo's static/uploads/x.pdf was /uploads/x.pdf; Jekyll's files/x.pdf /files/x.pdf
        imported.left.append(
            f"{label}: its files are at {where} now (/{moved[0]} is /static/{moved[0]}); the site's own links lead there, "
            "links from other sites to the old addresses give 404: update the ones you can"
        )


# the new site's own addresses, which a page brought over cannot take
OWN_PAGE_NAMES = frozenset({"records", "subjects", "static", "people", "search", "page", "cited", "posts", "news", "talks", "cv", "publications"})


def pages_left(old: OldSite, imported: Imported) -> None:
    """Jekyll's `_pages/` but the bio's (`about.md`) and those with no text of their own that the new site makes
    itself (al-folio's `publications.md`, `projects.md`, `cv.md` of layout cv, academicpages' `year-archive.html`,
    whose address leads to the blog): a Markdown page without template tags comes over as a page
    (content/pages/NAME.md, in the menu when the old site's `_data/navigation.yml` had it); of any other a note
    says that its Liquid layout is not brought over and its text is the owner's to copy."""
    made = new_site_addresses(imported) | {"publications/"} | {address.lower() for address in imported.redirects}
    menu = [a_string(a_mapping(entry).get("url")).strip("/").lower() for entry in a_list(old.yaml("_data/navigation.yml").get("main"))]
    for relative in old.files("_pages", (".md", ".markdown", ".html")):
        front, body = old.front_matter(relative)
        name = (a_string(front.get("permalink")).strip("/") or PurePosixPath(relative).stem).lower()
        if relative == "_pages/about.md" or not (markdown_text(body) or f"{name}/" not in made):
            continue
        if markdown_page(old, imported, relative, front, body, name, menu):
            continue
        if name in ("cv", "resume") and PurePosixPath("content/cv.yaml") not in imported.files:  # academicpages' Markdown CV
            addresses = ", ".join(
                dict.fromkeys(f"/{address.strip('/')}{'/' if address.endswith('/') else ''}" for address in [f"/{name}/", *old_aliases(front)])
            )
            imported.left.append(
                f"{relative}: a CV (a Liquid layout as much as text) not brought over; copy its entries into content/cv.yaml, "
                f"which makes /cv/ again ({addresses} give 404 until then)"
            )
        else:
            imported.left.append(f"{relative}: a page (a Liquid layout as much as text) not brought over; copy its text into content/pages/*.md")


def markdown_page(old: OldSite, imported: Imported, relative: str, front: dict[str, Any], body: str, name: str, menu: list[str]) -> bool:
    """A page of Markdown with no template tags (a list of links, a research statement) as content/pages/NAME.md,
    its old addresses leading there; False (nothing done) for any other."""
    slug = file_slug(PurePosixPath(name).name).lower()
    target = PurePosixPath(f"content/pages/{slug}.md")
    if (
        not relative.endswith((".md", ".markdown", ".qmd"))
        or leaves_template_tags_out(body)
        or not slug
        or slug in OWN_PAGE_NAMES
        or f"{slug}/" in new_site_addresses(imported)
    ):
        return False
    address = a_string(front.get("permalink")) or f"/{name}/"
    text = page_text(old, imported, relative, body, address)
    if not text.strip():
        return False
    settings: dict[str, Any] = {"title": plain_text(a_string(front.get("title"))) or slug}
    if name in menu:  # after the menu's pages brought over (teaching, portfolio): in the old menu's order
        settings["nav"] = 10 + menu.index(name)
    elif front.get("nav") is True:  # al-folio's: in its menu, by `nav_order`
        order = front.get("nav_order")
        settings["nav"] = 10 + (order if isinstance(order, int) and not isinstance(order, bool) and 0 <= order < 90 else 0)
    if wants_contents(front):
        settings["toc"] = True
    imported.files[target] = markdown_file(settings, text)
    _moved(imported, address.strip("/") + "/" if address.strip("/") != slug else "", f"{slug}/", front)
    return True


def wants_contents(front: dict[str, Any]) -> bool:
    """Did a page or post of the old site show a table of contents: Hugo's and Quarto's `toc: true`, al-folio's
    `toc: {sidebar: left}` (its distill posts' list of sections too)?"""
    toc = front.get("toc")
    return toc is True or bool(a_mapping(toc)) or bool(a_list(toc))


def list_intro_file(old: OldSite, imported: Imported, relative: str, folder: str, address: str, with_text: bool = True) -> None:
    """A list page's own title, description and text on the old site (Hugo's `content/post/_index.md`, al-folio's
    `_pages/projects.md`) as the new list's (`content/<folder>/_index.md`), when it says more than a title: its
    `description` (Hugo Blox's `summary`) and, `with_text`, its text (al-folio's is a Liquid loop over the projects, not text)."""
    if not old.has(relative):
        return
    front, body = old.front_matter(relative)
    text = page_text(old, imported, relative, body, address) if with_text else ""
    settings = {
        key: value for key in ("title", "description") if (value := a_string(front.get(key) or (front.get("summary") if key == "description" else "")).strip())
    }
    if settings.get("description") or text.strip():  # a title alone ('Blog') is the theme's word for the list
        imported.files[PurePosixPath(f"content/{folder}/_index.md")] = markdown_file(settings, text)


def news_file(date: str, title: str, body: str) -> bytes:
    """A news item as content/news/ keeps it."""
    return markdown_file({"date": datetime.date.fromisoformat(date), **({"title": title} if title else {})}, body)


def markdown_file(front: dict[str, Any], body: str) -> bytes:
    """A Markdown file of the new site: `front` as its YAML front matter, then `body`."""
    return b"---\n" + yaml_document(front) + b"---\n" + body.strip().encode("utf-8") + b"\n"
