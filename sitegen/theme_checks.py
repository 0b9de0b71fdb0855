"""What is wrong with the theme a site uses, as problems at `path:line:`, found before any page is rendered.

A theme is data written by hand (theme.yaml, translation files, templates), and a
mistake in it shows on every page, or silently nowhere: a page entry without a
path, a translation file that is no YAML, a list of eleven months (every date
then shows as ISO text), a key spelt wrong (its string never shows), a template
in `templates/` under a name no theme has (it replaces nothing). The build
checks them once per run, with the site's other content, so that `check`,
`build` and the dev server report them alike.
"""

from __future__ import annotations

import difflib
import functools
import posixpath
import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import jinja2
import jinja2.meta

from sitegen.errors import Location, Problem
from sitegen.inputs import BUNDLED_PREFIX, Listing
from sitegen.load import PositionedDict
from sitegen.pages.theme_pages import declared_pages
from sitegen.theme import (
    FALLBACK_LANGUAGE,
    REQUIRED_TEMPLATES,
    SITE_STATIC,
    SITE_TEMPLATES,
    Theme,
    ThemeError,
    i18n_files,
    language_fallbacks,
    read_strings,
    static_sources,
    template_names,
    theme_yaml,
)
from sitegen.validate import RECORD_FIELDS, closest_field

T = TypeVar("T")  # what `_parsed_templates`'s parse gives

TEMPLATE_SUFFIXES = (".html", ".xml", ".txt")


def theme_problems(theme: Theme, listing: Listing, language: str, language_where: Location | None = None, base_path: str = "/") -> list[Problem]:
    """Every mistake of the theme chain and the site's templates: errors stop the build, warnings are reported.
    `base_path`: the path of the site's address ('/repo/' of base_url https://user.github.io/repo/)."""
    _, page_problems = declared_pages(theme, listing)
    return (
        unknown_fields(theme, listing)
        + name_problems(theme, listing)
        + missing_templates(theme, listing)
        + page_problems
        + translation_problems(theme, listing, language, language_where)
        + unused_templates(theme, listing)
        + stale_stylesheet_copy(theme, listing)
        + fields_no_longer_extra(theme, listing)
        + unescaped_values(theme, listing)
        + blocks_shown_nowhere(theme, listing)
        + template_addresses(theme, listing, base_path)
        + stylesheet_addresses(theme, listing, base_path)
    )


THEME_FIELDS = ("name", "extends", "description", "settings", "pages")  # what sitegen reads of a theme.yaml


def unknown_fields(theme: Theme, listing: Listing) -> list[Problem]:
    """A warning at each field of a theme.yaml sitegen does not read: a misspelt `extends`, `settings` or `pages`
    would drop the parent, the options or the pages without a word, and an option written at the top level
    (not under `settings:`) is no option."""
    problems = []
    for member in theme.chain():
        settings = theme_yaml(member, listing)
        for key in settings:
            if key in THEME_FIELDS:
                continue
            where = Location(f"{member.prefix}theme.yaml", settings.line_of(key) if isinstance(settings, PositionedDict) else None)
            meant = closest_field(key, frozenset(THEME_FIELDS), {"extend": "extends", "parent": "extends", "options": "settings", "title": "name"})
            hint = (
                f"did you mean '{meant}'?"
                if meant
                else f"an option a site may set goes under `settings:` ({key}: its default); a theme.yaml has {', '.join(THEME_FIELDS)}"
            )
            problems.append(Problem(f"field '{key}': unknown field of theme.yaml, not read; {hint}", where, warning=True))
    return problems


def name_problems(theme: Theme, listing: Listing) -> list[Problem]:
    """A warning for a theme.yaml whose `name:` is not its folder's: the folder's name is the one `theme:` and
    `extends:` use, and `name:` has no effect (a theme copied to another folder keeps its old `name:`)."""
    problems = []
    for member in theme.chain():
        settings = theme_yaml(member, listing)
        name = settings.get("name")
        if name is None or str(name) == member.name:
            continue
        where = Location(f"{member.prefix}theme.yaml", settings.line_of("name") if isinstance(settings, PositionedDict) else None)
        message = (
            f"field 'name': '{name}' is not the name of this theme: a theme is named by its folder ({member.prefix}),"
            f" so site.yaml's `theme:` and a theme's `extends:` call it '{member.name}'; write `name: {member.name}` or rename the folder"
        )
        problems.append(Problem(message, where, warning=True))
    return problems


