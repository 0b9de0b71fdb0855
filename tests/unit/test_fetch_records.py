"""From an arXiv entry to the YAML file fetch writes, and what fetch may do to files."""

from __future__ import annotations

import argparse
import datetime
from pathlib import Path

import arxiv
import pytest
import yaml

from sitegen import fetch
from sitegen.cli import build_parser
from sitegen.model import ArxivSources, Profile
from sitegen.sources.arxiv import newest_versions, record_from_result, split_version
from sitegen.urls import slugify

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "arxiv"
UTC = datetime.UTC


def result(**overrides) -> arxiv.Result:
    values = {
        "entry_id": "http://arxiv.org/abs/2401.01234v2",
        "published": datetime.datetime(2024, 1, 3, 12, 0, tzinfo=UTC),
        "updated": datetime.datetime(2024, 2, 5, 9, 30, tzinfo=UTC),
        "title": "Fast $\\mathcal{O}(n)$ things",
        "authors": [arxiv.Result.Author("Jos{\\'e} M\\\"uller", ["Uni A"]), arxiv.Result.Author("Sheng Lin")],
        "summary": "  First line with 1.45$\\times$ speed-up\n    wrapped line\n\n  Second paragraph.  \n",
        "comment": None,
        "journal_ref": None,
        "doi": None,
        "primary_category": "cs.DC",
        "categories": ["cs.LG", "cs.DC"],
    }
    values.update(overrides)
    return arxiv.Result(**values)


def parsed_fixture(name: str) -> arxiv.Result:
    return arxiv._feed.parse((FIXTURES / "by-id" / name).read_bytes()).results[0]


# --------------------------------------------------------------------------
# entry -> record
# --------------------------------------------------------------------------


def test_record_uses_the_bare_id_and_keeps_the_version_apart():
    record = record_from_result(result())
    assert record["id"] == record["arxiv"] == "2401.01234"
    assert record["version"] == 2
    assert record["links"] == {"abs": "https://arxiv.org/abs/2401.01234", "pdf": "https://arxiv.org/pdf/2401.01234"}


@pytest.mark.parametrize(
    "comment, summary, withdrawn",
    [
        ("This paper has been withdrawn by the authors", "An abstract.", True),
        (None, "This paper has been withdrawn by the author due to a crucial error in equation 4.", True),
        ("Withdrawn due to an error in the calibration", "An abstract.", True),
        ("arXiv admin note: this version has been withdrawn by arXiv administrators", "An abstract.", True),
        ("The submission has been withdrawn", "An abstract.", True),
        ("12 pages; v2: the claim of section 4 is withdrawn", "An abstract.", False),
        (None, "We study withdrawn drugs and their side effects.", False),
        ("Published in PRL", "An abstract.", False),
    ],
)
def test_a_withdrawn_version_marks_the_record_withdrawn(comment, summary, withdrawn):
    """arXiv keeps a withdrawn paper listed, its last version saying so in the comment (and often in place of the
    abstract): the record says `withdrawn: true`, so that the site marks it as arXiv does."""
    record = record_from_result(result(comment=comment, summary=summary))
    assert record.get("withdrawn", False) is withdrawn


def test_record_dates_come_from_published_and_updated():
    record = record_from_result(result())
    assert record["year"] == 2024
    assert record["date"] == datetime.date(2024, 1, 3)
    assert record["updated"] == datetime.date(2024, 2, 5)


def test_primary_category_comes_first_without_duplicates():
    assert record_from_result(result())["categories"] == ["cs.DC", "cs.LG"]


def test_latex_is_kept_as_sent_and_abstract_indentation_is_dropped():
    record = record_from_result(result())
    assert record["title"] == "Fast $\\mathcal{O}(n)$ things"
    assert record["authors"] == ["Jos{\\'e} M\\\"uller", "Sheng Lin"]
    assert record["abstract"] == "First line with 1.45$\\times$ speed-up\nwrapped line\n\nSecond paragraph."


