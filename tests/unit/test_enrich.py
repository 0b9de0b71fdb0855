"""Stage 3, enrich: merging fetched and hand-written records, exclusions, owner
highlighting, citation keys, slugs and ordering."""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import pytest
from conftest import ARXIV_RECORD, MINIMAL_SITE, fetched_from_arxiv, rendered_files, validated_record, write_site
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.enrich import enrich_site, is_excluded, newest_first, normalise_name
from sitegen.load import parse_yaml
from sitegen.merge import merge_works as merge_fetched
from sitegen.model import ArxivSources, Profile, RawDocument, SiteConfig
from sitegen.urls import page_collisions
from sitegen.validate import validate_profile, validate_record

CONFIG = SiteConfig(title="T", base_url="https://e.org/")


def rec(text: str, path: str = "content/records/x.yaml"):
    return validated_record(text, path)


def from_data(data: dict, path: str = "content/records/x.yaml"):
    """A validated record from a mapping (for text that is awkward to quote in YAML)."""
    problems = []
    record = validate_record(data, path, problems)
    assert record is not None, problems
    return record


def profile(text: str = "name: Lena Müller\nname_variants: ['L. M{\\\"u}ller', 'Lena Mueller']\n") -> Profile:
    data, _ = parse_yaml(text, "content/profile.yaml")
    problems = []
    result = validate_profile(RawDocument(Path("p"), "content/profile.yaml", data), problems)
    assert not [p for p in problems if not p.warning]
    return result


def enrich(records, owner: Profile | None = None):
    return enrich_site(CONFIG, owner or profile(), list(records), Path("."))


# -- merging fetched and hand-written records ---------------------------------------------


def test_hand_written_record_wins_field_by_field():
    own = rec(
        "id: '2401.01234'\ntitle: My better title\nsource: EuroSys 2025\nfeatured: true\nyear: 2024\nlinks: {code: 'https://github.com/x/y'}\nslides: s.pdf\n"
    )
    merged = merge_fetched([fetched_from_arxiv(), own])
    assert len(merged) == 1
    one = merged[0]
    assert one.title == "My better title"  # hand-written
    assert one.source == "EuroSys 2025"
    assert one.featured is True
    assert one.links == {  # mappings merge key by key: the correction's code link joins the fetched ones
        "abs": "https://arxiv.org/abs/2401.01234",
        "pdf": "https://arxiv.org/pdf/2401.01234",
        "code": "https://github.com/x/y",
    }
    assert one.authors == ("Lena Müller", "Jonas Berg")  # from arXiv, not set by hand
    assert one.abstract == "The abstract from arXiv."
    assert one.year == 2024 and one.date is None  # a published venue is not dated by its preprint
    assert one.categories == ("cs.DC", "cs.LG")
    assert one.extra == {"slides": "s.pdf"}
    assert one.fetched is False
    assert one.location.path == "content/records/x.yaml"


def test_merge_by_arxiv_id_or_doi_when_ids_differ():
    by_arxiv = rec("id: mine2024\ntitle: Mine\nyear: 2024\narxiv: 2401.01234v2\n")
    merged = merge_fetched([fetched_from_arxiv(), by_arxiv])
    assert [(r.id, r.title, r.abstract) for r in merged] == [("mine2024", "Mine", "The abstract from arXiv.")]

    by_doi = rec("id: mine2024\ntitle: Mine\nyear: 2024\ndoi: 'https://doi.org/10.1234/ABC'\n")
    other = fetched_from_arxiv(ARXIV_RECORD + "doi: 10.1234/abc\n")
    assert [r.id for r in merge_fetched([other, by_doi])] == ["mine2024"]


def test_two_fetched_records_of_one_hand_written_record_do_not_crash():
    own = rec("id: mine\ntitle: Mine\nyear: 2020\ndoi: 10.1234/x\narxiv: '2401.00001'\n")
    first = fetched_from_arxiv("id: '2401.00001'\narxiv: '2401.00001'\ntitle: F1\nyear: 2020\nabstract: a\n")
    second = fetched_from_arxiv("id: '2401.99999'\narxiv: '2401.99999'\ntitle: F2\nyear: 2020\ndoi: 10.1234/x\n")
    merged = merge_fetched([own, first, second])
    assert [r.title for r in merged] == ["Mine"]
    assert merged[0].abstract == "a"


