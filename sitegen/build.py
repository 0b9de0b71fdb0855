"""The one orchestrator: load -> validate -> enrich -> render -> write.

`build`, `check`, `serve` and `fetch` all come through here, so they agree on
what a valid site is. Each stage hands the next a typed value:

    inputs.Listing -> load.RawSite -> validate.ValidSite -> model.Site
    -> render.RenderResult -> write (the output manifest)

The build cache (cache.py) lets a stage skip work an earlier build did on the
same inputs; every cached value is keyed by everything it is made from, so a
build with the cache equals a build without it, byte for byte.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sitegen.cache import BuildCache, BuildState, ContentCache, cache_key, digest
from sitegen.errors import ContentError, Location, Problem
from sitegen.inputs import Fingerprints, Listing, list_inputs

if TYPE_CHECKING:  # the stages are imported where they run: a build with nothing to do needs none of them
    from sitegen.enrich import KeptEntries
    from sitegen.fragments import Fragments
    from sitegen.load import RawSite, RecordFile
    from sitegen.model import KindContent, Record, Site
    from sitegen.theme import Theme

StepReport = Callable[[str], None]  # told each step of a build, for the progress line (sitegen.commands.BuildProgress)


@dataclass
class BuildResult:
    files: dict[str, bytes]  # what `check` rendered (a build writes its pages as they are rendered and keeps none)
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    output_dir: Path | None = None
    kept: set[str] = field(default_factory=set)  # output files left as the last build wrote them
    up_to_date: bool = False  # nothing changed since the last build
    page_count: int = 0
    records_reused: int = 0  # records whose LaTeX and Markdown came from the cache
    base_path: str = "/"  # the URL path the site was built for ('/repo/'): where the dev server mounts it

    @property
    def pages(self) -> int:
        return self.page_count


@dataclass
class Memory:
    """What a long-lived caller (the dev server) keeps between builds, as live objects."""

    files: dict[str, RecordFile] = field(default_factory=dict)  # load.file_key -> the reader's answer
    records: dict[str, tuple[list[Record], list[Problem]]] = field(default_factory=dict)  # load.file_key -> validated
    converted: dict[str, list] = field(default_factory=dict)  # entry key -> converted text
    entries: KeptEntries = field(default_factory=lambda: _kept_entries())  # the last build's entries
    fragments: Fragments = field(default_factory=lambda: _fragment_store())  # per-record pieces of output
    loaded: bool = False  # filled from the cache file already


@dataclass
class Prepared:
    """A site through stages 1-3: what `check`, `build` and the dev server all start from."""

    site: Site
    theme: Theme
    warnings: list[Problem]
    listing: Listing
    digests: dict[str, str]  # input path -> content digest


def prepare_site(
    site_dir: Path,
    listing: Listing,
    digests: dict[str, str],
    base_url: str | None = None,
    memory: Memory | None = None,
) -> Prepared:
    """Load, validate and enrich; raises ContentError with every problem found."""
    from sitegen.enrich import enrich_site
    from sitegen.load import load_site
    from sitegen.theme import ThemeError, find_theme
    from sitegen.urls import page_collisions
    from sitegen.validate import validate_site

    memory = memory if memory is not None else Memory()
    raw = load_site(listing, digests, memory.files)
    valid = validate_site(raw, memory.records)
    problems = listing.warnings + valid.problems
    theme = None
    if valid.config is not None:
        try:
            theme = find_theme(valid.config.theme, listing, _settings_location(raw, "theme"))
        except ThemeError as error:
            problems.append(error.problem)
    errors = [p for p in problems if not p.warning]
    if errors or valid.config is None or valid.profile is None or theme is None:
        raise ContentError(errors or problems)
    config = valid.config if base_url is None else dataclasses.replace(valid.config, base_url=base_url)
    content, content_problems = load_kind_content(listing, digests)
    if errors := [p for p in content_problems if not p.warning]:
        raise ContentError(errors)
    site, enrich_warnings = enrich_site(config, valid.profile, valid.records, Path(site_dir), memory.converted, memory.entries)
    site = dataclasses.replace(site, content=content)
    enrich_warnings = [p for p in content_problems if p.warning] + enrich_warnings
    if collisions := page_collisions(site):
        raise ContentError(collisions)
    warnings = [p for p in problems if p.warning] + enrich_warnings + _photo_warnings(site, theme, listing, raw) + kind_warnings(site)
    return Prepared(site, theme, warnings, listing, digests)


def load_kind_content(listing: Listing, digests: dict[str, str]) -> tuple[dict[str, KindContent], list[Problem]]:
    """What each page kind with content of its own reads (news, talks, pages, ...), loaded by the kind."""
    from sitegen.model import KindContent
    from sitegen.pages import PAGE_KINDS, ContentFiles

    content: dict[str, KindContent] = {}
    problems: list[Problem] = []
    for kind in PAGE_KINDS.values():
        if kind.load is None:
            continue
        paths = sorted({path for prefix in kind.reads for path in listing.under(prefix)})
        texts, unreadable = {}, []
        for path in paths:
            try:
                texts[path] = listing.read_bytes(path).decode("utf-8-sig")
            except (OSError, UnicodeError) as error:
                unreadable.append(Problem(f"cannot read as UTF-8 text: {error}", Location(path)))
        value, site_wide, found = kind.load(ContentFiles(texts, unreadable))
        problems += unreadable + list(found)
        content[kind.name] = KindContent(value, site_wide, digest([(path, digests[path]) for path in paths]))
    return content, problems


def kind_warnings(site: Site) -> list[Problem]:
    """What each page kind's check finds wrong with its content once the records are known."""
    from sitegen.pages import PAGE_KINDS

    return [problem for kind in PAGE_KINDS.values() if kind.check is not None for problem in kind.check(site)]