def test_journal_reference_becomes_the_source_and_doi_a_link():
    record = record_from_result(result(journal_ref="Phys. Rev.  D 1 (2024)", doi="10.1/x", comment="9 pages"))
    assert record["source"] == record["journal_ref"] == "Phys. Rev. D 1 (2024)"
    assert record["doi"] == "10.1/x" and record["links"]["doi"] == "https://doi.org/10.1/x"
    assert record["comment"] == "9 pages"


def test_affiliations_are_kept_only_when_arxiv_has_some():
    assert record_from_result(result())["affiliations"] == {"Jos{\\'e} M\\\"uller": ["Uni A"]}
    assert "affiliations" not in record_from_result(result(authors=[arxiv.Result.Author("A B")]))


def test_old_style_ids_get_safe_file_names():
    record = record_from_result(result(entry_id="http://arxiv.org/abs/hep-ph/0601001v1"))
    assert record["id"] == "hep-ph/0601001"
    assert slugify(record["id"]) == "hep-ph-0601001"


@pytest.mark.parametrize(
    "short, expected",
    [
        ("2401.01234v12", ("2401.01234", 12)),
        ("2401.01234", ("2401.01234", None)),
        ("hep-ph/0601001v3", ("hep-ph/0601001", 3)),
        ("math.GT/0309136", ("math.GT/0309136", None)),
    ],
)
def test_split_version(short, expected):
    assert split_version(short) == expected


# --------------------------------------------------------------------------
# the file text
# --------------------------------------------------------------------------


def test_rendered_file_round_trips_and_validates_as_a_record():
    record = record_from_result(parsed_fixture("2699.00001.xml"))
    text = fetch.render(record)
    assert fetch.check_record(text, "content/records/arxiv/2699.00001.yaml") == []
    loaded = yaml.safe_load(text)
    assert loaded == {**record, "origin": "arxiv"}  # the fetcher that wrote it, for the build
    assert list(loaded) == [*record, "origin"]  # SPEC fields first, in a stable order


def test_rendering_is_deterministic_and_readable():
    record = record_from_result(parsed_fixture("2409.02791.xml"))
    text = fetch.render(record)
    assert text == fetch.render(record_from_result(parsed_fixture("2409.02791.xml")))
    assert text.startswith("# Fetched from arXiv by sitegen; edit a copy outside records/arxiv/ to override fields.\n" + fetch.CHECKSUM_PREFIX)
    assert "\nid: '2409.02791'\n" in text  # quoted: not read back as a number
    assert "\nabstract: |-\n  The strength" in text
    assert "\ndate: 2024-09-04\n" in text


def test_unicode_is_written_as_is():
    text = fetch.render(record_from_result(result(authors=[arxiv.Result.Author("Zoë Ångström")])))
    assert "- Zoë Ångström\n" in text


def test_an_edit_to_a_fetched_file_is_detected():
    text = fetch.render(record_from_result(result()))
    assert fetch.written_by_fetch(text)
    assert not fetch.written_by_fetch(text.replace("source: arXiv", "source: NeurIPS"))
    assert not fetch.written_by_fetch(text.split("\n", 2)[2])  # no header: a person's file
    assert not fetch.written_by_fetch("")


def test_a_record_that_would_not_validate_is_reported():
    record = record_from_result(result())
    record["year"] = 99
    problems = fetch.check_record(fetch.render(record), "content/records/arxiv/x.yaml")
    assert problems and "year" in str(problems[0])


# --------------------------------------------------------------------------
# sources and exclusions
# --------------------------------------------------------------------------


def args(**values) -> argparse.Namespace:
    """The options of `sitegen fetch` as its parser gives them, with `values` set."""
    namespace = build_parser().parse_args(["fetch"])
    for name, value in values.items():
        setattr(namespace, name, value)
    return namespace


def test_fetch_option_defaults_come_from_its_parser():
    filled = args(author=["A"], delay=0.5)
    assert filled.page_size == 100 and filled.backoff == 2.0 and filled.prune is False and filled.delay == 0.5


