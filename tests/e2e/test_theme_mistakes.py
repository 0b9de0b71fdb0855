"""A site's own theme written wrong: every mistake is one `path:line:` line and exit 1 (or a warning), never a traceback.

What `sitegen check` and `sitegen build` print is what a theme's author sees: these tests run the
command line in this process (`sitegen.cli.main`) and read its exit status and stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL_SITE, write_site

from sitegen import theme as theme_module
from sitegen.cli import main

RECORDS = {
    "content/records/a.yaml": "id: a\ntitle: Alpha paper\nauthors: [Ada Lovelace]\nyear: 2024\ndate: 2024-03-05\nsource: J. Alpha\n",
    "content/records/b.yaml": "id: b\ntitle: Beta paper\nauthors: [Ada Lovelace]\nyear: 2022\nsource: J. Beta\n",
}
COLOPHON = '{% extends "base.html" %}{% block main %}<p>{{ records|length }} records</p>{% endblock %}\n'


MINE = "name: mine\nextends: default\npages:\n  - {template: colophon.html, path: colophon/index.html}\n"


def theme_site(root: Path, theme_yaml: str = MINE, files: dict[str, str] | None = None, language: str = "en") -> Path:
    """A site with two records and its own theme `mine`, which extends default and adds a page."""
    site_yaml = f"title: Test site\nbase_url: https://example.org/\ntheme: mine\nlanguage: {language}\n"
    return write_site(
        root,
        {
            **MINIMAL_SITE,
            **RECORDS,
            "content/site.yaml": site_yaml,
            "themes/mine/theme.yaml": theme_yaml,
            "themes/mine/templates/colophon.html": COLOPHON,
            **(files or {}),
        },
    )


def sitegen(capsys, *args: str) -> tuple[int, list[str]]:
    """Run the command line; its exit status and the lines it wrote to stderr."""
    status = main(list(args))
    return status, capsys.readouterr().err.splitlines()


# -- 1. theme.yaml's pages: -------------------------------------------------------------------------


PAGE_MISTAKES = {
    "no path": (
        "  - {template: colophon.html}\n",
        "themes/mine/theme.yaml:4: page 1 of 'pages': no 'path' (where the page goes in output/)",
    ),
    "no template": (
        "  - {path: x/index.html}\n",
        "themes/mine/theme.yaml:4: page 1 of 'pages': no 'template' (the template to render)",
    ),
    "a name, not an entry": (
        "  - colophon.html\n",
        "themes/mine/theme.yaml:3: page 1 of 'pages': expected a mapping {template: colophon.html, path: colophon/index.html}, got 'colophon.html'",
    ),
    "a list as the template": (
        "  - {template: [a], path: a/index.html}\n",
        "themes/mine/theme.yaml:4: page 1 of 'pages': field 'template': expected a template's name (colophon.html), got a list",
    ),
    "a template no folder has": (
        "  - {template: colophn.html, path: c/index.html}\n",
        "themes/mine/theme.yaml:4: page 1 of 'pages': template 'colophn.html' is in no templates/ folder of the site or its themes;"
        " did you mean 'colophon.html'?",
    ),
    "a path leaving output/": (
        "  - {template: colophon.html, path: /abs/index.html}\n",
        "themes/mine/theme.yaml:4: page 1 of 'pages': path '/abs/index.html' is not a file inside output/;"
        " write it from output/'s root, as colophon/index.html",
    ),
    "a path sitegen writes": (
        "  - {template: colophon.html, path: ok/index.html}\n  - {template: colophon.html, path: cv/index.html}\n",
        "themes/mine/theme.yaml:5: path 'cv/index.html': sitegen's 'cv' pages write output/cv/index.html already; choose another path",
    ),
    "the sitemap's path": (
        "  - {template: colophon.html, path: sitemap.xml}\n",
        "themes/mine/theme.yaml:4: path 'sitemap.xml': sitegen's 'sitemap' pages write output/sitemap.xml already; choose another path",
    ),
    "a folder where the sitemap is": (
        "  - {template: colophon.html, path: sitemap.xml/index.html}\n",
        "themes/mine/theme.yaml:4: output/sitemap.xml (by 'sitemap') is a file, and 'theme-pages' needs a folder of that name"
        " for output/sitemap.xml/index.html",
    ),
    "a path one with sitegen's ignoring case": (
        "  - {template: colophon.html, path: Records/index.html}\n",
        "themes/mine/theme.yaml:4: output/records (by 'records') and output/Records (by 'theme-pages') are one name on macOS and Windows",
    ),
}


@pytest.mark.parametrize("mistake", list(PAGE_MISTAKES))
def test_a_wrong_pages_entry_is_one_line_at_its_place_in_theme_yaml(tmp_path, capsys, mistake):
    entries, expected = PAGE_MISTAKES[mistake]
    site = theme_site(tmp_path, f"name: mine\nextends: default\npages:\n{entries}", {"content/cv.yaml": "sections: []\n"})
    for command in ("check", "build"):
        assert sitegen(capsys, command, "--site", str(site)) == (1, [expected])
    assert not (site / "output").exists()


def test_pages_that_is_no_list_is_named_at_its_line(tmp_path, capsys):
    site = theme_site(tmp_path, "name: mine\nextends: default\npages: colophon.html\n")
    expected = (
        "themes/mine/theme.yaml:3: field 'pages': expected a list of pages, each {template: colophon.html, path: colophon/index.html}; got 'colophon.html'"
    )
    assert sitegen(capsys, "check", "--site", str(site)) == (1, [expected])


def test_a_theme_page_gets_the_profiles_values_and_can_list_every_publication_by_year(tmp_path, capsys):
    """A /publications/ page by year, as al-folio has (docs/themes.md's example): `years`, `posts`, `posts_url`
    and `icons`, as the profile gets them, with every record on the one page whatever `records_per_page` says."""
    publications = (
        '{% extends "base.html" %}{% block main %}'
        '{% include "partials/year_nav.html" %}{% set id_prefix = "" %}{% include "partials/year_groups.html" %}'
        '<p class="posts">{{ posts|length }} {{ posts_url }}</p><p class="icons">{{ icons|join(" ") }}</p>'
        "{% endblock %}\n"
    )
    site = theme_site(
        tmp_path,
        "name: mine\nextends: default\npages:\n  - template: publications.html\n    path: publications/index.html\n",
        {
            "themes/mine/templates/publications.html": publications,
            "content/site.yaml": "title: T\nbase_url: https://example.org/\ntheme: mine\nrecords_per_page: 1\n",
            "content/records/c.yaml": "id: c\ntitle: Gamma paper\nyear: 2020\nsource: J. Gamma\nlinks: {pdf: 'https://example.org/c.pdf'}\n",
        },
    )
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 0, lines
    page = (site / "output/publications/index.html").read_text(encoding="utf-8")
    assert [f'<a href="#year-{year}">{year}</a>' in page for year in (2024, 2022, 2020)] == [True] * 3, "the years link within the page"
    assert all(f'id="year-{year}"' in page for year in (2024, 2022, 2020))
    assert all(f"{name} paper" in page for name in ("Alpha", "Beta", "Gamma")), "every record on the one page, past records_per_page"
    assert '<p class="posts">0 /posts/</p>' in page and '<p class="icons">pdf</p>' in page


# -- 2. a translation file that is no YAML --------------------------------------------------------------


def test_a_broken_translation_file_is_a_line_with_its_place_in_check_build_and_the_dev_server(tmp_path, capsys):
    from sitegen.inputs import list_inputs
    from sitegen.serve import Preview

    site = theme_site(tmp_path, files={"themes/mine/i18n/fr.yaml": "menu:\n  news: [Actualités\n"}, language="fr")
    expected = "themes/mine/i18n/fr.yaml:3:1: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence)"
    for command in ("check", "build"):
        assert sitegen(capsys, command, "--site", str(site)) == (1, [expected])
    preview = Preview(site)
    preview.rebuild(list_inputs(site))
    assert preview.problems == [expected], "the dev server's error page shows the line, not 'internal error'"


# -- 3. translation values of the wrong shape, keys no theme has ------------------------------------------


def test_translation_values_of_the_wrong_shape_and_unknown_keys_are_warnings_at_their_lines(tmp_path, capsys):
    french = (
        "menu:\n  news: 5\n  nwes: Nouvelles\n"
        "footer: [a, b]\n"
        "months: [janvier, février, mars, avril, mai, juin, juillet, août, septembre, octobre, novembre]\n"
        "skip_to_content: {a: b}\n"
    )
    site = theme_site(tmp_path, files={"themes/mine/i18n/fr.yaml": french}, language="fr")
    status, lines = sitegen(capsys, "check", "--strict", "--site", str(site))
    path = "themes/mine/i18n/fr.yaml"
    assert status == 1
    assert lines == [
        f"{path}:2: warning: 'menu.news': expected a string (as in i18n/en.yaml), got 5; quote it",
        f"{path}:3: warning: 'menu.nwes' is no string of the theme (none in i18n/en.yaml), so it is never shown; did you mean 'menu.news'?",
        f"{path}:4: warning: 'footer': expected a mapping (as in i18n/en.yaml: bibtex, records_json, feed, ...), got a list of 2",
        f"{path}:5: warning: 'months': expected a list of the 12 months' names, January first; got a list of 11; dates are shown as 2024-03-05 until it is",
        f"{path}:6: warning: 'skip_to_content': expected a string (as in i18n/en.yaml), got a mapping",
        "--strict: 5 warnings, and --strict makes a warning an error; sitegen build --strict would write nothing",
    ]


def test_a_language_the_theme_has_no_file_for_is_a_warning_naming_those_it_has(tmp_path, capsys):
    site = theme_site(tmp_path, language="it")
    status, lines = sitegen(capsys, "check", "--site", str(site))
    assert status == 0
    assert lines[0] == (
        "content/site.yaml:4: warning: field 'language': the theme 'mine' has no translation for 'it' (it has ca, de, en, es, fa, fr, fr-CA, ja, ko, nl, nl-BE, zh); its pages show the English strings;"
        " to translate them, write themes/mine/i18n/it.yaml (docs/themes.md, Translations)"
    )


def test_a_placeholder_the_english_string_does_not_have_is_a_warning_naming_those_it_has(tmp_path, capsys):
    """'{jour} {month} {year}' printed "{jour} juin 2024" on every page, without a word."""
    french = (
        'date_formats: {day: "{jour} {month} {year}", month: "{month} {yaer}"}\n'
        'search:\n  found: "{trouvé} sur {total} {publications}"\n  searching: "Recherche dans {total} {publications}…"\n'
        "months: [janvier, février, mars, avril, mai, juin, juillet, août, septembre, octobre, novembre, décembre]\n"
    )
    site = theme_site(tmp_path, files={"themes/mine/i18n/fr.yaml": french}, language="fr")
    status, lines = sitegen(capsys, "check", "--site", str(site))
    path = "themes/mine/i18n/fr.yaml"
    assert status == 0
    assert [line for line in lines if "warning" in line] == [
        f"{path}:1: warning: 'date_formats.day': {{jour}} is no placeholder of this string, so it is shown as written;"
        " it has {day}, {month}, {year} (as in i18n/en.yaml)",
        f"{path}:1: warning: 'date_formats.month': {{yaer}} is no placeholder of this string, so it is shown as written;"
        " it has {month}, {year} (as in i18n/en.yaml); did you mean {year}?",
        f"{path}:3: warning: 'search.found': {{trouvé}} is no placeholder of this string, so it is shown as written;"
        " it has {found}, {publications}, {total} (as in i18n/en.yaml)",
    ]


def test_a_correct_translation_and_a_language_the_theme_has_say_nothing(tmp_path, capsys):
    site = theme_site(
        tmp_path, files={"themes/mine/i18n/fr.yaml": "menu:\n  news: Actualités\nmonths: [a, b, c, d, e, f, g, h, i, j, k, l]\n"}, language="fr-CA"
    )
    assert sitegen(capsys, "check", "--strict", "--site", str(site)) == (0, ["ok: 5 pages would be built"])
    german = theme_site(tmp_path / "de", language="de")
    assert sitegen(capsys, "check", "--strict", "--site", str(german)) == (0, ["ok: 5 pages would be built"])


FRENCH = (
    "scheme: {dark_mode: Mode sombre}\n"
    "menu: {news: Actualités}\n"
    "months: [janvier, février, mars, avril, mai, juin, juillet, août, septembre, octobre, novembre, décembre]\n"
    'date_formats: {day: "{day} {month} {year}", month: "{month} {year}"}\n'
)
FRENCH_SITE = {
    **MINIMAL_SITE,
    **RECORDS,
    "content/site.yaml": "title: Test site\nbase_url: https://example.org/\nlanguage: fr\n",
    "content/news/2024-12-01-prix.md": "---\ndate: 2024-12-01\n---\nUn prix.\n",
}


@pytest.mark.parametrize(
    "theme_files",
    [
        {"themes/default/i18n/fr.yaml": FRENCH},
        {
            "themes/mine/theme.yaml": "name: mine\nextends: default\n",
            "themes/mine/i18n/fr.yaml": FRENCH,
            "content/site.yaml": FRENCH_SITE["content/site.yaml"] + "theme: mine\n",
        },
    ],
    ids=["themes/default/ with only i18n/fr.yaml", "a theme of theme.yaml and i18n/ only"],
)
def test_a_theme_that_only_adds_a_translation_gives_a_french_site(tmp_path, capsys, theme_files):
    """docs/themes.md: a theme holds only the files it adds or changes; a translation alone is one."""
    site = write_site(tmp_path, {**FRENCH_SITE, **theme_files})
    status, lines = sitegen(capsys, "build", "--strict", "--site", str(site))
    assert (status, [line for line in lines if "warning" in line]) == (0, [])
    news = BeautifulSoup((site / "output/news/index.html").read_text(encoding="utf-8"), "lxml")
    assert news.html["lang"] == "fr"
    assert "Mode sombre" in news.select_one("button.scheme-toggle").get_text()
    assert "Actualités" in [link.get_text(strip=True) for link in news.select("nav a")]
    assert "1er décembre 2024" in news.get_text()  # the 1st as French writes it (the bundled fr.yaml's date_formats.first_day)
    assert "December" not in news.get_text()


@pytest.mark.parametrize(
    "language, direction, locale",
    [
        ("ar", "rtl", "ar_AR"),
        ("he", "rtl", "he_IL"),
        ("fa-IR", "rtl", "fa_IR"),
        ("ur", "rtl", None),
        ("de", None, "de_DE"),
        ("tr", None, "tr_TR"),
        ("eo", None, None),
    ],
)
def test_a_right_to_left_language_gives_pages_that_direction_and_no_language_a_locale_of_none(tmp_path, capsys, language, direction, locale):
    """`language: ar` gave left-to-right pages, and every language outside a short list `og:locale` "None"."""
    site = write_site(tmp_path, {**MINIMAL_SITE, **RECORDS, "content/site.yaml": f"title: T\nbase_url: https://example.org/\nlanguage: {language}\n"})
    status, _ = sitegen(capsys, "build", "--site", str(site))
    assert status == 0
    for page in ("index.html", "records/a/index.html", "404.html"):
        html = BeautifulSoup((site / "output" / page).read_text(encoding="utf-8"), "lxml")
        assert (html.html["lang"], html.html.get("dir")) == (language, direction)
        tag = html.find("meta", property="og:locale")
        assert (tag["content"] if tag else None) == locale


# -- 5. a port that is none --------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["99999", "-1", "65536", "0", "eighty"])
def test_a_port_outside_1_to_65535_is_a_usage_error(tmp_path, capsys, port):
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--site", str(tmp_path), "--port", port])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"sitegen serve: error: argument --port: expected a port from 1 to 65535, got '{port}'"


# -- 6. templates that name a template there is not --------------------------------------------------------


# every partial of the bundled default theme, as a message lists them
DEFAULT_PARTIALS = ", ".join(sorted(path.name for path in (Path(theme_module.__file__).parent / "themes/default/templates/partials").iterdir()))


LOOKUP_MISTAKES = {
    "extends a file the parent lacks": (
        {"templates/base.html": '{% extends "!default/bse.html" %}\n'},
        "templates/base.html:1: template not found: !default/bse.html; did you mean '!default/base.html'?",
    ),
    "a partial includes one there is not": (
        {"templates/partials/record_item.html": 'a\n{% include "partials/nope.html" %}\n'},
        "templates/partials/record_item.html:2: template not found: partials/nope.html; the templates/partials/ folders of the site"
        f" and its themes hold {DEFAULT_PARTIALS}",
    ),
    "a theme's base.html extends !theme/base.html": (
        {"themes/mine/templates/base.html": '{% extends "!theme/base.html" %}\n'},
        "themes/mine/templates/base.html:1: template error: a template extends or includes itself; inside a theme, `!theme/` names that theme's"
        ' own templates: build on its parent\'s with `!<parent>/`, e.g. {% extends "!default/base.html" %}',
    ),
}


@pytest.mark.parametrize("mistake", list(LOOKUP_MISTAKES))
def test_a_template_naming_a_missing_one_is_blamed_at_its_own_line(tmp_path, capsys, mistake):
    files, expected = LOOKUP_MISTAKES[mistake]
    site = theme_site(tmp_path, files=files)
    assert sitegen(capsys, "check", "--site", str(site)) == (1, [expected])


@pytest.mark.parametrize(
    ("extends", "expected"),
    [
        ("mine", "themes/mine/theme.yaml:2: field 'extends': a theme cannot extend itself; name the theme 'mine' builds on (default)"),
        ("nonexist", "themes/mine/theme.yaml:2: field 'extends': unknown theme 'nonexist'; themes found: classic, default, mine, other"),
        (
            "other",
            "themes/other/theme.yaml:2: field 'extends': the themes extend each other in a loop (mine -> other -> mine);"
            " one of them must extend a theme outside it (default)",
        ),
    ],
)
def test_a_wrong_extends_is_blamed_on_the_themes_own_settings(tmp_path, capsys, extends, expected):
    other = {"themes/other/theme.yaml": "name: other\nextends: mine\n", "themes/other/templates/404.html": "x\n"}
    site = theme_site(tmp_path, MINE.replace("extends: default", f"extends: {extends}"), other)
    for command in ("check", "build"):
        assert sitegen(capsys, command, "--site", str(site)) == (1, [expected])


def test_a_sites_theme_named_like_a_bundled_one_holds_only_what_it_changes(tmp_path, capsys):
    """`themes/default/` of the site with one partial: the bundled default gives the rest."""
    site = write_site(tmp_path, {**MINIMAL_SITE, **RECORDS, "themes/default/templates/partials/record_item.html": "<li>mine: {{ record.title_text }}</li>\n"})
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 0, lines
    assert "<li>mine: Alpha paper</li>" in (site / "output/index.html").read_text(encoding="utf-8")


# -- 7. a template that replaces nothing -----------------------------------------------------------------


def test_a_misspelt_override_is_a_warning_with_the_name_meant(tmp_path, capsys):
    site = theme_site(tmp_path, files={"templates/partials/record-item.html": "<li>{{ record.title }}</li>\n"})
    status, lines = sitegen(capsys, "check", "--strict", "--site", str(site))
    assert status == 1
    assert lines[0] == (
        "templates/partials/record-item.html: warning: template 'partials/record-item.html' replaces no template of the theme"
        " and no template uses it; did you mean 'partials/record_item.html'?"
    )


def test_templates_that_override_or_are_used_say_nothing(tmp_path, capsys):
    """An override, a theme's page template (MINE's colophon.html), a partial a template includes and the one it
    extends with `!theme/`: none is warned about."""
    files = {
        "templates/partials/record_item.html": '<li>{% include "partials/mark.html" %}{{ record.title }}</li>\n',
        "templates/partials/mark.html": "*",
        "themes/mine/templates/layout.html": '{% extends "!default/base.html" %}\n',
        "themes/mine/templates/base.html": '{% extends "layout.html" %}\n',
    }
    site = theme_site(tmp_path, files=files)
    assert sitegen(capsys, "check", "--strict", "--site", str(site)) == (0, ["ok: 5 pages would be built"])


# -- 8. a theme's options (theme.yaml `settings:`) --------------------------------------------------------


LOGO = '{% extends "base.html" %}{% block main %}{% if site.extra.group_logo %}<img class="logo" src="{{ site.extra.group_logo }}">{% endif %}<p class="motto">{{ site.extra.motto }}</p>{% endblock %}\n'
WITH_OPTIONS = MINE + "settings:\n  group_logo: null\n  motto: Hello\n"


def test_a_site_sets_a_declared_theme_option_without_a_warning(tmp_path, capsys):
    """A theme's option set in site.yaml passes `check --strict` (the pull-request workflow) and reaches the templates."""
    site = theme_site(
        tmp_path,
        WITH_OPTIONS,
        {
            "themes/mine/templates/colophon.html": LOGO,
            "content/site.yaml": "title: T\nbase_url: https://example.org/\ntheme: mine\ngroup_logo: /static/logo.svg\n",
        },
    )
    assert sitegen(capsys, "check", "--strict", "--site", str(site))[0] == 0
    status, lines = sitegen(capsys, "build", "--strict", "--site", str(site))
    assert (status, [line for line in lines if "warning" in line]) == (0, [])
    page = BeautifulSoup((site / "output/colophon/index.html").read_text(encoding="utf-8"), "lxml")
    assert page.select_one("img.logo")["src"] == "/static/logo.svg"
    assert page.select_one("p.motto").text == "Hello", "an option the site leaves out has its default"


