"""`sitegen build` and `sitegen check`: report what the pipeline says."""

from __future__ import annotations

import os
import sys
import time
import urllib.parse
from collections.abc import Callable, Mapping
from pathlib import Path

from sitegen.build import build_site, check_site, strict_failure
from sitegen.errors import ContentError, ExitStatus, Problem, info_line, problem_printer, strict_warnings
from sitegen.output_folder import OutputInTheWay
from sitegen.progress import Progress, live_terminal


def report_warnings(warnings: list[Problem], shown: Callable[[Problem], str] = str) -> None:
    for problem in dict.fromkeys(warnings):  # same warning once
        print(shown(problem), file=sys.stderr)


class BuildProgress:
    """What a build is doing, with the time it has taken, on the progress line of a terminal
    (cleared for the summary at the end)."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.line = Progress(sys.stderr, tty=True)

    def __call__(self, message: str) -> None:
        self.line.status(f"{message} ... ({time.monotonic() - self.started:.1f} s)")

    def clear(self) -> None:
        self.line.done()


def host_path_warning(base_path: str, environment: Mapping[str, str]) -> str | None:
    """When the build runs on a host that says where it serves the site (Netlify, Cloudflare Pages, GitLab CI) and
    base_url has another path (the https://<user>.github.io/<folder>/ that `sitegen init` guessed): what to pass."""
    if environment.get("NETLIFY") == "true" and environment.get("URL"):
        host, address, option = "Netlify", environment["URL"].rstrip("/") + "/", '--base-url "$URL/"'
    elif environment.get("CF_PAGES") == "1":  # CF_PAGES_URL is this deployment's own address, not the site's
        host, address, option = "Cloudflare Pages", "https://<project>.pages.dev/", "--base-url https://<your address>/"
    elif environment.get("GITLAB_CI") == "true" and environment.get("CI_PAGES_URL") and environment.get("CI_JOB_NAME") == "pages":
        # the job GitLab publishes (CI_PAGES_URL is set in every job: another may deploy elsewhere, by rsync)
        host, address, option = "GitLab Pages", environment["CI_PAGES_URL"].rstrip("/") + "/", '--base-url "$CI_PAGES_URL/"'
    else:
        return None
    try:
        served_at = urllib.parse.urlsplit(address).path if address.startswith(("https://", "http://")) else "/"
    except ValueError:  # an address the host set that is none ('http://[x'): it says nothing about the path
        return None
    if served_at == base_path:
        return None
    return (
        f"warning: this build runs on {host}, which serves the site at {address}, but base_url's path is {base_path}: there "
        f"every link and stylesheet would lead nowhere; build with {option} (sitegen's docs/deploying.md, Other hosts)"
    )


def build(args) -> int:
    from sitegen.workflow_checks import requirements_problems

    deployment = requirements_problems(Path(args.site))  # what the site's workflows would install, not the build's content
    if args.strict and deployment:  # as the build's own warnings do, before anything is written
        raise ContentError([*deployment, Problem(strict_failure(deployment, "output/ is as it was"))])
    if args.base_url is not None:
        from sitegen.validate import command_line_base_url_problems

        # checked as site.yaml's base_url is (validate.py); an address no link can start with is a wrong command line
        if errors := [message for message, warning in command_line_base_url_problems(args.base_url) if not warning]:
            print(f"sitegen build: error: --base-url: {errors[0]}", file=sys.stderr)
            return ExitStatus.USAGE
    progress = BuildProgress() if live_terminal(sys.stderr) else None
    try:
        result = build_site(args.site, args.output, args.base_url, use_cache=not args.no_cache, progress=progress, strict=args.strict)
    except OutputInTheWay as error:
        raise ContentError(Problem(f"{error.problems[0].message}, or build elsewhere with --output DIR")) from None
    finally:
        if progress:
            progress.clear()
    shown = problem_printer(args.output_format, Path(args.site))
    report_warnings(result.warnings + deployment, shown)
    if args.base_url is None and (warning := host_path_warning(result.base_path, os.environ)):
        print(shown(Problem(warning.removeprefix("warning: "), warning=True)) if args.output_format == "json" else warning, file=sys.stderr)
    if result.up_to_date:
        print(info_line(args.output_format, f"up to date: {result.pages} pages in {result.output_dir} ({result.seconds:.2f} s)"), file=sys.stderr)
    else:
        reused = f"; cache: {result.records_reused} records, {len(result.kept)} files reused" if result.records_reused or result.kept else ""
        print(info_line(args.output_format, f"built {result.pages} pages in {result.seconds:.2f} s -> {result.output_dir}{reused}"), file=sys.stderr)
    return ExitStatus.OK


def check(args) -> int:
    from sitegen.workflow_checks import outdated_refresh_workflow, requirements_problems

    result = check_site(args.site)
    warnings = result.warnings + outdated_refresh_workflow(Path(args.site)) + requirements_problems(Path(args.site))
    shown = problem_printer(args.output_format, Path(args.site))
    report_warnings(warnings, shown)
    if args.strict and strict_warnings(warnings):
        print(shown(Problem(strict_failure(warnings, "sitegen build --strict would write nothing"))), file=sys.stderr)
        return ExitStatus.CONTENT
    print(info_line(args.output_format, f"ok: {result.pages} pages would be built"), file=sys.stderr)
    return ExitStatus.OK