def missing_templates(theme: Theme, listing: Listing) -> list[Problem]:
    """A chain that ends in a theme of the site extending none must answer every template sitegen renders itself:
    one error at that theme's theme.yaml naming all it lacks (not one 'template not found' per build)."""
    root = theme.chain()[-1]
    if root.prefix.startswith(BUNDLED_PREFIX):
        return []
    missing = sorted(REQUIRED_TEMPLATES - template_names(theme, listing))
    if not missing:
        return []
    folder = f"{root.prefix}templates/"
    return [
        Problem(
            f"the theme '{root.name}' extends no theme, so it needs every template sitegen renders, and lacks {len(missing)}:"
            f" {', '.join(missing)}; add them to {folder}, or write `extends: default` in {root.prefix}theme.yaml"
            " to take the missing ones from default",
            Location(f"{root.prefix}theme.yaml", 1 if f"{root.prefix}theme.yaml" in listing.files else None),
        )
    ]


# -- translations ------------------------------------------------------------------


def translation_problems(theme: Theme, listing: Listing, language: str, language_where: Location | None = None, field_name: str = "language") -> list[Problem]:
    """The translation files the site's language reads, each checked against the chain's English strings;
    a warning when the theme has no file for the language at all."""
    tags = language_fallbacks(language or FALLBACK_LANGUAGE)
    read: dict[str, dict[str, Any]] = {}  # path -> its strings, for the files that could be read
    problems: list[Problem] = []
    for tag in tags:
        for member in reversed(theme.chain()):
            for path in i18n_files(member, listing, tag):
                try:
                    read[path] = read_strings(path, listing)
                except ThemeError as error:
                    problems.append(error.problem)
    english = _english(theme, listing, read)
    for path, strings in read.items():
        problems += _shape_problems(strings, english, path, is_english=_is_english(path))
    if language and not any(not _is_english(path) for path in read) and tags[-1].split("-")[0].lower() != FALLBACK_LANGUAGE:
        problems.append(_no_translation(theme, listing, language, language_where, field_name))
    elif tags[-1].split("-")[0].lower() != FALLBACK_LANGUAGE:
        problems += _untranslated(theme, read, tags)
    return problems


def _untranslated(theme: Theme, read: dict[str, dict[str, Any]], tags: list[str]) -> list[Problem]:
    """A warning at each English file of a theme of the site's own whose strings no file of the site's language
    translates (a key added to en.yaml and forgotten in de.yaml): they show in English on that language's pages.
    The bundled themes' strings a theme leaves out are not its own to translate."""
    translated = {name for path, strings in read.items() if not _is_english(path) for name, _ in _leaves(strings)}
    problems = []
    for member in theme.chain():
        if member.prefix.startswith(BUNDLED_PREFIX):
            continue
        for path in (path for path in read if path.startswith(f"{member.prefix}i18n/") and _is_english(path)):
            missing = [(name, line) for name, line in _leaves(read[path]) if name not in translated]
            if not missing:
                continue
            tag, file = tags[-1], f"{member.prefix}i18n/{tags[1]}.yaml"
            if len(missing) == 1:
                message = f"'{missing[0][0]}' has no translation for '{tag}' in any theme's i18n/, so pages in '{tag}' show it in English; write it in {file}"
            else:
                names = ", ".join(name for name, _ in missing[:SHOWN_KEYS]) + (", ..." if len(missing) > SHOWN_KEYS else "")
                message = (
                    f"{len(missing)} strings have no translation for '{tag}' in any theme's i18n/ ({names}),"
                    f" so pages in '{tag}' show them in English; write them in {file}"
                )
            problems.append(Problem(message, Location(path, missing[0][1]), warning=True))
    return problems


SHOWN_KEYS = 5  # the untranslated keys a warning names


def _leaves(strings: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, int | None]]:
    """(dotted key, line) of each value of a translation file that is no mapping: a string, a list of months."""
    for key, value in strings.items():
        if isinstance(value, dict):
            yield from _leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", strings.line_of(key) if isinstance(strings, PositionedDict) else None


def _is_english(path: str) -> bool:
    return path.rpartition("/")[2].lower() in (f"{FALLBACK_LANGUAGE}.yaml", f"{FALLBACK_LANGUAGE}.yml")


