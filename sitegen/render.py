"""Stage 4: the enriched site, rendered into output files in memory.

The result maps each output path to its bytes; nothing is written here, so a
failed render leaves the previous site untouched.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

import jinja2

from sitegen.cache import digest
from sitegen.errors import ContentError, Location, Problem, SitegenError
from sitegen.exports.bibtex import bibtex_entry
from sitegen.exports.feed import FEED_SIZE, atom_feed
from sitegen.exports.jsonld import record_json_line, records_json
from sitegen.exports.sitemap import robots_txt, sitemap
from sitegen.model import Entry, Pieces, Site, Subject
from sitegen.parallel import MIN_PARALLEL_ITEMS, parallel_map
from sitegen.theme import Theme, make_environment, static_files, template_dirs
from sitegen.urls import SiteUrls, record_path
from sitegen.values import replaced_positions
from sitegen.views import ViewBuilder


@dataclass
class RenderResult:
    files: dict[str, bytes | Pieces]  # every output file, except the pages in `kept` (the two largest as Pieces)
    kept: set[str] = field(default_factory=set)  # pages (and feed, sitemap) unchanged since the last build, left as they are
    page_keys: dict[str, str] = field(default_factory=dict)  # page (or feed.xml, sitemap.xml) -> what it was made from
    fragments: dict[str, tuple[bytes, bytes, bytes]] = field(default_factory=dict)  # per-record (item, BibTeX, JSON line) by key, for the next build
    written: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # pages already handed to `write_page`: its answers
    remade: set[str] = field(default_factory=set)  # large files made from changed inputs: to be written without comparing


def render_site(
    site: Site,
    theme: Theme,
    previous_pages: dict[str, str] | None = None,
    fragment_cache: dict[str, tuple[bytes, bytes, bytes]] | None = None,
    cache_dir: Path | None = None,
    write_page: Callable[[str, bytes], tuple[int, int, str]] | None = None,
    progress: Callable[[str], None] | None = None,
    last_build: dict | None = None,
) -> RenderResult:
    """Render every page and export.

    `previous_pages` maps pages still intact on disk to the key they were
    rendered from; a page whose key is unchanged is not rendered again.
    `fragment_cache` holds list items of earlier builds by key; `cache_dir`, if
    given, keeps compiled templates. `write_page`, if given, takes record and
    list pages as soon as they are rendered (possibly in a worker process), so
    that they need not travel back nor wait in memory; what it returns is kept
    in `written`. `progress` hears how many record pages are done. `last_build`,
    if given, keeps each record's outputs and the list pages for the next build
    in the same process (see `LastRender`).
    """
    urls = SiteUrls(site.config.base_url)
    statics = static_files(theme, site.site_dir)
    environment = make_environment(theme, site.site_dir, cache_dir / "templates" if cache_dir else None)
    template_key = digest(sorted(template_sources(theme, site.site_dir).items()))
    page_key = digest(template_key, site.config, site.profile, site.bio_html, sorted(statics))
    last_build = {} if last_build is None else last_build
    last: LastRender | None = last_build.pop("render", None)
    known = fragment_cache or {}
    changed = last.changed_positions(site, page_key, previous_pages, known) if last else None
    views = ViewBuilder(site, urls, list(statics), last.columns if changed is not None else None)
    renderer = _Renderer(site, environment, views, previous_pages or {}, write_page, progress)
    renderer.page_key = page_key
    result = RenderResult({})
    if changed is None:
        outputs = _per_record_outputs(renderer, known, result)
    else:
        outputs = _changed_record_outputs(renderer, known, result, last.records, changed)
    same_lists = changed is not None and last.same_lists(site, changed)
    listings = _list_pages(renderer, result, last.listings if same_lists else None, changed or [])
    result.files["404.html"] = renderer.render("404.html", renderer.views.not_found_page())
    _exports(renderer, outputs, statics, result, same_pages=same_lists)
    result.files = dict(sorted(result.files.items()))
    last_build["render"] = LastRender(outputs, listings, site.subjects, site.subject_positions, (views.record_ids, views.record_slugs))
    return result


@dataclass
class Listing:
    """A list of records (the profile's, or a subject's) split into pages, and what each page is made from."""

    subject: Subject | None  # None: the profile's list
    common: str  # what every page of it shows besides its own records and navigation
    pages: list[tuple[str, list[int], dict]]  # each page's path, the positions of its records, its navigation
    keys: list[str]  # each page's key
    ordered: list[int]  # the positions of its records, page after page


@dataclass
class LastRender:
    """One render, kept by the dev server for its next build (see `changed_positions`).

    When the records whose entries changed keep their year, featured flag and subjects, the list
    pages show the same records on the same pages: only the keys of the pages that show a changed
    record are made again, and the record ids and slugs are this render's. At 100,000 records the
    keys of every list page took 130 ms, the record ids and slugs 65 ms, the sitemap's key 30 ms.
    """

    records: RecordOutputs
    listings: list[Listing]
    subjects: tuple[Subject, ...]
    subject_positions: dict[str, tuple[int, ...]]
    columns: tuple[list[str], list[str]]  # each entry's record id and slug (ViewBuilder.record_ids, record_slugs)

    def changed_positions(self, site: Site, page_key: str, previous_pages: dict | None, known: dict) -> list[int] | None:
        """Positions of entries that are not the ones of this render; None when this render cannot be built on."""
        records = self.records
        if previous_pages is not records.page_keys or known is not records.fragments or records.page_key != page_key:
            return None
        entries = site.entries
        changed = replaced_positions(entries, records.entries)
        if changed is None or any(entries[i].slug != records.entries[i].slug or entries[i].id != records.entries[i].id for i in changed):
            return None  # a page comes and another goes
        return changed

    def same_lists(self, site: Site, changed: list[int]) -> bool:
        """Do the list pages of `site` show the same records, in the same order, as this render's?
        (`changed`: where its entries differ from this render's)"""
        entries, old = site.entries, self.records.entries
        return (
            site.subjects == self.subjects and site.subject_positions == self.subject_positions
            and all(_listed_alike(entries[i], old[i]) for i in changed)
        )


def _listed_alike(entry: Entry, other: Entry) -> bool:
    """Would `entry`, in place of `other`, be on the same list pages, at the same place?"""
    return (entry.record.year, entry.record.featured, entry.subjects) == (other.record.year, other.record.featured, other.subjects)


@dataclass
class RecordOutputs:
    """What each record is rendered to, by position in `site.entries`.

    The dev server keeps it for its next build (in `LastRender`): when the templates and
    settings are the same, and the pages and fragments that build starts from are the very
    ones this one made, only the records whose entries are not the same objects are looked at.
    At 100,000 records, walking every record's key, page and fragments took 360-510 ms.
    """

    entries: tuple[Entry, ...]
    page_key: str
    keys: list[str]  # what each record's item, exports and page are made from (see record_key)
    made: list[tuple[bytes, bytes, bytes]]  # each record's list item, BibTeX and JSON line
    record_pages: dict[str, str]  # each record's page -> its key
    page_keys: dict[str, str]  # every page's key, as the build handed it on (RenderResult.page_keys)
    fragments: dict[str, tuple[bytes, bytes, bytes]]  # `made` by key, as the build handed it on
    items: dict[str, bytes]  # record id -> list item
    bibtex_by_id: dict[str, bytes]
    keys_total: int  # keys_sum(keys): what the exports are made from

    @property
    def bibtex(self) -> list[bytes]:
        return [m[1] for m in self.made]

    @property
    def json_lines(self) -> list[bytes]:
        return [m[2] for m in self.made]


def record_key(entry: Entry, page_key: str) -> str:
    """One key per record covers its list item, BibTeX, JSON and page: all are made from
    the entry, its cite key, the templates and the site settings (base_url included).

    Joined, not hashed (10x cheaper); the entry's own key leads, so the cache keeps it in its record file's shard.
    """
    return f"{entry.key}\0{entry.cite_key}\0{page_key}"


def _per_record_outputs(renderer: "_Renderer", known: dict[str, tuple[bytes, bytes, bytes]], result: RenderResult) -> RecordOutputs:
    """Each record's list item, BibTeX and JSON (from the cache, or made) and its page (when changed), on every core."""
    entries, views, page_key = renderer.site.entries, renderer.views, renderer.page_key
    keys = renderer.entry_key_list = [record_key(entry, page_key) for entry in entries]
    made_here = _render_records(renderer, known, result, range(len(entries)))
    made = [made_here.get(key) or known[key] for key in keys]
    result.fragments = dict(zip(keys, made))
    views.fragments = dict(zip(views.record_ids, [m[0] for m in made]))
    views.bibtex = dict(zip(views.record_ids, [m[1] for m in made]))
    record_pages = dict(result.page_keys)  # only record pages so far
    return RecordOutputs(entries, page_key, keys, made, record_pages, result.page_keys, result.fragments, views.fragments, views.bibtex, keys_sum(keys))


def _changed_record_outputs(
    renderer: "_Renderer", known: dict[str, tuple[bytes, bytes, bytes]], result: RenderResult, last: RecordOutputs, changed: list[int]
) -> RecordOutputs:
    """`_per_record_outputs` for the records at `changed`; the others' outputs are the last render's.

    `last` is the caller's no more (render_site took it out of `last_build`): what only it holds is
    updated in place. The fragments and page keys it shares with the build cache are copied.
    """
    entries, views, page_key = renderer.site.entries, renderer.views, renderer.page_key
    keys = renderer.entry_key_list = last.keys
    old_keys = [keys[index] for index in changed]
    for index in changed:
        keys[index] = record_key(entries[index], page_key)
    result.page_keys.update(last.record_pages)
    result.kept.update(last.record_pages)  # every record page is on disk as the last build made it
    result.kept.difference_update(record_path(views.record_slugs[index]) for index in changed)
    views.bibtex = last.bibtex_by_id
    made_here = _render_records(renderer, known, result, changed)
    made, fragments, record_pages = last.made, dict(last.fragments), last.record_pages
    for old_key in old_keys:  # all first: a key may move to another position
        del fragments[old_key]
    for index in changed:
        key, record_id, path = keys[index], views.record_ids[index], record_path(views.record_slugs[index])
        made[index] = fragments[key] = made_here.get(key) or known[key]
        last.items[record_id], views.bibtex[record_id] = made[index][0], made[index][1]
        record_pages[path] = result.page_keys[path]
    result.fragments, views.fragments = fragments, last.items
    total = (last.keys_total - keys_sum(old_keys, changed) + keys_sum([keys[index] for index in changed], changed)) % KEYS_SUM_MODULUS
    return RecordOutputs(entries, page_key, keys, made, record_pages, result.page_keys, fragments, last.items, views.bibtex, total)


KEYS_SUM_MODULUS = 1 << 128


def keys_sum(keys: list[str], positions: list[int] | range | None = None) -> int:
    """The sum of the record keys, each hashed with its position (`positions`, by default 0, 1, ...).

    It changes when any key changes or moves, as a hash of them all would; but a sum is worked out
    again from the keys that changed alone (`_changed_record_outputs`), in time that grows with the edit.
    """
    positions = range(len(keys)) if positions is None else positions
    return sum(map(_position_hash, positions, keys)) % KEYS_SUM_MODULUS


def _position_hash(position: int, key: str) -> int:
    line = f"{position}\0{key}".encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(line, digest_size=16).digest(), "little")


