"""`sitegen init DIR [--name "Full Name" | --lab "Lab Name"] [--force]`: a new site that builds at
once and deploys to GitHub Pages when pushed; with --lab, a lab's (SPEC §9): profile.yaml is the
lab (no arXiv search for its name), and content/people/ holds a sample member.

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

`requirements.txt` must name a sitegen that pip can install on GitHub's runner,
or the new site's first deployment fails. The line is chosen from how this
sitegen was installed, as pip recorded it (PEP 610's `direct_url.json`): a
package index gives the release, Git gives the repository and the exact commit;
a folder or a file on this machine cannot be reached from GitHub, so init says
so and prints the line to write instead.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import subprocess
import sys
import textwrap
import unicodedata
import urllib.parse
import urllib.request
from collections.abc import Collection
from dataclasses import asdict, dataclass, replace
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

import jinja2

from sitegen import __version__
from sitegen.errors import ExitStatus, Location, Problem, SitegenError
from sitegen.migrate import Imported, read_old_site
from sitegen.theme import FALLBACK_LANGUAGE, language_fallbacks
from sitegen.urls import ASCII_SPELLING
from sitegen.validate import language_tag_problem

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable  # Python 3.11+; importlib.abc before

SKELETON = "skeleton"
LAB_ONLY = PurePosixPath("content/people")  # skeleton files written for a lab's site (--lab) alone
SAMPLE_MEMBER = "Ada Lovelace"
SAMPLE_MEMBER_FILE = LAB_ONLY / "lovelace.yaml"
TEMPLATE_SUFFIX = ".tmpl"
DOT_PREFIX = "dot-"
PLACEHOLDER_NAME = "Your Name"
PLACEHOLDER_USERNAME = "your-username"
X_HANDLE_LENGTH = 15  # X's limit for a user name
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
    release_line: str  # X.Y.Z of sitegen_version, for `~=` in the comments of requirements.txt
    requirement: str  # the line of requirements.txt that installs sitegen
    requirement_comment: str  # comment lines above it: where that sitegen comes from
    # what `--from` brought over from a site kept with another tool ("" and () when nothing)
    position: str = ""
    affiliation: str = ""
    email: str = ""
    photo: str = ""
    links: tuple[tuple[str, str], ...] = ()
    bio: str = ""
    lab: bool = False  # --lab: profile.yaml is a lab, its people in content/people/ (the skeleton's are written)
    sample_member: str = ""  # with --lab: the sample person of content/people/, the author of the sample records
    verification: tuple[tuple[str, str], ...] = ()  # site.yaml's search engines' codes (engine, code), from --from
    cname: str = ""  # site.yaml's custom domain, from --from (the old site's file CNAME)
    giscus: tuple[tuple[str, str], ...] = ()  # site.yaml's `comments: {giscus: ...}` settings (name, value), from --from
    language: str = "en"  # --language: the pages' language (site.yaml's `language`)
    branch: str = "main"  # the branch pages.yml deploys: a clone's default branch, else main
    from_clone: bool = False  # init in a clone of the site's GitHub repository: username, repository, branch are Git's

    @property
    def name_has_latin_letters(self) -> bool:
        """'Lena Müller' has, '山田 太郎' and 'Иван Петров' have not: arXiv's author lists print names in Latin letters,
        so a name search for those finds nothing of theirs."""
        return bool(re.search("[A-Za-z]", unicodedata.normalize("NFKD", self.name.translate(ASCII_SPELLING))))

    @property
    def social_handle(self) -> str:
        """The user name guessed for X and Mastodon, whose own users' names hold no '-' ('lena_muller'; X's at most
        15 characters): a guess with a hyphen would give no `twitter:creator`."""
        return self.username.replace("-", "_")[:X_HANDLE_LENGTH].rstrip("_")

    @property
    def preview_address(self) -> str:
        """Where `sitegen serve` shows the site: its path under base_url, as the server serves it."""
        return "http://127.0.0.1:8000" + (urllib.parse.urlsplit(self.base_url).path or "/")


@dataclass(frozen=True)
class SitegenRequirement:
    """The line of requirements.txt that installs sitegen, and whether GitHub's runner can install it."""

    line: str
    origin: str  # where this sitegen came from and what the line does about it, for the comment above the line
    warning: tuple[str, ...] = ()  # said by init when the runner cannot install `line`: why, and what to write instead


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
    lab_name = getattr(args, "lab", None)
    if lab_name is not None and (args.name is not None or args.source is not None):
        other = "--name" if args.name is not None else "--from"
        print(f"sitegen init: error: --lab and {other} do not go together: --lab names the lab (its people go in content/people/)", file=sys.stderr)
        return ExitStatus.USAGE
    try:
        name = clean_name(lab_name if lab_name is not None else args.name)
    except ValueError as error:
        option = "--lab" if lab_name is not None else "--name"
        print(f"sitegen init: error: {option}: {error}", file=sys.stderr)
        return ExitStatus.USAGE
    language = getattr(args, "language", None) or "en"
    if problem := language_tag_problem(language):
        print(f"sitegen init: error: --language: {problem}", file=sys.stderr)
        return ExitStatus.USAGE
    if directory.exists() and not directory.is_dir():
        raise SitegenError(f"{directory}: exists and is not a folder")
    requirement = requirement_for_this_sitegen(directory / "requirements.txt")
    imported = read_old_site(args.source) if args.source is not None else None
    facts = guess_facts(directory, name or (imported.name if imported else None) or None, requirement, lab=lab_name is not None)
    if imported:
        facts = with_imported(facts, imported)  # its address too: the preview is at its path (serve's)
    rendered = render_skeleton(replace(facts, language=language))
    if imported:
        rendered = {path: data for path, data in rendered.items() if not _sample_of_no_use(path, imported)}
        rendered.update(imported.files)
    notes, merged = owners_files(directory, rendered)
    refuse_to_overwrite(directory, rendered, force=args.force, merged=merged)
    write_files(directory, rendered)
    report(directory, rendered, facts, notes)
    if imported:
        report_imported(args.source, imported)
    for line in requirement.warning:
        print(line, file=sys.stderr)
    if untranslated := untranslated_warning(language):
        print(untranslated, file=sys.stderr)
    return ExitStatus.OK


