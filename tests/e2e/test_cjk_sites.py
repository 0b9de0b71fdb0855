"""A researcher in China, Japan or Korea: a site in their language, papers in Chinese, Japanese and Korean, their
name in both scripts. What they and their readers see in the built pages and files."""

from __future__ import annotations

from pathlib import Path

import bibtexparser
import feedparser
import pytest
import rispy
import yaml
from arxiv_server import arxiv_server  # noqa: F401  (the fixture)
from bs4 import BeautifulSoup
from conftest import run_sitegen

from sitegen.cli import main


def page(output: Path, name: str) -> BeautifulSoup:
    return BeautifulSoup((output / name).read_text(encoding="utf-8"), "lxml")


# language, owner, the menu's first item, the search box's placeholder, a news item's date, a record's type,
# the feed's title
SITES = [
    ("zh", "王小明", "论文", "标题、作者、期刊或会议、摘要、年份", "2025年3月1日", "期刊论文", "王小明: 论文"),
    ("ja", "山田 太郎", "業績", "タイトル、著者、掲載誌・会議、概要、年", "2025年3月1日", "論文誌論文", "山田 太郎: 業績"),
    ("ko", "김민수", "논문", "제목, 저자, 학술지·학술대회, 초록, 연도", "2025년 3월 1일", "학술지 논문", "김민수: 논문"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("language", "owner", "menu", "placeholder", "date", "article", "feed_title"), SITES, ids=[site[0] for site in SITES])
def test_a_chinese_japanese_or_korean_site_speaks_its_language_and_passes_its_strict_check(
    tmp_path, capsys, language, owner, menu, placeholder, date, article, feed_title
):
    """`sitegen init --language zh` (ja, ko) made a site in English words ("Publications", "Journal article",
    "March 1, 2025") whose pull-request check (`check --strict`) failed on "the default theme has no strings in 'zh'"."""
    site = tmp_path / "site"
    assert main(["init", str(site), "--name", owner, "--language", language]) == 0
    assert "no strings in" not in capsys.readouterr().err
    (site / "content/news/2025-03-01-grant.md").write_text("---\ndate: 2025-03-01\ntitle: 基金\n---\n本文。\n", encoding="utf-8")
    (site / "content/records/journal.yaml").write_text(
        f"id: journal2024\ntitle: 分布式系统研究\nauthors: ['{owner}']\nyear: 2024\nsource: Journal of Examples\ntype: article\n", encoding="utf-8"
    )
    assert main(["check", "--strict", "--site", str(site)]) == 0, capsys.readouterr().err
    assert main(["build", "--site", str(site)]) == 0
    assert "warning" not in capsys.readouterr().err
    output = site / "output"
    home = page(output, "index.html")
    assert home.html["lang"] == language
    assert [link.get_text(strip=True) for link in home.select("header nav a")][0] == menu
    assert home.select_one("input[type=search]")["placeholder"] == placeholder
    item = home.select_one("li.record#r-journal2024")
    assert article in item.get_text()
    assert "Journal article" not in home.get_text()
    news = page(output, "news/index.html")
    assert date in news.get_text()
    assert "March" not in news.get_text()
    assert feedparser.parse((output / "feed.xml").read_bytes()).feed.title == feed_title


ROMANISED = """@article{kim2023,
  title = {Efficient Transformers for Low-Resource Korean NLP},
  author = {Kim, Min-Su and Lee, Ji-Eun and Kim, Min-Jun},
  journal = {Journal of Korean NLP},
  year = {2023},
}
@article{wang2022,
  title = {Pipelined Sampling for Distributed GNN Training},
  author = {Xiao Ming Wang and Xiao Wang and Hua Li},
  journal = {Journal of Examples},
  year = {2022},
}
@article{kcik2021,
  title = {딥러닝 기반 한국어 형태소 분석기의 성능 비교},
  author = {김민수 and 이지은},
  journal = {정보과학회논문지},
  year = {2021},
}
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("profile", "record", "owner", "coauthors"),
    [
        ('name: "김민수"\nname_variants: ["Minsu Kim"]\n', "kim2023", "Min-Su Kim", ["Ji-Eun Lee", "Min-Jun Kim"]),
        ('name: "王小明"\nname_variants: ["Xiaoming Wang"]\n', "wang2022", "Xiao Ming Wang", ["Xiao Wang", "Hua Li"]),
    ],
    ids=["korean", "chinese"],
)
def test_a_romanised_given_name_split_by_a_hyphen_or_a_space_is_the_owner(tmp_path, capsys, profile, record, owner, coauthors):
    """`Kim, Min-Su` (and `Xiao Ming Wang`) on a site of 김민수 who lists `Minsu Kim` was shown as a co-author: romanised
    Korean and Chinese given names are written 'Minsu', 'Min-Su' and 'Min Su' alike. A namesake with another given
    name ('Min-Jun Kim', 'Xiao Wang') stays a co-author."""
    site = tmp_path / "site"
    for name, text in {
        "content/site.yaml": "title: T\nbase_url: https://example.org/\n",
        "content/profile.yaml": profile,
        "content/records/papers.bib": ROMANISED,
    }.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    assert main(["build", "--site", str(site)]) == 0, capsys.readouterr().err
    item = page(site / "output", "index.html").select_one(f"li.record#r-{record}")
    assert [strong.get_text() for strong in item.select(".owner")] == [owner]
    authors = item.select_one(".authors").get_text()
    assert all(coauthor in authors for coauthor in coauthors)


MIXED = """- {id: ja, title: 分散システムにおける合意形成, authors: [山田 太郎], year: 2022, source: 情報処理学会論文誌}
- {id: ko, title: 딥러닝 기반 한국어 형태소 분석, authors: [김민수], year: 2022, source: 정보과학회논문지}
- {id: zh, title: 分布式系统研究, authors: [王小明], year: 2021, source: 计算机学报}
- {id: en, title: Pipelined Sampling for GNN Training, authors: [Xiaoming Wang], year: 2023, source: OSDI 2023}
- {id: said, title: Ein Titel, authors: [Xiaoming Wang], year: 2020, source: Zeitschrift, language: de}
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", {"ja": "ja", "ko": "ko", "zh": None, "en": None, "said": "de"}),
        ("zh", {"ja": "ja", "ko": "ko", "zh": None, "en": "en", "said": "de"}),
        ("ja-JP", {"ja": None, "ko": "ko", "zh": None, "en": "en", "said": "de"}),
    ],
)
def test_a_title_in_japanese_korean_or_english_letters_says_its_language_when_the_record_does_not(tmp_path, capsys, language, expected):
    """A record without `language:` took the page's: a Japanese title on an English page was drawn with the Chinese
    forms of its kanji and read by a screen reader's English voice, an English title on a Chinese page read by a
    Chinese one. Kana say Japanese, Hangul Korean, Latin letters on a CJK site English; Han alone says nothing."""
    site = tmp_path / "site"
    for name, text in {
        "content/site.yaml": f"title: T\nbase_url: https://example.org/\nlanguage: {language}\n",
        "content/profile.yaml": "name: Xiaoming Wang\n",
        "content/records/papers.yaml": MIXED,
    }.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    assert main(["build", "--site", str(site)]) == 0, capsys.readouterr().err
    home = page(site / "output", "index.html")
    assert {key: home.select_one(f"#r-{key}-title").get("lang") for key in expected} == expected
    assert page(site / "output", "records/ja/index.html").select_one("h1#record-title").get("lang") == expected["ja"]