def read_inputs(site_dir: Path) -> tuple[Listing, dict[str, str]]:
    """Every input file of the site and its content digest, with no cache."""
    listing = list_inputs(Path(site_dir))
    return listing, _digests(Fingerprints().of(listing))


def check_site(site_dir: Path, base_url: str | None = None) -> BuildResult:
    """Everything a build does but writing, with no cache: what `sitegen check` runs."""
    from sitegen.render import render_site

    started = time.perf_counter()
    listing, digests = read_inputs(Path(site_dir))
    prepared = prepare_site(site_dir, listing, digests, base_url)
    files = {path: make() for path, make in render_site(prepared.site, prepared.theme, listing, digests, site_key(prepared)).makers()}
    return BuildResult(files, prepared.warnings, time.perf_counter() - started, page_count=_page_count(files))


@contextlib.contextmanager
def collector_paused(freeze_after: bool = False) -> Iterator[None]:
    """The cycle collector paused while a build makes a site model that lives on.

    Loading makes millions of objects that all live on, and each full collection
    scans every one of them, so with the collector running the time to load
    grows faster than the site. A one-off build pauses it while it loads and
    lists the pages, then freezes what they made (`freeze_after`, `gc.freeze`):
    the collections while pages render scan only the objects rendering makes,
    and forked workers do not copy the frozen objects' pages by touching their
    headers. The dev server keeps its site model between builds and pauses the
    collector for each whole rebuild; collections run while it waits.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze_after:
            gc.freeze()
        if was_enabled:
            gc.enable()


def build_site(
    site_dir: Path,
    output_dir: Path | None = None,
    base_url: str | None = None,
    use_cache: bool = True,
    progress: StepReport | None = None,
    cache: BuildCache | None = None,
    memory: Memory | None = None,
    listing: Listing | None = None,
) -> BuildResult:
    """Build the site into output_dir (default: site_dir/output), all or nothing.

    A caller that builds again and again (the dev server) passes its own `cache`
    and `memory`: what the last build worked out then stays in memory; and the
    `listing` of the inputs it has just made to see whether anything changed.
    """
    started = time.perf_counter()
    progress = progress or (lambda message: None)
    site_dir = Path(site_dir)
    output_dir = Path(output_dir) if output_dir is not None else site_dir / "output"
    if site_dir.resolve().is_relative_to(output_dir.resolve()):  # `--output .`: the swap would delete the site
        raise ContentError(Problem(f"--output {output_dir} holds the site itself; choose a folder beside content/, such as {site_dir / 'output'}"))
    cache = cache if cache is not None else BuildCache(site_dir, enabled=use_cache)
    state = cache.state
    listing = listing if listing is not None else list_inputs(site_dir)
    fingerprints = Fingerprints(state.inputs, state.listed_at_ns).of(listing)
    build_key = digest(sorted(fingerprints.items()), base_url, str(output_dir.absolute()))
    previous_intact = state.output_dir == str(output_dir.absolute()) and intact_output(output_dir, state)
    if use_cache and previous_intact and state.build_key == build_key:
        cache.save(dataclasses.replace(state, inputs=fingerprints, listed_at_ns=listing.listed_at_ns), None)
        return BuildResult(
            {},
            cache.notes + state.warnings,
            time.perf_counter() - started,
            output_dir,
            up_to_date=True,
            page_count=_page_count(state.manifest),
            base_path=state.base_path,
        )

    from sitegen.render import render_site
    from sitegen.urls import SiteUrls
    from sitegen.write import folder_stamps, worker_count, write_output

    keep_in_memory = memory is not None  # the caller saves the content cache when it is done
    memory = memory if memory is not None else Memory()
    if use_cache and not memory.loaded:
        _fill_memory(memory, cache.content)
    digests = _digests(fingerprints)
    previous_keys = state.page_keys if previous_intact and use_cache else None
    fragments = memory.fragments if keep_in_memory else None
    with collector_paused(freeze_after=True) if not keep_in_memory else contextlib.nullcontext():
        progress(f"loading {len(listing.files)} input files")
        prepared = prepare_site(site_dir, listing, digests, base_url, memory)
        progress(f"listing the pages of {len(prepared.site.entries)} records")
        rendered = render_site(prepared.site, prepared.theme, listing, digests, site_key(prepared), previous_keys, fragments)
    progress(f"rendering and writing {len(rendered.todo)} files")
    workers = 1 if keep_in_memory else worker_count()  # the dev server keeps its threads and its pieces of output to itself
    manifest = write_output(rendered.makers(), output_dir, rendered.kept, state.manifest if previous_keys is not None else None, workers)
    base_path = SiteUrls(prepared.site.config.base_url).base_path
    new_state = BuildState(
        fingerprints,
        listing.listed_at_ns,
        build_key,
        str(output_dir.absolute()),
        manifest,
        folder_stamps(output_dir, manifest),
        rendered.keys,
        prepared.warnings,
        base_path,
    )
    if use_cache:
        progress("saving the build cache")
        cache.save(new_state, None if keep_in_memory else content_of(memory))
    return BuildResult(
        {},
        cache.notes + prepared.warnings,
        time.perf_counter() - started,
        output_dir,
        rendered.kept,
        page_count=_page_count(manifest),
        records_reused=len(prepared.site.entries) - prepared.site.converted,
        base_path=base_path,
    )


def site_key(prepared: Prepared) -> str:
    """What every page depends on besides its own inputs: settings, profile, theme and libraries."""
    from sitegen.theme import static_sources, theme_inputs

    site, listing = prepared.site, prepared.listing
    theme_files = [(path, prepared.digests[path]) for path in theme_inputs(prepared.theme, listing)]
    statics = sorted(static_sources(prepared.theme, listing))
    site_wide = sorted((name, content.site_wide) for name, content in site.content.items())
    return digest(cache_key(), site.config, site.profile, site.bio_html, site.subjects, theme_files, statics, site_wide)


def intact_output(output_dir: Path, state: BuildState) -> bool:
    from sitegen.write import intact

    return intact(output_dir, state.manifest, state.folders)


def _kept_entries() -> KeptEntries:
    from sitegen.enrich import KeptEntries

    return KeptEntries()


def _fragment_store() -> Fragments:
    from sitegen.fragments import Fragments

    return Fragments(keep_between_builds=True)


def _digests(fingerprints: dict[str, tuple[int, int, str]]) -> dict[str, str]:
    return {path: row[2] for path, row in fingerprints.items()}


def _fill_memory(memory: Memory, content: ContentCache) -> None:
    memory.converted.update(content.entries)
    memory.loaded = True


def content_of(memory: Memory) -> ContentCache:
    """What the content cache keeps between processes: the converted text of each record.

    Record files are read again by the next process (libyaml reads them faster than their
    records come back from JSON); a long-lived process keeps them in `Memory`.
    """
    return ContentCache(memory.converted)


def _page_count(names) -> int:
    return sum(1 for name in names if name.endswith(".html"))


def _settings_location(raw: RawSite, field_name: str) -> Location | None:
    if raw.site is None:
        return None
    data = raw.site.data
    line = data.line_of(field_name) if hasattr(data, "line_of") else None
    return Location(raw.site.display_path, line)


def _photo_warnings(site: Site, theme: Theme, listing: Listing, raw: RawSite) -> list[Problem]:
    from sitegen.theme import static_sources

    photo = site.profile.photo
    if not photo or photo in static_sources(theme, listing):
        return []
    line = raw.profile.data.line_of("photo") if raw.profile is not None and hasattr(raw.profile.data, "line_of") else None
    where = Location(raw.profile.display_path if raw.profile else "content/profile.yaml", line)
    return [Problem(f"field 'photo': no file static/{photo} in the site; the photo is left out", where, warning=True)]
