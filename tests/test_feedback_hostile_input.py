"""`feedback send|check` on hostile and broken input (issue 17): one line, the right exit status,
no traceback, and no escape from the sandbox."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from scholar_tui.app.cli import cli

from .test_sandbox import CANARY, CONTAINED, NEW_ESCAPES

DEEP_SUM = "x = 1" + "+1" * 3000
DEEP_MINUS = "x = " + "-" * 100_000 + "1"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def assert_one_line_failure(result, says: str) -> None:
    assert result.exit_code == 1, (result.exit_code, result.output[-500:])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    last = result.output.strip().splitlines()[-1]
    assert says in last and len(last) < 300, last


def scholar_tui(*args: str | bytes) -> subprocess.CompletedProcess:
    """The real command, so that its arguments are bytes and its output a real UTF-8 pipe."""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path for path in sys.path if path))
    return subprocess.run(
        [sys.executable, "-c", "from scholar_tui.app.cli import main; main()", *args],
        capture_output=True,
        env=environment,
        timeout=120,
    )


@pytest.mark.parametrize(
    "source, says",
    [
        (DEEP_SUM, "program not ok (line 1: the program is nested too deeply to read)"),
        (DEEP_MINUS, "program not ok (line 1: the program is nested too deeply to read)"),
        ("searchPerson(name='x', name='y')", "syntax error: keyword argument repeated: name"),
        ("x = '\\udcff'\nclass A:\n    pass", "line 2: ClassDef is not allowed"),
    ],
)
def test_send_refuses_unreadable_programs_in_one_line(source, says):
    assert_one_line_failure(run("feedback", "send", source), says)


def test_send_refuses_invalid_utf8_arguments_in_one_line():
    done = scholar_tui("feedback", "send", b'searchPerson(name="\xff")')
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert done.stderr.decode().strip() == (
        "Error: TEXT cannot be read: line 1: the byte 0xff is not valid UTF-8 (character 20)"
    )
    done = scholar_tui("feedback", "send", b'x = "\xff"')
    assert done.returncode == 1 and b"the byte 0xff is not valid UTF-8" in done.stderr


def test_send_prints_a_lone_surrogate_result_as_its_escape():
    done = scholar_tui("feedback", "send", "result = '\\ud800'")
    assert done.returncode == 0, done.stderr[-500:]
    assert json.loads(done.stdout) == "\\ud800" and b"program ok" in done.stderr


def test_send_exits_1_when_the_request_fails(monkeypatch):
    assert_one_line_failure(run("feedback", "send", "searchPerson(name=1)"), "E_BAD_ARGUMENT")
    bad_json = run("feedback", "send", "searchPerson(name=1)", "--json")
    assert bad_json.exit_code == 1 and json.loads(bad_json.stdout)["response"]["code"] == "E_BAD_ARGUMENT"
    monkeypatch.setenv("SCHOLAR_TUI_NETWORK__OFFLINE", "1")
    assert_one_line_failure(run("feedback", "send", "--backend", "openalex", 'searchPerson(name="Ada")'), "E_OFFLINE")


def test_send_exits_0_when_it_works_or_finds_nothing():
    assert run("feedback", "send", "result = 6 * 7").exit_code == 0
    empty = run("feedback", "send", 'searchPerson(name="nobody at all")')
    assert empty.exit_code == 0 and "request answered with an empty result (not a fix)" in empty.output


def test_a_huge_value_is_the_output_limit_not_50_megabytes():
    result = run("feedback", "send", "result = 'x' * 50_000_000")
    assert_one_line_failure(result, "(output limit)")
    assert len(result.output) < 1000


@pytest.mark.embeddings
@pytest.mark.parametrize(
    "text, program, says",
    [
        ("<<API>>searchPerson(name=1" + "+1" * 3000 + ")<</API>>", False, "the text is nested too deeply to read"),
        ('<<API>>searchPerson(name="x", name="y")<</API>>', False, "the keyword argument name is given twice"),
        (
            "class A:\n    pass\nresult = searchPerson(name='Ada')",
            True,
            "the sandbox refuses the program: line 1: ClassDef is not allowed",
        ),
        ("import os\nresult = searchPerson(name='Ada')", True, "line 1: Import is not allowed"),
    ],
)
def test_check_reports_what_the_sandbox_and_python_refuse_as_e1(text, program, says):
    args = ["feedback", "check", text, "-i", "Who is Ada Lovelace?", "--json"] + (["--program"] if program else [])
    result = run(*args)
    assert result.exit_code == 0, result.output[-500:]
    findings = json.loads(result.stdout)["findings"]
    assert findings[0]["sub_type"] == "E1" and says in findings[0]["detail"], findings[0]["detail"]


def test_check_refuses_invalid_utf8_in_one_line():
    result = run("feedback", "check", 'searchPerson(name="\udcff")', "-i", "Who is Ada?")
    assert_one_line_failure(result, "TEXT cannot be read: line 1: the byte 0xff is not valid UTF-8")


@pytest.mark.parametrize("name", sorted(NEW_ESCAPES))
def test_an_escape_sent_by_hand_is_refused(name):
    result = run("feedback", "send", NEW_ESCAPES[name].replace("CANARY", CANARY), "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output
    if result.output.startswith("Error: TEXT cannot be read"):  # invalid UTF-8: refused before reading
        return
    sent = json.loads(result.stdout)
    if sent["sent"] == "request":  # a bare call (exit(), list(map(…))): only literal arguments ever reach an API
        assert sent["response"]["code"] in ("E_UNKNOWN_API", "E_BAD_ARGUMENT"), sent
    else:
        assert sent["response"]["kind"] == "refused", sent
    assert not os.path.exists(CANARY)


@pytest.mark.parametrize("name", ["huge-value-200mb", "memory-bomb", "exponential-tree", "huge-error-message"])
def test_a_runaway_program_sent_by_hand_is_contained(name):
    source, kinds = CONTAINED[name]
    result = run("feedback", "send", source, "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output and len(result.output) < 3000
    assert json.loads(result.stdout)["response"]["kind"] in kinds


# -- terminal escapes in what a program or a request brings back (item 14's rule, on AutoFeedback's output) --
RAW_CONTROLS = (b"\x1b", b"\x07", "\x9b".encode(), "\x9d".encode())
EVIL = "\x1b]0;PWNED\x07\x1b[2J\x9b2J\x9d0;X\x07"


@pytest.mark.parametrize(
    "source",
    [
        f"result = {EVIL!r}",  # the program's value
        f"print({EVIL!r})\nresult = 1",  # its printed output
        f"result = getPublication(pub_id={EVIL!r})",  # an API's error quoting an argument
    ],
)
def test_send_never_writes_control_characters_to_the_terminal(source):
    done = scholar_tui("feedback", "send", source)
    assert b"Traceback" not in done.stderr
    assert not any(control in done.stdout + done.stderr for control in RAW_CONTROLS), done.stdout + done.stderr
    as_json = scholar_tui("feedback", "send", source, "--json")
    assert not any(control in as_json.stdout for control in RAW_CONTROLS)
    json.loads(as_json.stdout)  # still valid JSON


@pytest.mark.embeddings
def test_check_quotes_a_request_without_its_control_characters():
    done = scholar_tui("feedback", "check", f'<<API>>searchPersonn(name="{EVIL}")<</API>>', "-i", "Who is Ada?")
    assert done.returncode == 0, done.stderr[-500:]
    assert b"searchPersonn" in done.stdout and b"\\x1b]0;PWNED" in done.stdout
    assert not any(control in done.stdout + done.stderr for control in RAW_CONTROLS), done.stdout


def test_the_tui_shows_a_round_and_outside_text_without_control_characters():
    from scholar_tui.app.panes.api_debugger import round_card
    from scholar_tui.app.widgets.markup import escape

    row = {
        "round": 1,
        "kind": "human",
        "sub_type": None,
        "ok": True,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "duration_s": 0.1,
        "request": f'searchPerson(name="{EVIL}")',
        "thought": EVIL,
        "response": [EVIL],
        "feedback": EVIL,
    }
    for shown in (str(round_card(row)), escape(EVIL)):
        assert not any(control in shown.encode() for control in RAW_CONTROLS), shown
    assert escape("[b]x[/b]\x1b[2J") == "\\[b]x\\[/b]\\x1b[2J"  # markup escaped, ESC made visible
