"""arXiv subject codes: the names pages show for them, and what counts as a code (SPEC §3 `categories`)."""

from __future__ import annotations

import pytest

from sitegen.categories import ARXIV_CATEGORIES, category_mistake, is_arxiv_category, subject_name


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("astro-ph.GA", "Astrophysics of Galaxies"),  # an ADS export's subject, shown as its code before
        ("q-bio.GN", "Genomics"),
        ("cond-mat.mes-hall", "Mesoscale and Nanoscale Physics"),
        ("physics.optics", "Optics"),
        ("q-fin.ST", "Statistical Finance"),
        ("math.AG", "Algebraic Geometry"),
        ("cs.LG", "Machine Learning"),
    ],
)
def test_every_archive_s_subject_classes_have_their_names(code, name):
    assert subject_name(code) == name


def test_a_free_subject_is_shown_as_written():
    assert subject_name("RNA-seq") == "RNA-seq"


def test_every_named_code_is_an_arxiv_class_and_no_name_is_one():
    assert all(is_arxiv_category(code) for code in ARXIV_CATEGORIES)
    assert not any(is_arxiv_category(name) for name in ARXIV_CATEGORIES.values())


@pytest.mark.parametrize("code", ["cs.LG", "hep-th", "quant-ph", "math.AG", "cond-mat.mes-hall", "cs.ZZ"])
def test_a_category_arxiv_writes_or_one_newer_than_the_list_chooses_records(code):
    assert category_mistake(code) is None  # 'cs.ZZ': well-formed and like no code of the list, perhaps newer than it


@pytest.mark.parametrize(("code", "meant"), [("cs.lg", "cs.LG"), ("stat.ml", "stat.ML"), ("Quant-Ph", "quant-ph"), ("cs.XY", "cs.SY")])
def test_a_category_written_otherwise_than_arxiv_writes_it_is_named_with_the_code_meant(code, meant):
    assert category_mistake(code).startswith(f"'{code}' is not an arXiv category (did you mean {meant}?): no record from arXiv would match it")


def test_a_free_subject_is_no_category_to_choose_arxiv_records_by():
    assert category_mistake("Machine Learning").startswith("'Machine Learning' is not an arXiv category: no record")
