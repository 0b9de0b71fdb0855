"""`sitegen fetch`: pull records from arXiv into `content/records/arxiv/`.

Three phases, so that a failure or an interrupt never leaves a half-updated site:

1. fetch  every source (names, ids, author feeds) into memory; any error stops
          here and nothing is written;
2. plan   one YAML text per record, validated by the same code as hand-written
          records; decide per file: create, update, keep, remove, or leave
          alone because a person wrote or edited it;
3. commit write changed files only (temp file + os.replace), with SIGINT and
          SIGTERM held back until the last rename.

Files fetch writes carry a checksum line. A file in `records/arxiv/` without it,
or whose text no longer matches it, was written or edited by a person, and
fetch never overwrites or removes it. Records excluded by profile.yaml are not
written, and their earlier fetched files are removed (the build leaves them
out anyway). Files of records that arXiv did not return this time are kept,
unless `--prune` is given: an empty answer must not wipe a site.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import re
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import yaml

from sitegen import __version__
from sitegen.cli import ENV_API_URL
from sitegen.errors import ExitStatus, Problem
from sitegen.model import ArxivSources, Profile

if TYPE_CHECKING:
    from arxiv import Result

    from sitegen.arxiv_source import ArxivSource

FETCHED_DIR = Path("content") / "records" / "arxiv"
HEADER = "# Fetched from arXiv by sitegen; edit a copy outside records/arxiv/ to override fields.\n"
CHECKSUM_PREFIX = "# sitegen-checksum: sha256:"
PROJECT_URL = "https://pypi.org/project/sitegen-profiles/"
EXIT_INTERRUPTED = 130
_UNSAFE_SLUG = re.compile(r"[^A-Za-z0-9._-]")


class UsageError(Exception):
    """The command line is wrong: exit status 2."""


class InterruptedAfterCommit(KeyboardInterrupt):
    """Ctrl-C or SIGTERM arrived while writing; the writing was finished first."""


# --------------------------------------------------------------------------
# Sources and filters
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Sources:
    """What to ask arXiv for, and what to keep of the answer."""

    authors: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    author_ids: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()  # restrict the query and the results
    exclude: ArxivSources = field(default_factory=ArxivSources)  # profile.yaml filters, always applied
    from_profile: bool = False

    def describe(self) -> str:
        parts = [f'au:"{a}"' for a in self.authors] + list(self.ids) + [f"author {a}" for a in self.author_ids]
        return ", ".join(parts)


def choose_sources(args: argparse.Namespace, profile: Profile | None) -> Sources:
    """Options win; with none of --author/--id/--author-id, profile.yaml's sources apply."""
    configured = profile.arxiv if profile else ArxivSources()
    ids = tuple(i.strip() for value in args.id for i in value.split(",") if i.strip())
    authors = tuple(a.strip() for a in args.author if a.strip())
    author_ids = tuple(a.strip() for a in args.author_id if a.strip())
    for author_id in author_ids:
        check_author_id(author_id, "--author-id")
    categories = tuple(c.strip() for c in args.category if c.strip())
    if authors or ids or author_ids:
        return Sources(authors, ids, author_ids, categories, configured)
    if configured.empty:
        raise UsageError("nothing to fetch: give --author, --id or --author-id, or list sources under "
                         "'arxiv:' in content/profile.yaml (authors:, ids:, author_ids:)")
    for author_id in configured.author_ids:
        check_author_id(author_id, "content/profile.yaml arxiv.author_ids")
    return Sources(configured.authors, configured.ids, configured.author_ids,
                   categories or configured.categories, configured, from_profile=True)


def check_author_id(author_id: str, where: str) -> None:
    from sitegen.arxiv_source import AUTHOR_ID

    if not AUTHOR_ID.match(author_id):
        raise UsageError(f"{where}: {author_id!r} is not an arXiv author id (like lin_s_1) or an ORCID")