def untranslated_warning(language: str) -> str:
    """What a site in a language the bundled default theme has no strings for should know at once (else ''): its pages
    show English words, and every build warns, which fails the pull-request check's `--strict`."""
    folder = resources.files("sitegen") / "themes" / "default" / "i18n"
    has = sorted(item.name.rsplit(".", 1)[0] for item in folder.iterdir() if item.name.endswith(".yaml"))
    if language.split("-")[0].lower() == FALLBACK_LANGUAGE or any(tag.lower() in {name.lower() for name in has} for tag in language_fallbacks(language)[1:]):
        return ""
    return (
        f"warning: the default theme has no strings in '{language}' (it has {', '.join(has)}): the pages show its English"
        f" words, and every build warns so, which makes the pull-request check (sitegen check --strict) fail, until you"
        f" write themes/default/i18n/{language}.yaml (docs/themes.md, Translations)"
    )


# the skeleton's sample About page ("Write about your research here"): a site brought over has its bio already
SAMPLE_PAGE = PurePosixPath("content/pages/about.md")


def _sample_of_no_use(path: PurePosixPath, imported: Imported) -> bool:
    """A sample file of the skeleton that a site brought over would publish in place of its own content: the
    sample records once it has records, the sample About page."""
    return (bool(imported.records) and path.parent.name == "records") or path == SAMPLE_PAGE


def with_imported(facts: SiteFacts, imported: Imported) -> SiteFacts:
    """The facts with what another tool's site said about its owner (and its address, kept)."""
    return replace(
        facts,
        base_url=imported.base_url or facts.base_url,
        name_variants=tuple(dict.fromkeys((*imported.name_variants, *facts.name_variants))),
        position=imported.position,
        affiliation=imported.affiliation,
        email=imported.email,
        photo=imported.photo,
        links=tuple(imported.links.items()),
        bio=imported.bio,
        verification=tuple(imported.verification.items()),
        giscus=tuple(imported.giscus.items()),
        cname=imported.cname,
    )


