"""Stage 3: from validated records to the `Site` the templates show.

Here records are merged (a hand-written record wins over a fetched one),
filtered (hidden, excluded arXiv groups), converted (LaTeX, Markdown), given
slugs and citation keys, and ordered newest first.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections import Counter
from functools import partial
from operator import attrgetter
from pathlib import Path

from sitegen.cache import digest
from sitegen.categories import subject_name
from sitegen.errors import Problem
from sitegen.latex import Converted
from sitegen.markup import render_inline, render_markdown
from sitegen.model import ARXIV_VERSION, ArxivSources, Author, Entry, Profile, Record, Site, SiteConfig, Subject, Text
from sitegen.parallel import parallel_map
from sitegen.values import replaced_positions

_UNSAFE_SLUG_CHARS = re.compile(r"[^A-Za-z0-9._-]")
_CITE_STOPWORDS = {"a", "an", "the", "on", "of", "for", "in", "to", "and", "with", "towards", "toward", "via", "at", "by", "from"}
AUTHOR_NAMES_KEPT = 20_000  # converted names kept per process (a name takes a few microseconds to convert)
MERGEABLE_FIELDS = [f.name for f in dataclasses.fields(Record) if f.name not in ("location", "origin", "given", "lines", "extra")]


def slugify(value: str) -> str:
    """SPEC §3: every character outside A-Za-z0-9._- becomes '-'."""
    return _UNSAFE_SLUG_CHARS.sub("-", value)


def enrich_site(
    config: SiteConfig, profile: Profile, records: list[Record], site_dir: Path, cache: dict | None = None, done=None,
    last_build: dict | None = None,
) -> tuple[Site, list[Problem]]:
    """`cache` maps entry keys to (Entry, problems) of earlier builds; it is updated in place
    (and loses the entries of records no longer shown).

    `done`, if given, hears now and then how many records are converted. `last_build`, if given,
    keeps what this build worked out for the next build in the same process (see Enriched, unique_cite_keys).
    """
    cache = {} if cache is None else cache
    last_build = {} if last_build is None else last_build
    last = last_build.pop("enrich", None)
    enriched = last.rebuilt(config, profile, records, site_dir, cache) if last else None
    if enriched is None:
        enriched = _enrich_all(config, profile, records, site_dir, cache, done, last_build)
    last_build["enrich"] = enriched
    return enriched.site, list(enriched.problems)


@dataclasses.dataclass
class Enriched:
    """One enrichment, kept by the dev server for its next build.

    When the settings and profile are the same and the records differ only where a record was
    replaced by one that keeps its place, its page and everything other records depend on (id,
    year, date, hidden, featured, subjects, cite key base; neither fetched; no problems), only
    those records are converted and put in place, provided no hand-written record was merged with
    a fetched one. At 100,000 records, enriching all of them again took 500-700 ms.
    """

    config: SiteConfig
    profile: Profile
    records: list[Record]  # as given
    site: Site
    problems: list[Problem]
    merged: bool  # a hand-written record and a fetched one were merged into a record not given
    position_of: dict[int, int]  # id() of the record of each entry -> the entry's position

    def rebuilt(self, config: SiteConfig, profile: Profile, records: list[Record], site_dir: Path, cache: dict) -> Enriched | None:
        """The enrichment of `records`, from this one; None when it cannot be built on.

        This one is not the caller's any more: its lists are updated in place.
        """
        if self.merged or config != self.config or profile != self.profile or site_dir != self.site.site_dir:
            return None
        changed = replaced_positions(records, self.records)
        if changed is None or not all(_keeps_its_place(self.records[i], records[i]) for i in changed):
            return None
        owner_names, owners_key = _owners(profile)
        position_of = self.position_of
        entries, replaced, converted = list(self.site.entries), [], 0
        for index in changed:
            old, new = self.records[index], records[index]
            if old.hidden:  # and so is the new one
                continue
            position, key = position_of[id(old)], entry_key(new, owners_key)
            earlier = entries[position]
            if key in cache:
                entry, problems = cache[key]
            else:  # one record: made here, not by a worker
                (entry, problems), converted = _converted_entry((new, _abstract_of(earlier, new)), owner_names), converted + 1
            if problems or earlier.key not in cache or cache[earlier.key][1] or entry.cite_base != earlier.cite_base:
                return None  # problems to list again, or cite keys to work out again: the whole walk
            replaced.append((position, old, new, dataclasses.replace(entry, record=new, cite_key=earlier.cite_key, key=key)))
        featured = [position_of[id(entry.record)] for entry in self.site.featured]
        for position, old, new, entry in replaced:  # nothing is changed before every record is known to fit
            del cache[entries[position].key]
            cache[entry.key] = (entry, [])
            entries[position] = entry
            del position_of[id(old)]
            position_of[id(new)] = position
        site = dataclasses.replace(self.site, entries=tuple(entries), featured=tuple(entries[p] for p in featured), converted=converted)
        return Enriched(config, profile, records, site, self.problems, False, position_of)


def _keeps_its_place(old: Record, new: Record) -> bool:
    """Does `new`, in place of `old`, leave the order, pages and subjects of every other record alone?"""
    return (
        not old.fetched and not new.fetched
        and (old.id, old.hidden, old.year, old.date, old.featured, old.categories) == (new.id, new.hidden, new.year, new.date, new.featured, new.categories)
        and old.identity_keys() == new.identity_keys()
    )


def _enrich_all(
    config: SiteConfig, profile: Profile, records: list[Record], site_dir: Path, cache: dict, done, last_build: dict,
) -> Enriched:
    merged = merge_fetched(records)
    shown = newest_first([r for r in merged if not r.hidden and not (r.fetched and is_excluded(r, profile.arxiv))])
    owner_names, owners_key = _owners(profile)
    keys = [entry_key(record, owners_key) for record in shown]
    missing = [(key, record) for key, record in zip(keys, shown) if key not in cache]
    stale = cache.keys() - set(keys)  # entries of records changed or gone
    if missing:
        earlier = {entry.id: entry for entry, _ in (cache[key] for key in stale)}  # by record id: what an edit keeps
        jobs = [(record, _abstract_of(earlier.get(record.id), record)) for _, record in missing]
        made = parallel_map(partial(_converted_entry, owner_names=owner_names), jobs, done=done)
        converted = dict(zip([key for key, _ in missing], made))
    else:
        converted = {}
    found = [cache[key] if key in cache else converted[key] for key in keys]
    cite_keys = unique_cite_keys([(record.id, entry.cite_base) for record, (entry, _) in zip(shown, found)], last_build)
    shared: dict = {}  # one object per distinct author and subject: less memory, a smaller and faster cache
    entries: list[Entry] = []
    problems: list[Problem] = []
    subjects: dict[str, Subject] = {}
    members: dict[str, list[int]] = {}  # subject code -> positions in entries
    featured = []
    position_of = {}
    for position, (key, record, (entry, entry_problems)) in enumerate(zip(keys, shown, found)):  # one pass: at 10,000 records every walk counts
        position_of[id(record)] = position
        cite_key = cite_keys[record.id]
        if key in converted:  # made just now, without its record (see _converted_entry)
            entry = dataclasses.replace(
                entry, record=record, cite_key=cite_key, key=key,
                authors=tuple(shared.setdefault(author, author) for author in entry.authors),
                subjects=tuple(shared.setdefault(subject, subject) for subject in entry.subjects),
            )
            cache[key] = (entry, entry_problems)
        elif not (entry.record is record and entry.cite_key == cite_key and entry.key == key):
            entry = dataclasses.replace(entry, record=record, cite_key=cite_key, key=key)
            cache[key] = (entry, entry_problems)
        entries.append(entry)
        problems.extend(entry_problems)
        for subject in entry.subjects:
            group = members.get(subject.code)
            if group is None:
                subjects[subject.code] = subject
                group = members[subject.code] = []
            group.append(position)
        if record.featured:
            featured.append(entry)
    for key in stale:
        del cache[key]
    entries = tuple(entries)
    bio = render_markdown(profile.bio)
    # 'Lena M{\"u}ller', 'Universit{\"a}t' copied from a LaTeX CV: shown as Unicode like record text
    profile_text = {name: render_inline(getattr(profile, name)) for name in ("name", "position", "affiliation")}
    for name, text in [("bio", bio), *profile_text.items()]:
        _report_unconverted(profile, name, text.unconverted, problems)
    readable = {name: text.plain for name, text in profile_text.items()}
    site = Site(
        config=config,
        profile=dataclasses.replace(profile, **readable),
        bio_html=bio.html,
        entries=entries,
        subjects=tuple(sorted(subjects.values(), key=lambda s: (s.name.lower(), s.code))),
        site_dir=site_dir,
        subject_positions={code: tuple(group) for code, group in members.items()},
        featured=tuple(featured),
        converted=len(converted),
    )
    return Enriched(config, profile, records, site, problems, len(merged) != len(records), position_of)


def merge_fetched(records: list[Record]) -> list[Record]:
    """One record per paper: a hand-written one overrides fetched fields it sets."""
    if not any(r.fetched for r in records):
        return list(records)
    written = [r for r in records if not r.fetched]
    by_key: dict[str, Record] = {}
    for record in written:
        for key in record.identity_keys():
            by_key.setdefault(key, record)
    merged = list(written)
    position = {id(record): index for index, record in enumerate(written)}
    absorbed: set[int] = set()
    for fetched in (r for r in records if r.fetched):
        own = next((by_key[k] for k in fetched.identity_keys() if k in by_key), None)
        if own is None:
            merged.append(fetched)
            continue
        if id(own) in absorbed:  # a second fetched copy of the same paper (e.g. same DOI): the first one stands
            continue
        absorbed.add(id(own))
        overrides = {name: getattr(own, name) for name in MERGEABLE_FIELDS if name in own.given}
        combined = dataclasses.replace(
            fetched, **overrides, location=own.location, origin=own.origin, given=tuple(sorted(set(fetched.given) | set(own.given))),
            source_key=f"{own.source_key}+{fetched.source_key}" if own.source_key and fetched.source_key else "",
            lines=own.lines, extra={**fetched.extra, **own.extra},
        )
        merged[position[id(own)]] = combined
    return merged


def is_excluded(record: Record, sources: ArxivSources) -> bool:
    """The profile's arXiv exclusions apply to fetched records, at every build."""
    if not record.fetched:
        return False
    if ARXIV_VERSION.sub("", record.id) in {ARXIV_VERSION.sub("", i) for i in sources.exclude_ids}:
        return True
    if set(record.categories) & set(sources.exclude_categories):
        return True
    return bool(sources.categories) and not set(record.categories) & set(sources.categories)


