"""`sitegen init DIR [--name "Full Name"] [--force]`: a new site that builds at once
and deploys to GitHub Pages when pushed.

The files come from `sitegen/skeleton/` (package data) and keep their relative
paths, with two conventions:

- A path part starting with `dot-` is written with a `.` instead
  (`dot-github/workflows/pages.yml` -> `.github/workflows/pages.yml`,
  `dot-gitignore` -> `.gitignore`). setuptools' package-data globs skip hidden
  files and folders, so a non-editable install would ship no `.github/` if the
  skeleton held the real names.
- A file ending in `.tmpl` is a Jinja2 template, rendered with the facts below
  (the owner's name, and guesses made from it) and written without the suffix.
  Every other file is copied byte for byte: the workflows hold GitHub's own
  `${{ ... }}` expressions, which must reach GitHub untouched.

Nothing is written until every file has been rendered and no target exists
(unless --force), so a refused or failed init leaves the folder as it was.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import unicodedata
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import jinja2

from sitegen import __version__
from sitegen.errors import ExitStatus, SitegenError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable  # Python 3.11+; importlib.abc before

SKELETON = "skeleton"
TEMPLATE_SUFFIX = ".tmpl"
DOT_PREFIX = "dot-"
PLACEHOLDER_NAME = "Your Name"
PLACEHOLDER_USERNAME = "your-username"
DISTRIBUTION = "sitegen-profiles"  # on PyPI; `sitegen` there is an unrelated project


@dataclass(frozen=True)
class SiteFacts:
    """What the templates may use; every value is a guess the owner can edit."""

    name: str
    placeholder: bool  # no --name was given: `name` is PLACEHOLDER_NAME
    username: str  # a GitHub user name guessed from the name (or the folder)
    repository: str  # the repository's name, guessed from the folder's name
    base_url: str
    name_variants: tuple[str, ...]  # e.g. "A. Lovelace" for "Ada Lovelace"
    sitegen_version: str
    requirement: str  # the line of requirements.txt that installs sitegen


@dataclass(frozen=True)
class SkeletonFile:
    source: Traversable
    target: PurePosixPath  # relative to the new site's folder
    template: bool


# --------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    """Run `sitegen init`; returns the exit status."""
    directory: Path = args.directory
    try:
        name = clean_name(args.name)
    except ValueError as error:
        print(f"sitegen init: error: --name: {error}", file=sys.stderr)
        return ExitStatus.USAGE
    if directory.exists() and not directory.is_dir():
        raise SitegenError(f"{directory}: exists and is not a folder")
    facts = guess_facts(directory, name)
    rendered = render_skeleton(facts)
    refuse_to_overwrite(directory, list(rendered), force=args.force)
    write_files(directory, rendered)
    report(directory, rendered, facts)
    return ExitStatus.OK


def clean_name(name: str | None) -> str | None:
    """The --name as given, trimmed; None when none was given."""
    if name is None:
        return None
    name = " ".join(name.split())
    if not name:
        raise ValueError("is empty; give the full name, e.g. --name \"Ada Lovelace\"")
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise ValueError("holds control characters")
    return name


def refuse_to_overwrite(directory: Path, targets: list[PurePosixPath], force: bool) -> None:
    """Stop before writing anything if a target exists (even with --force: a folder or file in the way)."""
    paths = [directory / target for target in targets]
    existing = [path for path in paths if path.exists() or path.is_symlink()]
    in_the_way = {path for path in existing if path.is_dir()}
    in_the_way |= {folder for path in paths for folder in path.parents
                   if folder.is_relative_to(directory) and folder.exists() and not folder.is_dir()}
    if in_the_way:
        raise SitegenError(f"{_list(sorted(in_the_way))}: in the way of the site's files "
                           "(a folder where a file goes, or a file where a folder goes); nothing was written")
    if existing and not force:
        raise SitegenError(f"{_list(existing)} already exist{'s' if len(existing) == 1 else ''}; "
                           "nothing was written (use --force to overwrite)")


def _list(paths: list[Path]) -> str:
    return ", ".join(str(path) for path in paths)


def write_files(directory: Path, rendered: dict[PurePosixPath, bytes]) -> None:
    """Write each file beside its target first, then rename it in place: no half-written file."""
    for relative, data in rendered.items():
        path = directory / relative
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError as error:
            if temporary.parent.is_dir():
                temporary.unlink(missing_ok=True)
            raise SitegenError(f"{path}: cannot write: {error.strerror or error}") from error


def report(directory: Path, rendered: dict[PurePosixPath, bytes], facts: SiteFacts) -> None:
    print(f"created a sitegen site for {facts.name} in {directory}/ ({len(rendered)} files)")
    if facts.placeholder:
        print(f'note: no --name given, so the site is for "{PLACEHOLDER_NAME}": '
              "put your name in content/profile.yaml and content/site.yaml")
    print("next steps:")
    print(f"  cd {directory}")
    print("  sitegen serve          # preview at http://127.0.0.1:8000/, reloads on every change")
    print("  edit content/profile.yaml and content/records/, then push to GitHub;")
    print("  README.md says how to turn on GitHub Pages")


# --------------------------------------------------------------------------
# Guesses made from the name and the folder
# --------------------------------------------------------------------------


def guess_facts(directory: Path, name: str | None) -> SiteFacts:
    """Fill in what the templates need; every guess is shown to the owner to correct."""
    folder = directory.resolve().name
    username, repository = guess_github(folder, name)
    if repository.lower() == f"{username}.github.io":
        base_url = f"https://{username}.github.io/"
    else:
        base_url = f"https://{username}.github.io/{repository}/"
    return SiteFacts(
        name=name or PLACEHOLDER_NAME,
        placeholder=name is None,
        username=username,
        repository=repository,
        base_url=base_url,
        name_variants=initials_variants(name) if name else (),
        sitegen_version=__version__,
        requirement=sitegen_requirement(__version__),
    )


def guess_github(folder: str, name: str | None) -> tuple[str, str]:
    """(user name, repository name): a folder `<user>.github.io` names both, else slugs."""
    match = re.fullmatch(r"([A-Za-z0-9-]+)\.github\.io", folder, flags=re.IGNORECASE)
    if match:
        return match.group(1).lower(), folder.lower()
    username = slugify(name or "") or PLACEHOLDER_USERNAME
    return username, slugify(folder) or "website"


def slugify(text: str) -> str:
    """ASCII, lower case, words joined by '-': 'Lena Müller' -> 'lena-muller'."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def initials_variants(name: str) -> tuple[str, ...]:
    """'Ada Lovelace' -> ('A. Lovelace',): the form many author lists use."""
    parts = name.split()
    if len(parts) < 2 or not all(part[0].isalpha() for part in parts):
        return ()
    initials = " ".join(f"{part[0]}." for part in parts[:-1])
    return (f"{initials} {parts[-1]}",)


