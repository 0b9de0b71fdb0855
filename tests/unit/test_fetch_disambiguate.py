"""Telling apart people who share a name, on the "Sheng Lin" fixture and small cases."""

from __future__ import annotations

from pathlib import Path

import arxiv
import pytest

from sitegen.disambiguate import (
    Candidate,
    Paper,
    candidate_lines,
    exclusion_line,
    exclusions_keeping,
    group_papers,
    name_key,
    report,
    shares_coauthor,
)
from sitegen.sources.arxiv import record_from_result

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "arxiv" / "author-lin_s_9999.atom"
SYSTEMS = {"2606.11867", "2601.12784", "2509.01193", "2504.20490", "2412.07894", "2410.13333"}
HARDWARE = {"2308.08649", "2201.11934", "2107.02388", "2106.09144", "2106.08301", "2009.01867", "2002.11474", "2001.07710"}
PHYSICS = {"2409.02791", "2407.14828"}


@pytest.fixture(scope="module")
def sheng_lin() -> list[Paper]:
    results = arxiv._feed.parse(FIXTURE.read_bytes()).results
    papers = []
    for r in results:
        record = record_from_result(r)
        papers.append(Paper(record["id"], record["title"], tuple(record["authors"]), tuple(record["categories"]), record["year"]))
    return papers


def paper(pid: str, authors: str, categories: str = "cs.DC", excluded: str | None = None) -> Paper:
    return Paper(pid, f"Title {pid}", tuple(a.strip() for a in authors.split(",")), tuple(categories.split()), 2024, excluded)


def test_the_fixture_splits_into_the_people_behind_the_name(sheng_lin):
    groups, _ = group_papers(sheng_lin, ["Sheng Lin"])
    found = [set(g.ids) for g in groups]
    assert found == [HARDWARE, SYSTEMS, PHYSICS, {"2602.22575"}, {"2207.04090"}]


def test_the_searched_name_is_not_a_link_even_when_nobody_gave_it(sheng_lin):
    groups, _ = group_papers(sheng_lin, [])  # e.g. fetched by --id only
    assert len(groups) == 5


def test_physics_group_is_excluded_by_its_subject_and_nothing_else(sheng_lin):
    groups, _ = group_papers(sheng_lin, ["Sheng Lin"])
    physics = next(g for g in groups if set(g.ids) == PHYSICS)
    assert exclusion_line(physics, groups, {}) == "exclude_categories: [hep-ph]"


def test_a_group_sharing_a_subject_with_another_is_excluded_by_id(sheng_lin):
    groups, _ = group_papers(sheng_lin, ["Sheng Lin"])
    single = next(g for g in groups if g.ids == ["2602.22575"])  # cs.LG, like one hardware paper
    assert exclusion_line(single, groups, {}) == "exclude_ids: ['2602.22575']"


def test_the_suggested_line_keeps_the_exclusions_already_there(sheng_lin):
    groups, _ = group_papers(sheng_lin, ["Sheng Lin"])
    physics = next(g for g in groups if set(g.ids) == PHYSICS)
    assert exclusion_line(physics, groups, {"exclude_categories": ("eess.IV",)}) == "exclude_categories: [eess.IV, hep-ph]"


def test_name_variants_of_the_owner_do_not_link_papers():
    papers = [paper("1", "S. Lin, Ann Lee"), paper("2", "Sheng Lin, Bo Chen"), paper("3", "LIN Sheng, Bo Chen")]
    groups, _ = group_papers(papers, ["Sheng Lin", "Lin Sheng"])
    assert [g.ids for g in groups] == [["2", "3"], ["1"]]


def test_accents_and_latex_in_names_compare_equal():
    assert name_key('M{\\"u}ller, L.') == name_key("Müller L") == name_key("muller l")
    papers = [paper("1", "Ada X, Jos{\\'e} Mu{\\~n}oz"), paper("2", "Ada X, José Muñoz")]
    groups, _ = group_papers(papers, ["Ada X"])
    assert len(groups) == 1


