"""The command line as users type it: --site on either side of the command, and help for the slips argparse alone
leaves unexplained (a folder named without --site, a misspelt command or option, `sitegen help`). Each slip exits 2
with the usage of the command it was meant for."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINIMAL_SITE, write_site

from sitegen import cli
from sitegen.errors import Location, Problem, github_annotation


def parsed(*argv: str):
    return cli.parse(list(argv))


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """The lines `sitegen ARGV` prints before it exits with status 2."""
    with pytest.raises(SystemExit) as exit:
        cli.parse(list(argv))
    assert exit.value.code == 2
    return capsys.readouterr().err.splitlines()


def test_site_is_taken_before_the_command_as_after_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "plain").mkdir()
    monkeypatch.chdir(tmp_path)
    assert parsed("--site", "plain", "build").site == Path("plain")
    assert parsed("--site=plain", "check", "--strict").site == Path("plain")
    assert parsed("build", "--site", "plain").site == Path("plain")
    assert parsed("serve").site == Path(".")
    assert parsed("--site", ".", "fetch", "--site", "plain").site == Path("plain"), "the one after the command wins"


def test_a_folder_named_without_site_is_answered_with_the_command_that_builds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "plain").mkdir()
    monkeypatch.chdir(tmp_path)
    lines = refused(capsys, "build", "plain")
    assert lines[0].startswith("usage: sitegen build ")
    assert lines[-1] == "sitegen build: error: unexpected argument 'plain'; the site's folder is given with --site: sitegen build --site plain"
    assert refused(capsys, "plain", "build")[-1] == "sitegen: error: 'plain' is not a command; to build the site in plain: sitegen build --site plain"


def test_an_unknown_option_shows_the_commands_usage_and_the_option_meant(capsys: pytest.CaptureFixture[str]) -> None:
    lines = refused(capsys, "build", "--strcit")
    assert lines[0].startswith("usage: sitegen build ")
    assert lines[-1] == "sitegen build: error: unknown option --strcit; did you mean --strict?"
    assert refused(capsys, "fetch", "--orcdi=0000-0002-1825-0097")[-1] == "sitegen fetch: error: unknown option --orcdi; did you mean --orcid?"
    assert (
        refused(capsys, "serve", "--nothing-like-it")[-1] == "sitegen serve: error: unknown option --nothing-like-it (sitegen serve --help lists its options)"
    )


def test_an_option_sitegen_does_not_have_is_not_answered_with_an_unrelated_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "build", "--quiet")[-1] == "sitegen build: error: unknown option --quiet (sitegen build --help lists its options)"
    assert refused(capsys, "check", "--verbose")[-1] == "sitegen check: error: unknown option --verbose (sitegen check --help lists its options)"
    assert refused(capsys, "build", "--no-cahce")[-1] == "sitegen build: error: unknown option --no-cahce; did you mean --no-cache?"


def test_file_names_as_a_pre_commit_hook_passes_them_are_answered_with_the_setting_to_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = write_site(tmp_path, {**MINIMAL_SITE, "content/records/a.yaml": "id: a\n"})
    monkeypatch.chdir(site)
    lines = refused(capsys, "check", "content/records/a.yaml", "content/site.yaml")
    assert lines[0].startswith("usage: sitegen check ")
    assert lines[-1] == (
        "sitegen check: error: unexpected argument 'content/records/a.yaml': sitegen check takes the whole site and no file names "
        "(in a pre-commit hook, set pass_filenames: false; a site elsewhere is given with --site DIR)"
    )


def test_a_misspelt_command_gets_the_one_meant(capsys: pytest.CaptureFixture[str]) -> None:
    lines = refused(capsys, "biuld")
    assert lines[0].startswith("usage: sitegen ")
    assert lines[-1] == "sitegen: error: unknown command 'biuld'; did you mean 'build'?"
    assert refused(capsys, "--site", ".", "chekc", "--strict")[-1] == "sitegen: error: unknown command 'chekc'; did you mean 'check'?"
    assert refused(capsys, "publish")[-1] == "sitegen: error: unknown command 'publish' (choose from build, check, serve, fetch, init, help)"


def test_help_and_help_of_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, usage in ((["help"], "usage: sitegen [-h]"), (["help", "build"], "usage: sitegen build [-h]"), (["help", "fetch"], "usage: sitegen fetch [-h]")):
        with pytest.raises(SystemExit) as exit:
            cli.parse(argv)
        assert exit.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith(usage), out
    with pytest.raises(SystemExit):
        cli.parse(["help", "check"])
    assert "--strict" in capsys.readouterr().out


def test_a_site_folder_that_does_not_exist_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = refused(capsys, "build", "--site", str(tmp_path / "nowhere"))
    assert lines[0].startswith("usage: sitegen build ")
    assert lines[-1] == f"sitegen build: error: --site {tmp_path / 'nowhere'}: no such folder (the folder that holds content/)"
    (tmp_path / "site.yaml").write_text("title: A\n")
    assert refused(capsys, "--site", str(tmp_path / "site.yaml"), "serve")[-1] == (
        f"sitegen serve: error: --site {tmp_path / 'site.yaml'}: a file, not a folder (the folder that holds content/)"
    )


def test_init_says_it_takes_no_site(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "--site", ".", "init", "mysite")[-1] == "sitegen init: error: init takes no --site (it makes the site in DIR)"


def test_github_output_format_annotates_the_file_and_line_from_the_repository_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A lab's repository with its site in a subfolder: a pull request's check names each problem's file as the
    repository does (the annotation lands on that line of "Files changed"), its level as GitHub's, and the log
    keeps the line `path:line: message` of the text format; an error of `build` is one too."""
    site = write_site(
        tmp_path / "repo" / "site", MINIMAL_SITE | {"content/records/a.yaml": "id: a\ntitle: A\nyaer: 2020\nauthors: [Ada Lovelace]\nyear: 2020\n"}
    )
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path / "repo"))
    monkeypatch.chdir(tmp_path)
    assert cli.main(["check", "--site", str(site), "--strict", "--output-format", "github"]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert (
        lines[0]
        == "::warning file=site/content/records/a.yaml,line=3,title=sitegen::content/records/a.yaml:3: field 'yaer': unknown field; did you mean 'year'?"
    )
    assert lines[1].startswith("::error title=sitegen::--strict: 1 warning")
    (site / "content/records/a.yaml").write_text("id: a\nauthors: [Ada Lovelace]\nyear: 2020\n", encoding="utf-8")
    assert cli.main(["build", "--site", str(site), "--output-format", "github"]) == 1
    assert capsys.readouterr().err.startswith(
        "::error file=site/content/records/a.yaml,line=1,title=sitegen::content/records/a.yaml:1: missing required field 'title'"
    )
    assert cli.main(["check", "--site", str(site)]) == 1
    assert capsys.readouterr().err.startswith("content/records/a.yaml:1: missing required field 'title'"), "text stays the default"


def test_json_output_format_is_one_object_a_line_a_script_can_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`--output-format json`: every line on stderr is a JSON object, the summary too; a problem's file is named from
    the current folder (the script's), its line and the level apart, and `text` is the line the text format prints."""
    import json

    site = write_site(
        tmp_path / "repo" / "site", MINIMAL_SITE | {"content/records/a.yaml": "id: a\ntitle: A\nyaer: 2020\nauthors: [Ada Lovelace]\nyear: 2020\n"}
    )
    monkeypatch.chdir(tmp_path / "repo")
    assert cli.main(["build", "--site", "site", "--output-format", "json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert lines[0] == {
        "level": "warning",
        "file": "site/content/records/a.yaml",
        "line": 3,
        "column": None,
        "message": "field 'yaer': unknown field; did you mean 'year'?",
        "text": "content/records/a.yaml:3: warning: field 'yaer': unknown field; did you mean 'year'?",
    }
    assert lines[-1]["level"] == "info" and lines[-1]["message"].startswith("built ")
    assert cli.main(["check", "--site", "site", "--strict", "--output-format", "json"]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [line["level"] for line in lines] == ["warning", "error"]
    assert lines[1]["message"].startswith("--strict: 1 warning") and lines[1]["file"] is None
    (site / "content/records/a.yaml").write_text("id: a\nauthors: [Ada Lovelace]\nyear: 2020\n", encoding="utf-8")
    assert cli.main(["check", "--site", "site", "--output-format", "json"]) == 1
    [error] = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert (error["level"], error["file"], error["line"]) == ("error", "site/content/records/a.yaml", 1)
    assert error["message"].startswith("missing required field 'title'")


def test_a_github_annotation_cannot_be_ended_by_the_text_it_quotes(tmp_path: Path) -> None:
    """Workflow commands are lines: a file name with ',' or ':' and a message with a line break or '%' (text a pull
    request wrote) are escaped as GitHub's toolkit does, so that no part of them starts a command of its own."""
    (tmp_path / "content/records").mkdir(parents=True)
    (tmp_path / "content/records/a,b:c.yaml").write_text("", encoding="utf-8")
    problem = Problem("100% wrong\n::add-mask::x\r", Location("content/records/a,b:c.yaml", 4, 2), warning=True, note=True)
    line = github_annotation(problem, tmp_path, tmp_path)
    assert line == "::notice file=content/records/a%2Cb%3Ac.yaml,line=4,col=2,title=sitegen::content/records/a,b:c.yaml:4:2: 100%25 wrong%0A::add-mask::x%0D"
    assert "\n" not in line and "\r" not in line
    elsewhere = github_annotation(Problem("cannot save", Location(".sitegen-cache")), tmp_path, tmp_path)
    assert elsewhere == "::error title=sitegen::.sitegen-cache: cannot save", "no file of the site: the run's annotation only"
