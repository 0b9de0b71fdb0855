"""A Chinese, Japanese or Korean researcher's papers as readers see them in chromium."""

from __future__ import annotations

from conftest import MINIMAL_SITE, run_sitegen, write_site

from browser.conftest import serve

RECORDS = {
    "content/records/papers.yaml": "- {id: jsjxb, title: 面向大规模图数据的分布式训练系统研究, authors: [王小明], year: 2021, source: 计算机学报, language: zh}\n"
    "- {id: ipsj, title: 分散システムの研究, authors: [山田 太郎], year: 2022, source: 情報処理学会論文誌, language: ja}\n"
    "- {id: kci, title: 한국어 형태소 분석, authors: [김민수], year: 2022, source: 정보과학회논문지}\n"
    "- {id: osdi, title: Pipelined Sampling, authors: [Xiaoming Wang], year: 2023, source: Journal of Examples}\n",
}


def test_a_venue_in_chinese_japanese_or_korean_letters_is_not_slanted(new_page, tmp_path):
    """A venue is in italics; Chinese, Japanese and Korean letters have none, and chromium slanted 计算机学报 itself, a
    fake italic no CJK typesetter uses. A venue in Latin letters stays in italics."""
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **RECORDS})
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page()
        for address in (base, base + "records/jsjxb/"):
            page.goto(address)
            styles = page.eval_on_selector_all(".source", "sources => sources.map(s => [s.textContent, getComputedStyle(s).fontStyle])")
            assert ["计算机学报", "normal"] in styles
        page.goto(base)
        styles = dict(page.eval_on_selector_all(".source", "sources => sources.map(s => [s.textContent, getComputedStyle(s).fontStyle])"))
        assert styles == {"计算机学报": "normal", "情報処理学会論文誌": "normal", "정보과학회논문지": "normal", "Journal of Examples": "italic"}


def test_an_english_paper_on_a_chinese_site_is_cited_in_english_and_a_chinese_one_in_chinese(new_page, tmp_path):
    """The citations took the site's CSL locale for every paper: an English paper on a Chinese site was cited "X.
    Wang和H. Li, 《Pipelined Sampling》, 收入 ...", where a reference list in Chinese cites an English work in English."""
    records = {
        "content/records/papers.yaml": "- {id: jsjxb, title: 分布式训练系统研究, authors: [王小明, 李华], year: 2021, source: 计算机学报, type: article}\n"
        "- {id: osdi, title: Pipelined Sampling, authors: [Xiaoming Wang, Hua Li], year: 2023, source: Proceedings of OSDI, type: inproceedings}\n",
    }
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguage: zh\n", **records})
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page()
        cited = {}
        for record in ("osdi", "jsjxb"):
            page.goto(f"{base}records/{record}/")
            page.locator("details.cite-styles summary").click()
            page.wait_for_function("() => [...document.querySelectorAll('button[data-cite-copy]')].every(b => !b.disabled)")
            cited[record] = page.locator("#cite-ieee").inner_text()
    assert cited["osdi"].startswith("X. Wang and H. Li, “Pipelined Sampling,” in ")
    assert "和" not in cited["osdi"] and "收入" not in cited["osdi"]
    assert cited["jsjxb"].startswith("王小明和李华, 《分布式训练系统研究》")


def test_a_korean_title_breaks_between_words_not_inside_one(new_page, tmp_path):
    """A browser breaks Korean anywhere between two syllables, as it does Chinese: on a phone '형태소' was cut as
    '형태' / '소'. Korean breaks at its spaces."""
    title = "딥러닝 기반 한국어 형태소 분석기의 성능 비교와 오류 유형 분석에 관한 실증적 연구"
    records = {"content/records/kci.yaml": f"id: kci\ntitle: {title}\nauthors: [김민수]\nyear: 2022\nsource: 정보과학회논문지\n"}
    site = write_site(tmp_path / "site", {**MINIMAL_SITE, **records})
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page(viewport={"width": 320, "height": 800})
        page.goto(base)
        tops = page.evaluate(
            """() => { const node = document.querySelector('#r-kci-title a').firstChild; const tops = [];
                for (let i = 0; i < node.length; i++) { const range = document.createRange(); range.setStart(node, i);
                  range.setEnd(node, i + 1); tops.push(Math.round(range.getBoundingClientRect().top)); } return tops; }"""
        )
    assert len(set(tops)) > 1  # the title takes several lines
    breaks = [index for index in range(1, len(title)) if tops[index] != tops[index - 1] and title[index] != " "]
    assert all(title[index - 1] == " " for index in breaks), [title[index - 3 : index + 3] for index in breaks]
