"""`sitegen build` and `sitegen check`: report what the pipeline says."""

from __future__ import annotations

import sys

from sitegen.build import build_site, check_site
from sitegen.errors import ExitStatus, Problem


def report_warnings(warnings: list[Problem]) -> None:
    for problem in dict.fromkeys(warnings):  # same warning once
        print(problem, file=sys.stderr)


def build(args) -> int:
    result = build_site(args.site, args.output, args.base_url)
    report_warnings(result.warnings)
    print(f"built {result.pages} pages, {len(result.files)} files in {result.seconds:.2f} s -> {result.output_dir}", file=sys.stderr)
    return ExitStatus.OK


def check(args) -> int:
    result = check_site(args.site)
    report_warnings(result.warnings)
    print(f"ok: {result.pages} pages would be built", file=sys.stderr)
    return ExitStatus.OK