def newest_first(records: list[Record]) -> list[Record]:
    """By year, then date (a record with only a year comes after those with dates), newest first; ties by id."""
    by_id = sorted(records, key=attrgetter("id"))
    # a day's ordinal is never 0, so a record with only a year sorts below the dated ones of its year
    return sorted(by_id, key=lambda r: (r.year, r.date.toordinal() if r.date else 0), reverse=True)  # stable: ids stay in order


@functools.lru_cache(maxsize=65536)
def normalise_name(name: str) -> str:
    """'L. M{\\"u}ller', 'Müller, L.' and 'l muller' compare equal."""
    plain = render_inline(name).plain
    if plain.count(",") == 1:  # BibTeX order: 'Müller, Lena' is 'Lena Müller'
        last, first = plain.split(",")
        plain = f"{first} {last}"
    return normalise_text(plain)


def normalise_text(plain: str) -> str:
    """Text with its LaTeX converted already -> lower-case ASCII words."""
    ascii_only = unicodedata.normalize("NFKD", plain).encode("ascii", "ignore").decode()
    return " ".join(re.sub(r"[^a-z ]", " ", ascii_only.lower()).split())


def _owners(profile: Profile) -> tuple[frozenset[str], str]:
    """The owner's names, normalised, and a key of them (entries are made from them: see entry_key)."""
    names = {normalise_name(n) for n in (profile.name, *profile.name_variants)}
    names |= {n.replace("ue", "u").replace("oe", "o").replace("ae", "a") for n in names}
    owner_names = frozenset(names - {""})
    return owner_names, digest(repr(sorted(owner_names)))


