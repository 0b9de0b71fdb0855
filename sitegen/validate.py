"""Stage 2: turn raw YAML into typed records, collecting every problem.

Messages follow one shape, `path:line: field 'year': expected an integer, got
'twenty'`, so that editors and CI logs can jump to the place.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import json
import posixpath
import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from sitegen.cache import digest
from sitegen.categories import category_mistake
from sitegen.errors import Location, Problem, shown_value
from sitegen.homepage.appearance import APPEARANCE_SETTINGS
from sitegen.load import EscapedText, PositionedDict, RawSite, RecordFile, file_key, item_line, item_lines, yaml_escape_character
from sitegen.model import (
    ARXIV_VERSION,
    BIBTEX_DETAILS,
    NOT_A_CITE_KEY,
    RECORD_TYPES,
    RECORDS_PER_PAGE,
    USABLE_CITE_KEY,
    ArxivSources,
    Origin,
    Profile,
    RawDocument,
    Record,
    SiteConfig,
    free_key,
)
from sitegen.record_types import (
    ARXIV_ID,
    DATABASE_IDS,
    checked_arxiv,
    checked_doi,
    checked_pmcid,
    checked_pmid,
    infer_type,
    not_a_doi,
    not_an_arxiv_id,
    trial_url,
)
from sitegen.sources import fetcher_profile_keys
from sitegen.urls import (
    WEB_PREFIXES,
    WINDOWS_DEVICE_NAME,
    SiteUrls,
    is_relative_path,
    link_preview_problem,
    mistyped_web_address,
    normal_base_url,
    picture_elsewhere_problem,
    slugify,
    url_scheme,
    windows_folder_problem,
    windows_path,
)
from sitegen.values import whole_number

FETCHED_DIR = "content/records/arxiv/"
SAFE_URL_SCHEMES = ("http", "https", "mailto", "")
# Control characters: a double-quoted YAML string lets "\x07" through, and no page, feed or BibTeX file can show one.
_CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass
class ValidSite:
    """Everything stage 2 accepted, plus what it found wrong."""

    config: SiteConfig | None = None
    profile: Profile | None = None
    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]


class Fields:
    """Reads typed fields out of one YAML mapping, noting each problem: the one check of each type (and its words)
    for every content file, records, settings, the profile and people files alike."""

    def __init__(
        self,
        data: dict[str, Any],  # a PositionedDict when read from YAML: its problems then name their lines
        display_path: str,
        problems: list[Problem],
        prefix: str = "",
        known: frozenset[str] = frozenset(),
        synonyms: dict[str, str] | None = None,
        whose: str = "",  # before each message: which of the file's records ("entry 'k': ", as a .bib file's are named)
    ):
        self.data = data
        self.path = display_path
        self.problems = problems
        self.prefix = prefix
        self.whose = whose
        self.known = known  # the fields a typo is compared with
        self.synonyms = synonyms or {}

    def where(self, key: str | None = None) -> Location:
        line = self.data.line_of(key) if key is not None and isinstance(self.data, PositionedDict) else getattr(self.data, "line", None)
        return Location(self.path, line or None)

    def problem(self, key: str, message: str, warning: bool = False, line: int | None = None) -> None:
        """A problem with field `key`, at its line (or at `line`, that of one of its items)."""
        where = Location(self.path, line) if line is not None else self.where(key)
        self.problems.append(Problem(f"{self.whose}field '{self.prefix}{key}': {message}", where, warning))

    def wrong_type(self, key: str, expected: str, value: Any) -> None:
        self.problem(key, f"expected {expected}, got {shown_value(value)}")

    def _value(self, key: str, required: bool) -> Any:
        value = self.data.get(key)
        if value is None and required:
            if key in self.data:
                self.problem(key, "is empty, but it is required")
            else:
                typo = self.typo_of(key)
                self.problems.append(Problem(missing_field_message(f"{self.prefix}{key}", typo, self.data), self.where()))
        return value

    def typo_of(self, wanted: str) -> str | None:
        """The unknown field of this mapping that is most likely `wanted` mistyped (`yaer`), if any."""
        return next((key for key in self.data if key not in self.known and self.closest(key) == wanted), None)

    def closest(self, key: Any) -> str | None:
        """The known field an unknown one most likely means: a synonym (`venue` -> `source`), or the nearest spelling."""
        return closest_field(key, self.known, self.synonyms)

    def string(self, key: str, required: bool = False, default: str | None = None) -> str | None:
        value = self._value(key, required)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.wrong_type(key, "a string", value)
            return default
        if not isinstance(value, str):  # `name: 5`, `id: 0042` (read as 34), `id: 2401.01230` (2401.0123)
            self.problem(key, _quote_the_number(key, value))
            return default
        text = (self._printable(key, value) if type(value) is str else self._escaped(key, value)).strip()
        if required and not text:
            self.problem(key, "is empty, but it is required")
        return text

    def _escaped(self, key: str, value: str) -> str:
        """A string of another type than str: an EscapedText, reported (see load.EscapedText)."""
        if isinstance(value, EscapedText):
            self.problem(key, _escapes_message(value), warning=True)
            return _CONTROL_CHARACTERS.sub("", value)
        return self._printable(key, value)

    def _printable(self, key: str, text: str) -> str:
        """`text` without control characters, each kind reported once as a warning."""
        if text.replace("\n", " ").isprintable() or not _CONTROL_CHARACTERS.search(text):  # the first: 3x as fast on prose
            return text
        found = ", ".join(sorted({f"U+{ord(c):04X}" for c in _CONTROL_CHARACTERS.findall(text)}))
        self.problem(key, f"control character {found} removed: a page cannot show it", warning=True)
        return _CONTROL_CHARACTERS.sub("", text)

    def integer(self, key: str, required: bool = False) -> int | None:
        value = self._value(key, required)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, str) and (number := whole_number(value)) is not None:
                return number
            if key == "year" and isinstance(value, str) and (lettered := re.fullmatch(r"\s*(\d{4})\s*[a-z]\s*", value)):
                self.problem(key, f"expected a year, got {value.strip()!r}: write the year alone, year: {lettered[1]} (a letter is no part of it)")
                return None
            self.wrong_type(key, "an integer", value)
            return None
        return value

    def boolean(self, key: str) -> bool:
        value = self._value(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):  # `featured: "true"`
                meant = value.strip().lower() in ("true", "yes")
                self.problem(key, f"expected true or false, got the text {value!r} in quotes: write it without them: {key}: {'true' if meant else 'false'}")
                return False
            self.wrong_type(key, "true or false", value)
            return False
        return value

    def date(self, key: str) -> datetime.date | None:
        value = self._value(key, False)
        if value is None:
            return None
        if isinstance(value, datetime.datetime):
            return value.date()
        if isinstance(value, datetime.date):
            return value
        if isinstance(value, str):
            try:
                return datetime.date.fromisoformat(value.strip())
            except ValueError:
                pass
        self.wrong_type(key, "a date YYYY-MM-DD", value)
        return None

    def string_list(self, key: str, one_string: bool = True) -> tuple[str, ...]:
        """A list of strings; with `one_string`, a single string is a list of one (`categories: cs.DC`)."""
        value = self._value(key, False)
        if value is None:
            return ()
        if isinstance(value, str):
            if not one_string:  # `authors: Sheng Lin, Bin Cui` would be one author of that name
                self.problem(key, f"expected a list, got one string; write it as a list: {key}: [{_flow_list(value)}]")
                return ()
            return ((self._printable(key, value) if type(value) is str else self._escaped(key, value)).strip(),)
        if not isinstance(value, list):
            self.wrong_type(key, "a list of strings", value)
            return ()
        items = []
        for index, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                self.problem(key, f"item {index + 1}: expected a string, got {shown_value(item)}", line=item_line(value, index))
            elif not isinstance(item, str):
                self.problem(key, f"item {index + 1}: {_quote_the_number(None, item)}", line=item_line(value, index))
            else:
                text = (self._printable(key, item) if type(item) is str else self._escaped(key, item)).strip()
                if text:
                    items.append(text)
                else:  # `authors: [Ada, '']` would be an empty name on the page and `Ada and and` in BibTeX
                    self.problem(key, f"item {index + 1} is empty; left out (remove it)", warning=True, line=item_line(value, index))
        return tuple(items)

    def url_map(self, key: str) -> dict[str, str]:
        value = self._value(key, False)
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.wrong_type(key, "a mapping of name: URL", value)
            return {}
        links = {}
        for name in value:
            # a problem with one link points at that link's own line
            url = Fields(value, self.path, self.problems, prefix=f"{self.prefix}{key}.", whose=self.whose).url(name)
            if url is not None:
                links[str(name)] = url
        return links

    def url(self, key: str) -> str | None:
        """A URL, or a path in the site; one with an unsafe scheme (`javascript:`) is left out with a warning."""
        url = self.data.get(key)
        if url is None:
            return None
        if not isinstance(url, str):
            self.problem(str(key), f"expected a URL, got {shown_value(url)}")
            return None
        url = url.strip()
        if ("\\" in url or url[1:2] == ":") and (windows := windows_path(url)):
            meant, said = windows
            self.problem(str(key), said if meant else f"{said}; the link is left out", warning=True)
            if meant is None:
                return None
            url = meant
        scheme = url_scheme(url)
        meant = mistyped_web_address(url)
        if scheme not in SAFE_URL_SCHEMES or meant:
            said = f"'{url}' is no web address, the link is left out: write '{meant}'" if meant else f"unsafe URL scheme '{scheme}:', the link is left out"
            self.problem(str(key), said, warning=True)
            return None
        return url

    def mapping(self, key: str) -> dict[str, Any] | None:
        value = self._value(key, False)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.wrong_type(key, "a mapping", value)
            return None
        return value

    def extra(self, known: Container[str]) -> dict[str, Any]:
        return {k: v for k, v in self.data.items() if k not in known}

    def warn_unknown(self, keys: Iterable[Any], noun: str, elsewhere: Callable[[str], str | None] = lambda key: None) -> None:
        """A warning for each of `keys` (fields this mapping has and sitegen does not know),
        naming the known field it most likely means, or (`elsewhere`: what to say of it) the file it belongs in when it is
        another file's field (`email:` in site.yaml); the field is kept for templates."""
        for key in keys:
            place = None if str(key).lower() in self.synonyms else elsewhere(str(key))
            if place is not None:
                self.problem(str(key), place, warning=True)
                continue
            hint = self.closest(key)
            if hint is not None:
                self.problem(str(key), f"unknown {noun}; did you mean '{hint}'?", warning=True)
            else:
                self.problem(str(key), f"unknown {noun}, passed to templates as it is (extra.{key})", warning=True)


