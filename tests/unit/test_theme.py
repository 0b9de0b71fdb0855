"""Themes: lookup by name, the site's own themes, template and static overrides."""

from __future__ import annotations

import collections
import re
import shutil

import jinja2
import jinja2.sandbox
import pytest
from conftest import REPO, copy_demo, write_site
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.inputs import BUNDLED_PREFIX, list_inputs
from sitegen.theme import (
    DICT_ATTRIBUTES,
    REQUIRED_TEMPLATES,
    SiteSandbox,
    ThemeError,
    available_themes,
    find_theme,
    make_environment,
    static_sources,
    template_prefixes,
)

DEFAULT = f"{BUNDLED_PREFIX}default/"
DEFAULT_FOLDER = REPO / "sitegen" / "themes" / "default" / "templates"


def test_the_default_theme_ships_with_sitegen(tmp_path):
    theme = find_theme("default", list_inputs(tmp_path))
    assert theme.prefix == DEFAULT
    assert theme.parent is None
    assert f"{DEFAULT}templates/base.html" in list_inputs(tmp_path).files


def test_a_sites_own_theme_is_found_by_name(tmp_path):
    write_site(tmp_path, {"themes/plain/templates/base.html": "plain"})
    theme = find_theme("plain", list_inputs(tmp_path))
    assert theme.prefix == "themes/plain/"
    assert "plain" in available_themes(list_inputs(tmp_path)) and "default" in available_themes(list_inputs(tmp_path))


def test_a_sites_theme_shadows_a_bundled_one_of_the_same_name(tmp_path):
    write_site(tmp_path, {"themes/default/templates/base.html": "mine"})
    assert find_theme("default", list_inputs(tmp_path)).prefix == "themes/default/"


def test_a_folder_of_other_files_is_no_theme(tmp_path):
    write_site(tmp_path, {"themes/notes/README.md": "", "themes/notes/drafts/x.html": ""})
    with pytest.raises(ThemeError):
        find_theme("notes", list_inputs(tmp_path))
    assert "notes" not in available_themes(list_inputs(tmp_path))


@pytest.mark.parametrize(
    "files",
    [
        {"themes/mine/theme.yaml": "name: mine\nextends: default\n", "themes/mine/i18n/fr.yaml": "menu: {news: Actualités}\n"},
        {"themes/mine/theme.yaml": "name: mine\nextends: default\n"},
        {"themes/mine/theme.yaml": "extends: classic\n", "themes/mine/static/style.css": ""},
    ],
    ids=["theme.yaml and i18n", "theme.yaml alone", "theme.yaml and static"],
)
def test_a_theme_holds_only_the_files_it_adds_or_changes(tmp_path, files):
    """docs/themes.md: a theme needs no template of its own; its parent's fill in."""
    write_site(tmp_path, files)
    theme = find_theme("mine", list_inputs(tmp_path))
    assert theme.prefix == "themes/mine/" and theme.parent is not None
    assert "mine" in available_themes(list_inputs(tmp_path))
    assert make_environment(theme, list_inputs(tmp_path)).get_template("base.html").filename.startswith(BUNDLED_PREFIX)


def test_a_sites_default_with_only_a_translation_builds_on_the_bundled_default(tmp_path):
    write_site(tmp_path, {"themes/default/i18n/fr.yaml": "menu: {news: Actualités}\n"})
    theme = find_theme("default", list_inputs(tmp_path))
    assert [member.prefix for member in theme.chain()] == ["themes/default/", DEFAULT]
    assert make_environment(theme, list_inputs(tmp_path), "fr").globals["strings"]["menu.news"] == "Actualités"


def test_a_theme_without_templates_that_extends_none_says_what_to_write(tmp_path):
    write_site(tmp_path, {"themes/bare/static/style.css": "", "themes/bare/i18n/fr.yaml": ""})
    assert "bare" in available_themes(list_inputs(tmp_path))
    with pytest.raises(ThemeError) as caught:
        find_theme("bare", list_inputs(tmp_path))
    assert str(caught.value.problem) == (
        "field 'theme': the theme 'bare' (themes/bare/) has no templates and extends no theme that has;"
        " write `extends: default` in themes/bare/theme.yaml to build on default"
    )


def test_unknown_theme_names_itself_and_the_themes_found(tmp_path):
    write_site(tmp_path, {"themes/plain/templates/base.html": ""})
    with pytest.raises(ThemeError) as caught:
        find_theme("fancy", list_inputs(tmp_path))
    assert str(caught.value.problem) == "field 'theme': unknown theme 'fancy'; themes found: classic, default, plain"


