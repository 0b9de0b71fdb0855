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

from sitegen.cache import BuildCache, BuildState, digest
from sitegen.errors import ContentError, Problem, strict_warnings
from sitegen.inputs import INPUT_FOLDERS, Fingerprints, list_inputs
from sitegen.output_folder import output_lock

if TYPE_CHECKING:  # the stages are imported when there is something to build (see sitegen.prepare)
    from sitegen.inputs import Listing
    from sitegen.pages import Page
    from sitegen.prepare import Memory

# what a browser loads to show a page: a dev-server build writes these before the reload, the rest after (`Downloads`)
LOADED_WITH_PAGES = (".html", ".css", ".js", ".svg", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico", ".woff", ".woff2")

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
    downloads: Downloads | None = None  # files still to write (`build_site(downloads_later=True)`)

    @property
    def pages(self) -> int:
        return self.page_count


def check_site(site_dir: Path, base_url: str | None = None) -> BuildResult:
    """Everything a build does but writing, with no cache: what `sitegen check` runs."""
    from sitegen.pages.pages import untranslated_notes
    from sitegen.prepare import prepare_site, read_inputs, site_key
    from sitegen.render import render_site

    started = time.perf_counter()
    listing, digests = read_inputs(Path(site_dir))
    prepared = prepare_site(site_dir, listing, digests, base_url)
    rendered = render_site(prepared.site, prepared.theme, listing, digests, site_key(prepared))
    files = {path: bytes(make()) for path, make in rendered.makers()}
    notes = untranslated_notes(prepared.site) if prepared.site.translations else []  # check's alone: a build says nothing of them
    return BuildResult(files, prepared.warnings + rendered.warnings + notes, time.perf_counter() - started, page_count=_page_count(files))


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
    downloads_later: bool = False,
    output_intact: bool | None = None,
    stop_if_up_to_date: bool = True,
    strict: bool = False,
    drafts: bool = False,
    locked: bool = False,
) -> BuildResult:
    """Build the site into output_dir (default: site_dir/output), all or nothing.

    A caller that builds again and again (the dev server) passes its own `cache`
    and `memory`: what the last build worked out then stays in memory; and the
    `listing` of the inputs it has just made to see whether anything changed.
    With `downloads_later`, a build on an earlier one leaves the files read on
    their own to `BuildResult.downloads` (see `Downloads`). `output_intact`: the
    caller's own look at whether output/ is as the last build left it (the dev
    server looks while a change holds still); None: this build looks.
    `stop_if_up_to_date=False` makes the site model even when nothing changed
    (the dev server's first build, so that its first edit starts from it).
    `strict`: a warning fails the build before it writes anything (`--strict`).
    `drafts`: pages, posts and news whose file name starts with '_' are built too (`sitegen serve --drafts`).
    `locked`: the caller holds the output folder's lock (`output_folder.output_lock`); else the build takes it,
    waiting a few seconds for another sitegen writing the same folder (`output_folder.OutputBusy` after that).
    """
    started = time.perf_counter()
    progress = progress or (lambda message: None)
    site_dir = Path(site_dir)
    output_dir = Path(output_dir) if output_dir is not None else site_dir / "output"
    _refuse_output_folder(site_dir, output_dir)
    with output_lock(output_dir, waiting=progress) if not locked else contextlib.nullcontext():
        cache = cache if cache is not None else BuildCache(site_dir, enabled=use_cache)
        if cache.follow_other_builds():
            output_intact = None  # a look at output/ against the state another build has since replaced
        state = cache.state
        listing = listing if listing is not None else list_inputs(site_dir)
        fingerprints = Fingerprints(state.inputs, state.listed_at_ns).of(listing)
        build_key = digest(sorted(fingerprints.items()), base_url, str(output_dir.absolute()), drafts)
        built_here = state.output_dir == str(output_dir.absolute())  # the last build's output folder (whatever is in it now)
        previous_intact = built_here and (intact_output(output_dir, state) if output_intact is None else output_intact)
        if use_cache and previous_intact and state.build_key == build_key and stop_if_up_to_date:
            return _up_to_date(cache, dataclasses.replace(state, inputs=fingerprints, listed_at_ns=listing.listed_at_ns), output_dir, strict, started)

        from sitegen.prepare import Memory, content_of, digests_of, fill_memory, prepare_site, site_key
        from sitegen.render import making_order, render_site
        from sitegen.urls import SiteUrls
        from sitegen.write import folder_stamps, worker_count, write_output

        keep_in_memory = memory is not None  # the caller saves the content cache when it is done
        memory = memory if memory is not None else Memory()
        if use_cache and not memory.loaded:
            fill_memory(memory, cache.content)
        digests = digests_of(fingerprints)
        previous_keys = state.page_keys if previous_intact and use_cache else None
        fragments = memory.fragments if keep_in_memory else None
        with collector_paused(freeze_after=True) if not keep_in_memory else contextlib.nullcontext():
            progress(f"loading {len(listing.files)} input files")
            prepared = prepare_site(site_dir, listing, digests, base_url, memory, drafts)
            if not keep_in_memory:
                memory.forget_inputs()
            progress(f"listing the pages of {len(prepared.site.entries)} records")
            rendered = render_site(prepared.site, prepared.theme, listing, digests, site_key(prepared), previous_keys, fragments)
        warnings = prepared.warnings + rendered.warnings
        if strict and strict_warnings(warnings):
            raise _strict_error(warnings)
        progress(f"rendering and writing {len(rendered.todo)} files")
        workers = 1 if keep_in_memory else worker_count()  # the dev server keeps its threads and its pieces of output to itself
        previous_manifest = state.manifest if previous_keys is not None else None
        now, later = _downloads_set_aside(rendered.todo) if downloads_later and previous_manifest is not None else (rendered.todo, [])
        on_disk_as_before = {page.path for page in later} & previous_manifest.keys() if previous_manifest is not None else set()
        files, together = making_order(now)
        manifest = write_output(files, output_dir, rendered.kept | on_disk_as_before, previous_manifest, workers, built_here and bool(state.manifest), together)
        base_path = SiteUrls(prepared.site.config.base_url).base_path
        new_state = BuildState(
            fingerprints,
            listing.listed_at_ns,
            build_key if not later else "",  # with downloads still to write, the next build is not up to date
            str(output_dir.absolute()),
            manifest,
            folder_stamps(output_dir, manifest, *_what_changed(state, previous_manifest, manifest, now)),
            _keys_of_what_is_on_disk(rendered.keys, later, previous_keys or {}, manifest),
            warnings,
            base_path,
        )
        if use_cache:
            progress("saving the build cache")
            cache.save(new_state, None if keep_in_memory else content_of(memory))
        return BuildResult(
            {},
            cache.notes + warnings,
            time.perf_counter() - started,
            output_dir,
            rendered.kept,
            page_count=_page_count(manifest),
            records_reused=len(prepared.site.entries) - prepared.site.converted,
            base_path=base_path,
            downloads=Downloads(later, output_dir, cache, new_state, build_key, rendered.keys) if later else None,
        )