def sitegen_requirement(version: str) -> str:
    """`sitegen-profiles~=X.Y.Z`: the bug-fix releases of the version that made the site.

    The distribution is `sitegen-profiles` (the command is still `sitegen`): the
    name `sitegen` on PyPI belongs to an unrelated, older project.
    """
    release = re.match(r"\d+(\.\d+)*", version)
    numbers = (release.group(0) if release else "0.1.0").split(".")
    numbers = (numbers + ["0", "0"])[:3]
    return f"{DISTRIBUTION}~={'.'.join(numbers)}"


# --------------------------------------------------------------------------
# The skeleton
# --------------------------------------------------------------------------


def skeleton_files() -> list[SkeletonFile]:
    """Every file of the skeleton, with the path it gets in the new site."""
    root = resources.files("sitegen").joinpath(SKELETON)
    files: list[SkeletonFile] = []

    def walk(folder: Traversable, parts: tuple[str, ...]) -> None:
        for entry in folder.iterdir():
            if entry.name == "__pycache__" or entry.name.endswith((".pyc", "~")):
                continue
            if entry.is_dir():
                walk(entry, (*parts, entry.name))
            else:
                files.append(_skeleton_file(entry, (*parts, entry.name)))

    walk(root, ())
    return sorted(files, key=lambda f: f.target.as_posix())


def _skeleton_file(source: Traversable, parts: tuple[str, ...]) -> SkeletonFile:
    template = parts[-1].endswith(TEMPLATE_SUFFIX)
    if template:
        parts = (*parts[:-1], parts[-1][: -len(TEMPLATE_SUFFIX)])
    return SkeletonFile(source, PurePosixPath(*(target_name(part) for part in parts)), template)


def target_name(part: str) -> str:
    """`dot-github` -> `.github` (see the module's docstring for why)."""
    return "." + part[len(DOT_PREFIX):] if part.startswith(DOT_PREFIX) else part


def render_skeleton(facts: SiteFacts) -> dict[PurePosixPath, bytes]:
    """{path in the new site: bytes} for every skeleton file, rendered in memory."""
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)
    environment.filters["yaml"] = yaml_string
    values = asdict(facts)
    rendered: dict[PurePosixPath, bytes] = {}
    for file in skeleton_files():
        data = file.source.read_bytes()
        if file.template:
            data = environment.from_string(data.decode("utf-8")).render(values).encode("utf-8")
        rendered[file.target] = data
    return rendered


def yaml_string(value: object) -> str:
    """A YAML scalar that reads back as exactly this string, whatever it holds (quotes, colons, #)."""
    return json.dumps(str(value), ensure_ascii=False)
