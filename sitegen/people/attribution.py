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

import difflib
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sitegen.disambiguate import Paper, connected_groups, group_papers, initial_key, name_key
from sitegen.errors import ContentError, Location, Problem
from sitegen.model import Entry, free_key
from sitegen.people.files import MemberLinks, Person, identifier_key
from sitegen.people.names import family_name, name_slug, person_key, spaced_person_key

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
    family: str = ""  # the family name the index sorts by and lists under (names.family_name), of the name as written
    forms: list[str] = field(default_factory=list)  # the owner's: other forms of their name their records write, most frequent first
    former_slugs: list[str] = field(default_factory=list)  # addresses the page had when '李 华' and '李华' were two names


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
    member_problems: list[Problem] = field(default_factory=list)  # warnings at a person file's line
    ambiguous: list[tuple[int, str]] = field(default_factory=list)  # (position, why): a record no member of its name has

    def problems(self, entries: Sequence[Entry]) -> list[Problem]:
        """The warnings of the attribution: a record's is placed at the record as this build read it."""
        at_records = [Problem(why, entries[position].record.location, warning=True) for position, why in self.ambiguous]
        return self.member_problems + at_records

    def ordered(self) -> list[PersonRecords]:
        """The index's order, section by section (see `section`): current members, alumni, then the other authors;
        members by their `weight` (the lowest first, then those without one), then by surname; authors by surname."""
        return sorted(self.people.values(), key=_index_order)


def section(person: PersonRecords) -> str:
    """The part of the people index a person is listed in: 'members', 'alumni' (a file's `alumni: true`) or 'authors'."""
    if person.member is None or person.member.owner:  # the owner of a person's site is an author of its records
        return "authors"
    return "alumni" if person.member.alumni else "members"


_SECTIONS = {"members": 0, "alumni": 1, "authors": 2}


def _index_order(person: PersonRecords) -> tuple[Any, ...]:
    weight = person.member.weight if person.member is not None else None
    owner = person.member is not None and person.member.owner  # first: the site is theirs
    return (_SECTIONS[section(person)], not owner, weight is None, weight or 0, person.family, person.key, person.number, person.slug)


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


def record_identifiers(entry: Entry) -> dict[str, str]:
    """Every identifier of the work (SPEC §6: a merged record keeps them all), as `exclude_ids` compare them
    (lower case, no arXiv version) -> as the record writes it: its id and aliases (its other citation keys), arXiv
    id, DOI and the other `ids`."""
    record = entry.record
    written = [record.id, *record.aliases, record.arxiv, record.doi, *record.ids.values()]
    return {identifier_key(value): value for value in written if value and value.strip()}


def excluded_by(entry: Entry, slug: str, links: MemberLinks) -> bool:
    """Does the member's file exclude this record (by any of its identifiers, or by an arXiv subject)?"""
    ids = links.excluded.get(slug)
    if ids and not record_identifiers(entry).keys().isdisjoint(ids):
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
    return free_key(set(links.slugs), name_slug(key), "-")


def what_attribution_reads(entries: Sequence[Entry]) -> list[tuple[Any, ...]]:
    """Everything `attribute` reads of the records, in their order: the same list, the same directory.

    Its authors' names and identifiers, its id, year and date (the order of a name's
    groups), its subjects (the evidence, a member's excluded subjects); not its
    title, venue or abstract, so that the dev server keeps the directory when an
    edit changes only those (`Fragments.value`)."""
    return [
        (
            entry.record.id,
            entry.record.aliases,  # what exclude_ids match, as the id
            [author.name for author in entry.authors],
            [author.is_owner for author in entry.authors],  # the owner's forms are one name (_Names)
            list(entry.record.authors),  # as written: 'García-Fernández de la Fuente, María José' is listed by all its family name
            entry.record.year,
            entry.record.date.toordinal() if entry.record.date else 0,
            list(entry.record.categories),
            (entry.record.arxiv, entry.record.doi, tuple(entry.record.ids.values())),  # what exclude_ids match besides the id
            {key: sorted(ids) for key, ids in record_author_ids(entry).items()},
        )
        for entry in entries
    ]


def attribute(entries: Sequence[Entry], members: Sequence[Person], links: MemberLinks, authors_mode: bool) -> Directory:
    """Everyone's records: members' by their anchors, then (with `people: authors`) a person per co-author group of each other name."""
    owner = next((member.name for member in members if member.owner), None)
    names = _Names(entries, owner)
    people: dict[str, PersonRecords] = {}
    taken: dict[tuple[int, str], str] = {}  # (position, name key) -> slug of the person who is that author
    reasons: dict[tuple[int, str], str] = {}  # (position, name key) -> why a member did not take it
    claims = _Claims(members, names, links)
    for member in members:
        if member.owner and not _named(member, names):
            continue  # a site whose profile no record names (an aggregator's): its owner has no page
        person = _member_records(member, entries, names, links, taken, reasons, claims)
        people[member.slug] = person
    if authors_mode:
        _generated_people(entries, names, links, people, taken)
    _namesakes(people)
    pointers = _pointers(names, links, people, taken, reasons, authors_mode)
    return Directory(people, pointers, authors_mode, claims.member_problems, sorted(claims.ambiguous.items()))


