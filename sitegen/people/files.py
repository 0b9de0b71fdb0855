"""content/people/*.yaml: one person a file, read and checked in the build's load stage.

A person file has the fields of profile.yaml (validated by the same code) and:

    slug: ada                 # the page: people/ada/ (default: the file name, spelt in ASCII)
    role: PhD student         # above their name on their page (default: "Member")
    alumni: true              # listed under "Alumni" on the index, after the current members
    weight: 1                 # the index's order: lowest first, then those without, by surname
    coauthors: [Bin Cui]      # names that make a record theirs (anchors a split of namesakes)
    orcid: 0000-0002-1825-0097
    arxiv:
      author_ids: [lin_s_1]   # arXiv author ids
      exclude_ids: ['2207.04090']
      exclude_categories: [hep-ph]

`exclude_ids` and `exclude_categories` may also stand at the top level. What the
loader can settle without the records is settled here: a slug named by two files,
and an anchor (ORCID, arXiv author id, or a name without anchors that tell the two
apart) claimed by two people are errors naming both files. A file with a mistake of
its own takes part in those checks with the values it has that can be read, so that
every mistake of the folder is reported at once.
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from sitegen.errors import Location, Problem
from sitegen.load import PositionedDict, item_lines, parse_yaml
from sitegen.model import Profile, RawDocument
from sitegen.people.names import arxiv_author_id, name_slug, person_key
from sitegen.urls import file_slug, windows_folder_problem
from sitegen.values import value_class

if TYPE_CHECKING:
    from sitegen.validate import Fields

FOLDER = "content/people/"
PERSON_SUFFIXES = (".yaml", ".yml")  # what the folder's files are read as; a photo beside them is not text
OWN_FIELDS = ("slug", "coauthors", "exclude_ids", "exclude_categories", "role", "alumni", "weight")  # beside profile.yaml's fields
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_ARXIV_VERSION = re.compile(r"v\d+$")


def identifier_key(value: str) -> str:
    """How `exclude_ids` and a record's identifiers compare: no case, no arXiv version, a DOI without its URL."""
    return _ARXIV_VERSION.sub("", value.strip().lower().removeprefix("https://doi.org/"))


@value_class
class Person:
    """A person of the site, as their file says."""

    slug: str
    path: str  # 'content/people/ada.yaml'
    name: str
    name_variants: tuple[str, ...] = ()
    former_names: tuple[str, ...] = ()  # printed as `name` on every record (sitegen.enrich._named_now)
    position: str = ""
    affiliation: str = ""
    bio: str = ""  # Markdown
    photo: str | None = None
    email: str | None = None
    links: dict[str, str] = field(default_factory=dict)
    orcid: str | None = None
    author_ids: tuple[str, ...] = ()  # arXiv author ids
    coauthors: tuple[str, ...] = ()
    role: str = ""  # what their page says they are, above their name ('' : "Member")
    alumni: bool = False  # a former member: the index lists them apart, after the current members
    weight: int | None = None  # the index's order: lowest first, then the people without one
    owner: bool = False  # the owner of a person's site, read from profile.yaml (`owner_person`), not a member
    exclude_ids: tuple[str, ...] = ()  # bare ids, no version
    exclude_categories: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # field -> its line in the file, for messages

    @property
    def name_keys(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(k for k in (person_key(n) for n in (self.name, *self.name_variants)) if k))

    @property
    def identifiers(self) -> tuple[str, ...]:
        """What records may name this person by: the ORCID iD and arXiv author ids."""
        return tuple(i for i in (self.orcid, *self.author_ids) if i)

    @property
    def anchored(self) -> bool:
        """Records of the name count only in the co-author groups that `coauthors:` reaches.

        An identifier adds the records that carry it and takes away those that give the name
        another one, but few records carry identifiers: it restricts nothing else.
        """
        return bool(self.coauthors)


@value_class
class MemberLinks:
    """What every page shows of the people files: which author names link to whose page.

    `names`: name key -> slug; `ids`: ORCID iD or arXiv author id -> slug; `excluded`:
    slug -> record ids the person's file excludes (their names on those records are
    not linked to them); `slugs`: every member's slug, which no generated page may take.
    """

    names: dict[str, str]
    ids: dict[str, str]
    excluded: dict[str, tuple[str, ...]]
    categories: dict[str, tuple[str, ...]]
    slugs: tuple[str, ...]


