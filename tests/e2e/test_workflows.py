"""The GitHub workflows: those `sitegen init` writes and this repository's own.

Three kinds of check:
- schema: `check-jsonschema --builtin-schema vendor.github-workflows` on every file;
- shape: what deploying, refreshing and checking pull requests need (triggers,
  permissions, the chain configure-pages -> base URL -> build -> upload ->
  deploy, the weekly schedule, the pull request and the commit switch, the
  read-only check of a pull request), read from the parsed YAML;
- behaviour: the workflows' own shell steps played locally, as a runner would
  run them (`bash -eo pipefail`), with GitHub's expressions filled in: the Pages
  build in a fresh virtual environment, crawled under a project-page sub-path;
  the refresh against the fake arXiv server, in a git repository.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from arxiv_server import arxiv_server  # noqa: F401  (the fixture)
from conftest import REPO, run_sitegen
from crawl import crawl, serve_directory
from test_init import Environment, build_wheel, copy_of_sitegen, dependencies, git  # noqa: F401  (dependencies: a fixture)

CHECK_JSONSCHEMA = Path(sys.executable).parent / "check-jsonschema"
REPO_WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.y*ml"))
GENERATED_WORKFLOWS = ("check.yml", "pages.yml", "refresh-publications.yml")
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
NAME = "Sheng Lin"  # the name of the fake arXiv server's fixtures
REFRESH_BRANCH = "sitegen/refresh-publications"
CURRENT_MAJORS = {  # the Node 24 releases; older majors run on the retired Node 20
    "actions/checkout": "v6",
    "actions/setup-python": "v6",
    "actions/configure-pages": "v6",
    "actions/upload-pages-artifact": "v5",
    "actions/deploy-pages": "v5",
    "peter-evans/create-pull-request": "v8",
    "actions/upload-artifact": "v6",
    "actions/download-artifact": "v7",
    "pypa/gh-action-pypi-publish": "release/v1",  # the maintainers' moving tag for their current release
}


# --------------------------------------------------------------------------
# Helpers: read a workflow, play a step
# --------------------------------------------------------------------------


def load_workflow(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in workflow:  # YAML 1.1 reads the key `on` as true
        workflow["on"] = workflow.pop(True)
    return workflow


def step_using(job: dict, action: str) -> dict:
    steps = [step for step in job["steps"] if step.get("uses", "").split("@")[0] == action]
    assert len(steps) == 1, f"expected one step using {action}"
    return steps[0]


def step_running(job: dict, command: str) -> dict:
    steps = [step for step in job["steps"] if command in step.get("run", "")]
    assert len(steps) == 1, f"expected one step running {command!r}"
    return steps[0]


def steps_before(job: dict, step: dict) -> list[dict]:
    return job["steps"][: job["steps"].index(step)]


def fill_in(text: str, expressions: dict[str, str]) -> str:
    """Replace `${{ ... }}` as GitHub would; an expression the test did not foresee fails it."""

    def value(match: re.Match) -> str:
        assert match.group(1) in expressions, f"the test does not know the value of ${{{{ {match.group(1)} }}}}"
        return expressions[match.group(1)]

    return EXPRESSION.sub(value, str(text))


def play_step(step: dict, cwd: Path, env: dict[str, str], expressions: dict[str, str]) -> subprocess.CompletedProcess:
    """Run one `run:` step the way a runner does for `shell: bash`."""
    step_env = {key: fill_in(value, expressions) for key, value in (step.get("env") or {}).items()}
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", fill_in(step["run"], expressions)],
        cwd=cwd,
        env={**env, **step_env},
        capture_output=True,
        text=True,
        timeout=600,
    )


def read_outputs(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text(encoding="utf-8").splitlines() if "=" in line)


def init_site(directory: Path, name: str = NAME) -> Path:
    result = run_sitegen("init", str(directory), "--name", name, cwd=directory.parent)
    assert result.returncode == 0, result.stderr
    return directory


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The workflows folder of a site made by `sitegen init` (read-only for tests)."""
    site = init_site(tmp_path_factory.mktemp("generated") / "mysite", "Ada Lovelace")
    return site / ".github" / "workflows"


# --------------------------------------------------------------------------
# Schema: every workflow, generated or this repository's
# --------------------------------------------------------------------------


def check_jsonschema(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(CHECK_JSONSCHEMA), "--builtin-schema", "vendor.github-workflows", str(path)], capture_output=True, text=True, timeout=120)


