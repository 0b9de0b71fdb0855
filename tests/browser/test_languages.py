"""A site in English and French as a visitor goes through it in chromium: the switcher and the menu lead each to
the page in the other language, and the switcher is shown in the header, beside the menu."""

from __future__ import annotations

from conftest import run_sitegen, write_site

from browser.conftest import serve

SITE = {
    "content/site.yaml": "title: Camille Tremblay\nbase_url: https://example.org/\nlanguages: [en, fr]\n",
    "content/profile.yaml": "name: Camille Tremblay\nbio: I work on machine translation.\n",
    "content/profile.fr.yaml": "bio: Je travaille sur la traduction automatique.\n",
    "content/pages/about.md": "---\ntitle: About\nnav: 1\n---\nThe lab.\n",
    "content/pages/about.fr.md": "---\ntitle: À propos\nnav: 1\n---\nLe laboratoire.\n",
}


def test_the_switcher_and_the_menu_lead_to_the_page_in_the_other_language(new_page, tmp_path):
    site = write_site(tmp_path / "site", SITE)
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page()
        page.goto(base)
        switcher = page.locator("nav.languages")
        assert switcher.is_visible() and page.locator(".site-header").locator("nav.languages").count() == 1
        switcher.get_by_text("Français").click()
        page.wait_for_url(base + "fr/")
        assert page.locator("html").get_attribute("lang") == "fr"
        assert "Je travaille sur la traduction automatique." in page.locator(".bio").inner_text()
        page.locator(".site-header nav").get_by_text("À propos").click()
        page.wait_for_url(base + "fr/about/")
        assert "Le laboratoire." in page.locator("main").inner_text()
        page.locator("nav.languages").get_by_text("English").click()
        page.wait_for_url(base + "about/")
        assert "The lab." in page.locator("main").inner_text()
