"""Stage 4: the enriched site, rendered into output files in memory.

The result maps each output path to its bytes; nothing is written here, so a
failed render leaves the previous site untouched.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from sitegen.errors import ContentError, Location, Problem
from sitegen.exports.bibtex import bibliography
from sitegen.exports.feed import atom_feed
from sitegen.exports.jsonld import records_json
from sitegen.exports.sitemap import robots_txt, sitemap
from sitegen.model import Site
from sitegen.theme import Theme, make_environment, static_files
from sitegen.urls import SiteUrls, record_path, subject_path
from sitegen.views import ViewBuilder


def render_site(site: Site, theme: Theme) -> dict[str, bytes]:
    urls = SiteUrls(site.config.base_url)
    statics = static_files(theme, site.site_dir)
    views = ViewBuilder(site, urls, list(statics))
    environment = make_environment(theme, site.site_dir)
    files: dict[str, bytes] = {}

    def page(template: str, output_path: str, context: dict) -> None:
        files[output_path] = _render(environment, template, context).encode("utf-8")

    page("index.html", "index.html", views.index_page())
    for entry in site.entries:
        page("record.html", record_path(entry.slug), views.record_page(entry))
    for subject in site.subjects:
        page("subject.html", subject_path(subject.slug), views.subject_page(subject))
    page("404.html", "404.html", views.not_found_page())

    absolute = views.record_absolute
    files["publications.bib"] = bibliography([(e, absolute[e.id]) for e in site.entries]).encode("utf-8")
    files["feed.xml"] = atom_feed(site, urls.absolute("feed.xml"), urls.absolute("index.html"), absolute)
    files["records.json"] = records_json(site, absolute)
    page_paths = ["index.html"] + [record_path(e.slug) for e in site.entries] + [subject_path(s.slug) for s in site.subjects]
    files["sitemap.xml"] = sitemap([urls.absolute(p) for p in page_paths])
    files["robots.txt"] = robots_txt(urls.absolute("sitemap.xml"))
    files[".nojekyll"] = b""
    if site.config.cname:
        files["CNAME"] = site.config.cname.encode() + b"\n"
    for name, source in statics.items():
        files[f"static/{name}"] = source.read_bytes()
    return dict(sorted(files.items()))


def _render(environment: jinja2.Environment, template: str, context: dict) -> str:
    try:
        return environment.get_template(template).render(context)
    except jinja2.TemplateSyntaxError as error:
        where = Location(_template_path(error.filename, error.name), error.lineno)
        raise ContentError(Problem(f"template error: {error.message}", where)) from error
    except jinja2.TemplateNotFound as error:
        raise ContentError(Problem(f"template not found: {error.name} (needed for {template})")) from error
    except jinja2.UndefinedError as error:
        raise ContentError(Problem(f"template error in {template}: {error.message}", _traceback_location(error))) from error


def _template_path(filename: str | None, name: str | None) -> str:
    return filename or name or "<template>"


def _traceback_location(error: Exception) -> Location | None:
    """The template file and line where rendering failed, from the traceback."""
    tb = error.__traceback__
    found = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith((".html", ".xml", ".txt")) and Path(filename).exists():
            found = Location(filename, tb.tb_lineno)
        tb = tb.tb_next
    return found
