"""The ids a work has in its field's databases (NASA ADS's bibcode, INSPIRE's record, MathSciNet's MR number,
zbMATH's Zbl number), as ADS's, al-folio's, MathSciNet's and zbMATH's BibTeX exports and a YAML record's `ids` give
them: linked from the record ("ADS", "INSPIRE", "MathSciNet", "zbMATH"), in records.json, and written back to
publications.bib under the fields they came from."""

from __future__ import annotations

import json
import re

from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, write_site

from sitegen.build import check_site

ADS = r"""@PHDTHESIS{2005PhDT.........1O,
       author = {{\"O}zel, Feryal},
        title = "{Surface emission from neutron stars}",
       school = {Harvard University},
         year = 2005,
       adsurl = {https://ui.adsabs.harvard.edu/abs/2005PhDT.........1O},
      adsnote = {Provided by the SAO/NASA Astrophysics Data System}
}

@ARTICLE{2020A&A...641A..12O,
       author = {{\"O}zel, F.},
        title = "{The mass-radius relation of neutron stars}",
      journal = {\aap},
         year = 2020,
          doi = {10.1051/0004-6361/202037654},
       adsurl = {https://ui.adsabs.harvard.edu/abs/2020A&A...641A..12O},
}
"""

MATH = r"""@article {MR3456789,
    AUTHOR = {Ko\v{c}i, Petr},
     TITLE = {On {$\ell$}-adic representations},
   JOURNAL = {J. Number Theory},
      YEAR = {2016},
  MRNUMBER = {3456789},
       DOI = {10.1016/j.jnt.2015.08.012},
       URL = {https://doi.org/10.1016/j.jnt.2015.08.012},
}

@Article{zbMATH07123456,
 Author = {Petr Ko{\v{c}}i},
 Title = {Spectral gaps of random {Cayley} graphs},
 Journal = {Combinatorica},
 Year = {2019},
 DOI = {10.1007/s00493-018-3789-2},
 URL = {https://zbmath.org/?q=an:07123456},
 zbMATH = {7123456},
 Zbl = {1434.05098}
}

@article{Ozel:2016oaf,
  inspirehep_id = {1426542},
  author = {\"Ozel, Feryal and Freire, Paulo},
  title = "{Masses, Radii, and the Equation of State of Neutron Stars}",
  journal = "Ann. Rev. Astron. Astrophys.",
  year = "2016"
}

@article{bad,
  author = {Doe, J.},
  title = {T},
  journal = {J},
  year = 2016,
  mrnumber = {not a number},
}
"""

YAML = """\
id: hand
title: A hand-written record
year: 2021
ids: {ads: 2021MNRAS.500.1234V, mr: MR4123456, zbmath: "Zbl 1434.05099", inspire: "https://inspirehep.net/literature/1800000"}
"""


def _site(tmp_path):
    files = {**MINIMAL_SITE, "content/records/ads.bib": ADS, "content/records/math.bib": MATH, "content/records/hand.yaml": YAML}
    result = check_site(write_site(tmp_path, files))
    records = {r["id"]: r for r in json.loads(result.files["records.json"])["records"]}
    return result, records


def _links(result, record_id: str) -> dict[str, str]:
    slug = re.sub(r"[^A-Za-z0-9._-]", "-", record_id)
    page = BeautifulSoup(result.files[f"records/{slug}/index.html"], "html.parser")
    return {a.get_text(" ", strip=True): a["href"] for a in page.select("main .links a")}


