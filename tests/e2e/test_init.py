"""`sitegen init`: the new site is complete, builds at once, and nothing is overwritten by accident."""

from __future__ import annotations

import json
import os
import re
import shutil
import site as python_site
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from arxiv_server import arxiv_server  # noqa: F401  (the fixture)
from bs4 import BeautifulSoup
from conftest import REPO, run_sitegen
from crawl import crawl, serve_directory

from sitegen.validate import PROFILE_EXTRAS, PROFILE_FIELDS, SITE_EXTRAS, SITE_FIELDS

NAME = "Ada Lovelace"
SITE_FILES = {
    ".devcontainer/devcontainer.json",  # a Codespace: sitegen installed, the preview open beside the editor
    ".github/dependabot.yml",  # pull requests that keep the actions and the sitegen release current
    ".github/workflows/check.yml",
    ".github/workflows/pages.yml",
    ".github/workflows/refresh-publications.yml",
    ".gitignore",
    "README.md",
    "requirements.txt",
    "content/site.yaml",
    "content/profile.yaml",
    "content/records/example-preprint.yaml",
    "content/records/example-article.yaml",
    "content/records/example-workshop.yaml",
    "content/pages/about.md",  # the homepage's own content (SPEC §7): a page, and commented examples
    "content/cv.yaml",
    "content/posts/_example.md",
    "content/news/_example.md",
    "content/talks/_example.yaml",
    "content/projects/_example.md",
    "content/coauthors.yaml",
}
PROFILE_OPTIONS = {
    "name",
    "name_variants",
    "former_names",
    "position",
    "affiliation",
    "bio",
    "photo",
    "email",
    "links",
    "arxiv",
    "orcid",
    "dois",
    "openalex",
    "dblp",
    "pubmed",
    "hal",
    "inspire",
    "ads",
    "coauthors",
    "zotero",
}
ARXIV_OPTIONS = {"authors", "author_ids", "ids", "categories", "exclude_categories", "exclude_ids"}
SITE_OPTIONS = {
    "title",
    "base_url",
    "theme",
    "language",
    "description",
    "cname",
    "records_per_page",
    "group_by",
    "nav",
    "analytics",
    "verification",
    "people",
    "comments",
}
SITE_OPTIONS |= {
    "math_macros",
    "accent",
    "accent_dark",
    "font",
    "heading_font",
    "dark_mode",
    "protect_email",
    "feed_id_base",
    "records_language",
    "languages",
    "language_names",
}
# what a person file of content/people/ takes beside the profile's settings: no setting of a one-person site
PEOPLE_ONLY = {"exclude_ids", "arxiv_author_ids"}


def init(directory: Path, *options: str) -> subprocess.CompletedProcess:
    return run_sitegen("init", str(directory), *options, cwd=directory.parent)


def files_of(directory: Path) -> dict[str, bytes]:
    return {path.relative_to(directory).as_posix(): path.read_bytes() for path in sorted(directory.rglob("*")) if path.is_file()}


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "lxml")


@pytest.fixture
def new_site(tmp_path: Path) -> Path:
    site = tmp_path / "mysite"
    result = init(site, "--name", NAME)
    assert result.returncode == 0, result.stderr
    return site


# --------------------------------------------------------------------------
# What init writes
# --------------------------------------------------------------------------


def test_init_writes_every_file_of_a_site(new_site: Path) -> None:
    assert set(files_of(new_site)) == SITE_FILES


@pytest.mark.slow
def test_the_new_site_builds_at_once_and_shows_the_name(new_site: Path) -> None:
    result = run_sitegen("build", cwd=new_site)
    assert result.returncode == 0, result.stderr
    index = soup_of(new_site / "output" / "index.html")
    assert NAME in index.title.get_text()
    assert index.find("h1").get_text(" ", strip=True) == NAME
    record_pages = sorted(p.parent.name for p in (new_site / "output" / "records").glob("*/index.html"))
    assert record_pages == ["example-article", "example-preprint", "example-workshop"]


@pytest.mark.slow
def test_sample_records_show_math_a_featured_record_and_links(new_site: Path) -> None:
    assert run_sitegen("build", cwd=new_site).returncode == 0
    index = soup_of(new_site / "output" / "index.html")
    assert index.find("math"), "the LaTeX of the samples should be MathML"
    assert "$" not in index.get_text(), "no raw LaTeX on the page"
    preprint = soup_of(new_site / "output" / "records" / "example-preprint" / "index.html")
    assert {a["href"] for a in preprint.find_all("a", href=True)} >= {"https://example.org/sorting-revisited.pdf", "https://example.org/sorting-revisited-code"}
    samples = {p.stem: yaml.safe_load(p.read_text(encoding="utf-8")) for p in (new_site / "content" / "records").glob("*.yaml")}
    assert [stem for stem, record in samples.items() if record.get("featured")] == ["example-preprint"]
    assert all(NAME in record["authors"] for record in samples.values())