def test_unmatched_fetched_records_are_kept():
    merged = merge_fetched([fetched_from_arxiv(), rec("id: other\ntitle: Other\nyear: 2020\n")])
    assert sorted(r.id for r in merged) == ["2401.01234", "other"]


def test_hidden_by_hand_hides_the_fetched_record():
    site, _ = enrich([fetched_from_arxiv(), rec("id: '2401.01234'\nhidden: true\ntitle: x\nyear: 2024\n")])
    assert site.entries == ()


# -- exclusions --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sources, excluded",
    [
        (ArxivSources(exclude_ids=("2401.01234",)), True),
        (ArxivSources(exclude_categories=("cs.LG",)), True),
        (ArxivSources(exclude_categories=("hep-ph",)), False),
        (ArxivSources(categories=("hep-ph", "hep-th")), True),
        (ArxivSources(categories=("cs.DC",)), False),
        (ArxivSources(), False),
    ],
)
def test_exclusions_apply_to_fetched_records(sources, excluded):
    assert is_excluded(fetched_from_arxiv(), sources) is excluded


def test_exclusions_never_drop_hand_written_records():
    written = rec(ARXIV_RECORD)
    assert not is_excluded(written, ArxivSources(exclude_ids=("2401.01234",), exclude_categories=("cs.DC",)))


def test_excluded_records_are_not_shown():
    owner = profile("name: Lena Müller\narxiv:\n  authors: [Lena Müller]\n  exclude_categories: [hep-ph]\n  exclude_ids: ['2402.00002']\n")
    records = [
        fetched_from_arxiv(),
        fetched_from_arxiv("id: '2402.00001'\ntitle: Quarks\nyear: 2024\ncategories: [hep-ph]\n"),
        fetched_from_arxiv("id: '2402.00002'\ntitle: Someone else\nyear: 2024\ncategories: [cs.DC]\n"),
    ]
    site, _ = enrich(records, owner)
    assert [e.id for e in site.entries] == ["2401.01234"]
    assert [s.code for s in site.subjects] == ["cs.DC", "cs.LG"]


# -- the owner's name ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, is_owner",
    [
        ("Lena Müller", True),
        ('Lena M{\\"u}ller', True),
        ('L. M{\\"u}ller', True),
        ('L. M\\"uller', True),
        ("Lena Mueller", True),
        ("Lena Muller", True),
        ("LENA MÜLLER", True),
        ("Lena  Müller", True),
        ("Müller, Lena", True),
        ('M{\\"u}ller, L.', True),
        ("Müller, Jonas", False),
        ("Lena Müller-Schmidt", False),
        ("Jonas Müller", False),
        ("Lena Berg", False),
        ("Müller", False),
    ],
)
def test_owner_highlighting_with_variants_and_accents(name, is_owner):
    site, _ = enrich([rec(f"id: a\ntitle: T\nyear: 2020\nauthors: ['Jonas Berg', {name!r}]\n".replace("\\\\", "\\"))])
    authors = site.entries[0].authors
    assert [a.is_owner for a in authors] == [False, is_owner]


@pytest.mark.parametrize(
    "owner, variants, name, is_owner",
    [
        ("山田 太郎", ["Taro Yamada"], "山田 太郎", True),
        ("山田 太郎", ["Taro Yamada"], "山田太郎", True),  # Japanese is written with or without the space
        ("山田 太郎", ["Taro Yamada"], "山田, 太郎", True),  # BibTeX's order: family name, given name
        ("山田 太郎", ["Taro Yamada"], "Yamada, Taro", True),
        ("山田 太郎", ["Taro Yamada"], "佐藤 花子", False),
        ("山田 太郎", ["Taro Yamada"], "山田 次郎", False),
        ("王伟", [], "王伟", True),
        ("王伟", [], "李娜", False),
        ("Иван Петров", [], "Иван Петров", True),
        ("Иван Петров", [], "Петров, Иван", True),
        ("Иван Петров", [], "Сергей Петров", False),
        ("محمد الخوارزمي", [], "محمد الخوارزمي", True),
        ("Jürgen Straßer", [], "Jürgen Strasser", True),
        # Persian names as Arabic keyboards and many databases write them: ي for ی, ك for ک, with or without harakat
        ("سارا احمدی", ["Sara Ahmadi"], "سارا احمدي", True),
        ("کاوه کریمی", [], "كاوه كريمي", True),
        ("فاطمه رضایی", [], "فاطمة رضائي", True),  # ة for ه, ئ (hamza on yeh) for ی: the same name
        ("محمد الخوارزمي", [], "مُحَمَّد الخوارزمي", True),
        ("سارا احمدی", [], "سارا محمدی", False),
    ],
)
def test_an_owner_named_in_any_script_is_highlighted(owner, variants, name, is_owner):
    """A name with letters that have no ASCII form is the owner's as a Latin one is (they were all ''), and
    another name of that script is not."""
    site, _ = enrich(
        [from_data({"id": "a", "title": "T", "year": 2020, "authors": ["Jonas Berg", name]})], profile(f"name: {owner}\nname_variants: {variants}\n")
    )
    assert [a.is_owner for a in site.entries[0].authors] == [False, is_owner]