def _refuse_output_folder(site_dir: Path, output_dir: Path) -> None:
    """An output folder the build would destroy the site with, or read back as the owner's files, is an error."""
    if site_dir.resolve().is_relative_to(output_dir.resolve()):  # `--output .`: the swap would delete the site
        raise ContentError(Problem(f"--output {output_dir} holds the site itself; choose a folder beside content/, such as {site_dir / 'output'}"))
    for folder in INPUT_FOLDERS:  # `--output static/site`: the next build would read the site back as files of the owner's
        if output_dir.resolve().is_relative_to((site_dir / folder).resolve()):
            raise ContentError(
                Problem(
                    f"--output {output_dir} is inside {folder}/, which the build reads: the next build would take the site it "
                    f"wrote for files of yours; choose a folder beside content/, such as {site_dir / 'output'}"
                )
            )


def _up_to_date(cache: BuildCache, state: BuildState, output_dir: Path, strict: bool, started: float) -> BuildResult:
    """Nothing changed since the last build, and output/ is as it left it: only the inputs' new listing is saved."""
    if strict and strict_warnings(state.warnings):
        raise _strict_error(state.warnings)
    cache.save(state, None)
    return BuildResult(
        {},
        cache.notes + state.warnings,
        time.perf_counter() - started,
        output_dir,
        up_to_date=True,
        page_count=_page_count(state.manifest),
        base_path=state.base_path,
    )