def test_profile_holds_the_name_and_the_arxiv_sources(new_site: Path) -> None:
    profile = yaml.safe_load((new_site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == NAME
    assert profile["name_variants"] == ["A. Lovelace"]
    assert profile["arxiv"] == {"authors": [NAME]}
    text = (new_site / "content" / "profile.yaml").read_text(encoding="utf-8")
    for option in ARXIV_OPTIONS - {"authors"}:
        assert re.search(rf"^\s*# {option}: \S", text, re.MULTILINE), f"no commented example of arxiv.{option}"


def uncomment_options(text: str) -> str:
    """Turn every commented-out `# key: value` line into a setting, also the lines of a commented-out block
    (`# nav:` and its `#   - {...}` items, `# analytics:` and its `#   plausible: ...`)."""
    return re.sub(r"^(\s*)# (\s*)([a-z_]+:(?: |$)|- )", r"\1\2\3", text, flags=re.MULTILINE)


@pytest.mark.parametrize(
    "name, variants",
    [("山田 太郎", None), ("محمد الخوارزمي", None), ("Иван Петров", ["И. Петров"]), ("Jürgen Müller", ["J. Müller"])],
)
def test_a_name_in_letters_without_capitals_gets_no_initials(tmp_path: Path, name: str, variants: list[str] | None) -> None:
    """`init --name "山田 太郎"` wrote name_variants: ["山. 太郎"], a form no author list uses."""
    result = run_sitegen("init", str(tmp_path / "site"), "--name", name)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "site" / "content" / "profile.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text).get("name_variants") == variants
    assert "Your name in Latin letters too" in text


@pytest.mark.slow
@pytest.mark.parametrize("name", ["王小明", "山田 太郎", "김민수", "Иван Петров"])
def test_a_name_without_latin_letters_is_no_arxiv_name_search(tmp_path: Path, name: str) -> None:
    """`init --name 王小明` wrote `arxiv: authors: ["王小明"]`: arXiv's author lists print names in Latin letters, so
    the first `sitegen fetch` (and every weekly one) searched arXiv for a name none of its papers carries."""
    result = run_sitegen("init", str(tmp_path / "site"), "--name", name)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "site" / "content" / "profile.yaml").read_text(encoding="utf-8")
    assert not (yaml.safe_load(text).get("arxiv") or {}).get("authors")
    assert f"in Latin letters, as your\n  # papers in English print it (arXiv finds no paper by {name})" in text
    latin = tmp_path / "latin"
    assert run_sitegen("init", str(latin), "--name", "Jürgen Müller").returncode == 0
    assert yaml.safe_load((latin / "content" / "profile.yaml").read_text(encoding="utf-8"))["arxiv"]["authors"] == ["Jürgen Müller"]


@pytest.mark.slow
def test_init_language_makes_a_site_in_that_language(tmp_path: Path) -> None:
    """A German professor had to find `language: en` in site.yaml; `init --language de` writes it."""
    result = run_sitegen("init", str(tmp_path / "site"), "--name", "Jürgen Müller", "--language", "de")
    assert result.returncode == 0, result.stderr
    assert yaml.safe_load((tmp_path / "site" / "content" / "site.yaml").read_text(encoding="utf-8"))["language"] == "de"
    assert run_sitegen("build", "--strict", cwd=tmp_path / "site").returncode == 0
    index = soup_of(tmp_path / "site" / "output" / "index.html")
    assert index.html["lang"] == "de" and "Publikationen" in [a.get_text(strip=True) for a in index.select("header nav a")]
    wrong = run_sitegen("init", str(tmp_path / "other"), "--language", "German")
    assert wrong.returncode == 2 and not (tmp_path / "other").exists()
    assert wrong.stderr.strip().splitlines()[-1] == (
        "sitegen init: error: --language: expected a language tag (BCP 47) such as en, de-CH or zh-Hans, got 'German' (the tag of German is de)"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "about", "bio_starts"),
    [
        ("zh", "关于", "李华的研究方向是"),
        ("ja", "自己紹介", "李华は"),
        ("ko", "소개", "李华은(는)"),
        ("de-CH", "Über mich", "李华 forscht zu"),
        ("fr-CA", "À propos", "李华 travaille sur"),
        ("nl-BE", "Over mij", "李华 werkt aan"),
        ("en", "About", "李华 works on"),
    ],
)
def test_init_language_writes_the_sample_text_pages_show_in_that_language(tmp_path: Path, language: str, about: str, bio_starts: str) -> None:
    """`init --language zh` wrote an English profile text and About page into a Chinese site: the sample text the
    pages show is in the site's language where the theme has strings in it (the files' comments stay English)."""
    site = tmp_path / "site"
    assert run_sitegen("init", str(site), "--name", "李华", "--language", language).returncode == 0
    assert run_sitegen("build", "--strict", cwd=site).returncode == 0
    index, page = soup_of(site / "output" / "index.html"), soup_of(site / "output" / "about" / "index.html")
    assert index.select_one(".bio").get_text(" ", strip=True).startswith(bio_starts)
    assert page.select_one("main h1").get_text(strip=True) == about and about in [a.get_text(strip=True) for a in index.select("header nav a")]
    assert (page.select_one("main h2").get_text(strip=True) == "Selected publications") == (language == "en")