def load_people(files) -> tuple[tuple[Person, ...], MemberLinks, list[Problem]]:
    """The page kind's loader (sitegen.pages.ContentLoader): every person file, checked alone and together."""
    problems: list[Problem] = []
    people: list[Person] = []
    readable: list[Person] = []  # with the files that have mistakes of their own, for the checks across files
    problems += [Problem("not a person file (people are YAML files, one a person); left out", Location(path), warning=True) for path in files.others]
    for path, text in sorted(files.texts.items()):
        errors = _error_count(problems)
        person = read_person(path, text, problems, with_errors=True)
        if person is not None:
            readable.append(person)
            if _error_count(problems) == errors:
                people.append(person)
    problems += shared_claims(readable)
    return tuple(people), member_links(people), problems


def _error_count(problems: list[Problem]) -> int:
    return sum(1 for problem in problems if not problem.warning)


def read_person(path: str, text: str, problems: list[Problem], with_errors: bool = False) -> Person | None:
    """The person of a file, or None when it has an error (each one added to `problems`). `with_errors`: the
    person even so, as far as the file can be read (a value in error left out), for the checks across files."""
    from sitegen.markup import link_left_out, render_markdown
    from sitegen.validate import Fields, validate_profile

    data, problem = parse_yaml(text, path)
    if problem is not None:
        problems.append(problem)
        return None
    if not isinstance(data, dict):
        problems.append(Problem("expected a mapping (name: ..., affiliation: ...): a person file holds one person", Location(path, 1)))
        return None
    profile_part = PositionedDict((k, v) for k, v in data.items() if k not in OWN_FIELDS)
    profile_part.line = getattr(data, "line", 1)
    profile_part.key_lines = dict(getattr(data, "key_lines", {}))
    before = _error_count(problems)
    profile = validate_profile(RawDocument(Path(path), path, profile_part), problems, also_known=frozenset(OWN_FIELDS))
    reader = _Reader(data, path, problems, Fields(data, path, problems))
    fields = reader.fields
    if "zotero" in data:  # the lab's library: `sitegen fetch` keeps each person's items of it by their names
        fields.problem(
            "zotero",
            "not fetched from a person's file: a Zotero library is fetched from content/profile.yaml, and the items of it "
            "that name a person of content/people/ are kept: move it there",
            warning=True,
        )
    slug = reader.slug()
    orcid = reader.orcid(profile.extra.get("orcid") if profile else None)
    linked = reader.orcid(profile.links.get("orcid") if profile else None, "links.orcid")  # as profile.yaml's scaffold writes it
    if "orcid" not in data:
        orcid = linked  # one person, one iD: validate_profile says when the two differ
    coauthors = _strings(fields, "coauthors")  # every field read before giving up: every mistake of the file at once
    exclude_ids, exclude_categories = _strings(fields, "exclude_ids"), _strings(fields, "exclude_categories")
    role, alumni, weight = fields.string("role") or "", fields.boolean("alumni"), fields.integer("weight")
    if profile is None or (_error_count(problems) > before and not with_errors):
        return None
    unsafe: list[str] = []
    if "[" in profile.bio or "<" in profile.bio:  # a link (the people page shows the bio as a record's text)
        render_markdown(profile.bio, unsafe=unsafe)
    problems += [Problem(f"field 'bio': {link_left_out(url)}", reader.where("bio"), warning=True) for url in unsafe]
    arxiv = profile.arxiv
    extra = {k: v for k, v in profile.extra.items() if k != "orcid"}
    return _profile_person(
        profile,
        slug=slug,
        path=path,
        bio=profile.bio,
        orcid=orcid,
        coauthors=coauthors,
        role=role,
        alumni=alumni,
        weight=weight,
        exclude_ids=tuple(dict.fromkeys(_ARXIV_VERSION.sub("", i) for i in (*arxiv.exclude_ids, *exclude_ids))),
        exclude_categories=tuple(dict.fromkeys((*arxiv.exclude_categories, *exclude_categories))),
        extra=extra,
        lines={"": getattr(data, "line", 1) or 1, **getattr(data, "key_lines", {}), **item_lines(data, "links")},
    )