def exclusion_reason(record: dict[str, Any], sources: Sources) -> str | None:
    """Why profile.yaml (or --category) leaves a record out; None when it is kept.

    The same rule as the build's, so that fetch never writes what the site would drop.
    """
    from sitegen.arxiv_source import split_version

    categories = set(record.get("categories") or ())
    excluded_ids = {split_version(i)[0] for i in sources.exclude.exclude_ids}
    if record["id"] in excluded_ids:
        return "exclude_ids"
    hit = sorted(categories & set(sources.exclude.exclude_categories))
    if hit:
        return f"exclude_categories: {', '.join(hit)}"
    for wanted, where in ((sources.exclude.categories, "categories"), (sources.categories, "--category")):
        if wanted and not categories & set(wanted):
            return f"not in {where}: {', '.join(wanted)}"
    return None


# --------------------------------------------------------------------------
# arXiv result -> record
# --------------------------------------------------------------------------


def slug(record_id: str) -> str:
    return _UNSAFE_SLUG.sub("-", record_id)


def record_from_result(result: "Result") -> dict[str, Any]:
    """An arXiv entry as a record mapping (SPEC §2 fields first, then arXiv extras).

    Text is kept as arXiv sends it (LaTeX included); the build converts it.
    """
    from sitegen.arxiv_source import split_version

    bare_id, version = split_version(result.get_short_id())
    categories = list(dict.fromkeys([c for c in [result.primary_category, *result.categories] if c]))
    links = {"abs": f"https://arxiv.org/abs/{bare_id}", "pdf": f"https://arxiv.org/pdf/{bare_id}"}
    if result.doi:
        links["doi"] = f"https://doi.org/{result.doi.strip()}"
    record: dict[str, Any] = {
        "id": bare_id,
        "title": _one_line(result.title),
        "authors": [_one_line(a.name) for a in result.authors if a.name.strip()],
        "year": result.published.year,
        "date": result.published.date(),
        "source": _one_line(result.journal_ref) if result.journal_ref else "arXiv",
        "abstract": _paragraphs(result.summary),
        "categories": categories,
        "links": links,
        "arxiv": bare_id,
    }
    if result.doi:
        record["doi"] = result.doi.strip()
    record["version"] = version or 1
    record["updated"] = result.updated.date()
    if result.comment:
        record["comment"] = _one_line(result.comment)
    if result.journal_ref:
        record["journal_ref"] = _one_line(result.journal_ref)
    affiliations = {_one_line(a.name): [_one_line(x) for x in a.affiliation] for a in result.authors if a.affiliation}
    if affiliations:
        record["affiliations"] = affiliations
    return record


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _paragraphs(text: str) -> str:
    """arXiv wraps abstracts; keep paragraph breaks, drop indentation Markdown would misread."""
    lines = [line.strip() for line in text.strip().splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines))


class _BlockText(str):
    """A string written as a YAML block scalar (`|`), for readable abstracts."""


class _RecordDumper(yaml.SafeDumper):
    """The pure-Python dumper: the same bytes on every machine."""


_RecordDumper.add_representer(
    _BlockText, lambda dumper, value: dumper.represent_scalar("tag:yaml.org,2002:str", str(value), style="|")
)


def render(record: dict[str, Any]) -> str:
    """The file text for a record: header, checksum of the body, YAML body."""
    data = dict(record)
    if data.get("abstract"):
        data["abstract"] = _BlockText(data["abstract"])
    body = yaml.dump(data, Dumper=_RecordDumper, sort_keys=False, allow_unicode=True,
                     width=1_000_000, default_flow_style=False)
    return HEADER + CHECKSUM_PREFIX + _checksum(body) + "\n" + body


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def written_by_fetch(text: str) -> bool:
    """True when the file is exactly as fetch wrote it (its checksum matches)."""
    lines = text.split("\n", 2)
    if len(lines) < 3 or lines[0] + "\n" != HEADER or not lines[1].startswith(CHECKSUM_PREFIX):
        return False
    return lines[1][len(CHECKSUM_PREFIX):] == _checksum(lines[2])


