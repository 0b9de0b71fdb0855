"""Which shown records belong to whom (SPEC §9).

Members (person files) first: a record is a member's when one of its authors
carries their name, a variant, or (when the record gives authors' identifiers,
`author_ids: {Name: ORCID or arXiv author id}`) their identifier, minus their
exclusions. A member with anchors (`coauthors:`, an ORCID or arXiv author id)
takes only the groups of those records that an anchor reaches: the groups are
those of `sitegen fetch --review` (sitegen.disambiguate.group_papers: records
linked by shared co-authors other than the person).

With `people: authors`, every author of the records not taken by a member is a
person: the records of one name are split into the same co-author groups, and
each group is a page. Groups are numbered by their earliest record (year, date,
id), so a new record gets a new number rather than renumbering the people before
it: `sheng-lin` stays the person it was until the evidence itself changes (a
record that joins two groups).

Links to people never depend on other records (see `home_slug`): every author
name links to the page of its name (its member, or the first person of that
name) at the record's anchor, and that page lists the record or says which
namesake it belongs to. So a page's links change only with the page itself and
the people files, and the build cache stays exact.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sitegen.disambiguate import Paper, connected_groups, group_papers, initial_key, name_key, shares_coauthor
from sitegen.errors import ContentError, Location, Problem
from sitegen.model import Entry
from sitegen.people.files import MemberLinks, Person
from sitegen.people.names import name_slug, person_key, surname_order

_ARXIV_VERSION = re.compile(r"v\d+$")
_ORCID_URL = re.compile(r"^(https?://)?(www\.)?orcid\.org/", re.I)
EVIDENCE_SHOWN = 6  # shared co-authors a page names as the evidence of its grouping


@dataclass
class PersonRecords:
    """One person of the directory and what the build decided is theirs."""

    slug: str
    name: str  # as shown
    key: str  # the name key the person was made for (a member: their name's)
    positions: list[int]  # in `site.entries`: newest first
    member: Person | None = None
    number: int = 1  # among the generated people of this name, by earliest record
    evidence: list[tuple[str, int]] = field(default_factory=list)  # co-authors shared by 2+ records: (name, records)
    coauthors: list[str] = field(default_factory=list)  # of a single record: who wrote it with them
    namesakes: list[str] = field(default_factory=list)  # slugs of the other people of this name
    subjects: list[str] = field(default_factory=list)  # most frequent first
    years: str = ""


@dataclass
class Pointer:
    """A record of a page's name that is not the page's person's: where it went, and why."""

    position: int
    slug: str | None  # the person who has it, or None (no page: a name outside the members)
    reason: str


@dataclass
class Directory:
    people: dict[str, PersonRecords]  # slug -> person
    pointers: dict[str, list[Pointer]]  # slug of a name's home page -> the records of that name it does not list
    authors_mode: bool

    def ordered(self) -> list[PersonRecords]:
        """The index's order: members in file order first, then by surname."""
        members = [p for p in self.people.values() if p.member is not None]
        others = sorted((p for p in self.people.values() if p.member is None), key=lambda p: (surname_order(p.key), p.number, p.slug))
        return members + others


def unmatched_members(entries: Sequence[Entry], members: Sequence[Person]) -> list[Problem]:
    """A warning for each person file whose name, variants and identifiers appear on no record.

    Their page would list nothing; the usual cause is a spelling the records do not use.
    """
    if not members:
        return []
    names: set[str] = set()
    identifiers: set[str] = set()
    for entry in entries:
        names.update(person_key(author.name) for author in entry.authors)
        if "author_ids" in entry.record.extra:
            for ids in record_author_ids(entry).values():
                identifiers |= ids
    problems = []
    for member in members:
        if names.isdisjoint(member.name_keys) and identifiers.isdisjoint(i.lower() for i in member.identifiers):
            tried = ", ".join(repr(n) for n in (member.name, *member.name_variants))
            message = f"person {member.name!r} matches no record: no record names {tried}; their page lists no records (add the spelling the records use to name_variants)"
            problems.append(Problem(message, Location(member.path, member.lines.get("name") or member.lines.get("")), warning=True))
    return problems