class _Names:
    """The records' author names: by record, by name key, and how each name is most often written."""

    def __init__(self, entries: Sequence[Entry], owner: str | None = None):
        """`owner`: the name of the site's owner when they are one of its people: every author the lists highlight
        as theirs ('J. Smith', 'Smith, John A.' for John A. Smith: enrich.owner_score) is that name here, on the
        records that do, so that the owner is one person and one co-author of the others."""
        owner_key = person_key(owner) if owner else ""
        self.keys_of: list[tuple[str, ...]] = []  # per position: its authors' keys, each once
        self.positions: dict[str, list[int]] = defaultdict(list)  # key -> positions, newest first
        spellings: dict[str, Counter[str]] = defaultdict(Counter)
        written: dict[str, Counter[str]] = defaultdict(Counter)
        for position, entry in enumerate(entries):
            keys = []
            for author, as_written in zip(entry.authors, entry.record.authors, strict=False):
                key = owner_key if owner_key and author.is_owner else person_key(author.name)
                if key:
                    keys.append(key)
                    spellings[key][author.name] += 1
                    written[key][as_written] += 1
            unique = tuple(dict.fromkeys(keys))
            self.keys_of.append(unique)
            for key in unique:
                self.positions[key].append(position)
        self.shown = {key: min(counts.items(), key=lambda item: (-item[1], item[0]))[0] for key, counts in spellings.items()}
        self.spellings = {key: sorted(counts) for key, counts in spellings.items()}
        self.owner_forms = [written for written, _ in sorted(spellings[owner_key].items(), key=lambda item: (-item[1], item[0]))] if owner_key else []
        if owner_key in self.shown and owner:
            self.shown[owner_key] = owner  # 'John A. Smith (7 records)' among the evidence, as the profile names them
        # the family name of the spelling written most often ('Fuente, María José García-Fernández de la' is the
        # records' to make, as BibTeX's): the index's order and letters
        self.family = {key: family_name(min(counts.items(), key=lambda item: (-item[1], item[0]))[0]) for key, counts in written.items()}
        self.initials = {key: _initials(key) for key in self.positions}  # key -> its initials and surname
        # key -> what fetch's grouping (disambiguate.group_papers) compares of it: its name key, and initials and surname
        self.grouped_as = {key: (name_key(key), initial_key(key)) for key in self.positions}
        self.ids_of: dict[int, dict[str, set[str]]] = {}
        for position, entry in enumerate(entries):
            if "author_ids" in entry.record.extra:
                authors = self.keys_of[position]  # a name that is none of them ties no one (validate warns of it)
                ids = {key: values for key, values in record_author_ids(entry).items() if key in authors}
                if ids:
                    self.ids_of[position] = ids


def _named(member: Person, names: _Names) -> bool:
    """Does a record name the person, by a name of theirs or by an identifier in its `author_ids`?"""
    identifiers = {i.lower() for i in member.identifiers}
    return any(key in names.positions for key in member.name_keys) or any(
        not identifiers.isdisjoint(values) for ids in names.ids_of.values() for values in ids.values()
    )