SMITH = "name: John A. Smith\nname_variants: ['J. A. Smith']\n"  # what `sitegen init --name 'John A. Smith'` writes


@pytest.mark.parametrize(
    "name, is_owner",
    [
        ("Smith, J.", True),  # Google Scholar, DBLP
        ("J. Smith", True),
        ("J.A. Smith", True),
        ("JA Smith", True),
        ("Smith, John A.", True),  # Zotero, ORCID
        ("John Smith", True),  # middle initial absent
        ("John Andrew Smith", True),  # middle name written out
        ("SMITH, JOHN", True),
        ("J. A. Smith", True),
        ("Smith J", True),  # PubMed
        ("Smith JA", True),
        ("Smith, JA", True),
        ('J{\\"o}hn Smith', True),  # an accent typed by mistake
        ("Jöhn Smith", True),
        ("Jane Smith", False),  # a namesake: another given name
        ("K. Smith", False),
        ("Jonathan Smith", False),
        ("John B. Smith", False),  # another middle initial
        ("J. B. Smith", False),
        ("Smith, K.", False),
        ("John Smithson", False),
        ("Smith", False),
    ],
)
def test_the_owner_is_highlighted_in_the_usual_forms_of_their_name(name, is_owner):
    """Initials with or without periods and spaces, BibTeX's and PubMed's order, case, accents, a middle initial
    present or absent: the owner, without listing each form; a co-author of the family name and another given
    name or initial: never."""
    site, _ = enrich([from_data({"id": "a", "title": "T", "year": 2020, "authors": ["Alice Doe", name]})], profile(SMITH))
    assert [a.is_owner for a in site.entries[0].authors] == [False, is_owner]


@pytest.mark.parametrize(
    "authors, owners",
    [
        (["John Smith", "J. Smith"], ["John Smith"]),  # J. Smith is someone else: the record names John Smith already
        (["J. Smith", "Smith, John A."], ["John A. Smith"]),  # the name profile.yaml gives comes first
        (["Jane Smith", "K. Smith", "J. A. Smith"], ["J. A. Smith"]),
        (["J. Smith", "J. A. Smith"], ["J. A. Smith"]),
        (["Jane Smith", "J. Smith"], ["J. Smith"]),
    ],
)
def test_a_record_naming_two_authors_who_could_be_the_owner_highlights_the_closer(authors, owners):
    site, _ = enrich([from_data({"id": "a", "title": "T", "year": 2020, "authors": authors})], profile(SMITH))
    assert [a.name for a in site.entries[0].authors if a.is_owner] == owners


@pytest.mark.parametrize(
    "name, is_owner",
    [
        ("García-López, M.", True),
        ("M. García López", True),
        ("M García-López", True),
        ("Garcia-Lopez M", True),
        ("María J. García-López", True),
        ("M. López", False),  # another family name
        ("Marta García-López", False),
        ("A. García-López", False),
    ],
)
def test_a_two_part_family_name_is_matched_with_or_without_its_hyphen(name, is_owner):
    site, _ = enrich([from_data({"id": "a", "title": "T", "year": 2020, "authors": ["Alice Doe", name]})], profile("name: María García-López\n"))
    assert [a.is_owner for a in site.entries[0].authors] == [False, is_owner]


def test_a_bibtex_name_in_cjk_is_shown_family_name_first():
    """'山田, 太郎' is family name, given name, and Japanese and Chinese write the family name first."""
    site, _ = enrich([from_data({"id": "a", "title": "T", "year": 2020, "authors": ["山田, 太郎", "Müller, Lena"]})])
    assert [a.name for a in site.entries[0].authors] == ["山田 太郎", "Lena Müller"]


