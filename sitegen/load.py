"""Stage 1: read a site's YAML files into raw data that remembers positions.

Mappings come back as `PositionedDict`s: plain dicts that also know the line of
the mapping and of each key, so that later stages can say `path:line:`.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from sitegen.errors import Location, Problem
from sitegen.model import RawDocument
from sitegen.text_files import read_text

if TYPE_CHECKING:
    from sitegen.inputs import Listing
    from sitegen.sources import Reader

if TYPE_CHECKING:  # the checker reads the loader as the usual build of PyYAML has it
    _BaseLoader = yaml.CSafeLoader
else:
    try:  # libyaml is many times faster; fall back when it is not compiled in
        _BaseLoader = yaml.CSafeLoader
    except AttributeError:  # pragma: no cover - depends on the PyYAML build
        _BaseLoader = yaml.SafeLoader


# `<field>` + TEXT_LINE in a mapping's key_lines: the line of the first line of a literal block's text (`abstract: |`),
# whose lines are the file's, so that a message about a piece of the text names the line it is on
TEXT_LINE = "#text"


class PositionedDict(dict):
    """A YAML mapping with the 1-based line of itself and of each key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line) if hasattr(self, "key_lines") else self.line


class PositionedList(list):
    """A YAML sequence written over several lines, with the 1-based line of each item (`authors:` as a
    block list): a problem with one item names its line. A sequence on one line is a plain list."""

    item_lines: list[int]


def plain_data(value: Any) -> Any:
    """A reader's mapping (`PositionedDict`s and `PositionedList`s with their lines) as the plain dicts and lists a
    fetcher writes a record file from (the YAML writer writes no subclass)."""
    if isinstance(value, dict):
        return {str(key): plain_data(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_data(item) for item in value]
    return value


def item_lines(data: Any, key: str) -> dict[str, int]:
    """The line of each entry of the mapping under `key` written on a line of its own ('links.pdf': 7, of
    `links:` and `pdf: ...` below it), for messages about one entry; {} for one on the key's line."""
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, PositionedDict) or not hasattr(value, "key_lines"):
        return {}
    own = data.line_of(key) if isinstance(data, PositionedDict) else None
    return {f"{key}.{name}": line for name, line in value.key_lines.items() if line != own}


def item_line(items: Any, index: int) -> int | None:
    """The line of item `index` of a sequence read from YAML, when it has its own (None for a list on one line)."""
    return items.item_lines[index] if isinstance(items, PositionedList) and index < len(items.item_lines) else None


class _PositionLoader(_BaseLoader):
    text: str  # the YAML text being read, set by parse_yaml (libyaml's marks hold no buffer)

    def construct_object(self, node, deep=False):
        # A scalar the constructor rejects (`!!int abc`) is a problem at its place, not a crash.
        try:
            return super().construct_object(node, deep)
        except yaml.YAMLError:
            raise
        except Exception as error:  # ValueError, IndexError, OverflowError, ... from PyYAML's constructors
            shown = repr(node.value) if isinstance(node, yaml.ScalarNode) else node.tag
            raise yaml.constructor.ConstructorError(None, None, f"cannot read value {shown}: {error}", node.start_mark) from error

    def construct_yaml_timestamp(self, node):
        # `date: 2024-02-30` looks like a timestamp but is no date: keep the text for validation to report
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError:
            return self.construct_scalar(node)


class EscapedText(str):
    """A double-quoted YAML string in which a backslash escape made what its writer most likely
    meant as LaTeX: in `"Scaling $\\alpha$"` YAML reads `\\a` as U+0007, leaving "lpha"; in
    `"$\\tau$"` it reads `\\t` as a tab. Validation reports `escapes` with the advice to use
    single quotes, in which a backslash is a backslash."""

    escapes: tuple[str, ...]  # the escape sequences as written: ('\\a',)
    written: str  # the scalar as written, quotes included