def _english(theme: Theme, listing: Listing, read: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The chain's English strings as nested mappings, the extending theme's over its parent's."""
    english: dict[str, Any] = {}
    for member in reversed(theme.chain()):
        for path in i18n_files(member, listing, FALLBACK_LANGUAGE):
            _merge(english, read.get(path, {}))
    return english


def _merge(into: dict[str, Any], strings: dict[str, Any]) -> None:
    for key, value in strings.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = dict(value) if isinstance(value, dict) else value


# The month names of a language, and what a date shows while they are wrong: `months` (as a month is named alone, "abril
# de 2024") and `months_in_dates` (a language's own, where a day's date names the month otherwise: Catalan "5 d'abril").
MONTH_LISTS = {"months": "dates are shown as 2024-03-05", "months_in_dates": "a day's date names its month as `months` does"}
FIRST_DAY_FORMAT = "date_formats.first_day"  # a language's own form for the 1st of a month: French "1er avril 2024"
DAY_PLACEHOLDERS = "{day} {month} {year}"
MIN_GROUPING = "number_format.min_grouping_digits"  # a language's own: 2 where 4-digit numbers are not grouped (Spanish 2900)
ELISION = "elision.de"  # a language's own: "de" before a name that starts with a vowel (French, Catalan "d'")
SINGULAR = "number_format.singular"  # a language's own: the counts that take a noun's singular (French [0, 1])
LANGUAGE_OWN_KEYS = frozenset({*MONTH_LISTS, FIRST_DAY_FORMAT, MIN_GROUPING, ELISION, SINGULAR}) - {
    "months"
}  # keys another language may have that English has not


def _shape_problems(strings: dict[str, Any], english: dict[str, Any], path: str, is_english: bool, prefix: str = "") -> list[Problem]:
    """A warning for each value of `strings` whose shape is not the English one, and (in another language's
    file) for each key the English strings do not have: it would never be shown."""
    problems = []
    for key, value in strings.items():
        name = f"{prefix}{key}"
        where = Location(path, strings.line_of(key) if isinstance(strings, PositionedDict) else None)
        if name in MONTH_LISTS:
            if not (isinstance(value, list) and len(value) == 12 and all(isinstance(month, str) for month in value)):
                problems.append(
                    Problem(
                        f"'{name}': expected a list of the 12 months' names, January first; got {_described(value)}; {MONTH_LISTS[name]} until it is",
                        where,
                        warning=True,
                    )
                )
            continue
        if name == MIN_GROUPING:
            if not (isinstance(value, int) and not isinstance(value, bool) and value in (1, 2)):
                problems.append(
                    Problem(f"'{name}': expected 1 or 2 (the digits a number has before its first group), got {_described(value)}", where, warning=True)
                )
            continue
        if name == SINGULAR:
            if not (isinstance(value, list) and value and all(isinstance(count, int) and not isinstance(count, bool) for count in value)):
                problems.append(
                    Problem(
                        f"'{name}': expected a list of whole numbers (the counts that take a noun's singular, such as [0, 1]), got {_described(value)}",
                        where,
                        warning=True,
                    )
                )
            continue
        if name == FIRST_DAY_FORMAT:  # a language's own: English writes the 1st as every day
            if isinstance(value, str):
                problems += _placeholder_problems(name, value, DAY_PLACEHOLDERS, where)
            else:
                problems.append(Problem(f"'{name}': expected a string such as \"1er {{month}} {{year}}\", got {_described(value)}", where, warning=True))
            continue
        if name == ELISION.split(".")[0]:
            if not (isinstance(value, dict) and set(value) == {"de"} and isinstance(value["de"], str)):
                problems.append(
                    Problem(
                        f'\'{name}\': expected a mapping such as {{de: "d\'"}} (how "de" is written before a name starting with a vowel), got {_described(value)}',
                        where,
                        warning=True,
                    )
                )
            continue
        if str(key) not in english:
            if not is_english:
                problems.append(
                    Problem(
                        f"'{name}' is no string of the theme (none in i18n/{FALLBACK_LANGUAGE}.yaml), so it is never shown{_did_you_mean(str(key), english, prefix)}",
                        where,
                        warning=True,
                    )
                )
            continue
        expected = english[str(key)]
        if isinstance(expected, dict) and not isinstance(value, dict):
            problems.append(
                Problem(
                    f"'{name}': expected a mapping (as in i18n/{FALLBACK_LANGUAGE}.yaml: {', '.join(list(expected)[:3])}, ...), got {_described(value)}",
                    where,
                    warning=True,
                )
            )
        elif isinstance(value, dict) and not isinstance(expected, dict):
            problems.append(Problem(f"'{name}': expected a string (as in i18n/{FALLBACK_LANGUAGE}.yaml), got a mapping", where, warning=True))
        elif isinstance(value, dict):
            problems += _shape_problems(value, expected, path, is_english, f"{name}.")
        elif isinstance(expected, str) and isinstance(value, str):
            problems += _placeholder_problems(name, value, expected, where)
        elif isinstance(expected, str) and not isinstance(value, str):
            problems.append(
                Problem(
                    f"'{name}': expected a string (as in i18n/{FALLBACK_LANGUAGE}.yaml), got {_described(value)}{'; quote it' if not isinstance(value, list) else ''}",
                    where,
                    warning=True,
                )
            )
    return problems


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _placeholder_problems(name: str, value: str, english: str, where: Location) -> list[Problem]:
    """A warning for each `{placeholder}` of a translated string that the English one does not have: nothing fills
    it in, so readers would see it as written ('{jour} juin 2024')."""
    known = sorted(set(_PLACEHOLDER.findall(english)))
    problems = []
    for unknown in dict.fromkeys(found for found in _PLACEHOLDER.findall(value) if found not in known):
        meant = difflib.get_close_matches(unknown, known, n=1, cutoff=0.6)
        has = f"it has {', '.join(f'{{{p}}}' for p in known)}" if known else "it has none"
        message = f"'{name}': {{{unknown}}} is no placeholder of this string, so it is shown as written; {has} (as in i18n/{FALLBACK_LANGUAGE}.yaml)"
        problems.append(Problem(message + (f"; did you mean {{{meant[0]}}}?" if meant else ""), where, warning=True))
    return problems


def _described(value: Any) -> str:
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "a mapping"
    return repr(value)


def _did_you_mean(key: str, english: dict[str, Any], prefix: str) -> str:
    meant = difflib.get_close_matches(key, [str(name) for name in english], n=1, cutoff=0.6)
    return f"; did you mean '{prefix}{meant[0]}'?" if meant else ""


def _no_translation(theme: Theme, listing: Listing, language: str, where: Location | None, field_name: str = "language") -> Problem:
    has = sorted(
        {
            path.rpartition("/")[2].rsplit(".", 1)[0]
            for member in theme.chain()
            for path in listing.under(f"{member.prefix}i18n/")
            if path.endswith((".yaml", ".yml"))
        }
    )
    translation = f"themes/{theme.name}/i18n/{language}.yaml"  # the site's folder of the theme: a bundled theme's holds only this
    message = (
        f"field '{field_name}': the theme '{theme.name}' has no translation for '{language}' (it has {', '.join(has) or 'none'});"
        f" its pages show the English strings; to translate them, write {translation} (docs/themes.md, Translations)"
    )
    return Problem(message, where, warning=True)


# -- templates that replace nothing ------------------------------------------------------


def unused_templates(theme: Theme, listing: Listing) -> list[Problem]:
    """A warning for each template of the site's `templates/` or of a site's theme of the chain that has
    the name of no template further down the chain (so replaces none), and that no template includes,
    extends or imports and no `pages:` entry names: most likely a misspelt override."""
    layers = [SITE_TEMPLATES] + [f"{member.prefix}templates/" for member in theme.chain()]
    own = [prefix for prefix in layers if not prefix.startswith(BUNDLED_PREFIX)]
    candidates = [(prefix, path[len(prefix) :]) for prefix in own for path in listing.under(prefix) if path.endswith(TEMPLATE_SUFFIXES)]
    if not candidates:
        return []
    used = _referenced(listing, layers)
    if used is None:  # a template names another by a computed name: which ones are used cannot be told
        return []
    used |= {page.template for page in declared_pages(theme, listing)[0]}
    used |= {path[len(f"{BUNDLED_PREFIX}default/templates/") :] for path in listing.under(f"{BUNDLED_PREFIX}default/templates/")}  # what sitegen renders
    problems = []
    for prefix, name in candidates:
        below = layers[layers.index(prefix) + 1 :]
        if name in used or any(f"{lower}{name}" in listing.files for lower in below):
            continue
        known = sorted(used | {path[len(lower) :] for lower in below for path in listing.under(lower)})
        meant = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
        hint = f"; did you mean '{meant[0]}'?" if meant else " (to replace a theme's template, use its name: partials/record_item.html)"
        problems.append(
            Problem(f"template '{name}' replaces no template of the theme and no template uses it{hint}", Location(f"{prefix}{name}"), warning=True)
        )
    return problems


def fields_no_longer_extra(theme: Theme, listing: Listing) -> list[Problem]:
    """A warning where a template of the site's own reads a field of sitegen's from a record's `extra`
    (`record.extra.award`, `'venue_short' in r.extra`): `extra` holds the fields sitegen does not read, and an older
    sitegen did not read these, so a template written then found them there; now `extra` lacks them and the
    template prints nothing, without a word. One warning per template and field, at its first line."""
    layers = [SITE_TEMPLATES] + [f"{member.prefix}templates/" for member in theme.chain() if not member.prefix.startswith(BUNDLED_PREFIX)]
    problems = []
    for path, found in _parsed_templates(listing, layers, _extra_reads):
        for line, record, field in found:
            problems.append(
                Problem(
                    f"{record}.extra.{field}: '{field}' is a field sitegen reads now, no longer in a record's extra "
                    f"(where an older sitegen passed it), so this prints nothing; use {record}.{field}",
                    Location(path, line),
                    warning=True,
                )
            )
    return problems


@functools.lru_cache(maxsize=1024)
def _extra_reads(source: str) -> tuple[tuple[int, str, str], ...]:
    """(line, the record's expression, field) of the first read of each field of RECORD_FIELDS from a record's
    `extra` in a template's text: `X.extra.F`, `X.extra["F"]` and `"F" in X.extra`, X being `record`, `….record`
    or a loop variable over records."""
    tree = _PARSER.parse(source)
    records = {"record"} | {
        loop.target.name
        for loop in tree.find_all(jinja2.nodes.For)
        if isinstance(loop.target, jinja2.nodes.Name) and "records" in _expression(loop.iter).rsplit(".", 1)[-1]
    }
    found: dict[tuple[str, str], int] = {}

    def read(extra: jinja2.nodes.Node, field: Any, line: int) -> None:
        if not (isinstance(extra, jinja2.nodes.Getattr) and extra.attr == "extra" and isinstance(field, str) and field in RECORD_FIELDS):
            return
        owner = extra.node
        if (isinstance(owner, jinja2.nodes.Name) and owner.name in records) or (isinstance(owner, jinja2.nodes.Getattr) and owner.attr == "record"):
            key = (_expression(owner), field)
            found[key] = min(found.get(key, line), line)

    for attribute in tree.find_all(jinja2.nodes.Getattr):
        read(attribute.node, attribute.attr, attribute.lineno)
    for item in tree.find_all(jinja2.nodes.Getitem):
        if isinstance(item.arg, jinja2.nodes.Const):
            read(item.node, item.arg.value, item.lineno)
    for test in tree.find_all(jinja2.nodes.Compare):
        if isinstance(test.expr, jinja2.nodes.Const) and len(test.ops) == 1 and test.ops[0].op in ("in", "notin"):
            read(test.ops[0].expr, test.expr.value, test.lineno)
    return tuple(sorted((line, owner, field) for (owner, field), line in found.items()))


# -- `|safe` and blocks no parent has ------------------------------------------------------------------


def _own_layers(theme: Theme) -> list[str]:
    """The template folders of the site's own: its `templates/` and those of the site's themes of the chain."""
    return [SITE_TEMPLATES] + [f"{member.prefix}templates/" for member in theme.chain() if not member.prefix.startswith(BUNDLED_PREFIX)]


UNESCAPED = (
    "a '<script>' in a record's title or abstract (from a .bib file, arXiv, a co-author's pull request) "
    "would run on the page. Values that hold HTML (title, source, abstract, body) are ready to print without it, and every other is text: remove it"
)


def unescaped_values(theme: Theme, listing: Listing) -> list[Problem]:
    """A warning at each `|safe` on a value (and each `{% autoescape false %}`) in a template of the site's own:
    the views mark the HTML they make as safe already, so `|safe`, copied from another generator's themes, only
    ever turns a text value (`record.title_text`) into markup, a record's script with it. `|safe` on text the
    template itself holds (a literal, a string of the theme's translations) prints nothing from outside."""
    problems = []
    for path, found in _parsed_templates(listing, _own_layers(theme), _unescaped_outputs):
        for line, what in found:
            problems.append(Problem(f"{what} {UNESCAPED}", Location(path, line), warning=True))
    return problems


@functools.lru_cache(maxsize=1024)
def _unescaped_outputs(source: str) -> tuple[tuple[int, str], ...]:
    """(line, what it is) of each `|safe` on a value and each `{% autoescape false %}` in a template's text."""
    tree = _PARSER.parse(source)
    found = [
        (node.lineno, f"{{{{ {_written(node.node)}|safe }}}} prints the value's text as markup:")
        for node in tree.find_all(jinja2.nodes.Filter)
        if node.name == "safe" and node.node is not None and not _own_text(node.node)
    ]
    found += [
        (node.lineno, "{% autoescape false %} prints the values inside it as markup:")
        for node in tree.find_all((jinja2.nodes.ScopedEvalContextModifier, jinja2.nodes.EvalContextModifier))
        if any(option.key == "autoescape" and not (isinstance(option.value, jinja2.nodes.Const) and option.value.value) for option in node.options)
    ]
    return tuple(sorted(found))


def _written(node: jinja2.nodes.Node) -> str:
    """A value as a template writes it, `records[0].title_text` ('...' for what is no name, attribute or item)."""
    if isinstance(node, jinja2.nodes.Name):
        return node.name
    if isinstance(node, jinja2.nodes.Getattr):
        return f"{_written(node.node)}.{node.attr}"
    if isinstance(node, jinja2.nodes.Getitem) and isinstance(node.arg, jinja2.nodes.Const):
        return f"{_written(node.node)}[{node.arg.value!r}]"
    return "..."


def _own_text(node: jinja2.nodes.Node) -> bool:
    """Text of the template's own: a literal, or a string of the theme's translations (`strings["key"]`)."""
    if isinstance(node, (jinja2.nodes.Const, jinja2.nodes.TemplateData)):
        return True
    return isinstance(node, (jinja2.nodes.Getitem, jinja2.nodes.Getattr)) and isinstance(node.node, jinja2.nodes.Name) and node.node.name == "strings"


def blocks_shown_nowhere(theme: Theme, listing: Listing) -> list[Problem]:
    """A warning at each block a template of the site's own fills that no template it extends has
    (`{% block mian %}`): Jinja renders the parent's blocks only, so the block's content shows nowhere, without a
    word. Names the parent's block meant, or every block the parents have."""
    layers = [SITE_TEMPLATES] + [f"{member.prefix}templates/" for member in theme.chain()]
    named = {f"!{member.name}/": [f"{member.prefix}templates/"] for member in theme.chain()}
    named["!theme/"] = layers[1:]
    problems = []
    for path, (parent, blocks) in _parsed_templates(listing, _own_layers(theme), _blocks_filled):
        if parent is None:
            continue
        prefix = next((prefix for prefix in named if parent.startswith(prefix)), "")
        folders = named.get(prefix, layers)
        parent_blocks = _blocks_of_parents(listing, parent[len(prefix) :], folders, layers, named, {path})
        if parent_blocks is None:  # a parent not found or computed: reported when a page renders it
            continue
        for line, name in blocks:
            if name in parent_blocks:
                continue
            meant = difflib.get_close_matches(name, sorted(parent_blocks), n=1, cutoff=0.6)
            hint = f"did you mean '{meant[0]}'?" if meant else f"its blocks are {', '.join(sorted(parent_blocks))}"
            message = f"'{parent}' and the templates it extends have no block '{name}', so what it holds shows nowhere; {hint}"
            problems.append(Problem(message, Location(path, line), warning=True))
    return problems


def _blocks_of_parents(listing: Listing, name: str, folders: list[str], layers: list[str], named: dict[str, list[str]], seen: set[str]) -> set[str] | None:
    """Every block of the template `name` (the first of `folders` that has it) and of those it extends; None when
    one cannot be found or read, or a template extends one by a computed name."""
    path = next((f"{folder}{name}" for folder in folders if f"{folder}{name}" in listing.files), None)
    if path is None or path in seen:
        return None
    try:
        text = listing.read_bytes(path).decode("utf-8")
        parent, _ = _blocks_filled(text)
        own = set(_every_block(text))
    except (OSError, UnicodeError, jinja2.TemplateSyntaxError):
        return None
    if parent is None:
        return own
    prefix = next((prefix for prefix in named if parent.startswith(prefix)), "")
    above = _blocks_of_parents(listing, parent[len(prefix) :], named.get(prefix, layers), layers, named, seen | {path})
    return None if above is None else own | above


@functools.lru_cache(maxsize=1024)
def _blocks_filled(source: str) -> tuple[str | None, tuple[tuple[int, str], ...]]:
    """The template a template's text extends (None when it extends none, or by a computed name) and (line, name)
    of each block it fills outside every other block of its own: what it gives its parent (the blocks inside those
    are part of what they print)."""
    tree = _PARSER.parse(source)
    extends = next(tree.find_all(jinja2.nodes.Extends), None)
    parent = extends.template.value if extends is not None and isinstance(extends.template, jinja2.nodes.Const) else None
    blocks = list(tree.find_all(jinja2.nodes.Block))
    inner = {id(node) for block in blocks for node in block.find_all(jinja2.nodes.Block)}
    top = tuple((block.lineno, block.name) for block in blocks if id(block) not in inner)
    return (str(parent) if parent is not None else None), top


@functools.lru_cache(maxsize=1024)
def _every_block(source: str) -> tuple[str, ...]:
    """Every block of a template's text, nested ones too: what a template extending it may fill."""
    return tuple(node.name for node in _PARSER.parse(source).find_all(jinja2.nodes.Block))


# -- addresses of files that break where the site lives ------------------------------------------------------------

STATIC_FOLDER = "static/"  # where a theme's and the site's static files are in output/
_ADDRESS_ATTRIBUTE = re.compile(r"""\b(?:href|src|action|poster)\s*=\s*(["'])([^"'{]*)""", re.IGNORECASE)
_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)"'\s]*))\s*\)""", re.IGNORECASE)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def template_addresses(theme: Theme, listing: Listing, base_path: str) -> list[Problem]:
    """A warning at each address a template of the site's own writes as a path (`href="/static/uni.css"`,
    `src="static/logo.svg"`) instead of from the values: one from the domain's root leads outside a site that
    lives under a path ('/repo/'), and a relative one is read from each page's own folder, so it breaks on every
    page but those of one depth (a record's page, `records/<slug>/`)."""
    problems = []
    for path, found in _parsed_templates(listing, _own_layers(theme), _literal_addresses):
        for line, address in found:
            if address.startswith("/"):
                if base_path == "/" or address.startswith(base_path):
                    continue
                said = f"'{address}' is a path from the domain's root, which leaves this site's path {base_path}"
            else:
                said = f"'{address}' is a relative address, which each page reads from its own folder (records/<slug>/{address} on a record's page)"
            within = address.lstrip("/").removeprefix("./")
            meant = f"{{{{ site.static_url }}}}{within.removeprefix(STATIC_FOLDER)}" if within.startswith(STATIC_FOLDER) else f"{{{{ site.home_url }}}}{within}"
            problems.append(Problem(f"{said}: write {meant}", Location(path, line), warning=True))
    return problems