def test_an_option_the_site_leaves_out_has_its_default_and_the_build_passes(tmp_path, capsys):
    site = theme_site(tmp_path, WITH_OPTIONS, {"themes/mine/templates/colophon.html": LOGO})
    status, lines = sitegen(capsys, "build", "--strict", "--site", str(site))
    assert status == 0, lines
    page = BeautifulSoup((site / "output/colophon/index.html").read_text(encoding="utf-8"), "lxml")
    assert page.select_one("img.logo") is None
    assert page.select_one("p.motto").text == "Hello"


def test_options_are_inherited_through_extends_and_the_extending_theme_changes_defaults(tmp_path, capsys):
    site = theme_site(
        tmp_path,
        "extends: base\nsettings: {motto: Mine}\n",
        {
            "themes/base/theme.yaml": "extends: default\nsettings: {group_logo: /static/base.svg, motto: Base}\n",
            "themes/mine/templates/colophon.html": LOGO,
            "themes/mine/theme.yaml": "extends: base\nsettings: {motto: Mine}\npages:\n  - {template: colophon.html, path: colophon/index.html}\n",
        },
    )
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 0, lines
    page = BeautifulSoup((site / "output/colophon/index.html").read_text(encoding="utf-8"), "lxml")
    assert (page.select_one("img.logo")["src"], page.select_one("p.motto").text) == ("/static/base.svg", "Mine")