def test_a_record_whose_first_author_has_no_latin_letters_keeps_its_id_as_citation_key():
    """The key was 'anon2024' for every such record (the name's letters were dropped): the id, when it is an ASCII key
    (pdfLaTeX's \\cite may choke on another)."""
    records = [
        from_data({"id": "yamada2024", "title": "深層学習による形態素解析", "year": 2024, "authors": ["山田 太郎"]}),
        from_data({"id": "形態素2021", "title": "形態素解析", "year": 2021, "authors": ["山田 太郎"]}),
    ]
    assert cite_keys(records) == {"yamada2024": "yamada2024", "形態素2021": "anon2021"}


def test_a_family_name_written_first_in_capitals_makes_the_citation_key():
    """'YAMADA Taro' is written 'YAMADA, Taro' in publications.bib: its key is the family name's, as 'Yamada, Taro''s
    is ('taro2021consensus' before), and 'JA Smith' stays initials first."""
    records = [
        from_data({"id": "jip", "title": "Consensus in Distributed Systems", "year": 2021, "authors": ["YAMADA Taro", "SATO Hanako"]}),
        from_data({"id": "kim", "title": "Sampling at Scale", "year": 2024, "authors": ["KIM Min-Su"]}),
        from_data({"id": "js", "title": "Graphs", "year": 2020, "authors": ["JA Smith"]}),
        from_data({"id": "atlas", "title": "Higgs", "year": 2012, "authors": ["ATLAS Collaboration"]}),
    ]
    assert cite_keys(records) == {"jip": "yamada2021consensus", "kim": "kim2024sampling", "js": "smith2020graphs", "atlas": "collaboration2012higgs"}


def test_author_names_are_shown_as_unicode():
    site, _ = enrich([from_data({"id": "a", "title": "T", "year": 2020, "authors": [r"Zo{\"e} Kov{" "\\'" r"a}{\v{c}}", r"Andr\'e Dupont"]})])
    assert [a.name for a in site.entries[0].authors] == ["Zoë Kováč", "André Dupont"]


def test_normalise_name():
    assert normalise_name('L. M{\\"u}ller') == normalise_name("l muller") == normalise_name("Muller, L.") == "l muller"


def test_a_title_with_one_comma_keeps_its_first_word_in_the_cite_key():
    """Only a name is read 'Last, First': a title's comma is punctuation."""
    record = from_data({"id": "t", "title": "Attention, Please: Sparse Transformers", "year": 2021, "authors": ["Lena Müller"]})
    site, _ = enrich([record])  # the title converted once, then read for its key
    assert site.entries[0].cite_key == "muller2021attention"


# -- citation keys ------------------------------------------------------------------------


def _records_for_keys():
    return [
        rec("id: a\ntitle: 'Sparse All-Reduce'\nyear: 2019\nauthors: ['Lena M{\\\"u}ller', 'X']\n"),
        rec("id: b\ntitle: 'The Sparse Way'\nyear: 2019\nauthors: ['Lena Müller']\n"),
        rec("id: c\ntitle: 'Sparse Again'\nyear: 2019\nauthors: ['L. Muller']\n"),
        from_data({"id": "d", "title": "On $O(n^2)$ Barriers", "year": 2026, "authors": [r"Zo{\"e} Kov{" "\\'" r"a}{\v{c}}"]}),
        rec("id: e\ntitle: 'Untitled by nobody'\nyear: 2020\n"),
        rec("id: g\ntitle: 'Gossip'\nyear: 2022\nauthors: ['Laurent, Camille', 'Lena Müller']\n"),
    ]


def cite_keys(records) -> dict[str, str]:
    """Each shown record's citation key, by id, as a build makes them."""
    site, _ = enrich(records)
    return {entry.id: entry.cite_key for entry in site.entries}


def test_cite_keys_are_author_year_word_and_unique():
    keys = cite_keys(_records_for_keys())
    assert keys["d"] == "kovac2026o"
    assert keys["e"] == "anon2020untitled"
    assert keys["g"] == "laurent2022gossip"  # 'Last, First' order
    assert keys["a"] == "muller2019sparse"  # the earliest of those sharing it (no dates: by id) has it bare
    assert all(re.fullmatch("muller2019sparse[b-z]", keys[i]) for i in "bc")  # the others a letter their id picks
    assert len(set(keys.values())) == len(keys)
    assert all(key.isascii() and key.replace("-", "").isalnum() for key in keys.values())