def _render_records(renderer: "_Renderer", known: dict[str, tuple[bytes, bytes, bytes]], result: RenderResult, positions) -> dict:
    """The records at `positions`: their pages when changed, their fragments when not in `known` (returned, by key)."""
    entries, views, keys = renderer.site.entries, renderer.views, renderer.entry_key_list
    jobs, job_keys = [], []
    for index in positions:
        key = keys[index]
        cached = known.get(key)
        if renderer.unchanged(record_path(views.record_slugs[index]), key, result):
            if cached is None:
                jobs.append((entries[index], True, False))
                job_keys.append(key)
        else:
            if cached is not None:
                views.bibtex[views.record_ids[index]] = cached[1]  # shown on the record page
            jobs.append((entries[index], cached is None, True))
            job_keys.append(key)
    made_here = {}
    verb = "rendering and writing" if renderer.write_page else "rendering"
    done = renderer.reporter(lambda count: f"{verb} record pages: {count} of {len(jobs)}")
    for key, (entry, _, page_wanted), (made, page) in zip(job_keys, jobs, renderer.in_parallel(_record_outputs, jobs, done=done)):
        if made:
            made_here[key] = made
        if page_wanted:
            renderer.keep(record_path(entry.slug), page, result)
    return made_here


def _list_pages(renderer: "_Renderer", result: RenderResult, last: list[Listing] | None = None, changed: list[int] = ()) -> list[Listing]:
    """The profile and subject pages; a page is rendered only when one of its records or its neighbours changed.

    `last`, if given, are the listings of a render whose list pages showed the same records on the
    same pages (see `LastRender.same_lists`), its entries differing only at `changed`: their pages
    are taken as they are, and only the pages that show one of those entries get a new key.
    """
    site, views = renderer.site, renderer.views
    featured = [(entry.key, entry.cite_key) for entry in site.featured]
    wanted = [(None, (len(site.entries), featured, site.subjects, views.subject_counts))]
    wanted += [(subject, (subject, len(positions))) for subject, positions in views.subject_positions.items()]
    if last is not None and len(changed) > LIST_PAGES_LOOKED_UP:
        last = None  # looking each one up would take longer than the keys of every page
    listings = [_listing(renderer, subject, shared, last[number] if last else None, changed) for number, (subject, shared) in enumerate(wanted)]
    jobs, listed = [], []
    for listing in listings:
        template = "index.html" if listing.subject is None else "subject.html"
        context = views.index_list_page if listing.subject is None else partial(views.subject_list_page, listing.subject, len(listing.ordered))
        for (path, chunk, pagination), key in zip(listing.pages, listing.keys):
            if not renderer.unchanged(path, key, result):
                jobs.append((path, template, partial(context, path, chunk, pagination)))
                listed.append(len(chunk))
    worth_a_fork = sum(listed) >= LIST_ITEMS_WORTH_A_FORK  # list items to render, not pages, are the work
    for (path, _, _), page in zip(jobs, renderer.in_parallel(_list_page, jobs, min_items=1 if worth_a_fork else len(jobs) + 1)):
        renderer.keep(path, page, result)
    return listings