def _is_owner(name: str, owner_names: frozenset[str]) -> bool:
    normal = normalise_name(name)
    return normal in owner_names or normal.replace("ue", "u").replace("oe", "o").replace("ae", "a") in owner_names


def assign_cite_keys(records: list[Record]) -> dict[str, str]:
    """author+year+word keys, made unique with a/b/c in id order so they never shuffle."""
    return unique_cite_keys([(record.id, cite_base(record)) for record in records])


def unique_cite_keys(bases: list[tuple[str, str]], last_build: dict | None = None) -> dict[str, str]:
    """(record id, base key) pairs -> record id: key, with a/b/c added in id order.

    The dev server asks again with the same pairs after most edits (an abstract
    fixed, a link added, a title's later words): with `last_build` (what the build
    cache keeps in memory), the last answer is given again, a copy, when the pairs
    are equal. Comparing them costs a few milliseconds at 100,000 records, where
    working the keys out takes 200-260 ms.
    """
    if last_build is None:
        return _unique_cite_keys(bases)
    last = last_build.get("cite_keys")
    if last is not None and last[0] == bases:
        return dict(last[1])
    keys = _unique_cite_keys(bases)
    last_build["cite_keys"] = (list(bases), dict(keys))
    return keys


def _unique_cite_keys(bases: list[tuple[str, str]]) -> dict[str, str]:
    keys = dict(bases)
    shared = {key: [] for key, count in Counter(keys.values()).items() if count > 1}  # most keys are unique: nothing to sort
    if shared:
        for record_id, key in keys.items():
            if key in shared:
                shared[key].append(record_id)
        for key, ids in shared.items():
            for count, record_id in enumerate(sorted(ids)):
                keys[record_id] = key if count == 0 else f"{key}{chr(ord('a') + count) if count < 26 else count}"
    return keys