def closest_field(key: Any, known: frozenset[str], synonyms: dict[str, str]) -> str | None:
    name = str(key).lower()
    if name in synonyms:
        return synonyms[name]
    found = difflib.get_close_matches(name, sorted(known), n=1)
    return found[0] if found else None


def missing_field_message(name: str, typo: str | None, data: Any) -> str:
    """`missing required field 'year'`, saying which unknown field of the mapping may be it mistyped."""
    if typo is None:
        return f"missing required field '{name}'"
    return f"missing required field '{name}' (line {_line_of(data, typo)} has '{typo}': a typo?)"


def _line_of(data: Any, key: str) -> int | None:
    return data.line_of(key) if isinstance(data, PositionedDict) else None


def _quote_the_number(key: str | None, value: float) -> str:
    """YAML reads `5`, `0042` and `2401.01230` as numbers: 5, 34, 2401.0123; a text must be quoted."""
    written = f'{key}: "..."' if key is not None else '"..."'
    return f"expected a string, got the number {value!r}; quote it so no digit is lost: {written}"


def _flow_list(text: str) -> str:
    """`Sheng Lin, Bin Cui` (or `Lin, Sheng and Cui, Bin`) as the items of a YAML flow list."""
    separator = " and " if " and " in text else ";" if ";" in text else ","
    return ", ".join(_flow_item(item.strip()) for item in text.split(separator) if item.strip())


def _flow_item(item: str) -> str:
    if _FLOW_PLAIN.fullmatch(item):
        return item
    return "'" + item.replace("'", "''") + "'"


_FLOW_PLAIN = re.compile(r"[^\s\-?:,\[\]{}#&*!|>'\"%@`][^,\[\]{}#:'\"]*(?<!\s)")


def _escapes_message(value: EscapedText) -> str:
    """What a double-quoted string's backslash escapes made, and the single-quoted form meant."""
    if len(value.escapes) == 1:
        read = f'"{value.escapes[0]}" as an escape ({_escape_made(value.escapes[0])}), not a backslash'
    else:
        listed = [f'"{sequence}" ({_escape_made(sequence)})' for sequence in value.escapes]
        read = f"{', '.join(listed[:-1])} and {listed[-1]} as escapes, not backslashes"
    message = f"in double quotes, YAML reads {read}; use single quotes, in which a backslash stays"
    inner = value.written[1:-1]
    if "\n" not in inner and len(inner) <= 120:
        message += ": '" + inner.replace("'", "''") + "'"
    return message


_MADE_NAMES = {
    "\t": "a tab",
    "\n": "a line break",
    "\r": "a carriage return",
    "\xa0": "a no-break space",
    "\u2028": "a line separator",
    "\u2029": "a paragraph separator",
}


def _escape_made(sequence: str) -> str:
    character = yaml_escape_character(sequence)
    if character in _MADE_NAMES:
        return _MADE_NAMES[character]
    return f"control character U+{ord(character):04X}, removed"  # see load._suspect_escapes


SITE_FIELDS = frozenset(
    {
        "title",
        "base_url",
        "theme",
        "language",
        "languages",
        "language_names",
        "records_language",
        "description",
        "cname",
        "records_per_page",
        "math_macros",
        "feed_id_base",
    }
)
# Settings of SPEC §7 and §9 (and the homepage's analytics and verification) that stay in `extra` for the stages that read them.
SITE_EXTRAS = frozenset({"group_by", "nav", "analytics", "verification", "people", "protect_email", "comments"}) | APPEARANCE_SETTINGS
SITE_SYNONYMS = {
    "url": "base_url",
    "baseurl": "base_url",
    "domain": "cname",
    "lang": "language",
    "locale": "language",
    **dict.fromkeys(("record_language", "publications_language", "default_record_language", "papers_language"), "records_language"),
    **dict.fromkeys(("feed_id", "feed_ids", "feed_base_url", "original_base_url", "old_base_url", "first_base_url", "guid_base"), "feed_id_base"),
    **dict.fromkeys(("accent_color", "accent_colour", "theme_color", "theme_colour", "primary_color", "primary_colour"), "accent"),
    **dict.fromkeys(("accent_color_dark", "accent_colour_dark", "dark_accent"), "accent_dark"),
    **dict.fromkeys(("font_family", "fonts", "body_font"), "font"),
    **dict.fromkeys(("darkmode", "enable_darkmode", "color_scheme", "colour_scheme"), "dark_mode"),
}


def validate_config(document: RawDocument, problems: list[Problem], theme_options: dict[str, Any] | None = None) -> SiteConfig | None:
    """site.yaml's settings. `theme_options`: the options the theme declares (theme.yaml's `settings:`), each with
    its default: set in site.yaml without a warning, and in `extra` with their default when the site leaves them out."""
    if not isinstance(document.data, dict):
        problems.append(Problem("expected a mapping of settings (title: ..., base_url: ...)", Location(document.display_path, 1)))
        return None
    options = theme_options or {}
    fields = Fields(document.data, document.display_path, problems, known=SITE_FIELDS | SITE_EXTRAS | frozenset(options), synonyms=SITE_SYNONYMS)
    fields.warn_unknown([key for key in document.data if key not in fields.known], "setting", _site_field_elsewhere)
    config = SiteConfig(
        title=fields.string("title", required=True) or "",
        base_url=_base_url(fields),
        theme=fields.string("theme", default="default") or "default",
        language=_language(fields),
        records_language=_record_language(fields, "records_language"),
        description=fields.string("description", default="") or "",
        cname=_cname(fields),
        records_per_page=_records_per_page(fields),
        math_macros=_math_macros(fields),
        feed_id_base=_feed_id_base(fields),
        extra=options | _with_people_checked(fields, fields.extra(SITE_FIELDS)),
    )
    if "languages" in document.data:
        config = _with_languages(fields, config)
    if config.languages or "language_names" in document.data:
        config = _with_language_names(fields, config)
    _check_custom_domain(fields, config)
    _check_option_types(fields, options)
    return config


def _feed_id_base(fields: Fields) -> str:
    """`feed_id_base`: the address the site's feeds were first read at (its base_url then), an http(s) URL with a
    host; "" when not given, the feeds' ids being made from base_url."""
    written = fields.string("feed_id_base")
    if written is None:
        return ""
    base = normal_base_url(written)
    if not is_base_url(written) or not SiteUrls(base).origin:
        fields.problem(
            "feed_id_base", f"expected the address the site had when its feeds were first read, an http(s) URL such as https://user.github.io/, got {written!r}"
        )
        return ""
    return base


def _math_macros(fields: Fields) -> dict[str, tuple[str, int]]:
    """site.yaml's `math_macros`, as MathJax's `macros` setting writes them: `R: '\\mathbb{R}'`, or with arguments
    `norm: ['\\lVert #1\\rVert', 1]`; a wrong one is reported at its line and left out."""
    value = fields.mapping("math_macros")
    if not value:
        return {}
    lines = item_lines(fields.data, "math_macros")
    example = "`R: '\\mathbb{R}'`, or with arguments `norm: ['\\lVert #1\\rVert', 1]`"
    macros: dict[str, tuple[str, int]] = {}
    for key, definition in value.items():
        name = str(key).removeprefix("\\")
        line = lines.get(f"math_macros.{key}")
        if not re.fullmatch(r"[A-Za-z]+", name):
            fields.problem("math_macros", f"'{key}' is no name of a LaTeX command (letters only, as R for \\R); write {example}", line=line)
            continue
        if isinstance(definition, list) and len(definition) == 2 and isinstance(definition[0], str) and type(definition[1]) is int:
            replacement, count = definition
        elif isinstance(definition, str):
            replacement, count = definition, 0
        else:
            fields.problem("math_macros", f"{name}: expected the LaTeX it stands for, got {shown_value(definition)}; write {example}", line=line)
            continue
        if not 0 <= count <= 9 or any(f"#{n}" not in replacement for n in range(1, count + 1)):
            fields.problem(
                "math_macros", f"{name}: {count} arguments, but the replacement does not use #1 to #{max(count, 1)} each; write {example}", line=line
            )
            continue
        if re.search(rf"\\{name}(?![A-Za-z])", replacement):
            fields.problem("math_macros", f"{name}: the replacement uses \\{name} itself, which would never end; write what it stands for", line=line)
            continue
        macros[name] = (replacement, count)
    return macros


_TRUE_WORDS = frozenset({"true", "yes", "on", "y", "1"})
_FALSE_WORDS = frozenset({"false", "no", "off", "n", "0", "none", ""})


def _check_option_types(fields: Fields, options: dict[str, Any]) -> None:
    """A theme's option set in site.yaml is of its default's type: `hide_blog: "no"` would be true in
    `{% if site.extra.hide_blog %}`, and `news_count: "five"` an error of the theme's template, far from the line
    to correct. An option whose default is null takes any value."""
    for name, value in fields.data.items():  # in the order of site.yaml's lines
        default = options.get(name)
        if default is None:
            continue
        kind, fits, fix = _option_type(name, default, value)
        if fits:
            continue
        shown = "false" if default is False else "true" if default is True else repr(default)
        keep = ", or remove the line to keep the default" if value is None else ""
        fields.problem(name, f"the theme's option is {kind} (its default: {shown}), got {shown_value(value)}; {fix}{keep}")


def _yaml_text(text: str) -> str:
    """`text` as site.yaml writes it: plain when YAML reads it back as that text, else in double quotes
    (`"#005a8c"`: a `#` after a space starts a comment)."""
    return text if re.fullmatch(r"[A-Za-z][\w .,/-]*", text) and not text.endswith(" ") else json.dumps(text, ensure_ascii=False)