LIST_PAGES_LOOKED_UP = 64  # changed entries whose list pages are looked up one by one; more, and every page's key is made


def _listing(renderer: "_Renderer", subject: Subject | None, shared: object, last: Listing | None, changed: list[int]) -> Listing:
    """The pages of one list and their keys; from `last` (the same list, see `_list_pages`) if given.

    `shared`: what each page of the list shows besides its own records and navigation.
    """
    views = renderer.views
    if last is not None:
        pages, ordered = last.pages, last.ordered
    else:
        pages = views.index_listing() if subject is None else views.subject_listing(subject, views.subject_positions[subject])
        ordered = [position for _, chunk, _ in pages for position in chunk]
    # a page's navigation follows from its path, its number, the number of pages and the links to years
    common = digest(renderer.page_key, repr(shared), len(pages), repr(pages[0][2]["year_links"]))
    key_at = renderer.entry_key_list.__getitem__

    def page_key(page: tuple[str, list[int], dict]) -> str:
        path, chunk, pagination = page
        items = "\n".join(map(key_at, chunk))  # the keys of its entries, by position: the entries are not touched
        return digest(common, path, pagination["number"], items)

    if last is None or last.common != common:
        return Listing(subject, common, pages, [page_key(page) for page in pages], ordered)
    keys = list(last.keys)
    entries, per_page = renderer.site.entries, renderer.site.config.records_per_page
    for position in changed:
        if subject is None or subject in entries[position].subjects:
            number = ordered.index(position) // per_page
            keys[number] = page_key(pages[number])
    return Listing(subject, common, pages, keys, ordered)