def test_report_says_which_groups_are_included_and_how_to_drop_one():
    papers = [paper("1", "Me, Ann", "cs.DC"), paper("2", "Me, Ann", "cs.DC"), paper("3", "Me, Zed", "hep-ph", excluded="exclude_categories: hep-ph")]
    groups, owner = group_papers(papers, ["Me"])
    lines = report(groups, owner, {"exclude_categories": ("hep-ph",)})
    text = "\n".join(lines)
    assert lines[0].startswith("2 groups") and "2 of 3 records are included" in lines[0]
    assert "group 1: 2 records, 2024, cs.DC; with Ann (2) — included" in text
    assert "group 2: 1 record, 2024, hep-ph; with Zed — excluded" in text
    assert "exclude_categories: [hep-ph, cs.DC]" in text  # to drop group 1 as well
    assert text.count("to exclude this group") == 1  # not for a group already excluded
    assert "    + 1  Title 1" in text and "    - 3  Title 3" in text


def test_short_report_leaves_out_the_record_lines():
    papers = [paper("1", "Me, Ann"), paper("2", "Me, Bob", "hep-th")]
    groups, owner = group_papers(papers, ["Me"])
    text = "\n".join(report(groups, owner, {}, detailed=False))
    assert "Title 1" not in text and "--review" in text


# --------------------------------------------------------------------------
# co-author anchors, keeping groups, namesake candidates
# --------------------------------------------------------------------------


def test_a_coauthor_anchor_finds_its_group_in_any_spelling(sheng_lin):
    groups, _ = group_papers(sheng_lin, ["Sheng Lin"])
    for anchor in ("Bin Cui", "B. Cui", "Cui, Bin", "bin cui"):
        anchored = [set(g.ids) for g in groups if shares_coauthor(g, [anchor])]
        assert anchored == [SYSTEMS], anchor
    assert not any(shares_coauthor(g, ["Ada Lovelace"]) for g in groups)


def test_keeping_groups_excludes_every_other_record_by_id():
    groups = [["1", "2"], ["3"], ["4"]]
    kept = exclusions_keeping(groups, [1, 3], {}, {"1": ["cs.DC"], "3": ["hep-ph"], "4": ["cs.LG"]})
    assert kept == {"exclude_ids": ["3"], "exclude_categories": []}


def test_keeping_a_group_takes_its_records_out_of_earlier_exclusions():
    current = {"exclude_ids": ("1v2", "9"), "exclude_categories": ("cs.DC", "hep-ph")}
    categories = {"1": ["cs.DC"], "2": ["cs.DC"], "3": ["hep-ph"], "4": ["cs.DC"]}
    kept = exclusions_keeping([["1", "2"], ["3"], ["4"]], [1], current, categories)
    # cs.DC no longer excludes (group 1 is in it), so group 3's and 4's records are named; hep-ph still covers 3
    assert kept == {"exclude_ids": ["9", "4"], "exclude_categories": ["hep-ph"]}


def test_candidates_are_listed_with_what_tells_them_apart():
    people = [
        Candidate("A1", "Sheng Lin", "Peking University", "2024–2026", 9, ["Bin Cui", "Fangcheng Fu"]),
        Candidate("A2", "Sheng Lin", note="dblp has no list for this id"),
    ]
    lines = candidate_lines("OpenAlex", "Sheng Lin", people, "--openalex", "openalex")
    assert lines[0] == "OpenAlex: 2 people are called 'Sheng Lin'; sitegen will not mix their works:"
    assert lines[1] == "  1. A1  Sheng Lin — Peking University; 2024–2026; 9 works"
    assert lines[2] == "       with Bin Cui, Fangcheng Fu"
    assert lines[3] == "  2. A2  Sheng Lin — affiliation unknown; years unknown; works unknown"
    assert "set `openalex: ID` in content/profile.yaml" in lines[-1]


def collaboration(pid: str, members: list[str], owner_at: int | None = None, categories: str = "hep-ex") -> Paper:
    authors = list(members)
    if owner_at is not None:
        authors.insert(owner_at, "John A. Smith")
    return Paper(pid, f"Title {pid}", tuple(authors), tuple(categories.split()), 2023)