def report_imported(source: Path, imported: Imported) -> None:
    """What `--from` brought over, and what is left for the owner to do."""
    kinds = {
        "records": "content/records/",
        "posts": "content/posts/",
        "news": "content/news/",
        "talks": "content/talks/",
        "people": "content/people/",
        "pages": "content/pages/",
        "projects": "content/projects/",
        "static": "static/",
    }
    counts = {kind: sum(1 for path in imported.files if path.parts[:2] == ("content", kind) or path.parts[0] == kind) for kind in kinds}
    brought = "".join(f", {kinds[kind]} ({count} file{'s' if count > 1 else ''})" for kind, count in counts.items() if count)
    print(f"brought over from the {imported.tool} site in {source}: content/profile.yaml{brought}")
    for line in imported.left:
        print(f"note: {line}")


def clean_name(name: str | None) -> str | None:
    """The --name as given, trimmed; None when none was given."""
    if name is None:
        return None
    name = " ".join(name.split())
    if not name:
        raise ValueError('is empty; give the full name, e.g. --name "Ada Lovelace"')
    if any(unicodedata.category(char) == "Cc" for char in name):
        raise ValueError("holds control characters")
    return name


# Files a repository made on GitHub may start with, which are the owner's: their README is kept (sitegen's guide
# is not written over it), and the lines sitegen's .gitignore needs are added to theirs.
README = PurePosixPath("README.md")
GITIGNORE = PurePosixPath(".gitignore")


def owners_files(directory: Path, rendered: dict[PurePosixPath, bytes]) -> tuple[list[str], set[PurePosixPath]]:
    """Take out of `rendered` the owner's files that init does not overwrite, even with --force: a README.md
    of theirs (kept), a .gitignore of theirs (with the lines of sitegen's it lacks added, or left alone when it
    has them all). Returns notes on what was done, for the report, and the files changed on purpose."""
    notes: list[str] = []
    merged_files: set[PurePosixPath] = set()
    readme = directory / README  # one as init wrote it is init's: written again
    if README in rendered and readme.is_file() and not readme.is_symlink() and not same_text(readme.read_bytes(), rendered[README]):
        notes.append(f"{readme} is yours and was kept (sitegen's guide for the site's owner was not written)")
        del rendered[README]
    ignore = directory / GITIGNORE
    if GITIGNORE in rendered and ignore.is_file() and not ignore.is_symlink():
        theirs = ignore.read_bytes()
        merged = merged_gitignore(theirs, rendered[GITIGNORE])
        if merged is None:
            del rendered[GITIGNORE]
        else:
            rendered[GITIGNORE] = merged
            merged_files.add(GITIGNORE)
            added = ", ".join(ignored_patterns(merged[len(theirs) :]))
            notes.append(f"{ignore} is yours: the lines sitegen needs ({added}) were added at its end")
    return notes, merged_files


def merged_gitignore(theirs: bytes, ours: bytes) -> bytes | None:
    """The owner's .gitignore with the patterns of sitegen's that it lacks added at its end (under sitegen's
    comments); None when it has them all. A pattern counts as there with or without its trailing '/'
    (`.venv` ignores the folder `.venv/` too) and with a leading '/'."""

    def key(line: str) -> str:
        return line.strip().strip("/")

    present = {key(line) for line in ignored_patterns(theirs)}
    added: list[str] = []
    groups: list[tuple[list[str], list[str]]] = [([], [])]  # (comment lines, the patterns below them)
    for line in ours.decode("utf-8").splitlines():
        if line.startswith("#") and groups[-1][1]:
            groups.append(([], []))
        if line.startswith("#"):
            groups[-1][0].append(line)
        elif line.strip():
            groups[-1][1].append(line)
    for comments, patterns in groups:
        if missing := [line for line in patterns if key(line) not in present]:
            added += [*comments, *missing]
    if not added:
        return None
    separator = b"" if theirs.endswith(b"\n") or not theirs else b"\n"
    return theirs + separator + b"\n# Added by `sitegen init`.\n" + "\n".join(added).encode("utf-8") + b"\n"


