"""Which fetched records belong to which person of the same name.

A name search on arXiv returns everyone called "Sheng Lin". People are told
apart the way a reader would: papers that share a co-author (other than the
searched person) belong to the same person; subjects describe each group and
decide how it can be excluded. The report tells the user the one line of
profile.yaml that drops a group, because exclusions must live in the user's
words to survive every re-fetch.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from sitegen.latex import convert_inline
from sitegen.names import FAMILY_FIRST_LETTER, form_score, known_forms
from sitegen.urls import ASCII_SPELLING


@dataclass(frozen=True)
class Paper:
    """What grouping needs to know about one fetched record."""

    id: str
    title: str
    authors: tuple[str, ...]
    categories: tuple[str, ...]
    year: int
    excluded: str | None = None  # why profile.yaml leaves it out, if it does
    source: str = ""  # the fetcher whose record it is (`sitegen fetch` groups every source's name search)


@dataclass
class Group:
    papers: list[Paper] = field(default_factory=list)

    @property
    def ids(self) -> list[str]:
        return [p.id for p in self.papers]

    @property
    def categories(self) -> list[str]:
        """Subjects, the most frequent first."""
        counts = Counter(c for p in self.papers for c in p.categories)
        return [c for c, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]

    @property
    def years(self) -> str:
        years = sorted({p.year for p in self.papers if p.year})
        if not years:
            return "?"
        return str(years[0]) if years[0] == years[-1] else f"{years[0]}–{years[-1]}"

    @property
    def excluded_count(self) -> int:
        return sum(1 for p in self.papers if p.excluded)

    def coauthors(self, is_owner: OwnerNames) -> list[tuple[str, int]]:
        counts: Counter[str] = Counter()
        shown: dict[str, str] = {}
        for paper in self.papers:
            for name in dict.fromkeys(paper.authors):
                key = name_key(name)
                if key and not is_owner(name):
                    counts[key] += 1
                    shown.setdefault(key, plain_name(name))
        return [(shown[k], n) for k, n in sorted(counts.items(), key=lambda item: (-item[1], shown[item[0]]))]


def plain_name(name: str) -> str:
    """A name without LaTeX accents (`M{\\"u}ller` -> `Müller`)."""
    return convert_inline(name).plain if "\\" in name or "{" in name else name


def name_key(name: str) -> str:
    """Compare names without case, accents, punctuation or extra spaces.

    In the order written ('Lin, Sheng' is not 'Sheng Lin' here: fetched names are 'First Last',
    and profile.yaml's names are turned so by _last_first first), digits kept. A build compares
    names by enrich.normalise_name instead, which reads 'Last, First' itself and drops digits.
    """
    text = unicodedata.normalize("NFKD", plain_name(name).translate(ASCII_SPELLING))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    # letters of every script kept ('王小明', 'Иван Петров' were '', a key every such name shared), and no space between
    # two Chinese, Japanese or Korean letters, which are written with or without one ('王 小明' is '王小明')
    return _SPACE_BETWEEN_CJK.sub("", " ".join(_NOT_A_NAME_CHARACTER.sub(" ", text).split()))


_NOT_A_NAME_CHARACTER = re.compile(r"[\W_]+")
_SPACE_BETWEEN_CJK = re.compile(f"(?<={FAMILY_FIRST_LETTER.pattern}) (?={FAMILY_FIRST_LETTER.pattern})")


def initial_key(name: str) -> str:
    """'Sheng Lin' and 'S. Lin' both give 's lin'."""
    words = name_key(name).split()
    return f"{words[0][0]} {words[-1]}" if len(words) >= 2 else " ".join(words)


class OwnerNames:
    """The searched person's names: never evidence that two papers share a person.

    A name is theirs as written, or in another written form of it (names.form_score: 'S. Lin', 'Lin, S.',
    'John Smith' for John A. Smith), or as its initials and surname; a name of their family name and another
    given name is not ('Jane Smith' beside John A. Smith: a co-author, and evidence)."""

    def __init__(self, names: Iterable[str]):
        self.names = [n for n in names if n and n.strip()]
        self.keys = {name_key(n) for n in self.names}
        self.initials = {initial_key(n) for n in self.names}
        self.forms = known_forms(self.names)

    def __call__(self, name: str) -> bool:
        key = name_key(name)
        if (key and key in self.keys) or form_score(name, self.forms):
            return True
        words = key.split()
        return bool(words) and len(words[0]) == 1 and initial_key(name) in self.initials  # 'S Lin': initials and surname

    def add(self, name: str) -> None:
        self.names.append(name)
        self.keys.add(name_key(name))
        self.initials.add(initial_key(name))
        self.forms = known_forms(self.names)


def group_papers(papers: Sequence[Paper], owner_names: Iterable[str]) -> tuple[list[Group], OwnerNames]:
    """Connected groups of papers linked by shared co-authors, largest first."""
    is_owner = OwnerNames(owner_names)
    if not any(is_owner(name) for paper in papers for name in paper.authors):
        for name in _names_on_every_paper(papers):
            is_owner.add(name)  # the owner is unknown (e.g. --id only): the name on every paper
    coauthors = [list(dict.fromkeys(key for name in paper.authors if (key := name_key(name)) and not is_owner(name))) for paper in papers]
    return connected_groups(papers, coauthors, large_teams=True), is_owner


LARGE_TEAM = 30  # a paper with more co-authors than this is a collaboration's: one name it shares with another is no evidence
LARGE_TEAM_SHARE = 10  # two collaboration papers are one person's when they share at least a tenth of the shorter list


def connected_groups(papers: Sequence[Paper], coauthors: Sequence[Iterable[str]], large_teams: bool = False) -> list[Group]:
    """Papers joined when they share a co-author key (`coauthors[i]`: paper i's), largest group first.

    The keys are compared as given: `group_papers` makes them from names; a caller
    that has name keys already (the build's people) hands them over as they are.

    With `large_teams` (the keys are each paper's every co-author), a paper of more than
    LARGE_TEAM co-authors (a collaboration's thousands) joins no small paper, and joins
    another such paper only through many names: a list of 3,000 names holds a Wei Wang
    and a Lei Chen, and a namesake's paper with one of them is not the owner's.
    Papers of one collaboration share most of their names, two collaborations a few.
    """
    parent = list(range(len(papers)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_paper_of: dict[str, int] = {}
    first_large_paper_of: dict[str, int] = {}
    sizes: list[int] = []
    for index, keys in enumerate(coauthors):
        keys = list(keys)
        sizes.append(len(keys))
        if large_teams and len(keys) > LARGE_TEAM:
            shared: Counter[int] = Counter(first_large_paper_of.setdefault(key, index) for key in keys)
            for other, count in shared.items():
                if other != index and count * LARGE_TEAM_SHARE >= min(sizes[other], len(keys)):
                    parent[root(index)] = root(other)
            continue
        for key in keys:
            other = first_paper_of.setdefault(key, index)
            parent[root(index)] = root(other)
    groups: dict[int, Group] = {}
    for index, paper in enumerate(papers):
        groups.setdefault(root(index), Group()).papers.append(paper)
    return sorted(groups.values(), key=lambda g: (-len(g.papers), -max(p.year for p in g.papers), g.ids[0]))


def _names_on_every_paper(papers: Sequence[Paper]) -> set[str]:
    if len(papers) < 2:
        return set()
    common = {name_key(a) for a in papers[0].authors}
    for paper in papers[1:]:
        common &= {name_key(a) for a in paper.authors}
    return {a for a in papers[0].authors if name_key(a) in common}


def exclusion_line(group: Group, groups: Sequence[Group], current: Mapping[str, Sequence[str]]) -> str:
    """The profile.yaml line (under `arxiv:`) that leaves this group out and nothing else.

    By subject when no shown paper of another group shares one (it also keeps
    out this person's future papers); else by id.
    """
    others = {c for g in groups if g is not group for p in g.papers if not p.excluded for c in p.categories}
    subjects = set(group.categories)
    if subjects and not subjects & others:
        values = list(dict.fromkeys([*current.get("exclude_categories", ()), *sorted(subjects)]))
        return f"exclude_categories: [{', '.join(values)}]"
    values = list(dict.fromkeys([*current.get("exclude_ids", ()), *group.ids]))
    return f"exclude_ids: [{', '.join(_quote_id(v) for v in values)}]"


def _quote_id(value: str) -> str:
    """Ids like 2401.01230 would be read back as numbers by YAML: quote them."""
    return f"'{value}'" if re.fullmatch(r"[0-9.]+", value) else value


def report(
    groups: Sequence[Group],
    is_owner: OwnerNames,
    current: Mapping[str, Sequence[str]],
    profile_path: str = "content/profile.yaml",
    detailed: bool = True,
    title_width: int = 72,
) -> list[str]:
    """Lines for the user: each group, whether it is shown, and how to drop it.

    `detailed` adds every record's id and title (for `--review`).
    """
    shown = sum(len(g.papers) - g.excluded_count for g in groups)
    total = sum(len(g.papers) for g in groups)
    lines = [
        f"{len(groups)} group{'s' if len(groups) != 1 else ''} of records by co-authors "
        f"(likely {'different people' if len(groups) > 1 else 'one person'}); "
        f"{shown} of {total} record{'s' if total != 1 else ''} {'is' if shown == 1 else 'are'} included:"
    ]
    for number, group in enumerate(groups, 1):
        lines.extend(_group_lines(number, group, groups, is_owner, current, profile_path, detailed, title_width))
    if not detailed:
        lines.append("  (sitegen fetch --review lists the records of each group)")
    return lines


def _group_lines(
    number: int,
    group: Group,
    groups: Sequence[Group],
    is_owner: OwnerNames,
    current: Mapping[str, Sequence[str]],
    profile_path: str,
    detailed: bool,
    title_width: int,
) -> list[str]:
    size = len(group.papers)
    state = "excluded" if group.excluded_count == size else "included" if group.excluded_count == 0 else f"partly excluded ({group.excluded_count} of {size})"
    coauthors = group.coauthors(is_owner)
    shared = [f"{name} ({n})" for name, n in coauthors if n > 1][:4]
    people = ", ".join(shared) if shared else ", ".join(name for name, _ in coauthors[:3]) or "no co-authors"
    lines = [f"  group {number}: {size} record{'s' if size != 1 else ''}, {group.years}, {' '.join(group.categories) or 'no subject'}; with {people} — {state}"]
    for paper in group.papers if detailed else ():
        title = " ".join(convert_inline(paper.title).plain.split())
        if len(title) > title_width:
            title = title[: title_width - 1].rstrip() + "…"
        mark = "-" if paper.excluded else "+"
        lines.append(f"    {mark} {paper.id}  {title}")
    if state != "excluded" and len(groups) > 1:
        lines.append(f"    to exclude this group, set under arxiv: in {profile_path}:  {exclusion_line(group, groups, current)}")
    return lines


def shares_coauthor(group: Group, anchors: Sequence[str]) -> bool:
    """Does a paper of the group name one of `anchors` (profile.yaml `coauthors:`), in any spelling?

    'Bin Cui', 'B. Cui' and 'Cui, Bin' are one name here; the anchors are the
    owner's co-authors, so a group sharing one is the owner's.
    """
    wanted = {key(_last_first(a)) for a in anchors for key in (name_key, initial_key)}
    return any(key(_last_first(n)) in wanted for paper in group.papers for n in paper.authors for key in (name_key, initial_key))


def _last_first(name: str) -> str:
    """'Cui, Bin' -> 'Bin Cui'."""
    last, comma, first = name.partition(",")
    return f"{first} {last}" if comma else name


# --------------------------------------------------------------------------
# Keeping chosen groups: the exclusions that leave exactly them
# --------------------------------------------------------------------------


def exclusions_keeping(
    groups: Sequence[Sequence[str]], keep: Iterable[int], current: Mapping[str, Sequence[str]], categories_of: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """profile.yaml's `exclude_ids` and `exclude_categories` that keep exactly the groups numbered `keep`.

    Every record of another group is excluded by id: exact, unlike a subject,
    which the owner may publish in next year. A kept record is taken out of
    `exclude_ids`, and a subject it has out of `exclude_categories` (the other
    groups' records in that subject are then excluded by id); a record that a
    remaining subject excludes already is not listed again.
    """
    chosen = set(keep)
    kept = {i for number, ids in enumerate(groups, 1) if number in chosen for i in ids}
    dropped = [i for number, ids in enumerate(groups, 1) if number not in chosen for i in ids]
    kept_subjects = {c for i in kept for c in categories_of.get(i, ())}
    subjects = [c for c in current.get("exclude_categories", ()) if c not in kept_subjects]
    ids = [i for i in current.get("exclude_ids", ()) if _bare(i) not in kept]
    listed = {_bare(x) for x in ids}
    ids += [i for i in dropped if i not in listed and not set(categories_of.get(i, ())) & set(subjects)]
    return {"exclude_ids": ids, "exclude_categories": subjects}


def _bare(record_id: str) -> str:
    return re.sub(r"v\d+$", "", record_id.strip())


# --------------------------------------------------------------------------
# Name searches of OpenAlex and dblp: the people found, for the user to choose
# --------------------------------------------------------------------------


@dataclass
class Candidate:
    """One person a name search found, with what tells namesakes apart."""

    id: str
    name: str
    affiliation: str = ""
    years: str = ""
    works: int | None = None
    coauthors: list[str] = field(default_factory=list)  # the most frequent first
    note: str = ""  # e.g. dblp's catch-all profile of a name


def candidate_lines(source: str, name: str, candidates: Sequence[Candidate], option: str, key: str) -> list[str]:
    """The list a user picks the owner from, and how to say it for good."""
    lines = [f"{source}: {len(candidates)} people are called {name!r}; sitegen will not mix their works:"]
    for number, person in enumerate(candidates, 1):
        facts = [
            person.affiliation or "affiliation unknown",
            person.years or "years unknown",
            f"{person.works} work{'s' if person.works != 1 else ''}" if person.works is not None else "works unknown",
        ]
        lines.append(f"  {number}. {person.id}  {person.name} — {'; '.join(facts)}")
        if person.coauthors:
            lines.append(f"       with {', '.join(person.coauthors[:5])}")
        if person.note:
            lines.append(f"       {person.note}")
    lines.append(f"  choose one: sitegen fetch {option} ID, or set `{key}: ID` in content/profile.yaml")
    return lines