def _exports(renderer: "_Renderer", outputs: RecordOutputs, statics: dict[str, Path], result: RenderResult, same_pages: bool = False) -> None:
    """Everything but the pages; `same_pages`: the site has the pages of the last render (see `LastRender.same_lists`)."""
    site, urls, files = renderer.site, renderer.views.urls, result.files
    absolute = renderer.views.record_absolute_url
    # made of every record's BibTeX or JSON (270 MB at 100,000 records): not made when no record changed,
    # and not compared with the last build's when one did, as it then differs
    exports_key = digest(renderer.page_key, outputs.keys_total)
    for name, make in (("publications.bib", lambda: _lines(outputs.bibtex)), ("records.json", lambda: records_json(site, outputs.json_lines))):
        if not renderer.unchanged(name, exports_key, result):
            files[name] = make()
            result.remade.add(name)
    # the feed shows the newest records, the sitemap lists the pages: most edits change neither
    if not renderer.unchanged("feed.xml", digest(renderer.page_key, renderer.entry_key_list[:FEED_SIZE]), result):
        files["feed.xml"] = atom_feed(site, urls.absolute("feed.xml"), urls.absolute("index.html"), absolute)
    if same_pages:
        renderer.unchanged("sitemap.xml", renderer.previous_pages["sitemap.xml"], result)
    else:
        page_paths = sorted(path for path in result.page_keys if path.endswith("index.html"))
        if not renderer.unchanged("sitemap.xml", digest(renderer.page_key, "\n".join(page_paths)), result):
            files["sitemap.xml"] = sitemap([urls.absolute(path) for path in page_paths])
    files["robots.txt"] = robots_txt(urls.absolute("sitemap.xml"))
    files[".nojekyll"] = b""
    if site.config.cname:
        files["CNAME"] = site.config.cname.encode() + b"\n"
    for name, source in statics.items():
        files[f"static/{name}"] = source.read_bytes()