def ignored_patterns(text: bytes) -> list[str]:
    """The patterns of a .gitignore's text: its lines but for comments and blank ones."""
    return [line.strip() for line in text.decode("utf-8", "replace").splitlines() if line.strip() and not line.lstrip().startswith("#")]


def refuse_to_overwrite(directory: Path, rendered: dict[PurePosixPath, bytes], force: bool, merged: Collection[PurePosixPath] = ()) -> None:
    """Stop before writing anything if a file to write exists with other bytes than init's (even with --force: a
    folder or file in the way). A file that holds what init would write, or the owner's that init adds to
    (`merged`), is no obstacle; each that is, is named on a line of its own."""
    targets = {directory / target: target for target in rendered}
    paths = list(targets)
    existing = [path for path in paths if path.exists() or path.is_symlink()]
    in_the_way = {path for path in existing if path.is_dir()}
    in_the_way |= {folder for path in paths for folder in path.parents if folder.is_relative_to(directory) and folder.exists() and not folder.is_dir()}
    if in_the_way:
        where = "a folder where a file goes, or a file where a folder goes"
        raise SitegenError(
            [Problem(f"in the way of the site's files ({where})", Location(str(path))) for path in sorted(in_the_way)] + [Problem("nothing was written")]
        )
    different = [path for path in existing if path.is_symlink() or (targets[path] not in merged and not same_text(path.read_bytes(), rendered[targets[path]]))]
    if different and not force:
        these = "these files" if len(different) > 1 else "it"
        raise SitegenError(
            [Problem("exists, with other content than init writes", Location(str(path))) for path in different]
            + [Problem(f"nothing was written: move {these} away, or use --force to overwrite {'them' if len(different) > 1 else 'it'}")]
        )


def same_text(existing: bytes, ours: bytes) -> bool:
    """Does a file hold what init writes, its line ends aside? Git for Windows (core.autocrlf) checks out with CRLF
    the files init wrote with LF: they are still init's, and the same to Git."""
    return existing == ours or (b"\r" not in ours and b"\x00" not in ours and existing.replace(b"\r\n", b"\n") == ours)


def write_files(directory: Path, rendered: dict[PurePosixPath, bytes]) -> None:
    """Write each file beside its target first, then rename it in place: no half-written file. A file that holds
    what init writes already (in Windows' line ends, too) is left as it is."""
    for relative, data in rendered.items():
        path = directory / relative
        if path.is_file() and not path.is_symlink() and same_text(path.read_bytes(), data):
            continue
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, path)
        except OSError as error:
            if temporary.parent.is_dir():
                temporary.unlink(missing_ok=True)
            raise SitegenError(f"{path}: cannot write: {error.strerror or error}") from error


def report(directory: Path, rendered: dict[PurePosixPath, bytes], facts: SiteFacts, notes: list[str] | None = None) -> None:
    print(f"created a sitegen site for {facts.name} in {directory}/ ({len(rendered)} files)")
    if facts.placeholder:
        print(f'note: no --name given, so the site is for "{PLACEHOLDER_NAME}": put your name in content/profile.yaml and content/site.yaml')
    if facts.lab:
        print(f"note: a lab's site: a file per person in content/people/ ({SAMPLE_MEMBER_FILE.name} is a sample member); content/profile.yaml is the lab")
    for note in notes or ():
        print(f"note: {note}")
    print("next steps:")
    if directory.resolve() != Path.cwd().resolve():  # `sitegen init .` is there already
        print(f"  cd {directory}")
    print(f"  sitegen serve          # preview at {facts.preview_address}, reloads on every change")
    print(f"  edit content/profile.yaml{', content/people/' if facts.lab else ''} and content/records/, then push to GitHub;")
    if README in rendered:
        print("  README.md says how to turn on GitHub Pages")
    else:
        print("  on GitHub, choose Settings -> Pages -> Source: GitHub Actions (docs/deploying.md of sitegen has the steps)")