def _strings(fields: Fields, key: str) -> tuple[str, ...]:
    """A list of strings (one string is a list of one), the empty ones left out."""
    return tuple(value for value in fields.string_list(key) if value)


class _Reader:
    """What a person file's own fields need beyond the type checks every file shares (`fields`, validate.Fields):
    the slug's address, the ORCID iD's check digit, each problem at its line."""

    def __init__(self, data: dict, path: str, problems: list[Problem], fields: Fields):
        self.data, self.path, self.problems, self.fields = data, path, problems, fields

    def where(self, key: str) -> Location:
        if "." in key:  # 'links.orcid': the entry's own line, else its mapping's
            lines = item_lines(self.data, key.partition(".")[0])
            if key in lines:
                return Location(self.path, lines[key])
            key = key.partition(".")[0]
        line_of = getattr(self.data, "line_of", None)
        return Location(self.path, line_of(key) if line_of else None)

    def slug(self) -> str:
        """`slug:`, else the file's name as pages' names make addresses (sitegen.urls.file_slug: 'garcía' -> 'garcia')."""
        written = self.fields.string("slug")
        if written is not None:
            if not _SLUG.fullmatch(written):
                meant = file_slug(written)
                hint = f"; write slug: {meant}" if _SLUG.fullmatch(meant) else ""
                self.problem(
                    "slug", f"{written!r} cannot be a folder name in every URL: use letters, digits, '.', '_' and '-', starting with a letter or digit{hint}"
                )
            elif reason := windows_folder_problem(written, f"people/{written}"):  # as a record's id
                self.problem("slug", f"{written!r} {reason}; change it")
            return written
        stem = PurePosixPath(self.path).stem
        slug = file_slug(stem)
        if not _SLUG.fullmatch(slug):
            self.problems.append(
                Problem(
                    f"the file name {stem!r} gives the person no address (their page is people/<file name>/, which may hold only "
                    "letters, digits, '.', '_' and '-', starting with a letter or digit): set one with slug: ..., or rename the file",
                    Location(self.path, getattr(self.data, "line", 1) or 1),
                )
            )
            return stem
        if reason := windows_folder_problem(slug):
            self.problems.append(
                Problem(
                    f"the file name {stem!r} would be the person's address people/{slug}/, which {reason}: set another with slug: ..., or rename the file",
                    Location(self.path, getattr(self.data, "line", 1) or 1),
                )
            )
        return slug

    def problem(self, key: str, message: str) -> None:
        self.problems.append(Problem(f"field '{key}': {message}", self.where(key)))

    def orcid(self, value: Any, key: str = "orcid") -> str | None:
        if value is None:
            return None
        from sitegen.sources.orcid import normalise_orcid

        try:
            return normalise_orcid(str(value))
        except ValueError as error:
            self.problem(key, str(error))
            return None


def shared_claims(people: list[Person]) -> list[Problem]:
    """Errors for what two files claim at once: a slug, an identifier, or a name they cannot share."""
    problems = []
    by_slug: dict[str, Person] = {}
    for person in people:
        first = by_slug.setdefault(person.slug.lower(), person)
        if first is not person:
            problems.append(
                Problem(
                    f"slug '{person.slug}' names two people: {first.path} and {person.path} would share people/{first.slug}/; "
                    "give one of them another `slug:` (or file name)",
                    _at(person, "slug"),
                )
            )
    by_identifier: dict[str, Person] = {}
    for person in people:
        for identifier in person.identifiers:
            first = by_identifier.setdefault(identifier.lower(), person)
            if first is not person:
                if identifier == person.orcid:
                    where = "orcid" if "orcid" in person.lines else "links.orcid"
                else:
                    where = "arxiv" if "arxiv" in person.lines else "links.arxiv"
                problems.append(
                    Problem(f"{identifier} is claimed by two people: {first.path} and {person.path}; one identifier is one person", _at(person, where))
                )
    by_name: dict[str, Person] = {}
    for person in people:
        for key, written in zip(person.name_keys, (person.name, *person.name_variants)):
            first = by_name.setdefault(key, person)
            if first is person:
                continue
            shared = sorted(a for a in person.coauthors if person_key(a) in {person_key(b) for b in first.coauthors})
            if not (first.anchored and person.anchored) or shared:
                why = (
                    f"both name the co-author {shared[0]!r} in coauthors:, so a record with them would be both people's"
                    if shared
                    else "give each of them `coauthors:` that tell their records apart, or drop the name from one"
                )
                problems.append(
                    Problem(
                        f"the name {written!r} is claimed by two people: {first.path} and {person.path}; {why}",
                        _at(person, "name" if key == person_key(person.name) else "name_variants"),
                    )
                )
    return problems


