"""The sandbox refuses known escapes, stops runaway programs, and survives them."""

import threading
import time
import uuid

import pytest

from scholar_tui.core.sandbox import Limits, Sandbox, SandboxViolation, check_program

CANARY = f"/tmp/scholar-tui-sandbox-canary-{uuid.uuid4().hex}"

# Each of these tries to leave the sandbox: reach the OS, the interpreter's internals, real
# builtins, the file system, or a way to catch the limits. All must be refused before running.
ESCAPES = {
    "import": "import os\nos.system('touch CANARY')",
    "from-import": "from os import system\nsystem('touch CANARY')",
    "dunder-import": "__import__('os').system('touch CANARY')",
    "eval": "eval(\"__import__('os').system('touch CANARY')\")",
    "exec": "exec(\"import os\")",
    "compile": "compile('1', 'x', 'eval')",
    "open-write": "open('CANARY', 'w').write('x')",
    "globals": "globals()['__builtins__']",
    "locals": "locals()",
    "vars": "vars()",
    "getattr": "getattr(searchPerson, '__globals__')",
    "setattr": "setattr(searchPerson, 'x', 1)",
    "subclasses": "().__class__.__bases__[0].__subclasses__()",
    "class-attribute": "[].__class__",
    "function-globals": "(lambda: 0).__globals__",
    "api-globals": "searchPerson.__globals__['__builtins__']",
    "generator-frame": "(x for x in []).gi_frame.f_globals",
    "frame-back": "g = (x for x in [1])\ng.gi_frame.f_back",
    "format-attribute": "'{0.__class__.__mro__}'.format(1)",
    "format-map": "'{x.__class__}'.format_map({'x': 1})",
    "fstring-dunder": "f'{().__class__}'",
    "builtins-name": "__builtins__",
    "type": "type(1)",
    "object": "object.__subclasses__()",
    "print-self": "print.__self__",
    "breakpoint": "breakpoint()",
    "input": "input()",
    "help": "help()",
    "dir": "dir()",
    "memoryview": "memoryview(b'x')",
    "class-def": "class A:\n    pass",
    "global": "def f():\n    global x\n    x = 1",
    "async": "async def f():\n    pass",
    "with-open": "with open('CANARY') as f:\n    pass",
    "try-swallows-limits": "try:\n    while True:\n        pass\nexcept BaseException:\n    pass",
    "yield": "def f():\n    yield 1",
    "unknown-name-sys": "sys.modules['os']",
    "private-attribute": "searchPerson._secret",
    "decorator": "@searchPerson\ndef f():\n    pass",
    "match": "match 1:\n    case 1:\n        pass",
    "raise": "raise SystemExit(0)",
    "mro-attribute": "int.mro()",
    "code-object": "(lambda: 0).__code__",
    "loader": "__loader__.load_module('os')",
    "spec": "__spec__",
    "bytes-literal": "b'\\x00'",
    "syntax-error": "def (:",
}


@pytest.fixture(scope="module")
def sandbox():
    box = Sandbox("tests.sandbox_apis:make", limits=Limits(time_s=3.0, steps=50_000, memory_mb=256))
    yield box
    box.close()


def test_at_least_thirty_escapes_are_listed():
    assert len(ESCAPES) >= 30


@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_escape_attempt_is_refused(sandbox, name):
    source = ESCAPES[name].replace("CANARY", CANARY)
    result = sandbox.run(source)
    assert not result.ok
    assert result.error_kind == "refused", result.error
    assert result.error.startswith("line ")
    with pytest.raises(SandboxViolation):
        sandbox.check(source)


def test_canary_was_never_written():
    import os

    assert not os.path.exists(CANARY)


def test_a_real_program_runs_with_its_api_calls_recorded(sandbox):
    result = sandbox.run(
        "people = searchPerson(name='ada')\n"
        "first = people[0]\n"
        "result = sorted(c['name'] for c in getCoauthors(first['person_id']))\n"
        "print('found', len(result))"
    )
    assert result.ok, result.error
    assert result.value == ["Charles Babbage"]
    assert result.stdout == "found 1\n"
    assert [call.name for call in result.calls] == ["searchPerson", "getCoauthors"]
    assert result.calls[0].arguments == {"name": "ada"}
    assert result.calls[1].arguments == {"person_id": "p1"}


def test_the_last_expression_is_the_value(sandbox):
    assert sandbox.run("x = 20\nx + 22").value == 42


def test_api_errors_carry_their_code_and_line(sandbox):
    result = sandbox.run("a = 1\ngetCoauthors(person_id='nobody')")
    assert not result.ok and result.error_kind == "runtime"
    assert result.error == "line 2: APIError: no person nobody"
    assert result.calls[0].error_code == "E_NOT_FOUND" and not result.calls[0].ok


def test_an_endless_loop_is_stopped_by_the_step_limit(sandbox):
    result = sandbox.run("n = 0\nwhile True:\n    n += 1")
    assert result.error_kind == "steps"
    assert sandbox.run("1 + 1").value == 2  # the worker goes on


def test_a_hang_inside_one_operation_is_killed_and_the_sandbox_recovers(sandbox):
    started = time.perf_counter()
    result = sandbox.run("y = 10\ny ** y ** y ** y")  # one huge C-level power: no line events
    assert result.error_kind == "timeout"
    assert time.perf_counter() - started < 5
    assert sandbox.run("2 * 21").value == 42  # a fresh worker answers


def test_memory_blow_up_is_contained(sandbox):
    result = sandbox.run("x = [0] * (10 ** 10)")
    assert result.error_kind == "memory"
    assert sandbox.run("len([0] * 1000)").value == 1000


def test_output_flood_is_cut(sandbox):
    result = sandbox.run("for i in range(10 ** 6):\n    print('spam spam spam spam')")
    assert result.error_kind in ("output", "steps")
    assert len(result.stdout) <= Limits().output_chars


def test_recursion_is_a_runtime_error(sandbox):
    result = sandbox.run("def f(n):\n    return f(n + 1)\nf(0)")
    assert not result.ok and result.error_kind in ("runtime", "steps")


def test_a_worker_killed_mid_run_is_reported_and_replaced():
    box = Sandbox("tests.sandbox_apis:make", limits=Limits(time_s=5.0, steps=10**9))
    try:
        box.run("1")
        killer = threading.Thread(target=lambda: (time.sleep(0.3), box._process.kill()))
        killer.start()
        result = box.run("n = 0\nwhile True:\n    n += 1")
        killer.join()
        assert result.error_kind == "crashed"
        assert box.run("3 * 3").value == 9
    finally:
        box.close()


def test_a_factory_that_fails_is_one_clear_line():
    box = Sandbox("tests.sandbox_apis:nope")
    with pytest.raises(RuntimeError, match="the sandbox worker did not start: AttributeError"):
        box.run("1")


def test_check_program_lists_every_problem_with_lines():
    problems = check_program("import os\nx = y\nz = ().__class__", api_names={"searchPerson"})
    assert problems[0].startswith("line 1: Import")
    assert "line 2: unknown name 'y'" in problems
    assert "line 3: the attribute '__class__' is not allowed" in problems
