"""Themes: lookup by name, the site's own themes, template and static overrides."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from markupsafe import Markup, escape

from conftest import write_site
from sitegen.theme import BUNDLED_THEMES, ThemeError, available_themes, find_theme, make_environment, print_html, static_files, template_dirs


def test_the_default_theme_ships_with_sitegen(tmp_path):
    theme = find_theme("default", tmp_path)
    assert theme.root == BUNDLED_THEMES / "default"
    assert theme.parent is None
    assert (theme.root / "templates" / "base.html").is_file()


def test_a_sites_own_theme_is_found_by_name(tmp_path):
    write_site(tmp_path, {"themes/plain/templates/base.html": "plain"})
    theme = find_theme("plain", tmp_path)
    assert theme.root == tmp_path / "themes" / "plain"
    assert "plain" in available_themes(tmp_path) and "default" in available_themes(tmp_path)


def test_a_sites_theme_shadows_a_bundled_one_of_the_same_name(tmp_path):
    write_site(tmp_path, {"themes/default/templates/base.html": "mine"})
    assert find_theme("default", tmp_path).root == tmp_path / "themes" / "default"


def test_a_folder_without_templates_is_no_theme(tmp_path):
    write_site(tmp_path, {"themes/broken/static/style.css": ""})
    with pytest.raises(ThemeError):
        find_theme("broken", tmp_path)
    assert "broken" not in available_themes(tmp_path)


def test_unknown_theme_names_itself_and_the_themes_found(tmp_path):
    write_site(tmp_path, {"themes/plain/templates/base.html": ""})
    with pytest.raises(ThemeError) as caught:
        find_theme("fancy", tmp_path)
    assert str(caught.value.problem) == "field 'theme': unknown theme 'fancy'; themes found: default, plain"


def test_a_theme_may_extend_another(tmp_path):
    write_site(tmp_path, {
        "themes/child/theme.yaml": "extends: default\n",
        "themes/child/templates/record.html": "child record",
        "themes/child/static/child.css": "x",
        "themes/child/static/style.css": "child style",
    })
    theme = find_theme("child", tmp_path)
    assert [t.name for t in theme.chain()] == ["child", "default"]
    assert template_dirs(theme, tmp_path) == [tmp_path / "themes/child/templates", BUNDLED_THEMES / "default/templates"]
    env = make_environment(theme, tmp_path)
    assert env.get_template("record.html").render() == "child record"
    assert env.get_template("base.html").filename == str(BUNDLED_THEMES / "default/templates/base.html")
    statics = static_files(theme, tmp_path)
    assert statics["style.css"] == tmp_path / "themes/child/static/style.css"
    assert statics["child.css"] == tmp_path / "themes/child/static/child.css"
    assert statics["favicon.svg"] == BUNDLED_THEMES / "default/static/favicon.svg"


def test_a_broken_theme_yaml_is_a_problem_with_its_place(tmp_path):
    write_site(tmp_path, {"themes/x/theme.yaml": "extends: [default\n", "themes/x/templates/base.html": ""})
    with pytest.raises(ThemeError) as caught:
        find_theme("x", tmp_path)
    assert str(caught.value.problem).startswith("themes/x/theme.yaml:2:1: invalid YAML: did not find expected ',' or ']'")
    (tmp_path / "themes/x/theme.yaml").write_bytes(b"\xff\xfe")
    with pytest.raises(ThemeError) as caught:
        find_theme("x", tmp_path)
    assert str(caught.value.problem).startswith("themes/x/theme.yaml: cannot read theme settings:")


def test_themes_extending_each_other_do_not_loop(tmp_path):
    write_site(tmp_path, {
        "themes/a/theme.yaml": "extends: b\n", "themes/a/templates/x.html": "",
        "themes/b/theme.yaml": "extends: a\n", "themes/b/templates/y.html": "",
    })
    assert [t.name for t in find_theme("a", tmp_path).chain()] == ["a", "b"]


def test_site_templates_come_first(tmp_path):
    write_site(tmp_path, {"templates/record.html": "site record", "templates/partials/x.html": "partial"})
    theme = find_theme("default", tmp_path)
    assert template_dirs(theme, tmp_path)[0] == tmp_path / "templates"
    env = make_environment(theme, tmp_path)
    assert env.get_template("record.html").render() == "site record"
    assert env.get_template("partials/x.html").render() == "partial"
    assert env.get_template("index.html").filename == str(BUNDLED_THEMES / "default/templates/index.html")


def test_bang_theme_reaches_the_themes_file_when_the_site_shadows_it(tmp_path):
    write_site(tmp_path, {
        "templates/base.html": '{% extends "!theme/base.html" %}{% block title %}site title{% endblock %}',
    })
    env = make_environment(find_theme("default", tmp_path), tmp_path)
    template = env.get_template("base.html")
    assert template.filename == str(tmp_path / "templates/base.html")
    source, filename, _ = env.loader.get_source(env, "!theme/base.html")
    assert filename == str(BUNDLED_THEMES / "default/templates/base.html")


def test_templates_are_autoescaped_and_strict(tmp_path):
    write_site(tmp_path, {"templates/t.html": "{{ value }}", "templates/u.html": "{{ missing.name }}"})
    env = make_environment(find_theme("default", tmp_path), tmp_path)
    assert env.get_template("t.html").render(value="<script>") == "&lt;script&gt;"
    with pytest.raises(Exception):
        env.get_template("u.html").render()


class _Html:
    def __html__(self):
        return "<b>safe</b>"


PRINTED = ["<script>&\"'", Markup("<i>kept</i>"), 3, 2.5, None, True, _Html(), type("Text", (str,), {})("a<b")]
TEMPLATE = (
    "{% macro m(v) %}<{{ v }}>{% endmacro %}"
    "{% for v in values %}[{{ v }}|{{ m(v) }}|{% set s %}{{ v }}{% endset %}{{ s }}|{{ v ~ '&' }}|{{ v|string|upper }}"
    "|{% autoescape false %}{{ v }}{% endautoescape %}]{% endfor %}"
)


def test_printed_values_are_escaped_exactly_as_markupsafe_escapes_them(tmp_path):
    """`{{ value }}` compiles to the shortcut `print_html`; the page must read the same as
    with Jinja's own compiler, in output tags, macros, set blocks and unescaped blocks."""
    env = make_environment(find_theme("default", tmp_path), tmp_path)
    plain = jinja2.Environment(autoescape=True)
    assert "print_html" in env.compile(TEMPLATE, raw=True)
    assert env.from_string(TEMPLATE).render(values=PRINTED) == plain.from_string(TEMPLATE).render(values=PRINTED)
    for value in PRINTED:
        assert print_html(value) == escape(value)
    with pytest.raises(jinja2.UndefinedError):  # strict undefined values still fail, as escape() makes them
        env.from_string("{{ nothing }}").render()