def _lines(texts: list[bytes]) -> Pieces:
    """`b"\\n".join(texts)`, as pieces."""
    parts = [b"\n"] * (2 * len(texts) - 1) if texts else []
    parts[::2] = texts
    return Pieces(parts)


def template_sources(theme: Theme, site_dir: Path) -> dict[str, bytes]:
    """Every template file that can be used, by path: what rendered pages depend on."""
    sources = {}
    for folder in template_dirs(theme, site_dir):
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                sources[path.as_posix()] = path.read_bytes()
    return sources


class _Renderer:
    """The environment and views of one render, shared with forked workers."""

    active: "_Renderer | None" = None

    def __init__(self, site: Site, environment: jinja2.Environment, views: ViewBuilder, previous_pages: dict[str, str], write_page=None, progress=None):
        self.site = site
        self.progress = progress
        self.environment = environment
        self.views = views
        self.previous_pages = previous_pages
        self.write_page = write_page
        self.page_key = ""  # the templates and site settings every page is made with
        self.entry_key_list: list[str] = []  # what each record's item, exports and page are made from, in the order of site.entries

    def unchanged(self, path: str, key: str, result: RenderResult) -> bool:
        """Note what `path` is made from; True when the last build made it from the same (it stays on disk)."""
        result.page_keys[path] = key
        if self.previous_pages.get(path) == key:
            result.kept.add(path)
            return True
        return False

    def render(self, template: str, context: dict, by_piece: bool = False) -> bytes | Pieces:
        return _render(self.environment, template, context, by_piece)

    def deliver(self, path: str, page: bytes):
        """In a worker: the page itself, or what `write_page` made of it."""
        return page if self.write_page is None else self.write_page(path, page)

    def keep(self, path: str, delivered, result: RenderResult) -> None:
        if self.write_page is None:
            result.files[path] = delivered
        else:
            result.written[path] = delivered

    def reporter(self, message: Callable[[int], str]) -> Callable[[int], None] | None:
        return None if self.progress is None else lambda count: self.progress(message(count))

    def in_parallel(self, function, items: list, min_items: int = MIN_PARALLEL_ITEMS, done=None) -> list:
        _Renderer.active = self
        try:
            return parallel_map(function, items, min_items, done)
        finally:
            _Renderer.active = None


