"""The `sitegen` command: parse the command line, call one function, map errors to exit codes.

Options of every command are declared here (the contract of SPEC §1); each
command's work lives in its own module, imported only when that command runs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

from sitegen import __version__
from sitegen.errors import ExitStatus, SitegenError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sitegen", description="Researcher profile sites from YAML or arXiv records.")
    parser.add_argument("--version", action="version", version=f"sitegen {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    site = argparse.ArgumentParser(add_help=False)
    site.add_argument("--site", type=Path, default=Path("."), metavar="DIR", help="the site folder, holding content/ (default: .)")

    build = commands.add_parser("build", parents=[site], help="build the site into output/")
    build.add_argument("--output", type=Path, metavar="DIR", help="where to write the site (default: DIR/output)")
    build.add_argument("--base-url", metavar="URL", help="override base_url of site.yaml")
    build.add_argument("--no-cache", action="store_true", help="ignore and do not update the build cache (.sitegen-cache/)")
    build.set_defaults(handler="sitegen.commands:build")

    check = commands.add_parser("check", parents=[site], help="validate everything, write nothing")
    check.set_defaults(handler="sitegen.commands:check")

    serve = commands.add_parser("serve", parents=[site], help="preview with live reload")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    serve.set_defaults(handler="sitegen.serve:run")

    fetch = commands.add_parser("fetch", parents=[site], help="pull records from arXiv into content/records/arxiv/")
    from sitegen.fetch import add_arguments as add_fetch_arguments  # light: arxiv and requests load in run()

    add_fetch_arguments(fetch)
    fetch.set_defaults(handler="sitegen.fetch:run")

    init = commands.add_parser("init", help="create a new site that builds at once and deploys to GitHub Pages")
    init.add_argument("directory", type=Path, metavar="DIR")
    init.add_argument("--name", default=None, metavar='"Full Name"', help="the profile owner's name")
    init.add_argument("--force", action="store_true", help="overwrite existing files")
    init.set_defaults(handler="sitegen.scaffold:run")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    module_name, function_name = args.handler.split(":")
    handler = getattr(importlib.import_module(module_name), function_name)
    try:
        return int(handler(args))
    except SitegenError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return ExitStatus.CONTENT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def run_command() -> None:
    """The `sitegen` executable: `sys.exit(main())`, minus the teardown.

    After a large build Python would free every record, entry and page one by one
    on the way out (a tenth of a second at 10,000 records); the work is done and
    saved, so the process ends at once, its output flushed.
    """
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
