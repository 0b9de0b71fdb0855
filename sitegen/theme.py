"""Themes are data: `theme.yaml`, `templates/`, `static/`, `i18n/`.

A theme is looked up first in the site's own `themes/<name>/`, then among the
themes that ship with sitegen. A site's `templates/` shadows the theme's
templates by file name, and its `static/` shadows the theme's static files.

Templates are read from the input listing (so through the site's jail, never
through a link that leaves it) and run in Jinja's immutable sandbox: a template
can print and loop over the values it is given, and cannot reach Python's
internals, the file system or the operating system.

Every visible string of a theme comes from its translation files,
`i18n/<language>.yaml` (nested mappings of strings; `months`, a list of twelve
names; `date_formats`). A template names a string as `{{ _("menu.news") }}`:
the string is put in when the template is compiled, for the site's `language`
(`de-CH` falls back to `de`, then to `en`), so it costs nothing per page. Text
that depends on the data (a record's type, a menu entry of the theme) is looked
up at render time in `strings`, the same table; dates are shown with the `date`
filter (`{{ item.date|date }}`), from ISO text (2024, 2024-03 or 2024-03-05).
"""

from __future__ import annotations

import datetime
import difflib
import functools
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any

import jinja2
import jinja2.bccache
import jinja2.ext
import jinja2.sandbox
from jinja2.lexer import Token, TokenStream
from markupsafe import escape

from sitegen.errors import ContentError, Location, Problem
from sitegen.inputs import BUNDLED_PREFIX, Listing
from sitegen.load import PositionedDict, parse_yaml
from sitegen.text_files import read_text
from sitegen.validate import SITE_EXTRAS, SITE_FIELDS

SITE_TEMPLATES = "templates/"
SITE_STATIC = "static/"
FALLBACK_LANGUAGE = "en"
# The templates sitegen renders itself (each page kind's, and the list items it renders once per record): what a
# theme that extends no theme must have. Every other template is one these include, extend or import.
REQUIRED_TEMPLATES = frozenset(
    {
        "index.html",
        "record.html",
        "subject.html",
        "cited.html",
        "cv.html",
        "news.html",
        "talks.html",
        "page.html",
        "posts.html",
        "post.html",
        "projects.html",
        "project.html",
        "people.html",
        "person.html",
        "404.html",
        "partials/record_item.html",
        "partials/person_record.html",
    }
)
THEME_PARTS = ("templates/", "static/", "i18n/")  # a folder with a file under one of these (or a theme.yaml) is a theme


@dataclass(frozen=True)
class Theme:
    name: str
    prefix: str  # its folder as input paths start: 'themes/mine/' or '<sitegen>/themes/default/'
    parent: Theme | None = None

    def chain(self) -> list[Theme]:
        """This theme, then the themes it extends."""
        return [self] + (self.parent.chain() if self.parent else [])


class ThemeError(ContentError):
    """A theme that cannot be used (unknown, unreadable, badly written): a problem of the site's
    content like any other, so that every command reports it as `path:line:` and exits 1."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(problem)


def available_themes(listing: Listing) -> list[str]:
    found = set()
    for prefix in ("themes/", BUNDLED_PREFIX):
        for path in listing.under(prefix):
            name, _, rest = path[len(prefix) :].partition("/")
            if _is_theme_file(rest):
                found.add(name)
    return sorted(found)


def find_theme(name: str, listing: Listing, where: Location | None = None) -> Theme:
    """Resolve a theme by name, with the themes it extends; raises ThemeError naming the themes there are.

    A theme holds only the files it adds or changes (a theme.yaml, templates/, static/ or i18n/:
    a translation alone is a theme). A site's `themes/<name>/` named like a bundled theme extends
    that bundled theme unless its theme.yaml says otherwise: it holds the files it changes, as a
    site's `templates/` does. A theme whose chain has no template at all is an error at `where`.
    """
    theme = _find_theme(name, listing, where, "theme", ())
    if not any(listing.under(f"{member.prefix}templates/") for member in theme.chain()):
        raise ThemeError(
            Problem(
                f"field 'theme': the theme '{name}' ({theme.prefix}) has no templates and extends no theme that has;"
                f" write `extends: default` in {theme.prefix}theme.yaml to build on default",
                where,
            )
        )
    return theme


def _find_theme(name: str, listing: Listing, where: Location | None, field_name: str, seen: tuple[str, ...], bundled_only: bool = False) -> Theme:
    folders = [f"{BUNDLED_PREFIX}{name}/"] if bundled_only else [f"themes/{name}/", f"{BUNDLED_PREFIX}{name}/"]
    for prefix in folders:
        if _is_theme(prefix, listing):
            return Theme(name, prefix, _parent(name, prefix, listing, seen))
    themes = available_themes(listing)
    found = ", ".join(themes) or "none"
    raise ThemeError(Problem(f"field '{field_name}': unknown theme '{name}'; themes found: {found}{_theme_meant(name, themes)}", where))


def _theme_meant(name: str, themes: list[str]) -> str:
    """What an unknown theme's name may have meant: the theme of that name in other capitals (`Default`), or, for a
    path to a theme outside the site (which a build never reads), where the theme goes."""
    if same := [theme for theme in themes if theme.lower() == name.lower()]:
        return f"; did you mean '{same[0]}'?"
    if "/" in name or "\\" in name:
        return (
            f"; a theme is named by its folder in themes/ (themes/<name>/), not by a path: copy the theme into"
            f" themes/{name.replace(chr(92), '/').rstrip('/').rpartition('/')[2]}/ or add it there as a git submodule"
        )
    return ""


def _is_theme(prefix: str, listing: Listing) -> bool:
    """A theme holds only the files it adds or changes: a theme.yaml, or any file under templates/, static/ or i18n/."""
    return any(_is_theme_file(path[len(prefix) :]) for path in listing.under(prefix))


def _is_theme_file(path: str) -> bool:
    """Whether `path`, inside a theme's folder, makes the folder a theme."""
    return path == "theme.yaml" or path.startswith(THEME_PARTS)


