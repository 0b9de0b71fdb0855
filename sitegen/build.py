"""The one orchestrator: load -> validate -> enrich -> render -> write.

`build`, `check`, `serve` and `fetch` all come through here, so they agree on
what a valid site is.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path

from sitegen.enrich import enrich_site
from sitegen.errors import ContentError, Location, Problem
from sitegen.load import load_site
from sitegen.model import Site
from sitegen.render import render_site
from sitegen.theme import Theme, ThemeError, find_theme, static_files
from sitegen.validate import validate_site
from sitegen.write import write_output


@dataclass
class BuildResult:
    files: dict[str, bytes]
    warnings: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    output_dir: Path | None = None

    @property
    def pages(self) -> int:
        return sum(1 for name in self.files if name.endswith(".html"))


def prepare_site(site_dir: Path, base_url: str | None = None) -> tuple[Site, Theme, list[Problem]]:
    """Load, validate and enrich; raises ContentError with every problem found."""
    site_dir = Path(site_dir)
    raw = load_site(site_dir)
    valid = validate_site(raw)
    problems = list(valid.problems)
    theme = None
    if valid.config is not None:
        try:
            theme = find_theme(valid.config.theme, site_dir, _theme_location(raw))
        except ThemeError as error:
            problems.append(error.problem)
    errors = [p for p in problems if not p.warning]
    if errors or valid.config is None or valid.profile is None or theme is None:
        raise ContentError(errors or problems)
    config = valid.config if base_url is None else dataclasses.replace(valid.config, base_url=base_url)
    site, enrich_warnings = enrich_site(config, valid.profile, valid.records, site_dir)
    warnings = [p for p in problems if p.warning] + enrich_warnings + _photo_warnings(site, theme, raw)
    return site, theme, warnings


def render(site_dir: Path, base_url: str | None = None) -> BuildResult:
    started = time.perf_counter()
    site, theme, warnings = prepare_site(site_dir, base_url)
    files = render_site(site, theme)
    return BuildResult(files, warnings, time.perf_counter() - started)


def build_site(site_dir: Path, output_dir: Path | None = None, base_url: str | None = None) -> BuildResult:
    """Build the site into output_dir (default: site_dir/output), all or nothing."""
    started = time.perf_counter()
    result = render(site_dir, base_url)
    output_dir = Path(output_dir) if output_dir is not None else Path(site_dir) / "output"
    write_output(result.files, output_dir)
    result.output_dir = output_dir
    result.seconds = time.perf_counter() - started
    return result


def check_site(site_dir: Path) -> BuildResult:
    """Everything a build does but writing."""
    return render(site_dir)


def _theme_location(raw) -> Location | None:
    if raw.site is None:
        return None
    data = raw.site.data
    line = data.line_of("theme") if hasattr(data, "line_of") else None
    return Location(raw.site.display_path, line)


def _photo_warnings(site: Site, theme: Theme, raw) -> list[Problem]:
    photo = site.profile.photo
    if not photo or photo in static_files(theme, site.site_dir):
        return []
    line = raw.profile.data.line_of("photo") if raw.profile is not None else None
    where = Location(raw.profile.display_path if raw.profile else "content/profile.yaml", line)
    return [Problem(f"field 'photo': no file static/{photo} in the site; the photo is left out", where, warning=True)]