def record_author_ids(entry: Entry) -> dict[str, set[str]]:
    """A record's `author_ids` (name -> ORCID iD or arXiv author id, or a list), by name key, in lower case."""
    given = entry.record.extra.get("author_ids")
    if not isinstance(given, Mapping):
        return {}
    found: dict[str, set[str]] = {}
    for name, value in given.items():
        values = value if isinstance(value, list) else [value]
        ids = {_ORCID_URL.sub("", str(v).strip()).lower() for v in values if isinstance(v, (str, int)) and str(v).strip()}
        if ids:
            found.setdefault(person_key(str(name)), set()).update(ids)
    return found


def bare_id(record_id: str) -> str:
    return _ARXIV_VERSION.sub("", record_id)


def excluded_by(entry: Entry, slug: str, links: MemberLinks) -> bool:
    """Does the member's file exclude this record (by id, or by an arXiv subject)?"""
    ids = links.excluded.get(slug)
    if ids and bare_id(entry.record.id) in ids:
        return True
    categories = links.categories.get(slug)
    return bool(categories) and not set(entry.record.categories).isdisjoint(categories or ())


def home_slug(key: str, links: MemberLinks) -> str:
    """The page an author name links to, from the name and the people files alone.

    A member's name: the member. Any other name: its own slug, or, when a member's
    file took that slug, the first free of `<slug>-2`, `<slug>-3`, ...
    """
    member = links.names.get(key)
    if member is not None:
        return member
    base = name_slug(key)
    taken = set(links.slugs)
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


def what_attribution_reads(entries: Sequence[Entry]) -> list[tuple[Any, ...]]:
    """Everything `attribute` reads of the records, in their order: the same list, the same directory.

    Its authors' names and identifiers, its id, year and date (the order of a name's
    groups), its subjects (the evidence, a member's excluded subjects); not its
    title, venue or abstract, so that the dev server keeps the directory when an
    edit changes only those (`Fragments.value`)."""
    return [
        (
            entry.record.id,
            [author.name for author in entry.authors],
            entry.record.year,
            entry.record.date.toordinal() if entry.record.date else 0,
            list(entry.record.categories),
            {key: sorted(ids) for key, ids in record_author_ids(entry).items()},
        )
        for entry in entries
    ]


def attribute(entries: Sequence[Entry], members: Sequence[Person], links: MemberLinks, authors_mode: bool) -> Directory:
    """Everyone's records: members' by their anchors, then (with `people: authors`) a person per co-author group of each other name."""
    names = _Names(entries)
    people: dict[str, PersonRecords] = {}
    taken: dict[tuple[int, str], str] = {}  # (position, name key) -> slug of the person who is that author
    reasons: dict[tuple[int, str], str] = {}  # (position, name key) -> why a member did not take it
    for member in members:
        person = _member_records(member, entries, names, links, taken, reasons)
        people[member.slug] = person
    if authors_mode:
        _generated_people(entries, names, links, people, taken)
    pointers = _pointers(names, links, people, taken, reasons, authors_mode)
    return Directory(people, pointers, authors_mode)


class _Names:
    """The records' author names: by record, by name key, and how each name is most often written."""

    def __init__(self, entries: Sequence[Entry]):
        self.keys_of: list[tuple[str, ...]] = []  # per position: its authors' keys, each once
        self.positions: dict[str, list[int]] = defaultdict(list)  # key -> positions, newest first
        spellings: dict[str, Counter[str]] = defaultdict(Counter)
        for position, entry in enumerate(entries):
            keys = []
            for author in entry.authors:
                key = person_key(author.name)
                if key:
                    keys.append(key)
                    spellings[key][author.name] += 1
            unique = tuple(dict.fromkeys(keys))
            self.keys_of.append(unique)
            for key in unique:
                self.positions[key].append(position)
        self.shown = {key: min(counts.items(), key=lambda item: (-item[1], item[0]))[0] for key, counts in spellings.items()}
        self.initials = {key: _initials(key) for key in self.positions}  # key -> its initials and surname
        # key -> what fetch's grouping (disambiguate.group_papers) compares of it: its name key, and initials and surname
        self.grouped_as = {key: (name_key(key), initial_key(key)) for key in self.positions}
        self.ids_of: dict[int, dict[str, set[str]]] = {}
        for position, entry in enumerate(entries):
            if "author_ids" in entry.record.extra:
                ids = record_author_ids(entry)
                if ids:
                    self.ids_of[position] = ids