@functools.lru_cache(maxsize=1024)
def _literal_addresses(source: str) -> tuple[tuple[int, str], ...]:
    """(line, address) of each `href`, `src`, `action` or `poster` in a template's own text that starts as a path:
    from the domain's root (not `//host`) or relative (not `#part`, `?query`, `mailto:`, a value's `{{ }}`)."""
    found = []
    for node in _PARSER.parse(source).find_all(jinja2.nodes.TemplateData):
        for match in _ADDRESS_ATTRIBUTE.finditer(node.data):
            address = match[2].strip()
            if address and not address.startswith(("//", "#", "?")) and not _SCHEME.match(address):
                found.append((node.lineno + node.data.count("\n", 0, match.start()), address))
    return tuple(found)


def stylesheet_addresses(theme: Theme, listing: Listing, base_path: str) -> list[Problem]:
    """A warning at each `url()` of a stylesheet of the site's own (its static/, its themes' static/) that names a
    file of static/ no static/ folder has (a font that is not there: the text silently shows in the next font), or
    that is a path from the domain's root leaving the path the site lives under ('/static/logo.svg' of a site at
    '/repo/'), with the relative address to write."""
    sources = static_sources(theme, listing)
    problems = []
    for name, source in sources.items():
        if not name.lower().endswith(".css") or source.startswith(BUNDLED_PREFIX):
            continue
        try:
            text = listing.read_bytes(source).decode("utf-8", errors="replace")
        except OSError:
            continue
        folder = posixpath.dirname(f"{STATIC_FOLDER}{name}")
        for line, address in _css_urls(text):
            message = _stylesheet_address_problem(address, folder, sources, base_path)
            if message:
                problems.append(Problem(message, Location(source, line), warning=True))
    return problems