def check_record(text: str, display_path: str) -> list[Problem]:
    """Read the text back and validate it like any record file: one model, one code path."""
    from sitegen.load import parse_yaml
    from sitegen.validate import validate_record

    data, problem = parse_yaml(text, display_path)
    if problem:
        return [problem]
    problems: list[Problem] = []
    validate_record(data, display_path, problems)
    return problems


# --------------------------------------------------------------------------
# Plan and commit
# --------------------------------------------------------------------------


@dataclass
class Plan:
    """What the commit phase will do to `records/arxiv/`, and what it leaves alone."""

    write: dict[Path, str] = field(default_factory=dict)  # new or changed files
    remove: list[Path] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept_stale: list[str] = field(default_factory=list)  # not returned this time, kept
    warnings: list[str] = field(default_factory=list)


def plan_changes(site: Path, kept: dict[str, dict[str, Any]], excluded: dict[str, dict[str, Any]],
                 prune: bool) -> tuple[Plan, list[Problem]]:
    folder = site / FETCHED_DIR
    plan, problems = Plan(), []
    persons = ids_in_persons_files(folder)
    for record_id, record in kept.items():
        path = folder / f"{slug(record_id)}.yaml"
        display = (FETCHED_DIR / path.name).as_posix()
        text = render(record)
        problems.extend(p for p in check_record(text, display) if not p.warning)
        other = persons.get(record_id)
        if other is not None and other != path:
            plan.warnings.append(f"{(FETCHED_DIR / other.name).as_posix()}:1: warning: holds id '{record_id}' and "
                                 "was written by a person, so fetch does not write a second copy")
            continue
        _plan_write(plan, path, display, text)
    returned = {folder / f"{slug(i)}.yaml" for i in [*kept, *excluded]}
    for record_id in excluded:
        path = folder / f"{slug(record_id)}.yaml"
        _plan_remove(plan, path, (FETCHED_DIR / path.name).as_posix(), "it is now excluded by profile.yaml")
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        if path in returned:
            continue
        display = (FETCHED_DIR / path.name).as_posix()
        if prune:
            _plan_remove(plan, path, display, "arXiv did not return it (--prune)")
        else:
            plan.kept_stale.append(display)
    return plan, problems


def ids_in_persons_files(folder: Path) -> dict[str, Path]:
    """Ids held by files in records/arxiv/ that fetch did not write (or that were edited since)."""
    from sitegen.load import parse_yaml

    found: dict[str, Path] = {}
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        text = path.read_text(encoding="utf-8", errors="replace")
        if written_by_fetch(text):
            continue
        data, problem = parse_yaml(text, path.name)
        items = data if isinstance(data, list) else [data]
        for item in items if problem is None else []:
            if isinstance(item, dict) and item.get("id") is not None:
                found.setdefault(str(item["id"]).strip(), path)
    return found


def _plan_write(plan: Plan, path: Path, display: str, text: str) -> None:
    if not path.exists():
        plan.write[path] = text
        plan.created.append(display)
        return
    current = path.read_text(encoding="utf-8", errors="replace")
    if current == text:
        plan.unchanged.append(display)
    elif written_by_fetch(current):
        plan.write[path] = text
        plan.updated.append(display)
    else:
        plan.warnings.append(f"{display}:1: warning: edited by hand, so fetch leaves it as it is; put your "
                             "changes in a file outside records/arxiv/ (your fields win there) and delete this one "
                             "to get arXiv's latest version")