def test_cite_keys_are_stable_across_runs_and_input_order():
    records = _records_for_keys()
    assert cite_keys(records) == cite_keys(list(reversed(records)))


def test_existing_cite_keys_do_not_change_when_a_record_is_added():
    records = _records_for_keys()
    before = cite_keys(records)
    unrelated = rec("id: z\ntitle: 'Something Else'\nyear: 2021\nauthors: ['Jonas Berg']\n")
    same_start = rec("id: f\ntitle: 'Sparse Forever'\nyear: 2019\nauthors: ['Lena Müller']\n")  # a later paper, same key stem
    for added in (unrelated, same_start):
        after = cite_keys(records + [added])
        assert {k: after[k] for k in before} == before
        assert len(set(after.values())) == len(after)


def test_a_record_sharing_a_key_keeps_its_letter_whichever_records_come_or_go():
    shared = [rec(f"id: {i}\ntitle: 'Sparse {i}'\nyear: 2019\ndate: 2019-0{n + 1}-01\nauthors: ['Lena Müller']\n") for n, i in enumerate("mpz")]
    before = cite_keys(shared)
    earlier_id_later_date = rec("id: a\ntitle: 'Sparse Later'\nyear: 2019\ndate: 2019-09-01\nauthors: ['Lena Müller']\n")
    assert {k: v for k, v in cite_keys([*shared, earlier_id_later_date]).items() if k in before} == before
    without_one = cite_keys([shared[0], shared[2]])
    assert without_one == {"m": before["m"], "z": before["z"]}  # 'p' gone: 'z' keeps its key


def test_an_older_record_added_renames_only_the_one_that_had_the_key_bare():
    shared = [rec(f"id: {i}\ntitle: 'Sparse {i}'\nyear: 2019\ndate: 2019-0{n + 5}-01\nauthors: ['Lena Müller']\n") for n, i in enumerate("mpz")]
    before = cite_keys(shared)
    older = rec("id: q\ntitle: 'Sparse Before'\nyear: 2019\ndate: 2019-01-01\nauthors: ['Lena Müller']\n")
    after = cite_keys([*shared, older])
    assert after["q"] == before["m"] == "muller2019sparse"
    assert (after["p"], after["z"]) == (before["p"], before["z"])
    assert len({key.lower() for key in after.values()}) == 4


# -- citation keys as a user sees them: publications.bib --------------------------------------


def bib_keys(site: Path) -> dict[str, str]:
    """Title -> citation key of every entry of the built publications.bib."""
    library = bibtexparser.parse_string(rendered_files(site)["publications.bib"].decode("utf-8"))
    assert library.failed_blocks == []
    return {entry.fields_dict["title"].value.strip("{}"): entry.key for entry in library.entries}


def test_a_bib_entry_keeps_its_own_key_and_an_added_one_renames_nothing(tmp_path):
    old = "@article{zz2020, title = {Scheduling Things}, author = {Lin, Sheng}, journal = {J}, year = 2020}\n"
    new = "@article{aa2020, title = {Scheduling Other Things}, author = {Lin, Sheng}, journal = {J}, year = 2020}\n"
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/mine.bib": old})
    assert bib_keys(site) == {"Scheduling Things": "zz2020"}
    write_site(tmp_path, {"content/records/mine.bib": old + new})
    assert bib_keys(site) == {"Scheduling Things": "zz2020", "Scheduling Other Things": "aa2020"}


def test_no_generated_key_takes_a_key_of_the_users_bib_file_whatever_its_case(tmp_path):
    bib = "@article{Lin2020Scheduling, title = {Other Work}, author = {Berg, Jonas}, journal = {J}, year = 2021}\n"
    yaml_record = "id: sched\ntitle: Scheduling Things\nauthors: [Sheng Lin]\nyear: 2020\n"  # its key would be lin2020scheduling
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/mine.bib": bib, "content/records/sched.yaml": yaml_record})
    keys = bib_keys(site)
    assert keys["Other Work"] == "Lin2020Scheduling"
    assert keys["Scheduling Things"].startswith("lin2020scheduling") and keys["Scheduling Things"].lower() != "lin2020scheduling"


