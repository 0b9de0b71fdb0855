"""The command line as users type it: --site on either side of the command, and help for the slips argparse alone
leaves unexplained (a folder named without --site, a misspelt command or option, `sitegen help`). Each slip exits 2
with the usage of the command it was meant for."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen import cli


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