def _member_records(
    member: Person, entries: Sequence[Entry], names: _Names, links: MemberLinks, taken: dict[tuple[int, str], str], reasons: dict[tuple[int, str], str]
) -> PersonRecords:
    keys = set(member.name_keys)
    identifiers = {i.lower() for i in member.identifiers}
    by_identifier: dict[int, str] = {}  # position -> the key of the author whose identifier is the member's
    contradicted: set[int] = set()  # positions where the member's name carries someone else's identifier
    for position, ids in names.ids_of.items():
        for key, values in ids.items():
            if values & identifiers:
                by_identifier[position] = key
            elif key in keys and identifiers:
                contradicted.add(position)
    candidates: dict[int, list[str]] = {}  # position -> the member's keys among its authors
    for key in keys:
        for position in names.positions.get(key, ()):
            candidates.setdefault(position, []).append(key)
    for position, key in by_identifier.items():
        candidates.setdefault(position, []).append(key)
    kept = []
    for position in sorted(candidates):
        if excluded_by(entries[position], member.slug, links):
            why = "excluded by " + member.path
        elif position in contradicted and position not in by_identifier:
            why = "the record gives this author another identifier"
        else:
            kept.append(position)
            continue
        for key in candidates[position]:
            reasons.setdefault((position, key), why)
    if member.anchored and kept:
        own = keys | set(by_identifier.values())
        papers = [Paper(str(p), "", _paper_authors(names, p, own), (), entries[p].record.year) for p in kept]
        groups, _ = group_papers(papers, sorted(own))
        mine = set(by_identifier)
        anchors = list(member.coauthors)
        for group in groups:
            group_positions = [int(i) for i in group.ids]
            if shares_coauthor(group, anchors) or mine.intersection(group_positions):
                mine.update(group_positions)
        why = f"shares no co-author named in coauthors: of {member.path}"
        for position in kept:
            if position not in mine:
                for key in candidates[position]:
                    reasons.setdefault((position, key), why)
        kept = [p for p in kept if p in mine]
    for position in kept:
        for key in candidates[position]:
            taken.setdefault((position, key), member.slug)
    person = PersonRecords(member.slug, member.name, person_key(member.name), kept, member=member)
    _describe(person, entries, names, keys)
    return person


def _paper_authors(names: _Names, position: int, own: set[str]) -> tuple[str, ...]:
    """What grouping reads of a record: the person's own key first, then the co-authors' keys."""
    keys = names.keys_of[position]
    first = next((k for k in keys if k in own), None)
    return tuple(([first] if first else []) + [k for k in keys if k != first])


def _generated_people(entries: Sequence[Entry], names: _Names, links: MemberLinks, people: dict[str, PersonRecords], taken: dict[tuple[int, str], str]) -> None:
    """A person per co-author group of every name's records that no member took."""
    homes: dict[str, str] = {}
    groups_of: dict[str, list[list[int]]] = {}
    for key in sorted(names.positions):
        left = [p for p in names.positions[key] if (p, key) not in taken]
        if not left:
            continue
        groups_of[key] = _groups(entries, names, key, left)
        if key not in links.names:
            homes[key] = home_slug(key, links)
    _check_homes(homes, names)
    used = set(links.slugs) | set(homes.values())
    for key, groups in groups_of.items():
        base = name_slug(key)
        slugs = []
        number = 1
        for index, positions in enumerate(groups):
            if index == 0 and key in homes:
                slug = homes[key]
            else:
                number = max(number, 2)
                while f"{base}-{number}" in used:
                    number += 1
                slug = f"{base}-{number}"
                used.add(slug)
            slugs.append(slug)
            person = PersonRecords(slug, names.shown[key], key, sorted(positions), number=index + 1)
            _describe(person, entries, names, {key})
            people[slug] = person
            for position in positions:
                taken[(position, key)] = slug
        for slug in slugs:
            people[slug].namesakes = [s for s in slugs if s != slug]


def _groups(entries: Sequence[Entry], names: _Names, key: str, positions: list[int]) -> list[list[int]]:
    """The co-author groups of one name's records, earliest record first.

    Co-authors on only one of these records cannot join two of them, so grouping
    reads only the others: the groups are those of `group_papers` on every author.
    """
    if len(positions) == 1:
        return [positions]
    counts = Counter(k for p in positions for k in names.keys_of[p] if k != key)
    if not any(n > 1 for n in counts.values()):  # no co-author on two of them: each record alone
        return [[p] for p in sorted(positions, key=lambda p: _age(entries[p]))]
    papers = [Paper(str(p), "", (), (), entries[p].record.year) for p in positions]
    shared = [k for k, n in counts.items() if n > 1]
    evidence = set(_as_grouping_compares(names, shared, key))
    coauthors = [[names.grouped_as[k][0] for k in names.keys_of[p] if k in evidence] for p in positions]
    groups = connected_groups(papers, coauthors)
    found = [sorted(int(i) for i in group.ids) for group in groups]
    return sorted(found, key=lambda group: min(_age(entries[p]) for p in group))