def test_command_line_sources_win_over_the_profiles():
    profile = Profile("X", arxiv=ArxivSources(authors=("P",), exclude_categories=("hep-ph",)))
    asks = fetch.choose_asks(args(author=["Sheng Lin"], id=["1,2", " 3 "], category=["cs.DC"]), None, profile)
    assert [(a.source, a.kind, a.value, a.where) for a in asks] == [
        ("arxiv", "author", "Sheng Lin", "--author"),
        ("arxiv", "id", "1", "--id"),
        ("arxiv", "id", "2", "--id"),
        ("arxiv", "id", "3", "--id"),
        ("arxiv", "category", "cs.DC", "--category"),
    ]


def test_profile_sources_are_used_without_options():
    profile = Profile("X", arxiv=ArxivSources(authors=("A", "B"), ids=("1",), author_ids=("a_b_1",), categories=("cs.DC",)))
    asks = fetch.choose_asks(args(), None, profile)
    assert [(a.kind, a.value) for a in asks] == [("author", "A"), ("author", "B"), ("id", "1"), ("author_id", "a_b_1"), ("category", "cs.DC")]
    assert all(a.where.startswith("content/profile.yaml: arxiv.") for a in asks if a.kind != "category")


def test_nothing_to_fetch_is_a_state_of_the_site_not_a_usage_error():
    with pytest.raises(fetch.NothingToFetch, match="nothing to fetch: content/profile.yaml names no source"):
        fetch.choose_asks(args(), None, Profile("X"))


@pytest.mark.parametrize("given", [{"review": True}, {"author": ["Sheng Lin"]}, {"prune": True}, {"category": ["cs.DC"]}, {"summary": "s.md"}])
def test_keep_with_an_option_it_would_leave_unused_is_a_usage_error(given):
    with pytest.raises(fetch.UsageError, match="--keep cannot go with --") as refused:
        fetch.refuse_what_keep_ignores(args(keep=[1], **given))
    assert fetch.option_flag(next(iter(given))) in str(refused.value)


def test_keep_alone_and_the_pace_options_are_fine():
    fetch.refuse_what_keep_ignores(args(keep=[1, 2], delay=0.5, timeout=3.0))


@pytest.mark.parametrize("number, noun, expected", [(0, "record", "0 records"), (1, "record", "1 record"), (2, "request", "2 requests"), (1, "work", "1 work")])
def test_counts_agree_with_their_noun(number, noun, expected):
    assert fetch.counted(number, noun) == expected


def test_an_author_id_that_could_break_the_url_is_refused():
    with pytest.raises(fetch.UsageError, match="not an arXiv author id"):
        fetch.choose_asks(args(author_id=["../x"]), None, None)


@pytest.mark.parametrize(
    "categories, exclude, expected",
    [
        (["hep-ph"], ArxivSources(exclude_categories=("hep-ph",)), "exclude_categories: hep-ph"),
        (["cs.DC"], ArxivSources(exclude_ids=("2401.01234v2",)), "exclude_ids"),
        (["cs.DC"], ArxivSources(categories=("cs.LG",)), "not in categories: cs.LG"),
        (["cs.DC", "cs.LG"], ArxivSources(categories=("cs.LG",)), None),
        (["cs.DC"], ArxivSources(), None),
    ],
)
def test_exclusion_rule_matches_the_build(categories, exclude, expected):
    record = {"id": "2401.01234", "categories": categories}
    assert fetch.exclusion_reason(record, fetch.Filters(exclude=exclude)) == expected


def test_command_line_category_restricts_too():
    filters = fetch.Filters(categories=("cs.AR",))
    assert fetch.exclusion_reason({"id": "1", "categories": ["cs.DC"]}, filters) == "not in --category: cs.AR"


def test_subject_filters_leave_records_of_other_sources_alone():
    filters = fetch.Filters(exclude=ArxivSources(categories=("cs.DC",), exclude_ids=("W1",)))
    assert fetch.exclusion_reason({"id": "W2", "origin": "openalex"}, filters) is None
    assert fetch.exclusion_reason({"id": "W1", "origin": "openalex"}, filters) == "exclude_ids"