LIST_ITEMS_WORTH_A_FORK = 5000  # starting workers from a large build takes a tenth of a second; 250 items take 10 ms


def _record_outputs(job: tuple[Entry, bool, bool]) -> tuple[tuple[bytes, bytes, bytes] | None, object]:
    """A record's list item, BibTeX entry and records.json entry, and its page (in a worker)."""
    entry, fragments_wanted, page_wanted = job
    renderer = _Renderer.active
    url = renderer.views.record_absolute_url(entry)
    made = page = None
    if fragments_wanted:
        # UTF-8, as kept in the cache: half the memory of the text (its quotes make it two bytes a character), read faster
        item = renderer.render("partials/record_item.html", {"record": renderer.views.record_item(entry)})
        made = (item, bibtex_entry(entry, url).encode(), record_json_line(entry, url, renderer.views.absolute_links(entry)))
        renderer.views.bibtex[entry.id] = made[1]
    if page_wanted:
        page = renderer.deliver(record_path(entry.slug), renderer.render("record.html", renderer.views.record_page(entry)))
    return made, page


def _list_page(job: tuple[str, str, Callable[[], dict]]):
    path, template, context = job
    renderer = _Renderer.active
    return renderer.deliver(path, renderer.render(template, context(), by_piece=True))


def _render(environment: jinja2.Environment, template: str, context: dict, by_piece: bool = False) -> bytes | Pieces:
    """The template rendered, in UTF-8.

    `by_piece` (for pages of many records) encodes each piece the template makes, and keeps
    them as Pieces (the write stage hands them to the kernel as they are): joined into one text
    first, a page of 250 records with a single character beyond U+FFFF (a bold x in one title)
    is four bytes a character, in a megabyte or more of fresh memory to fill and encode. Twice
    as fast on such pages; a little slower on a record's own page.
    """
    try:
        compiled = environment.get_template(template)
        if by_piece:
            return Pieces([piece.encode() for piece in compiled.generate(context)])
        return compiled.render(context).encode()
    except jinja2.TemplateSyntaxError as error:
        where = Location(_template_path(error.filename, error.name), error.lineno)
        raise ContentError(Problem(f"template error: {error.message}", where)) from error
    except jinja2.TemplateNotFound as error:
        raise ContentError(Problem(f"template not found: {error.name} (needed for {template})")) from error
    except jinja2.UndefinedError as error:
        raise ContentError(Problem(f"template error in {template}: {error.message}", _traceback_location(error))) from error
    except SitegenError:
        raise
    except Exception as error:  # `{{ 1 / 0 }}`, `{{ year + "x" }}`: a mistake in a template, not a crash of sitegen
        message = f"template error in {template}: {type(error).__name__}: {error}"
        raise ContentError(Problem(message, _traceback_location(error))) from error


def _template_path(filename: str | None, name: str | None) -> str:
    return filename or name or "<template>"


def _traceback_location(error: Exception) -> Location | None:
    """The template file and line where rendering failed, from the traceback."""
    tb = error.__traceback__
    found = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith((".html", ".xml", ".txt")) and Path(filename).exists():
            found = Location(filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