def _parent(name: str, prefix: str, listing: Listing, seen: tuple[str, ...]) -> Theme | None:
    """The theme that `prefix`'s theme.yaml names in `extends` (or the bundled namesake of a site's theme)."""
    settings = _settings(prefix, listing)
    namesake = prefix.startswith("themes/") and _is_theme(f"{BUNDLED_PREFIX}{name}/", listing)
    parent_name = settings.get("extends")
    where = Location(f"{prefix}theme.yaml", _line_of(settings, "extends"))
    if parent_name is None:
        return _find_theme(name, listing, where, "extends", seen, bundled_only=True) if namesake else None
    if not isinstance(parent_name, str) or not parent_name.strip():
        raise ThemeError(Problem(f"field 'extends': expected the name of a theme (default), got {parent_name!r}", where))
    if parent_name == name:
        if namesake:  # `extends: default` in the site's themes/default/: the bundled one
            return _find_theme(name, listing, where, "extends", seen, bundled_only=True)
        raise ThemeError(Problem(f"field 'extends': a theme cannot extend itself; name the theme '{name}' builds on (default)", where))
    if parent_name in seen:  # themes extending each other: no theme of the loop has a parent to fill in its gaps
        loop = " -> ".join(seen[seen.index(parent_name) :] + (name, parent_name))
        raise ThemeError(
            Problem(f"field 'extends': the themes extend each other in a loop ({loop}); one of them must extend a theme outside it (default)", where)
        )
    return _find_theme(parent_name, listing, where, "extends", seen + (name,))


def _line_of(data: dict[str, Any], key: str) -> int | None:
    return data.line_of(key) if isinstance(data, PositionedDict) else None


def theme_settings(theme: Theme, listing: Listing) -> dict[str, Any]:
    """The theme's theme.yaml, over those of the themes it extends."""
    settings: dict[str, Any] = {}
    for member in reversed(theme.chain()):
        settings.update(_settings(member.prefix, listing))
    return settings


def theme_options(theme: Theme, listing: Listing) -> dict[str, Any]:
    """The options the theme chain declares in theme.yaml's `settings:`, each with its default (the extending
    theme's default over its parent's): what a site may set in site.yaml, and what templates read as
    `site.extra.<option>` whether the site sets it or not."""
    options: dict[str, Any] = {}
    for member in reversed(theme.chain()):
        settings = _settings(member.prefix, listing)
        declared = settings.get("settings")
        if declared is None:
            continue
        where = Location(f"{member.prefix}theme.yaml", _line_of(settings, "settings"))
        if not isinstance(declared, dict):
            raise ThemeError(
                Problem(f"field 'settings': expected a mapping of each option a site may set to its default (logo: null), got {declared!r}", where)
            )
        for name, default in declared.items():
            line = Location(where.path, _line_of(declared, name) or where.line)
            if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise ThemeError(Problem(f"field 'settings': an option's name is letters, digits and _ (group_logo), got {name!r}", line))
            if name in SITE_FIELDS | SITE_EXTRAS:  # site.yaml's settings sitegen reads itself
                raise ThemeError(
                    Problem(
                        f"field 'settings': '{name}' is a setting of sitegen's own in site.yaml; name the theme's option otherwise ({member.name}_{name})", line
                    )
                )
            options[name] = default
    return options