def test_a_bib_key_bibtex_cannot_read_back_gives_way_to_a_made_one(tmp_path):
    site = write_site(
        tmp_path, {**MINIMAL_SITE, "content/records/mine.bib": "@article{my key, title = {Spaced}, author = {Lin, Sheng}, journal = {J}, year = 2020}\n"}
    )
    assert bib_keys(site) == {"Spaced": "lin2020spaced"}


# -- subjects, ordering ---------------------------------------------------------------


def test_ids_that_give_the_same_page_are_reported():
    site, _ = enrich(
        [
            rec("id: hep-ph/0601001\ntitle: A\nyear: 2006\n", "content/records/a.yaml"),
            rec("\nid: hep-ph-0601001\ntitle: B\nyear: 2006\n", "content/records/b.yaml"),
        ]
    )
    assert [str(p) for p in page_collisions(site)] == [
        "content/records/b.yaml:2: id 'hep-ph-0601001' gives the same page records/hep-ph-0601001/ as id 'hep-ph/0601001' "
        "at content/records/a.yaml:1; change one id"
    ]


def test_ids_of_letters_an_address_cannot_hold_that_give_one_page_say_why():
    """'田中2020' and '山田2020' are both records/--2020/: the message said only 'change one id'."""
    site, _ = enrich(
        [
            from_data({"id": "山田2020", "title": "A", "year": 2020}, "content/records/a.yaml"),
            from_data({"id": "田中2020", "title": "B", "year": 2020}, "content/records/b.yaml"),
        ]
    )
    assert [p.message for p in page_collisions(site)] == [
        "id '田中2020' gives the same page records/--2020/ as id '山田2020' at content/records/a.yaml; an address holds only"
        " A-Z a-z 0-9 . _ -, and each other character becomes '-': give one an id of these (an author's family name in Latin"
        " letters and the year: tanaka2020)"
    ]


def test_categories_that_give_the_same_page_are_reported_once():
    site, _ = enrich(
        [
            rec("id: a\ntitle: A\nyear: 2006\ncategories: ['math/CO']\n", "content/records/a.yaml"),
            rec("id: b\ntitle: B\nyear: 2006\ncategories: ['math-CO']\n", "content/records/b.yaml"),
            rec("id: c\ntitle: C\nyear: 2006\ncategories: ['math-CO']\n", "content/records/c.yaml"),
        ]
    )
    messages = [str(p) for p in page_collisions(site)]
    assert len(messages) == 1
    assert "category 'math-CO' gives the same page subjects/math-CO/ as category 'math/CO'" in messages[0]


def test_subjects_have_names_slugs_and_sorted_order():
    site, _ = enrich([rec("id: a\ntitle: A\nyear: 2020\ncategories: [stat.ML, cs.DC, Quantum widgets, cs.DC]\n")])
    entry = site.entries[0]
    assert [(s.code, s.name, s.slug) for s in entry.subjects] == [
        ("stat.ML", "Machine Learning (Statistics)", "stat.ML"),
        ("cs.DC", "Distributed, Parallel, and Cluster Computing", "cs.DC"),
        ("Quantum widgets", "Quantum widgets", "Quantum-widgets"),
    ]
    assert [s.code for s in site.subjects] == ["cs.DC", "stat.ML", "Quantum widgets"]


def test_entries_are_newest_first_and_hidden_records_are_gone():
    site, _ = enrich(
        [
            rec("id: old\ntitle: Old\nyear: 2018\n"),
            rec("id: mar\ntitle: March\ndate: 2024-03-01\n"),
            rec("id: undated\ntitle: Undated\nyear: 2024\n"),
            rec("id: nov\ntitle: November\ndate: 2024-11-20\n"),
            rec("id: secret\ntitle: Secret\nyear: 2025\nhidden: true\n"),
            rec("id: mid\ntitle: Mid\nyear: 2021\nfeatured: true\n"),
        ]
    )
    assert [e.id for e in site.entries] == ["nov", "mar", "undated", "mid", "old"]


def test_entries_carry_converted_text():
    site, problems = enrich(
        [rec("id: a\ntitle: 'A $O(n^2)$ \\textbf{bold} title'\nyear: 2020\nsource: 'Proc. of M{\\\"u}nchen'\nabstract: 'Has *emphasis* and $x$.'\n")]
    )
    entry = site.entries[0]
    assert entry.title.plain == "A O(n²) bold title"
    assert "<math" in entry.title.html and "<strong>bold</strong>" in entry.title.html
    assert entry.title.source == "A $O(n^2)$ \\textbf{bold} title"
    assert entry.source.plain == "Proc. of München"
    assert "<em>emphasis</em>" in entry.abstract_html and entry.abstract_plain == "Has emphasis and x."
    assert problems == []