# What YAML's escapes in double quotes make: control characters (always a mistake in a record)
# and the characters that `\\t`, `\\n`, `\\r`, `\\L`, `\\P`, `\\_` make of `\\tau`, `\\nu`, `\\rho`,
# `\\Lambda`, `\\Phi`, `a\\_b`. A value holding none of them owes nothing to a suspect escape.
_ESCAPE_RESULTS = re.compile("[\x00-\x1f\x7f-\xa0\u2028\u2029]")
_CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_YAML_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", re.DOTALL)
_ONE_LETTER_ESCAPES = {
    "0": "\x00",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
# LaTeX commands that begin with the letter of a YAML escape making a printable character:
# `"\\tau"` is a tab and "au", while `"one\\ttwo"` is a tab meant as one.
LATEX_NAMES_OF_ESCAPES = frozenset(
    {
        "tau",
        "theta",
        "times",
        "tilde",
        "to",
        "top",
        "triangle",
        "tfrac",
        "tan",
        "tanh",
        "text",
        "textbf",
        "textit",
        "textrm",
        "textsc",
        "textsf",
        "texttt",
        "textsuperscript",
        "textsubscript",
        "textendash",
        "textemdash",
        "nu",
        "nabla",
        "ne",
        "neq",
        "neg",
        "ni",
        "not",
        "newline",
        "nolimits",
        "nonumber",
        "rho",
        "right",
        "rightarrow",
        "Rightarrow",
        "rangle",
        "rceil",
        "rfloor",
        "rm",
        "ref",
        "Lambda",
        "LaTeX",
        "Leftarrow",
        "Leftrightarrow",
        "Longrightarrow",
        "Large",
        "L",
        "Pi",
        "Phi",
        "Psi",
        "Pr",
        "P",
    }
)


def _suspect_escapes(written: str) -> tuple[str, ...]:
    """The escapes of a double-quoted scalar that made a control character, `\\_` (a no-break
    space, not LaTeX's underscore), or a character in place of a LaTeX command's first letter."""
    found: list[str] = []
    for match in _YAML_ESCAPE.finditer(written):
        code = match[1]
        made = yaml_escape_character(match[0])
        if made and (_CONTROL_CHARACTER.match(made) or code == "_" or (code in "tnrLP" and _latex_name_at(written, match.start() + 1))):
            found.append(match[0])
    return tuple(dict.fromkeys(found))


def yaml_escape_character(sequence: str) -> str:
    """The character a YAML escape in double quotes stands for (`\\a` -> U+0007); "" for one that
    stands for none here (`\\\\`, `\\"`)."""
    code = sequence[1:]
    return chr(int(code[1:], 16)) if len(code) > 1 else _ONE_LETTER_ESCAPES.get(code, "")


def _latex_name_at(written: str, start: int) -> bool:
    end = start
    while end < len(written) and written[end].isascii() and written[end].isalpha():
        end += 1
    return written[start:end] in LATEX_NAMES_OF_ESCAPES


def _string_of(node: yaml.ScalarNode, loader: _PositionLoader) -> str:
    """A string scalar's value; an `EscapedText` when a double-quoted one owes a character to a
    suspect escape (checked only when the value holds a character an escape can make)."""
    value = node.value
    if node.style != '"' or not _ESCAPE_RESULTS.search(value):
        return value
    written = loader.text[node.start_mark.index : node.end_mark.index]
    escapes = _suspect_escapes(written)
    if not escapes:
        return value
    escaped = EscapedText(value)
    escaped.escapes, escaped.written = escapes, written
    return escaped


def _key_lines(node: yaml.MappingNode) -> dict[str, int]:
    """The line of each key of a mapping; a key given twice is a problem at its second place."""
    lines: dict[str, int] = {}
    seen: dict[tuple[str, str], int] = {}
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
            # field names recur in every record: one string each, in memory and in the build cache
            key.value = sys.intern(key.value)
            line = key.start_mark.line + 1
            identity = (key.tag, key.value)
            if identity in seen:  # PyYAML would keep the last value silently; a second `title:` is a mistake
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key '{key.value}' (first on line {seen[identity]})", key.start_mark)
            seen[identity] = lines[key.value] = line
            if isinstance(value, yaml.ScalarNode) and value.style == "|":  # a literal block: its lines are the file's
                lines[key.value + TEXT_LINE] = value.start_mark.line + 2
    return lines


def _construct_mapping(loader: _PositionLoader, node: yaml.MappingNode):
    data = PositionedDict()
    data.line = node.start_mark.line + 1
    data.key_lines = _key_lines(node)
    yield data
    data.update(loader.construct_mapping(node))


_PositionLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_PositionLoader.add_constructor("tag:yaml.org,2002:timestamp", _PositionLoader.construct_yaml_timestamp)


_STR, _SEQ, _MAP = (f"tag:yaml.org,2002:{name}" for name in ("str", "seq", "map"))
_PLAIN_KEY_TAGS = {_STR, *(f"tag:yaml.org,2002:{name}" for name in ("int", "float", "bool", "null", "timestamp"))}


# The whole numbers sitegen takes from a file: those of 64 bits, which every stage (the cache's digests, JSON
# written for the browser) holds exactly; a larger one is an error at its line (`weight: 18446744073709551616`).
SMALLEST_NUMBER, LARGEST_NUMBER = -(2**63), 2**63 - 1


class NumberOutOfRange(Exception):
    """A whole number of a YAML file beyond 64 bits; `field` is the key it stands under ('links.x'), if any."""

    def __init__(self, value: int, line: int):
        super().__init__(value, line)
        self.value, self.line = value, line
        self.field: str | None = None

    def message(self) -> str:
        small = self.value.bit_length() <= 256
        shown = str(self.value) if small else f"a number of {len(str(abs(self.value)))} digits"
        said = f"field '{self.field}': {shown}" if self.field else f"the number {shown}" if small else shown
        return f"{said} is out of range: write a whole number from {SMALLEST_NUMBER} to {LARGEST_NUMBER}, or quote it to keep it as text"


def _data_of(node: yaml.Node, loader: _PositionLoader, made: dict[int, object]) -> object:
    """The value of a composed node, as PyYAML's constructor makes it, in a fraction of its time.

    Strings, lists and plain mappings (the whole of a record file) are built here;
    any other node (numbers, dates, merge keys, unknown tags) goes to the
    constructor, so its rules and its errors stay PyYAML's own.
    """
    if type(node) is yaml.ScalarNode:
        if node.tag == _STR:
            return _string_of(node, loader)
        value = loader.construct_object(node)
        if type(value) is int and not SMALLEST_NUMBER <= value <= LARGEST_NUMBER:
            raise NumberOutOfRange(value, node.start_mark.line + 1)
        return value
    if id(node) in made:  # an alias: the same object again
        return made[id(node)]
    if node.tag == _SEQ and type(node) is yaml.SequenceNode:
        items: list = [] if node.start_mark.line == node.end_mark.line else PositionedList()
        made[id(node)] = items
        items.extend(_data_of(child, loader, made) for child in node.value)
        if type(items) is PositionedList:
            items.item_lines = [child.start_mark.line + 1 for child in node.value]
        return items
    if (
        node.tag != _MAP
        or type(node) is not yaml.MappingNode
        or any(type(key) is not yaml.ScalarNode or key.tag not in _PLAIN_KEY_TAGS for key, _ in node.value)
    ):
        return loader.construct_object(node, deep=True)  # merge keys (`<<: *base`) and the like
    data = PositionedDict()
    made[id(node)] = data
    data.line = node.start_mark.line + 1
    data.key_lines = _key_lines(node)
    for key_node, value_node in node.value:
        key = _data_of(key_node, loader, made)
        try:
            data[key] = _data_of(value_node, loader, made)
        except NumberOutOfRange as error:
            error.field = f"{key}.{error.field}" if error.field else str(key)
            raise
    return data


def parse_yaml(text: str, display_path: str) -> tuple[object, Problem | None]:
    """Parse YAML text; a syntax error becomes a `path:line:col:` problem."""
    try:
        loader = _PositionLoader(text)
        loader.text = text  # for the scalars' source (libyaml's marks hold no buffer)
        try:
            node = loader.get_single_node()
            data = None if node is None else _data_of(node, loader, {})
        finally:
            loader.dispose()
        if _SPACE_YAML_DOES_NOT_TAKE.search(text) and _key_starting_with_another_space(data) and (indented := _indented_with_another_space(text, None)):
            return None, indented.at(display_path)
        return data, None
    except yaml.MarkedYAMLError as error:
        if _SPACE_YAML_DOES_NOT_TAKE.search(text) and (indented := _indented_with_another_space(text, error.problem_mark or error.context_mark)):
            return None, indented.at(display_path)
        start = error.context_mark
        if start is not None and _unclosed_quote(error):  # at the end of the file, which tells nothing: where the quote opens does
            lines = text.splitlines()
            quote = lines[start.line][start.column : start.column + 1] if start.line < len(lines) else '"'
            return None, Problem(
                f"invalid YAML: the text in quotes that starts here is never closed: end it with {quote} where the text ends",
                Location(display_path, start.line + 1, start.column + 1),
            )
        if (unspaced := _no_space_after_colon(error, text)) is not None:
            line, written, meant = unspaced
            return None, Problem(f"invalid YAML: no space after the colon in {written!r}: write {meant}", Location(display_path, line + 1))
        mark = error.problem_mark or error.context_mark
        location = Location(display_path, mark.line + 1, mark.column + 1) if mark else Location(display_path)
        reason = error.problem or str(error)
        if error.context:
            reason = f"{reason} ({error.context})"
        return None, Problem(f"invalid YAML: {reason}{_yaml_hint(error, text)}", location)
    except yaml.reader.ReaderError as error:
        return None, _unreadable_character(error, text, display_path)
    except yaml.YAMLError as error:
        return None, Problem(f"invalid YAML: {error}", Location(display_path))
    except NumberOutOfRange as error:
        return None, Problem(error.message(), Location(display_path, error.line))


def _unreadable_character(error: yaml.reader.ReaderError, text: str, display_path: str) -> Problem:
    """A character YAML does not allow (a control character pasted from a PDF or a terminal, invisible in most
    editors), at its line and column: the reader names only its place in the whole text (libyaml: in bytes of
    UTF-8, with the character's code point; PyYAML's own reader: in characters, with the character)."""
    position = error.position if isinstance(error.character, str) else len(text.encode()[: error.position].decode(errors="ignore"))
    position = min(max(position, 0), len(text))
    line_start = text.rfind("\n", 0, position) + 1
    where = Location(display_path, text.count("\n", 0, position) + 1, position - line_start + 1)
    if isinstance(error.character, bytes) or not error.character:  # a byte the file's encoding cannot decode
        return Problem(f"invalid YAML: {error.reason}", where)
    code = ord(error.character) if isinstance(error.character, str) else error.character  # libyaml gives the code point
    return Problem(f"invalid YAML: the control character U+{code:04X}, invisible in most editors, cannot be in a YAML file: delete it", where)


def _no_space_after_colon(error: yaml.MarkedYAMLError, text: str) -> tuple[int, str, str] | None:
    """The line (0-based) of `title:"Your Name"` or `year:2024`, a key whose colon has no space after it, when the
    error is next to it: YAML reads such a line as one plain text, and complains only a line or more later."""
    lines = text.splitlines()
    nearby = [mark.line for mark in (error.context_mark, error.problem_mark) if mark is not None]
    if error.problem_mark is not None:  # the last line with content before the one YAML complains about
        before = [n for n in range(min(error.problem_mark.line, len(lines)) - 1, -1, -1) if lines[n].strip() and not lines[n].lstrip().startswith("#")]
        nearby += before[:1]
    for number in nearby:
        found = _KEY_WITHOUT_SPACE.match(lines[number]) if number < len(lines) else None
        if found is not None and found["key"].lower() not in _URI_SCHEMES:
            value = re.split(r"\s+#", found["value"], maxsplit=1)[0].rstrip()
            return number, f"{found['key']}:{value}", f"{found['key']}: {value}"
    return None


# `title:"Your Name"`, `  - year:2024`: a key, its colon and at once a value (not `http://`, not a time's `10:30`)
_KEY_WITHOUT_SPACE = re.compile(r"\s*(?:-\s+)?(?P<key>[A-Za-z_][\w-]*):(?P<value>[^\s/:#].*)$")
_URI_SCHEMES = frozenset({"http", "https", "mailto", "doi", "arxiv", "urn", "tel", "isbn", "pmid", "orcid"})


def _unclosed_quote(error: yaml.MarkedYAMLError) -> bool:
    """A quoted scalar the file ends inside (`title: "Half written` in a file saved half written)."""
    return error.context == "while scanning a quoted scalar" and "end of stream" in (error.problem or "")


# `key: value: more`, a line of a mapping (or of a list's item) whose plain value holds ': ' (a comment after it left out)
_COLON_IN_VALUE = re.compile(r"\s*(?:-\s+)?(?P<key>[\w-]+):\s+(?P<value>[^\s'\"\[{|>&*!%@`#][^#]*?:\s.*?)(?:\s+#.*)?\s*$")
HINTED_LINE = 2000  # characters of a line the pattern above reads: its backtracking grows with the square of a line's length
_WINDOWS_PATH = re.compile(r"(?:^|[\s\"'])(?:[A-Za-z]:\\|\\\\[\w.$-]+\\)")  # C:\Users\..., \\server\share\...


# Spaces that Python takes for spaces and YAML does not: Word's and web pages' no-break space, pasted; an input
# method's ideographic space; the typographic ones
_SPACES = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
_SPACE_YAML_DOES_NOT_TAKE = re.compile(f"[{_SPACES}]")
# a line whose indentation holds one of them; `item`: what then reads as a key or a list's item (not text of a block)
_INDENTED_WITH_ANOTHER_SPACE = re.compile(f"^[ \\t]*(?P<space>[{_SPACES}])[ \\t{_SPACES}]*(?P<item>-[ \\t]|-$|[^\\s:#]+:(?:[ \\t]|$))?", re.MULTILINE)


@dataclass
class _Unspaced:
    """A line indented with a space YAML does not take for one."""

    line: int
    space: str

    def at(self, display_path: str) -> Problem:
        name = unicodedata.name(self.space, "space").lower()
        said = f"this line is indented with a {name} (U+{ord(self.space):04X}), which YAML does not take for a space: indent with plain spaces"
        return Problem(f"invalid YAML: {said}", Location(display_path, self.line))


def _key_starting_with_another_space(data: object) -> bool:
    """Does a mapping of the data have a key that starts with a space YAML does not take for one? The file was read,
    but wrongly: a line so indented made a key of its own (`\u00a0 code: b` beside `links:`, not under it). A line
    of a block's text that starts with one (`abstract: |`) is text, rightly read."""
    if isinstance(data, dict):
        return any((isinstance(key, str) and _SPACE_YAML_DOES_NOT_TAKE.match(key)) or _key_starting_with_another_space(value) for key, value in data.items())
    return isinstance(data, list) and any(_key_starting_with_another_space(item) for item in data)


def _indented_with_another_space(text: str, mark: yaml.Mark | None) -> _Unspaced | None:
    """The first line indented with a space YAML does not take for one: with YAML's error at `mark`, that line or
    the one before it (the error follows from it; one further up is a block's text, and the error another's);
    without, one that reads as a key or a list's item."""
    for match in _INDENTED_WITH_ANOTHER_SPACE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        if mark is not None and line < mark.line:
            continue
        if mark is not None and line > mark.line + 1:
            return None
        if mark is not None or match["item"]:
            return _Unspaced(line, match["space"])
    return None


_CURLY_OPENING = "\u201c\u2018\u201e\u201a\u00ab\u00bb"  # “ ‘ „ ‚ « »: what word processors type for " and '
_CURLY_CLOSING = "\u201d\u2019\u201c\u00bb\u00ab"


def _yaml_hint(error: yaml.MarkedYAMLError, text: str) -> str:
    """What a message about invalid YAML adds for the mistakes people make most: a tab in the indentation, a
    backslash in double quotes (a Windows path, LaTeX)."""
    mark = error.problem_mark or error.context_mark
    lines = text.splitlines()
    line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
    indentation = line[: len(line) - len(line.lstrip(" \t"))]
    if "\t" in indentation and (mark is None or mark.column <= len(indentation)):
        return ": YAML indents with spaces, not tabs"
    problem = error.problem or ""
    reserved = line[mark.column] if mark is not None and mark.column < len(line) else ""
    if mark is not None and reserved and "cannot start any token" in problem and reserved in "@`":  # '@priya@sigmoid.social', as Mastodon shows a handle
        before, value = line[: mark.column], line[mark.column :]
        value = re.split(r"\s+#", value, maxsplit=1)[0].rstrip()
        key, quoted = before.strip().removeprefix("-").strip(), json.dumps(value, ensure_ascii=False)
        return f": a value starting with {reserved} is written in quotes: {f'{key} {quoted}' if key else quoted}"
    if mark is not None and problem.startswith("mapping values are not allowed") and len(line) <= HINTED_LINE and (colon := _COLON_IN_VALUE.match(line)):
        # `title: Café culture: a corpus study`: the second ': ' would start a mapping inside the value
        value = colon["value"]
        curly = len(value) > 1 and value[0] in _CURLY_OPENING and value[-1] in _CURLY_CLOSING  # “Café culture: a corpus study”
        value = value[1:-1] if curly else value
        quoted = json.dumps(value, ensure_ascii=False) if '"' not in value else "'" + value.replace("'", "''") + "'"
        if curly:
            return f": {colon['value'][0]} and {colon['value'][-1]} are no quotes to YAML (Word types them for \"): a value with ': ' in it is written in straight quotes: {colon['key']}: {quoted}"
        return f": a value with ': ' in it is written in quotes: {colon['key']}: {quoted}"
    if error.context == "while parsing a quoted scalar" and ("escape" in problem or "hexdecimal" in problem):
        start = error.context_mark
        quoted = line[start.column :] if start is not None and mark is not None and start.line == mark.line else line
        if _WINDOWS_PATH.search(quoted):
            return ": in double quotes a backslash starts an escape, and this looks like a Windows path: use / in paths (static/photo.jpg), or single quotes"
        return ": in double quotes a backslash starts an escape; write the text in single quotes ('...'), in which a backslash stays"
    return ""


@dataclass
class RecordFile:
    """One record file as its reader found it: the record mappings, and what was wrong."""

    path: str  # as messages name it: 'content/records/x.yaml'
    reader: str  # the reader's name (sitegen.sources)
    digest: str  # of the file's bytes
    mappings: list[Any]
    problems: list[Problem]


@dataclass
class RawSite:
    """Everything stage 1 read; `problems` holds what could not be read."""

    site_dir: Path
    site: RawDocument | None = None
    profile: RawDocument | None = None
    record_files: list[RecordFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


RECORDS_FOLDER = "content/records/"
SETTINGS_FILES = ("site", "profile")
SETTINGS_PATHS = frozenset(f"content/{name}.yaml" for name in SETTINGS_FILES)  # read by load_site, whatever else reads them


# reference lists in the formats sitegen does not read, which every service that writes them can write as BibTeX
CITATION_EXPORTS = (".enw", ".csv", ".refman")
CITATION_EXPORT_HINT = (
    "; export these references as BibTeX or RIS instead (Google Scholar: select all, Export, BibTeX; "
    "EndNote, Zotero, Mendeley: Export as RIS) and put the .bib or .ris file here"
)


def load_site(listing: Listing, digests: dict[str, str], known_files: dict[str, RecordFile] | None = None) -> RawSite:
    """Read site.yaml, profile.yaml and every record file the listing holds.

    `known_files` holds the record files read by an earlier build, by `file_key`:
    a file whose reader and content are the same is not read again. It gets
    the files read now, and loses those no longer there.
    """
    from sitegen.sources import READERS, reader_for  # the readers import this module's YAML parser

    raw = RawSite(listing.site_dir)
    known = known_files if known_files is not None else {}
    if not (listing.site_dir / "content").is_dir():
        raw.problems.append(Problem(f"no content/ folder in {listing.site_dir} (is --site right?)"))
        return raw
    for name in SETTINGS_FILES:
        path = f"content/{name}.yaml"
        if path not in listing.files:
            raw.problems.append(Problem(f"missing: every site needs content/{name}.yaml", Location(path)))
            continue
        document, problem = load_document(listing, path)
        if problem:
            raw.problems.append(problem)
        setattr(raw, name, document)
    used = set()
    for path in listing.under(RECORDS_FOLDER):
        reader = reader_for(path)
        if reader is None:
            hint = CITATION_EXPORT_HINT if path.lower().endswith(CITATION_EXPORTS) else ""
            raw.problems.append(Problem(f"not read: record files end with {', '.join(sorted(READERS))}{hint}", Location(path), warning=True))
            continue
        key = file_key(reader.name, path, digests[path])
        used.add(key)
        if key not in known:
            known[key] = read_record_file(listing, path, reader, digests[path])
        raw.record_files.append(known[key])
    for key in set(known) - used:
        del known[key]
    return raw


def file_key(reader: str, path: str, digest: str) -> str:
    """What a record file's records are made from: its reader, its place (messages name it) and its bytes."""
    return f"{reader}:{path}:{digest}"


def read_record_file(listing: Listing, path: str, reader: Reader, digest: str) -> RecordFile:
    text, problem = read_text(listing, path, reader.save_as_utf8)
    if problem:
        return RecordFile(path, reader.name, digest, [], [problem])
    mappings, problems = reader.read(text, path)
    return RecordFile(path, reader.name, digest, mappings, problems)


def load_document(listing: Listing, path: str) -> tuple[RawDocument | None, Problem | None]:
    text, problem = read_text(listing, path)
    if problem:
        return None, problem
    parsed, problem = parse_yaml(text, path)
    if problem:
        return None, problem
    return RawDocument(listing.path_of(path), path, parsed), None