def test_a_misspelt_option_is_a_warning_naming_the_declared_one(tmp_path, capsys):
    site = theme_site(
        tmp_path,
        WITH_OPTIONS,
        {"themes/mine/templates/colophon.html": LOGO, "content/site.yaml": "title: T\nbase_url: https://example.org/\ntheme: mine\ngroup_loggo: /x.svg\n"},
    )
    status, lines = sitegen(capsys, "check", "--strict", "--site", str(site))
    assert status == 1
    assert lines[0] == "content/site.yaml:4: warning: field 'group_loggo': unknown setting; did you mean 'group_logo'?"


def test_an_undeclared_value_is_still_an_error_in_a_template(tmp_path, capsys):
    """StrictUndefined stays: a typo in a template is an error at its line."""
    site = theme_site(tmp_path, WITH_OPTIONS, {"themes/mine/templates/colophon.html": LOGO.replace("site.extra.motto", "site.extra.moto")})
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 1
    assert lines == ["themes/mine/templates/colophon.html:1: template error in colophon.html: site.extra has no 'moto'; did you mean 'motto'?"]


def test_an_unknown_field_of_theme_yaml_is_a_warning_naming_the_field_meant(tmp_path, capsys):
    """`setings:` would drop every option, `extend:` the parent, without a word; an option written at the top level
    is no option."""
    theme_yaml = MINE + "setings:\n  motto: Hi\nextend: classic\naccent_colour: '#005a8c'\n"
    site = theme_site(tmp_path, theme_yaml)
    status, lines = sitegen(capsys, "check", "--strict", "--site", str(site))
    assert status == 1
    assert lines[:3] == [
        "themes/mine/theme.yaml:5: warning: field 'setings': unknown field of theme.yaml, not read; did you mean 'settings'?",
        "themes/mine/theme.yaml:7: warning: field 'extend': unknown field of theme.yaml, not read; did you mean 'extends'?",
        "themes/mine/theme.yaml:8: warning: field 'accent_colour': unknown field of theme.yaml, not read; an option a site may set"
        " goes under `settings:` (accent_colour: its default); a theme.yaml has name, extends, description, settings, pages",
    ]