def _option_type(name: str, default: Any, value: Any) -> tuple[str, bool, str]:
    """What kind of value the option is (as its default), whether `value` is one, and what to write instead."""
    if isinstance(default, bool):
        word = str(value).strip().lower() if isinstance(value, str) else None
        fix = (
            f"write `{name}: true`" if word in _TRUE_WORDS else f"write `{name}: false`" if word in _FALSE_WORDS else f"write `{name}: true` or `{name}: false`"
        )
        return "true or false", isinstance(value, bool), fix
    if isinstance(default, (int, float)):
        whole = isinstance(default, int)
        fits = not isinstance(value, bool) and isinstance(value, int if whole else (int, float))
        unquoted = isinstance(value, str) and re.fullmatch(r"-?\d+" if whole else r"-?\d+(\.\d+)?", value.strip()) is not None
        fix = f"write it without quotes, `{name}: {value.strip()}`" if unquoted else f"write a number, as `{name}: {default}`"
        return "a whole number" if whole else "a number", fits, fix
    if isinstance(default, str):
        fits = not isinstance(value, bool) and isinstance(value, (str, int, float))
        return "a text", fits, f"write one line of text, as `{name}: {_yaml_text(default)}`"
    if isinstance(default, list):
        example = f"[{value}]" if isinstance(value, (str, int, float)) and not isinstance(value, bool) else "[...]"
        return "a list", isinstance(value, list), f"write a list, as `{name}: {example}`"
    if isinstance(default, dict):
        return "a mapping", isinstance(value, dict), f"write a mapping, as `{name}: {{key: value}}`"
    return "any value", True, ""


def _check_custom_domain(fields: Fields, config: SiteConfig) -> None:
    """With `cname`, GitHub Pages serves the site at the root of that domain (its github.io address leads there):
    a base_url with another host or a path makes every link of a local build point elsewhere."""
    if not config.cname or "base_url" not in fields.data:
        return
    urls = SiteUrls(config.base_url)
    host = urlsplit(config.base_url).hostname or ""
    domain = config.cname.lower().rstrip(".")
    if urls.origin and (host != domain or urls.base_path != "/"):
        scheme = urlsplit(config.base_url).scheme
        fields.problem(
            "base_url",
            f"with cname '{config.cname}', GitHub Pages serves the site at {scheme}://{domain}/, not at {config.base_url}: "
            f'set base_url: "{scheme}://{domain}/"',
            warning=True,
        )


PEOPLE_SETTINGS = ("authors",)  # site.yaml `people:` (SPEC §9): a page for every author; without it, for the members alone


