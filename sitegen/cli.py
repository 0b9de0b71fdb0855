"""The `sitegen` command: parse the command line, call one function, map errors to exit codes.

Options of every command are declared here (the contract of SPEC §1); each
command's work lives in its own module, imported only when that command runs.
"""

from __future__ import annotations

import argparse
import codecs
import difflib
import importlib
import io
import os
import signal
import sys
import threading
from pathlib import Path

from sitegen import __version__
from sitegen.errors import OUTPUT_FORMATS, ExitStatus, Problem, SitegenError, problem_printer
from sitegen.interrupts import Terminated  # SIGTERM: the build stops its workers and leaves output/ as it was
from sitegen.output_folder import reason

ENV_API_URL = "SITEGEN_ARXIV_API"  # where `sitegen fetch` finds arXiv when --api-url is not given


STRICT_HELP = "fail (exit status 1) when there is any warning: an unknown field, a broken link, a LaTeX command left as text"


SITE_HELP = "the site folder, holding content/ (default: .)"
COMMANDS_WITH_SITE = ("build", "check", "serve", "fetch")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sitegen", description="Researcher profile sites from YAML or arXiv records.")
    parser.add_argument("--version", action="version", version=f"sitegen {__version__}")
    # before the command too (`sitegen --site plain build`); SUPPRESS: a --site after it wins, and none leaves '.'
    parser.add_argument("--site", type=Path, default=argparse.SUPPRESS, metavar="DIR", help=SITE_HELP + "; before or after the command")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    site = argparse.ArgumentParser(add_help=False)
    site.add_argument("--site", type=Path, default=argparse.SUPPRESS, metavar="DIR", help=SITE_HELP)
    formats = argparse.ArgumentParser(add_help=False)
    formats.add_argument(
        "--output-format",
        choices=OUTPUT_FORMATS,
        default="text",
        help="how errors and warnings are printed: text (default); github: as annotations of a GitHub Actions run, "
        "which a pull request shows at the lines they name; json: one JSON object a line (level, file, line, column, "
        "message), the summary too",
    )

    build = commands.add_parser("build", parents=[site, formats], help="build the site into output/")
    build.add_argument("--output", type=Path, metavar="DIR", help="where to write the site (default: DIR/output)")
    build.add_argument("--base-url", metavar="URL", help="override base_url of site.yaml")
    build.add_argument("--no-cache", action="store_true", help="ignore and do not update the build cache (.sitegen-cache/)")
    build.add_argument("--strict", action="store_true", help=STRICT_HELP + "; output/ is left as it was")
    build.set_defaults(handler="sitegen.commands:build")

    check = commands.add_parser("check", parents=[site, formats], help="validate everything, write nothing")
    check.add_argument("--strict", action="store_true", help=STRICT_HELP)
    check.set_defaults(handler="sitegen.commands:check")

    serve = commands.add_parser("serve", parents=[site], help="preview with live reload")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=_port, default=8000, help="port, 1 to 65535 (default: 8000)")
    serve.add_argument("--drafts", action="store_true", help="also show drafts: pages, posts and news whose file name starts with _")
    serve.set_defaults(handler="sitegen.serve:run")

    fetch = commands.add_parser("fetch", parents=[site], help=f"pull records from {_sources_named()} into content/records/<source>/")
    _add_fetch_arguments(fetch)
    fetch.set_defaults(handler="sitegen.fetch:run")

    init = commands.add_parser("init", help="create a new site that builds at once and deploys to GitHub Pages")
    init.add_argument("directory", type=Path, metavar="DIR")
    init.add_argument("--name", default=None, metavar='"Full Name"', help="the profile owner's name")
    init.add_argument(
        "--lab", default=None, metavar='"Lab Name"', help="start a lab's or group's site instead: profile.yaml is the lab, its people go in content/people/"
    )
    init.add_argument("--language", default=None, metavar="TAG", help="the pages' language: en (the default), de, fr, pt-BR, ... (site.yaml's language)")
    init.add_argument("--force", action="store_true", help="overwrite existing files")
    init.add_argument(
        "--from",
        dest="source",
        type=Path,
        default=None,
        metavar="OLD_SITE",
        help="bring over the profile, publications, news and talks of a site kept with al-folio, academicpages, Hugo Blox or Quarto",
    )
    init.set_defaults(handler="sitegen.scaffold:run")

    help_command = commands.add_parser("help", help="show the options of a command: sitegen help build")
    help_command.add_argument("topic", nargs="?", choices=sorted(commands.choices), metavar="COMMAND")
    help_command.set_defaults(handler=None)
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each command's own parser, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line as argparse reads it, with the help argparse alone does not give: the command's own usage
    for an option it does not know, a near name for a misspelt command or option, --site for a folder named alone."""
    parser = build_parser()
    commands = _subcommands(parser)
    word = _command_word(argv)
    if word is not None and argv[word] not in commands:
        parser.error(_unknown_command(argv, word, commands))
    args, extra = parser.parse_known_args(argv)
    command = commands[args.command]
    if extra:
        command.error(_unexpected(extra[0], command, args.command))
    if args.command == "help":
        (commands[args.topic] if args.topic else parser).print_help()
        parser.exit(0)
    if args.command in COMMANDS_WITH_SITE:
        args.site = getattr(args, "site", Path("."))
        if not args.site.exists():
            command.error(f"--site {args.site}: no such folder (the folder that holds content/)")
        if not args.site.is_dir():
            command.error(f"--site {args.site}: a file, not a folder (the folder that holds content/)")
    elif hasattr(args, "site"):
        command.error(f"{args.command} takes no --site (it makes the site in DIR)")
    return args


def _command_word(argv: list[str]) -> int | None:
    """Where the command is in argv: the first word that is neither an option nor --site's folder."""
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return index + 1 if index + 1 < len(argv) else None
        if not word.startswith("-") or word == "-":
            return index
        index += 2 if word == "--site" else 1
    return None