def test_the_databases_ids_of_a_bib_file_are_links_on_the_records_page(tmp_path):
    result, records = _site(tmp_path)
    assert _links(result, "2005PhDT.........1O") == {"ADS": "https://ui.adsabs.harvard.edu/abs/2005PhDT.........1O"}
    assert _links(result, "2020A&A...641A..12O")["ADS"] == "https://ui.adsabs.harvard.edu/abs/2020A%26A...641A..12O"
    assert _links(result, "MR3456789")["MathSciNet"] == "https://mathscinet.ams.org/mathscinet-getitem?mr=3456789"
    zbmath = _links(result, "zbMATH07123456")
    assert zbmath["zbMATH"] == "https://zbmath.org/?q=an:07123456" and "HTML" not in zbmath  # zbMATH's URL is its page there
    assert _links(result, "Ozel:2016oaf") == {"INSPIRE": "https://inspirehep.net/literature/1426542"}
    assert records["2005PhDT.........1O"]["ids"] == {"ads": "2005PhDT.........1O"}
    assert records["MR3456789"]["ids"]["mr"] == "3456789"
    assert records["zbMATH07123456"]["ids"]["zbmath"] == "1434.05098"
    assert records["Ozel:2016oaf"]["ids"] == {"inspire": "1426542"}


def test_the_zbmath_page_is_not_the_works_own_address(tmp_path):
    """zbMATH's `URL` is its review of the work: the citations and RIS link the DOI, as for any published work."""
    result, records = _site(tmp_path)
    assert "UR  - https://doi.org/10.1007/s00493-018-3789-2" in result.files["publications.ris"].decode()


def test_a_yaml_records_database_ids_are_read_in_any_form_and_linked(tmp_path):
    result, records = _site(tmp_path)
    assert records["hand"]["ids"] == {"ads": "2021MNRAS.500.1234V", "mr": "4123456", "zbmath": "1434.05099", "inspire": "1800000"}
    assert _links(result, "hand") == {
        "ADS": "https://ui.adsabs.harvard.edu/abs/2021MNRAS.500.1234V",
        "INSPIRE": "https://inspirehep.net/literature/1800000",
        "MathSciNet": "https://mathscinet.ams.org/mathscinet-getitem?mr=4123456",
        "zbMATH": "https://zbmath.org/?q=an:1434.05099",
    }


def test_an_id_that_is_none_is_a_warning_at_its_line_and_left_out(tmp_path):
    result, records = _site(tmp_path)
    warnings = [str(w) for w in result.warnings]
    assert any(w.startswith("content/records/math.bib:35:") and "'not a number' is not a MathSciNet number (like MR3456789)" in w for w in warnings), warnings
    assert "mr" not in records["bad"]["ids"]


def test_publications_bib_writes_them_back_and_a_site_built_from_it_has_them(tmp_path):
    result, records = _site(tmp_path)
    bib = result.files["publications.bib"].decode()
    assert "adsurl = {https://ui.adsabs.harvard.edu/abs/2005PhDT.........1O}" in bib
    assert "mrnumber = {3456789}" in bib and "zbl = {1434.05098}" in bib and "inspirehep_id = {1426542}" in bib
    again = check_site(write_site(tmp_path / "again", {**MINIMAL_SITE, "content/records/publications.bib": bib}))
    records_again = {r["title"]: r for r in json.loads(again.files["records.json"])["records"]}  # the YAML record gets a cite key
    for record_id in ("2005PhDT.........1O", "MR3456789", "zbMATH07123456", "Ozel:2016oaf", "hand"):
        assert records_again[records[record_id]["title"]]["ids"] == records[record_id]["ids"], record_id


def test_the_bibtex_to_paste_keeps_the_mr_number_which_the_ams_styles_print(tmp_path):
    """A record page's BibTeX, the short one pasted into a paper, dropped MathSciNet's number: amsplain and amsalpha
    print `mrnumber` as "MR3456789", linked to MathSciNet, and MathSciNet's own export gives it."""
    result, records = _site(tmp_path)
    page = BeautifulSoup(result.files["records/MR3456789/index.html"], "html.parser")
    entry = page.find("pre", class_="bibtex").get_text()
    assert "  mrnumber = {3456789},\n" in entry
    assert "mrnumber" not in BeautifulSoup(result.files["records/zbMATH07123456/index.html"], "html.parser").find("pre", class_="bibtex").get_text()
