"""Themes are data: `theme.yaml`, `templates/`, `static/`.

A theme is looked up first in the site's own `themes/<name>/`, then among the
themes that ship with sitegen. A site's `templates/` shadows the theme's
templates by file name, and its `static/` shadows the theme's static files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import jinja2
import jinja2.compiler
from markupsafe import Markup, escape

try:  # MarkupSafe 3: the C function `escape` wraps in a new Markup
    from markupsafe import _escape_inner
except ImportError:  # MarkupSafe 2: `escape` is itself in C
    _escape_inner = escape

from sitegen.cache import CACHE_KEY, digest
from sitegen.errors import Location, Problem
from sitegen.load import parse_yaml

BUNDLED_THEMES = Path(__file__).parent / "themes"


@dataclass(frozen=True)
class Theme:
    name: str
    root: Path
    parent: "Theme | None" = None

    def chain(self) -> list["Theme"]:
        """This theme, then the themes it extends."""
        return [self] + (self.parent.chain() if self.parent else [])


def available_themes(site_dir: Path) -> list[str]:
    found = set()
    for folder in (site_dir / "themes", BUNDLED_THEMES):
        if folder.is_dir():
            found |= {p.name for p in folder.iterdir() if (p / "templates").is_dir()}
    return sorted(found)


def find_theme(name: str, site_dir: Path, where: Location | None = None, _seen: tuple[str, ...] = ()) -> Theme:
    """Resolve a theme by name; raises ThemeError naming the themes there are."""
    for folder in (site_dir / "themes", BUNDLED_THEMES):
        root = folder / name
        if (root / "templates").is_dir():
            parent_name = _theme_settings(root, site_dir).get("extends")
            parent = None
            if parent_name and parent_name not in _seen + (name,):
                parent = find_theme(str(parent_name), site_dir, where, _seen + (name,))
            return Theme(name, root, parent)
    found = ", ".join(available_themes(site_dir)) or "none"
    raise ThemeError(Problem(f"field 'theme': unknown theme '{name}'; themes found: {found}", where))


class ThemeError(Exception):
    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


def _theme_settings(root: Path, site_dir: Path) -> dict:
    path = root / "theme.yaml"
    if not path.is_file():
        return {}
    try:
        shown = path.relative_to(site_dir).as_posix()
    except ValueError:
        shown = path.as_posix()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as error:  # a broken theme is the site's problem, not a crash
        raise ThemeError(Problem(f"cannot read theme settings: {error}", Location(shown))) from error
    data, problem = parse_yaml(text, shown)
    if problem is not None:
        raise ThemeError(problem)
    return data if isinstance(data, dict) else {}


def template_dirs(theme: Theme, site_dir: Path) -> list[Path]:
    """Where templates are looked up, first match wins."""
    dirs = [site_dir / "templates"] + [t.root / "templates" for t in theme.chain()]
    return [d for d in dirs if d.is_dir()]


def print_html(value: object) -> str:
    """The text `{{ value }}` prints: MarkupSafe's `escape(value)`, without its Markup copy.

    `escape` copies every value into a new Markup (a Python-level `__new__`), even text
    that is already Markup, such as a list item as rendered; the copy only matters where the
    result is kept, and what an output tag prints is joined into the page. A build of
    10,000 records prints a million values: 0.4 s of CPU.
    """
    kind = type(value)
    if kind is str:
        return _escape_inner(value)
    if kind is Markup:
        return value
    return escape(value)


class _CodeGenerator(jinja2.compiler.CodeGenerator):
    """Compiles `{{ value }}` under autoescaping to `print_html(value)` instead of `escape(value)`.

    (`Environment.code_generator_class` is Jinja's hook for changing the code templates compile to.)
    """

    def _output_child_pre(self, node, frame, finalize) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            self.write("environment.print_html(")
        else:
            super()._output_child_pre(node, frame, finalize)


class _Environment(jinja2.Environment):
    """Looks keys of plain dicts up first: views are dicts, and `record.title` would
    otherwise try (and fail) an attribute lookup before the key on every use."""

    code_generator_class = _CodeGenerator
    print_html = staticmethod(print_html)

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


def make_environment(theme: Theme, site_dir: Path, bytecode_dir: Path | None = None) -> jinja2.Environment:
    """`bytecode_dir` keeps compiled templates between builds (keyed by their source and by sitegen's code)."""
    chain_loader = jinja2.FileSystemLoader([str(d) for d in template_dirs(theme, site_dir)])
    # "!theme/base.html" reaches the theme's own file even when the site shadows it
    theme_loader = jinja2.FileSystemLoader([str(t.root / "templates") for t in theme.chain()])
    bytecode_cache = None
    if bytecode_dir is not None:
        bytecode_dir.mkdir(parents=True, exist_ok=True)
        # compiled by this sitegen's code generator (see _CodeGenerator): another version's files are not read, and go
        suffix = f".{digest(CACHE_KEY)[:16]}.cache"
        for path in bytecode_dir.iterdir():
            if not path.name.endswith(suffix):
                path.unlink(missing_ok=True)
        bytecode_cache = jinja2.FileSystemBytecodeCache(str(bytecode_dir), pattern=f"%s{suffix}")
    return _Environment(
        loader=jinja2.ChoiceLoader([chain_loader, jinja2.PrefixLoader({"!theme": theme_loader}, delimiter="/")]),
        bytecode_cache=bytecode_cache,
        autoescape=True,
        auto_reload=False,  # one environment per build: no need to stat every template at every page (30,000 calls)
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def static_files(theme: Theme, site_dir: Path) -> dict[str, Path]:
    """output path (under static/) -> source file; the site's static/ wins."""
    files: dict[str, Path] = {}
    sources = [t.root / "static" for t in reversed(theme.chain())] + [site_dir / "static"]
    for folder in sources:
        if folder.is_dir():
            for path in sorted(folder.rglob("*")):
                if path.is_file() and not path.name.startswith("."):
                    files[path.relative_to(folder).as_posix()] = path
    return dict(sorted(files.items()))