@pytest.mark.slow
def test_every_commented_option_is_a_real_setting(new_site: Path) -> None:
    """With all examples switched on, the site still checks clean: no option is misspelt or invented."""
    for relative in ("content/profile.yaml", "content/site.yaml", *(f"content/records/{p.name}" for p in (new_site / "content/records").glob("*.yaml"))):
        path = new_site / relative
        path.write_text(uncomment_options(path.read_text(encoding="utf-8")), encoding="utf-8")
    for relative in (
        "content/posts/_example.md",
        "content/news/_example.md",
        "content/talks/_example.yaml",
        "content/projects/_example.md",
    ):  # published, every option on
        example = new_site / relative
        example.with_name(example.name[1:]).write_text(uncomment_options(example.read_text(encoding="utf-8")), encoding="utf-8")
    (new_site / "static").mkdir(exist_ok=True)
    (new_site / "static" / "my-project.png").write_bytes(b"\x89PNG\r\n\x1a\n")  # the project's `image:`
    profile = yaml.safe_load((new_site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    site = yaml.safe_load((new_site / "content" / "site.yaml").read_text(encoding="utf-8"))
    assert set(profile) == PROFILE_OPTIONS == PROFILE_FIELDS | PROFILE_EXTRAS - PEOPLE_ONLY  # every setting sitegen knows, as the files say
    assert set(site) == SITE_OPTIONS == SITE_FIELDS | SITE_EXTRAS
    assert set(profile["arxiv"]) == ARXIV_OPTIONS
    assert len(profile["links"]) >= 10
    result = run_sitegen("check", cwd=new_site)
    assert result.returncode == 0, result.stderr
    assert "unknown" not in result.stderr, result.stderr
    assert not [line for line in result.stderr.splitlines() if line.startswith(("content/posts", "content/news", "content/talks", "content/projects"))], (
        result.stderr
    )
    built = run_sitegen("build", cwd=new_site)
    assert built.returncode == 0, built.stderr
    assert (new_site / "output/posts/example/index.html").is_file() and (new_site / "output/news/index.html").is_file()
    project = soup_of(new_site / "output/projects/example/index.html")
    assert [a.get_text(strip=True) for a in project.select("main .record-title a")] and project.select_one("main ul.links a") is not None
    # the guessed X and Mastodon handles are handles: the mastodon one was a link into the site, with a warning
    assert not [line for line in result.stderr.splitlines() if "link 'mastodon'" in line or "link 'x'" in line], result.stderr
    head = {m["name"]: m["content"] for m in soup_of(new_site / "output/index.html").find_all("meta", attrs={"name": True})}
    assert head["twitter:creator"] == "@ada_lovelace" and head["fediverse:creator"] == "@ada_lovelace@mastodon.social"


@pytest.mark.parametrize(
    ("remote", "base_url"),
    [
        ("git@github.com:JDoe/research-site.git", "https://jdoe.github.io/research-site/"),
        ("https://github.com/jdoe/jdoe.github.io", "https://jdoe.github.io/"),
    ],
)
def test_init_in_a_clone_deploys_its_branch_at_its_repository_address(tmp_path: Path, remote: str, base_url: str) -> None:
    """`sitegen init .` in a clone of a GitHub repository whose default branch is master: pages.yml runs on pushes to
    master (with `branches: [main]` no push would ever deploy), and base_url is the repository's Pages address,
    not a guess from the name and the folder."""
    clone = tmp_path / "clone"
    clone.mkdir()
    git("init", "-q", "-b", "master", cwd=clone)
    git("remote", "add", "origin", remote, cwd=clone)
    result = run_sitegen("init", ".", "--name", "Jane Doe", cwd=clone)
    assert result.returncode == 0, result.stderr
    assert "cd ." not in result.stdout  # the next steps start where the user is
    pages = yaml.safe_load((clone / ".github/workflows/pages.yml").read_text(encoding="utf-8"))
    assert pages[True]["push"]["branches"] == ["master"]  # PyYAML reads the key `on` as True
    site = yaml.safe_load((clone / "content/site.yaml").read_text(encoding="utf-8"))
    assert site["base_url"] == base_url
    assert "http://127.0.0.1:8000" + base_url.removeprefix("https://jdoe.github.io") in result.stdout
    guide = (clone / "README.md").read_text(encoding="utf-8")
    assert "git push -u origin master" in guide and "git remote add" not in guide
    assert f"the site at\n   `{base_url}`" in guide


def test_init_in_a_folder_of_another_repository_keeps_its_guesses(tmp_path: Path) -> None:
    """A new folder inside some other Git repository (a dotfiles home, a monorepo) is no clone of the site's."""
    git("init", "-q", "-b", "trunk", cwd=tmp_path)
    git("remote", "add", "origin", "https://github.com/someone/dotfiles.git", cwd=tmp_path)
    result = init(tmp_path / "mysite", "--name", "Jane Doe")
    assert result.returncode == 0, result.stderr
    pages = yaml.safe_load((tmp_path / "mysite/.github/workflows/pages.yml").read_text(encoding="utf-8"))
    assert pages[True]["push"]["branches"] == ["main"]
    assert yaml.safe_load((tmp_path / "mysite/content/site.yaml").read_text(encoding="utf-8"))["base_url"] == "https://jane-doe.github.io/mysite/"


def test_gitignore_keeps_build_output_out_of_git(new_site: Path) -> None:
    ignored = (new_site / ".gitignore").read_text(encoding="utf-8").split()
    assert {"output/", ".venv/", ".sitegen-cache/"} <= set(ignored)
    assert {"Thumbs.db", "desktop.ini", "~$*", ".DS_Store"} <= set(ignored)  # what Windows, Office and macOS leave in folders


def test_owner_readme_explains_editing_preview_and_deploy(new_site: Path) -> None:
    readme = (new_site / "README.md").read_text(encoding="utf-8")
    assert readme.startswith(f"# {NAME}")
    for must in (
        "content/profile.yaml",
        "sitegen serve",
        "Source: GitHub Actions",
        "Custom domain",
        "Refresh publications",
        "SITEGEN_REFRESH_MODE",
        "Allow GitHub Actions to create and approve pull requests",
        "http://127.0.0.1:8000/mysite/",  # where the preview shows a project site: under its path, as deployed
        "GitLab Pages, Netlify, Cloudflare Pages",  # and where the recipes for other hosts are
    ):
        assert must in readme, must


# --------------------------------------------------------------------------
# requirements.txt names a sitegen that pip can install where the workflows run
# --------------------------------------------------------------------------

DISTRIBUTION = "sitegen-profiles"
PUBLIC_REMOTE = "https://github.com/example/sitegen.git"  # the clone's `origin`: never contacted


def requirement_lines(site: Path) -> list[str]:
    text = (site / "requirements.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def comment_of(site: Path) -> str:
    """The comment lines of requirements.txt, joined into one text."""
    lines = (site / "requirements.txt").read_text(encoding="utf-8").splitlines()
    return " ".join(line.lstrip("# ").strip() for line in lines if line.startswith("#"))


def test_requirements_name_one_sitegen_and_never_the_unrelated_pypi_project(new_site: Path) -> None:
    from packaging.requirements import Requirement

    (line,) = requirement_lines(new_site)
    requirement = Requirement(line)
    assert requirement.name == DISTRIBUTION  # `sitegen` on PyPI is another project (0.9.x)


def test_this_editable_checkout_is_named_with_a_warning_and_the_line_to_use(tmp_path: Path) -> None:
    """The test environment's sitegen is this checkout installed with `pip install -e` (as .ci/run does):
    GitHub's runner cannot install a folder of this machine, so init says what to write instead."""
    from sitegen import __version__
    from sitegen.scaffold import installed_distribution

    direct_url = json.loads(installed_distribution().read_text("direct_url.json") or "{}")
    if not direct_url.get("dir_info", {}).get("editable"):
        pytest.skip("the tests run with a sitegen that is not an editable install of a folder")
    site = tmp_path / "mysite"
    result = init(site, "--name", NAME)
    assert result.returncode == 0, result.stderr
    release = ".".join((__version__.split(".") + ["0", "0"])[:3])
    assert requirement_lines(site) == [f"{DISTRIBUTION}~={release}"]
    warning = result.stderr
    assert warning.startswith("warning: this sitegen was installed from the folder ")
    assert f"{REPO} (editable)" in warning and "GitHub Actions cannot reach" in warning
    assert "mysite/requirements.txt" in warning
    suggestion = warning.strip().splitlines()[-1].strip()
    assert re.fullmatch(rf"{DISTRIBUTION} @ git\+\S+@(\w+)", suggestion), warning
    assert "cannot reach" in comment_of(site)


def test_init_refused_prints_no_install_warning(new_site: Path) -> None:
    result = init(new_site, "--name", "Someone Else")
    assert result.returncode == 1
    assert "warning" not in result.stderr


@pytest.mark.parametrize(
    ("direct_url", "line", "said"),
    [
        (
            {
                "url": "https://github.com/example/sitegen.git",
                "vcs_info": {"vcs": "git", "commit_id": "0123456789abcdef0123456789abcdef01234567", "requested_revision": "v0.2.0"},
            },
            f"{DISTRIBUTION} @ git+https://github.com/example/sitegen.git@0123456789abcdef0123456789abcdef01234567",
            "commit 0123456789abcdef0123456789abcdef01234567 (v0.2.0)",
        ),
        (
            {
                "url": "ssh://git@github.com/example/sitegen.git",
                "subdirectory": "python",
                "vcs_info": {"vcs": "git", "commit_id": "89abcdef0123456789abcdef0123456789abcdef"},
            },
            f"{DISTRIBUTION} @ git+ssh://git@github.com/example/sitegen.git@89abcdef0123456789abcdef0123456789abcdef#subdirectory=python",
            "Git, ssh://git@github.com/example/sitegen.git",
        ),
        (
            {"url": "https://example.org/dist/sitegen_profiles-0.1.0-py3-none-any.whl", "archive_info": {"hashes": {"sha256": "ab" * 32}}},
            f"{DISTRIBUTION} @ https://example.org/dist/sitegen_profiles-0.1.0-py3-none-any.whl#sha256={'ab' * 32}",
            "installs that file",
        ),
    ],
)
def test_a_sitegen_from_a_url_is_named_by_that_url_without_a_warning(direct_url: dict, line: str, said: str) -> None:
    from sitegen.scaffold import requirement_from_direct_url

    requirement = requirement_from_direct_url(direct_url, direct_url["url"], Path("mysite/requirements.txt"))
    assert requirement.line == line
    assert said in requirement.origin
    assert requirement.warning == ()


def test_a_wheel_file_of_this_machine_gets_the_release_and_a_warning() -> None:
    from sitegen.scaffold import requirement_from_direct_url

    url = "file:///tmp/wheels/sitegen_profiles-0.1.0-py3-none-any.whl"
    requirement = requirement_from_direct_url({"url": url, "archive_info": {}}, url, Path("mysite/requirements.txt"))
    assert requirement.line.startswith(f"{DISTRIBUTION}~=")
    assert "the file /tmp/wheels/sitegen_profiles-0.1.0-py3-none-any.whl" in requirement.warning[0]
    assert requirement.warning[-1].strip() == f"{DISTRIBUTION} @ git+https://github.com/OWNER/REPOSITORY@COMMIT"


@pytest.mark.parametrize(
    ("remote", "public"),
    [
        ("git@github.com:example/sitegen.git", "https://github.com/example/sitegen.git"),
        ("ssh://git@github.com/example/sitegen.git", "https://github.com/example/sitegen.git"),
        ("https://someone:ghp_secret@github.com/example/sitegen.git", "https://github.com/example/sitegen.git"),
        ("/home/me/sitegen", None),
        ("file:///home/me/sitegen", None),
    ],
)
def test_a_git_remote_is_suggested_as_an_anonymous_https_url(remote: str, public: str | None) -> None:
    from sitegen.scaffold import public_url

    assert public_url(remote) == public


# --- the real thing: sitegen installed in a fresh environment, then its requirements.txt in another


def git(*args: str, cwd: Path) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.org",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.org",
    }
    result = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"
    return result.stdout.strip()


def copy_of_sitegen(destination: Path) -> Path:
    """This checkout without build products, so that installing it writes nothing into the repository."""
    ignore = shutil.ignore_patterns(
        ".git",
        "output",
        ".venv",
        "venv",
        "build",
        "dist",
        "*.egg-info",
        "__pycache__",
        ".pytest_cache",
        ".hypothesis",
        ".sitegen-cache",
        "node_modules",
        "site",
    )
    shutil.copytree(REPO, destination, ignore=ignore, symlinks=True)
    return destination


def build_wheel(source: Path, wheelhouse: Path) -> Path:
    """sitegen's wheel, built offline with this environment's setuptools."""
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", str(wheelhouse), str(source)],
        check=True,
        timeout=300,
        capture_output=True,
    )
    return next(wheelhouse.glob("*.whl"))


@pytest.fixture(scope="module")
def sitegen_repository(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Git repository of this checkout's files as they are now, one commit on main, and an `origin`
    on GitHub that holds that commit (its remote-tracking branch, as after a push; nothing is contacted)."""
    repository = copy_of_sitegen(tmp_path_factory.mktemp("sitegen-git") / "sitegen")
    git("init", "-q", "-b", "main", cwd=repository)
    git("add", "-A", cwd=repository)
    git("commit", "-q", "-m", "sitegen as tested", cwd=repository)
    git("remote", "add", "origin", PUBLIC_REMOTE, cwd=repository)
    git("update-ref", "refs/remotes/origin/main", "HEAD", cwd=repository)
    return repository


@pytest.fixture(scope="module")
def dependencies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This environment's installed packages, sitegen itself left out: a fresh environment that sees
    them (a .pth file) has sitegen's dependencies without a download, and must get sitegen from pip."""
    folder = tmp_path_factory.mktemp("dependencies")
    for site_packages in map(Path, python_site.getsitepackages()):
        for entry in site_packages.iterdir():
            lowered = entry.name.lower()
            if lowered.startswith(("sitegen", "__editable__")) or "sitegen_profiles" in lowered or entry.suffix == ".pth":
                continue
            if not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry)
    return folder


class Environment:
    """A fresh virtual environment: pip and the sitegen command installed in it, run as a user would."""

    def __init__(self, path: Path, dependencies: Path):
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, timeout=300)
        site_packages = next(path.glob("lib/python*/site-packages"))
        (site_packages / "zz-sitegen-dependencies.pth").write_text(f"{dependencies}\n", encoding="utf-8")
        self.path = path
        self.env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        self.env.update(PATH=f"{path / 'bin'}{os.pathsep}{self.env['PATH']}", VIRTUAL_ENV=str(path), PIP_DISABLE_PIP_VERSION_CHECK="1")
        # Python before 3.12 puts an old setuptools into every new environment; sitegen's build needs the newer one.
        subprocess.run([str(path / "bin" / "python"), "-m", "pip", "uninstall", "-y", "-q", "setuptools"], env=self.env, capture_output=True, timeout=300)

    def pip_install(self, *args: str) -> None:
        """Offline: sitegen's dependencies are there already, and its build uses this setuptools."""
        result = subprocess.run(
            [str(self.path / "bin" / "python"), "-m", "pip", "install", "--no-index", "--no-build-isolation", *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, result.stdout + result.stderr

    def sitegen(self, *args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.path / "bin" / "sitegen"), *args], cwd=cwd, env=self.env, capture_output=True, text=True, timeout=120)

    def direct_url(self) -> dict | None:
        """What pip recorded of where it installed sitegen from (PEP 610), None for a package index."""
        (dist_info,) = self.path.glob("lib/python*/site-packages/sitegen_profiles-*.dist-info")
        path = dist_info / "direct_url.json"
        return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


