"""A post's comments in Chromium: nothing is asked of giscus.app until the reader presses Show comments; then giscus's
script comes with the settings of site.yaml and the page's look."""

from __future__ import annotations

import pytest
from conftest import run_sitegen, write_site  # tests/conftest.py

from browser.conftest import serve

pytestmark = pytest.mark.browser

# what giscus's script does here, in the test's stead: it records the settings it was loaded with and shows its frame,
# which records the messages the page sends it
FAKE_CLIENT = """
window.giscusSettings = Object.assign({}, document.currentScript.dataset);
var frame = document.createElement("iframe");
frame.className = "giscus-frame";
frame.src = "https://giscus.app/widget";
document.currentScript.after(frame);
"""
FAKE_WIDGET = "<!doctype html><script>window.received = []; addEventListener('message', e => received.push(e.data));</script>"


def fake_giscus(route, asked: list[str]) -> None:
    asked.append(route.request.url)
    if route.request.url.endswith("/widget"):
        route.fulfill(body=FAKE_WIDGET, content_type="text/html")
    else:
        route.fulfill(body=FAKE_CLIENT, content_type="text/javascript")


@pytest.fixture(scope="module")
def served_blog(tmp_path_factory):
    site = write_site(
        tmp_path_factory.mktemp("comments"),
        {
            "content/site.yaml": "title: Jane Doe\nlanguage: fr\ndark_mode: true\ncomments:\n  giscus:\n"
            "    repo: jane/jane.github.io\n    repo_id: R_kgDOabc123\n    category: Q&A\n    category_id: DIC_kwDOabc123\n    reactions: false\n",
            "content/profile.yaml": "name: Jane Doe\n",
            "content/posts/2025-01-02-first.md": "---\ntitle: Premier billet\n---\nUn billet.\n",
        },
    )
    result = run_sitegen("build", "--site", str(site))
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base_url:
        yield base_url


def test_giscus_is_loaded_when_the_reader_asks_and_not_before(page, served_blog):
    asked: list[str] = []
    page.route("https://giscus.app/**", lambda route: fake_giscus(route, asked))
    page.goto(served_blog + "posts/first/")
    button = page.get_by_role("button", name="Afficher les commentaires")
    button.wait_for()
    page.wait_for_load_state("networkidle")
    assert asked == []  # reading the post asked nothing of giscus
    button.click()
    page.wait_for_function("() => window.giscusSettings !== undefined")
    assert asked[0] == "https://giscus.app/client.js"
    settings = page.evaluate("() => window.giscusSettings")
    assert settings["repo"] == "jane/jane.github.io" and settings["repoId"] == "R_kgDOabc123"
    assert settings["category"] == "Q&A" and settings["categoryId"] == "DIC_kwDOabc123"
    assert (settings["mapping"], settings["reactionsEnabled"], settings["lang"]) == ("pathname", "0", "fr")
    assert settings["theme"] == "dark"  # the site starts dark (dark_mode: true) and the reader chose no other look
    assert page.get_by_role("button", name="Afficher les commentaires").count() == 0
    widget = page.frame_locator("iframe.giscus-frame").locator("html")
    widget.wait_for(state="attached")
    page.locator("button.scheme-toggle").click()  # the reader turns the site light: the comments follow
    giscus = next(frame for frame in page.frames if frame.url == "https://giscus.app/widget")
    giscus.wait_for_function("() => window.received.length > 0")
    assert giscus.evaluate("() => window.received") == [{"giscus": {"setConfig": {"theme": "light"}}}]


def test_without_javascript_the_reader_gets_the_discussions_link_and_no_dead_button(new_page, served_blog):
    page = new_page(java_script_enabled=False)
    page.goto(served_blog + "posts/first/")
    assert page.get_by_role("link", name="Les lire et en écrire sur GitHub").get_attribute("href") == "https://github.com/jane/jane.github.io/discussions"
    assert not page.locator(".comments-show").is_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_comments_section_breaks_no_wcag_rule(new_page, served_blog, scheme):
    from browser.test_axe import violations_on

    page = new_page(color_scheme=scheme)
    assert violations_on(page, served_blog + "posts/first/") == []