def test_the_fields_of_theme_yaml_say_nothing(tmp_path, capsys):
    theme_yaml = MINE + "description: Mine\nsettings:\n  motto: Hi\n"
    site = theme_site(tmp_path, theme_yaml)
    assert sitegen(capsys, "check", "--strict", "--site", str(site)) == (0, ["ok: 5 pages would be built"])


TYPED_OPTIONS = MINE + "settings:\n  colour: '#005a8c'\n  hide_blog: false\n  news_count: 3\n  ratio: 0.5\n  motto: Hello\n  tags: [a]\n  group_logo: null\n"


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        (
            'hide_blog: "no"',
            "content/site.yaml:4: field 'hide_blog': the theme's option is true or false (its default: false), got 'no'; write `hide_blog: false`",
        ),
        (
            "hide_blog: 1",
            "content/site.yaml:4: field 'hide_blog': the theme's option is true or false (its default: false), got int 1;"
            " write `hide_blog: true` or `hide_blog: false`",
        ),
        (
            'news_count: "five"',
            "content/site.yaml:4: field 'news_count': the theme's option is a whole number (its default: 3), got 'five'; write a number, as `news_count: 3`",
        ),
        (
            'news_count: "5"',
            "content/site.yaml:4: field 'news_count': the theme's option is a whole number (its default: 3), got '5'; write it without quotes, `news_count: 5`",
        ),
        (
            "news_count: 2.5",
            "content/site.yaml:4: field 'news_count': the theme's option is a whole number (its default: 3), got float 2.5; write a number, as `news_count: 3`",
        ),
        (
            "news_count: true",
            "content/site.yaml:4: field 'news_count': the theme's option is a whole number (its default: 3), got bool True; write a number, as `news_count: 3`",
        ),
        (
            "news_count:",
            "content/site.yaml:4: field 'news_count': the theme's option is a whole number (its default: 3), got nothing;"
            " write a number, as `news_count: 3`, or remove the line to keep the default",
        ),
        (
            "ratio: high",
            "content/site.yaml:4: field 'ratio': the theme's option is a number (its default: 0.5), got 'high'; write a number, as `ratio: 0.5`",
        ),
        (
            "motto: [a, b]",
            "content/site.yaml:4: field 'motto': the theme's option is a text (its default: 'Hello'), got a list; write one line of text, as `motto: Hello`",
        ),
        (
            "colour: [1, 2]",
            "content/site.yaml:4: field 'colour': the theme's option is a text (its default: '#005a8c'), got a list;"
            ' write one line of text, as `colour: "#005a8c"`',
        ),
        (
            "tags: x",
            "content/site.yaml:4: field 'tags': the theme's option is a list (its default: ['a']), got 'x'; write a list, as `tags: [x]`",
        ),
    ],
)
def test_a_theme_option_of_another_type_than_its_default_is_an_error_at_its_line(tmp_path, capsys, setting, expected):
    """`hide_blog: "no"` would be true in `{% if site.extra.hide_blog %}`, and `news_count: "five"` a TypeError blamed on
    the theme's template: the site's line is named, with what to write."""
    site_yaml = f"title: T\nbase_url: https://example.org/\ntheme: mine\n{setting}\n"
    site = theme_site(tmp_path, TYPED_OPTIONS, {"content/site.yaml": site_yaml})
    assert sitegen(capsys, "check", "--site", str(site)) == (1, [expected])
    assert sitegen(capsys, "build", "--site", str(site)) == (1, [expected])
    assert not (site / "output").exists()


def test_options_of_the_wrong_type_are_named_in_the_order_of_site_yaml(tmp_path, capsys):
    site_yaml = 'title: T\nbase_url: https://example.org/\ntheme: mine\nnews_count: "x"\nhide_blog: "no"\n'
    site = theme_site(tmp_path, TYPED_OPTIONS, {"content/site.yaml": site_yaml})
    status, lines = sitegen(capsys, "check", "--site", str(site))
    assert (status, [line.partition(" field")[0] for line in lines]) == (1, ["content/site.yaml:4:", "content/site.yaml:5:"])