def _plan_remove(plan: Plan, path: Path, display: str, why: str) -> None:
    if not path.exists():
        return
    if written_by_fetch(path.read_text(encoding="utf-8", errors="replace")):
        plan.remove.append(path)
        plan.removed.append(f"{display} ({why})")
    else:
        plan.warnings.append(f"{display}:1: warning: {why}, but it was edited by hand, so fetch leaves it")


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Hold SIGINT/SIGTERM until the block ends, so a commit is never cut in half."""
    received: list[int] = []
    names = [signal.SIGINT, signal.SIGTERM]
    previous = {}
    try:
        for sig in names:
            previous[sig] = signal.signal(sig, lambda number, _frame: received.append(number))
    except ValueError:  # not the main thread: nothing to hold
        previous = {}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if received:
            raise InterruptedAfterCommit


def commit(plan: Plan, folder: Path) -> None:
    """Write every changed file beside its target first, then rename them all in place."""
    if not plan.write and not plan.remove:
        return
    staged: list[tuple[Path, Path]] = []
    with signals_held():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for path, text in sorted(plan.write.items()):
                temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
                with open(temp, "w", encoding="utf-8", newline="\n") as handle:
                    handle.write(text)
                    handle.flush()
                    os.fsync(handle.fileno())
                staged.append((temp, path))
        except BaseException:
            for temp, _ in staged:
                temp.unlink(missing_ok=True)
            raise
        for temp, path in staged:
            os.replace(temp, path)
        for path in plan.remove:
            path.unlink(missing_ok=True)


# --------------------------------------------------------------------------
# Running the command
# --------------------------------------------------------------------------


def api_url(args: argparse.Namespace) -> str:
    """`--api-url`, else $SITEGEN_ARXIV_API, else arXiv's endpoint (SPEC §1)."""
    from sitegen.arxiv_source import DEFAULT_API_URL

    url = args.api_url or os.environ.get(ENV_API_URL, "").strip() or DEFAULT_API_URL
    if not url.startswith(("http://", "https://")):
        raise UsageError(f"--api-url: expected an http:// or https:// URL, got {url!r}")
    return url.split("?", 1)[0]


def user_agent(profile: Profile | None) -> str:
    contact = f"; mailto:{profile.email}" if profile and profile.email else ""
    return f"sitegen/{__version__} (+{PROJECT_URL}{contact})"


def load_profile(site: Path) -> tuple[Profile | None, list[Problem]]:
    from sitegen.load import load_document
    from sitegen.validate import validate_profile

    path = site / "content" / "profile.yaml"
    if not path.is_file():
        return None, []
    document, problem = load_document(path, site)
    if problem or document is None:
        return None, [problem] if problem else []
    problems: list[Problem] = []
    profile = validate_profile(document, problems)
    return profile, [p for p in problems if not p.warning]


def fetch_all(source: "ArxivSource", sources: Sources) -> dict[str, "Result"]:
    """Every result of every source, one per id: the newest version wins."""
    results: list[Result] = []
    if sources.authors:
        from sitegen.arxiv_source import author_query

        results += source.search(author_query(list(sources.authors), list(sources.categories)))
    if sources.ids:
        results += source.by_ids(list(sources.ids))
    for author_id in sources.author_ids:
        results += source.author_feed(author_id)
    return newest_versions(results)


def newest_versions(results: list["Result"]) -> dict[str, "Result"]:
    from sitegen.arxiv_source import split_version

    best: dict[str, tuple[int, Result]] = {}
    for result in results:
        bare_id, version = split_version(result.get_short_id())
        if bare_id not in best or (version or 1) > best[bare_id][0]:
            best[bare_id] = (version or 1, result)
    return {record_id: result for record_id, (_, result) in best.items()}


def run(args: argparse.Namespace) -> int:
    """Run `sitegen fetch`; returns the exit status."""
    site = Path(args.site)
    err = sys.stderr
    try:
        return _run(args, site)
    except UsageError as error:
        print(f"sitegen fetch: error: {error}", file=err)
        return ExitStatus.USAGE
    except InterruptedAfterCommit:
        print("\nsitegen fetch: interrupted after the fetched records were written in full", file=err)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print("\nsitegen fetch: interrupted; content/ is unchanged", file=err)
        return EXIT_INTERRUPTED