# --------------------------------------------------------------------------
# Guesses made from the name and the folder
# --------------------------------------------------------------------------


def guess_facts(directory: Path, name: str | None, requirement: SitegenRequirement | None = None, lab: bool = False) -> SiteFacts:
    """Fill in what the templates need; every guess is shown to the owner to correct. A lab (`lab`) is no
    author: its name has no variants (the sample member's name is the sample records' author)."""
    requirement = requirement or SitegenRequirement(release_requirement(__version__), "a package index.")
    folder = directory.resolve().name
    username, repository = guess_github(folder, name)
    clone = github_clone(directory)
    if clone is not None:  # `sitegen init .` in a clone of the site's repository: its owner, name and branch
        username, repository = clone.owner, clone.repository
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
        name_variants=initials_variants(name) if name and not lab else (),
        sitegen_version=__version__,
        release_line=release_numbers(__version__),
        requirement=requirement.line,
        requirement_comment=wrap_comment(f"This sitegen was installed from {requirement.origin}"),
        lab=lab,
        sample_member=SAMPLE_MEMBER if lab else "",
        branch=clone.branch if clone is not None else "main",
        from_clone=clone is not None,
    )


@dataclass(frozen=True)
class GitHubClone:
    owner: str  # lower case, as in <owner>.github.io
    repository: str
    branch: str  # the default branch (origin's HEAD), else the branch checked out


_BRANCH_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")  # written into pages.yml's `branches: [...]` as it is