def _unknown_command(argv: list[str], word: int, commands: dict[str, argparse.ArgumentParser]) -> str:
    name = argv[word]
    later = next((other for other in argv[word + 1 :] if other in commands), None)
    if later in COMMANDS_WITH_SITE and Path(name).is_dir():
        return f"{name!r} is not a command; to {later} the site in {name}: sitegen {later} --site {name}"
    near = difflib.get_close_matches(name, list(commands), n=1)
    guess = f"; did you mean {near[0]!r}?" if near else f" (choose from {', '.join(commands)})"
    return f"unknown command {name!r}{guess}"


def _unexpected(word: str, command: argparse.ArgumentParser, name: str) -> str:
    """The message for the first argument a command does not take."""
    if word.startswith("-"):
        option = word.split("=", 1)[0]
        known = [text for action in command._actions for text in action.option_strings if text.startswith("--")]
        near = difflib.get_close_matches(option, known, n=1, cutoff=0.7)  # not --site for --quiet
        return f"unknown option {option}" + (f"; did you mean {near[0]}?" if near else f" (sitegen {name} --help lists its options)")
    if name in COMMANDS_WITH_SITE and Path(word).is_file():  # a pre-commit hook passes the changed files' names
        return (
            f"unexpected argument {word!r}: sitegen {name} takes the whole site and no file names "
            "(in a pre-commit hook, set pass_filenames: false; a site elsewhere is given with --site DIR)"
        )
    if name in COMMANDS_WITH_SITE:
        return f"unexpected argument {word!r}; the site's folder is given with --site: sitegen {name} --site {word}"
    return f"unexpected argument {word!r}"


def _sources_named() -> str:
    """'arXiv, ORCID, ... or Zotero': the fetchers, as users read their names."""
    from sitegen.sources import FETCHERS

    names = [fetcher.shown_name for fetcher in FETCHERS.values()]
    return ", ".join(names[:-1]) + " or " + names[-1]