def _run(args: argparse.Namespace, site: Path) -> int:
    from sitegen.arxiv_source import ArxivSource, FetchError, Progress, Settings

    if not (site / "content").is_dir():
        print(f"sitegen fetch: error: no content/ folder in {site} (is --site right?)", file=sys.stderr)
        return ExitStatus.CONTENT
    profile, problems = load_profile(site)
    if problems:
        for problem in problems:
            print(problem, file=sys.stderr)
        return ExitStatus.CONTENT
    sources = choose_sources(args, profile)
    settings = Settings(api_url=api_url(args), delay=args.delay, page_size=args.page_size,
                        timeout=args.timeout, retries=args.retries, backoff=args.backoff,
                        user_agent=user_agent(profile))
    progress = Progress()
    started = time.monotonic()
    source = ArxivSource(settings, progress)
    with _terminate_as_interrupt():
        try:
            results = fetch_all(source, sources)
        except FetchError as error:
            progress.done()
            print(f"sitegen fetch: error: {error}; nothing was written", file=sys.stderr)
            return ExitStatus.CONTENT
    progress.done()
    records = {record_id: record_from_result(r) for record_id, r in sorted(results.items())}
    reasons = {record_id: exclusion_reason(record, sources) for record_id, record in records.items()}
    kept = {i: r for i, r in records.items() if not reasons[i]}
    excluded = {i: r for i, r in records.items() if reasons[i]}
    print_review(records, reasons, sources, profile, source.feed_names, always=args.review)
    if args.review:
        print(f"review only: nothing written ({len(kept)} records would be kept, {len(excluded)} excluded)")
        return ExitStatus.OK
    plan, problems = plan_changes(site, kept, excluded, prune=args.prune)
    if problems:
        for problem in problems:
            print(f"{problem} (from {sources.describe()}); nothing was written", file=sys.stderr)
        return ExitStatus.CONTENT
    commit(plan, site / FETCHED_DIR)
    for warning in plan.warnings:
        print(warning, file=sys.stderr)
    print_summary(plan, len(records), len(excluded), source.session.requests_sent, time.monotonic() - started)
    return ExitStatus.OK


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (e.g. a CI job cancelled) stops the fetch like Ctrl-C: nothing written."""

    def interrupt(_number: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def print_review(records: dict[str, dict[str, Any]], reasons: dict[str, str | None], sources: Sources,
                 profile: Profile | None, feed_names: list[str], always: bool) -> None:
    """The disambiguation report: on --review, or whenever records look like several people."""
    from sitegen.disambiguate import Paper, group_papers, report

    papers = [Paper(i, r["title"], tuple(r["authors"]), tuple(r["categories"]), r["year"], reasons[i])
              for i, r in records.items()]
    owner = [*(sources.authors), *feed_names, *((profile.name, *profile.name_variants) if profile else ())]
    groups, is_owner = group_papers(papers, owner)
    if len(groups) < 2 and not always:
        return
    current = {"exclude_categories": sources.exclude.exclude_categories, "exclude_ids": sources.exclude.exclude_ids}
    for line in report(groups, is_owner, current, detailed=always):
        print(line)


def print_summary(plan: Plan, fetched: int, excluded: int, requests_sent: int, seconds: float) -> None:
    print(f"fetched {fetched} records from arXiv in {requests_sent} request{'s' if requests_sent != 1 else ''} "
          f"({seconds:.1f} s); {excluded} excluded by profile.yaml")
    print(f"content/records/arxiv/: {len(plan.created)} new, {len(plan.updated)} updated, "
          f"{len(plan.unchanged)} unchanged, {len(plan.removed)} removed")
    for display in plan.removed:
        print(f"  removed {display}")
    if plan.kept_stale:
        print(f"  kept {len(plan.kept_stale)} earlier record(s) that these sources did not return "
              "(use --prune to remove them)")