def _strict_error(warnings: list[Problem]) -> ContentError:
    """`--strict`: the warnings, each once, as the errors that stop the build before it writes."""
    return ContentError([*dict.fromkeys(warnings), Problem(strict_failure(warnings, "output/ is as it was"))])


def strict_failure(warnings: list[Problem], outcome: str) -> str:
    count = len(dict.fromkeys(strict_warnings(warnings)))
    return f"--strict: {count} warning{'s' if count != 1 else ''}, and --strict makes a warning an error; {outcome}"


@dataclass
class Downloads:
    """Files a dev-server build left to write after the reload (`build_site(downloads_later=True)`).

    What a browser loads to show a page (HTML, styles, scripts, images, fonts) is
    written first; the rest (BibTeX, RIS, records.json, feeds, the search text,
    the sitemap: read on their own, and on a large site tens of megabytes made
    from every record) a moment later, or at once when one of them is asked for.
    Until then output/ holds their previous versions, and the build state says so
    (their previous page keys, no build key), so that any later build, in this
    process or another, makes them again; `write` brings the site to a whole build.
    """

    pages: list[Page]
    output_dir: Path
    cache: BuildCache
    state: BuildState  # the state the build saved with these files still to write
    build_key: str
    page_keys: dict[str, str]
    paths: set[str] = field(init=False)  # output paths of `pages`

    def __post_init__(self) -> None:
        self.paths = {page.path for page in self.pages}

    def write(self) -> None:
        """Write them, unless another build came since (it has made them again itself) or their files or the folders
        above them were changed by hand since the build (the dev server's next look finds it, and builds a whole new
        folder; a change elsewhere keeps its stamps, and that look finds it too)."""
        from sitegen.render import makers
        from sitegen.write import folder_stamps, intact, write_output

        if self.cache.state is not self.state or not intact(self.output_dir, self.state.manifest, self.state.folders, only=self.paths):
            return
        state = self.state
        manifest = write_output(makers(self.pages), self.output_dir, state.manifest.keys() - self.paths, state.manifest)
        folders = folder_stamps(self.output_dir, manifest, *_what_changed(state, state.manifest, manifest, self.pages))
        self.cache.save(dataclasses.replace(state, build_key=self.build_key, manifest=manifest, folders=folders, page_keys=self.page_keys), None)


def _what_changed(state: BuildState, previous: dict | None, manifest: dict, written: list[Page]) -> tuple[dict[str, int] | None, list[str]]:
    """For `folder_stamps`: the stamps of the output a build in place started from, and the files it wrote or removed."""
    if previous is None:
        return None, []
    return state.folders, [page.path for page in written] + [name for name in previous if name not in manifest]


def _downloads_set_aside(pages: list[Page]) -> tuple[list[Page], list[Page]]:
    """(what a browser loads to show a page, the rest)."""
    now: list[Page] = []
    later: list[Page] = []
    for page in pages:
        (now if page.path.endswith(LOADED_WITH_PAGES) else later).append(page)
    return now, later


def _keys_of_what_is_on_disk(keys: dict[str, str], later: list[Page], previous_keys: dict[str, str], manifest: dict) -> dict[str, str]:
    """The page keys of the files as they are on disk: a file left to write later is still its previous version."""
    if not later:
        return keys
    on_disk = dict(keys)
    for page in later:
        previous = previous_keys.get(page.path) if page.path in manifest else None
        if previous is not None:
            on_disk[page.path] = previous
        else:
            del on_disk[page.path]
    return on_disk


def intact_output(output_dir: Path, state: BuildState) -> bool:
    from sitegen.write import intact

    return intact(output_dir, state.manifest, state.folders)


def _page_count(names) -> int:
    return sum(1 for name in names if name.endswith(".html"))