def test_theme_options_of_their_defaults_type_pass(tmp_path, capsys):
    """A whole number for a number option, any text for a text one, anything for one whose default is null."""
    settings = "hide_blog: true\nnews_count: 5\nratio: 2\nmotto: 2024\ntags: [x, y]\ngroup_logo: [1, 2]\n"
    site_yaml = f"title: T\nbase_url: https://example.org/\ntheme: mine\n{settings}"
    site = theme_site(tmp_path, TYPED_OPTIONS, {"content/site.yaml": site_yaml})
    assert sitegen(capsys, "check", "--strict", "--site", str(site)) == (0, ["ok: 5 pages would be built"])


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        (
            "settings: [logo]\n",
            "themes/mine/theme.yaml:5: field 'settings': expected a mapping of each option a site may set to its default (logo: null), got ['logo']",
        ),
        (
            "settings:\n  title: x\n",
            "themes/mine/theme.yaml:6: field 'settings': 'title' is a setting of sitegen's own in site.yaml; name the theme's option otherwise (mine_title)",
        ),
    ],
)
def test_a_wrong_settings_mapping_is_an_error_at_its_line(tmp_path, capsys, settings, expected):
    site = theme_site(tmp_path, MINE + settings)
    assert sitegen(capsys, "check", "--site", str(site)) == (1, [expected])


# -- 9. a theme that extends none --------------------------------------------------------------------------


def test_a_theme_extending_none_is_one_error_naming_every_template_it_lacks(tmp_path, capsys):
    own = ["index.html", "record.html", "partials/record_item.html"]
    site = theme_site(tmp_path, "name: mine\n", {f"themes/mine/templates/{name}": "x\n" for name in own})
    expected = (
        "themes/mine/theme.yaml:1: the theme 'mine' extends no theme, so it needs every template sitegen renders, and lacks 14:"
        " 404.html, cited.html, cv.html, news.html, page.html, partials/person_record.html, people.html, person.html, post.html,"
        " posts.html, project.html, projects.html, subject.html, talks.html; add them to themes/mine/templates/, or write `extends: default` in"
        " themes/mine/theme.yaml to take the missing ones from default"
    )
    for command in ("check", "build"):
        assert sitegen(capsys, command, "--site", str(site)) == (1, [expected])


def test_a_theme_extending_none_with_every_template_builds(tmp_path, capsys):
    from sitegen.theme import REQUIRED_TEMPLATES

    files = {f"themes/mine/templates/{name}": "<p>mine</p>\n" for name in REQUIRED_TEMPLATES}
    site = theme_site(tmp_path, "name: mine\n", files)
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 0, lines
    assert (site / "output/index.html").read_text(encoding="utf-8") == "<p>mine</p>\n"


# -- 10. |tojson of the values templates get -----------------------------------------------------------------


def test_tojson_writes_a_years_records_as_the_list_of_records(tmp_path, capsys):
    page = (
        '{% extends "base.html" %}{% block main %}<script type="application/json" id="a">{{ years[0].records|tojson }}</script>'
        '<script type="application/json" id="b">{{ years[0].records|list|tojson }}</script>'
        '<script type="application/json" id="c">{{ groups|tojson }}</script>{% endblock %}\n'
    )
    site = theme_site(tmp_path, files={"themes/mine/templates/colophon.html": page})
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 0, lines
    html = BeautifulSoup((site / "output/colophon/index.html").read_text(encoding="utf-8"), "lxml")
    records = json.loads(html.select_one("#a").string)
    assert records == json.loads(html.select_one("#b").string)
    assert [record["title_text"] for record in records] == ["Alpha paper"]
    assert json.loads(html.select_one("#c").string)[0]["records"] == records


# -- 11. theme.yaml's name: ---------------------------------------------------------------------------------


def test_a_name_other_than_the_folders_is_a_warning_at_its_line(tmp_path, capsys):
    site = theme_site(tmp_path, MINE.replace("name: mine", "name: mygroup"))
    status, lines = sitegen(capsys, "check", "--strict", "--site", str(site))
    assert status == 1
    assert lines[0] == (
        "themes/mine/theme.yaml:1: warning: field 'name': 'mygroup' is not the name of this theme: a theme is named by its folder"
        " (themes/mine/), so site.yaml's `theme:` and a theme's `extends:` call it 'mine'; write `name: mine` or rename the folder"
    )
    assert sitegen(capsys, "build", "--site", str(site))[0] == 0, "a warning: the theme builds"


def test_the_folders_name_says_nothing(tmp_path, capsys):
    site = theme_site(tmp_path)
    assert sitegen(capsys, "check", "--strict", "--site", str(site)) == (0, ["ok: 5 pages would be built"])


# -- 12. a block left open, an end tag of another block ----------------------------------------------------------


UNCLOSED = {
    "an if closed by the endblock around it": (
        "{% block main %}\n<h1>Colophon</h1>\n{% if site.extra.hide_blog %}\n<p>No blog.</p>\n{% endblock %}\n",
        "themes/mine/templates/colophon.html:4: template error: this {% if %} is never closed: {% endblock %} at line 6"
        " ends the block around it first; write {% endif %} where the if's part ends, before that {% endblock %}",
    ),
    "a for the file ends in": (
        "{% block main %}\n<ul>\n{% for r in records %}\n<li>{{ r.title }}</li>\n</ul>\n",
        "themes/mine/templates/colophon.html:4: template error: this {% for %} is never closed: the file ends first;"
        " write {% endfor %} where the for's part ends",
    ),
    "an endfor where an if is open": (
        "{% block main %}\n{% if records %}\n<p>x</p>\n{% endfor %}\n{% endblock %}\n",
        "themes/mine/templates/colophon.html:5: template error: {% endfor %} closes no open {% for %}: the innermost open block"
        " is the {% if %} of line 3; write {% endif %} to close it",
    ),
    "an open block on the line of the end tag": (
        "{% block main %}\n{% for r in records %}{% if r.year %}<p>{{ r.year }}</p>{% endfor %}\n{% endblock %}\n",
        "themes/mine/templates/colophon.html:3: template error: this {% if %} is never closed: {% endfor %} at line 3"
        " ends the block around it first; write {% endif %} where the if's part ends, before that {% endfor %}",
    ),
}


@pytest.mark.parametrize("mistake", list(UNCLOSED))
def test_a_block_left_open_is_named_at_the_line_that_opens_it_with_the_tag_to_write(tmp_path, capsys, mistake):
    """Jinja says 'The innermost block that needs to be closed is 'if'' at the line where it gave up: in a long
    template, the `{% if %}` to close is elsewhere. The message names its line and the end tag to write."""
    body, expected = UNCLOSED[mistake]
    site = theme_site(tmp_path, files={"themes/mine/templates/colophon.html": '{% extends "base.html" %}\n' + body})
    assert sitegen(capsys, "build", "--site", str(site)) == (1, [expected])


# -- 13. a misspelt value, attribute or filter ------------------------------------------------------------------