def github_clone(directory: Path) -> GitHubClone | None:
    """What Git knows when `directory` is the top of a clone of a GitHub repository (`sitegen init .` in a repository
    just made on GitHub); None for any other folder, a new folder inside another repository included."""
    if not directory.is_dir():
        return None
    top = git_output(directory, "rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != directory.resolve():
        return None
    remotes = (git_output(directory, "remote") or "").split()
    remote = "origin" if "origin" in remotes else (remotes[0] if len(remotes) == 1 else None)
    url = public_url(git_output(directory, "remote", "get-url", remote) or "") if remote else None
    match = re.fullmatch(r"https://github\.com/([A-Za-z0-9-]+)/([A-Za-z0-9._-]+?)(?:\.git)?/?", url or "")
    if match is None:
        return None
    default = git_output(directory, "symbolic-ref", "--quiet", "--short", f"refs/remotes/{remote}/HEAD") or ""
    branch = default.removeprefix(f"{remote}/") if default else git_output(directory, "symbolic-ref", "--quiet", "--short", "HEAD") or ""
    return GitHubClone(match.group(1).lower(), match.group(2), branch if _BRANCH_NAME.fullmatch(branch) else "main")


def guess_github(folder: str, name: str | None) -> tuple[str, str]:
    """(user name, repository name): a folder `<user>.github.io` names both, else slugs."""
    match = re.fullmatch(rf"([A-Za-z0-9-]{{1,{GITHUB_USER_LENGTH}}})\.github\.io", folder, flags=re.IGNORECASE)
    if match:
        return match.group(1).lower(), folder.lower()
    username = _cut_at_word(github_name(name or ""), GITHUB_USER_LENGTH) or PLACEHOLDER_USERNAME
    return username, github_name(folder) or "website"


GITHUB_USER_LENGTH = 39  # GitHub's longest user name: the guessed host <user>.github.io stays a valid one (63 at most)


def _cut_at_word(name: str, limit: int) -> str:
    """`name` ('lena-muller') at most `limit` characters long, cut after a whole word when it has several."""
    if len(name) <= limit:
        return name
    cut = name[: limit + 1].rpartition("-")[0]  # the words that end before the limit
    return (cut or name[:limit]).strip("-")


def github_name(text: str) -> str:
    """A GitHub user or repository name made of a person's name or a folder's: ASCII, lower case,
    words joined by '-' ('Lena Müller' -> 'lena-muller'). Not a page slug (sitegen.urls.slugify),
    which keeps case and may not drop a character: two ids must never share a folder."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(ASCII_SPELLING)).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def initials_variants(name: str) -> tuple[str, ...]:
    """'Ada Lovelace' -> ('A. Lovelace',): the form many author lists use. A name in letters without capitals
    (Chinese, Japanese, Arabic: '山田 太郎', 'محمد الخوارزمي') has no initials: none ('山. 太郎' was written)."""
    parts = name.split()
    if len(parts) < 2 or not all(part[0].isalpha() and part[0].upper() != part[0].lower() for part in parts):
        return ()
    initials = " ".join(f"{part[0]}." for part in parts[:-1])
    return (f"{initials} {parts[-1]}",)


# --------------------------------------------------------------------------
# The sitegen that the site's workflows install
# --------------------------------------------------------------------------

PLACEHOLDER_REPOSITORY = "https://github.com/OWNER/REPOSITORY"


def release_numbers(version: str) -> str:
    """'0.1.0' of '0.1.0', '0.1' or '0.1.0.dev3+g1234': the release a version belongs to."""
    release = re.match(r"\d+(\.\d+)*", version)
    numbers = (release.group(0) if release else "0.1.0").split(".")
    return ".".join((numbers + ["0", "0"])[:3])


def release_requirement(version: str) -> str:
    """`sitegen-profiles~=X.Y.Z`: the bug-fix releases of the version that made the site.

    The distribution is `sitegen-profiles` (the command is still `sitegen`): the
    name `sitegen` on PyPI belongs to an unrelated, older project.
    """
    return f"{DISTRIBUTION}~={release_numbers(version)}"


def requirement_for_this_sitegen(requirements_file: Path) -> SitegenRequirement:
    """What requirements.txt should say to install, on GitHub's runner, the sitegen running now.

    pip writes `direct_url.json` (PEP 610) into the installed distribution when
    it installed from a URL, a file or a folder, and none when it took a release
    from a package index.
    """
    distribution = installed_distribution()
    if distribution is None:
        folder = Path(__file__).resolve().parent.parent
        return unreachable(requirements_file, f"the folder {folder} (not installed: run from its source)", folder)
    text = distribution.read_text("direct_url.json")
    if text is None:
        return SitegenRequirement(release_requirement(__version__), f"a package index, as release {__version__}: the line allows its bug-fix releases.")
    try:
        direct_url = json.loads(text)
        url = direct_url["url"]
    except (ValueError, KeyError, TypeError):
        return unreachable(requirements_file, "a place pip did not record readably (direct_url.json)")
    return requirement_from_direct_url(direct_url, url, requirements_file)


def installed_distribution() -> importlib.metadata.Distribution | None:
    """sitegen's installed distribution: the first one an installer recorded (its INSTALLER file).

    Run from a source folder, the current folder comes first on the path, and a
    `sitegen_profiles.egg-info` left there by a build would be found before the
    real install, without pip's record of where that came from.
    """
    found = list(importlib.metadata.distributions(name=DISTRIBUTION))
    recorded = [distribution for distribution in found if distribution.read_text("INSTALLER") is not None]
    candidates = recorded or found
    return candidates[0] if candidates else None


def requirement_from_direct_url(direct_url: dict, url: str, requirements_file: Path) -> SitegenRequirement:
    """The line for each kind of PEP 610 record: `vcs_info`, `archive_info` or `dir_info`."""
    local = urllib.parse.urlsplit(url).scheme == "file"
    path = Path(urllib.request.url2pathname(urllib.parse.urlsplit(url).path)) if local else None
    subdirectory = f"#subdirectory={direct_url['subdirectory']}" if direct_url.get("subdirectory") else ""
    if "vcs_info" in direct_url:
        vcs = direct_url["vcs_info"]
        commit = vcs.get("commit_id", "")
        line = f"{vcs.get('vcs', 'git')}+{url}@{commit}{subdirectory}"
        if not local:  # pip before 24.1 refuses `name @ git+file:///...` (a URL without a host), not the bare URL
            line = f"{DISTRIBUTION} @ {line}"
        requested = vcs.get("requested_revision")
        named = f" ({requested})" if requested and requested != commit else ""
        if path is None:  # not a repository on this machine
            return SitegenRequirement(line, f"Git, {url} at commit {commit}{named}: the line installs that commit.")
        origin = f"the Git repository {path} on this machine"
        return SitegenRequirement(
            line,
            f"{origin}, at commit {commit}{named}, which GitHub Actions cannot reach.",
            unreachable_warning(
                origin, f"{requirements_file} names it as installed: {line}", requirements_file, suggested_git_line(path, commit, subdirectory)
            ),
        )
    if "archive_info" in direct_url:
        if not local:
            hashes = direct_url["archive_info"].get("hashes") or {}
            fragment = f"#sha256={hashes['sha256']}" if "sha256" in hashes else ""
            return SitegenRequirement(f"{DISTRIBUTION} @ {url}{fragment}", f"{url}: the line installs that file.")
        return unreachable(requirements_file, f"the file {path}")
    editable = " (editable)" if (direct_url.get("dir_info") or {}).get("editable") else ""
    if local:
        return unreachable(requirements_file, f"the folder {path}{editable}", path)
    return unreachable(requirements_file, url)


def unreachable(requirements_file: Path, origin: str, folder: Path | None = None) -> SitegenRequirement:
    """A sitegen the runner cannot install: its release in the file, and a warning with the line to write instead."""
    line = release_requirement(__version__)
    suggestion = (
        suggested_git_line(folder)
        if folder
        else (f"{DISTRIBUTION} @ git+{PLACEHOLDER_REPOSITORY}@COMMIT", "with the repository and commit this sitegen was built from")
    )
    return SitegenRequirement(
        line,
        f"{origin}, which GitHub Actions cannot reach: the line names its release on PyPI instead.",
        unreachable_warning(
            origin, f"{requirements_file} names {line}, which pip can install only once that release is on PyPI.", requirements_file, suggestion
        ),
    )


def unreachable_warning(origin: str, what_was_written: str, requirements_file: Path, suggestion: tuple[str, str | None]) -> tuple[str, ...]:
    """init's warning: where this sitegen came from, what the file says, and the line to put there."""
    line, condition = suggestion
    return (
        f"warning: this sitegen was installed from {origin}, which GitHub Actions cannot reach: the site's first deployment would fail.",
        f"  {what_was_written}",
        f"  To deploy with this sitegen, put this line in {requirements_file} instead" + (f" ({condition}):" if condition else ":"),
        f"    {line}",
    )


def suggested_git_line(folder: Path, commit: str | None = None, subdirectory: str = "") -> tuple[str, str | None]:
    """`sitegen-profiles @ git+<the folder's remote>@<commit>` as far as Git knows them, and what must hold first.

    The remote is `origin` (or the only one), written so that a runner can fetch
    it anonymously (https, without a user or token); what Git cannot tell stays
    a placeholder (OWNER/REPOSITORY, COMMIT).
    """
    commit = commit or git_output(folder, "rev-parse", "HEAD")
    remotes = (git_output(folder, "remote") or "").split()
    remote = "origin" if "origin" in remotes else (remotes[0] if len(remotes) == 1 else None)
    url = public_url(git_output(folder, "remote", "get-url", remote) or "") if remote else None
    line = f"{DISTRIBUTION} @ git+{url or PLACEHOLDER_REPOSITORY}@{commit or 'COMMIT'}{subdirectory}"
    if not commit:
        return line, "with the repository and commit this sitegen was built from"
    if not url:
        return line, f"with the URL of a public repository that holds commit {commit[:12]}"
    if not git_output(folder, "branch", "--remotes", "--contains", commit):
        return line, f"once commit {commit[:12]} is pushed to {url}"
    return line, None


def public_url(remote: str) -> str | None:
    """An https URL of a Git remote, without credentials; None for a remote on this machine."""
    scp_like = re.fullmatch(r"[\w.-]+@([\w.-]+):(?!//)(.+)", remote)  # git@github.com:owner/repo.git
    if scp_like:
        return f"https://{scp_like.group(1)}/{scp_like.group(2)}"
    parts = urllib.parse.urlsplit(remote)
    if parts.scheme not in ("https", "http", "ssh", "git") or not parts.hostname:
        return None
    host = parts.hostname + (f":{parts.port}" if parts.port and parts.scheme in ("https", "http") else "")
    return urllib.parse.urlunsplit(("https", host, parts.path, "", ""))


def git_output(folder: Path, *args: str) -> str | None:
    """What `git -C folder ARGS` prints, stripped; None when git is missing or fails."""
    try:
        result = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return result.stdout.strip() if result.returncode == 0 else None


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
    return "." + part[len(DOT_PREFIX) :] if part.startswith(DOT_PREFIX) else part


def render_skeleton(facts: SiteFacts) -> dict[PurePosixPath, bytes]:
    """{path in the new site: bytes} for every skeleton file, rendered in memory."""
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False)
    environment.filters["yaml"] = yaml_string
    values = {
        **asdict(facts),
        "preview_address": facts.preview_address,
        "social_handle": facts.social_handle,
        "name_has_latin_letters": facts.name_has_latin_letters,
        "sample": sample_text(facts.language, facts.name),
    }
    rendered: dict[PurePosixPath, bytes] = {}
    for file in skeleton_files():
        if not facts.lab and file.target.is_relative_to(LAB_ONLY):
            continue
        data = file.source.read_bytes()
        if file.template:
            data = environment.from_string(data.decode("utf-8")).render(values).encode("utf-8")
        if file.target == PAGES_WORKFLOW:  # GitHub's ${{ }} in it: no template, one line to change
            data = _deploying_branch(data, facts.branch)
        rendered[file.target] = data
    return rendered