def test_a_theme_may_extend_another(tmp_path):
    write_site(
        tmp_path,
        {
            "themes/child/theme.yaml": "extends: default\n",
            "themes/child/templates/record.html": "child record",
            "themes/child/static/child.css": "x",
            "themes/child/static/style.css": "child style",
        },
    )
    theme = find_theme("child", list_inputs(tmp_path))
    assert [t.name for t in theme.chain()] == ["child", "default"]
    assert template_prefixes(theme) == ["templates/", "themes/child/templates/", f"{DEFAULT}templates/"]
    env = make_environment(theme, list_inputs(tmp_path))
    assert env.get_template("record.html").render() == "child record"
    assert env.get_template("base.html").filename == f"{DEFAULT}templates/base.html"
    statics = static_sources(theme, list_inputs(tmp_path))
    assert statics["style.css"] == "themes/child/static/style.css"
    assert statics["child.css"] == "themes/child/static/child.css"
    assert statics["favicon.svg"] == f"{DEFAULT}static/favicon.svg"


def test_a_broken_theme_yaml_is_a_problem_with_its_place(tmp_path):
    write_site(tmp_path, {"themes/x/theme.yaml": "extends: [default\n", "themes/x/templates/base.html": ""})
    with pytest.raises(ThemeError) as caught:
        find_theme("x", list_inputs(tmp_path))
    assert str(caught.value.problem).startswith("themes/x/theme.yaml:2:1: invalid YAML: did not find expected ',' or ']'")
    (tmp_path / "themes/x/theme.yaml").write_bytes(b"\xff\xfe")
    with pytest.raises(ThemeError) as caught:
        find_theme("x", list_inputs(tmp_path))
    assert str(caught.value.problem).startswith("themes/x/theme.yaml:1: not UTF-8 text (it looks like UTF-16): save the file as UTF-8 (in Notepad: ")


def test_themes_extending_each_other_are_an_error_naming_the_loop(tmp_path):
    write_site(
        tmp_path,
        {
            "themes/a/theme.yaml": "extends: b\n",
            "themes/a/templates/x.html": "",
            "themes/b/theme.yaml": "extends: a\n",
            "themes/b/templates/y.html": "",
        },
    )
    with pytest.raises(ThemeError) as caught:
        find_theme("a", list_inputs(tmp_path))
    assert str(caught.value.problem) == (
        "themes/b/theme.yaml:1: field 'extends': the themes extend each other in a loop (a -> b -> a); one of them must extend a theme outside it (default)"
    )


def test_site_templates_come_first(tmp_path):
    write_site(tmp_path, {"templates/record.html": "site record", "templates/partials/x.html": "partial"})
    theme = find_theme("default", list_inputs(tmp_path))
    assert template_prefixes(theme)[0] == "templates/"
    env = make_environment(theme, list_inputs(tmp_path))
    assert env.get_template("record.html").render() == "site record"
    assert env.get_template("partials/x.html").render() == "partial"
    assert env.get_template("index.html").filename == f"{DEFAULT}templates/index.html"


def test_bang_theme_reaches_the_themes_file_when_the_site_shadows_it(tmp_path):
    write_site(
        tmp_path,
        {
            "templates/base.html": '{% extends "!theme/base.html" %}{% block title %}site title{% endblock %}',
        },
    )
    env = make_environment(find_theme("default", list_inputs(tmp_path)), list_inputs(tmp_path))
    template = env.get_template("base.html")
    assert template.filename == "templates/base.html"
    source, filename, _ = env.loader.get_source(env, "!theme/base.html")
    assert filename == f"{DEFAULT}templates/base.html"