@pytest.mark.slow
def test_a_family_name_written_first_in_capitals_is_the_family_name(tmp_path, capsys):
    """'YAMADA Taro', as Japan's government and many Chinese, Japanese and Korean CVs write names in Latin letters,
    was read given name first: not highlighted on the site of Taro Yamada, `AU  - Taro, YAMADA` in RIS and
    `Taro, YAMADA` in BibTeX. 'JA Smith' stays initials first."""
    site = tmp_path / "site"
    for name, text in {
        "content/site.yaml": "title: T\nbase_url: https://example.org/\nlanguage: ja\n",
        "content/profile.yaml": 'name: "山田 太郎"\nname_variants: ["Taro Yamada"]\n',
        "content/records/papers.yaml": "- {id: jip, title: Consensus in Distributed Systems, authors: [YAMADA Taro, SATO Hanako, JA Smith], year: 2021,"
        " source: Journal of Information Processing}\n",
    }.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text, encoding="utf-8")
    assert main(["build", "--site", str(site)]) == 0, capsys.readouterr().err
    output = site / "output"
    item = page(output, "index.html").select_one("li.record#r-jip")
    assert [strong.get_text() for strong in item.select(".owner")] == ["YAMADA Taro"]
    (entry,) = rispy.loads((output / "publications.ris").read_text(encoding="utf-8"))
    assert entry["authors"] == ["YAMADA, Taro", "SATO, Hanako", "Smith, JA"]
    (bib,) = bibtexparser.parse_string((output / "publications.bib").read_text(encoding="utf-8")).entries
    assert bib["author"] == "YAMADA, Taro and SATO, Hanako and JA Smith"