def _stylesheet_address_problem(address: str, folder: str, sources: dict[str, str], base_path: str) -> str | None:
    """What is wrong with an address of a stylesheet in output/'s `folder`, or None."""
    path = address.partition("#")[0].partition("?")[0]
    if not path or path.startswith("//") or _SCHEME.match(path):
        return None
    if path.startswith("/"):
        if not path.startswith(base_path):
            relative = posixpath.relpath(path.lstrip("/"), folder)
            return f"url({address}) is a path from the domain's root, which leaves this site's path {base_path}: write url({relative}), relative to this stylesheet"
        target = path[len(base_path) :]
    else:
        target = posixpath.normpath(posixpath.join(folder, path))
    if not target.startswith(STATIC_FOLDER) or target[len(STATIC_FOLDER) :] in sources:
        return None
    file_name = target.rpartition("/")[2].lower()
    meant = [name for name in sources if name.rpartition("/")[2].lower() == file_name]  # in another folder, or other capitals
    hint = f"; did you mean url({posixpath.relpath(STATIC_FOLDER + meant[0], folder)})?" if meant else ""
    return f"url({address}) names no file: {target} is in no static/ folder of the site or its themes{hint}"


@functools.lru_cache(maxsize=64)
def _css_urls(css: str) -> tuple[tuple[int, str], ...]:
    """(line, address) of each `url()` of a stylesheet's text outside its comments."""
    text = _CSS_COMMENT.sub(lambda comment: "\n" * comment[0].count("\n"), css)
    return tuple(
        (text.count("\n", 0, match.start()) + 1, next(group for group in match.groups() if group is not None).strip()) for match in _CSS_URL.finditer(text)
    )