@pytest.mark.slow
@pytest.mark.parametrize("name", GENERATED_WORKFLOWS)
def test_generated_workflow_passes_the_github_workflow_schema(generated: Path, name: str) -> None:
    result = check_jsonschema(generated / name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok -- validation done", result.stdout + result.stderr


def test_init_writes_exactly_the_three_workflows(generated: Path) -> None:
    assert sorted(path.name for path in generated.iterdir()) == sorted(GENERATED_WORKFLOWS)


@pytest.mark.parametrize("name", GENERATED_WORKFLOWS)
def test_every_generated_workflow_checks_out_a_theme_kept_as_a_submodule(generated: Path, name: str) -> None:
    """A theme installed as docs/themes.md says, a git submodule in themes/<name>/, is in the checkout each
    workflow builds or checks: without it, every run fails with "unknown theme"."""
    checkouts = [
        step for job in load_workflow(generated / name)["jobs"].values() for step in job["steps"] if step.get("uses", "").startswith("actions/checkout@")
    ]
    assert checkouts
    assert [step["with"].get("submodules") for step in checkouts] == [True] * len(checkouts)


def test_this_repository_has_its_test_pages_and_release_workflows() -> None:
    assert {path.name for path in REPO_WORKFLOWS} >= {"tests.yml", "pages.yml", "release.yml"}


@pytest.mark.slow
@pytest.mark.parametrize("path", REPO_WORKFLOWS, ids=lambda path: path.name)
def test_repository_workflow_passes_the_github_workflow_schema(path: Path) -> None:
    result = check_jsonschema(path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok -- validation done", result.stdout + result.stderr


@pytest.mark.slow
def test_the_schema_check_does_find_mistakes(tmp_path: Path) -> None:
    """Guard: a workflow with a misspelt key must fail, or the checks above prove nothing."""
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    step:\n      - run: echo hi\n", encoding="utf-8")
    assert check_jsonschema(broken).returncode != 0


@pytest.mark.parametrize(
    "path",
    [*REPO_WORKFLOWS, *(REPO / "sitegen" / "skeleton" / "dot-github" / "workflows").glob("*.yml")],
    ids=lambda path: f"{path.parent.parent.parent.name}/{path.name}",
)
def test_workflows_use_the_current_major_version_of_each_action(path: Path) -> None:
    for job in load_workflow(path)["jobs"].values():
        for step in job["steps"]:
            if "uses" in step:
                action, version = step["uses"].split("@")
                assert CURRENT_MAJORS.get(action) == version, f"{path.name}: {step['uses']}"


@pytest.fixture(scope="module")
def empty_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment's bin folder, as setup-python gives the runner: pip and nothing else."""
    venv = tmp_path_factory.mktemp("runner") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    return venv / "bin"


@pytest.mark.slow
@pytest.mark.parametrize("name", GENERATED_WORKFLOWS)
def test_a_requirements_file_pip_cannot_install_says_what_to_write_there(generated: Path, tmp_path: Path, empty_python: Path, name: str) -> None:
    """The line init writes from a checkout names a release that is not on the index (here: no index at all, as
    before sitegen's first release): pip's own error, then an annotation saying what requirements.txt must name."""
    (tmp_path / "requirements.txt").write_bytes((generated.parent.parent / "requirements.txt").read_bytes())
    (job,) = [job for job in load_workflow(generated / name)["jobs"].values() if "deploy-pages" not in str(job["steps"])]
    install = step_running(job, "pip install -r requirements.txt")
    env = {
        **os.environ,
        "PATH": f"{empty_python}{os.pathsep}{os.environ['PATH']}",
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": "",
        "PIP_CONFIG_FILE": os.devnull,
    }
    result = play_step(install, tmp_path, env, {})
    assert result.returncode == 1
    assert "No matching distribution found for sitegen-profiles" in result.stderr
    (annotation,) = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotation.startswith("::error title=pip could not install requirements.txt::")
    assert "sitegen-profiles~=X.Y.Z" in annotation and "sitegen-profiles @ git+https://github.com/OWNER/REPOSITORY@COMMIT" in annotation


# --------------------------------------------------------------------------
# Beside the workflows: the Codespace and Dependabot
# --------------------------------------------------------------------------


def test_a_codespace_of_the_site_installs_its_sitegen_and_opens_the_preview(generated: Path) -> None:
    """Someone who works in the browser only opens the site in a Codespace: the sitegen of requirements.txt is
    installed as the workflows install it, into their Python, and `sitegen serve`'s port is forwarded and opened."""
    container = json.loads((generated.parent.parent / ".devcontainer" / "devcontainer.json").read_text(encoding="utf-8"))
    pages = load_workflow(generated / "pages.yml")
    python = step_using(pages["jobs"]["build"], "actions/setup-python")["with"]["python-version"]
    assert container["image"] == f"mcr.microsoft.com/devcontainers/python:{python}"
    # The image's user (vscode) may not write the image's Python: a user install, its `sitegen` on the terminals' PATH.
    assert container["postCreateCommand"] == "python3 -m pip install --user -r requirements.txt"
    assert container["remoteEnv"] == {"PATH": "${containerEnv:PATH}:/home/vscode/.local/bin"}
    assert container["postAttachCommand"] == "python3 -m sitegen serve"
    serve_options = subprocess.run([sys.executable, "-m", "sitegen", "help", "serve"], capture_output=True, text=True, timeout=60).stdout
    port = int(re.search(r"--port PORT\s+port, 1 to 65535 \(default: (\d+)\)", serve_options).group(1))
    assert container["forwardPorts"] == [port]
    assert container["portsAttributes"] == {str(port): {"label": "Site preview", "onAutoForward": "openPreview"}}
    assert container["customizations"]["codespaces"]["openFiles"] == ["content/profile.yaml"]
    assert (generated.parent.parent / "content" / "profile.yaml").is_file()


def test_dependabot_keeps_the_actions_and_the_sitegen_release_current(generated: Path) -> None:
    """A pull request a month at most for each: the workflows' actions (GitHub retires old majors' runtimes) and
    requirements.txt, both at the repository's root, where GitHub looks for them."""
    config = yaml.safe_load((generated.parent / "dependabot.yml").read_text(encoding="utf-8"))
    assert config["version"] == 2
    updates = {update["package-ecosystem"]: update for update in config["updates"]}
    assert set(updates) == {"github-actions", "pip"}
    for update in updates.values():
        assert update["directory"] == "/" and update["schedule"] == {"interval": "monthly"}
    assert (generated.parent.parent / "requirements.txt").is_file()


@pytest.mark.slow
def test_dependabot_config_passes_its_schema(generated: Path) -> None:
    result = subprocess.run(
        [str(CHECK_JSONSCHEMA), "--builtin-schema", "vendor.dependabot", str(generated.parent / "dependabot.yml")], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


# --------------------------------------------------------------------------
# Shape: pages.yml (generated) and this repository's pages.yml
# --------------------------------------------------------------------------


def assert_deploys_to_pages(workflow: dict, install_command: str) -> None:
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert "workflow_dispatch" in workflow["on"]
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert workflow["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]

    setup_python = step_using(build, "actions/setup-python")
    assert setup_python["with"]["cache"] == "pip"
    install = step_running(build, install_command)
    configure = step_using(build, "actions/configure-pages")
    sitegen_build = step_running(build, "sitegen build")
    upload = step_using(build, "actions/upload-pages-artifact")
    assert step_using(build, "actions/checkout") in steps_before(build, install)
    assert setup_python in steps_before(build, install)
    assert configure in steps_before(build, sitegen_build) and install in steps_before(build, sitegen_build)
    assert sitegen_build in steps_before(build, upload)

    # configure-pages' base_url reaches `sitegen build --base-url`, with the trailing slash.
    assert configure["id"] == "pages"
    assert sitegen_build["env"] == {"BASE_URL": "${{ steps.pages.outputs.base_url }}"}
    assert sitegen_build["run"].strip() == 'sitegen build --base-url "$BASE_URL/" --output-format github'
    assert upload["with"]["path"] == "output"

    assert deploy["needs"] == "build"
    assert deploy["environment"] == {"name": "github-pages", "url": "${{ steps.deployment.outputs.page_url }}"}
    assert step_using(deploy, "actions/deploy-pages")["id"] == "deployment"


def test_generated_pages_workflow_builds_and_deploys(generated: Path) -> None:
    workflow = load_workflow(generated / "pages.yml")
    assert_deploys_to_pages(workflow, "pip install -r requirements.txt")
    assert step_using(workflow["jobs"]["build"], "actions/setup-python")["with"]["cache-dependency-path"] == "requirements.txt"


# --------------------------------------------------------------------------
# Behaviour: pages.yml's first step, when Pages is off or publishes a branch
# --------------------------------------------------------------------------

FAKE_GH = """#!{python}
# `gh api repos/OWNER/REPO/pages --jq .build_type` as the GitHub CLI answers it: the field on success; on an
# HTTP error, the response body on stdout and `gh: <message> (HTTP <status>)` on stderr, exit status 1.
import json, os, sys
with open(os.environ["FAKE_GH_LOG"], "a") as log:
    log.write(os.environ.get("GH_TOKEN", "") + " " + " ".join(sys.argv[1:]) + "\\n")
status, body = int(os.environ["FAKE_PAGES_STATUS"]), json.loads(os.environ["FAKE_PAGES_BODY"])
if status >= 400:
    print(json.dumps(body))
    print(f"gh: {{body['message']}} (HTTP {{status}})", file=sys.stderr)
    sys.exit(1)
print(body[sys.argv[sys.argv.index("--jq") + 1].lstrip(".")])
"""
PAGES_NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest/pages/pages#get-a-apiname-pages-site", "status": "404"}


def play_pages_check(tmp_path: Path, status: int, body: dict) -> subprocess.CompletedProcess:
    """pages.yml's first step, with a `gh` on the PATH that answers GitHub's Pages API as given."""
    workflow = load_workflow(REPO / "sitegen" / "skeleton" / "dot-github" / "workflows" / "pages.yml")
    step = workflow["jobs"]["build"]["steps"][0]
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir(exist_ok=True)
    (fake_bin / "gh").write_text(FAKE_GH.format(python=sys.executable), encoding="utf-8")
    (fake_bin / "gh").chmod(0o755)
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_REPOSITORY": "ada/mysite",
        "RUNNER_TEMP": str(runner_temp),
        "FAKE_GH_LOG": str(tmp_path / "gh-calls"),
        "FAKE_PAGES_STATUS": str(status),
        "FAKE_PAGES_BODY": json.dumps(body),
    }
    return play_step(step, tmp_path, env, {"github.token": "fake-token"})


def test_the_pages_check_runs_first_and_asks_github_about_this_repository(tmp_path: Path) -> None:
    build = load_workflow(REPO / "sitegen" / "skeleton" / "dot-github" / "workflows" / "pages.yml")["jobs"]["build"]
    assert build["steps"][0]["name"] == "Check that GitHub Pages publishes this workflow's site"
    result = play_pages_check(tmp_path, 200, {"build_type": "workflow", "html_url": "https://ada.github.io/mysite/"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == "" and result.stderr == ""
    assert (tmp_path / "gh-calls").read_text(encoding="utf-8") == "fake-token api repos/ada/mysite/pages --jq .build_type\n"


def test_a_first_deployment_before_pages_is_on_says_what_to_click(tmp_path: Path) -> None:
    """Not configure-pages' "Get Pages site failed ... consider exploring the `enablement` parameter", which the
    workflow's token cannot use: the setting to change, then a re-run."""
    result = play_pages_check(tmp_path, 404, PAGES_NOT_FOUND)
    assert result.returncode == 1
    assert "gh: Not Found (HTTP 404)" in result.stderr
    (annotation,) = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotation.startswith("::error title=GitHub Pages is off::")
    assert "Settings -> Pages -> Build and deployment -> Source: GitHub Actions" in annotation
    assert "a private repository has no Pages" in annotation  # GitHub Free: the Settings page offers no source then
    assert "re-run this workflow" in annotation


def test_pages_set_to_deploy_from_a_branch_fails_the_deployment_and_says_so(tmp_path: Path) -> None:
    """Pages' "Deploy from a branch" publishes the repository's files as they are (its README.md as the home page)."""
    result = play_pages_check(tmp_path, 200, {"build_type": "legacy", "source": {"branch": "main", "path": "/"}})
    assert result.returncode == 1
    (annotation,) = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotation.startswith("::error title=GitHub Pages publishes a branch as it is::")
    assert "'Deploy from a branch'" in annotation and "README.md" in annotation and "Source: GitHub Actions" in annotation


def test_a_failed_question_about_pages_leaves_the_answer_to_configure_pages(tmp_path: Path) -> None:
    result = play_pages_check(tmp_path, 500, {"message": "Server Error"})
    assert result.returncode == 0
    assert "gh: Server Error (HTTP 500)" in result.stderr
    assert result.stdout.startswith("::warning title=Could not ask GitHub about Pages::")


def test_repository_pages_workflow_deploys_the_demo_the_same_way() -> None:
    workflow = load_workflow(REPO / ".github" / "workflows" / "pages.yml")
    assert_deploys_to_pages(workflow, "pip install .")


def test_repository_tests_workflow_runs_the_ci_script_in_debian() -> None:
    workflow = load_workflow(REPO / ".github" / "workflows" / "tests.yml")
    assert {"push", "pull_request"} <= set(workflow["on"])
    assert workflow["permissions"] == {"contents": "read"}
    job = workflow["jobs"]["test"]
    assert job["container"].startswith("debian:")
    prepare = step_running(job, "python3-venv")
    checkout = step_using(job, "actions/checkout")
    run = step_running(job, "bash .ci/run")
    assert prepare in steps_before(job, checkout) and checkout in steps_before(job, run)
    assert "git" in prepare["run"].split()  # checkout makes a real clone only when git is there


def test_release_workflow_builds_checks_and_publishes_on_a_version_tag() -> None:
    """A `v*` tag builds sdist and wheel, twine-checks them, and publishes them by trusted publishing:
    only the publish job may ask for the OIDC token, and it holds no other right."""
    workflow = load_workflow(REPO / ".github" / "workflows" / "release.yml")
    assert workflow["on"] == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    assert "permissions" not in build

    checkout = step_using(build, "actions/checkout")
    make = step_running(build, "python -m build")
    check = step_running(build, "twine check")
    upload = step_using(build, "actions/upload-artifact")
    assert checkout in steps_before(build, make) and make in steps_before(build, check) and check in steps_before(build, upload)
    assert "--strict" in check["run"].split()
    assert "${GITHUB_REF_NAME#v}" in check["run"], "the tag must name the version that was built"
    assert upload["with"]["path"] == "dist/"

    assert publish["needs"] == "build"
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    download = step_using(publish, "actions/download-artifact")
    assert download["with"] == {"name": upload["with"]["name"], "path": "dist/"}
    pypi = step_using(publish, "pypa/gh-action-pypi-publish")
    assert download in steps_before(publish, pypi)
    assert "with" not in pypi, "trusted publishing: no user name, password or token"


def test_release_version_check_refuses_a_tag_that_names_another_version(tmp_path: Path) -> None:
    """The check step, played with the distributions of version 0.1.0 under two tags."""
    check = step_running(load_workflow(REPO / ".github" / "workflows" / "release.yml")["jobs"]["build"], "twine check")
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    (fake_bin / "python").write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")  # twine is played by the real release
    (fake_bin / "python").chmod(0o755)
    (tmp_path / "dist").mkdir()
    for name in ("sitegen_profiles-0.1.0.tar.gz", "sitegen_profiles-0.1.0-py3-none-any.whl"):
        (tmp_path / "dist" / name).write_bytes(b"")
    env = {**os.environ, "PATH": f"{fake_bin}{os.pathsep}{os.environ['PATH']}"}
    assert play_step(check, tmp_path, {**env, "GITHUB_REF_NAME": "v0.1.0"}, {}).returncode == 0
    wrong = play_step(check, tmp_path, {**env, "GITHUB_REF_NAME": "v0.2.0"}, {})
    assert wrong.returncode != 0 and "sitegen_profiles-0.2.0" in wrong.stderr


# --------------------------------------------------------------------------
# Shape and behaviour: check.yml, the pull requests' check
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pull_request_check(generated: Path) -> dict:
    return load_workflow(generated / "check.yml")


def test_pull_request_check_runs_on_pull_requests_with_read_only_rights(pull_request_check: dict) -> None:
    """README and docs/deploying.md recommend `sitegen check --strict` for pull requests: init writes that check.
    A pull request (from a fork too) gets the right to read the repository and no other: nothing is deployed."""
    assert set(pull_request_check["on"]) == {"pull_request"}
    assert pull_request_check["permissions"] == {"contents": "read"}
    assert pull_request_check["concurrency"]["cancel-in-progress"] is True  # a newer push replaces the check
    (job,) = pull_request_check["jobs"].values()
    assert "permissions" not in job and "environment" not in job
    actions = [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]
    assert actions == ["actions/checkout", "actions/setup-python"]  # no Pages action, no upload, no pull request
    assert step_using(job, "actions/checkout")["with"] == {"persist-credentials": False, "submodules": True}


def test_pull_request_check_installs_sitegen_as_the_deployment_does_and_checks_strictly(generated: Path, pull_request_check: dict) -> None:
    (job,) = pull_request_check["jobs"].values()
    build = load_workflow(generated / "pages.yml")["jobs"]["build"]
    setup_python, install = step_using(job, "actions/setup-python"), step_running(job, "pip install -r requirements.txt")
    assert setup_python["with"] == step_using(build, "actions/setup-python")["with"]  # the same Python, the same cache
    assert install["run"] == step_running(build, "pip install -r requirements.txt")["run"]
    check = step_running(job, "sitegen check")
    assert check["run"].strip() == "sitegen check --strict --output-format github"
    assert step_using(job, "actions/checkout") in steps_before(job, install)
    assert setup_python in steps_before(job, install) and install in steps_before(job, check)
    assert pull_request_check["defaults"] == {"run": {"shell": "bash"}}


@pytest.mark.slow
def test_pull_request_check_passes_a_new_site_and_fails_a_warning_with_its_file_and_line(tmp_path: Path, pull_request_check: dict) -> None:
    """The check's step played in a new site, with this sitegen on the PATH: it passes; then a student's pull
    request with a misspelt field (a warning) fails it, with an annotation of the file and line (which the pull
    request shows at that line, and the log as a line of its own)."""
    site = init_site(tmp_path / "mysite", "Ada Lovelace")
    (job,) = pull_request_check["jobs"].values()
    check = step_running(job, "sitegen check")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    passed = play_step(check, site, env, {})
    assert passed.returncode == 0, passed.stdout + passed.stderr
    profile = site / "content" / "profile.yaml"
    profile.write_text(profile.read_text(encoding="utf-8") + "postion: PhD student\n", encoding="utf-8")
    failed = play_step(check, site, env, {})
    assert failed.returncode == 1, failed.stdout + failed.stderr
    line = profile.read_text(encoding="utf-8").splitlines().index("postion: PhD student") + 1
    annotation = f"::warning file=content/profile.yaml,line={line},title=sitegen::content/profile.yaml:{line}: field 'postion'"
    assert re.search(rf"^{re.escape(annotation)}.*did you mean 'position'", failed.stderr, re.MULTILINE), failed.stderr
    assert re.search(r"^::error title=sitegen::--strict: 1 warning", failed.stderr, re.MULTILINE), failed.stderr


@pytest.mark.slow
def test_an_older_refresh_workflow_that_commits_only_arxiv_records_is_a_warning_once_other_sources_are_fetched(tmp_path: Path) -> None:
    """A site made by an older `sitegen init` keeps its refresh workflow when sitegen is upgraded: that one put
    only content/records/arxiv in its pull request. With `orcid:` in profile.yaml, today's `sitegen fetch` in it
    writes ORCID's and Crossref's records every week, and the pull request left them out without a word:
    `sitegen check` (which that workflow runs after fetching) and `sitegen fetch` name the line and the remedy."""
    site = init_site(tmp_path / "mysite", "Ada Lovelace")
    workflow = site / ".github" / "workflows" / "refresh-publications.yml"
    text = workflow.read_text(encoding="utf-8")
    today = "add-paths: content/records  # on the fresh checkout, only sitegen fetch changed anything there"
    assert today in text
    workflow.write_text(text.replace(today, "add-paths: content/records/arxiv"), encoding="utf-8")
    line = next(number for number, row in enumerate(workflow.read_text(encoding="utf-8").splitlines(), 1) if "add-paths:" in row)
    assert run_sitegen("check", "--strict", "--site", str(site)).returncode == 0, "arXiv alone: the old workflow does its work"
    profile = site / "content" / "profile.yaml"
    profile.write_text(profile.read_text(encoding="utf-8") + 'orcid: "0000-0002-1825-0097"\n', encoding="utf-8")
    checked = run_sitegen("check", "--site", str(site))
    assert checked.returncode == 0, checked.stderr
    (warning,) = [row for row in checked.stderr.splitlines() if row.startswith(".github/")]
    assert warning.startswith(f".github/workflows/refresh-publications.yml:{line}: warning: ")
    assert "only content/records/arxiv/" in warning and "orcid (content/profile.yaml:" in warning
    assert "sitegen init NEW_FOLDER" in warning
    assert run_sitegen("check", "--strict", "--site", str(site)).returncode == 1
    workflow.write_text(text, encoding="utf-8")  # today's workflow
    assert ".github/" not in run_sitegen("check", "--strict", "--site", str(site)).stderr
    outside = tmp_path / "outside.yml"  # a site is a jail: a link out of it is not read
    outside.write_text("add-paths: content/records/arxiv\n", encoding="utf-8")
    workflow.unlink()
    workflow.symlink_to(outside)
    assert ".github/" not in run_sitegen("check", "--strict", "--site", str(site)).stderr


# --------------------------------------------------------------------------
# Shape: refresh-publications.yml
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def refresh(generated: Path) -> dict:
    return load_workflow(generated / "refresh-publications.yml")


def test_refresh_runs_weekly_and_on_demand(refresh: dict) -> None:
    (schedule,) = refresh["on"]["schedule"]
    minute, hour, day_of_month, month, day_of_week = schedule["cron"].split()
    assert (day_of_month, month) == ("*", "*")
    assert re.fullmatch(r"[0-6]", day_of_week), "once a week: one day of the week"
    assert minute.isdigit() and hour.isdigit()
    assert "workflow_dispatch" in refresh["on"]


def test_refresh_has_the_permissions_to_push_and_open_a_pull_request(refresh: dict) -> None:
    assert refresh["permissions"]["contents"] == "write"
    assert refresh["permissions"]["pull-requests"] == "write"
    assert refresh["permissions"]["actions"] == "write"  # commit mode starts pages.yml
    assert refresh["concurrency"]["cancel-in-progress"] is False


def test_refresh_fetches_checks_then_opens_a_pull_request_or_commits(refresh: dict) -> None:
    assert refresh["env"]["REFRESH_MODE"] == "${{ vars.SITEGEN_REFRESH_MODE || 'pull-request' }}"
    assert refresh["env"]["REFRESH_BRANCH"] == REFRESH_BRANCH
    job = refresh["jobs"]["refresh"]
    fetch = step_running(job, "sitegen fetch --summary")
    check = step_running(job, "sitegen check")
    changes = next(step for step in job["steps"] if step.get("id") == "changes")
    pull_request = step_using(job, "peter-evans/create-pull-request")
    commit = step_running(job, "git push")
    assert [fetch, check, changes] == [s for s in job["steps"] if s in (fetch, check, changes)]
    assert changes in steps_before(job, pull_request) and changes in steps_before(job, commit)

    assert pull_request["if"] == "steps.changes.outputs.changed == 'true' && env.REFRESH_MODE == 'pull-request'"
    assert commit["if"] == "steps.changes.outputs.changed == 'true' && env.REFRESH_MODE == 'commit'"
    assert pull_request["with"]["branch"] == "${{ env.REFRESH_BRANCH }}"
    assert pull_request["with"]["add-paths"] == "content/records"
    assert pull_request["with"]["body-path"] == "${{ runner.temp }}/refresh-body.md"
    assert "steps.changes.outputs.summary" in pull_request["with"]["title"]
    assert "gh workflow run pages.yml" in commit["run"]  # a push by GITHUB_TOKEN starts no workflow


# --------------------------------------------------------------------------
# Behaviour: the refresh workflow's shell steps, against the fake arXiv server
# --------------------------------------------------------------------------


@dataclass
class Played:
    results: dict[str, subprocess.CompletedProcess]  # step name -> what it did, in order, up to a failure
    outputs: dict[str, str]
    summary: str
    body: str | None


@pytest.fixture
def site_repo(tmp_path: Path) -> Path:
    """A site made by `sitegen init --name "Sheng Lin"`, committed on main."""
    site = init_site(tmp_path / "site")
    git("init", "-q", "-b", "main", cwd=site)
    git("add", ".", cwd=site)
    git("commit", "-q", "-m", "init", cwd=site)
    return site


def play_refresh(site: Path, api_url: str, mode: str = "pull-request", extra_path: Path | None = None) -> Played:
    """Run the refresh job's shell steps in order, as far as they go (the install is played by the Pages test)."""
    workflow = load_workflow(site / ".github" / "workflows" / "refresh-publications.yml")
    runner_temp = site.parent / f"runner-temp-{len(list(site.parent.glob('runner-temp-*')))}"
    runner_temp.mkdir()
    outputs, summary = runner_temp / "github-output", runner_temp / "step-summary"
    # a repository without the NCBI_API_KEY, ZOTERO_API_KEY and ADS_API_TOKEN secrets: GitHub gives an empty string
    expressions = {
        "vars.SITEGEN_REFRESH_MODE || 'pull-request'": mode,
        "github.token": "fake-token",
        "secrets.NCBI_API_KEY": "",
        "secrets.ZOTERO_API_KEY": "",
        "secrets.ADS_API_TOKEN": "",
    }
    path = os.pathsep.join(filter(None, [str(extra_path or ""), str(Path(sys.executable).parent), os.environ["PATH"]]))
    env = {
        **os.environ,
        "PATH": path,
        "SITEGEN_ARXIV_API": api_url,
        "RUNNER_TEMP": str(runner_temp),
        "GITHUB_OUTPUT": str(outputs),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_REF_NAME": "main",
        "HOME": str(site.parent),
    }
    env.update({key: fill_in(value, expressions) for key, value in workflow["env"].items()})
    expressions.update({f"env.{key}": env[key] for key in workflow["env"]})
    results: dict[str, subprocess.CompletedProcess] = {}
    for step in workflow["jobs"]["refresh"]["steps"]:
        if "run" not in step or "pip install" in step["run"]:
            continue
        if "if" in step and not evaluate_condition(step["if"], read_outputs_if_any(outputs), env):
            continue
        results[step["name"]] = result = play_step(step, site, env, expressions)
        if result.returncode != 0:
            break
    body_file = runner_temp / "refresh-body.md"
    return Played(
        results,
        read_outputs_if_any(outputs),
        summary.read_text(encoding="utf-8") if summary.exists() else "",
        body_file.read_text(encoding="utf-8") if body_file.exists() else None,
    )


def read_outputs_if_any(path: Path) -> dict[str, str]:
    return read_outputs(path) if path.exists() else {}


def evaluate_condition(condition: str, outputs: dict[str, str], env: dict[str, str]) -> bool:
    """The two conditions the workflow uses: `steps.changes.outputs.changed == 'true' && env.REFRESH_MODE == '...'`."""
    match = re.fullmatch(r"steps\.changes\.outputs\.changed == 'true' && env\.REFRESH_MODE == '([a-z-]+)'", condition)
    assert match, f"the test cannot evaluate: {condition}"
    return outputs.get("changed") == "true" and env["REFRESH_MODE"] == match.group(1)


def fetched_records(site: Path) -> dict[str, dict]:
    folder = site / "content" / "records" / "arxiv"
    return {path.name: yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.yaml"))}


@pytest.mark.slow
def test_refresh_lists_every_new_record_for_review_and_commits_nothing(site_repo: Path, arxiv_server) -> None:
    server = arxiv_server()
    head = git("rev-parse", "HEAD", cwd=site_repo)
    played = play_refresh(site_repo, server.api_url)
    assert all(result.returncode == 0 for result in played.results.values()), {n: r.stderr for n, r in played.results.items()}
    assert "Commit directly and deploy" not in played.results
    records = fetched_records(site_repo)
    assert len(records) >= 10
    assert played.outputs == {"changed": "true", "summary": f"{len(records)} new, 0 changed, 0 removed"}
    assert f"### New ({len(records)})" in played.body
    for record in records.values():
        assert f"[{record['id']}](https://arxiv.org/abs/{record['id']})" in played.body
        assert " ".join(record["title"].split()) in played.body
    assert "Check that every record below is yours" in played.body
    assert "exclude_ids" in played.body
    assert played.body.strip() in played.summary  # the run's summary shows the same list
    assert git("rev-parse", "HEAD", cwd=site_repo) == head, "pull-request mode commits nothing itself"


@pytest.mark.slow
def test_refresh_lists_changed_and_removed_records(site_repo: Path, arxiv_server) -> None:
    """Second week: one record has a new version on arXiv, one was excluded as a namesake's."""
    from sitegen.fetch import render

    server = arxiv_server()
    assert play_refresh(site_repo, server.api_url).outputs["changed"] == "true"
    records = fetched_records(site_repo)
    (older_file, older), (_, excluded) = list(records.items())[:2]
    (site_repo / "content" / "records" / "arxiv" / older_file).write_text(render({**older, "title": "An older title"}), encoding="utf-8")
    profile = site_repo / "content" / "profile.yaml"
    text = profile.read_text(encoding="utf-8")
    assert '  # exclude_ids: ["2302.00001"]' in text
    profile.write_text(text.replace('  # exclude_ids: ["2302.00001"]', f'  exclude_ids: ["{excluded["id"]}"]'), encoding="utf-8")
    git("add", ".", cwd=site_repo)
    git("commit", "-q", "-m", "first refresh merged; a namesake excluded", cwd=site_repo)

    played = play_refresh(site_repo, server.api_url)
    assert played.outputs == {"changed": "true", "summary": "0 new, 1 changed, 1 removed"}, played.results
    changed_section = played.body.split("### Changed (1)")[1].split("###")[0]
    removed_section = played.body.split("### Removed (1)")[1]
    assert " ".join(older["title"].split()) in changed_section  # the title as arXiv has it now
    assert " ".join(excluded["title"].split()) in removed_section


@pytest.mark.slow
def test_refresh_without_changes_opens_nothing(site_repo: Path, arxiv_server) -> None:
    server = arxiv_server()
    play_refresh(site_repo, server.api_url)
    git("add", ".", cwd=site_repo)
    git("commit", "-q", "-m", "merged", cwd=site_repo)
    played = play_refresh(site_repo, server.api_url)
    assert played.outputs == {"changed": "false", "summary": "0 new, 0 changed, 0 removed"}


@pytest.mark.slow
def test_refresh_in_commit_mode_pushes_and_starts_the_pages_workflow(site_repo: Path, arxiv_server, tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    git("init", "-q", "--bare", "-b", "main", str(remote), cwd=tmp_path)
    git("remote", "add", "origin", str(remote), cwd=site_repo)
    git("push", "-q", "origin", "main", cwd=site_repo)
    fake_bin = tmp_path / "bin"
    fake_bin.mkdir()
    gh_calls = tmp_path / "gh-calls"
    (fake_bin / "gh").write_text(f'#!/bin/sh\necho "$GH_TOKEN $*" >> "{gh_calls}"\n', encoding="utf-8")
    (fake_bin / "gh").chmod(0o755)

    played = play_refresh(site_repo, arxiv_server().api_url, mode="commit", extra_path=fake_bin)
    assert played.results["Commit directly and deploy"].returncode == 0, played.results["Commit directly and deploy"].stderr
    count = len(fetched_records(site_repo))
    message = git("log", "-1", "--format=%B", cwd=site_repo)
    assert message.startswith(f"Refresh publications from arXiv: {count} new, 0 changed, 0 removed\n\n| source |")
    assert f"#### New ({count})\n\n- [" in message
    assert message.count("\n- [") == count
    assert git("show", "--name-only", "--format=", "HEAD", cwd=site_repo).count("content/records/arxiv/") == count
    assert git("rev-parse", "main", cwd=remote) == git("rev-parse", "HEAD", cwd=site_repo)
    assert git("status", "--porcelain", cwd=site_repo) == ""
    assert gh_calls.read_text(encoding="utf-8").splitlines() == ["fake-token workflow run pages.yml --ref main"]


@pytest.mark.slow
def test_a_failed_fetch_changes_nothing_and_says_why(site_repo: Path, arxiv_server) -> None:
    server = arxiv_server("--fail-first", "100", "--fail-status", "400")
    played = play_refresh(site_repo, server.api_url, mode="commit")
    fetch = played.results["Fetch records from every configured source"]
    assert fetch.returncode == 1
    assert list(played.results)[-1] == "Fetch records from every configured source", "no step runs after a failed fetch"
    assert "sitegen fetch: error:" in fetch.stderr and "HTTP 400" in fetch.stderr
    assert "::error title=sitegen fetch failed::" in fetch.stdout
    assert "sitegen fetch failed (exit status 1): nothing was changed" in played.summary
    assert "HTTP 400" in played.summary
    assert played.outputs == {}
    assert git("status", "--porcelain", "--untracked-files=all", cwd=site_repo) == ""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Ada Lovelace", None])
def test_refresh_passes_for_a_name_not_on_arxiv_and_for_a_site_without_sources(tmp_path: Path, arxiv_server, name: str | None) -> None:
    """Every Monday, for someone with no paper on arXiv yet or a site made without --name: no failure, nothing changed."""
    site = tmp_path / "site"
    made = run_sitegen("init", str(site), *(["--name", name] if name else []), cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    git("init", "-q", "-b", "main", cwd=site)
    git("add", ".", cwd=site)
    git("commit", "-q", "-m", "init", cwd=site)

    played = play_refresh(site, arxiv_server().api_url)

    assert all(result.returncode == 0 for result in played.results.values()), {n: r.stderr for n, r in played.results.items()}
    assert "Check that the site still builds" in played.results
    assert played.outputs == {"changed": "false", "summary": "0 new, 0 changed, 0 removed"}
    fetch = played.results["Fetch records from every configured source"]
    if name:
        assert "no records found" in fetch.stderr and "::warning title=sitegen fetch warned::" in fetch.stdout
        assert "no records found" in played.summary
    else:
        assert "note: nothing to fetch" in fetch.stdout and "::warning" not in fetch.stdout
        assert "nothing to fetch" in played.summary
    assert git("status", "--porcelain", "--untracked-files=all", cwd=site) == ""


@pytest.mark.slow
def test_fetch_output_cannot_issue_workflow_commands(site_repo: Path, arxiv_server) -> None:
    """arXiv's text reaches the log: it is printed between stop-commands markers."""
    played = play_refresh(site_repo, arxiv_server().api_url)
    lines = played.results["Fetch records from every configured source"].stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("::stop-commands::"))
    token = lines[start].split("::")[2]
    assert len(token) == 32 and f"::{token}::" in lines[start + 1 :]


def test_an_unknown_refresh_mode_stops_the_job(site_repo: Path, arxiv_server) -> None:
    played = play_refresh(site_repo, "http://127.0.0.1:9/api/query", mode="merge")
    (only,) = played.results.values()
    assert only.returncode == 1 and "REFRESH_MODE must be pull-request or commit" in only.stdout


# --------------------------------------------------------------------------
# Behaviour: the Pages workflow's shell steps, in a fresh virtual environment
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_pages_workflow_steps_build_a_site_that_works_under_a_project_sub_path(tmp_path: Path, dependencies: Path) -> None:
    """Fresh venv, the workflow's install line, its build line with a project-page base URL, then a crawl.

    requirements.txt stays as init wrote it (this checkout is installed from its
    folder, so it names sitegen's release): a folder holding a wheel built from
    this checkout stands in for PyPI (`PIP_FIND_LINKS`, `PIP_NO_INDEX`). Tests
    use no network: the fresh environment sees the test environment's packages
    for sitegen's dependencies (a .pth file).
    """
    site = init_site(tmp_path / "mysite", "Ada Lovelace")
    wheelhouse = tmp_path / "index"
    build_wheel(copy_of_sitegen(tmp_path / "sitegen-source"), wheelhouse)
    environment = Environment(tmp_path / "venv", dependencies)
    venv, env = environment.path, {**environment.env, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse)}
    build_job = load_workflow(site / ".github" / "workflows" / "pages.yml")["jobs"]["build"]

    pages_on = play_pages_check(tmp_path, 200, {"build_type": "workflow"})  # GitHub's answer once Pages is on
    assert pages_on.returncode == 0, pages_on.stdout + pages_on.stderr
    with serve_directory(site / "output", prefix="/mysite/") as base_url:
        # actions/configure-pages gives the address without its trailing slash.
        expressions = {"steps.pages.outputs.base_url": base_url.rstrip("/")}
        played = [step["name"] for step in build_job["steps"] if "run" in step]
        assert played == ["Check that GitHub Pages publishes this workflow's site", "Install sitegen (the version in requirements.txt)", "Build the site"]
        for step in build_job["steps"][1:]:
            if "run" in step:
                result = play_step(step, site, env, expressions)
                assert result.returncode == 0, f"{step['name']}:\n{result.stdout}\n{result.stderr}"
        report = crawl(base_url)

    assert (venv / "bin" / "sitegen").exists(), "the build used the fresh environment's sitegen"
    assert len(report.pages) >= 8, report.pages
    assert not report.problems, report.describe()
    origin = base_url.split("/mysite/")[0]
    assert not [url for url in report.external if url.startswith(origin)], "every link to the site itself was crawled"

    # The installed (not editable) package carries the whole skeleton, dot-files included.
    again = tmp_path / "again" / "mysite"
    again.parent.mkdir()
    result = subprocess.run([str(venv / "bin" / "sitegen"), "init", str(again), "--name", "Ada Lovelace"], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    made = sorted(p.relative_to(again).as_posix() for p in again.rglob("*") if p.is_file())
    assert ".github/workflows/pages.yml" in made and ".gitignore" in made
    for relative in made:
        if relative != "requirements.txt":
            assert (again / relative).read_bytes() == (site / relative).read_bytes(), relative
