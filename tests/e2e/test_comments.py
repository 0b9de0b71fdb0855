"""A blog's comments as al-folio and Quarto users have them (GitHub Discussions shown by giscus): site.yaml's
`comments` puts a Comments section under every post, and no page loads giscus before its reader asks; a setting
giscus cannot use is an error at its line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import rendered_files, run_sitegen, write_site

GISCUS = 'comments:\n  giscus:\n    repo: jane/jane.github.io\n    repo_id: R_kgDOabc123\n    category: Q&A "open"\n    category_id: DIC_kwDOabc123\n'


def blog(tmp_path, settings: str = GISCUS, language: str = "en"):
    return write_site(
        tmp_path,
        {
            "content/site.yaml": f"title: Jane Doe\nbase_url: https://jane.example.org/\nlanguage: {language}\n{settings}",
            "content/profile.yaml": "name: Jane Doe\n",
            "content/posts/2025-01-02-first.md": "---\ntitle: First\n---\nA post readers may answer.\n",
            "content/posts/2025-02-03-quiet.md": "---\ntitle: Quiet\ncomments: false\n---\nA post without comments.\n",
            "content/pages/about.md": "---\ntitle: About\n---\nA page.\n",
        },
    )


def soup(data: bytes) -> BeautifulSoup:
    return BeautifulSoup(data.decode("utf-8"), "html.parser")


def test_a_post_ends_with_its_comments_and_loads_no_script_of_another_site(tmp_path):
    files = rendered_files(blog(tmp_path))
    page = soup(files["posts/first/index.html"])
    section = page.select_one("section.comments")
    assert section is not None and section.h2.get_text() == "Comments"
    frame = section.select_one(".comments-frame")
    assert frame["data-repo"] == "jane/jane.github.io"
    assert frame["data-repo-id"] == "R_kgDOabc123"
    assert frame["data-category"] == 'Q&A "open"'  # GitHub's own category, its quotes kept as text
    assert frame["data-category-id"] == "DIC_kwDOabc123"
    assert (frame["data-mapping"], frame["data-reactions-enabled"], frame["data-lang"]) == ("pathname", "1", "en")
    assert section.select_one("a.comments-elsewhere")["href"] == "https://github.com/jane/jane.github.io/discussions"
    assert section.select_one("button.comments-show").has_attr("hidden")  # shown by comments.js, so never dead without it
    sources = [script.get("src", "") for script in page.find_all("script")]
    assert any(src.endswith("static/comments.js") for src in sources)
    assert not any("giscus" in src for src in sources)
    assert b"giscus.app/client.js" in files["static/comments.js"]


def test_only_posts_that_keep_them_have_comments(tmp_path):
    files = rendered_files(blog(tmp_path))
    assert soup(files["posts/quiet/index.html"]).select_one("section.comments") is None
    for name in ("index.html", "about/index.html", "posts/index.html"):
        page = soup(files[name])
        assert page.select_one("section.comments") is None, name
        assert not any("comments.js" in script.get("src", "") for script in page.find_all("script")), name


def test_a_site_without_the_setting_has_no_comments(tmp_path):
    files = rendered_files(blog(tmp_path, settings=""))
    page = soup(files["posts/first/index.html"])
    assert page.select_one("section.comments") is None
    assert not any("comments.js" in script.get("src", "") for script in page.find_all("script"))


def test_the_comments_speak_the_sites_language(tmp_path):
    files = rendered_files(blog(tmp_path, language="zh"))
    section = soup(files["posts/first/index.html"]).select_one("section.comments")
    assert section.h2.get_text() == "评论"
    assert section.select_one(".comments-frame")["data-lang"] == "zh-CN"  # giscus's name of the language


def test_settings_giscus_cannot_use_are_errors_at_their_lines(tmp_path):
    wrong = "comments:\n  giscus:\n    repo: https://github.com/jane/site\n    repo_id: R_kgDOabc123\n    category: Comments\n    mapping: path\n    reacts: false\n"
    site = blog(tmp_path, settings=wrong)
    output = site / "output"
    output.mkdir()
    (output / "kept.html").write_text("an earlier build", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert "content/site.yaml:6: giscus setting 'repo': 'https://github.com/jane/site' is not owner/name of a GitHub repository" in result.stderr
    assert "content/site.yaml:5: giscus setting 'category_id' is required: a category id as giscus.app gives it (DIC_kwDO...)" in result.stderr
    assert "content/site.yaml:9: giscus setting 'mapping': expected one of pathname, url, title, og:title, got 'path'" in result.stderr
    assert "content/site.yaml:10: warning: unknown giscus setting 'reacts' is ignored; did you mean 'reactions'?" in result.stderr
    assert (output / "kept.html").read_text(encoding="utf-8") == "an earlier build"


def test_a_posts_comments_setting_must_be_true_or_false(tmp_path):
    site = blog(tmp_path)
    (site / "content/posts/2025-02-03-quiet.md").write_text("---\ntitle: Quiet\ncomments: no thanks\n---\nText.\n", encoding="utf-8")
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 1
    assert "content/posts/2025-02-03-quiet.md:3: field 'comments': expected true or false, got 'no thanks'" in result.stderr


OLD_SITES = Path(__file__).resolve().parents[1] / "fixtures" / "old-sites"
AL_FOLIO_GISCUS = """
giscus:
  repo: einstein/einstein.github.io
  repo_id: R_kgDOeinstein
  category: Comments
  category_id: DIC_kwDOeinstein
  mapping: title
  strict: 1
  reactions_enabled: 1