def _with_people_checked(fields: Fields, extra: dict[str, Any]) -> dict[str, Any]:
    """site.yaml `people:` checked at its line with the other settings, so that its mistake is reported with theirs."""
    value = extra.get("people")
    if value is None or value in PEOPLE_SETTINGS:
        return extra
    close = difflib.get_close_matches(str(value).strip().lower(), PEOPLE_SETTINGS, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else "; for pages of content/people/ alone, remove the line"
    fields.problem(
        "people", f"expected 'authors' (a page for every author of the records) or nothing (pages for content/people/ alone), got {shown_value(value)}{hint}"
    )
    return {k: v for k, v in extra.items() if k != "people"}


# Characters a base_url cannot hold, even percent-encoded for it: whitespace but the space, controls, quotes,
# angle brackets, ... (a space and a letter outside ASCII are encoded: urls.normal_base_url)
_NOT_IN_URLS = re.compile(r"[^\S ]|[\x00-\x1f\x7f<>\"'`\\{}|^]")
_HOST_FIRST = re.compile(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?(/|$)")  # 'x.github.io/repo': an address without https://


def _base_url(fields: Fields) -> str:
    """An http(s) URL with a host, or a path from the domain's root: every link of the site starts with it.
    Normalised (urls.normal_base_url); a path alone is a warning, since the site's full addresses need a host."""
    written = fields.string("base_url", default="/") or "/"
    base_url = normal_base_url(written)
    for message, warning in base_url_problems(written):
        fields.problem("base_url", message, warning=warning)
    if not is_base_url(written):
        return base_url
    if "base_url" in fields.data and not SiteUrls(base_url).origin:
        fields.problem("base_url", _no_host(written), warning=True)
    return base_url


def _no_host(written: str, command_line: bool = False) -> str:
    base_url = normal_base_url(written)
    if command_line and base_url == "/":  # `--base-url "$URL/"` with URL unset (on a host that sets no such variable)
        where = '(was the variable in --base-url "$VARIABLE/" empty?)'
    else:
        where = f"(https://user.github.io{base_url}, or your domain's)"
    return (
        f"'{written}' names no host, so pages have no canonical address or link previews, and the feeds and the sitemap "
        f"hold paths that readers and search engines cannot follow; write the site's full address {where}"
    )


def command_line_base_url_problems(written: str) -> list[tuple[str, bool]]:
    """base_url_problems of `--base-url`, and a warning for an address without host (always written out there)."""
    problems = base_url_problems(written)
    if not problems and not SiteUrls(normal_base_url(written)).origin:
        problems.append((_no_host(written, command_line=True), True))
    return problems


# The last part of an address that names a page, not a folder: index.html, home.htm, index.php, ...
_PAGE_NAME = re.compile(r"[^/]+\.(?:html?|xhtml|shtml|php\d?|aspx?|jspx?|cgi)", re.IGNORECASE)
# 'https//host/...', 'https:/host/...', 'htps://host/...': a scheme misspelt before an address that starts with its host
_MISSPELT_SCHEME = re.compile(r"(?P<scheme>[A-Za-z]{3,6}):?/{1,3}(?P<rest>.*)")


def base_url_problems(written: str) -> list[tuple[str, bool]]:
    """What is wrong with a base_url as written (site.yaml's, or `--base-url`'s): each (message, is_warning).
    An error is an address no link can start with; a warning, a part of it no link can carry (a query, a
    fragment, a password), which normal_base_url leaves out."""
    if not is_base_url(written):
        meant = _meant_address(written.strip())
        hint = f"; write the full address, '{meant}'" if meant else ""
        return [(f"expected the site's address, an http(s) URL such as https://user.github.io/repo/, got {written!r}{hint}", False)]
    base_url = normal_base_url(written)
    parts = urlsplit(base_url)
    origin = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
    written_parts = urlsplit(written.strip())
    last = written_parts.path.rsplit("/", 1)[-1]
    if _PAGE_NAME.fullmatch(last):
        folder = origin + parts.path.rstrip("/").rsplit("/", 1)[0] + "/"
        return [(f"'{written}' names a page ({last}), not the folder the site is in: every link would start with {parts.path}; write '{folder}'", False)]
    segments = parts.path.split("/")
    if "." in segments or ".." in segments:
        resolved = posixpath.normpath(parts.path).lstrip("/")
        meant = origin + "/" + (resolved + "/" if resolved and resolved != "." else "")
        return [(f"'{written}' holds '.' or '..' parts, which links would keep as they are; write '{meant}'", False)]
    dropped = [
        what
        for what, present in (
            ("the user name and password", "@" in written_parts.netloc),
            (f"the query '?{written_parts.query}'", bool(written_parts.query)),
            (f"the fragment '#{written_parts.fragment}'", bool(written_parts.fragment)),
        )
        if present
    ]
    if dropped:
        what = " and ".join(dropped)
        return [(f"{what} of '{written}' {'is' if len(dropped) == 1 else 'are'} left out of every link and address the site has; write '{base_url}'", True)]
    return []


def _meant_address(written: str) -> str:
    """The address a base_url that is none most likely means ('https://x.github.io/repo/' for 'x.github.io/repo' or
    'https//x.github.io/repo'), or ''."""
    if _HOST_FIRST.match(written):
        return normal_base_url("https://" + written)
    misspelt = _MISSPELT_SCHEME.fullmatch(written)
    if misspelt and not written.lower().startswith(WEB_PREFIXES) and _HOST_FIRST.match(misspelt["rest"]) and not _NOT_IN_URLS.search(written):
        scheme = difflib.get_close_matches(misspelt["scheme"].lower(), ["https", "http"], n=1, cutoff=0.6)
        if scheme:
            return normal_base_url(f"{scheme[0]}://{misspelt['rest']}")
    return ""


def is_base_url(value: str) -> bool:
    """Whether site.yaml's base_url (as written, before urls.normal_base_url) is an http(s) address with a host,
    or a path from the domain's root."""
    if _NOT_IN_URLS.search(value):
        return False
    value = normal_base_url(value)
    if value.startswith("/"):
        return not value.startswith("//")  # `//host/` is another site's address
    try:
        parts = urlsplit(value)
        host = (parts.hostname or "").encode("idna").decode("ascii")  # münchen.de: xn--mnchen-3ya.de
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
        return parts.scheme in ("http", "https") and _HOST_NAME.fullmatch(host) is not None
    except (ValueError, UnicodeError):  # a port that is no number, a label IDNA cannot take
        return False


# A host name (RFC 1123): dot-separated labels of letters, digits and inner hyphens.
_HOST_LABEL = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
_HOST_NAME = re.compile(rf"(?=.{{1,253}}$){_HOST_LABEL}(?:\.{_HOST_LABEL})*\.?")


def _host_of(written: str) -> str:
    """The host an address names ('' for none, or for text urlsplit refuses: '[', '[md](javascript:...)')."""
    try:
        return urlsplit(written if "//" in written else "//" + written).hostname or ""
    except ValueError:
        return ""


def _cname(fields: Fields) -> str | None:
    """output/CNAME holds one host name (GitHub Pages reads it): no scheme, no path, no port."""
    cname = fields.string("cname")
    if cname is not None and not _HOST_NAME.fullmatch(cname):
        host = _host_of(cname)  # 'https://www.e.org/' names www.e.org
        hint = f"; write cname: {host}" if host and _HOST_NAME.fullmatch(host) and "." in host else ""
        fields.problem("cname", f"expected a host name such as www.example.org (no https://, no path), got {cname!r}{hint}")
        return None
    if cname is not None and cname.lower().rstrip(".").endswith(".github.io"):
        fields.problem(
            "cname",
            f"'{cname}' is GitHub's own address for the site, not a custom domain: leave cname out, and write the site's address in base_url alone",
            warning=True,
        )
    return cname


# A well-formed language tag (BCP 47, RFC 5646 section 2.1): language, script, region,
# variants, extensions, private use; `<html lang>` and the feed's xml:lang take it. The
# language is two or three letters (ISO 639): the grammar's 4-8 letter forms are reserved,
# and no tag uses them; they would let `english` through.
_LANGUAGE_TAG = re.compile(
    r"(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}"
    r"(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?"
    r"(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*"
    r"(?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*"
    r"(?:-x(?:-[a-z0-9]{1,8})+)?"
    r"|x(?:-[a-z0-9]{1,8})+)",
    re.IGNORECASE,
)


def language_tag_problem(language: str) -> str | None:
    """What is wrong with a `language` (site.yaml's, `init --language`), if anything."""
    if _LANGUAGE_TAG.fullmatch(language):
        return None
    hint = f" (tags use '-': {language.replace('_', '-')})" if "_" in language and _LANGUAGE_TAG.fullmatch(language.replace("_", "-")) else ""
    if tag := LANGUAGE_NAMES.get(language.strip().casefold()):
        hint = f" (the tag of {language.strip()} is {tag})"  # --language farsi, language: German
    return f"expected a language tag (BCP 47) such as en, de-CH or zh-Hans, got {language!r}{hint}"


def _with_languages(fields: Fields, config: SiteConfig) -> SiteConfig:
    """`languages: [en, fr]`: a site in several languages (docs/homepage.md, "Several languages"). The default is
    `language` when it is one of them, else the first; it is served at the site's root, the others under /<tag>/."""
    tags: list[str] = []
    written = fields.data.get("languages")
    if isinstance(written, str) and len(parts := written.replace(",", " ").split()) > 1:  # 'languages: en, fr-CA'
        fields.problem("languages", f"expected a list of language tags in brackets, such as [{', '.join(parts)}]; got {shown_value(written)}")
        return config
    for tag in fields.string_list("languages"):
        if problem := language_tag_problem(tag):
            fields.problem("languages", problem)
        elif tag.lower() in (known.lower() for known in tags):
            fields.problem("languages", f"{tag} is named twice; left out the second time", warning=True)
        else:
            tags.append(tag)
            primary, dash, rest = tag.partition("-")
            if meant := ISO_639_2_CODES.get(primary.lower()):  # 'eng': a hreflang search engines ignore
                fields.problem("languages", f"{tag} is ISO 639-2's code for a language whose tag is {meant}: did you mean {meant}{dash}{rest}?", warning=True)
    if len(tags) < 2:
        if tags or not fields.data.get("languages"):
            fields.problem(
                "languages", f"a site in several languages names two or more, such as [en, fr], got {tags or 'none'}; built in {config.language}", warning=True
            )
        return config
    default = config.language if "language" in fields.data and config.language in tags else tags[0]
    if "language" in fields.data and config.language not in tags:
        fields.problem("language", f"{config.language} is not one of languages ({', '.join(tags)}); the default language is {default}", warning=True)
    return dataclasses.replace(config, language=default, languages=(default, *(tag for tag in tags if tag != default)))


def _with_language_names(fields: Fields, config: SiteConfig) -> SiteConfig:
    """`language_names: {oc: Occitan}`: what the language switcher calls a language of the site, for one sitegen
    knows no name of in itself (a three-letter tag: ast), or to name it otherwise (pt-BR and pt-PT: Português (Brasil)).
    A language of the site that has no name either way is a warning: the switcher shows its tag."""
    from sitegen.languages import name_in_itself

    written = fields.mapping("language_names") or {}
    if written and not config.languages:
        fields.problem("language_names", "names the languages of a site in several (languages: [en, fr]) in its language switcher; left out", warning=True)
        return config
    names = {}
    line_of = getattr(written, "line_of", lambda key: None)
    for key, name in written.items():
        tag = next((known for known in config.languages if known.lower() == str(key).lower()), None)
        if tag is None:
            fields.problem("language_names", f"'{key}' is not one of languages ({', '.join(config.languages)}); left out", warning=True, line=line_of(key))
        elif not isinstance(name, str) or not name.strip():
            fields.problem("language_names", f"{key}: expected the language's name in itself, got {shown_value(name)}", line=line_of(key))
        else:
            names[tag] = name.strip()
    for tag in (tag for tag in config.languages if tag not in names and name_in_itself(tag) == tag):
        said = f"the language switcher names {tag} by its tag: sitegen knows no name of it in itself; give one with language_names: {{{tag}: ...}}"
        fields.problem("languages", said, warning=True)
    shown: dict[str, list[str]] = {}
    for tag in config.languages:
        shown.setdefault(name_in_itself(tag, names), []).append(tag)
    for name, tags in ((name, tags) for name, tags in shown.items() if len(tags) > 1):  # fr and fr-CA: Français twice
        apart = ", ".join(f"{tag}: ..." for tag in tags)
        fields.problem(
            "languages", f"the language switcher names {' and '.join(tags)} alike, {name}: tell them apart with language_names: {{{apart}}}", warning=True
        )
    return dataclasses.replace(config, language_names=names)


def _language(fields: Fields) -> str:
    language = fields.string("language", default="en") or "en"
    if problem := language_tag_problem(language):
        fields.problem("language", problem)
        return "en"
    return language


# ISO 639-2's three-letter codes (bibliographic and terminological) of languages that have a two-letter one, which
# BCP 47 tags use (RFC 5646 §2.2.1: the shortest) and search engines' hreflang takes (ISO 639-1): 'eng' -> 'en'
ISO_639_2_CODES = {
    code: tag
    for code, _, tag in (
        pair.partition(":")
        for pair in (
            "eng:en fra:fr fre:fr deu:de ger:de spa:es cat:ca ita:it por:pt nld:nl dut:nl zho:zh chi:zh jpn:ja "
            "kor:ko fas:fa per:fa rus:ru ara:ar pol:pl swe:sv dan:da fin:fi ell:el gre:el tur:tr heb:he hun:hu "
            "ces:cs cze:cs ukr:uk eus:eu baq:eu glg:gl oci:oc nob:nb roh:rm nor:no ron:ro rum:ro hin:hi vie:vi "
            "ind:id tha:th bul:bg"
        ).split()
    )
}

# A work's language by name, as BibTeX's `langid` (babel's names: ngerman, brazil) and reference managers' `language`
# (English names, or the language's own) write it: its language tag.
LANGUAGE_NAMES = {
    **dict.fromkeys(("english", "american", "british", "usenglish", "ukenglish", "australian", "canadian", "newzealand"), "en"),
    **dict.fromkeys(("german", "ngerman", "austrian", "naustrian", "swissgerman", "nswissgerman", "deutsch"), "de"),
    **dict.fromkeys(("french", "francais", "français", "acadian", "canadien"), "fr"),
    **dict.fromkeys(("spanish", "español", "espanol", "castellano"), "es"),
    **dict.fromkeys(("italian", "italiano"), "it"),
    **dict.fromkeys(("portuguese", "portuges", "português", "portugues"), "pt"),
    **dict.fromkeys(("brazil", "brazilian", "brazilian portuguese"), "pt-BR"),
    **dict.fromkeys(("dutch", "nederlands"), "nl"),
    **dict.fromkeys(("russian", "русский"), "ru"),
    **dict.fromkeys(("polish", "polski"), "pl"),
    **dict.fromkeys(("czech", "čeština", "cestina"), "cs"),
    **dict.fromkeys(("slovak", "slovenčina"), "sk"),
    **dict.fromkeys(("swedish", "svenska"), "sv"),
    **dict.fromkeys(("norwegian", "norsk", "nynorsk", "bokmal", "bokmål"), "no"),
    **dict.fromkeys(("danish", "dansk"), "da"),
    **dict.fromkeys(("finnish", "suomi"), "fi"),
    **dict.fromkeys(("greek", "ελληνικά"), "el"),
    **dict.fromkeys(("turkish", "türkçe"), "tr"),
    **dict.fromkeys(("hungarian", "magyar"), "hu"),
    **dict.fromkeys(("catalan", "català"), "ca"),
    **dict.fromkeys(("croatian", "hrvatski"), "hr"),
    **dict.fromkeys(("serbian", "српски"), "sr"),
    **dict.fromkeys(("slovenian", "slovene", "slovenščina"), "sl"),
    **dict.fromkeys(("romanian", "română"), "ro"),
    **dict.fromkeys(("ukrainian", "українська"), "uk"),
    **dict.fromkeys(("latin", "latina"), "la"),
    **dict.fromkeys(("japanese", "日本語"), "ja"),
    **dict.fromkeys(("chinese", "中文"), "zh"),
    **dict.fromkeys(("korean", "한국어"), "ko"),
    **dict.fromkeys(("arabic", "العربية"), "ar"),
    **dict.fromkeys(("hebrew", "עברית"), "he"),
    **dict.fromkeys(("persian", "farsi", "فارسی", "فارسي"), "fa"),
    **dict.fromkeys(("urdu", "اردو"), "ur"),
    **dict.fromkeys(("hindi",), "hi"),
    **dict.fromkeys(("indonesian", "bahasa"), "id"),
    **dict.fromkeys(("vietnamese", "tiếng việt"), "vi"),
    **dict.fromkeys(("estonian", "eesti"), "et"),
    **dict.fromkeys(("latvian", "latviešu"), "lv"),
    **dict.fromkeys(("lithuanian", "lietuvių"), "lt"),
    **dict.fromkeys(("icelandic", "íslenska"), "is"),
    **dict.fromkeys(("irish", "gaeilge"), "ga"),
    **dict.fromkeys(("welsh", "cymraeg"), "cy"),
    **dict.fromkeys(("basque", "euskara"), "eu"),
    **dict.fromkeys(("galician", "galego"), "gl"),
    **dict.fromkeys(("bulgarian", "български"), "bg"),
    **dict.fromkeys(("thai",), "th"),
    # ISO 639-2's three letters, as PubMed and library catalogues write them: the two-letter tag is the one to use
    "eng": "en",
    "ger": "de",
    "deu": "de",
    "fre": "fr",
    "fra": "fr",
    "spa": "es",
    "ita": "it",
    "por": "pt",
    "dut": "nl",
    "nld": "nl",
    "rus": "ru",
    "pol": "pl",
    "cze": "cs",
    "ces": "cs",
    "swe": "sv",
    "nor": "no",
    "dan": "da",
    "fin": "fi",
    "jpn": "ja",
    "chi": "zh",
    "zho": "zh",
    "kor": "ko",
    "ara": "ar",
    "heb": "he",
    "tur": "tr",
    "gre": "el",
    "ell": "el",
}


def _record_language(fields: Fields, key: str = "language") -> str:
    """The language a record's title and abstract are written in (a tag, or a name LANGUAGE_NAMES knows), so
    that its pages mark them (`lang`) and a screen reader reads them in that language's voice; "" when not given.
    Anything else is a warning: the record is read as in the site's language. (site.yaml's `records_language`, the
    language of the records that give none, is read by the same rule.)"""
    written = (fields.string(key, default="") or "").strip()
    if not written:
        return ""
    if (tag := language_tag_of(written)) is not None:
        return tag
    fields.problem(key, not_a_language(written), warning=True)
    return ""


def language_tag_of(written: str) -> str | None:
    """The language tag a record, a page or site.yaml names a language by (a tag, 'pt_BR', or a name LANGUAGE_NAMES
    knows: 'German', 'ngerman'); None for what is neither."""
    if (tag := LANGUAGE_NAMES.get(" ".join(written.lower().split()))) is not None:
        return tag
    if _LANGUAGE_TAG.fullmatch(written.replace("_", "-")):
        return written.replace("_", "-")
    return None


def not_a_language(written: str) -> str:
    return f"expected a language tag (BCP 47) such as de, fr or pt-BR, or a language's name such as German, got {written!r}; left out"


def _records_per_page(fields: Fields) -> int:
    value = fields.integer("records_per_page")
    if value is not None and value < 1:
        fields.problem("records_per_page", f"expected a positive number, got {value}")
    return value if value and value > 0 else RECORDS_PER_PAGE


PROFILE_FIELDS = frozenset({"name", "name_variants", "former_names", "position", "affiliation", "bio", "photo", "email", "links", "arxiv"})
# The sources of SPEC §6 and the identifiers of SPEC §9, kept in `extra` for `sitegen fetch`.
# profile.yaml's keys besides its fields: the anchors of who is who, and what each fetcher reads (its declaration)
PROFILE_EXTRAS = frozenset({"orcid", "coauthors", "exclude_ids", "arxiv_author_ids"}) | fetcher_profile_keys()
PROFILE_SYNONYMS = {
    "title": "position",
    "job": "position",
    "institution": "affiliation",
    "organization": "affiliation",
    "university": "affiliation",
    "image": "photo",
    "avatar": "photo",
    "picture": "photo",
    "mail": "email",
    "e-mail": "email",
    "about": "bio",
    "biography": "bio",
    "description": "bio",
    "variants": "name_variants",
    "aliases": "name_variants",
    "former_name": "former_names",
    "previous_names": "former_names",
    "old_names": "former_names",
    "birth_name": "former_names",
    "maiden_name": "former_names",
    "deadname": "former_names",
    "deadnames": "former_names",
}
ARXIV_FIELDS = frozenset({"authors", "author_ids", "ids", "categories", "exclude_categories", "exclude_ids"})


def _site_field_elsewhere(key: str) -> str | None:
    """The file a field written in site.yaml belongs in: the person's (`email:`, `links:`) or a record's."""
    if key in PROFILE_FIELDS | PROFILE_EXTRAS:
        return "a setting of content/profile.yaml (it is about you, not the site): move it there"
    return _record_field_elsewhere(key)


def _profile_field_elsewhere(key: str) -> str | None:
    """The file a field written in profile.yaml (or a person file) belongs in: site.yaml (`base_url:`) or a record's."""
    if key in SITE_FIELDS | SITE_EXTRAS:
        return "a setting of content/site.yaml (it is the whole site's): move it there"
    return _record_field_elsewhere(key)


def _record_field_elsewhere(key: str) -> str | None:
    if key in RECORD_FIELDS:
        return "a record's field, ignored here: a publication is a file of content/records/ (or an entry of a .bib file there)"
    return None


def _check_fetchers_settings(fields: Fields, path: str, problems: list[Problem]) -> None:
    """The settings a fetcher reads from profile.yaml under a key of its own (`zotero:`), checked by the fetcher."""
    from sitegen.sources import FETCHERS

    for fetcher in FETCHERS.values():
        if fetcher.check_profile is not None:
            fetcher.check_profile(fields, path, problems)


def validate_profile(document: RawDocument, problems: list[Problem], also_known: frozenset[str] = frozenset()) -> Profile | None:
    """profile.yaml, or the profile part of a person file, whose own fields (`also_known`) a typo may mean too."""
    if not isinstance(document.data, dict):
        problems.append(Problem("expected a mapping (name: ..., affiliation: ...)", Location(document.display_path, 1)))
        return None
    fields = Fields(document.data, document.display_path, problems, known=PROFILE_FIELDS | PROFILE_EXTRAS | also_known, synonyms=PROFILE_SYNONYMS)
    fields.warn_unknown([key for key in document.data if key not in fields.known], "setting", _profile_field_elsewhere)
    sources = ArxivSources()
    arxiv = fields.mapping("arxiv")
    if arxiv is not None:
        sub = Fields(arxiv, document.display_path, problems, prefix="arxiv.", known=ARXIV_FIELDS)
        sub.warn_unknown([key for key in arxiv if key not in ARXIV_FIELDS], "setting")
        sources = ArxivSources(**{name: sub.string_list(name) for name in sorted(ARXIV_FIELDS)})
        _check_arxiv_categories(sub, arxiv)
    _check_fetchers_settings(fields, document.display_path, problems)
    links = _without_mistyped_kinds(fields, fields.url_map("links"))
    _check_one_orcid(document, links, problems)
    _check_one_arxiv_author(document, links, sources, problems)
    profile = Profile(
        name=fields.string("name", required=True) or "",
        name_variants=_names(fields, "name_variants"),
        former_names=_names(fields, "former_names"),
        position=fields.string("position", default="") or "",
        affiliation=fields.string("affiliation", default="") or "",
        bio=fields.string("bio", default="") or "",
        photo=fields.string("photo"),
        email=fields.string("email"),
        links=links,
        arxiv=sources,
        extra=fields.extra(PROFILE_FIELDS),
        location=Location(document.display_path, getattr(document.data, "line", None) or None),
        lines={**getattr(document.data, "key_lines", {}), **item_lines(document.data, "links")},
    )
    _check_former_names(fields, profile)
    return profile


def _check_former_names(fields: Fields, profile: Profile) -> None:
    """`former_names` are names the site prints as `name`: one also given as the name or in `name_variants`, which
    are printed as written, is a warning, since the two say opposite things of it."""
    printed = {" ".join(written.casefold().split()) for written in (profile.name, *profile.name_variants)}
    for name in profile.former_names:
        if " ".join(name.casefold().split()) in printed:
            message = f"{name!r} is also your name or one of name_variants, which are printed as written: keep it in one of them"
            fields.problem("former_names", message, warning=True)


def _names(fields: Fields, field_name: str) -> tuple[str, ...]:
    """`name_variants` or `former_names`; one string that is names of several words each, separated by commas (`A.
    Lovelace, Augusta Ada King`), is a list written as a string: a warning writes the list (`Lovelace, Ada` is one
    name, BibTeX's order)."""
    written = fields.data.get(field_name)
    if isinstance(written, str) and "," in written:
        parts = [part.strip() for part in written.split(",")]
        if all(len(part.split()) >= 2 for part in parts):
            fields.problem(
                field_name,
                f"one string, read as one name {written.strip()!r}; for several names write a list: {field_name}: [{_flow_list(written)}]",
                warning=True,
            )
    return fields.string_list(field_name)


def _without_mistyped_kinds(fields: Fields, links: dict[str, str]) -> dict[str, str]:
    """`links:` without a mistyped kind's identifier (`githib: ada`): for a kind sitegen does not know, a value that is
    no address is a file of the site, which `ada` is not; the warning names the kind meant, at the link's line."""
    from sitegen.views import PROFILE_LINKS

    kept = {}
    for kind, url in links.items():
        meant = None if kind in PROFILE_LINKS or not is_relative_path(url) else difflib.get_close_matches(kind.lower(), sorted(PROFILE_LINKS), n=1)
        if meant:
            line = item_lines(fields.data, "links").get(f"links.{kind}")
            fields.problem(
                f"links.{kind}",
                f"unknown kind of link, left out: did you mean '{meant[0]}'? (for another kind, '{url}' is a file of the site)",
                warning=True,
                line=line,
            )
        else:
            kept[kind] = url
    return kept


def _check_one_arxiv_author(document: RawDocument, links: dict[str, str], sources: ArxivSources, problems: list[Problem]) -> None:
    """An error when `links: arxiv:` (the page's link; a person file's arXiv author id) is an arXiv author none of
    `arxiv: author_ids:` names (what is fetched, and what ties records to a person), as for two ORCID iDs."""
    from sitegen.people.names import arxiv_author_id

    linked = arxiv_author_id(links.get("arxiv"))
    if linked is None or not sources.author_ids or linked.lower() in {given.lower() for given in sources.author_ids}:
        return
    data = document.data
    line = item_lines(data, "links").get("links.arxiv") or (data.line_of("links") if isinstance(data, PositionedDict) else None)
    top = data.line_of("arxiv") if isinstance(data, PositionedDict) else None
    problems.append(
        Problem(
            f"field 'links.arxiv': {linked} is none of the ids of `arxiv: author_ids:` ({', '.join(sources.author_ids)}"
            f"{f', line {top}' if top else ''}); the page would link one arXiv author and the site read records and fetch by "
            "another: write the same id in both, or drop one",
            Location(document.display_path, line),
        )
    )


def _check_arxiv_categories(fields: Fields, arxiv: dict) -> None:
    """`categories: [cs.lg]` keeps no record arXiv gives, and `exclude_categories` with one leaves out none: a warning at its item."""
    for name in ("categories", "exclude_categories"):
        written = arxiv.get(name)
        is_list = isinstance(written, list)
        codes: list[Any] = written if isinstance(written, list) else [written]
        for index, code in enumerate(codes):
            if isinstance(code, str) and code.strip() and (mistake := category_mistake(code.strip())):
                fields.problem(name, f"item {index + 1}: {mistake}" if is_list else mistake, warning=True, line=item_line(written, index))


def _check_one_orcid(document: RawDocument, links: dict[str, str], problems: list[Problem]) -> None:
    """An error when `orcid:` (what is fetched, and a person's identifier) and `links: orcid:` (the page's link) are two
    iDs: the page would link one person's ORCID record and the site read another's."""
    from sitegen.sources.orcid import normalise_orcid

    data = document.data
    if "orcid" not in links or data.get("orcid") is None:
        return
    try:
        given, linked = normalise_orcid(str(data["orcid"])), normalise_orcid(links["orcid"])
    except ValueError:
        return  # not an iD: said where it is read as one (a person file, `sitegen fetch`)
    if given != linked:
        line = item_lines(data, "links").get("links.orcid") or (data.line_of("links") if isinstance(data, PositionedDict) else None)
        top = data.line_of("orcid") if isinstance(data, PositionedDict) else None
        problems.append(
            Problem(
                f"field 'links.orcid': {linked} is not the iD of `orcid:` ({given}{f', line {top}' if top else ''}); the page would "
                "link one iD and the site read records and fetch by the other: write the same iD in both, or drop one",
                Location(document.display_path, line),
            )
        )


RECORD_FIELDS = frozenset(
    {
        "id",
        "title",
        "authors",
        "year",
        "date",
        "source",
        "abstract",
        "categories",
        "links",
        "arxiv",
        "doi",
        "hidden",
        "featured",
        "award",
        "image",
        "image_alt",
        "venue_short",
        "language",
        "type",
        "citations",
        "ids",
        "aliases",
        "origin",
    }
)
# Fields beyond SPEC §2 that sitegen's own sources write and its exports read: the arXiv
# fetcher's (and its author ids, which attribute records to people), the BibTeX reader's
# (an entry's type and details) and the citation formats'.
RECORD_EXTRAS = frozenset(
    {
        "status",
        "version",
        "updated",
        "comment",
        "journal_ref",
        "affiliations",
        "author_ids",
        "bibtex_type",
        "et_al",
        "editors",
        "translators",
        "month",
        "issue",
        "location",
        "collaboration",
        "reportnumber",
        "eventtitle",
        "eventdate",  # a .bib entry's: when the meeting was, '2023-06-12/2023-06-15'
        "event_place",  # a .bib entry's `venue`
        "highlighted_authors",  # the names a .bib entry's `author+an = {1=highlight}` marks as the owner's
        "retracted",
        "withdrawn",
        "notice",
        "notice_for",
        "pmid",
        "pmcid",
        "author_notes",
        "trial",
        "license",
        "repository",
        *BIBTEX_DETAILS,
    }
)
# Names other formats give SPEC §2 fields (BibTeX, CSL, Hugo Blox, al-folio), for "did you mean".
RECORD_SYNONYMS = {
    "author": "authors",
    "venue": "source",
    "journal": "source",
    "booktitle": "source",
    "url": "links",
    "pdf": "links",
    "code": "links",
    "keywords": "categories",
    "tags": "categories",
    "summary": "abstract",
    "eprint": "arxiv",
    "selected": "featured",
    "award_name": "award",
    "preview": "image",
    "thumbnail": "image",
    "teaser": "image",
    "alt": "image_alt",
    "caption": "image_alt",
    "awards": "award",
    "prize": "award",
    "key": "id",
    "kind": "type",
    "entry_type": "type",
    "publication_types": "type",
    "cited_by": "citations",
    "citation_count": "citations",
    # Hugo Blox's and academicpages' names
    "publication": "source",
    "publication_short": "venue_short",
    "abbr": "venue_short",
    "short_venue": "venue_short",
    "venue_abbr": "venue_short",
    "shortjournal": "venue_short",
    "excerpt": "abstract",
    "publishdate": "date",
    "paperurl": "links",
    "slidesurl": "links",
    **{f"url_{kind}": "links" for kind in ("pdf", "code", "slides", "video", "dataset", "poster", "project", "source", "preprint")},
}


def _trials(data: dict) -> list[str]:
    value = data.get("trial")
    items = value if isinstance(value, list) else [value] if value is not None else []
    return [str(item).strip() for item in items if isinstance(item, (str, int)) and not isinstance(item, bool) and str(item).strip()]


def _with_trials(fields: Fields, data: dict, links: dict[str, str]) -> dict[str, str]:
    """`trial: NCT04567890` (or a list): the clinical trial's registration, linked as `trial` (`trial_2`, ...):
    ClinicalTrials.gov's NCT numbers, ISRCTN's, the EU's EudraCT and CTIS numbers, or the registration's address."""
    if "trial" in data and not _trials(data):
        fields.problem("trial", f"expected a trial's registration number (NCT04567890) or address, got {shown_value(data['trial'])}", warning=True)
    found = dict(links)
    for number, trial in enumerate(_trials(data), start=1):
        url = trial_url(trial)
        if url is None:
            fields.problem(
                "trial",
                f"{trial!r} is no trial registration sitegen knows (NCT04567890, ISRCTN12345678, 2020-001234-56, 2023-501234-12-00): "
                "write its address (https://...)",
                warning=True,
            )
            continue
        found.setdefault("trial" if number == 1 else f"trial_{number}", url)
    return found


def _trial_ids(data: dict, ids: dict[str, str]) -> dict[str, str]:
    numbers = [trial for trial in _trials(data) if trial_url(trial) and not trial.startswith(WEB_PREFIXES)]
    return {**ids, **({"trial": ", ".join(numbers)} if numbers and "trial" not in ids else {})}


def _pubmed_ids(fields: Fields, data: dict, ids: dict[str, str]) -> dict[str, str]:
    """`pmid: 38486001` and `pmcid: PMC7410828` (a record's own fields, or in `ids`; ORCID's `pmc`) as `ids.pmid` and
    `ids.pmcid`, in one form: the PMID's digits, 'PMC' and the digits. What is none of them is a warning, and left out."""
    found = dict(ids)
    if "pmc" in found and "pmcid" not in found:
        found["pmcid"] = found.pop("pmc")
    for name, check, example in (("pmid", checked_pmid, "38486001"), ("pmcid", checked_pmcid, "PMC7410828")):
        given = data.get(name)
        where = name if given is not None else f"ids.{name}"
        value = str(given).strip() if isinstance(given, (str, int)) and not isinstance(given, bool) else found.get(name)
        if given is not None and not isinstance(given, (str, int)) or isinstance(given, bool):
            fields.problem(
                name, f"expected {'a PubMed id' if name == 'pmid' else 'a PubMed Central id'} such as {example}, got {shown_value(given)}", warning=True
            )
            found.pop(name, None)
            continue
        if value is None:
            continue
        checked = check(value)
        if checked is None:
            if given is not None:
                fields.problem(where, f"{value!r} is not {'a PubMed id' if name == 'pmid' else 'a PubMed Central id'} (like {example}): left out", warning=True)
            found.pop(name, None)
        else:
            found[name] = checked
    return found


def _database_ids(fields: Fields, ids: dict[str, str]) -> dict[str, str]:
    """`ids.ads`, `ids.inspire`, `ids.mr` and `ids.zbmath` (the work's ids in ADS, INSPIRE, MathSciNet and zbMATH) in one
    form, from any the databases write (`MR3456789`, `Zbl 1434.05098`, an address); what is none is a warning, left out."""
    if not any(name in ids for name in DATABASE_IDS):
        return ids
    found = dict(ids)
    for name, (_, check, _, what, example) in DATABASE_IDS.items():
        if name not in found:
            continue
        checked = check(found[name])
        if checked is None:
            fields.problem(f"ids.{name}", f"{found[name]!r} is not {what} (like {example}): left out", warning=True)
            del found[name]
        else:
            found[name] = checked
    return found


def _check_notice_fields(fields: Fields, data: dict) -> None:
    """`retracted: true`, `notice: correction` (or retraction, concern, none) and `notice_for: <DOI or id>` (sitegen.notices)."""
    from sitegen.notices import NOTICE_VALUES

    for name in ("retracted", "withdrawn"):
        if name in data and not isinstance(data[name], bool):
            fields.problem(name, f"expected true or false, got {shown_value(data[name])}")
    notice = data.get("notice")
    if notice is not None and (not isinstance(notice, str) or notice.strip().lower().replace(" ", "_") not in NOTICE_VALUES):
        fields.problem(
            "notice",
            f"expected correction, retraction, concern or none, got {shown_value(notice)}; the record is read as a publication",
            warning=True,
        )
    notes = data.get("author_notes")
    if notes is not None and (not isinstance(notes, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in notes.items())):
        fields.problem("author_notes", f"expected what each mark after a name means, such as {{'*': Equal contribution}}, got {shown_value(notes)}")
    if "notice_for" in data and not isinstance(data["notice_for"], str):
        fields.problem("notice_for", f"expected the DOI or id of the work the notice concerns, got {shown_value(data['notice_for'])}")


def _unknown_fields_warned(reader: str) -> bool:
    from sitegen.sources import reader_named

    found = reader_named(reader)
    return found is None or found.unknown_fields_warned


def _doi(fields: Fields) -> str | None:
    """`doi: https://doi.org/10.1145/X` (as Hugo Blox's files and many hand-written ones have it) is 10.1145/X.
    What is no DOI is left out with a warning: a link made of it would lead nowhere."""
    return _checked_identifier(fields, "doi", checked_doi, not_a_doi)


def _arxiv(fields: Fields) -> str | None:
    """`arxiv: arXiv:2301.00001` is 2301.00001. What is no arXiv id is left out with a warning, as a DOI is: it
    would make a link to nowhere, and every citation format's URL of the record."""
    return _checked_identifier(fields, "arxiv", checked_arxiv, not_an_arxiv_id)


def _checked_identifier(fields: Fields, key: str, checked: Callable[[str], str | None], why_not: Callable[[str], str]) -> str | None:
    """The identifier `key` as `checked` writes it; None, with a warning saying `why_not`, when it is none."""
    value = fields.string(key)
    if not value:
        return None
    identifier = checked(value)
    if identifier is None:
        fields.problem(key, f"{why_not(value)}; left out, with its link", warning=True)
    return identifier


def _aliases(fields: Fields, record_id: str) -> tuple[str, ...]:
    """The record's other citation keys (a .bib entry's `ids`): each one BibTeX can read back as a key, once
    (case ignored, as BibTeX compares keys), the record's own id left out."""
    aliases: list[str] = []
    seen = {record_id.casefold()}
    for alias in fields.string_list("aliases"):
        if not USABLE_CITE_KEY.match(alias):
            fields.problem("aliases", f"{alias!r} {NOT_A_CITE_KEY}", warning=True)
        elif alias.casefold() not in seen:
            seen.add(alias.casefold())
            aliases.append(alias)
    return tuple(aliases)


def record_origin(data: dict, display_path: str, reader: str = "yaml") -> Origin:
    """A fetcher writes `origin: <its name>` into each record file; files fetched before
    sitegen wrote that field are known by their folder, content/records/arxiv/."""
    from sitegen.sources import FETCHERS

    named = data.get("origin")
    if isinstance(named, str) and named in FETCHERS:
        return Origin(named, display_path, fetched=True)
    if display_path.startswith(FETCHED_DIR):
        return Origin("arxiv", display_path, fetched=True)
    return Origin(reader, display_path)


def validate_record(
    data: Any,
    display_path: str,
    problems: list[Problem],
    line: int | None = None,
    source_key: str = "",
    reader: str = "yaml",
) -> Record | None:
    if not isinstance(data, dict):
        problems.append(Problem(f"expected a record (a mapping with id, title, ...), got {shown_value(data)}", Location(display_path, line)))
        return None
    before = len([p for p in problems if not p.warning])
    origin = record_origin(data, display_path, reader)
    whose = f"entry '{data.get('id')}': " if origin.source == "bibtex" else ""  # one of many in its file, named as the reader names it
    fields = Fields(data, display_path, problems, known=RECORD_FIELDS, synonyms=RECORD_SYNONYMS, whose=whose)
    fetched = origin.fetched
    extra = fields.extra(RECORD_FIELDS)
    if extra and not fetched and _unknown_fields_warned(reader):  # what sitegen's own sources wrote is no typo
        fields.warn_unknown([key for key in extra if key not in RECORD_EXTRAS], "field")
    # a hand-written record may leave out the title and year of the fetched record it corrects (check_corrections),
    # and its id when it names that record by arxiv or doi (the work keeps the fetched record's id and page)
    missing = () if fetched else tuple(name for name in ("title", "year") if name not in data and (name == "title" or "date" not in data))
    if not fetched and "id" not in data and (data.get("arxiv") or data.get("doi")):
        missing = ("id", *missing)
    record_id = fields.string("id", required="id" not in missing)
    if record_id and ARXIV_VERSION.search(record_id) and ARXIV_ID.match(record_id):  # SPEC §2: the bare id
        bare = ARXIV_VERSION.sub("", record_id)
        fields.problem(
            "id", f"{record_id!r} is an arXiv id with its version; write the bare id {bare!r} (all versions are one work, with one page)", warning=True
        )
    title = fields.string("title", required="title" not in missing)
    date = fields.date("date")
    year = fields.integer("year", required=date is None and "date" not in data and "year" not in missing)
    if year is None and date is not None:
        year = date.year
    elif year is not None and date is not None and year != date.year:
        fields.problem("year", f"{year} does not match the year of 'date' ({date.isoformat()})")
    if year is not None and not 1000 <= year <= 9999:
        fields.problem("year", f"expected a four-digit year, got {year}")
    categories = fields.string_list("categories")
    if record_id and not _fine_folder_name(record_id):
        _check_folder_name(fields, "id", record_id, "records")
    for category in categories:
        if category not in _FINE_CATEGORIES:  # the same few recur in every record
            if _fine_folder_name(category):
                _FINE_CATEGORIES.add(category)
            else:
                _check_folder_name(fields, "categories", category, "subjects")
    _check_names_joined_by_and(fields, data.get("authors"))
    record = Record(
        id=record_id or "",
        title=title or "",
        location=Location(display_path, getattr(data, "line", None)),
        authors=fields.string_list("authors", one_string=False),
        year=year or 0,
        date=date,
        source=fields.string("source", default="") or "",
        abstract=fields.string("abstract", default="") or "",
        categories=categories,
        links=_with_trials(fields, data, _links_with_repository(fields, extra)),
        arxiv=_arxiv(fields),
        doi=_doi(fields),
        hidden=fields.boolean("hidden"),
        featured=fields.boolean("featured"),
        award=fields.string("award", default="") or "",
        image=fields.url("image") or "",
        image_alt=fields.string("image_alt", default="") or "",
        venue_short=fields.string("venue_short", default="") or "",
        language=_record_language(fields),
        origin=origin,
        type=_record_type(fields),
        citations=_citations(fields),
        ids=_database_ids(fields, _trial_ids(data, _pubmed_ids(fields, data, _string_map(fields, "ids")))),
        aliases=_aliases(fields, record_id or ""),
        extra={name: value for name, value in extra.items() if name not in ("pmid", "pmcid", "trial")},  # they are `ids` and `links`
        given=tuple(sorted(str(k) for k, v in data.items() if v is not None)),
        source_key=source_key,
        lines=_lines_of(data),
        missing=missing,
    )
    if "author_ids" in data:
        _check_author_ids(fields, data["author_ids"], record.authors)
    _check_notice_fields(fields, data)
    if "status" in data:  # "Forthcoming", "Revise and resubmit, American Economic Review": shown beside the venue
        fields.string("status", default="")
    if isinstance(data.get("version"), float):  # `version: 1.10`, read as 1.1: every format would print a wrong version
        fields.problem("version", _quote_the_number("version", data["version"]))
    # a correction that leaves out title or year (`missing`) gives the fetched record it corrects its own fields only: the
    # work's kind is worked out from the two merged, so the correction's venue alone says nothing about it
    if not fetched and not missing and not record.type and record.source and infer_type(record) == "other":
        fields.problem(
            "source",
            f"{record.source!r} does not say what kind of work this is (no word such as Journal, Proceedings or Thesis, and no "
            "well-known venue's acronym), so it is listed as Other and exported as BibTeX @misc; say it with `type:` "
            "(inproceedings: a conference paper, article: a journal article, or one of " + ", ".join(RECORD_TYPES[2:]) + ")",
            warning=True,
        )
    if record.image and (problem := link_preview_problem(record.image)):
        fields.problem("image", problem, warning=True)  # the record page's link preview
    if record.image and (problem := picture_elsewhere_problem(record.image)):
        fields.problem("image", problem, warning=True)  # views.py leaves it out of the pages
    if len([p for p in problems if not p.warning]) > before:
        return None
    return record


def _links_with_repository(fields: Fields, extra: dict[str, Any]) -> dict[str, str]:
    """The record's links, and its `repository` (biblatex-software's name, in a YAML record too) as its `code` link
    (`code_2` beside another), once."""
    links = fields.url_map("links")
    if "repository" not in extra:
        return links
    repository = fields.url("repository")
    if repository and repository not in links.values():
        links[free_key(links, "code")] = repository
    return links


def _lines_of(data: Any) -> dict[str, int]:
    """The line of each field of a record, and of each of its links as `links.<name>` (a warning about one link
    points at its own line)."""
    lines = dict(getattr(data, "key_lines", {}))
    links = data.get("links")
    if isinstance(links, PositionedDict) and links.key_lines:
        lines.update((f"links.{name}", line) for name, line in links.key_lines.items())
    return lines


_ORCID_LIKE = re.compile(r"^(https?://)?(www\.)?orcid\.org/|^\d{4}-?\d{4}-?\d{4}-?\d{3}[\dXx]$", re.I)


def _check_author_ids(fields: Fields, given: Any, authors: tuple[str, ...]) -> None:
    """`author_ids: {Name as on the record: ORCID iD or arXiv author id}`: warnings for what ties no one to the
    record (a people directory ignores it, SPEC §9): another shape, a name that is none of the authors, an
    ORCID iD whose check digit is wrong (the check person files' `orcid` gets)."""
    from sitegen.people.names import person_key

    if given is None:
        return
    if not isinstance(given, dict):
        fields.problem(
            "author_ids",
            f"expected a mapping of author name -> ORCID iD or arXiv author id ({{A. B. King: 0000-0002-1825-0097}}), got {shown_value(given)}",
            warning=True,
        )
        return
    line_of = given.line_of if isinstance(given, PositionedDict) else None
    author_keys = {person_key(a) for a in authors}
    for name, value in given.items():
        where = Location(fields.path, (line_of(name) if line_of else None) or fields.where("author_ids").line)
        problem = _author_id_problem(str(name), value, author_keys, authors)
        if problem:
            fields.problems.append(Problem(f"field 'author_ids': {problem}", where, warning=True))


def _check_names_joined_by_and(fields: Fields, authors: Any) -> None:
    """A warning for an item of `authors:` that is two people's names joined by BibTeX's `and` (`[Mary Somerville and
    Ada Lovelace]`): YAML's list is one item, one author, so the page would show one author of that name."""
    if not isinstance(authors, list):
        return
    for index, item in enumerate(authors):
        if (
            isinstance(item, str)
            and " and " in item
            and (parts := _NAMES_JOINED_BY_AND.split(item.strip()))
            and len(parts) > 1
            and all(map(_looks_like_a_name, parts))
        ):
            listed = ", ".join(_flow_item(part.strip()) for part in parts)
            fields.problem(
                "authors",
                f"item {index + 1}, {item.strip()!r}, is {len(parts)} names joined by 'and': in YAML each author is an item of the list: [{listed}]",
                warning=True,
                line=item_line(authors, index),
            )


_NAMES_JOINED_BY_AND = re.compile(r"\s+and\s+")
# A person's name as written in a list of authors: two to four words, each starting with a capital (initials too),
# or BibTeX's `Family, Given`; not an organisation's (`ATLAS and CMS Collaborations`, `Johnson and Johnson`).
_PERSON_NAME = re.compile(r"(?:[A-Z][\w'.-]*\s+){1,3}[A-Z][\w'-]*|[A-Z][\w'-]*,\s*[A-Z][\w'.\s-]*")
_ORGANISATION_WORDS = re.compile(r"\b(?:Collaborations?|Consortium|Group|Team|Society|Association|Institute|The)\b")


def _looks_like_a_name(text: str) -> bool:
    return bool(_PERSON_NAME.fullmatch(text.strip())) and not _ORGANISATION_WORDS.search(text)


def _author_id_problem(name: str, value: Any, author_keys: set[str], authors: tuple[str, ...]) -> str | None:
    """What is wrong with one entry of `author_ids`, or None."""
    from sitegen.people.names import person_key
    from sitegen.sources.orcid import normalise_orcid

    if person_key(name) not in author_keys:
        close = difflib.get_close_matches(name, list(authors), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else f" ({', '.join(authors)})"
        return f"{name!r} is none of the record's authors, so the identifier ties no one to it{hint}"
    values = value if isinstance(value, list) else [value]
    for one in values:
        if not isinstance(one, (str, int)) or not str(one).strip():
            return f"{name!r}: expected an ORCID iD or arXiv author id (or a list of them), got {shown_value(one)}"
        if _ORCID_LIKE.match(str(one).strip()):
            try:
                normalise_orcid(str(one))
            except ValueError as error:
                return f"{name!r}: {error}"
    return None


# What other formats call the record types of SPEC §7.
TYPE_SYNONYMS = {
    "journal": "article",
    "paper": "article",
    "conference": "inproceedings",
    "proceedings": "inproceedings",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "dissertation": "thesis",
    "techreport": "report",
    "incollection": "chapter",
    "inbook": "chapter",
    "misc": "other",
    "unpublished": "preprint",
    "code": "software",
}


# what a `type:` names when it is a talk (content/talks/), not a publication
TALK_TYPES = frozenset({"talk", "talks", "presentation", "keynote", "invited talk", "seminar", "lecture", "colloquium"})


def _record_type(fields: Fields) -> str:
    """One of RECORD_TYPES (any case), or "" for enrich to infer."""
    written = fields.string("type", default="") or ""
    kind = written.lower()
    if kind and kind not in RECORD_TYPES:
        hint = TYPE_SYNONYMS.get(kind) or next(iter(difflib.get_close_matches(kind, RECORD_TYPES, n=1)), None)
        if kind in TALK_TYPES:  # not a publication: the site lists talks of their own
            advice = "; a talk is no record: write it in content/talks/ (title, event, date, links), listed on the site's Talks page"
        else:
            advice = f"; did you mean '{hint}'?" if hint else ""
        fields.problem("type", f"expected one of {', '.join(RECORD_TYPES)}, got {written!r}{advice}")
        return ""
    return kind


def _citations(fields: Fields) -> int | None:
    count = fields.integer("citations")
    if count is not None and count < 0:
        fields.problem("citations", f"expected a count of 0 or more, got {count}")
        return None
    return count


MAX_FOLDER_NAME = 255  # bytes of one path component, on every common file system


_FINE_CATEGORIES: set[str] = set()  # categories that passed _fine_folder_name


def _fine_folder_name(value: str) -> bool:
    """Can each of Linux, macOS and Windows hold a folder of this name? (Settled at once for most.)"""
    return bool(value) and value[0] != "." and value[-1] != "." and len(value) <= MAX_FOLDER_NAME and not WINDOWS_DEVICE_NAME.match(value)


def _check_folder_name(fields: Fields, key: str, value: str, folder: str) -> None:
    """An id or category names a folder of output/ (`records/<slug>/`, SPEC §3): one that each
    of Linux, macOS and Windows can hold, so that a site built on one checks out on the others;
    the problem with one that `_fine_folder_name` did not pass."""
    if _names_no_page(value):  # '.' and '..' would make the page path records/../ (slugs keep dots)
        fields.problem(key, f"{value!r} cannot name a page; use a letter or digit")
    elif reason := windows_folder_problem(value, f"{folder}/{value}"):
        fields.problem(key, f"{value!r} {reason}; change it")
    elif len(value) > MAX_FOLDER_NAME:  # the slug: one ASCII byte for each character
        fields.problem(key, f"{len(value)} characters is too long for the folder {folder}/<slug>/ (at most {MAX_FOLDER_NAME} bytes); shorten it")


def _string_map(fields: Fields, key: str) -> dict[str, str]:
    """Identifiers by kind: text, or a whole number (an ORCID put-code), which YAML keeps exactly."""
    value = fields.mapping(key)
    if value is None:
        return {}
    names = Fields(value, fields.path, fields.problems, prefix=f"{fields.prefix}{key}.", whose=fields.whose)
    found = {}
    for name, item in value.items():
        if isinstance(item, bool) or not isinstance(item, (str, int, type(None))):
            names.problem(str(name), _quote_the_number(str(name), item) if isinstance(item, float) else f"expected a string, got {shown_value(item)}")
        elif item is not None:
            found[str(name)] = str(item)
    return found


def _names_no_page(value: str) -> bool:
    return not value.strip(".")


def check_together(records: list[Record], problems: list[Problem]) -> list[Record]:
    """What no record file can settle alone: ids shared across files, pages that would share a
    folder where case is ignored, and corrections that correct nothing."""
    check_duplicate_ids(records, problems)
    check_folders_apart(records, problems)
    return check_corrections(records, problems)


def check_duplicate_ids(records: list[Record], problems: list[Problem]) -> None:
    """Two files of the same kind may not share an id (fetched vs hand-written merge later)."""
    if len({record.id for record in records}) == len(records):
        return  # the usual case, settled in one pass
    seen: dict[tuple[bool, str], Record] = {}
    for record in records:
        if not record.id:
            continue  # a correction naming its fetched record by arxiv or doi (check_corrections)
        key = (record.fetched, record.id)
        first = seen.setdefault(key, record)
        if first is not record:
            problems.append(Problem(f"duplicate id '{record.id}': also used at {str(first.location).rstrip(':')}", record.location))


def check_folders_apart(records: list[Record], problems: list[Problem]) -> None:
    """Pages whose folders differ only in case (records/MULLER2019SPARSE/, records/muller2019sparse/)
    are one folder on macOS and Windows, where one would overwrite the other: an error naming
    both records. Folders that are the same on Linux too are urls.page_collisions' to report."""
    shown = [record for record in records if not record.hidden]
    if _may_differ_only_in_case({record.id for record in shown}):
        _check_record_folders_apart(shown, problems)
    if _may_differ_only_in_case({category for record in shown for category in record.categories}):
        _check_subject_folders_apart(shown, problems)


def _may_differ_only_in_case(names: set[str]) -> bool:
    """Could two of `names` give folders that differ only in case? Settled without a call for
    each name (the usual case) when no name has a character the slug replaces, and none is
    another in other case."""
    joined = "".join(names)
    return slugify(joined) != joined or len({name.lower() for name in names}) != len(names)


def _check_record_folders_apart(shown: list[Record], problems: list[Problem]) -> None:
    first_of: dict[str, Record] = {}
    for record in shown:
        slug = slugify(record.id)
        first = first_of.setdefault(slug.lower(), record)
        if first is record or slugify(first.id) == slug or _one_work(first, record):
            continue
        problems.append(
            Problem(
                f"field 'id': '{record.id}' and '{first.id}' ({_place(first.where('id'))}) differ only in case: macOS and "
                f"Windows take records/{slug}/ and records/{slugify(first.id)}/ for one folder; change one id",
                record.where("id"),
            )
        )


def _check_subject_folders_apart(records: list[Record], problems: list[Problem]) -> None:
    """Categories that differ only in case (`cs.LG`, `cs.lg`) give subject pages one folder on macOS and Windows."""
    folded: dict[str, str] = {}  # each spelling -> its folder's name, case folded
    first_of: dict[str, tuple[str, Record]] = {}  # folded folder name -> the first spelling, and its record
    reported = set()
    for record in records:
        for category in record.categories:
            if category not in folded:
                folded[category] = slugify(category).lower()
            first, first_record = first_of.setdefault(folded[category], (category, record))
            if first == category or slugify(first) == slugify(category) or (first, category) in reported:
                continue
            reported.add((first, category))  # once per spelling, not once per record
            problems.append(
                Problem(
                    f"field 'categories': '{category}' and '{first}' ({_place(first_record.where('categories'))}) differ only in "
                    f"case: macOS and Windows take subjects/{slugify(category)}/ and subjects/{slugify(first)}/ for one folder; use one spelling",
                    record.where("categories"),
                )
            )


def _one_work(a: Record, b: Record) -> bool:
    """A hand-written record that corrects a fetched one (same arxiv or doi): the two make one page."""
    return a.fetched != b.fetched and not set(a.identity_keys()).isdisjoint(b.identity_keys())


def _place(location: Location | None) -> str:
    return str(location).rstrip(":") if location else "?"


def check_corrections(records: list[Record], problems: list[Problem]) -> list[Record]:
    """A hand-written record without a title or year must correct a fetched record (same id, arxiv or doi),
    which has them; `records` without those that do not."""
    incomplete = [record for record in records if record.missing]
    if not incomplete:
        return records
    fetched = {key for record in records if record.fetched for key in record.identity_keys()}
    wrong = set()
    for record in incomplete:
        if fetched.isdisjoint(record.identity_keys()):
            wrong.add(id(record))
            for name in record.missing:
                problems.append(Problem(_missing_from_record(record, name), record.location))
    return [record for record in records if id(record) not in wrong]


def _missing_from_record(record: Record, name: str) -> str:
    """A required field a hand-written record left out: its typo when an unknown field is likely one."""
    if record.origin is not None and record.origin.source == "bibtex":  # named as the reader's other messages name an entry
        return (
            f"entry '{record.id}' has no {name} (give year = {{2024}} or date = {{2024-05-03}}; only an entry that corrects "
            "a fetched record, with the same arxiv or doi, may leave it out)"
        )
    typo = next((key for key in record.extra if closest_field(key, RECORD_FIELDS, RECORD_SYNONYMS) == name), None)
    if typo is not None:
        return f"missing required field '{name}' (line {record.lines.get(typo, '?')} has '{typo}': a typo?)"
    return f"missing required field '{name}' (only a record that corrects a fetched one, with the same id, arxiv or doi, may leave it out)"


def validate_site(raw: RawSite, known: dict[str, tuple[list[Record], list[Problem]]] | None = None, theme_options: dict[str, Any] | None = None) -> ValidSite:
    """Stage 2 for the whole site: settings, profile and every record file's records.

    `known` maps a record file's key (load.file_key) to its records as an earlier build
    validated them (the dev server keeps them in memory); it gets this build's. `theme_options`: the options
    the site's theme declares (validate_config).
    """
    valid = ValidSite(problems=list(raw.problems))
    if raw.site is not None:
        valid.config = validate_config(raw.site, valid.problems, theme_options)
    if raw.profile is not None:
        valid.profile = validate_profile(raw.profile, valid.problems)
        if valid.profile is not None and valid.profile.photo and (problem := link_preview_problem(valid.profile.photo)):
            valid.problems.append(Problem(f"field 'photo': {problem}", valid.profile.where("photo"), warning=True))  # every page's preview
    known = known if known is not None else {}
    records: list[Record] = []
    used = set()
    for record_file in raw.record_files:
        key = file_key(record_file.reader, record_file.path, record_file.digest)
        used.add(key)
        if key not in known:
            known[key] = validate_record_file(record_file)
        of_file, problems = known[key]
        records += of_file
        valid.problems += problems
    for key in set(known) - used:
        del known[key]
    valid.records = check_together(records, valid.problems)
    return valid


def validate_record_file(record_file: RecordFile) -> tuple[list[Record], list[Problem]]:
    """The records of one file, as its reader found them, and the problems of the file."""
    problems = list(record_file.problems)
    records = []
    several = len(record_file.mappings) > 1
    for index, mapping in enumerate(record_file.mappings):
        key = "" if several else f"{record_file.path}@{record_file.digest}#{index}"
        record = validate_record(mapping, record_file.path, problems, source_key=key, reader=record_file.reader)
        if record is not None:
            records.append(record)
    if several:  # a .bib of many entries: one edited, the others keep their key, and what later stages made of them
        records = [dataclasses.replace(record, source_key=f"{record_file.path}#{digest(repr(record))}") for record in records]
    if len(problems) > 1:  # the reader's and validation's, in the order of the file's lines
        problems.sort(key=lambda problem: problem.location.line or 0 if problem.location else 0)
    return records, problems
