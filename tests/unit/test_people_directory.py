"""The people directory's attribution and the key the dev server keeps it by: records that read alike to the
attribution (`what_attribution_reads`) give the same directory, so a kept directory is never stale."""

from __future__ import annotations

import dataclasses
import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.errors import Location
from sitegen.model import Author, Entry, Record, Subject, Text
from sitegen.people.attribution import attribute, what_attribution_reads
from sitegen.people.files import MemberLinks, Person, member_links

NAMES = ["Sheng Lin", "S. Lin", "Bin Cui", "Ada Lovelace", "Lena Müller", "Jonas Berg", "Wei Zhang"]
SUBJECTS = ["cs.DB", "cs.LG", "math.OC"]
NO_MEMBERS = MemberLinks({}, {}, {}, {}, ())
# a member anchored by an ORCID iD and an arXiv author id, who excludes one record (by id, any version) and a subject
MEMBER = Person(
    "sheng",
    "content/people/sheng.yaml",
    "Sheng Lin",
    orcid="0000-0001-2345-6789",
    author_ids=("lin_s_1",),
    exclude_ids=("2001.00001",),
    exclude_categories=("math.OC",),
)


def entry(number: int, authors: list[str], year: int, day: int | None, categories: list[str], ids: dict[str, str], title: str = "A title") -> Entry:
    record = Record(
        id=f"2{number:03d}.0000{number}",
        title=title,
        location=Location(f"content/records/r{number}.yaml", 1),
        authors=tuple(authors),
        year=year,
        date=datetime.date(year, 1, day) if day else None,
        categories=tuple(categories),
        extra={"author_ids": ids} if ids else {},
    )
    return Entry(
        record=record,
        slug=record.id,
        title=Text(title, title, title),
        authors=tuple(Author(name, False) for name in authors),
        abstract_html="",
        abstract_plain="",
        subjects=tuple(Subject(code, code, code) for code in categories),
        cite_key=f"r{number}",
        source=Text("", "", ""),
    )


records = st.lists(
    st.tuples(
        st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True),
        st.integers(2020, 2021),
        st.one_of(st.none(), st.integers(1, 2)),
        st.lists(st.sampled_from(SUBJECTS), max_size=2, unique=True),
        st.dictionaries(st.sampled_from(NAMES[:2]), st.sampled_from(["0000-0001-2345-6789", "lin_s_1", "0000-0009-9999-9999"]), max_size=1),
    ),
    min_size=2,
    max_size=8,
)
edits = st.sampled_from(["title", "source", "abstract", "year", "date", "authors", "categories", "author_ids", "id"])


