"""Which records a page or the CV shows: all, the featured ones, some types, some years, some subjects, or
records named by id (a project's paper, its software and its data).

A page asks with a line of its own in its Markdown (never a template: content
is not code),

    {{< publications type="article,inproceedings" since="2020" limit="10" >}}

and the CV with its Publications section, `publications: selected` (the
featured records), `all`, or the same settings as a mapping.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any

from sitegen.errors import Location, Problem, escaped, quoted
from sitegen.model import RECORD_TYPES, Entry, Site
from sitegen.values import value_class, whole_number

SHORTCODE = re.compile(r"^\s*\{\{<\s*publications\b(?P<attributes>.*?)>\}\}\s*$")
_ATTRIBUTE = re.compile(r'\s*([A-Za-z_]+)\s*=\s*"([^"]*)"')
SETTINGS = ("featured", "type", "ids", "subject", "year", "since", "until", "limit", "title", "search")
SEARCH_FROM = 10  # records from which a list shown on a page has a search box of its own, unless `search` says


@value_class
class PublicationFilter:
    """What to show of the records, in the order of the list (newest first)."""

    featured: bool = False
    types: tuple[str, ...] = ()
    since: int | None = None
    until: int | None = None
    limit: int | None = None
    title: str = ""  # a heading over the list on a page (else a hidden one)
    search: bool | None = None  # a search box over the list: as written (search="true"/"false"), else from SEARCH_FROM records
    ids: tuple[str, ...] = ()  # records by id or citation key (an alias too), case aside: a project's paper, code and data
    subjects: tuple[str, ...] = ()  # records of any of these subjects (a category as written, or its name), case aside
    where: Location | None = None  # where the list is asked for: a warning about an id that names no record points there

    def searchable(self, count: int) -> bool:
        """Whether a list of `count` records chosen so has its own search box and filters (SPEC §8): when it is a
        real list, SEARCH_FROM records or more, unless `search` says; never an empty one."""
        return count > 0 and (self.search if self.search is not None else count >= SEARCH_FROM)

    def select(self, entries: Sequence[Entry]) -> list[int]:
        """Positions in `entries` of the records shown."""
        chosen = []
        for position, entry in enumerate(entries):
            record = entry.record
            if self.featured and not record.featured:
                continue
            if self.types and record.type not in self.types:
                continue
            if self.since is not None and record.year < self.since:
                continue
            if self.until is not None and record.year > self.until:
                continue
            if self.ids and not _named(entry, self.ids):
                continue
            if self.subjects and not {subject.casefold() for subject in _subjects_of(entry)} & {s.casefold() for s in self.subjects}:
                continue
            chosen.append(position)
            if self.limit is not None and len(chosen) >= self.limit:
                break
        return chosen

    def ids_unknown(self, entries: Sequence[Entry]) -> list[str]:
        """The ids asked for that name no record shown (a typo, or a record left out of the site)."""
        known = {name.casefold() for entry in entries for name in (entry.record.id, entry.cite_key, *entry.record.aliases)}
        return [name for name in self.ids if name.casefold() not in known]


def _named(entry: Entry, ids: tuple[str, ...]) -> bool:
    wanted = {name.casefold() for name in ids}
    return any(name.casefold() in wanted for name in (entry.record.id, entry.cite_key, *entry.record.aliases))


def _subjects_of(entry: Entry) -> list[str]:
    return [*entry.record.categories, *(subject.name for subject in entry.subjects)]


def unknown_ids_warnings(filters: Sequence[PublicationFilter], site: Site) -> list[Problem]:
    """A warning for each id a list asks for that names no record shown: the list would silently show one record fewer."""
    hint = "ids are the records' `id` (a .bib entry's key)"
    return [
        Problem(f"publications: {not_shown(name, site.left_out, hint)}", chosen.where, warning=True)
        for chosen in filters
        for name in chosen.ids_unknown(site.entries)
    ]


def not_shown(name: str, left_out: dict[str, str], hint: str) -> str:
    """What to say of an id that names no shown record: why the site leaves its record out, or that no record has
    it and `hint` (what ids are, or the one meant)."""
    why = left_out.get(name.casefold())
    if why:
        return f"the record {quoted(name, SHOWN)} is not shown: {why}"
    return f"no record has the id {quoted(name, SHOWN)}; {hint}"


def filter_from(settings: dict[str, Any], where: Location, problems: list[Problem]) -> PublicationFilter | None:
    """A filter from settings as written (text, from a shortcode, or YAML values); None when one is wrong."""
    found: dict[str, Any] = {}
    bad = len(problems)

    def fail(message: str) -> None:
        problems.append(Problem(message, where))

    for key, value in settings.items():
        text = str(value).strip() if not isinstance(value, bool) else ("true" if value else "false")
        if key in ("featured", "search"):
            if text.lower() not in ("true", "false", "yes", "no"):
                meant = difflib.get_close_matches(text.lower(), ["true", "false"], n=1, cutoff=0.6)
                fail(f"publications: {key} should be true or false, got {quoted(text, SHOWN)}" + (f"; did you mean '{meant[0]}'?" if meant else ""))
            found[key] = text.lower() in ("true", "yes")
        elif key == "type":
            names = tuple(part.strip() for part in (value if isinstance(value, list) else text.split(",")) if str(part).strip())
            unknown = [name for name in names if name not in RECORD_TYPES]
            if unknown:
                fail(f"publications: unknown type {', '.join(map(repr, unknown))}; types are {', '.join(RECORD_TYPES)}")
            found["types"] = tuple(str(name) for name in names)
        elif key in ("ids", "subject"):
            names = tuple(str(part).strip() for part in (value if isinstance(value, list) else text.split(",")) if str(part).strip())
            if not names:
                fail(
                    f'publications: {key} should name at least one {"record id" if key == "ids" else "subject"}, as {key}="{"a,b" if key == "ids" else "cs.LG"}"'
                )
            found["ids" if key == "ids" else "subjects"] = names
        elif key == "year":
            years = _years(text)
            if years is None:
                fail(f"publications: year should be a year (2024) or a span (2020-2024), got {text!r}")
            else:
                found["since"], found["until"] = years
        elif key in ("since", "until", "limit"):
            if whole_number(text) is None or (key == "limit" and whole_number(text) == 0):
                fail(f"publications: {key} should be a {'positive number' if key == 'limit' else 'year'}, got {text!r}")
            else:
                found[key] = int(text)
        elif key == "title":
            found["title"] = text
        else:
            meant = difflib.get_close_matches(key, SETTINGS, n=1, cutoff=0.6)
            fail(
                f"publications: unknown setting {quoted(str(key), SHOWN)}; "
                + (f"did you mean '{meant[0]}'? " if meant else "")
                + f"settings are {', '.join(SETTINGS)}"
            )
    if len(problems) > bad:
        return None
    return PublicationFilter(**found, where=where)


def shortcode_settings(line: str) -> dict[str, str] | None:
    """The settings of a `{{< publications ... >}}` line, or None when the line is no such shortcode.

    Raises ValueError when the line is one but its settings cannot be read."""
    match = SHORTCODE.match(line)
    if match is None:
        return None
    text = match["attributes"].strip()
    settings: dict[str, str] = {}
    position = 0
    while position < len(text):
        attribute = _ATTRIBUTE.match(text, position)
        if attribute is None:
            raise ValueError(f'cannot read {text[position:].strip()!r}: write settings as name="value"')
        settings[attribute[1]] = attribute[2]
        position = attribute.end()
    return settings


# any of Hugo's shortcodes, {{< name ... >}} or {{% name ... %}}, a closing one ({{< /name >}}) too
_ANY_SHORTCODE = re.compile(r"\{\{([<%])\s*/?\s*([^\s<>%/}]+)(.*?)[>%]\}\}")
# a code span (shown as written): a run of backticks to the next run of as many, each run whole (CommonMark's rule);
# `(`+).*?\1`, which tries every shorter run too, took minutes over a line of 16,000 backticks
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
_PICTURE_SHORTCODES = {"figure", "img", "image"}


def shortcode_problem(line: str, lists: bool = True) -> str | None:
    """What is wrong with a shortcode in a line of text that is no `{{< publications ... >}}` line (one not
    known, or misspelt, or a publications one inside other text), if the line has one outside code;
    `lists`: the text may show lists of publications (a page, a post; not a news item)."""
    if "{{" not in line:
        return None
    match = _ANY_SHORTCODE.search(_CODE_SPAN.sub("", line))
    if match is None:
        return None
    name = match[2]
    if name == "publications":
        if not lists:
            return "shortcode 'publications': a news item shows no list of publications; put it on a page or in a post"
        return "shortcode 'publications': write it on a line of its own, as {{< publications ... >}}"
    known = "sitegen reads one shortcode, {{< publications ... >}}, on a line of its own" if lists else "a news item has no shortcodes"
    meant = difflib.get_close_matches(name, ["publications"], n=1, cutoff=0.6) if lists else []
    if meant:
        return f"unknown shortcode {quoted(name, SHOWN)}; did you mean '{meant[0]}'?"
    if name.lower() in _PICTURE_SHORTCODES:
        source = re.search(r'src\s*=\s*"([^"]*)"', match[3])
        return f"unknown shortcode {quoted(name, SHOWN)}: {known}; show a picture as ![what it shows]({escaped(source[1], SHOWN) if source else 'static/NAME'})"
    return f"unknown shortcode {quoted(name, SHOWN)}: {known}; write what it showed in Markdown"


# Liquid, as Jekyll (al-folio) runs it and sitegen does not: a tag ({% include x %}), or a value ({{ site.baseurl }},
# {{ '/x' | relative_url }}: a dotted name, or text with a filter; not `{{x}}`, which LaTeX may write)
_LIQUID_TAG = re.compile(r"\{%-?\s*(\w+)\s*(.*?)\s*-?%\}")
_LIQUID_VALUE = re.compile(r"\{\{-?\s*(?:[A-Za-z_]\w*\.[\w.]+|['\"](?P<path>[^'\"{}]*)['\"]\s*\|)[^{}]*?-?\}\}")
_LIQUID_PATH = re.compile(r"\b(?:path|src)\s*=\s*[\"']([^\"']*)[\"']")


def liquid_problems(line: str) -> list[str]:
    """A warning for each Liquid tag or value in a line of text outside code (one copied from a Jekyll site, such as
    al-folio's): shown as written, since sitegen runs no Liquid; each says what to write instead."""
    if "{%" not in line and "{{" not in line:
        return []
    text = _CODE_SPAN.sub("", line)
    found = [(match.start(), _liquid_tag(match)) for match in _LIQUID_TAG.finditer(text)]
    found += [(match.start(), _liquid_value(match)) for match in _LIQUID_VALUE.finditer(text)]
    return [message for _, message in sorted(found)]


SHOWN = 60  # characters of a tag, or of a part of it, that a warning repeats (escaped: sitegen.errors.escaped)

# An HTML tag of a known element in the site's own text (a video's "Embed" code, an <img>, a <br> pasted in): shown as
# written, since the Markdown of pages shows no raw HTML. Names only, so that `<https://...>` links and `$a<b$` are none.
_HTML_ELEMENTS = (
    "a|abbr|audio|b|blockquote|br|button|center|code|details|div|em|embed|figcaption|figure|font|form|h[1-6]|hr|i|iframe|img|"
    "input|kbd|li|link|mark|meta|object|ol|p|picture|pre|s|script|small|source|span|strong|style|sub|summary|sup|table|"
    "tbody|td|th|thead|tr|u|ul|video"
)
_HTML_TAG = re.compile(rf"<(/?)({_HTML_ELEMENTS})(?=[\s/>])(?:[^<>\"']|\"[^\"]*\"|'[^']*')*>", re.IGNORECASE)
_HTML_ATTRIBUTE = re.compile(r"""\s(src|href)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)
_INLINE_MATH = re.compile(r"\$[^$\n]*\$")
_YOUTUBE_EMBED = re.compile(r"https?://(?:www\.)?youtube(?:-nocookie)?\.com/embed/([\w-]{6,})")
_EMBEDS = frozenset({"iframe", "embed", "object", "video", "audio", "source"})


def raw_html_problems(line: str) -> list[str]:
    """A warning for a line of the site's own text outside code that holds an HTML tag (its first opening one, else its
    first closing one): shown as written, with what to write in Markdown instead."""
    if "<" not in line:
        return []
    text = _INLINE_MATH.sub("", _CODE_SPAN.sub("", line))
    tags = list(_HTML_TAG.finditer(text))
    if not tags:
        return []
    tag = next((t for t in tags if not t[1]), tags[0])
    name = tag[2].lower()
    found = _HTML_ATTRIBUTE.search(tag[0])
    target = next((value for value in found.groups()[1:] if value is not None), "") if found else ""
    said = f"HTML {quoted(tag[0], SHOWN)} is shown as written (a page shows no raw HTML, and loads nothing from elsewhere)"
    if name in _EMBEDS and not tag[1]:
        video = _YOUTUBE_EMBED.match(target)
        address = f"https://www.youtube.com/watch?v={video[1]}" if video else target
        return [f"{said}; write a link to it: [what it shows]({escaped(address, SHOWN)})" if address else f"{said}; write a link to what it showed"]
    if name == "img" and not tag[1]:
        path = "static/NAME" if not target or target.startswith(("http:", "https:", "//")) else target.lstrip("/")
        return [f"{said}; show the picture as ![what it shows]({escaped(path, SHOWN)}), a file of the site"]
    if name == "a" and not tag[1] and target:
        return [f"{said}; write the link in Markdown: [its text]({escaped(target, SHOWN)})"]
    if name == "br":
        return [f"{said}; end the line with two spaces to break it there"]
    return [f"{said}; write what it showed in Markdown"]


def _liquid_tag(match: re.Match[str]) -> str:
    name, rest = match[1], match[2]
    said = f"Liquid tag {quoted(match[0], SHOWN)} is shown as written (sitegen runs no Liquid)"
    if name == "highlight":
        language = escaped(rest.split()[0], SHOWN) if rest.split() else ""
        return f"{said}; write the code in a fenced block: a line ```{language} before it, a line ``` after it"
    if name == "endhighlight":
        return f"{said}; end the code block with a line ```"
    if name == "include" and re.match(r"figure\.(?:liquid|html)\b", rest):
        path = _LIQUID_PATH.search(rest)
        written = path[1].lstrip("/") if path else "static/NAME"
        shown = "static/" + written.removeprefix("assets/") if written.startswith("assets/") else written  # al-folio's assets/ is static/
        return f"{said}; show the picture as ![what it shows]({escaped(shown, SHOWN)})"
    if name in ("bibliography", "bibliography_count"):
        return f"{said}; show publications with {{{{< publications >}}}} on a line of its own"
    if name in ("raw", "endraw", "comment", "endcomment"):
        return f"{said}; delete it"
    return f"{said}; write what it showed in Markdown"


def _liquid_value(match: re.Match[str]) -> str:
    said = f"Liquid {quoted(match[0], SHOWN)} is shown as written (sitegen runs no Liquid)"
    if match["path"] is not None:
        return f"{said}; write the path itself, from the site's root: {escaped(match['path'].lstrip('/') or './', SHOWN)}"
    if re.match(r"\{\{-?\s*site\.(?:url|baseurl)\b", match[0]):
        return f"{said}; write a path of the site from its root without it (static/pdf/cv.pdf)"
    return f"{said}; write the text it stood for"


def _years(text: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d{4})(?:\s*[-–]\s*(\d{4}))?", text)
    if match is None:
        return None
    first = int(match[1])
    last = int(match[2]) if match[2] else first
    return (min(first, last), max(first, last))