def _at(person: Person, field_name: str) -> Location:
    lines = person.lines  # 'links.orcid': its own line, else that of `links:` (a mapping on one line)
    return Location(person.path, lines.get(field_name) or lines.get(field_name.partition(".")[0]) or lines.get(""))


OWNER_PATH = "content/profile.yaml"


def owner_person(profile: Profile) -> Person:
    """The owner of a person's site (profile.yaml) as a person of its people pages, with `people: authors`.

    Read as a person file without `coauthors:`: every record naming the owner's name or a variant
    is theirs, as every such record's name is highlighted as theirs, whatever its co-authors; the
    profile's ORCID iD and arXiv author ids add the records whose `author_ids` give them and take
    away those that give the owner's name another iD, and its exclusions (`arxiv: exclude_ids`,
    `exclude_categories`) leave a record to a namesake. Its page is people/<the name's slug>/.
    The profile's own `coauthors:` are what `sitegen fetch` keeps by; the records shown are kept.
    """
    from sitegen.sources.orcid import normalise_orcid

    orcid = None
    for written in (profile.extra.get("orcid"), profile.links.get("orcid")):
        if written is not None and orcid is None:
            try:
                orcid = normalise_orcid(str(written))
            except ValueError:  # validate_profile reports it at its line
                pass
    extra_ids = profile.extra.get("exclude_ids")
    excluded = (
        [*profile.arxiv.exclude_ids, *(str(i) for i in extra_ids if isinstance(i, (str, int)))]
        if isinstance(extra_ids, list)
        else list(profile.arxiv.exclude_ids)
    )
    return _profile_person(
        profile,
        slug=name_slug(person_key(profile.name)),
        path=OWNER_PATH,
        orcid=orcid,
        role="",
        exclude_ids=tuple(dict.fromkeys(_ARXIV_VERSION.sub("", i) for i in excluded)),
        exclude_categories=profile.arxiv.exclude_categories,
        owner=True,
        lines=dict(profile.lines),
    )


def _profile_person(profile: Profile, **own: Any) -> Person:
    """A person of the fields a person file shares with profile.yaml; `own`: what the file itself decides (its
    slug, iD, exclusions, ...). The arXiv author page under links: is the person's arXiv author id when
    `arxiv: author_ids:` names none, as the ORCID iD there is their iD (validate_profile says when it is none
    of them)."""
    linked_arxiv = arxiv_author_id(profile.links.get("arxiv"))
    author_ids = profile.arxiv.author_ids or ((linked_arxiv,) if linked_arxiv else ())
    return Person(
        name=profile.name,
        name_variants=profile.name_variants,
        former_names=profile.former_names,
        position=profile.position,
        affiliation=profile.affiliation,
        photo=profile.photo,
        email=profile.email,
        links=dict(profile.links),
        author_ids=tuple(dict.fromkeys(author_ids)),
        **own,
    )


def member_links(people: list[Person]) -> MemberLinks:
    names: dict[str, str] = {}
    ids: dict[str, str] = {}
    for person in people:
        for key in person.name_keys:
            names.setdefault(key, person.slug)
        for identifier in person.identifiers:
            ids.setdefault(identifier.lower(), person.slug)
    return MemberLinks(
        names=names,
        ids=ids,
        excluded={p.slug: tuple(identifier_key(i) for i in p.exclude_ids) for p in people if p.exclude_ids},
        categories={p.slug: p.exclude_categories for p in people if p.exclude_categories},
        slugs=tuple(p.slug for p in people),
    )