def _compiled_names(monkeypatch) -> list[str]:
    """The names of the templates Jinja compiles from here on (the compiled ones kept are not)."""
    names: list[str] = []
    compile_source = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return compile_source(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return names


def test_a_template_compiled_once_serves_the_next_build_until_its_text_changes(tmp_path, monkeypatch):
    write_site(tmp_path, {"templates/t.html": "first {{ value }}", "templates/u.html": "kept {{ value }}"})
    first = make_environment(find_theme("default", list_inputs(tmp_path)), list_inputs(tmp_path))
    assert first.get_template("t.html").render(value=1) == "first 1"
    assert first.get_template("u.html").render(value=1) == "kept 1"

    (tmp_path / "templates" / "t.html").write_text("second {{ value }}")
    compiled = _compiled_names(monkeypatch)
    second = make_environment(find_theme("default", list_inputs(tmp_path)), list_inputs(tmp_path))
    assert second.get_template("t.html").render(value=2) == "second 2"  # its new text, not the code kept
    assert second.get_template("u.html").render(value=2) == "kept 2"
    assert compiled == ["t.html"]


def test_a_template_kept_compiled_is_compiled_again_for_other_strings(tmp_path, monkeypatch):
    """`_("key")` is put into the code when a template is compiled: the same file in another language, or with the
    site's own translation of a string, is not the same code."""
    write_site(tmp_path, {"templates/t.html": '{{ _("menu.publications") }}'})
    theme = find_theme("default", list_inputs(tmp_path))
    assert make_environment(theme, list_inputs(tmp_path), "en").get_template("t.html").render() == "Publications"
    compiled = _compiled_names(monkeypatch)
    assert make_environment(theme, list_inputs(tmp_path), "de").get_template("t.html").render() == "Publikationen"
    assert compiled == ["t.html"]

    write_site(tmp_path, {"themes/default/i18n/en.yaml": "menu:\n  publications: Papers\n"})
    theme = find_theme("default", list_inputs(tmp_path))
    assert make_environment(theme, list_inputs(tmp_path), "en").get_template("t.html").render() == "Papers"


_TEMPLATE_PIECES = st.sampled_from(['{{ _("menu.publications") }}', "{{ value }}", "{% if value %}yes{% endif %}", "text ", '{% include "u.html" %}'])
_SITE_STATE = st.tuples(
    st.lists(_TEMPLATE_PIECES, min_size=1, max_size=4).map("".join),  # t.html
    st.sampled_from(["u", 'u {{ _("menu.publications") }}', "u {{ value }}"]),  # u.html, which t.html may include
    st.sampled_from(["en", "de"]),
    st.one_of(st.none(), st.sampled_from(["Papers", "Writing"])),  # the site's own translation of the string
)


@settings(max_examples=40, deadline=None)
@given(states=st.lists(_SITE_STATE, min_size=1, max_size=6))
def test_templates_kept_compiled_render_as_templates_compiled_afresh(tmp_path_factory, states):
    """Whatever the templates' text, the language and the site's strings were in the builds before, a build's
    templates render as the same templates compiled afresh do."""
    site = tmp_path_factory.mktemp("site")
    for t_text, u_text, language, own_string in states:
        files = {"templates/t.html": t_text, "templates/u.html": u_text}
        if own_string:
            files["themes/default/i18n/en.yaml"] = f"menu:\n  publications: {own_string}\n"
        else:
            shutil.rmtree(site / "themes", ignore_errors=True)
        write_site(site, files)
        theme = find_theme("default", list_inputs(site))
        kept = make_environment(theme, list_inputs(site), language)
        afresh = make_environment(theme, list_inputs(site), language)
        afresh.bytecode_cache = None
        for value in (0, "<b>"):
            assert kept.get_template("t.html").render(value=value) == afresh.get_template("t.html").render(value=value)


def test_templates_are_autoescaped_and_strict(tmp_path):
    write_site(tmp_path, {"templates/t.html": "{{ value }}", "templates/u.html": "{{ missing.name }}"})
    env = make_environment(find_theme("default", list_inputs(tmp_path)), list_inputs(tmp_path))
    assert env.get_template("t.html").render(value="<script>") == "&lt;script&gt;"
    with pytest.raises(jinja2.UndefinedError):
        env.get_template("u.html").render()


def test_templates_run_in_the_sandbox(tmp_path):
    import jinja2.sandbox

    write_site(tmp_path, {"templates/t.html": "{{ value.__class__ }}", "templates/u.html": "{{ values.append(1) }}"})
    env = make_environment(find_theme("default", list_inputs(tmp_path)), list_inputs(tmp_path))
    with pytest.raises(jinja2.sandbox.SecurityError):
        env.get_template("t.html").render(value="x")
    with pytest.raises(jinja2.sandbox.SecurityError):
        env.get_template("u.html").render(values=[])


def _answer(environment: jinja2.Environment, source: str, value: object) -> str:
    """What a template prints for `value`, or the error it fails with."""
    try:
        return environment.from_string(source).render(value=value)
    except Exception as error:  # the answer compared is the failure, whatever its kind
        return f"{type(error).__name__}: {error}"


NAMES = st.sampled_from(sorted(DICT_ATTRIBUTES)) | st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    keys=st.lists(NAMES, max_size=4),
    name=NAMES,
    kind=st.sampled_from([dict, collections.OrderedDict, collections.defaultdict]),
    undefined=st.sampled_from([jinja2.StrictUndefined, jinja2.Undefined]),
)
def test_the_sites_sandbox_answers_every_lookup_as_jinjas_own(keys, name, kind, undefined):
    """`value.name` prints, tests and fails the same in SiteSandbox as in Jinja's immutable sandbox,
    for a plain dict (its fast path), dict subclasses, keys that shadow dict's methods and names it lacks."""
    value = kind() if kind is collections.defaultdict else kind((key, f"<{key}>") for key in keys)
    if kind is collections.defaultdict:
        value.update((key, f"<{key}>") for key in keys)
    ours = SiteSandbox(autoescape=True, undefined=undefined)
    theirs = jinja2.sandbox.ImmutableSandboxedEnvironment(autoescape=True, undefined=undefined)
    for source in (f"{{{{ value.{name} }}}}", f"{{{{ value.{name} is defined }}}}", f"{{{{ value.{name} is callable }}}}", f"{{{{ value.{name}() }}}}"):
        assert _answer(ours, source, value) == _answer(theirs, source, value), source