def _as_grouping_compares(names: _Names, keys: list[str], own: str) -> list[str]:
    """The keys group_papers takes for co-authors of `own`: not empty, neither its name nor its initials and surname."""
    own_key, own_initials = names.grouped_as[own]
    return [k for k in keys if (grouped := names.grouped_as[k])[0] and grouped[0] != own_key and grouped[1] != own_initials]


def _age(entry: Entry) -> tuple[int, int, str]:
    """Earliest first: year, then date (a record with only a year before the dated ones of its year), then id."""
    record = entry.record
    return (record.year, record.date.toordinal() if record.date else 0, record.id)


def _check_homes(homes: dict[str, str], names: _Names) -> None:
    seen: dict[str, str] = {}
    problems = []
    for key, slug in homes.items():
        other = seen.setdefault(slug, key)
        if other != key:
            problems.append(
                Problem(
                    f"the authors {names.shown[other]!r} and {names.shown[key]!r} would share the page people/{slug}/ "
                    "(a person file took the slug of one): give one of them a person file with its own slug"
                )
            )
    if problems:
        raise ContentError(problems)


def _initials(key: str) -> str:
    """disambiguate.initial_key of a name key: 's lin' for 'sheng lin' (what grouping takes for the person's own name)."""
    words = key.split()
    return f"{words[0][0]} {words[-1]}" if len(words) >= 2 else key


def _describe(person: PersonRecords, entries: Sequence[Entry], names: _Names, own: set[str]) -> None:
    """What a page says of its person: shared co-authors (the evidence), subjects, years.

    Names that grouping takes for the person's own (the same initials and surname) are no evidence.
    """
    own_initials = {_initials(k) for k in own}
    counts = Counter(key for position in person.positions for key in names.keys_of[position] if names.initials[key] not in own_initials)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], names.shown[item[0]]))
    person.evidence = [(names.shown[k], n) for k, n in ranked if n > 1][:EVIDENCE_SHOWN]
    if len(person.positions) == 1:
        person.coauthors = [names.shown[k] for k, _ in ranked][:EVIDENCE_SHOWN]
    subjects = Counter(c for p in person.positions for c in entries[p].record.categories)
    person.subjects = [c for c, _ in sorted(subjects.items(), key=lambda item: (-item[1], item[0]))]
    years = sorted({entries[p].record.year for p in person.positions if entries[p].record.year})
    person.years = "" if not years else str(years[0]) if years[0] == years[-1] else f"{years[0]}–{years[-1]}"


def _pointers(
    names: _Names,
    links: MemberLinks,
    people: dict[str, PersonRecords],
    taken: dict[tuple[int, str], str],
    reasons: dict[tuple[int, str], str],
    authors_mode: bool,
) -> dict[str, list[Pointer]]:
    """For each name's home page, the records of that name it does not list, and where they went."""
    pointers: dict[str, list[Pointer]] = defaultdict(list)
    listed = {slug: set(person.positions) for slug, person in people.items()}
    homes = dict(links.names)
    keys = names.positions if authors_mode else [k for k in homes if k in names.positions]
    for key in keys:
        home = homes.get(key) or home_slug(key, links)
        if home not in listed:
            continue
        seen = listed[home]
        for position in names.positions[key]:
            if position not in seen:
                pointers[home].append(Pointer(position, taken.get((position, key)), reasons.get((position, key), "")))
    for home, found in pointers.items():  # a record naming two spellings of one home once, in the site's order
        first: dict[int, Pointer] = {}
        for pointer in sorted(found, key=lambda p: p.position):
            first.setdefault(pointer.position, pointer)
        pointers[home] = list(first.values())
    return dict(pointers)


def people_setting(extra: Mapping[str, Any]) -> str | None:
    """site.yaml `people:`: 'authors' (a page for every author) or absent; anything else is an error."""
    value = extra.get("people")
    if value is None or value == "members":
        return None
    if value == "authors":
        return "authors"
    raise ContentError(Problem(f"content/site.yaml: field 'people': expected 'authors' (a page for every author of the records) or nothing, got {value!r}"))