MISSPELT = {
    "a value the template does not receive": (
        "<p>{{ profil.name }}</p>",
        "themes/mine/templates/colophon.html:2: template error in colophon.html: 'profil' is no value this template receives; did you mean 'profile'?",
    ),
    "a field of a value": (
        "<p>{{ profile.nmae }}</p>",
        "themes/mine/templates/colophon.html:2: template error in colophon.html: profile has no 'nmae'; did you mean 'name'?",
    ),
    "a theme option": (
        "{% if site.extra.motoo %}x{% endif %}",
        "themes/mine/templates/colophon.html:2: template error in colophon.html: site.extra has no 'motoo'; did you mean 'motto'?",
    ),
    "a field of an extra nothing is like": (
        "<p>{{ profile.extra.pronouns }}</p>",
        "themes/mine/templates/colophon.html:2: template error in colophon.html: profile.extra has no 'pronouns'; it has nothing;"
        " a value a site may leave out: test it, `{% if profile.extra.pronouns is defined %}`, or give it a default,"
        ' `{{ profile.extra.pronouns|default("") }}`',
    ),
    "a filter": (
        "<p>{{ profile.name|upcase }}</p>",
        "themes/mine/templates/colophon.html:2: template error: no filter named 'upcase'; did you mean 'upper'?",
    ),
    "a filter in a branch": (
        "{% if records %}<p>{{ profile.name|datetimeformat }}</p>{% endif %}",
        "themes/mine/templates/colophon.html:2: template error: no filter named 'datetimeformat'; did you mean 'date'?",
    ),
}


REFUSED = {
    "a method that changes a list": (
        "{% set years = [] %}{% for r in records %}{{ years.append(r.year) }}{% endfor %}",
        "themes/mine/templates/colophon.html:2: template refused by the sandbox: access to attribute 'append' of 'list' object is unsafe;"
        " the values templates get are never changed: make the value you need with filters,"
        ' `records|selectattr("venue_short")|list`, `records|map(attribute="year")|unique|list`',
    ),
    "a Python internal": (
        "{{ site.__class__ }}",
        "themes/mine/templates/colophon.html:2: template refused by the sandbox: access to attribute '__class__' of 'dict' object is unsafe;"
        " templates read the fields the values hold (docs/themes.md, What templates receive)",
    ),
}


@pytest.mark.parametrize("mistake", [*MISSPELT, *REFUSED])
def test_a_misspelt_name_or_what_the_sandbox_refuses_is_an_error_saying_what_to_write(tmp_path, capsys, mistake):
    """Jinja says "'dict object' has no attribute 'nmae'" or "No filter named 'upcase'.": the message names the value
    it was looked up in and the name most like it. What the sandbox refuses ('access to attribute 'append' of 'list'
    object is unsafe.') says what a designer used to `list.append` in another generator writes instead."""
    body, expected = {**MISSPELT, **REFUSED}[mistake]
    assert build_colophon(tmp_path, capsys, body, MINE + "settings:\n  motto: Hi\n")[:2] == (1, [expected])


def build_colophon(tmp_path: Path, capsys, main_block: str, theme_yaml: str = MINE) -> tuple[int, list[str], Path]:
    """Build a site whose colophon page fills base.html's `main` with `main_block` (at line 2): the exit status,
    stderr's lines and the site."""
    template = '{% extends "base.html" %}\n{% block main %}' + main_block + "{% endblock %}\n"
    site = theme_site(tmp_path, theme_yaml, {"themes/mine/templates/colophon.html": template})
    return (*sitegen(capsys, "build", "--site", str(site)), site)


def test_a_name_like_none_lists_what_there_is(tmp_path, capsys):
    template = '{% extends "base.html" %}\n{% block main %}{{ site.extra.zzzzzz }}{{ qqqqq }}{% endblock %}\n'
    site = theme_site(tmp_path, MINE + "settings:\n  motto: Hi\n", {"themes/mine/templates/colophon.html": template})
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 1
    assert lines[0].startswith("themes/mine/templates/colophon.html:2: template error in colophon.html: site.extra has no 'zzzzzz'; it has motto;")


def test_a_misspelt_string_key_names_the_key_meant(tmp_path, capsys):
    template = '{% extends "base.html" %}\n{% block main %}<h1>{{ _("mine.colofon") }}</h1>{% endblock %}\n'
    files = {"themes/mine/templates/colophon.html": template, "themes/mine/i18n/en.yaml": "mine:\n  colophon: Colophon\n"}
    site = theme_site(tmp_path, files=files)
    assert sitegen(capsys, "build", "--site", str(site)) == (
        1,
        [
            "themes/mine/templates/colophon.html:2: template error: no string 'mine.colofon' in the theme's translations (i18n/en.yaml);"
            " did you mean 'mine.colophon'?"
        ],
    )


# -- 14. |safe on a value, a block no parent has ------------------------------------------------------------------

EVIL_RECORD = {"content/records/x.yaml": 'id: x\ntitle: "Evil <script>alert(1)</script> paper"\nauthors: [Ada Lovelace]\nyear: 2020\n'}


def test_safe_on_a_value_is_a_warning_at_its_line_and_strict_stops(tmp_path, capsys):
    """`|safe`, copied from another generator's theme, turns a record's plain-text title into markup: the warning
    is at its line, and `check --strict` fails. What the template itself holds (a literal, a string of the
    theme's translations) may be `|safe` without a word."""
    template = (
        '{% extends "base.html" %}\n{% block main %}{{ "<hr>"|safe }}{{ strings["mine.note"]|safe }}\n'
        "{% for r in records %}<p>{{ r.title_text|safe }}</p>{% endfor %}{% endblock %}\n"
    )
    files = {"themes/mine/templates/colophon.html": template, "themes/mine/i18n/en.yaml": "mine:\n  note: <em>Hi</em>\n", **EVIL_RECORD}
    site = theme_site(tmp_path, files=files)
    status, lines = sitegen(capsys, "check", "--strict", "--site", str(site))
    assert status == 1
    assert [line for line in lines if "|safe" in line] == [
        "themes/mine/templates/colophon.html:3: warning: {{ r.title_text|safe }} prints the value's text as markup: a '<script>' in a record's"
        " title or abstract (from a .bib file, arXiv, a co-author's pull request) would run on the page. Values that hold HTML (title, source,"
        " abstract, body) are ready to print without it, and every other is text: remove it"
    ]


def test_autoescape_false_is_a_warning_and_the_values_printed_as_they_are_say_nothing(tmp_path, capsys):
    template = '{% extends "base.html" %}\n{% block main %}\n{% autoescape false %}{{ profile.name }}{% endautoescape %}{% endblock %}\n'
    site = theme_site(tmp_path, files={"themes/mine/templates/colophon.html": template, **EVIL_RECORD})
    status, lines = sitegen(capsys, "check", "--site", str(site))
    assert status == 0
    assert [line.partition(" prints")[0] for line in lines if "warning" in line] == ["themes/mine/templates/colophon.html:3: warning: {% autoescape false %}"]
    (site / "themes/mine/templates/colophon.html").write_text(
        '{% extends "base.html" %}\n{% block main %}{% for r in records %}<p>{{ r.title }}</p>{% endfor %}{% endblock %}\n'
    )
    assert sitegen(capsys, "build", "--site", str(site))[0] == 0
    page = BeautifulSoup((site / "output/colophon/index.html").read_text(), "html.parser")
    assert not [script for script in page.find_all("script") if "alert" in script.text]  # the record's script is text
    assert "Evil <script>alert(1)</script> paper" in [p.get_text() for p in page.select("main p")]