def cite_base(record: Record, title_plain: str | None = None) -> str:
    """`title_plain`: the title with its LaTeX converted, when known already (titles are not converted twice)."""
    first_author = record.authors[0] if record.authors else "anon"
    last_name = normalise_name(first_author).split(" ")[-1] or "anon"
    title = normalise_text(render_inline(record.title).plain if title_plain is None else title_plain)  # no name order: 'Attention, Please'
    words = [w for w in title.split() if w not in _CITE_STOPWORDS]
    return f"{last_name}{record.year}{words[0] if words else ''}"


def entry_key(record: Record, owners_key: str) -> str:
    """Everything an entry is made from: the record as written, and who the owner is.

    A record read from a file is named by the file's hash and its place in it
    (`source_key`, which includes the path); any other is hashed whole.
    """
    if record.source_key:
        return f"{record.source_key} {owners_key}"
    return digest(repr(record), str(record.location), owners_key)


def _abstract_of(earlier: Entry | None, record: Record) -> Converted | None:
    """The conversion of an edited record's abstract, when the edit left the abstract alone."""
    if earlier is None or earlier.record.abstract != record.abstract:
        return None
    return Converted(earlier.abstract_html, earlier.abstract_plain, list(earlier.abstract_unconverted))


def _converted_entry(job: tuple[Record, Converted | None], owner_names: frozenset[str]) -> tuple[Entry, list[Problem]]:
    """In a worker: the entry without its record, which the caller holds already (half as much to send back)."""
    record, abstract = job
    problems: list[Problem] = []
    return dataclasses.replace(_entry(record, owner_names, "", problems, abstract), record=None), problems


def _entry(record: Record, owner_names: frozenset[str], cite_key: str, problems: list[Problem], abstract: Converted | None = None) -> Entry:
    """`abstract`: the abstract's conversion, if known already (Markdown and math take most of the time here)."""
    title = _text(record, "title", record.title, problems)
    source = _text(record, "source", record.source, problems)
    abstract = render_markdown(record.abstract) if abstract is None else abstract
    _report_unconverted(record, "abstract", abstract.unconverted, problems)
    authors = []
    for name in record.authors:
        author, unconverted = _author(name, owner_names)
        _report_unconverted(record, "authors", unconverted, problems)
        authors.append(author)
    subjects = tuple(Subject(code, subject_name(code), slugify(code)) for code in dict.fromkeys(record.categories))
    return Entry(
        record=record,
        slug=slugify(record.id),
        title=title,
        authors=tuple(authors),
        abstract_html=abstract.html,
        abstract_plain=abstract.plain,
        abstract_unconverted=tuple(abstract.unconverted),
        subjects=subjects,
        cite_key=cite_key,
        source=source,
        cite_base=cite_base(record, title.plain),
    )


@functools.lru_cache(maxsize=AUTHOR_NAMES_KEPT)
def _author(name: str, owner_names: frozenset[str]) -> tuple[Author, tuple[str, ...]]:
    """An author as written -> (Author, LaTeX left as source). Names come again and again
    (the owner's on every record, co-authors on many): each is converted once."""
    converted = render_inline(name)
    return Author(converted.plain, _is_owner(name, owner_names)), tuple(converted.unconverted)


def _text(record: Record, field_name: str, value: str, problems: list[Problem]) -> Text:
    converted = render_inline(value)
    _report_unconverted(record, field_name, converted.unconverted, problems)
    return Text(converted.html, converted.plain, value)


def _report_unconverted(written: Record | Profile, field_name: str, sources: list[str], problems: list[Problem]) -> None:
    for tex in sources:
        problems.append(Problem(f"field '{field_name}': LaTeX shown as source, cannot convert {tex}", written.where(field_name), warning=True))