def test_site_static_files_override_the_themes(tmp_path):
    write_site(tmp_path, {"static/style.css": "mine", "static/img/me.png": "png", "static/.DS_Store": "junk"})
    statics = static_sources(find_theme("default", list_inputs(tmp_path)), list_inputs(tmp_path))
    assert statics["style.css"] == "static/style.css"
    assert statics["img/me.png"] == "static/img/me.png"
    assert ".DS_Store" not in statics
    assert statics["favicon.svg"] == f"{DEFAULT}static/favicon.svg"
    assert list(statics) == sorted(statics)


# -- docs/themes.md's reference ------------------------------------------------------------------------

DOCS = REPO / "docs" / "themes.md"
EVERY_PAGE = {"site", "page_url", "canonical_url", "page_image", "icons", "alternates", "og_locale_alternates", "language_links"}


def documented_templates() -> dict[str, str]:
    """docs/themes.md's table of templates: each template named in a row's first cell -> the row's last cell."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("## The templates") : text.index("## What templates receive")]
    rows = [line.split("|")[1:-1] for line in table.splitlines() if line.startswith("| `")]
    return {name: cells[-1] for cells in rows for name in re.findall(r"`([^`]+)`", cells[0])}


def test_the_docs_name_every_template_of_the_default_theme():
    shipped = {path.relative_to(DEFAULT_FOLDER).as_posix() for path in DEFAULT_FOLDER.rglob("*.html")}
    assert shipped - documented_templates().keys() == set(), "templates docs/themes.md does not name"
    assert documented_templates().keys() - shipped == set(), "templates docs/themes.md names that the theme does not have"


@pytest.mark.parametrize("site", ["demo", "people"])
def test_the_docs_name_every_value_each_template_receives(tmp_path, monkeypatch, site):
    import sitegen.render
    from sitegen.build import check_site

    received = collections.defaultdict(set)
    fields: dict[str, set[str]] = collections.defaultdict(set)  # 'record.links[]' -> the keys of each record link
    render = sitegen.render.render_template

    def spy(environment, template, values):
        received[template] |= set(values)
        for name in NESTED_VALUES:
            _collect(fields, name, values.get(name))
        return render(environment, template, values)

    monkeypatch.setattr(sitegen.render, "render_template", spy)
    folder = copy_demo(tmp_path / "site") if site == "demo" else shutil.copytree(REPO / "tests/fixtures/people/lab", tmp_path / "site")
    check_site(folder)
    documented = documented_templates()
    every_page = [line for line in DOCS.read_text(encoding="utf-8").splitlines() if "| every page |" in line]
    assert EVERY_PAGE <= set(re.findall(r"`([a-z_]+)`", "".join(every_page)))
    assert received.keys() <= REQUIRED_TEMPLATES, "templates sitegen renders that a theme extending none need not have"
    for template, names in received.items():
        row = set(re.findall(r"`([a-z_]+)`", documented[template]))
        assert names - EVERY_PAGE - row == set(), f"values of {template} its row in docs/themes.md does not name"
    rows = received_rows()
    for path, keys in fields.items():
        assert keys - rows[path.split(".")[0].removesuffix("[]")] == set(), f"fields of {path} docs/themes.md's rows for it do not name"


NESTED_VALUES = ("record", "profile", "pagination", "years", "people", "person")


def _collect(fields: dict[str, set[str]], path: str, value: object, depth: int = 0) -> None:
    """The keys of every mapping in `value`, by where it is: 'record', 'record.authors[]', 'years[].talks[]'."""
    if depth > 3:
        return
    if isinstance(value, dict):
        fields[path] |= set(value)
        for key, inner in value.items():
            if key != "extra":  # what the site writes
                _collect(fields, f"{path}.{key}", inner, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value[:20]:
            _collect(fields, f"{path}[]", item, depth + 1)


def received_rows() -> dict[str, set[str]]:
    """docs/themes.md's table of what templates receive: each name in a row's first cell -> every name its row has."""
    text = DOCS.read_text(encoding="utf-8")
    table = text[text.index("## What templates receive") : text.index("Beside the values, every template has")]
    rows: dict[str, set[str]] = collections.defaultdict(set)
    for line in table.splitlines():
        if line.startswith("| `"):
            cells = line.split("|")[1:-1]
            for name in re.findall(r"`([a-z_]+)`", cells[0]):
                rows[name] |= set(re.findall(r"`([a-z_]+)`", line))
    return rows


def test_every_language_the_default_theme_speaks_has_the_sample_text_init_writes():
    """`init --language X` writes the bio and About page in X when the theme has strings in X: a language added to
    the theme without its sample text would start a site with English text under lang=X."""
    from importlib import resources

    package = resources.files("sitegen")
    spoken = {file.name for file in package.joinpath("themes/default/i18n").iterdir() if file.name.endswith(".yaml")}
    samples = {file.name for file in package.joinpath("sample_text").iterdir() if file.name.endswith(".yaml")}
    regional = {name for name in spoken if "-" in name}  # fr-CA.yaml: the few words Québec writes otherwise; fr's sample text
    assert spoken - regional == samples
    assert {name.split("-")[0] + ".yaml" for name in regional} <= samples


def test_every_languages_sample_text_has_every_text_the_english_one_has():
    """A text missing from a language's sample file falls back to English without a word: `init --language fr` wrote
    site.yaml's description and a lab's sample member in English on a French site."""
    from importlib import resources

    import yaml

    folder = resources.files("sitegen").joinpath("sample_text")
    english = set(yaml.safe_load(folder.joinpath("en.yaml").read_text(encoding="utf-8")))
    for file in folder.iterdir():
        if file.name.endswith(".yaml"):
            assert set(yaml.safe_load(file.read_text(encoding="utf-8"))) == english, file.name


@pytest.mark.parametrize(
    ("language", "start", "end", "shown"),
    [
        ("en", "2023-06-12", "2023-06-15", "June 12–15, 2023"),
        ("en", "2023-06-30", "2023-07-02", "June 30 – July 2, 2023"),
        ("en", "2023-12-30", "2024-01-02", "December 30, 2023 – January 2, 2024"),  # two years: each end whole
        ("en", "2023-06-12", "2023-06-12", "June 12, 2023"),
        ("en", "2023-06", "2023-07", "June 2023 – July 2023"),  # months, not days: each end as it is written
        ("en", "2023-06-12", "next week", "June 12, 2023 – next week"),
        ("fr", "2023-06-12", "2023-06-15", "12–15 juin 2023"),
        ("de", "2023-06-12", "2023-06-15", "12.–15. Juni 2023"),
        ("es", "2023-06-30", "2023-07-02", "30 de junio – 2 de julio de 2023"),
        ("ca", "2023-04-12", "2023-04-15", "12–15 d'abril de 2023"),
        ("ja", "2023-06-12", "2023-06-15", "2023年6月12日～15日"),
    ],
)
def test_a_meetings_days_are_written_as_the_language_writes_a_range(language, start, end, shown):
    """biblatex's `eventdate` on a record page: 'June 12–15, 2023', as CLDR's interval formats and Chicago write it,
    not 'June 12, 2023 – June 15, 2023'."""
    from sitegen.theme import format_date_range, theme_strings

    listing = list_inputs(REPO / "content")
    strings = theme_strings(find_theme("default", listing), listing, language)
    assert format_date_range(start, end, strings) == shown