def theme_yaml(theme: Theme, listing: Listing) -> dict[str, Any]:
    """The settings of the theme's own theme.yaml (a PositionedDict: its lines name the place of a mistake)."""
    return _settings(theme.prefix, listing)


def _settings(prefix: str, listing: Listing) -> dict[str, Any]:
    path = f"{prefix}theme.yaml"
    if path not in listing.files:
        return {}
    text, problem = read_text(listing, path)
    if problem is not None:  # a broken theme is the site's problem, not a crash
        raise ThemeError(problem)
    data, problem = parse_yaml(text, path)
    if problem is not None:
        raise ThemeError(problem)
    if data is not None and not isinstance(data, dict):
        raise ThemeError(Problem("expected a mapping of settings (name: mine, extends: default, pages: ...)", Location(path, 1)))
    return data if isinstance(data, dict) else {}  # a PositionedDict: its lines name the place of a mistake


def template_prefixes(theme: Theme) -> list[str]:
    """Where templates are looked up, first match wins."""
    return [SITE_TEMPLATES] + [f"{member.prefix}templates/" for member in theme.chain()]


def template_names(theme: Theme, listing: Listing) -> set[str]:
    """Every template name the theme chain and the site's `templates/` answer ('partials/record_item.html')."""
    return {path[len(prefix) :] for prefix in template_prefixes(theme) for path in listing.under(prefix)}


def settings_source(theme: Theme, listing: Listing, key: str) -> tuple[Any, Location]:
    """The value of a setting of theme.yaml as the chain resolves it (the extending theme wins), and where it is
    written; (None, the theme's own theme.yaml) when no theme of the chain sets it."""
    for member in theme.chain():
        settings = _settings(member.prefix, listing)
        if key in settings:
            return settings[key], Location(f"{member.prefix}theme.yaml", _line_of(settings, key))
    return None, Location(f"{theme.prefix}theme.yaml")


def theme_inputs(theme: Theme, listing: Listing) -> list[str]:
    """The input files that shape every page: templates, theme settings and translations."""
    prefixes = (
        tuple(template_prefixes(theme))
        + tuple(f"{member.prefix}theme.yaml" for member in theme.chain())
        + tuple(f"{member.prefix}i18n/" for member in theme.chain())
    )
    return sorted(name for name in listing.files if name.startswith(prefixes))


class ListingLoader(jinja2.BaseLoader):
    """Templates from the input listing: the first of `prefixes` that has the name."""

    def __init__(self, listing: Listing, prefixes: list[str]):
        self.listing = listing
        self.prefixes = prefixes

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        for prefix in self.prefixes:
            path = f"{prefix}{template}"
            if path in self.listing.files:
                source, problem = read_text(self.listing, path)
                if problem is not None:
                    raise ThemeError(problem)
                return source, path, lambda: True
        raise jinja2.TemplateNotFound(template)

    def list_templates(self) -> list[str]:
        """Every name it answers: what a message about a template not found suggests from."""
        return sorted({path[len(prefix) :] for prefix in self.prefixes for path in self.listing.under(prefix)})


class UnknownValue(jinja2.UndefinedError):
    """A value a template names and does not receive, with what it was looked up in (`owner`: a mapping, or
    jinja2.utils.missing for a name of the template's own) and its `name`: what a message needs to name the
    value meant."""

    def __init__(self, message: str | None = None, owner: Any = jinja2.utils.missing, name: Any = None):
        super().__init__(message)
        self.owner = owner
        self.name = name


class NamingUndefined(jinja2.StrictUndefined):
    """Jinja's StrictUndefined (a value not received is an error, even in `{% if %}`), raising UnknownValue."""

    __slots__ = ()

    def __init__(self, hint: str | None = None, obj: Any = jinja2.utils.missing, name: str | None = None, exc: type[Exception] = jinja2.UndefinedError):
        super().__init__(hint, obj, name, exc)  # type: ignore[arg-type]
        if exc is jinja2.UndefinedError and hint is None:  # not the sandbox's refusal, which passes its own
            self._undefined_exception = functools.partial(UnknownValue, owner=obj, name=name)  # type: ignore[assignment]