def _add_fetch_arguments(parser: argparse.ArgumentParser) -> None:
    """`sitegen fetch`: what to ask which source for (each fetcher's declared options), and how politely
    (sitegen.fetch does the work)."""
    from sitegen.sources import FETCHERS, fetch_options

    source = parser.add_argument_group("what to fetch (default: the sources in content/profile.yaml)")
    source.add_argument("--category", action="append", default=[], metavar="CAT", help="arXiv: keep only records in this category; repeatable")
    for option in fetch_options().values():
        if option.switch:
            source.add_argument(option.flag, action="append_const", const="yes", default=[], dest=option.dest, help=option.help)
        else:
            source.add_argument(option.flag, action="append", default=[], metavar=option.metavar, dest=option.dest, help=option.help)
    parser.add_argument(
        "--api-url",
        metavar="URL",
        default=None,
        help=f"arXiv API endpoint (default: ${ENV_API_URL}, else export.arxiv.org); the other "
        f"services: {', '.join('$' + f.api_env for f in FETCHERS.values() if f.api_env and f.api_env != ENV_API_URL)}",
    )
    parser.add_argument(
        "--delay", type=_non_negative_float, default=None, metavar="SECONDS", help="pause between requests to a service (default: its own rule; arXiv's is 3)"
    )
    parser.add_argument("--page-size", type=_page_size, default=100, metavar="N", help="records per arXiv API request, at most 2000 (default 100)")
    parser.add_argument(
        "--timeout", type=_positive_float, default=30.0, metavar="SECONDS", help="give up on a request after this long (then retry); default 30"
    )
    parser.add_argument("--retries", type=_non_negative_int, default=4, metavar="N", help="retries of a throttled, failed or timed-out request (default 4)")
    parser.add_argument(
        "--backoff", type=_non_negative_float, default=2.0, metavar="SECONDS", help="wait before the first retry, doubled for each next one (default 2)"
    )
    parser.add_argument("--review", action="store_true", help="fetch and show arXiv's records grouped by likely person, numbered; write nothing")
    parser.add_argument(
        "--keep",
        action="append",
        type=_group_number,
        default=[],
        metavar="N",
        help="keep only group N of the last --review (repeatable): writes the exclusions of the other groups into content/profile.yaml",
    )
    parser.add_argument("--prune", action="store_true", help="also remove fetched records that their source no longer returns")
    parser.add_argument("--summary", metavar="FILE", default=None, help="also write what changed, per source, as Markdown to FILE (for a pull request)")


def _group_number(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a group number from the review (1, 2, ...), got {text!r}")
    return value


def _non_negative_float(text: str) -> float:
    value = float(text)
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"expected a number of seconds >= 0, got {text!r}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def _port(text: str) -> int:
    """A TCP port: the operating system would wrap 99999 round to another port and refuse -1 with a vaguer
    message; 0 (any free port) would leave the address printed and the live-reload script's port unknown."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}")
    return value


def _page_size(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 2000:
        raise argparse.ArgumentTypeError(f"expected 1 to 2000 (arXiv's limit), got {text!r}")
    return value


def _terminated(signum: int, frame: object) -> None:
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        _print_anything(stream)
    args = parse(sys.argv[1:] if argv is None else list(argv))
    module_name, function_name = args.handler.split(":")
    handler = getattr(importlib.import_module(module_name), function_name)
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if in_main_thread else None
    shown = problem_printer(getattr(args, "output_format", "text"), getattr(args, "site", Path(".")))
    try:
        return int(handler(args))
    except SitegenError as error:
        for problem in error.problems:
            print(shown(problem), file=sys.stderr)
        return ExitStatus.CONTENT
    except OSError as error:  # a full disk, a folder without write permission: no traceback for what the user can fix
        where = f"{os.fsdecode(error.filename)}: " if error.filename is not None else ""
        print(shown(Problem(f"error: {where}{reason(error)}")), file=sys.stderr)
        return ExitStatus.CONTENT
    except Terminated:
        print(shown(Problem("terminated")), file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print(shown(Problem("interrupted")), file=sys.stderr)
        return 128 + signal.SIGINT
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)


def _print_anything(stream: object) -> None:
    """A stream in an encoding short of Unicode writes what it cannot hold as an escape ('\\u0141ukasz'), as Python's
    stderr does, instead of stopping the command with a traceback. On Windows, a pipe, a file (`> log.txt`) and
    Git Bash's terminal get the code page (cp1252: no 'Ł', no Greek, no CJK), and a report prints names and titles."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict" and codecs.lookup(stream.encoding).name != "utf-8":
        stream.reconfigure(errors="backslashreplace")


def run_command() -> None:
    """The `sitegen` executable: `sys.exit(main())`, minus the teardown.

    After a large build Python would free every record, entry and page one by one
    on the way out; the work is done and saved, so the process ends at once, its
    output flushed.
    """
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