def test_a_name_shared_through_a_collaborations_list_does_not_join_a_namesake():
    first = ["Wei", "Lei", "Maria", "Paolo", "Anna", "Jakob", "Yuki", "Sara", "Ivan", "Chen"]
    last = ["Wang", "Chen", "Garcia", "Rossi", "Weber", "Sato", "Costa", "Novak", "Kim", "Li"]
    atlas = [f"{f} {m}. {surname}" for f in first for m in "ABCDEFGHJKLMNPRSTUWXYZ" for surname in last][:2000] + ["Wei Wang", "Lei Chen"]
    others = ["Omar", "Lucia", "Pedro", "Ines", "Hugo", "Nora", "Emil", "Rosa", "Tariq", "Vera"]
    cms = [f"{f} {m}. {surname}" for f in others for m in "ABCDEFGHJKLMNPRSTUWXYZ" for surname in last][:900] + ["Wei Wang", "Maria Garcia"]
    papers = [
        collaboration("2308.04775", atlas, owner_at=1412),
        collaboration("2401.00001", atlas[5:] + ["Newcomer One"], owner_at=800),
        Paper("2203.11111", "Zebrafish gut", ("Wei Wang", "John A. Smith", "Maria Garcia"), ("q-bio.GN",), 2022),
        Paper("2105.22222", "Retail demand", ("John A. Smith", "Lei Chen"), ("cs.LG",), 2021),
        Paper("2310.33333", "Vector-like quarks", ("John A. Smith", "Paolo Rossi"), ("hep-ph",), 2023),
        collaboration("2402.00002", cms, owner_at=10),  # a namesake in another collaboration
    ]
    groups, is_owner = group_papers(papers, ["John A. Smith"])
    assert sorted(sorted(g.ids) for g in groups) == [
        ["2105.22222"],
        ["2203.11111"],
        ["2308.04775", "2401.00001"],
        ["2310.33333"],
        ["2402.00002"],
    ]
    lines = report(groups, is_owner, {})
    assert lines[0] == "5 groups of records by co-authors (likely different people); 6 of 6 records are included:"
    assert any("exclude_categories: [q-bio.GN]" in line for line in lines)


def test_small_papers_still_join_through_one_shared_coauthor():
    groups, _ = group_papers(
        [paper("1", "Sheng Lin, Xue Lin"), paper("2", "Sheng Lin, Xue Lin, Yanzhi Wang"), paper("3", "Sheng Lin, Someone Else")], ["Sheng Lin"]
    )
    assert sorted(sorted(g.ids) for g in groups) == [["1", "2"], ["3"]]


def test_a_coauthor_of_the_owners_family_name_is_evidence_and_the_owners_forms_are_not():
    """Jane Smith is not John A. Smith, though her initial is his ('J. Smith' was the key both were read by):
    two papers with her are one person's, and the review names her among the co-authors. 'Smith, J.' and
    'John Smith' are the owner: no evidence."""
    papers = [
        paper("1", "John Smith, Jane Smith"),
        paper("2", "J. Smith, Jane Smith"),
        Paper("3", "Title 3", ("Smith, J.", "Bob Roe"), ("cs.DC",), 2024),
        paper("4", "John A. Smith, Bob Roe"),
        paper("5", "Jonathan Smith, Carl Ek"),
    ]
    groups, is_owner = group_papers(papers, ["John A. Smith", "J. A. Smith"])
    assert sorted(g.ids for g in groups) == [["1", "2"], ["3", "4"], ["5"]]
    assert [is_owner(n) for n in ("Smith, J.", "John Smith", "J. Smith", "Jane Smith", "K. Smith", "Jonathan Smith")] == [True, True, True, False, False, False]
    assert groups[0].coauthors(is_owner) in ([("Jane Smith", 2)], [("Bob Roe", 2)])


def test_a_former_name_of_the_profile_is_the_owner_not_a_coauthor_that_links_papers():
    """profile.yaml's former_names are the owner's: two papers naming the old name and no one else in common are
    not one person by it (a search by the current name, or --id, gave no arXiv name to set aside)."""
    from sitegen.fetch import Fetched, Filters, decide
    from sitegen.model import Profile

    outcome = decide({"arxiv": Fetched(records=[])}, Filters(), [], Profile("Robin Okafor", former_names=("Daniel Okafor",)), [])
    papers = [paper("1", "Daniel Okafor, Jonas Berg"), paper("2", "Daniel Okafor, Ann Lee"), paper("3", "Robin Okafor, Zed Quist")]
    groups, _ = group_papers(papers, outcome.owner_names)
    assert sorted(g.ids for g in groups) == [["1"], ["2"], ["3"]]