def test_unconvertible_latex_is_a_warning_naming_file_line_and_field():
    _, problems = enrich([rec("id: a\n\ntitle: 'A \\unknownmacro{x} title'\nyear: 2020\nabstract: 'Uses \\foo.'\n")])
    assert [str(p) for p in problems] == [
        "content/records/x.yaml:3: warning: record 'a', field 'title': LaTeX shown as source, cannot convert \\unknownmacro{x}"
        "; write it in Unicode or with the commands listed in docs/content.md (LaTeX and Markdown)",
        "content/records/x.yaml:5: warning: record 'a', field 'abstract': LaTeX shown as source, cannot convert \\foo"
        "; write it in Unicode or with the commands listed in docs/content.md (LaTeX and Markdown)",
    ]


def test_latex_that_cannot_be_converted_in_a_block_of_text_is_reported_at_its_own_line():
    text = "id: a\ntitle: T\nyear: 2020\nabstract: |\n  Let $M$ be a manifold.\n\n  Then $\\R^n$ and\n  $\\foo$.\n"
    _, problems = enrich([rec(text)])
    assert [str(p).split(": LaTeX")[0] for p in problems] == [
        "content/records/x.yaml:7: warning: record 'a', field 'abstract'",
        "content/records/x.yaml:8: warning: record 'a', field 'abstract'",
    ]


def test_profile_text_written_in_latex_is_shown_as_unicode():
    site, _ = enrich(
        [rec("id: a\ntitle: T\nyear: 2020\nauthors: ['Lena Müller']\n")],
        profile("name: 'Lena M{\\\"u}ller'\naffiliation: 'Universit{\\\"a}t Z{\\\"u}rich'\nposition: Professor\n"),
    )
    assert (site.profile.name, site.profile.affiliation, site.profile.position) == ("Lena Müller", "Universität Zürich", "Professor")
    assert site.entries[0].authors[0].is_owner


def test_unconvertible_latex_in_the_profile_is_a_warning_naming_its_line():
    _, problems = enrich([], profile("name: 'Lena M{\\\"u}ller'\n\nbio: 'Works on \\foo{x} systems'\naffiliation: 'Uni \\bar'\n"))
    assert [str(p) for p in problems] == [
        "content/profile.yaml:3: warning: field 'bio': LaTeX shown as source, cannot convert \\foo{x}"
        "; write it in Unicode or with the commands listed in docs/content.md (LaTeX and Markdown)",
        "content/profile.yaml:4: warning: field 'affiliation': LaTeX shown as source, cannot convert \\bar"
        "; write it in Unicode or with the commands listed in docs/content.md (LaTeX and Markdown)",
    ]


def test_bio_is_markdown():
    site, _ = enrich([], profile("name: A\nbio: 'Works on *systems* with <script>x</script>'\n"))
    assert "<em>systems</em>" in site.bio_html and "<script>" not in site.bio_html


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.integers(2019, 2021), st.sampled_from(["", "-03-01", "-11-30"])),
        max_size=12,
        unique_by=lambda t: t[0] + str(t[1]) + t[2],
    )
)
def test_newest_first_is_year_then_date_descending_then_id(specs):
    records = [rec(f"id: '{name}{year}{day}'\ntitle: T\nyear: {year}\n" + (f"date: {year}{day}\n" if day else "")) for name, year, day in specs]
    expected = sorted(records, key=lambda r: (-r.year, [-ord(c) for c in (r.date.isoformat() if r.date else f"{r.year:04d}-00-00")], r.id))
    assert [r.id for r in newest_first(records)] == [r.id for r in expected]


# -- marks after authors' names: equal contribution, corresponding author ---------------------------

MARKED_SITE = {
    "content/site.yaml": "title: Test site\nbase_url: https://example.org/\n",
    "content/profile.yaml": "name: Amara N. Okafor\n",
    "content/records/cofirst.yaml": (
        "id: li2023\ntitle: A CRISPRi screen identifies TBX5-dependent enhancers\n"
        "authors: ['Chen Li*', 'Amara N. Okafor*', Priya Patel, 'Jonathan P. Reyes†']\n"
        "year: 2023\nsource: Cell Genomics\ntype: article\ndoi: 10.1016/j.xgen.2023.100345\n"
    ),
    "content/records/papers.bib": (
        "@article{okafor2019,\n  author = {Okafor*, Amara N and Mensah$^{*}$, Kwame and Reyes\\textsuperscript{\\dag}, Jonathan P},\n"
        "  title = {TBX5 haploinsufficiency alters atrial chromatin},\n  journal = {J Mol Cell Cardiol},\n  year = {2019},\n}\n"
    ),
}


