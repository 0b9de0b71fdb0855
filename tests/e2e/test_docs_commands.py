"""Every `sitegen` command shown in README.md and docs/ runs as shown.

Each fenced ```sh block that runs `sitegen` is one test, and so is each block
marked as a file. An HTML comment on the line before a block says where it runs:

    <!-- docs-test: site -->          the default: in a site made by `sitegen init site --name "Sheng Lin"`
                                      (the person of the fake servers' records); a block that fetches
                                      gets the fake arXiv, scholarly, E-utilities, Zotero, HAL, INSPIRE and ADS servers
                                      (SITEGEN_*_API, and the fake ADS's token)
    <!-- docs-test: empty-folder -->  in an empty folder: for blocks that make a site themselves
    <!-- docs-test: old-site TOOL --> in an empty folder beside ../my-old-site, a site kept with another
                                      tool (a copy of tests/fixtures/old-sites/TOOL): for `init --from`
    <!-- docs-test: checkout -->      in a copy of this checkout: the README's first command, which
                                      installs sitegen into a new .venv and builds the demo (offline:
                                      the new environment sees this one's packages through PYTHONPATH)
    <!-- docs-test: file PATH -->     a whole file (```yaml): written to PATH in a new site made as the
                                      docs make theirs (`sitegen init mysite --name "Ada Lovelace"`),
                                      which must then pass `sitegen check` without a warning

A block runs in bash, and each of its lines must succeed (a line is stopped at
its first failure, `&&` lists included), so a broken command fails the test.
`sitegen serve` never ends by itself: the `sitegen` found on the PATH is a small
wrapper that runs the real command and, for `serve`, waits until the address
answers, then stops it with Ctrl-C and passes on its exit status, which must be 0.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from ads_server import TOKEN as ADS_TOKEN
from ads_server import ads_server  # noqa: F401  (the fixture)
from arxiv_server import arxiv_server  # noqa: F401  (the fixture)
from conftest import REPO
from hal_server import hal_server  # noqa: F401  (the fixture)
from inspire_server import inspire_server  # noqa: F401  (the fixture)
from pubmed_server import pubmed_server  # noqa: F401  (the fixture)
from scholarly_server import scholarly_server  # noqa: F401  (the fixture)
from test_init import copy_of_sitegen, dependencies  # noqa: F401  (dependencies: a fixture)
from zotero_server import zotero_server  # noqa: F401  (the fixture)

DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
MODES = ("site", "empty-folder", "checkout", "file", "old-site")
OLD_SITES = REPO / "tests" / "fixtures" / "old-sites"
ANNOTATION = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<mode>[\w-]+)(?:\s+(?P<argument>\S+))?\s*-->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<language>[\w-]*)\s*$")
SITEGEN_COMMAND = re.compile(r"(?:^|[\s/;&|(])sitegen\s")
SITE_NAME = "Sheng Lin"
DOCS_SITE_NAME = "Ada Lovelace"  # the name the docs give `sitegen init`, so a person file of theirs is on the records
SERVE_DEADLINE = 60  # seconds for `sitegen serve` to answer before the wrapper gives up


@dataclass(frozen=True)
class Block:
    document: Path
    line: int  # of the opening fence, 1-based
    language: str
    code: str
    mode: str | None  # from the comment before it; None when there is none
    argument: str | None

    @property
    def name(self) -> str:
        return f"{self.document.relative_to(REPO).as_posix()}:{self.line}"

    @property
    def runs_sitegen(self) -> bool:
        return self.language == "sh" and any(SITEGEN_COMMAND.search(strip_comment(line)) for line in self.code.splitlines())


def blocks_of(document: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, each with the docs-test comment on the line before it."""
    blocks: list[Block] = []
    lines = document.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        start, indent = index, len(fence.group("indent"))
        index += 1
        body: list[str] = []
        while index < len(lines) and not re.match(r"^\s*```\s*$", lines[index]):
            line = lines[index]
            body.append(line[indent:] if line[:indent].isspace() or not indent else line.lstrip())
            index += 1
        annotation = ANNOTATION.match(lines[start - 1]) if start > 0 else None
        blocks.append(
            Block(
                document,
                start + 1,
                fence.group("language"),
                "\n".join(body) + "\n",
                annotation.group("mode") if annotation else None,
                annotation.group("argument") if annotation else None,
            )
        )
        index += 1
    return blocks