def test_a_misspelt_block_is_a_warning_naming_the_block_meant(tmp_path, capsys):
    """`{% block mian %}` in a page that extends base.html builds an empty page: Jinja renders only the blocks its
    parents have. The warning is at the block's line and names the parent's block meant."""
    template = '{% extends "base.html" %}\n{% block titel %}Colophon{% endblock %}\n{% block mian %}<p>Made here</p>{% endblock %}\n'
    site = theme_site(tmp_path, files={"themes/mine/templates/colophon.html": template})
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert status == 0
    assert [line for line in lines if "warning" in line] == [
        "themes/mine/templates/colophon.html:2: warning: 'base.html' and the templates it extends have no block 'titel', so what it holds shows nowhere;"
        " did you mean 'title'?",
        "themes/mine/templates/colophon.html:3: warning: 'base.html' and the templates it extends have no block 'mian', so what it holds shows nowhere;"
        " did you mean 'main'?",
    ]


def test_blocks_of_the_parents_chain_and_blocks_inside_blocks_say_nothing(tmp_path, capsys):
    """A site's base.html wrapping the theme's, a page extending a layout of the theme's (whose blocks come from
    base.html, and one its `main` holds): no warning."""
    files = {
        "templates/base.html": '{% extends "!theme/base.html" %}\n{% block head %}{{ super() }}<meta name="x" content="y">{% endblock %}\n',
        "themes/mine/templates/layout.html": '{% extends "base.html" %}\n{% block main %}{% block inner %}<p>Inner</p>{% endblock %}{% endblock %}\n',
        "themes/mine/templates/colophon.html": '{% extends "layout.html" %}\n{% block title %}Colophon{% endblock %}\n{% block inner %}<p>Made here</p>{% endblock %}\n',
    }
    site = theme_site(tmp_path, files=files)
    status, lines = sitegen(capsys, "build", "--site", str(site))
    assert (status, [line for line in lines if not line.startswith("built ")]) == (0, [])
    page = BeautifulSoup((site / "output/colophon/index.html").read_text(), "html.parser")
    assert [p.get_text() for p in page.select("main p")] == ["Made here"]
    assert page.find("meta", attrs={"name": "x"}) is not None


# -- 15. addresses in templates and stylesheets that break where the site lives ----------------------------------------

AT_A_PATH = "title: Test site\nbase_url: https://example.org/lab/\ntheme: mine\n"
ADDRESSES_BASE = (
    '{% extends "!theme/base.html" %}\n'
    '{% block head %}{{ super() }}<link rel="stylesheet" href="/static/mine.css">\n'
    '<link rel="icon" href="{{ site.static_url }}favicon.svg"><link rel="stylesheet" href="/lab/static/mine.css">{% endblock %}\n'
    '{% block footer %}<img src="static/logo.svg" alt=""> <a href="#top">Top</a> <a href="mailto:a@b.org">Mail</a>\n'
    ' <a href="https://example.org/">Uni</a> <a href="//cdn.example.org/x.js">CDN</a> <a href="/about/">About</a>{% endblock %}\n'
)


def warned(capsys, command: str, site: Path, *options: str) -> tuple[int, list[str]]:
    """Run `command` on the site: its exit status and the warnings it wrote."""
    status, lines = sitegen(capsys, command, "--site", str(site), *options)
    return status, [line for line in lines if "warning" in line]


def addresses_site(root: Path, site_yaml: str) -> Path:
    files = {"content/site.yaml": site_yaml, "templates/base.html": ADDRESSES_BASE, "static/mine.css": "p { color: red; }\n", "static/logo.svg": "<svg/>"}
    return theme_site(root, files=files)


def test_a_templates_path_from_the_domains_root_or_relative_is_a_warning_with_the_value_to_write(tmp_path, capsys):
    """`href="/static/mine.css"` in base.html works at a domain's root and leaves every page unstyled at
    https://example.org/lab/; `src="static/logo.svg"` works on the home page only. Each is a warning at its line
    naming the value that gives the address; fragments, web addresses, mailto: and the site's own path say nothing."""
    site = addresses_site(tmp_path, AT_A_PATH)
    assert warned(capsys, "check", site) == (
        0,
        [
            "templates/base.html:2: warning: '/static/mine.css' is a path from the domain's root, which leaves this site's path /lab/:"
            " write {{ site.static_url }}mine.css",
            "templates/base.html:4: warning: 'static/logo.svg' is a relative address, which each page reads from its own folder"
            " (records/<slug>/static/logo.svg on a record's page): write {{ site.static_url }}logo.svg",
            "templates/base.html:5: warning: '/about/' is a path from the domain's root, which leaves this site's path /lab/: write {{ site.home_url }}about/",
        ],
    )


def test_a_path_from_the_domains_root_at_a_site_at_the_root_says_nothing(tmp_path, capsys):
    status, warnings = warned(capsys, "check", addresses_site(tmp_path, AT_A_PATH.replace("/lab/", "/")))
    assert (status, [line.partition(": write")[0] for line in warnings]) == (
        0,
        [
            "templates/base.html:4: warning: 'static/logo.svg' is a relative address, which each page reads from its own folder (records/<slug>/static/logo.svg on a record's page)"
        ],
    )


MINE_CSS = (
    '@font-face { font-family: "Uni Sans"; src: url("fonts/UniSans.woff2") format("woff2"); }\n'
    '@font-face { font-family: "Uni Serif"; src: url(UniSerif.woff2) format("woff2"); }\n'
    "/* url(commented.png) */ header { background: url('/static/logo.svg'); }\n"
    ".a { background: url(data:image/png;base64,AAAA) , url(https://example.org/x.png), url(logo.svg#shape); }\n"
    "@import url(/lab/static/fonts/UniSans.woff2?v=2);\n"
)


def test_a_stylesheets_url_to_no_file_or_from_the_domains_root_is_a_warning_at_its_line(tmp_path, capsys):
    """A font the stylesheet names and static/ lacks shows the text in the next font, without a word; a
    `url(/static/...)` leaves a site at /lab/. Each is a warning at the stylesheet's line, with the address to write."""
    files = {
        "content/site.yaml": AT_A_PATH,
        "themes/mine/static/mine.css": MINE_CSS,
        "themes/mine/static/fonts/UniSans.woff2": "wOF2",
        "themes/mine/static/fonts/UniSerif.woff2": "wOF2",
        "static/logo.svg": "<svg/>",
    }
    site = theme_site(tmp_path, files=files)
    assert warned(capsys, "build", site) == (
        0,
        [
            "themes/mine/static/mine.css:2: warning: url(UniSerif.woff2) names no file: static/UniSerif.woff2 is in no static/ folder of the site"
            " or its themes; did you mean url(fonts/UniSerif.woff2)?",
            "themes/mine/static/mine.css:3: warning: url(/static/logo.svg) is a path from the domain's root, which leaves this site's path /lab/:"
            " write url(logo.svg), relative to this stylesheet",
        ],
    )
    assert (site / "output/static/fonts/UniSans.woff2").exists()


# -- 16. a string of the theme's own that one language lacks ---------------------------------------------------------