SAMPLE_TEXT = "sample_text"  # sitegen/sample_text/<language>.yaml: the skeleton's text that pages show


def sample_text(language: str, name: str) -> dict[str, str]:
    """The skeleton's sample text the new site's pages show (the bio, the About page, the site's
    description, a lab's sample member) in its language, the most
    specific one sitegen has ('zh-Hant' -> zh), else English; `{name}` is the profile's name."""
    import yaml

    folder = resources.files("sitegen").joinpath(SAMPLE_TEXT)
    text: dict[str, str] = {}
    for tag in language_fallbacks(language):  # English first, each more specific language over it
        file = folder.joinpath(f"{tag.lower()}.yaml")
        if file.is_file():
            text.update(yaml.safe_load(file.read_text(encoding="utf-8")))
    return {key: str(value).replace("{name}", name) for key, value in text.items()}


PAGES_WORKFLOW = PurePosixPath(".github/workflows/pages.yml")
_PUSH_BRANCHES = b"    branches: [main]  # your default branch: change it if yours has another name (e.g. master)\n"


def _deploying_branch(workflow: bytes, branch: str) -> bytes:
    """pages.yml deploying pushes to `branch`."""
    if branch == "main":
        return workflow
    assert workflow.count(_PUSH_BRANCHES) == 1, "pages.yml: the line of its push branches changed"
    line = f"    branches: [{json.dumps(branch)}]  # the repository's default branch: change it if that changes\n".encode()
    return workflow.replace(_PUSH_BRANCHES, line)


def wrap_comment(text: str) -> str:
    """Text as `# ` comment lines of at most 80 characters (a long URL or path keeps its own line)."""
    return "\n".join(f"# {line}" for line in textwrap.wrap(text, 78, break_long_words=False, break_on_hyphens=False))


def yaml_string(value: object) -> str:
    """A YAML scalar that reads back as exactly this string, whatever it holds (quotes, colons, #)."""
    return json.dumps(str(value), ensure_ascii=False)