def strip_comment(line: str) -> str:
    """A shell line without its `# comment` (a # inside quotes, or inside a word, is kept)."""
    quote = None
    for position, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (position == 0 or line[position - 1].isspace()):
            return line[:position].rstrip()
    return line.rstrip()


def as_strict_script(code: str) -> str:
    """The block as a bash script in which every line must succeed, including the first part of an `&&` list
    (which `set -e` would let fail), and in which `cd` still carries over to the next line."""
    commands, pending = [], ""
    for line in code.splitlines():
        line = strip_comment(line)
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        if line.strip():
            commands.append(f'{{ {line.strip()}\n}} || {{ status=$?; echo "docs-test: failed (exit $status): "{quoted(line.strip())} >&2; exit $status; }}')
    return "\n".join(commands) + "\n"


def quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


ALL_BLOCKS = [block for document in DOCUMENTS for block in blocks_of(document)]
RUN_BLOCKS = [block for block in ALL_BLOCKS if block.runs_sitegen or block.mode == "file"]


# --------------------------------------------------------------------------
# The wrapper: `sitegen` as the user runs it, with `serve` stopped once it answers
# --------------------------------------------------------------------------

WRAPPER = """\
import fcntl, os, signal, subprocess, sys, time, urllib.request

REAL = {real!r}
DEADLINE = {deadline}
arguments = sys.argv[1:]
if arguments[:1] != ["serve"]:
    os.execv(REAL, [REAL, *arguments])
port = int(arguments[arguments.index("--port") + 1]) if "--port" in arguments else 8000
# The docs show the same ports in several blocks, which parallel test workers may run at once: one serve at a time.
lock = open({lock!r}, "w")
fcntl.flock(lock, fcntl.LOCK_EX)
server = subprocess.Popen([REAL, *arguments])
opener = urllib.request.build_opener(urllib.request.ProxyHandler({{}}))
answered = False
started = time.monotonic()
while server.poll() is None and time.monotonic() - started < DEADLINE:
    try:
        with opener.open(f"http://127.0.0.1:{{port}}/", timeout=5) as answer:
            answered = answer.status == 200 and b"<html" in answer.read().lower()
    except OSError:
        time.sleep(0.2)
        continue
    break
if server.poll() is not None:
    sys.exit(server.returncode or 1)  # it stopped by itself: a serve that does not serve
server.send_signal(signal.SIGINT)
try:
    status = server.wait(timeout=30)
except subprocess.TimeoutExpired:
    server.kill()
    sys.exit("docs-test: sitegen serve did not stop on Ctrl-C")
if not answered:
    sys.exit(f"docs-test: sitegen serve did not answer on port {{port}} within {{DEADLINE}} s")
sys.exit(status)
"""


@pytest.fixture(scope="module")
def wrapper_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("docs-bin")
    real = Path(sys.executable).parent / "sitegen"
    assert real.exists(), f"the sitegen command of this environment is missing: {real}"
    script = folder / "sitegen"
    lock = Path(tempfile.gettempdir()) / "sitegen-docs-test-serve.lock"
    script.write_text(f"#!{sys.executable}\n" + WRAPPER.format(real=str(real), deadline=SERVE_DEADLINE, lock=str(lock)), encoding="utf-8")
    script.chmod(0o755)
    return folder


def user_environment(wrapper_bin: Path, home: Path, services: dict[str, str] | None = None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=os.pathsep.join([str(wrapper_bin), str(Path(sys.executable).parent), env["PATH"]]), HOME=str(home))
    env.update(services or {})
    return env