OWN_STRINGS = {
    "themes/mine/templates/colophon.html": '{% extends "base.html" %}{% block main %}<p>{{ _("mine.footer") }}</p><p>{{ _("mine.made") }}</p>{% endblock %}\n',
    "themes/mine/i18n/en.yaml": "mine:\n  made: Made here\n  footer: Department of Physics\n",
}


def test_a_string_of_the_themes_own_missing_in_the_sites_language_is_a_warning_naming_it(tmp_path, capsys):
    """`mine.footer` added to en.yaml and forgotten in de.yaml: German pages show it in English. The warning is at
    its line of en.yaml, names the key and the file to write it in; default's strings, which mine leaves to
    default's de.yaml, are not named."""
    files = {**OWN_STRINGS, "themes/mine/i18n/de.yaml": "mine:\n  made: Hier gemacht\n"}
    site = theme_site(tmp_path, files=files, language="de")
    assert warned(capsys, "build", site) == (
        0,
        [
            "themes/mine/i18n/en.yaml:3: warning: 'mine.footer' has no translation for 'de' in any theme's i18n/,"
            " so pages in 'de' show it in English; write it in themes/mine/i18n/de.yaml"
        ],
    )
    page = BeautifulSoup((site / "output/colophon/index.html").read_text(), "html.parser")
    assert [p.get_text() for p in page.select("main p")] == ["Department of Physics", "Hier gemacht"]


def test_a_language_with_every_string_of_the_themes_own_says_nothing_and_several_missing_are_one_warning(tmp_path, capsys):
    files = {**OWN_STRINGS, "themes/mine/i18n/de.yaml": "mine:\n  made: Hier gemacht\n  footer: Fachbereich Physik\n"}
    site = theme_site(tmp_path, files=files, language="de-CH")
    assert [line for line in sitegen(capsys, "check", "--strict", "--site", str(site))[1] if "warning" in line] == []
    (site / "themes/mine/i18n/de.yaml").write_text("menu:\n  news: Neues\n")
    assert [line for line in sitegen(capsys, "check", "--site", str(site))[1] if "warning" in line] == [
        "themes/mine/i18n/en.yaml:2: warning: 2 strings have no translation for 'de-CH' in any theme's i18n/ (mine.made, mine.footer),"
        " so pages in 'de-CH' show them in English; write them in themes/mine/i18n/de.yaml"
    ]


# -- 17. the menu's titles ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "expected"), [("en", ["Publications", "About"]), ("de", ["Publikationen", "About"])])
def test_every_menu_entry_has_a_title_ready_to_print_in_the_sites_language(tmp_path, capsys, language, expected):
    """`{{ entry.title }}` printed 'None' for the entries sitegen makes (Publications, News): their text was only
    `strings[entry.key]`. Now `title` is the text for every entry, `key` still names the string."""
    template = '{% extends "base.html" %}{% block main %}<ul class="m">{% for entry in site.menu %}<li>{{ entry.title }}</li>{% endfor %}</ul>{% endblock %}\n'
    files = {"themes/mine/templates/colophon.html": template, "content/pages/about.md": "---\ntitle: About\nnav: 1\n---\nHi.\n"}
    site = theme_site(tmp_path, files=files, language=language)
    assert sitegen(capsys, "build", "--site", str(site))[0] == 0
    page = BeautifulSoup((site / "output/colophon/index.html").read_text(), "html.parser")
    assert [item.get_text() for item in page.select("ul.m li")] == expected


# -- 18. what the sandbox refuses ----------------------------------------------------------------------------------


def test_a_new_value_made_with_filters_builds(tmp_path, capsys):
    status, _, site = build_colophon(tmp_path, capsys, '<p>{{ records|map(attribute="year")|unique|sort|join(", ") }}</p>')
    assert status == 0
    assert BeautifulSoup((site / "output/colophon/index.html").read_text(), "html.parser").select_one("main p").get_text() == "2022, 2024"


# -- 19. a theme's pages on a site in several languages ---------------------------------------------------------------


BILINGUAL = {
    "content/site.yaml": "title: Test site\nbase_url: https://example.org/\ntheme: mine\nlanguages: [en, de]\n",
    "themes/mine/templates/colophon.html": '{% extends "base.html" %}{% block main %}<h1>{{ _("mine.made") }}</h1><p>{{ records|length }} records</p>{% endblock %}\n',
    "themes/mine/i18n/en.yaml": "mine:\n  made: Made here\n",
    "themes/mine/i18n/de.yaml": "mine:\n  made: Hier gemacht\n",
}


def test_a_themes_page_is_made_in_each_language_of_the_site_with_its_strings(tmp_path, capsys):
    """`pages:` gave a site in English and German the colophon in English only, though the theme translates it:
    each language has its version now, under /de/, with its strings, and the language links join them."""
    site = theme_site(tmp_path, files=BILINGUAL)
    status, lines = sitegen(capsys, "build", "--site", str(site), "--strict")
    assert status == 0, lines
    english, german = (BeautifulSoup((site / path).read_text(), "html.parser") for path in ("output/colophon/index.html", "output/de/colophon/index.html"))
    assert (english.html["lang"], english.h1.get_text(), english.select_one("main p").get_text()) == ("en", "Made here", "2 records")
    assert (german.html["lang"], german.h1.get_text(), german.select_one("main p").get_text()) == ("de", "Hier gemacht", "2 records")
    assert "/de/colophon/" in [link["href"] for link in english.select("nav.languages a")]
    assert "https://example.org/de/colophon/" in (site / "output/sitemap.xml").read_text()


# -- 20. a theme named in other capitals, or by a path ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("theme", "hint"),
    [
        ("Mine", "; did you mean 'mine'?"),
        (
            "../shared/mine",
            "; a theme is named by its folder in themes/ (themes/<name>/), not by a path: copy the theme into themes/mine/ or add it there as a git submodule",
        ),
    ],
)
def test_an_unknown_theme_in_other_capitals_or_a_path_says_what_to_write(tmp_path, capsys, theme, hint):
    """`theme: Mine` for the folder themes/mine/ names the theme meant; a path to a theme shared between sites, which
    is not read (the site is a jail), says where the theme goes."""
    site = theme_site(tmp_path, files={"content/site.yaml": f"title: Test site\nbase_url: https://example.org/\ntheme: {theme}\n"})
    assert sitegen(capsys, "check", "--site", str(site)) == (
        1,
        [f"content/site.yaml:3: field 'theme': unknown theme '{theme}'; themes found: classic, default, mine{hint}"],
    )


def test_a_page_the_theme_declares_for_a_language_itself_is_that_languages_version(tmp_path, capsys):
    """A theme written before its pages were made in every language declared the German one itself
    (`de/colophon/index.html`, a template of its own): that page is the German version, not a second one."""
    pages = "  - {template: colophon_de.html, path: de/colophon/index.html}\n"
    files = {**BILINGUAL, "themes/mine/templates/colophon_de.html": '{% extends "base.html" %}{% block main %}<h1>Eigene Seite</h1>{% endblock %}\n'}
    site = theme_site(tmp_path, MINE + pages, files)
    status, lines = sitegen(capsys, "build", "--site", str(site), "--strict")
    assert status == 0, lines
    assert BeautifulSoup((site / "output/de/colophon/index.html").read_text(), "html.parser").h1.get_text() == "Eigene Seite"
    assert not (site / "output/de/de").exists()