def arxiv_entry(arxiv_id: str, title: str, authors: list[str], category: str) -> str:
    """One work as the fake arXiv serves it (by-id/<id>.xml: an <entry> on lines of its own, indented by two)."""
    names = "".join(f"    <author>\n      <name>{name}</name>\n    </author>\n" for name in authors)
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" xmlns:arxiv="http://arxiv.org/schemas/atom"'
        ' xmlns="http://www.w3.org/2005/Atom">\n'
        "  <entry>\n"
        f"    <id>http://arxiv.org/abs/{arxiv_id}v1</id>\n    <title>{title}</title>\n"
        "    <updated>2023-01-05T12:00:00Z</updated>\n"
        f'    <link href="https://arxiv.org/abs/{arxiv_id}v1" rel="alternate" type="text/html"/>\n'
        f"    <summary>About {title}.</summary>\n"
        f'    <category term="{category}" scheme="http://arxiv.org/schemas/atom"/>\n'
        "    <published>2023-01-05T12:00:00Z</published>\n"
        f'    <arxiv:primary_category term="{category}"/>\n{names}'
        "  </entry>\n</feed>\n"
    )


@pytest.mark.slow
def test_a_coauthor_named_in_chinese_keeps_only_the_groups_that_share_that_coauthor(tmp_path, arxiv_server):
    """`coauthors: ["李华"]` kept every group of a name search that had any author written in Chinese (or Cyrillic,
    ...) letters: fetch compared names by their ASCII letters only, so every such name was the same empty name, and a
    namesake's paper with 陈静 was "shared" with 李华 and put on the page."""
    fixtures = tmp_path / "arxiv"
    (fixtures / "by-id").mkdir(parents=True)
    papers = {
        "2301.00001": ("Pipelined Sampling", ["Xiaoming Wang", "李华"], "cs.DC"),
        "2302.00002": ("Graph Partitioning at Scale", ["李 华", "Xiaoming Wang"], "cs.DC"),
        "2304.00004": ("Holographic Entanglement", ["Xiaoming Wang", "陈静"], "hep-th"),
        "2305.00005": ("Black Hole Thermodynamics", ["Jun Liu", "Xiaoming Wang"], "hep-th"),
    }
    for arxiv_id, (title, authors, category) in papers.items():
        (fixtures / "by-id" / f"{arxiv_id}.xml").write_text(arxiv_entry(arxiv_id, title, authors, category), encoding="utf-8")
    server = arxiv_server(fixtures=fixtures)
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "content/site.yaml").write_text("title: T\nbase_url: https://example.org/\nlanguage: zh\n", encoding="utf-8")
    (site / "content/profile.yaml").write_text(
        'name: "王小明"\nname_variants: ["Xiaoming Wang"]\ncoauthors: ["李华"]\narxiv:\n  authors: ["Xiaoming Wang"]\n', encoding="utf-8"
    )
    result = run_sitegen("fetch", "--site", str(site), "--delay", "0", env={"SITEGEN_ARXIV_API": server.api_url})
    assert result.returncode == 0, result.stderr
    fetched = {yaml.safe_load(path.read_text(encoding="utf-8"))["id"] for path in (site / "content/records/arxiv").glob("*.yaml")}
    assert fetched == {"2301.00001", "2302.00002"}