def _member_records(
    member: Person,
    entries: Sequence[Entry],
    names: _Names,
    links: MemberLinks,
    taken: dict[tuple[int, str], str],
    reasons: dict[tuple[int, str], str],
    claims: _Claims,
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
    if not member.owner:  # the profile's exclusions are of fetched records, which the site does not show
        claims.check_exclusions(member, entries, sorted(candidates))
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
    if member.anchored:
        claims.check_anchors(member, sorted(candidates), keys)
    if member.anchored and kept:
        mine, why_not = claims.anchored(member, entries, kept, keys, set(by_identifier))
        for position in kept:
            if position not in mine:
                for key in candidates[position]:
                    reasons.setdefault((position, key), why_not[position])
        kept = [p for p in kept if p in mine]
    for position in kept:
        for key in candidates[position]:
            taken.setdefault((position, key), member.slug)
    person = PersonRecords(member.slug, member.name, person_key(member.name), kept, member=member, family=family_name(member.name))
    if member.owner:
        forms = {person_key(form): form for form in reversed(names.owner_forms)}  # of spellings of one key, the most frequent
        person.forms = [form for form in names.owner_forms if person_key(form) not in keys and forms[person_key(form)] == form]
    _describe(person, entries, names, keys)
    return person


class _Claims:
    """What members' anchors (`coauthors:`) say of the records of their names, and the problems they show.

    A record is an anchored member's when it names one of their co-authors (in any of the
    spellings of a member of that name: their variants), or when the co-author groups of
    `sitegen fetch --review` join it to such a record. Two members of one name (whose files
    name no co-author in common, or the build stops: files.shared_claims) share the records
    of that name out: a record naming the co-authors of both, or joined by co-authors to
    records of both, is ambiguous and on neither page, with a warning at the record.
    """

    def __init__(self, members: Sequence[Person], names: _Names, links: MemberLinks):
        self.names = names
        self.links = links
        by_slug = {m.slug: m for m in members}
        self.wanted = {m.slug: self._wanted(m, by_slug) for m in members if m.anchored}
        self.rivals: dict[str, list[Person]] = {}
        for member in members:
            keys = set(member.name_keys)
            found = [o for o in members if o is not member and o.anchored and not keys.isdisjoint(o.name_keys)]
            if found:
                self.rivals[member.slug] = found
        self.member_problems: list[Problem] = []  # at a person file's line
        self.ambiguous: dict[int, str] = {}  # position -> why no member of its name has it (a warning at the record)

    def _wanted(self, member: Person, by_slug: dict[str, Person]) -> set[str]:
        """The keys a co-author of `coauthors:` is found by, as disambiguate.shares_coauthor compares them: name and initials."""
        wanted: set[str] = set()
        for anchor in member.coauthors:
            written = [anchor]
            other = by_slug.get(self.links.names.get(person_key(anchor), ""))
            if other is not None and other is not member:
                written += [other.name, *other.name_variants]
            for name in written:
                key = person_key(name)
                if key:
                    wanted.update((name_key(key), initial_key(key)))
        return wanted

    def names_anchor(self, member: Person, position: int, own: set[str]) -> bool:
        """Does the record name one of the member's co-authors (anyone but the member)?"""
        wanted = self.wanted.get(member.slug)
        if not wanted:
            return False
        grouped = self.names.grouped_as
        return any(k not in own and not wanted.isdisjoint(grouped[k]) for k in self.names.keys_of[position])

    def anchored(self, member: Person, entries: Sequence[Entry], kept: list[int], own: set[str], by_identifier: set[int]) -> tuple[set[int], dict[int, str]]:
        """Which of the records of the member's names the anchors keep, and why each other one is not theirs."""
        names, rivals = self.names, self.rivals.get(member.slug, [])
        direct = {p for p in kept if self.names_anchor(member, p, own)} | by_identifier
        rival_direct: dict[int, list[Person]] = defaultdict(list)
        for rival in rivals:
            rival_keys, rival_ids = set(rival.name_keys), {i.lower() for i in rival.identifiers}
            for position in kept:
                if rival_keys.isdisjoint(names.keys_of[position]) or excluded_by(entries[position], rival.slug, self.links):
                    continue
                tied = rival_ids and any(values & rival_ids for values in names.ids_of.get(position, {}).values())
                if tied or self.names_anchor(rival, position, own | rival_keys):
                    rival_direct[position].append(rival)
        why_not = dict.fromkeys(kept, f"shares no co-author named in coauthors: of {member.path}")
        contested = {p for p in direct if p in rival_direct and p not in by_identifier}
        for position in contested:
            paths = " and ".join(sorted({member.path, *(r.path for r in rival_direct[position])}))
            why_not[position] = f"it names co-authors of two people of this name ({paths})"
            self._ambiguous(entries, position, why_not[position])
        grouped = [p for p in kept if p not in contested]
        papers = [Paper(str(p), "", _paper_authors(names, p, own), (), entries[p].record.year) for p in grouped]
        groups, _ = group_papers(papers, sorted(own))
        mine = direct - contested
        for group in groups:
            positions = [int(i) for i in group.ids]
            reached = mine.intersection(positions)
            if not reached:
                continue
            others = {r.path for p in positions for r in rival_direct.get(p, ())}
            for position in positions:
                if position in direct or position in rival_direct:
                    continue
                if others:
                    paths = " and ".join(sorted({member.path, *others}))
                    why_not[position] = f"its co-authors join it to records of two people of this name ({paths})"
                    self._ambiguous(entries, position, why_not[position])
                else:
                    mine.add(position)
        for position, found in rival_direct.items():
            if position not in contested and position not in mine:
                why_not[position] = f"it names a co-author in coauthors: of {found[0].path}"
        return mine, why_not

    def _ambiguous(self, entries: Sequence[Entry], position: int, why: str) -> None:
        self.ambiguous.setdefault(
            position,
            f"record {entries[position].record.id!r} is on no person's page: {why}; say whose it is with `author_ids` "
            "in the record, or with `exclude_ids` in the file of the person it is not",
        )

    def check_anchors(self, member: Person, candidates: list[int], own: set[str]) -> None:
        """A warning for each co-author of `coauthors:` on none of the records naming the member: a misspelling
        keeps every record of theirs that only it would reach off their page."""
        if not candidates:
            return  # no record names them: unmatched_members says so
        grouped, keys_of = self.names.grouped_as, self.names.keys_of
        seen = {k for p in candidates for k in keys_of[p] if k not in own}
        found = {part for k in seen for part in grouped[k]}
        by_slug_names = self.links.names
        for anchor in member.coauthors:
            key = person_key(anchor)
            spellings = [key]
            if key in by_slug_names:
                spellings += [k for k, slug in by_slug_names.items() if slug == by_slug_names[key]]
            if any(not found.isdisjoint((name_key(k), initial_key(k))) for k in spellings if k):
                continue
            close = difflib.get_close_matches(key, sorted(seen), n=1, cutoff=0.75)
            hint = f"; did you mean {self.names.shown[close[0]]!r}?" if close else ""
            message = (
                f"field 'coauthors': {anchor!r} is a co-author on none of the {len(candidates)} records naming {member.name!r}, "
                f"so it ties none of them to {member.name!r}{hint}"
            )
            self.member_problems.append(Problem(message, _person_location(member, "coauthors"), warning=True))

    def check_exclusions(self, member: Person, entries: Sequence[Entry], candidates: list[int]) -> None:
        """A warning for each id of `exclude_ids` that is none of the identifiers of the records naming the member."""
        if not member.exclude_ids:
            return
        known: dict[str, str] = {}  # identifier -> as the record writes it
        for position in candidates:
            for identifier, written in record_identifiers(entries[position]).items():
                known.setdefault(identifier, written)
        for excluded in member.exclude_ids:
            if identifier_key(excluded) in known:
                continue
            close = difflib.get_close_matches(identifier_key(excluded), sorted(known), n=1, cutoff=0.75)
            hint = f"; did you mean {known[close[0]]!r}?" if close else ""
            message = (
                f"field 'exclude_ids': {excluded!r} is the id, arXiv id or DOI of none of the {len(candidates)} records naming "
                f"{member.name!r}, so it excludes nothing{hint}"
            )
            where = "exclude_ids" if "exclude_ids" in member.lines else "arxiv"
            self.member_problems.append(Problem(message, _person_location(member, where), warning=True))


def _person_location(member: Person, field_name: str) -> Location:
    return Location(member.path, member.lines.get(field_name) or member.lines.get(""))


def _paper_authors(names: _Names, position: int, own: set[str]) -> tuple[str, ...]:
    """What grouping reads of a record: the person's own key first, then the co-authors' keys."""
    keys = names.keys_of[position]
    first = next((k for k in keys if k in own), None)
    return tuple(([first] if first else []) + [k for k in keys if k != first])


def _namesakes(people: dict[str, PersonRecords]) -> None:
    """Each person's other people of their name (a member's: of any of their names), members first, then by number:
    the page of one names them all, a member's custom slug (`people/chen/` beside `wei-chen-2`) included."""
    of_key: dict[str, list[str]] = defaultdict(list)
    for slug, person in people.items():  # members first: they were made first
        for key in person.member.name_keys if person.member else (person.key,):
            of_key[key].append(slug)
    for slug, person in people.items():
        keys = person.member.name_keys if person.member else (person.key,)
        others = dict.fromkeys(other for key in keys for other in of_key[key] if other != slug)
        person.namesakes = sorted(others, key=lambda s: (people[s].member is None, people[s].number))


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
            person = PersonRecords(slug, names.shown[key], key, sorted(positions), number=index + 1, family=names.family[key])
            if index == 0 and not key.isascii():
                person.former_slugs = _former_slugs(key, names.spellings[key], slug, used)
            _describe(person, entries, names, {key})
            people[slug] = person
            for position in positions:
                taken[(position, key)] = slug


def _former_slugs(key: str, spellings: Sequence[str], slug: str, used: set[str]) -> list[str]:
    """The addresses a name's page had before a space between Chinese, Japanese or Korean characters stopped
    making two names of one ('李 华' beside '李华'), which no page of this build has: they lead to its page now."""
    former = {name_slug(spaced_person_key(spelling)) for spelling in spellings} - {slug, name_slug(key)}
    return sorted(old for old in former if old not in used)


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
    if value is None:
        return None
    if value == "authors":
        return "authors"
    raise ContentError(Problem(f"content/site.yaml: field 'people': expected 'authors' (a page for every author of the records) or nothing, got {value!r}"))
