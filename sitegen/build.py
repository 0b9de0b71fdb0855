"""The one orchestrator: load -> validate -> enrich -> render -> write.

`build`, `check`, `serve` and `fetch` all come through here, so they agree on
what a valid site is. The build cache (cache.py) lets each stage skip the work
an earlier build already did; it never changes what the stages produce.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

from sitegen.cache import CACHE_KEY, BuildCache, BuildState, ContentCache, digest
from sitegen.errors import ContentError, Location, Problem
from sitegen.inputs import InputChanges, InputListing, Stats, input_files
from sitegen.load import RawSite, load_document, load_site, record_file_stats
from sitegen.model import Pieces, Record, Site
from sitegen.parallel import Background, parallel_map
from sitegen.theme import Theme, ThemeError, find_theme, static_files
from sitegen.urls import SiteUrls, page_collisions
from sitegen.validate import ValidSite, validate_document, validate_settings, validate_site
from sitegen.write import NewOutput, folder_times, intact, needs_new_folder, write_output


@dataclass
class BuildResult:
    files: dict[str, bytes | Pieces]  # what was rendered in memory (pages a build wrote as it went are on disk only)
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    output_dir: Path | None = None
    kept: set[str] = field(default_factory=set)  # pages left as the last build wrote them
    up_to_date: bool = False  # nothing changed since the last build
    page_count: int | None = None
    records_reused: int = 0  # entries the cache held (LaTeX and Markdown not converted again)
    base_path: str = "/"  # the URL path the site was built for ('/repo/'): where the dev server mounts it
    # the cache the build used: freed with the result, not on the way out of build_site
    # (every record and entry of the site, a tenth of a second to free at 10,000 records)
    cache: BuildCache | None = field(default=None, repr=False)

    @property
    def pages(self) -> int:
        return self.page_count if self.page_count is not None else page_count([*self.files, *self.kept])


def page_count(names) -> int:
    return sum(1 for name in names if name.endswith(".html"))


def prepare_site(
    site_dir: Path,
    base_url: str | None = None,
    cache: ContentCache | None = None,
    record_stats: Stats | None = None,
    progress: Callable[[str], None] | None = None,
    record_changes: InputChanges | None = None,
) -> tuple[Site, Theme, list[Problem]]:
    """Load, validate and enrich; raises ContentError with every problem found.

    Record files come from `cache` when their size and mtime are unchanged;
    the others are read (on every core) and put in it. `record_changes`, if given,
    says which files may have changed since the record stats of the cache's last build.
    """
    from sitegen.enrich import enrich_site  # Markdown and LaTeX: not imported when nothing changed

    site_dir = Path(site_dir)
    cache = cache if cache is not None else ContentCache()
    stats = record_file_stats(site_dir) if record_stats is None else record_stats
    _read_changed_record_files(site_dir, stats, cache, progress, record_changes)
    raw = load_site(site_dir, stats, read_records=False)  # every record file is in the cache now
    valid = _validated(raw, cache, stats, record_changes)
    problems = _in_file_order(valid.problems, raw.record_paths)
    theme = None
    if valid.config is not None:
        try:
            theme = find_theme(valid.config.theme, site_dir, _theme_location(raw))
        except ThemeError as error:
            problems.append(error.problem)
    errors = [p for p in problems if not p.warning]
    if errors or valid.config is None or valid.profile is None or theme is None:
        raise ContentError(errors or problems)
    config = valid.config if base_url is None else dataclasses.replace(valid.config, base_url=base_url)
    done = (lambda count: progress(f"converting LaTeX and Markdown: {count} records")) if progress else None
    site, enrich_warnings = enrich_site(config, valid.profile, valid.records, site_dir, cache.entries, done, cache.last_build)
    if collisions := page_collisions(site):
        raise ContentError(collisions)
    warnings = [p for p in problems if p.warning] + enrich_warnings + _photo_warnings(site, theme, raw)
    return site, theme, warnings


def _read_changed_record_files(
    site_dir: Path, stats: Stats, cache: ContentCache, progress: Callable[[str], None] | None = None, changes: InputChanges | None = None
) -> None:
    """Load and validate, on every core, the record files the cache does not hold as they are now.

    Only the files `changes` names are looked at when it starts from the stats the cache
    was last brought up to (the dev server's rebuilds, in memory); otherwise every file.
    """
    known_stats = changes is not None and changes.since is cache.last_build.get("record_stats")
    changed = []
    for path in changes.paths if known_stats else stats:  # 100,000 files otherwise: no tuple made for each
        stat, known = stats.get(path), cache.files.get(path)
        if stat is not None and (known is None or known[0] != stat[0] or known[1] != stat[1]):
            changed.append(path)
    changed.sort()
    done = (lambda count: progress(f"reading record files: {count} of {len(changed)}")) if progress else None
    for path, read in zip(changed, parallel_map(partial(read_record_file, site_dir=site_dir), changed, done=done)):
        cache.files[path] = (*stats[path], read)
    if len(cache.files) > len(stats):  # it holds every file of `stats` now: the others were deleted
        for path in cache.files.keys() - stats.keys():
            del cache.files[path]
    cache.last_build["record_stats"] = stats


def _validated(raw: RawSite, cache: ContentCache, stats: Stats, changes: InputChanges | None) -> ValidSite:
    """Stage 2 over the records the cache holds for each record file.

    The dev server's builds start from the last one's checked records (see CheckedRecords)
    when told which record files changed since: only those files' records are looked at.
    """
    last_stats, last = cache.last_build.pop("checked", (None, None))
    changed = _changed_files(cache, stats, changes, last_stats) if last is not None else None
    checked = last.updated(changed) if changed is not None else None
    if checked is not None:
        valid = validate_settings(raw)
        valid.records, valid.checked = checked.records, checked
    else:
        file_records, file_problems = {}, []
        for path in raw.record_paths:
            file_records[path], problems_of_file = cache.files[path][2]
            file_problems.extend(problems_of_file)
        valid = validate_site(raw, file_records)
        if file_problems:
            valid.problems += file_problems
            valid.checked = None
    cache.last_build["checked"] = (stats, valid.checked)
    return valid


def _changed_files(cache: ContentCache, stats: Stats, changes: InputChanges | None, last_stats: Stats) -> dict[str, list[Record]] | None:
    """The records of the record files that changed since `last_stats`, if `changes` tells which,
    none was added or removed, and none has problems; else None."""
    if changes is None or changes.since is not last_stats:
        return None
    changed = {}
    for path in changes.paths:
        if path not in stats or path not in last_stats:
            return None
        records, problems = cache.files[path][2]
        if problems:
            return None
        changed[path] = records
    return changed


def read_record_file(display_path: str, site_dir: Path) -> tuple[list[Record], list[Problem]]:
    """The records of one file and the problems found in it: stages 1 and 2 for one file."""
    problems: list[Problem] = []
    document, problem = load_document(site_dir / display_path, site_dir, display_path)
    if problem:
        return [], [problem]
    return validate_document(document, problems), problems


def cycle_collector_paused(function: Callable) -> Callable:
    """A build makes millions of objects and next to no reference cycles: Python's
    cycle collector would walk them again and again (half the time of reading the cache)."""

    @functools.wraps(function)
    def paused(*args, **kwargs):
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if was_enabled:
                gc.enable()

    return paused


@cycle_collector_paused
def render(site_dir: Path, base_url: str | None = None) -> BuildResult:
    """Everything but writing, with no cache: what `check` runs."""
    from sitegen.render import render_site

    started = time.perf_counter()
    site, theme, warnings = prepare_site(site_dir, base_url)
    rendered = render_site(site, theme)
    return BuildResult(rendered.files, warnings, time.perf_counter() - started)


@cycle_collector_paused
def build_site(
    site_dir: Path,
    output_dir: Path | None = None,
    base_url: str | None = None,
    use_cache: bool = True,
    progress: Callable[[str], None] | None = None,
    cache: BuildCache | None = None,
    files: Stats | None = None,
    output_checked: bool = False,
    changes: InputChanges | None = None,
) -> BuildResult:
    """Build the site into output_dir (default: site_dir/output), all or nothing.

    `progress` is told what the build is doing, stage by stage. A caller that
    builds again and again (the dev server) passes its own `cache`, which then
    stays in memory: it is not read from disk, and not saved (`cache.save()`),
    and the `input_files` it has just listed. It may also say that it has
    checked, since the last build, that the output is as that build left it
    (`output_checked`): then the build does not look again. A caller that watches
    the files may tell which of them changed since the `files` of its last call
    (`changes`): then the listing is worked out from that call's, not again.
    """
    started = time.perf_counter()
    progress = progress or (lambda message: None)
    site_dir = Path(site_dir)
    output_dir = Path(output_dir) if output_dir is not None else site_dir / "output"
    if site_dir.resolve().is_relative_to(output_dir.resolve()):  # `--output .`: the swap would delete the site
        raise ContentError(Problem(f"--output {output_dir} holds the site itself; choose a folder beside content/, such as {site_dir / 'output'}"))
    keep_in_memory = cache is not None
    cache = cache if cache is not None else BuildCache(site_dir, enabled=use_cache)
    state = cache.state
    files = input_files(site_dir) if files is None else files
    listing = cache.listing = cache.listing.updated(files, changes) if cache.listing else InputListing.of(files)
    inputs = digest(CACHE_KEY, listing.fingerprint, repr(base_url), str(output_dir.absolute()))
    same_folder = state.output_dir == str(output_dir.absolute()) and bool(state.outputs)
    if same_folder and state.inputs == inputs:
        if intact(output_dir, state.outputs, state.output_folders):
            return BuildResult(
                {}, cache.warnings + state.warnings, time.perf_counter() - started, output_dir,
                up_to_date=True, page_count=page_count(state.outputs), base_path=state.base_path,
            )
        same_folder = False
    # is the last output as we left it? 20,000 lstat calls, made in a forked process while the content is read.
    # Not by the dev server: after a fork, each page of its large heap (the cache) that the build touches is copied;
    # it looks while it waits for changes instead.
    output_check = None
    if same_folder and not output_checked:
        output_check = Background(intact, output_dir, state.outputs, state.output_folders, fork=not keep_in_memory)

    from sitegen.render import render_site  # Jinja: not imported when nothing changed

    record_stats = listing.record_stats
    progress(f"loading {len(record_stats)} record files")
    try:
        site, theme, warnings = prepare_site(site_dir, base_url, cache.content, record_stats, progress, listing.record_changes)
    finally:
        previous_ok = output_check.result() if output_check else same_folder and output_checked
    reused = len(site.entries) - site.converted
    progress(f"rendering {len(site.entries)} records ({reused} from the cache)")
    previous_outputs = state.outputs if previous_ok else None
    # a whole new folder is filled while pages are rendered (on every core); an old one is only patched at the end
    new_output = NewOutput(output_dir) if needs_new_folder(output_dir, previous_outputs) else None
    try:
        rendered = render_site(
            site, theme, state.page_keys if previous_ok else None, cache.content.fragments, cache.root if cache.enabled else None,
            write_page=new_output.write if new_output else None, progress=progress, last_build=cache.content.last_build,
        )
        progress(f"writing {len(rendered.files)} more files ({len(rendered.written)} written, {len(rendered.kept)} unchanged)")
        if new_output:
            manifest = new_output.finish(rendered.files, rendered.written, rendered.remade)
        else:
            spare_dir = cache.root / "spares" if cache.enabled else None
            manifest = write_output(rendered.files, output_dir, rendered.kept, previous_outputs, rendered.remade, spare_dir)
    except BaseException:
        if new_output:
            new_output.discard()
        raise
    cache.content.fragments = rendered.fragments
    base_path = SiteUrls(site.config.base_url).base_path
    folders = folder_times(output_dir, manifest, None if new_output else previous_outputs, state.output_folders, rendered.files)
    cache.update(BuildState(inputs, manifest, rendered.page_keys, warnings, str(output_dir.absolute()), base_path, folders))
    if not keep_in_memory:
        progress("saving the build cache")
        cache.save()
    seconds = time.perf_counter() - started
    return BuildResult(
        rendered.files, cache.warnings + warnings, seconds, output_dir, rendered.kept, page_count=page_count(manifest), records_reused=reused, base_path=base_path,
        cache=cache,
    )


def check_site(site_dir: Path) -> BuildResult:
    """Everything a build does but writing."""
    return render(site_dir)


def _in_file_order(problems: list[Problem], record_paths: list[str]) -> list[Problem]:
    """Problems sorted as the files are, so cached and fresh builds report alike."""
    if not problems:  # the usual case: no walk over every record file
        return problems
    order = {path: index for index, path in enumerate(record_paths)}
    return sorted(problems, key=lambda p: order.get(p.location.path, -1) if p.location else -1)


def _theme_location(raw) -> Location | None:
    if raw.site is None:
        return None
    data = raw.site.data
    line = data.line_of("theme") if hasattr(data, "line_of") else None
    return Location(raw.site.display_path, line)


def _photo_warnings(site: Site, theme: Theme, raw) -> list[Problem]:
    photo = site.profile.photo
    if not photo or photo in static_files(theme, site.site_dir):
        return []
    line = raw.profile.data.line_of("photo") if raw.profile is not None else None
    where = Location(raw.profile.display_path if raw.profile else "content/profile.yaml", line)
    return [Problem(f"field 'photo': no file static/{photo} in the site; the photo is left out", where, warning=True)]

