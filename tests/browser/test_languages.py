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


def test_an_occitan_visitor_reads_the_languages_name_and_a_menu_of_its_own(new_page, tmp_path):
    """`languages: [en, oc]`: the switcher said 'oc'; site.yaml's `nav` by language gives the Occitan pages their
    menu's titles (they showed the English ones)."""
    nav = (
        "nav:\n  en:\n    - {title: Papers, url: './#publications'}\n    - {title: About, url: about/}\n"
        "  oc:\n    - {title: Publicacions, url: './#publications'}\n    - {title: A prepaus, url: about/}\n"
    )
    files = {
        **SITE,
        "content/site.yaml": "title: Camille Tremblay\nbase_url: https://example.org/\nlanguages: [en, oc]\n" + nav,
        "content/pages/about.oc.md": "---\ntitle: A prepaus\n---\nLo laboratòri.\n",
    }
    del files["content/pages/about.fr.md"], files["content/profile.fr.yaml"]
    site = write_site(tmp_path / "site", files)
    result = run_sitegen("build", "--site", str(site), "--base-url", "/")
    assert result.returncode == 0, result.stderr
    with serve(site / "output") as base:
        page = new_page()
        page.goto(base)
        assert page.locator(".site-header nav:not(.languages) a").all_inner_texts() == ["Papers", "About"]
        page.locator("nav.languages").get_by_text("Occitan").click()
        page.wait_for_url(base + "oc/")
        assert page.locator(".site-header nav:not(.languages) a").all_inner_texts() == ["Publicacions", "A prepaus"]
        page.locator(".site-header nav").get_by_text("A prepaus").click()
        page.wait_for_url(base + "oc/about/")
        assert "Lo laboratòri." in page.locator("main").inner_text()