@pytest.mark.slow
def test_installed_from_git_the_site_installs_that_commit(tmp_path: Path, sitegen_repository: Path, dependencies: Path) -> None:
    """`pip install git+file://...@main`, `sitegen init`, then `pip install -r requirements.txt` elsewhere:
    the same commit, even after main has moved on."""
    clone = tmp_path / "clone"
    git("clone", "-q", str(sitegen_repository), str(clone), cwd=tmp_path)
    git("remote", "set-url", "origin", PUBLIC_REMOTE, cwd=clone)  # the clone's main is on origin/main
    commit = git("rev-parse", "HEAD", cwd=clone)
    installed = Environment(tmp_path / "installed", dependencies)
    installed.pip_install(f"git+{clone.as_uri()}@main")
    assert installed.direct_url()["vcs_info"]["commit_id"] == commit

    result = installed.sitegen("init", "mysite", "--name", NAME, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    site = tmp_path / "mysite"
    line = f"git+{clone.as_uri()}@{commit}"  # the bare URL: pip before 24.1 refuses `name @ git+file:///...`
    assert requirement_lines(site) == [line]
    assert f"commit {commit} (main)" in comment_of(site)
    # A repository on this machine is out of GitHub's reach: said, with the public remote's line.
    assert f"installed from the Git repository {clone} on this machine, which GitHub Actions cannot reach" in result.stderr
    assert f"names it as installed: {line}" in result.stderr
    assert result.stderr.strip().splitlines()[-1].strip() == f"{DISTRIBUTION} @ git+{PUBLIC_REMOTE}@{commit}"

    (clone / "NEWS").write_text("main moves on\n", encoding="utf-8")
    git("add", "NEWS", cwd=clone)
    git("commit", "-q", "-m", "later", cwd=clone)
    deployed = Environment(tmp_path / "deployed", dependencies)
    deployed.pip_install("-r", str(site / "requirements.txt"))
    assert deployed.direct_url()["vcs_info"]["commit_id"] == commit
    version = deployed.sitegen("--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("sitegen "), version.stderr
    again = deployed.sitegen("init", "again", "--name", NAME, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert requirement_lines(tmp_path / "again") == [line], "a site made by the deployed sitegen names the same commit"


@pytest.mark.slow
def test_installed_from_a_package_index_the_site_installs_the_release(tmp_path: Path, sitegen_repository: Path, dependencies: Path) -> None:
    """A folder of wheels stands in for PyPI (`--find-links`): pip records no direct URL, as for any index."""
    from sitegen import __version__

    wheelhouse = tmp_path / "index"
    build_wheel(sitegen_repository, wheelhouse)
    installed = Environment(tmp_path / "installed", dependencies)
    installed.pip_install("--find-links", str(wheelhouse), DISTRIBUTION)
    assert installed.direct_url() is None

    result = installed.sitegen("init", "mysite", "--name", NAME, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", "nothing to warn about"
    site = tmp_path / "mysite"
    release = ".".join((__version__.split(".") + ["0", "0"])[:3])
    assert requirement_lines(site) == [f"{DISTRIBUTION}~={release}"]
    assert "a package index" in comment_of(site)

    deployed = Environment(tmp_path / "deployed", dependencies)
    deployed.pip_install("--find-links", str(wheelhouse), "-r", str(site / "requirements.txt"))
    assert deployed.direct_url() is None
    version = deployed.sitegen("--version", cwd=tmp_path)
    assert version.stdout.strip() == f"sitegen {__version__}", version.stderr


@pytest.mark.slow
def test_installed_from_a_folder_init_warns_with_the_line_to_use(tmp_path: Path, sitegen_repository: Path, dependencies: Path) -> None:
    """A folder (here a clone with a commit not yet pushed) is out of GitHub's reach: init says so, and which line to write."""
    clone = tmp_path / "clone"
    git("clone", "-q", str(sitegen_repository), str(clone), cwd=tmp_path)
    git("remote", "set-url", "origin", "git@github.com:example/sitegen.git", cwd=clone)
    (clone / "NEWS").write_text("a local change\n", encoding="utf-8")
    git("add", "NEWS", cwd=clone)
    git("commit", "-q", "-m", "not pushed yet", cwd=clone)
    commit = git("rev-parse", "HEAD", cwd=clone)
    installed = Environment(tmp_path / "installed", dependencies)
    installed.pip_install(str(clone))
    assert installed.direct_url() == {"url": clone.as_uri(), "dir_info": {}}

    result = installed.sitegen("init", "mysite", "--name", NAME, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0] == (
        f"warning: this sitegen was installed from the folder {clone}, which GitHub Actions cannot reach: the site's first deployment would fail."
    )
    assert lines[1].strip().startswith(f"mysite/requirements.txt names {DISTRIBUTION}~=")
    assert lines[2].strip() == (
        f"To deploy with this sitegen, put this line in mysite/requirements.txt instead (once commit {commit[:12]} is pushed to {PUBLIC_REMOTE}):"
    )
    assert lines[3].strip() == f"{DISTRIBUTION} @ git+{PUBLIC_REMOTE}@{commit}"
    assert len(lines) == 4
    assert f"installed from the folder {clone}, which GitHub Actions cannot reach" in comment_of(tmp_path / "mysite")


# --------------------------------------------------------------------------
# Names and folders
# --------------------------------------------------------------------------


# --------------------------------------------------------------------------
# A lab's site: --lab (SPEC §9, docs/people.md)
# --------------------------------------------------------------------------

LAB = "Vision Lab"
SAMPLE_MEMBER = "content/people/lovelace.yaml"


@pytest.fixture
def lab_site(tmp_path: Path) -> Path:
    site = tmp_path / "lab"
    result = init(site, "--lab", LAB)
    assert result.returncode == 0, result.stderr
    assert "content/people/" in result.stdout and "lovelace.yaml is a sample member" in result.stdout
    return site


def test_init_lab_makes_profile_yaml_the_lab_and_writes_a_sample_member(lab_site: Path) -> None:
    """`--name "Vision Lab"` made the lab a person: name variants 'V. Lab' and an arXiv search for the author
    'Vision Lab'. `--lab` makes profile.yaml the lab, with neither, and content/people/ a sample member who wrote
    the sample records."""
    assert set(files_of(lab_site)) == SITE_FILES | {SAMPLE_MEMBER}
    profile = yaml.safe_load((lab_site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == LAB and "name_variants" not in profile
    assert profile["arxiv"] is None, "arXiv's authors are people: no search for the lab's name"
    assert yaml.safe_load((lab_site / "content" / "site.yaml").read_text(encoding="utf-8"))["title"] == LAB
    member = yaml.safe_load((lab_site / SAMPLE_MEMBER).read_text(encoding="utf-8"))
    assert (member["name"], member["affiliation"]) == ("Ada Lovelace", LAB)
    records = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in (lab_site / "content" / "records").glob("*.yaml")]
    assert len(records) == 3 and all("Ada Lovelace" in record["authors"] and LAB not in record["authors"] for record in records)
    assert "V. Lab" not in "".join(text.decode("utf-8") for text in files_of(lab_site).values())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "description", "position", "bio_starts"),
    [
        ("fr", "Labo Tri\u00a0: publications et membres.", "Doctorante", "Ada travaille sur"),
        ("nl", "Publicaties en leden van Labo Tri.", "Promovenda", "Ada werkt aan"),
        ("zh", "Labo Tri的论文与成员。", "博士研究生", "Ada 研究分析机"),
    ],
)
def test_init_lab_language_writes_the_description_and_sample_member_in_that_language(
    tmp_path: Path, language: str, description: str, position: str, bio_starts: str
) -> None:
    """`init --lab --language fr` wrote site.yaml's description ("Publications and people of ...": every page's meta
    description, the feeds' subtitle) and the sample member's position and bio ("PhD student", "Ada works on
    analytical engines") in English onto a French site's pages."""
    site = tmp_path / "lab"
    assert init(site, "--lab", "Labo Tri", "--language", language).returncode == 0
    assert run_sitegen("build", "--strict", cwd=site).returncode == 0
    index = soup_of(site / "output" / "index.html")
    assert index.select_one('meta[name="description"]')["content"] == description
    member = soup_of(site / "output" / "people" / "lovelace" / "index.html")
    shown = member.select_one("main").get_text(" ", strip=True)
    assert position in shown and "PhD student" not in shown
    assert member.select_one(".bio").get_text(" ", strip=True).startswith(bio_starts)


@pytest.mark.slow
def test_a_new_lab_site_builds_strictly_with_a_page_for_its_member(lab_site: Path) -> None:
    result = run_sitegen("build", "--strict", cwd=lab_site)
    assert result.returncode == 0, result.stderr
    output = lab_site / "output"
    index = soup_of(output / "index.html")
    assert index.find("h1").get_text(" ", strip=True) == LAB
    assert json.loads(index.select_one('script[type="application/ld+json"]').string)["@type"] == "Organization"
    member = soup_of(output / "people" / "lovelace" / "index.html")
    assert member.find("h1").get_text(" ", strip=True) == "Ada Lovelace"
    assert {li["id"] for li in member.select("li.record[id]")} == {"r-example-article", "r-example-preprint", "r-example-workshop"}
    links = [a for a in index.select("#publications a") if a.get_text(strip=True) == "Ada Lovelace"]
    assert links and all("people/lovelace/" in a["href"] for a in links)
    assert any(a.get_text(strip=True) == "People" for a in index.select("header nav a"))


@pytest.mark.slow
def test_fetch_on_a_new_lab_site_searches_arxiv_for_no_group_name(tmp_path: Path, lab_site: Path, arxiv_server) -> None:
    """What the weekly workflow runs: `sitegen fetch` with no options. A person's site searches its owner's name;
    a lab's asks arXiv nothing until a member's file names an identifier."""
    server = arxiv_server()
    result = run_sitegen("fetch", cwd=lab_site, env={"SITEGEN_ARXIV_API": server.api_url})
    assert result.returncode == 0, result.stderr
    assert "nothing to fetch" in result.stdout
    assert server.stats()["query_requests"] == 0
    person = init(tmp_path / "person", "--name", NAME)  # the same command does search a person's name
    assert person.returncode == 0, person.stderr
    assert run_sitegen("fetch", cwd=tmp_path / "person", env={"SITEGEN_ARXIV_API": server.api_url}).returncode == 0
    assert server.stats()["query_requests"] > 0


@pytest.mark.parametrize("options", [["--lab", "Vision Lab", "--name", "Ada Lovelace"], ["--lab", "  "], ["--lab", "Vision Lab", "--from", "old"]])
def test_lab_with_a_name_an_old_site_or_no_name_is_a_command_line_error(tmp_path: Path, options: list[str]) -> None:
    result = init(tmp_path / "site", *options)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("sitegen init: error: --lab") and not (tmp_path / "site").exists()


@pytest.mark.slow
def test_every_commented_option_of_the_sample_member_is_a_real_setting(lab_site: Path) -> None:
    path = lab_site / SAMPLE_MEMBER
    path.write_text(uncomment_options(path.read_text(encoding="utf-8")), encoding="utf-8")
    member = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert {"orcid", "arxiv", "openalex", "dblp", "coauthors", "exclude_ids", "slug", "photo", "email", "links"} <= set(member)
    result = run_sitegen("check", cwd=lab_site)
    assert result.returncode == 0, result.stderr
    assert "unknown" not in result.stderr and "did you mean" not in result.stderr, result.stderr


@pytest.mark.slow
def test_without_name_a_placeholder_is_used_and_said(tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = init(site)
    assert result.returncode == 0, result.stderr
    assert "Your Name" in result.stdout and "--name" in result.stdout
    assert "preview at http://127.0.0.1:8000/site/," in result.stdout  # the path the server shows it under
    profile = yaml.safe_load((site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == "Your Name"
    assert profile["arxiv"] is None, "a placeholder must not be searched on arXiv"
    assert run_sitegen("build", cwd=site).returncode == 0


@pytest.mark.slow
def test_a_name_with_quotes_colons_and_hashes_survives(tmp_path: Path) -> None:
    name = 'Siobhán O\'Brien "Sio": #1'
    site = tmp_path / "site"
    assert init(site, "--name", name).returncode == 0
    profile = yaml.safe_load((site / "content" / "profile.yaml").read_text(encoding="utf-8"))
    assert profile["name"] == name and profile["arxiv"]["authors"] == [name]
    assert run_sitegen("build", cwd=site).returncode == 0
    assert soup_of(site / "output" / "index.html").find("h1").get_text(" ", strip=True) == name


def test_an_empty_name_is_a_command_line_error(tmp_path: Path) -> None:
    result = init(tmp_path / "site", "--name", "   ")
    assert result.returncode == 2
    assert "--name" in result.stderr
    assert not (tmp_path / "site").exists()


@pytest.mark.slow
def test_a_user_site_folder_gets_the_root_address(tmp_path: Path) -> None:
    site = tmp_path / "ada.github.io"
    assert init(site, "--name", NAME).returncode == 0
    assert yaml.safe_load((site / "content" / "site.yaml").read_text(encoding="utf-8"))["base_url"] == "https://ada.github.io/"


@pytest.mark.slow
@pytest.mark.parametrize(
    "option, name, user",
    [
        ("--lab", "Laboratory for Computational Neuroscience and Statistical Machine Learning", "laboratory-for-computational"),
        ("--name", "Maximilian Alexander Friedrich Wilhelm von Hohenzollern-Sigmaringen Jr", "maximilian-alexander-friedrich-wilhelm"),
        ("--name", "A" * 80, "a" * 39),
    ],
)
def test_a_long_name_gives_a_github_user_guess_that_github_allows_and_the_site_builds_at_once(tmp_path: Path, option, name, user) -> None:
    """A host label has at most 63 characters (the 82-character guess made base_url an error of the new site's
    first build); GitHub user names at most 39: the guess is cut after a word to that."""
    site = tmp_path / "l"
    assert init(site, option, name).returncode == 0
    assert yaml.safe_load((site / "content" / "site.yaml").read_text(encoding="utf-8"))["base_url"] == f"https://{user}.github.io/l/"
    result = run_sitegen("build", cwd=site)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_a_project_folder_gets_a_project_page_address(new_site: Path) -> None:
    assert yaml.safe_load((new_site / "content" / "site.yaml").read_text(encoding="utf-8"))["base_url"] == "https://ada-lovelace.github.io/mysite/"


# --------------------------------------------------------------------------
# Never overwrite by accident
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_init_again_refuses_names_every_file_it_would_change_and_changes_nothing(new_site: Path) -> None:
    (new_site / "content" / "profile.yaml").write_text("name: Changed by hand\n", encoding="utf-8")
    before = files_of(new_site)
    result = init(new_site, "--name", "Someone Else")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    named = {line.split(": ")[0] for line in lines[:-1]}
    # the files whose content would change (the name is in them), each on a line of its own; not the README
    # (the owner's, kept) nor the workflows and samples that are the same whatever the name
    changed = ("site.yaml", "profile.yaml", "records/example-article.yaml", "records/example-preprint.yaml", "records/example-workshop.yaml")
    assert named == {str(new_site / "content" / relative) for relative in changed}, result.stderr
    assert all(line.endswith(": exists, with other content than init writes") for line in lines[:-1])
    assert lines[-1].startswith("nothing was written") and "--force" in lines[-1]
    assert files_of(new_site) == before


def test_init_again_with_the_same_name_changes_nothing(new_site: Path) -> None:
    before = files_of(new_site)
    result = init(new_site, "--name", NAME)
    assert result.returncode == 0, result.stderr
    assert files_of(new_site) == before


def test_one_existing_file_blocks_the_whole_init(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "content" / "site.yaml").write_text("title: mine\n", encoding="utf-8")
    result = init(site, "--name", NAME)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == f"{site / 'content' / 'site.yaml'}: exists, with other content than init writes"
    assert "profile.yaml" not in result.stderr
    assert files_of(site) == {"content/site.yaml": b"title: mine\n"}


GITHUB_GITIGNORE = "# Byte-compiled / optimized / DLL files\n__pycache__/\n*.py[cod]\n\n# Environments\n.env\n.venv\nenv/\n"


@pytest.mark.slow
def test_init_in_a_fresh_github_clone_keeps_the_readme_and_license_and_adds_to_gitignore(tmp_path: Path) -> None:
    """A repository made on GitHub starts with a README, a LICENSE and a .gitignore: `sitegen init .` in its
    clone works without --force, keeps the README (saying so) and the LICENSE, and adds the lines sitegen
    needs to the .gitignore."""
    site = tmp_path / "mysite"
    site.mkdir()
    (site / "README.md").write_text("# mysite\nMy research homepage.\n", encoding="utf-8")
    (site / "LICENSE").write_text("MIT License\n", encoding="utf-8")
    (site / ".gitignore").write_text(GITHUB_GITIGNORE, encoding="utf-8")
    result = run_sitegen("init", ".", "--name", NAME, cwd=site)
    assert result.returncode == 0, result.stderr
    assert (site / "README.md").read_text(encoding="utf-8") == "# mysite\nMy research homepage.\n"
    assert (site / "LICENSE").read_text(encoding="utf-8") == "MIT License\n"
    assert "note: README.md is yours and was kept" in result.stdout
    assert "Settings -> Pages -> Source: GitHub Actions" in result.stdout
    ignore = (site / ".gitignore").read_text(encoding="utf-8")
    assert ignore.startswith(GITHUB_GITIGNORE)
    added = ignore[len(GITHUB_GITIGNORE) :].splitlines()
    patterns = ["output/", ".sitegen-cache/", "Thumbs.db", "desktop.ini", "~$*", ".DS_Store"]
    assert [line for line in added if line and not line.startswith("#")] == patterns  # .venv and __pycache__/ are there
    assert f"note: .gitignore is yours: the lines sitegen needs ({', '.join(patterns)}) were added at its end" in result.stdout
    assert run_sitegen("build", cwd=site).returncode == 0
    again = run_sitegen("init", ".", "--name", NAME, "--force", cwd=site)  # nothing more to add; the README still kept
    assert again.returncode == 0, again.stderr
    assert (site / ".gitignore").read_text(encoding="utf-8") == ignore
    assert (site / "README.md").read_text(encoding="utf-8") == "# mysite\nMy research homepage.\n"


def test_force_overwrites(new_site: Path) -> None:
    pristine = files_of(new_site)
    (new_site / "content" / "profile.yaml").write_text("name: Changed by hand\n", encoding="utf-8")
    result = init(new_site, "--name", NAME, "--force")
    assert result.returncode == 0, result.stderr
    assert files_of(new_site) == pristine


def test_a_file_in_place_of_the_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "site").write_text("x", encoding="utf-8")
    result = init(tmp_path / "site", "--name", NAME)
    assert result.returncode == 1
    assert "not a folder" in result.stderr


def test_a_file_where_a_folder_goes_blocks_even_with_force(tmp_path: Path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "content").write_text("not a folder\n", encoding="utf-8")
    result = init(site, "--name", NAME, "--force")
    assert result.returncode == 1
    assert result.stderr.startswith(f"{site / 'content'}: in the way") and "nothing was written" in result.stderr
    assert files_of(site) == {"content": b"not a folder\n"}


# --------------------------------------------------------------------------
# The crawler that the sub-path test relies on must see what it is meant to
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_crawler_reports_missing_files_escaping_links_and_anchors(tmp_path: Path) -> None:
    site = tmp_path / "out"
    (site / "sub").mkdir(parents=True)
    (site / "index.html").write_text(
        '<html><head><link rel="stylesheet" href="style.css"></head><body id="top">'
        '<a href="sub/">ok</a> <a href="missing/">missing</a> <a href="/elsewhere/">root</a>'
        '<a href="#top">ok anchor</a> <a href="sub/#nowhere">bad anchor</a>'
        '<a href="https://example.org/">external</a> <img src="pic.png"></body></html>',
        encoding="utf-8",
    )
    (site / "style.css").write_text("body { background: url('bg.png') }", encoding="utf-8")
    (site / "sub" / "index.html").write_text('<html><body><a href="../">home</a></body></html>', encoding="utf-8")
    with serve_directory(site, prefix="/mysite/") as base_url:
        report = crawl(base_url)
    assert base_url.endswith("/mysite/")
    assert sorted(b.url.removeprefix(base_url) for b in report.broken) == ["bg.png", "missing/", "pic.png"]
    assert {b.status for b in report.broken} == {404}
    assert [url.split("/", 3)[3] for _, url in report.outside] == ["elsewhere/"]
    assert [url.removeprefix(base_url) for _, url in report.missing_anchors] == ["sub/#nowhere"]
    assert report.external == {"https://example.org/"}
    assert len(report.problems) == 5


@pytest.mark.slow
def test_the_served_sub_path_is_the_only_one(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    with serve_directory(tmp_path, prefix="/mysite/") as base_url:
        root = base_url.removesuffix("mysite/")
        assert crawl(base_url).problems == []
        assert [b.status for b in crawl(root).broken] == [404]
        assert crawl(base_url.rstrip("/")).pages == [base_url.rstrip("/")]  # /mysite redirects to /mysite/


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))


def test_init_again_in_a_windows_checkout_changes_nothing(new_site: Path) -> None:
    """Git for Windows (core.autocrlf) checks out every file init wrote with CRLF line ends: they are still init's
    (not the owner's README, not files in the way), and are left as they are."""
    for path in new_site.rglob("*"):
        if path.is_file():
            path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    before = files_of(new_site)
    result = init(new_site, "--name", NAME)
    assert result.returncode == 0, result.stderr
    assert "README.md is yours" not in result.stdout
    assert files_of(new_site) == before