DICT_ATTRIBUTES = frozenset(dir(dict))


class SiteSandbox(jinja2.sandbox.ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, answering `{{ value.key }}` on a plain dict without raising.

    The views hand templates plain dicts, and `value.key` is Jinja's most frequent operation.
    The sandbox answers it by asking `getattr` first, which on a dict raises AttributeError
    for every name but dict's own methods, and then subscripting. For a `dict` (not a subclass,
    which may add attributes) and a name that is not one of dict's attributes, the answer is
    the same without the exception: the key's value, or undefined. Every other lookup, and every
    name dict has (`items`, `pop`, `__class__`), goes through the sandbox's own checks.
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class CompiledTemplates(jinja2.BytecodeCache):
    """Each template compiled once per process, in memory: a build after a template edit in the dev server (and
    every build of the test suite) compiles only the templates whose text changed.

    Jinja checks a kept template's source against its text; the key adds the name, the file and the strings
    `_("key")` put into the code when it was compiled (TranslatedStrings). Never a file on disk: compiled
    code in the cache folder is code a pull request could plant. One entry per template file and language,
    the last compiled; at most MAX_TEMPLATES, the oldest dropped.
    """

    MAX_TEMPLATES = 512

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> jinja2.bccache.Bucket:
        key = self.get_cache_key(f"{getattr(environment, 'sitegen_strings_key', '')}|{name}", filename)
        bucket = jinja2.bccache.Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code.pop(bucket.key, None)
        if len(self._code) >= self.MAX_TEMPLATES:
            del self._code[next(iter(self._code))]
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


def make_environment(theme: Theme, listing: Listing, language: str = "") -> jinja2.Environment:
    """A sandboxed environment over the theme's templates (and the site's, which shadow them),
    with the theme's strings in `language` (site.yaml's; the theme's fallback language when empty).

    `{% extends "!theme/base.html" %}` reaches the theme's own file even when the site shadows it;
    `{% extends "!default/base.html" %}` reaches the file of that theme of the chain (a theme that
    extends `default` builds its base.html on default's).
    """
    theme_loader = ListingLoader(listing, [f"{member.prefix}templates/" for member in theme.chain()])
    prefixes: dict[str, jinja2.BaseLoader] = {f"!{member.name}": ListingLoader(listing, [f"{member.prefix}templates/"]) for member in theme.chain()}
    prefixes["!theme"] = theme_loader
    environment = SiteSandbox(
        loader=jinja2.ChoiceLoader([ListingLoader(listing, template_prefixes(theme)), jinja2.PrefixLoader(prefixes, delimiter="/")]),
        autoescape=True,
        auto_reload=False,
        undefined=NamingUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=[TranslatedStrings],
        bytecode_cache=COMPILED_TEMPLATES,
    )
    strings = theme_strings(theme, listing, language or FALLBACK_LANGUAGE)
    environment.extend(sitegen_strings=strings)  # read by TranslatedStrings when a template is compiled (Jinja's way to hand an extension a setting)
    environment.extend(sitegen_strings_key=hashlib.sha256(repr(sorted(strings.items())).encode()).hexdigest())  # CompiledTemplates's
    environment.globals["strings"] = strings
    environment.filters["date"] = functools.partial(format_date, strings=strings)
    environment.filters["number"] = functools.partial(format_number, strings=strings)
    environment.filters["before_name"] = functools.partial(before_name, strings=strings)
    environment.tests["singular"] = lambda count: takes_singular(count, strings)  # Jinja types its tests as functions
    environment.policies["json.dumps_kwargs"] = {"sort_keys": True, "default": json_value}  # `|tojson` of any value templates get
    return environment


def json_value(value: Any) -> Any:
    """What `|tojson` writes for a value templates get that is no plain list, dict, string or number: a lazy
    list (`years[0].records`) as its items, a date as ISO text."""
    if isinstance(value, (Sequence, Set)) and not isinstance(value, (str, bytes)):
        return list(value)
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} value cannot be written as JSON; pass |tojson its fields instead")


# -- translations ------------------------------------------------------------------


def language_fallbacks(language: str) -> list[str]:
    """'de-CH' -> ['en', 'de', 'de-CH']: the tables to lay one over the other, the most general first."""
    parts = language.split("-")
    chain = [FALLBACK_LANGUAGE] + ["-".join(parts[:n]) for n in range(1, len(parts) + 1)]
    return list(dict.fromkeys(chain))