def test_compiled_templates_of_another_sitegen_are_not_read(tmp_path):
    """Compiled code names `print_html`: a file compiled by another version of sitegen may
    not have it (or hold what that version's code generator made), so it is not used."""
    write_site(tmp_path, {"templates/t.html": "{{ value }}"})
    cached = tmp_path / "bytecode"
    cached.mkdir()
    (cached / "__jinja2_0123.cache").write_bytes(b"from an older version")
    env = make_environment(find_theme("default", tmp_path), tmp_path, cached)
    assert env.get_template("t.html").render(value="<") == "&lt;"
    names = [path.name for path in cached.iterdir()]
    assert len(names) == 1 and names[0] != "__jinja2_0123.cache"
    again = make_environment(find_theme("default", tmp_path), tmp_path, cached)
    assert again.get_template("t.html").render(value="&") == "&amp;"
    assert [path.name for path in cached.iterdir()] == names


def test_site_static_files_override_the_themes(tmp_path):
    write_site(tmp_path, {"static/style.css": "mine", "static/img/me.png": "png", "static/.DS_Store": "junk"})
    statics = static_files(find_theme("default", tmp_path), tmp_path)
    assert statics["style.css"] == tmp_path / "static/style.css"
    assert statics["img/me.png"] == tmp_path / "static/img/me.png"
    assert ".DS_Store" not in statics
    assert statics["favicon.svg"] == BUNDLED_THEMES / "default/static/favicon.svg"
    assert list(statics) == sorted(statics)