def test_the_newest_version_of_an_id_wins():
    older, newer = result(entry_id="http://arxiv.org/abs/2401.01234v1"), result(title="new")
    assert newest_versions([newer, older])["2401.01234"].title == "new"
    assert newest_versions([older, newer])["2401.01234"].title == "new"


def test_user_agent_names_sitegen_and_the_owner_contact():
    assert fetch.user_agent(Profile("X", email="x@example.org")).startswith("sitegen/")
    assert "mailto:x@example.org" in fetch.user_agent(Profile("X", email="x@example.org"))
    assert "mailto" not in fetch.user_agent(None)


def arxiv_settings(namespace: argparse.Namespace):
    context = fetch.FetchContext(namespace, progress=None, profile=None, choose=fetch.choose_candidate)
    return context.settings("arxiv", "SITEGEN_ARXIV_API", "https://export.arxiv.org/api/query", 3.0, max_page_size=2000)


def test_api_url_prefers_the_option_then_the_environment(monkeypatch):
    monkeypatch.setenv("SITEGEN_ARXIV_API", "http://127.0.0.1:1/env")
    assert arxiv_settings(args(api_url="http://127.0.0.1:2/opt")).api_url == "http://127.0.0.1:2/opt"
    assert arxiv_settings(args()).api_url == "http://127.0.0.1:1/env"
    monkeypatch.delenv("SITEGEN_ARXIV_API")
    assert arxiv_settings(args()).api_url == "https://export.arxiv.org/api/query"
    with pytest.raises(fetch.UsageError):
        arxiv_settings(args(api_url="ftp://x"))


def test_delay_is_the_sources_own_unless_given():
    assert arxiv_settings(args()).delay == 3.0
    assert arxiv_settings(args(delay=0.5)).delay == 0.5


# --------------------------------------------------------------------------
# plan and commit
# --------------------------------------------------------------------------


def records(*ids: str) -> dict[str, dict]:
    return {i: record_from_result(result(entry_id=f"http://arxiv.org/abs/{i}v1", title=f"T {i}")) for i in ids}


def folder_of(site: Path) -> Path:
    return site / fetch.RECORDS_DIR / "arxiv"


def test_plan_creates_keeps_and_updates_only_what_changed(tmp_path):
    plan, problems = fetch.plan_changes(tmp_path, records("2401.00001", "2401.00002"), {}, prune=False)
    assert problems == [] and len(plan.created) == 2
    fetch.commit([plan], tmp_path)
    changed = records("2401.00001", "2401.00002")
    changed["2401.00002"]["title"] = "T new"

    again, _ = fetch.plan_changes(tmp_path, changed, {}, prune=False)

    assert again.unchanged == ["content/records/arxiv/2401.00001.yaml"]
    assert again.updated == ["content/records/arxiv/2401.00002.yaml"]
    assert list(again.write) == [folder_of(tmp_path) / "2401.00002.yaml"]


def test_plan_removes_excluded_and_pruned_files_fetch_wrote_but_never_a_persons(tmp_path):
    first, _ = fetch.plan_changes(tmp_path, records("2401.00001", "2401.00002", "2401.00003"), {}, prune=False)
    fetch.commit([first], tmp_path)
    mine = folder_of(tmp_path) / "2401.00009.yaml"
    mine.write_text("id: '2401.00009'\ntitle: mine\nyear: 2024\n")

    kept_plan, _ = fetch.plan_changes(tmp_path, records("2401.00001"), records("2401.00002"), prune=False)
    assert [p.name for p in kept_plan.remove] == ["2401.00002.yaml"]
    assert kept_plan.kept_stale == ["content/records/arxiv/2401.00003.yaml", "content/records/arxiv/2401.00009.yaml"]

    pruned, _ = fetch.plan_changes(tmp_path, records("2401.00001"), records("2401.00002"), prune=True)
    assert sorted(p.name for p in pruned.remove) == ["2401.00002.yaml", "2401.00003.yaml"]
    assert any("2401.00009.yaml:1: warning" in w and "edited by hand" in w for w in pruned.warnings)