def theme_strings(theme: Theme, listing: Listing, language: str) -> dict[str, Any]:
    """Every string of the theme (and of the themes it extends) in `language`, by dotted key.

    A language's file of any theme in the chain wins over a more general language's
    ('de' over 'en'); within one language, the extending theme wins over its parent.
    """
    strings: dict[str, Any] = {}
    for tag in language_fallbacks(language):
        for member in reversed(theme.chain()):
            for name in i18n_files(member, listing, tag):
                strings.update(_flatten(read_strings(name, listing)))
    return strings


def i18n_files(member: Theme, listing: Listing, tag: str) -> list[str]:
    wanted = {f"{member.prefix}i18n/{tag}.yaml", f"{member.prefix}i18n/{tag}.yml"}
    return sorted(name for name in listing.under(f"{member.prefix}i18n/") if name in wanted or name.lower() in {w.lower() for w in wanted})


def read_strings(path: str, listing: Listing) -> dict[str, Any]:
    text, problem = read_text(listing, path)
    if problem is not None:
        raise ThemeError(problem)
    data, problem = parse_yaml(text, path)
    if problem is not None:
        raise ThemeError(problem)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ThemeError(Problem("expected a mapping of strings (menu: {news: News}, ...)", Location(path, 1)))
    return data


def _flatten(data: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flatten(value, f"{name}.")
        else:
            yield name, value if isinstance(value, list) else str(value)


class TranslatedStrings(jinja2.ext.Extension):
    """`_("key")` in a template becomes the theme's string when the template is compiled.

    `{{ _("key") }}` alone becomes template text, escaped here once; `_("key")` inside
    an expression becomes a string constant. A key the theme does not have is a
    template error at its line.
    """

    def filter_stream(self, stream: TokenStream) -> Iterable[Token]:
        tokens = list(stream)
        strings = getattr(self.environment, "sitegen_strings", {})
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token.type == "variable_begin" and index + 5 < len(tokens) and tokens[index + 5].type == "variable_end":
                key = _translation_call(tokens, index + 1)
                if key is not None:
                    yield Token(token.lineno, "data", str(escape(_translated(strings, key, token.lineno, stream))))
                    index += 6
                    continue
            key = _translation_call(tokens, index)
            if key is not None:
                yield Token(token.lineno, "string", _translated(strings, key, token.lineno, stream))
                index += 4
                continue
            yield token
            index += 1


def _translation_call(tokens: list[Token], index: int) -> str | None:
    """The key of `_ ( "key" )` starting at `index`, else None."""
    if index + 3 >= len(tokens):
        return None
    name, opening, key, closing = tokens[index : index + 4]
    if name.type == "name" and name.value == "_" and opening.type == "lparen" and key.type == "string" and closing.type == "rparen":
        return key.value
    return None


def _translated(strings: dict[str, Any], key: str, line: int, stream: TokenStream) -> str:
    value = strings.get(key)
    if not isinstance(value, str):
        keys = [name for name, each in strings.items() if isinstance(each, str)]
        meant = difflib.get_close_matches(key, keys, n=1, cutoff=0.75)
        hint = f"; did you mean {meant[0]!r}?" if meant else ""
        message = f"no string {key!r} in the theme's translations (i18n/{FALLBACK_LANGUAGE}.yaml){hint}"
        raise jinja2.TemplateSyntaxError(message, line, stream.name, stream.filename)
    return value


_ISO_DATE = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")


def format_date(value: Any, strings: Mapping[str, Any]) -> str:
    """'2024-03-05' -> '5 March 2024' or 'March 5, 2024', as the language's `date_formats` say (`first_day` for the
    1st, where the language writes it otherwise: French '1er avril 2024'); '2024-03' -> 'March 2024'; '2024' -> '2024'.
    Anything else is shown as it is."""
    if isinstance(value, (datetime.date, datetime.datetime)):
        value = value.isoformat()[:10]
    text = str(value)
    match = _ISO_DATE.fullmatch(text)
    months = strings.get("months")
    if match is None or not isinstance(months, list) or len(months) != 12:
        return text
    year, month, day = match.groups()
    if month is None:
        return year
    if not 1 <= int(month) <= 12:
        return text
    form = strings.get("date_formats.day" if day else "date_formats.month", "{month} {day}, {year}" if day else "{month} {year}")
    if day:
        form = strings.get("date_formats.first_day", form) if int(day) == 1 else form
        months = _months_in_dates(strings, months)
    parts = {"year": year, "month": str(months[int(month) - 1]), "day": str(int(day)) if day else ""}
    return re.sub(r"\{(year|month|day)\}", lambda m: parts[m[1]], str(form))


def format_date_range(start: str, end: str, strings: Mapping[str, Any]) -> str:
    """'2023-06-12', '2023-06-15' -> 'June 12–15, 2023' (or '12–15 juin 2023'): a meeting's days as the language writes
    them (`date_formats.day_range` within a month, `day_range_months` across two months of a year, CLDR's interval
    formats), each end as `format_date` writes it where the language says neither, or where an end is not a day."""
    start, end = start.strip(), end.strip()
    first, last = _ISO_DATE.fullmatch(start), _ISO_DATE.fullmatch(end)
    if first is None or last is None or start == end:
        return " – ".join(format_date(part, strings) for part in dict.fromkeys((start, end)) if part)
    (year, month, day), (end_year, end_month, end_day) = first.groups(), last.groups()
    months = _months_in_dates(strings, strings.get("months") or [])
    same_month = month == end_month
    form = strings.get("date_formats.day_range" if same_month else "date_formats.day_range_months")
    if not (day and end_day and year == end_year and isinstance(form, str) and len(months) == 12 and 1 <= int(month) <= 12 and 1 <= int(end_month) <= 12):
        return f"{format_date(start.strip(), strings)} – {format_date(end.strip(), strings)}"
    parts = {
        "year": year,
        "month": str(months[int(month) - 1]),
        "day": str(int(day)),
        "end_month": str(months[int(end_month) - 1]),
        "end_day": str(int(end_day)),
    }
    return re.sub(r"\{(year|month|day|end_month|end_day)\}", lambda m: parts[m[1]], form)


def _months_in_dates(strings: Mapping[str, Any], months: list[Any]) -> list[Any]:
    """The month names a day's date uses: the language's `months_in_dates` where it names a month otherwise there
    than alone (CLDR's format and stand-alone names: Catalan "5 d'abril de 2024", but "abril de 2024")."""
    in_dates = strings.get("months_in_dates")
    return in_dates if isinstance(in_dates, list) and len(in_dates) == 12 else months


def before_name(words: str, name: str, strings: Mapping[str, Any]) -> str:
    """'Portrait de' and 'Émilie Tremblay' -> "Portrait d'Émilie Tremblay": the words a name follows and the name, the
    words' last "de" elided before a vowel where the language says how (`elision.de`: French and Catalan "d'")."""
    elided = strings.get("elision.de")
    last, space, _ = words.rpartition(" ")
    if isinstance(elided, str) and elided and (words == "de" or words.endswith(" de")) and _starts_with_vowel(name):
        return f"{last}{space}{elided}{name}"
    return f"{words} {name}" if words else name


def _starts_with_vowel(name: str) -> bool:
    """'Émilie', 'Anna', 'Òscar' (their letters without accents); not 'Hélène' nor 'Yves', which each language elides
    or not by the name."""
    import unicodedata

    first = unicodedata.normalize("NFD", name.lstrip()[:1])[:1]
    return first.lower() in ("a", "e", "i", "o", "u")


def format_number(value: Any, strings: dict[str, Any]) -> str:
    """2900 -> '2,900' (or '2.900', '2 900': the language's `number_format.thousands`); anything else as it is.
    A language whose `number_format.min_grouping_digits` is 2 groups from five digits on (CLDR's minimumGroupingDigits:
    Spanish 2900, 12.900)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return str(value)
    if str(strings.get("number_format.min_grouping_digits", "1")) == "2" and abs(value) < 10_000:
        return str(value)
    separator = strings.get("number_format.thousands", ",")
    return f"{value:,}".replace(",", separator if isinstance(separator, str) else ",")


def takes_singular(count: Any, strings: Mapping[str, Any]) -> bool:
    """Whether a count takes its noun's singular (`{% if n is singular %}`): 1 in English; 0 and 1 in French, whose
    `number_format.singular` is [0, 1] ("0 citation", "1 publication": CLDR's plural rule 'one' for whole numbers)."""
    singular = strings.get("number_format.singular", [1])
    return isinstance(count, int) and not isinstance(count, bool) and count in (singular if isinstance(singular, list) else [1])


def static_sources(theme: Theme, listing: Listing) -> dict[str, str]:
    """Output name under static/ -> input path; the site's static/ wins over the theme's."""
    sources: dict[str, str] = {}
    for prefix in [f"{member.prefix}static/" for member in reversed(theme.chain())] + [SITE_STATIC]:
        for name in listing.under(prefix):
            sources[name[len(prefix) :]] = name
    return dict(sorted(sources.items()))