"""


def old_site(tmp_path, tool: str, configuration: str, settings: str) -> Path:
    """A copy of the fixture of `tool`'s site with `settings` added to the end of its `configuration` file."""
    old = tmp_path / "old"
    shutil.copytree(OLD_SITES / tool, old)
    with (old / configuration).open("a", encoding="utf-8") as written:
        written.write(settings)
    return old


@pytest.mark.slow
def test_an_al_folio_sites_giscus_comments_come_over_on_the_posts_that_had_them(tmp_path):
    old = old_site(tmp_path, "al-folio", "_config.yml", AL_FOLIO_GISCUS)
    post = old / "_posts" / "2015-03-15-formatting-and-links.md"
    post.write_text(post.read_text(encoding="utf-8").replace("layout: post\n", "layout: post\ngiscus_comments: true\n", 1), encoding="utf-8")
    (old / "_posts" / "2016-05-01-quiet.md").write_text("---\nlayout: post\ntitle: A post al-folio showed no comments under\n---\nText.\n", encoding="utf-8")
    site = tmp_path / "new"
    result = run_sitegen("init", str(site), "--from", str(old), cwd=tmp_path)
    assert result.returncode == 0
    assert "note: _config.yml: giscus comments brought over (content/site.yaml's `comments:`): giscus finds a post's discussion by its title" in result.stdout
    settings = yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))
    assert settings["comments"] == {
        "giscus": {
            "repo": "einstein/einstein.github.io",
            "repo_id": "R_kgDOeinstein",
            "category": "Comments",
            "category_id": "DIC_kwDOeinstein",
            "mapping": "title",
        }
    }
    built = run_sitegen("build", "--strict", "--site", str(site))
    assert built.returncode == 0, built.stderr
    commented = soup((site / "output/posts/formatting-and-links/index.html").read_bytes()).select_one(".comments-frame")
    assert (commented["data-repo"], commented["data-mapping"]) == ("einstein/einstein.github.io", "title")
    quiet = soup((site / "output/posts/quiet/index.html").read_bytes())  # al-folio showed it none
    assert quiet.select_one("section.comments") is None


@pytest.mark.slow
def test_al_folios_sample_giscus_settings_are_no_comments_and_a_note_says_what_is_missing(tmp_path):
    old = old_site(tmp_path, "al-folio", "_config.yml", "giscus:\n  repo: einstein/einstein.github.io\n  repo_id:\n  category: Comments\n  category_id:\n")
    site = tmp_path / "new"
    result = run_sitegen("init", str(site), "--from", str(old), cwd=tmp_path)
    assert result.returncode == 0
    assert (
        "note: _config.yml: giscus comments (einstein/einstein.github.io) not brought over: content/site.yaml's `comments:` needs repo_id, category_id"
        in result.stdout
    )
    assert "comments" not in yaml.safe_load((site / "content/site.yaml").read_text(encoding="utf-8"))
    assert "comments:" not in (site / "content/posts/2015-03-15-formatting-and-links.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_quarto_sites_giscus_comments_are_named_with_what_to_add(tmp_path):
    """Quarto looks a repository's ids up itself when it renders: its `comments: giscus: repo:` is all a site writes."""
    old = old_site(tmp_path, "quarto", "_quarto.yml", "comments:\n  giscus:\n    repo: quarto-user/site\n")
    result = run_sitegen("init", str(tmp_path / "new"), "--from", str(old), cwd=tmp_path)
    assert result.returncode == 0
    assert (
        "note: _quarto.yml: giscus comments (quarto-user/site) not brought over: content/site.yaml's `comments:` needs repo_id, category, category_id"
        in result.stdout
    )