def test_plan_leaves_an_edited_file_alone_and_says_so(tmp_path):
    plan, _ = fetch.plan_changes(tmp_path, records("2401.00001"), {}, prune=False)
    fetch.commit([plan], tmp_path)
    path = folder_of(tmp_path) / "2401.00001.yaml"
    path.write_text(path.read_text() + "featured: true\n")
    changed = records("2401.00001")
    changed["2401.00001"]["title"] = "new"

    again, _ = fetch.plan_changes(tmp_path, changed, {}, prune=False)

    assert again.write == {} and "edited by hand" in again.warnings[0]


def test_commit_leaves_no_temporary_files(tmp_path):
    plan, _ = fetch.plan_changes(tmp_path, records("2401.00001", "2401.00002"), {}, prune=False)
    fetch.commit([plan], tmp_path)
    assert sorted(p.name for p in folder_of(tmp_path).iterdir()) == ["2401.00001.yaml", "2401.00002.yaml"]


def test_a_commit_of_many_files_flushes_the_disk_once_before_any_rename(tmp_path, monkeypatch):
    """Many records fetched are one flush to disk, not a disk commit per file (what made a 500-record fetch slow); every
    new text is flushed before the first rename makes one of them a record file."""
    ids = [f"2401.{n:05d}" for n in range(1, 41)]
    plan, _ = fetch.plan_changes(tmp_path, records(*ids), {}, prune=False)
    events: list[str] = []
    real_replace = fetch.os.replace
    monkeypatch.setattr(fetch.os, "sync", lambda: events.append("sync"))
    monkeypatch.setattr(fetch.os, "fsync", lambda fd: events.append("fsync"))
    monkeypatch.setattr(fetch.os, "replace", lambda a, b: events.append("replace") or real_replace(a, b))
    fetch.commit([plan], tmp_path)
    assert events == ["sync"] + ["replace"] * 40
    assert len(list(folder_of(tmp_path).glob("*.yaml"))) == 40


def test_a_failing_commit_cleans_up_and_changes_nothing(tmp_path, monkeypatch):
    plan, _ = fetch.plan_changes(tmp_path, records("2401.00001", "2401.00002"), {}, prune=False)
    real_open = open
    calls = []

    def failing_open(path, *a, **k):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(OSError):
        fetch.commit([plan], tmp_path)
    monkeypatch.undo()
    assert list(folder_of(tmp_path).iterdir()) == []


def test_a_persons_file_in_the_fetch_folder_holding_the_same_id_is_not_duplicated(tmp_path):
    folder_of(tmp_path).mkdir(parents=True)
    (folder_of(tmp_path) / "my-favourite.yaml").write_text("id: '2401.00001'\ntitle: Mine\nyear: 2024\n")

    plan, _ = fetch.plan_changes(tmp_path, records("2401.00001", "2401.00002"), {}, prune=False)

    assert plan.created == ["content/records/arxiv/2401.00002.yaml"]
    assert "my-favourite.yaml:1: warning: holds id '2401.00001'" in plan.warnings[0]


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_a_signal_during_commit_waits_until_every_file_is_in_place(tmp_path, monkeypatch, signal_name):
    import os
    import signal

    signal_number = getattr(signal, signal_name)
    plan, _ = fetch.plan_changes(tmp_path, records("2401.00001", "2401.00002"), {}, prune=False)
    real_replace = os.replace

    def replace_then_signal(source, target):
        real_replace(source, target)
        os.kill(os.getpid(), signal_number)  # arrives after the first rename

    monkeypatch.setattr(os, "replace", replace_then_signal)
    with pytest.raises(fetch.InterruptedAfterCommit) as stopped:
        fetch.commit([plan], tmp_path)
    assert stopped.value.signal_number == signal_number  # `sitegen fetch` exits 128 + it: 130 or 143
    monkeypatch.undo()
    assert sorted(p.name for p in folder_of(tmp_path).iterdir()) == ["2401.00001.yaml", "2401.00002.yaml"]