def test_marks_after_authors_names_are_shown_and_never_exported_as_part_of_the_name(tmp_path):
    from bs4 import BeautifulSoup

    files = rendered_files(write_site(tmp_path, MARKED_SITE))
    page = BeautifulSoup(files["records/li2023/index.html"], "html.parser")
    authors = page.select_one(".record-header p.authors") or page.select_one("p.authors")
    assert authors.get_text("", strip=False) == "Chen Li*, Amara N. Okafor*, Priya Patel, Jonathan P. Reyes†"
    assert [s.get_text() for s in authors.select("sup.author-mark")] == ["*", "*", "†"]
    assert authors.select_one("strong.owner").get_text() == "Amara N. Okafor"  # the owner is found, marked or not
    scholar = [m["content"] for m in page.select('meta[name="citation_author"]')]
    assert scholar == ["Li, Chen", "Okafor, Amara N.", "Patel, Priya", "Reyes, Jonathan P."]
    assert "*" not in page.select_one('meta[name="description"]')["content"]
    assert "*" not in page.select_one('script[type="application/ld+json"]').get_text()
    bib = files["publications.bib"].decode()
    assert "author = {Chen Li and Amara N. Okafor and Priya Patel and Jonathan P. Reyes}" in bib
    assert "author = {Amara N Okafor and Kwame Mensah and Jonathan P Reyes}" in bib
    ris = files["publications.ris"].decode()
    assert "AU  - Reyes, Jonathan P.\r\n" in ris and "*" not in ris and "†" not in ris
    other = BeautifulSoup(files["records/okafor2019/index.html"], "html.parser")
    assert [s.get_text() for s in other.select_one("p.authors").select("sup.author-mark")] == ["*", "*", "†"]
    profile = BeautifulSoup(files["index.html"], "html.parser")
    assert [s.get_text() for s in profile.select("#publications li.record p.authors sup.author-mark")] == ["*", "*", "†", "*", "*", "†"]


def test_hugo_bloxs_author_notes_are_marks_after_the_names_and_a_legend_on_the_record_page(tmp_path):
    from bs4 import BeautifulSoup

    hugo = (
        "---\ntitle: 'Spatial transcriptomics of the developing human heart'\nauthors:\n  - Wei Zhang\n  - admin\n  - Jonathan P. Reyes\n"
        "author_notes:\n  - 'Equal contribution'\n  - 'Equal contribution'\n  - 'Corresponding author'\n"
        "date: '2022-05-01T00:00:00Z'\npublication_types: ['article-journal']\npublication: '*Cell*'\n---\n"
    )
    files = rendered_files(write_site(tmp_path, {**MARKED_SITE, "content/records/publication/spatial/index.md": hugo}))
    page = BeautifulSoup(files["records/spatial/index.html"], "html.parser")
    authors = page.select_one("p.authors")
    assert authors.get_text() == "Wei Zhang*, Amara N. Okafor*, Jonathan P. Reyes†"
    assert authors.select_one("strong.owner").get_text() == "Amara N. Okafor"  # Hugo Blox's `admin`, marked
    assert page.select_one("p.author-notes").get_text() == "* Equal contribution · † Corresponding author"
    assert "Equal contribution" not in files["publications.bib"].decode()  # no note a reader's bibliography would print
    yaml_page = BeautifulSoup(files["records/li2023/index.html"], "html.parser")
    assert yaml_page.select_one("p.author-notes") is None  # no legend without author_notes


def test_a_yaml_records_author_notes_name_what_its_marks_mean(tmp_path):
    from bs4 import BeautifulSoup

    site = {**MARKED_SITE}
    site["content/records/cofirst.yaml"] += "author_notes: {'*': Equal contribution, '†': Corresponding author, '‡': Unused}\n"
    page = BeautifulSoup(rendered_files(write_site(tmp_path, site))["records/li2023/index.html"], "html.parser")
    assert page.select_one("p.author-notes").get_text() == "* Equal contribution · † Corresponding author"