def run_script(code: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "--noprofile", "--norc", "-c", as_strict_script(code)], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def new_site(folder: Path, env: dict[str, str], name: str = SITE_NAME) -> Path:
    result = subprocess.run(["sitegen", "init", "site", "--name", name], cwd=folder, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return folder / "site"


# --------------------------------------------------------------------------
# The blocks
# --------------------------------------------------------------------------


def test_the_docs_show_commands_and_every_comment_is_understood() -> None:
    """Guards the extraction: the blocks are found, and no comment is misspelt or misplaced."""
    readme = [block for block in RUN_BLOCKS if block.document.name == "README.md"]
    assert len(readme) >= 3 and len(RUN_BLOCKS) >= 12, [block.name for block in RUN_BLOCKS]
    assert any(block.mode == "checkout" for block in readme), "the README's first command installs and builds the demo"
    for document in DOCUMENTS:
        lines = document.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if line.lstrip().startswith("<!--") and "test" in line:
                match = ANNOTATION.match(line)
                where = f"{document.name}:{number + 1}"
                assert match and match.group("mode") in MODES, f"{where}: not a docs-test comment: {line}"
                assert number + 1 < len(lines) and FENCE.match(lines[number + 1]), f"{where}: no block right after it"
    for block in ALL_BLOCKS:
        if block.mode == "file":
            assert block.argument and block.language != "sh", f"{block.name}: a file block names its path and is no script"
        elif block.mode:
            assert block.runs_sitegen, f"{block.name}: marked, but runs no sitegen command"


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in RUN_BLOCKS if b.mode in (None, "site")], ids=lambda b: b.name)
def test_command_block_runs_in_a_new_site(block: Block, tmp_path: Path, wrapper_bin: Path, request: pytest.FixtureRequest) -> None:
    services = {}
    if re.search(r"\bsitegen\s+fetch\b", block.code):
        services = {
            "SITEGEN_ARXIV_API": request.getfixturevalue("arxiv_server")().api_url,
            **request.getfixturevalue("scholarly_server")().env,
            **request.getfixturevalue("pubmed_server")().env,
            **request.getfixturevalue("inspire_server")().env,
            **request.getfixturevalue("zotero_server")().env,
            **request.getfixturevalue("hal_server")().env,
            **request.getfixturevalue("ads_server")().env,
            "ADS_API_TOKEN": ADS_TOKEN,
        }
    env = user_environment(wrapper_bin, tmp_path, services)
    site = new_site(tmp_path, env)
    result = run_script(block.code, site, env)
    assert result.returncode == 0, f"{block.name}:\n{block.code}\n{result.stdout}\n{result.stderr}"
    if services and re.search(r"\bsitegen\s+fetch(?![^\n]*--review)", block.code):
        fetched = list((site / "content" / "records").glob("*/*.yaml"))
        assert fetched, f"{block.name}: the fetch wrote no record: it did not reach the fake services"


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in RUN_BLOCKS if b.mode == "empty-folder"], ids=lambda b: b.name)
def test_command_block_runs_in_an_empty_folder(block: Block, tmp_path: Path, wrapper_bin: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    result = run_script(block.code, folder, user_environment(wrapper_bin, tmp_path))
    assert result.returncode == 0, f"{block.name}:\n{block.code}\n{result.stdout}\n{result.stderr}"
    assert list(folder.iterdir()), "the block made nothing"


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in RUN_BLOCKS if b.mode == "old-site"], ids=lambda b: b.name)
def test_command_block_runs_beside_an_old_site(block: Block, tmp_path: Path, wrapper_bin: Path) -> None:
    assert block.argument is not None and (OLD_SITES / block.argument).is_dir(), (
        f"{block.name}: docs-test: old-site needs a tool: {sorted(p.name for p in OLD_SITES.iterdir())}"
    )
    shutil.copytree(OLD_SITES / block.argument, tmp_path / "my-old-site")
    folder = tmp_path / "work"
    folder.mkdir()
    result = run_script(block.code, folder, user_environment(wrapper_bin, tmp_path))
    assert result.returncode == 0, f"{block.name}:\n{block.code}\n{result.stdout}\n{result.stderr}"
    assert "brought over from the" in result.stdout, f"{block.name}: nothing was brought over\n{result.stdout}"


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in RUN_BLOCKS if b.mode == "file"], ids=lambda b: b.name)
def test_file_block_is_a_valid_file_of_a_site(block: Block, tmp_path: Path, wrapper_bin: Path) -> None:
    env = user_environment(wrapper_bin, tmp_path)
    site = new_site(tmp_path, env, DOCS_SITE_NAME)
    target = site / block.argument
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(block.code, encoding="utf-8")
    result = subprocess.run(["sitegen", "check"], cwd=site, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{block.name} as {block.argument}:\n{result.stderr}"
    assert "warning" not in result.stderr, f"{block.name} as {block.argument}:\n{result.stderr}"


@pytest.mark.slow
@pytest.mark.parametrize("block", [b for b in RUN_BLOCKS if b.mode == "checkout"], ids=lambda b: b.name)
def test_command_block_runs_in_a_copy_of_this_checkout(block: Block, tmp_path: Path, dependencies: Path) -> None:
    """As a newcomer runs it in a fresh clone; PyPI is replaced by this environment's packages."""
    checkout = copy_of_sitegen(tmp_path / "sitegen")
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env.update(
        PYTHONPATH=str(dependencies), PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", HOME=str(tmp_path), PIP_NO_BUILD_ISOLATION="0"
    )  # sic: pip reads this variable inverted; "0" builds without isolation
    result = run_script(block.code, checkout, env)
    assert result.returncode == 0, f"{block.name}:\n{block.code}\n{result.stdout}\n{result.stderr}"
    index = checkout / "output" / "index.html"
    assert index.exists() and "Lena Müller" in index.read_text(encoding="utf-8"), "the demo profile was built"
    assert (checkout / ".venv" / "bin" / "sitegen").exists()


# --------------------------------------------------------------------------
# The harness itself: a broken command must fail its block
# --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "code",
    [
        "sitegen build --no-such-option\n",
        "sitegen check --no-such-option && sitegen build   # the first part of a list\necho later lines do not hide it\n",
        "cd no-such-folder\nsitegen build\n",
        "sitegen serve --port 0x\n",
    ],
)
def test_a_broken_command_fails_its_block(code: str, tmp_path: Path, wrapper_bin: Path) -> None:
    env = user_environment(wrapper_bin, tmp_path)
    site = new_site(tmp_path, env)
    result = run_script(code, site, env)
    assert result.returncode != 0, result.stdout + result.stderr
    assert "docs-test: failed" in result.stderr


@pytest.mark.slow
def test_serve_is_stopped_once_it_answers_and_then_succeeds(tmp_path: Path, wrapper_bin: Path) -> None:
    env = user_environment(wrapper_bin, tmp_path)
    site = new_site(tmp_path, env)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_script(f"sitegen serve --port {port}\n", site, env)
        assert result.returncode != 0 and "already in use" in result.stderr, "a serve that cannot serve fails its block"
    result = run_script(f"sitegen serve --port {port}\n", site, env)
    assert result.returncode == 0, result.stderr
    assert "stopped" in result.stderr


def test_comments_and_quoted_hashes_are_told_apart() -> None:
    assert strip_comment('sitegen init mysite --name "Siobhán #1"   # a comment') == 'sitegen init mysite --name "Siobhán #1"'
    assert strip_comment("sitegen fetch --id 2409.02791  # ids") == "sitegen fetch --id 2409.02791"
    assert strip_comment("echo a#b") == "echo a#b"