def test_an_empty_answer_of_any_source_is_a_warning_and_keeps_prune_off_that_source(tmp_path):
    """One path for every fetcher: a query whose answer held no record is a warning naming it and where it
    was asked, and `--prune` removes none of that source's records this time."""
    fetched = fetch.Fetched(records=[])
    fetched.answered("ORCID works of 0000-0002-0000-0006", "--orcid", 0)
    fetched.answered("ORCID works of 0000-0002-1825-0097", "content/profile.yaml:2: field 'orcid'", 3)
    assert fetched.found_nothing
    assert fetch.empty_answers(fetched) == ["warning: ORCID works of 0000-0002-0000-0006 (--orcid): no records found"]
    folder = tmp_path / "content" / "records" / "orcid"
    folder.mkdir(parents=True)
    earlier = folder / "orcid-1.yaml"
    earlier.write_text(fetch.render({"id": "orcid-1", "title": "T", "authors": ["A"], "year": 2024, "origin": "orcid"}), encoding="utf-8")
    outcome = fetch.Outcome({"orcid": {}}, {"orcid": {}}, [], {}, [])
    [plan], _ = outcome.plan(tmp_path, prune=True, unpruned={"orcid"})
    assert plan.remove == [] and plan.kept_stale == ["content/records/orcid/orcid-1.yaml"]
    assert plan.warnings == ["warning: --prune removed no ORCID record: an answer of ORCID held no record this time"]
    [plan], _ = outcome.plan(tmp_path, prune=True)
    assert plan.remove == [earlier]  # an answer that holds records: --prune does remove what it no longer lists


def test_a_source_whose_every_answer_held_records_found_something():
    fetched = fetch.Fetched(records=[])
    fetched.answered("dblp publications of 13/7777-3", "--dblp", 11)
    assert not fetched.found_nothing and fetch.empty_answers(fetched) == []


def test_an_often_empty_answer_keeps_prune_off_its_source_without_a_warning_of_its_own():
    """Crossref's works that name an ORCID iD: most publishers send none, so an empty list is no news each week;
    `--prune` still removes none of the source's records (and `Outcome.plan` says so when it has some)."""
    fetched = fetch.Fetched(records=[])
    fetched.answered("Crossref works of ORCID 0000-0002-0000-0006", "--orcid", 0, if_none="")
    assert fetched.found_nothing and fetch.empty_answers(fetched) == []


def test_arxiv_ids_are_read_as_papers_and_ads_write_them_and_a_bibcode_or_doi_is_named():
    """`--id arXiv:2001.07710` (as ADS, INSPIRE and every paper write an arXiv id) and its arXiv address were sent to
    arXiv as they were, which answered 'incorrect id format'; an ADS bibcode got the same answer."""
    asks = fetch.choose_asks(args(id=["arXiv:2301.12345v2", "https://arxiv.org/abs/2301.12345", "https://arxiv.org/pdf/hep-th/9901001v1.pdf"]), None, None)
    assert [a.value for a in asks] == ["2301.12345v2", "2301.12345", "hep-th/9901001v1"]
    with pytest.raises(
        fetch.UsageError,
        match=r"--id: '2019ApJ\.\.\.875L\.\.\.1E' is a NASA ADS bibcode, not an arXiv id: fetch it from ADS with --ads-query 'bibcode:2019ApJ\.\.\.875L\.\.\.1E'.*BibTeX",
    ) as refused:
        fetch.choose_asks(args(id=["2019ApJ...875L...1E"]), None, None)
    assert "content/records/" in str(refused.value)
    with pytest.raises(fetch.UsageError, match=r"'10\.3847/2041-8213/ab0ec7' is a DOI, not an arXiv id: fetch it with --doi"):
        fetch.choose_asks(args(id=["10.3847/2041-8213/ab0ec7"]), None, None)
    profile = Profile("X", arxiv=ArxivSources(ids=("2019ApJ...875L...1E",)))
    with pytest.raises(fetch.ContentError, match=r"content/profile\.yaml.*is a NASA ADS bibcode"):
        fetch.choose_asks(args(), None, profile)