def _expression(node: jinja2.nodes.Node) -> str:
    """`a.b.c` of a name and its attributes, as a template writes it ('' for anything else)."""
    if isinstance(node, jinja2.nodes.Name):
        return node.name
    if isinstance(node, jinja2.nodes.Getattr):
        return f"{_expression(node.node)}.{node.attr}"
    return ""


STYLESHEET = "static/style.css"
_CSS_CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")
_CSS_NOT_SELECTORS = re.compile(r"/\*.*?\*/|url\([^)]*\)|\"[^\"]*\"|'[^']*'", re.DOTALL)  # comments, addresses, strings
SHOWN_CLASSES = 6


def stale_stylesheet_copy(theme: Theme, listing: Listing) -> list[Problem]:
    """A warning when the site's `static/style.css` is a copy of the theme's stylesheet (it starts with its first
    line) without rules for classes the theme styles today: an older sitegen's copy, made to add a rule, that
    replaces the whole of today's stylesheet, so what was added since (link icons, search, the Cite box) shows
    unstyled. A stylesheet of the site's own, or a copy with every class, is the site's choice."""
    own = f"{SITE_STATIC}style.css"
    holder = next((member for member in theme.chain() if f"{member.prefix}{STYLESHEET}" in listing.files), None)
    if own not in listing.files or holder is None:
        return []
    replaced = f"{holder.prefix}{STYLESHEET}"
    try:
        text, theirs = (listing.read_bytes(path).decode("utf-8", errors="replace") for path in (own, replaced))
    except OSError:
        return []
    first_line = theirs.lstrip().partition("\n")[0].strip()
    if not first_line.startswith("/*") or text.lstrip().partition("\n")[0].strip() != first_line:
        return []
    have = set(_css_classes(text))
    missing = [name for name in _css_classes(theirs) if name not in have]
    if not missing:
        return []
    shown = ", ".join(f".{name}" for name in sorted(missing, key=lambda name: name != "icon")[:SHOWN_CLASSES])
    return [
        Problem(
            f"a copy of the {holder.name} theme's stylesheet from an older sitegen, which replaces the whole of today's: "
            f"it has no rules for {len(missing)} classes today's pages use ({shown}, ...), so they show unstyled; "
            "put your own rules in static/custom.css and link it (docs/themes.md, Add a stylesheet or a script), "
            f"then delete this file; or copy today's {holder.name} static/style.css over it and make your changes again",
            Location(own, 1),
            warning=True,
        )
    ]