def edited(entries: list[Entry], position: int, edit: str) -> list[Entry]:
    """One field of one record changed, as a save in the editor would."""
    old = entries[position]
    record = old.record
    if edit in ("title", "source", "abstract"):
        text = getattr(record, edit) + " (revised)"
        new = dataclasses.replace(old, record=dataclasses.replace(record, **{edit: text}), title=Text(text, text, text) if edit == "title" else old.title)
    elif edit == "year":
        new = dataclasses.replace(old, record=dataclasses.replace(record, year=record.year + 1, date=None))
    elif edit == "date":
        new = dataclasses.replace(old, record=dataclasses.replace(record, date=datetime.date(record.year, 12, 31)))
    elif edit == "authors":
        names = [*record.authors[1:], "Wei Zhang"] if "Wei Zhang" not in record.authors else list(record.authors[:-1]) or ["Ada Lovelace"]
        new = dataclasses.replace(old, record=dataclasses.replace(record, authors=tuple(names)), authors=tuple(Author(n, False) for n in names))
    elif edit == "categories":
        categories = ("cs.DB",) if record.categories != ("cs.DB",) else ("math.OC",)
        new = dataclasses.replace(old, record=dataclasses.replace(record, categories=categories))
    elif edit == "author_ids":
        ids = {} if record.extra.get("author_ids") else {record.authors[0]: "0000-0001-2345-6789"}
        new = dataclasses.replace(old, record=dataclasses.replace(record, extra={"author_ids": ids} if ids else {}))
    else:  # another id: the member's excluded one, or one that sorts first among records of the same day
        other = "2001.00001v1" if record.id != "2001.00001v1" else "1999.00000"
        new = dataclasses.replace(old, record=dataclasses.replace(record, id=other))
    return [new if i == position else e for i, e in enumerate(entries)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(given_records=records, position=st.integers(0, 7), edit=edits, with_member=st.booleans())
def test_records_that_read_alike_give_the_same_directory(given_records, position: int, edit: str, with_member: bool) -> None:
    entries = [entry(number, *fields) for number, fields in enumerate(given_records)]
    after = edited(entries, position % len(entries), edit)
    members, links = ([MEMBER], member_links([MEMBER])) if with_member else ([], NO_MEMBERS)
    before_directory = attribute(entries, members, links, authors_mode=True)
    after_directory = attribute(after, members, links, authors_mode=True)
    if what_attribution_reads(after) == what_attribution_reads(entries):
        assert after_directory == before_directory, f"{edit} changed the directory but not what the attribution reads"


def test_a_title_edit_reads_alike_and_a_year_edit_does_not() -> None:
    entries = [entry(0, ["Sheng Lin", "Bin Cui"], 2020, 5, ["cs.DB"], {}), entry(1, ["Sheng Lin", "Bin Cui"], 2022, None, ["cs.DB"], {})]
    assert what_attribution_reads(edited(entries, 0, "title")) == what_attribution_reads(entries)
    assert what_attribution_reads(edited(entries, 0, "year")) != what_attribution_reads(entries)


def test_a_chinese_japanese_or_korean_name_in_bibtex_order_is_the_same_person_and_sorts_by_family_name():
    """'山田, 太郎' (family, given) was the person '太郎 山田', another than '山田 太郎', and such names sorted by the given name."""
    from sitegen.people.names import family_name, person_key

    assert person_key("山田, 太郎") == person_key("山田 太郎")
    assert person_key("Lin, Sheng") == person_key("Sheng Lin")
    names = ["鈴木 一郎", "山田, 太郎", "佐藤 花子"]
    assert [name[:2] for name in sorted(names, key=family_name)] == ["佐藤", "山田", "鈴木"]


def test_a_cjk_name_with_and_without_a_space_is_one_person_and_its_old_address_leads_on(tmp_path):
    """On a `people: authors` site '李 华' and '李华' (the same name, a space that says nothing in Chinese) were two
    people with a page each. They are one person; the addresses the pages had (people/person-7483222d/ for '李 华',
    as sitegen made it before) lead to the one page, as a renamed record's do."""
    from bs4 import BeautifulSoup
    from conftest import MINIMAL_SITE, rendered_files, write_site

    from sitegen.people.names import person_key

    assert person_key("李 华") == person_key("李华") == person_key("李, 华") and person_key("山田 太郎") == person_key("山田太郎")
    assert person_key("Li Hua") != person_key("LiHua") and person_key("李 Hua") == "李 hua"  # Latin letters keep their spaces
    records = (
        '- {id: a, title: Paper A, authors: ["李 华", "王伟"], year: 2021}\n'
        '- {id: b, title: Paper B, authors: ["李华", "王伟"], year: 2022}\n'
        '- {id: c, title: Paper C, authors: ["山田 太郎"], year: 2023}\n'
    )
    site = {**MINIMAL_SITE, "content/site.yaml": "title: Lab\nbase_url: https://example.org/\npeople: authors\n", "content/records/r.yaml": records}
    files = rendered_files(write_site(tmp_path, site))
    pages = {path: BeautifulSoup(body, "html.parser") for path, body in files.items() if path.startswith("people/") and path.endswith("/index.html")}
    people = {soup.select_one("h1").get_text(strip=True): path for path, soup in pages.items() if soup.select_one("h1#person-name")}
    assert sorted(people) == ["山田 太郎", "李 华", "王伟"]
    li = pages[people["李 华"]]
    assert {a.get_text(strip=True) for a in li.select("main li a[href*='records/']")} >= {"Paper A", "Paper B"}
    moved = {path: soup.select_one('meta[http-equiv="refresh"]')["content"] for path, soup in pages.items() if soup.select_one('meta[http-equiv="refresh"]')}
    assert moved["people/person-7483222d/index.html"] == f"0; url=/{people['李 华'].removesuffix('index.html')}"
    assert moved["people/person-bc098282/index.html"] == f"0; url=/{people['山田 太郎'].removesuffix('index.html')}"  # '山田 太郎' alone
    assert "people/person-7483222d/" not in files["sitemap.xml"].decode()


def test_a_directory_sorts_by_the_family_name_bibtex_reads():
    """QA: 'María José García-Fernández de la Fuente' sorted by its last word, 'van der Berg' by 'Berg'."""
    from sitegen.people.names import family_name

    assert family_name("Jan van der Berg") == "van der berg"
    assert family_name("María José García-Fernández de la Fuente") == "de la fuente"
    assert family_name("García-Fernández de la Fuente, María José") == "garcia fernandez de la fuente"
    assert family_name("Zhang Wei") == "wei"  # written given name first: not guessed otherwise
    assert family_name("Martin Luther King Jr.") == "king"
    # a .bib file's 'Ibn Rushd, Aḥmad' is read 'Aḥmad {Ibn Rushd}': listed under I, not R; 'Le Roy Ladurie, Emmanuel'
    # (three words) is a name, under L, not E
    assert family_name("Aḥmad {Ibn Rushd}") == "ibn rushd"
    assert family_name("Le Roy Ladurie, Emmanuel") == "le roy ladurie"
    assert family_name("{Google DeepMind}") == "google deepmind"