@functools.lru_cache(maxsize=8)
def _css_classes(css: str) -> tuple[str, ...]:
    """The class names a stylesheet's selectors name, in order, each once (read once per text: the dev server
    checks the same stylesheets at every rebuild)."""
    return tuple(dict.fromkeys(_CSS_CLASS.findall(_CSS_NOT_SELECTORS.sub("", css))))


def _referenced(listing: Listing, layers: list[str]) -> set[str] | None:
    """The names the templates of every layer include, extend or import ('!default/base.html' as 'base.html');
    None when one names a template by a computed name."""
    names: set[str] = set()
    for _, found in _parsed_templates(listing, layers, _names_in):
        if None in found:
            return None
        names |= {_without_theme_prefix(str(name)) for name in found}
    return names


def _parsed_templates(listing: Listing, layers: list[str], parse: Callable[[str], T]) -> Iterator[tuple[str, T]]:
    """(path, `parse` of its text) of each template of the layers; one that cannot be read or parsed is left out
    (reported when a page renders it)."""
    for prefix in layers:
        for path in listing.under(prefix):
            if not path.endswith(TEMPLATE_SUFFIXES):
                continue
            try:
                yield path, parse(listing.read_bytes(path).decode("utf-8"))
            except (OSError, UnicodeError, jinja2.TemplateSyntaxError):
                continue


@functools.lru_cache(maxsize=1024)
def _names_in(source: str) -> tuple[str | None, ...]:
    """The template names a template's text references (None for a computed one): parsed once per text, since
    the dev server checks the same templates at every rebuild."""
    return tuple(jinja2.meta.find_referenced_templates(_PARSER.parse(source)))


_PARSER = jinja2.Environment()  # only parses: the names a template references are in its syntax


def _without_theme_prefix(name: str) -> str:
    return name.split("/", 1)[1] if name.startswith("!") and "/" in name else name
