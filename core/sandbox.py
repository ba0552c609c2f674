"""A sandbox for model-written Python: checked before it runs, bounded while it runs.

Two layers, because either alone is not enough:

1. ``check_program`` reads the AST against an allow-list: no imports, no dunder or private
   attributes, no frame/generator internals, no exec/eval/open/globals, no classes, no try (a
   program must not catch the limits), and every name it reads is a safe built-in, an API
   function or something it assigned itself.
2. ``Sandbox.run`` executes it in a separate worker process (``sandbox_worker``) that holds only
   the API functions and safe built-ins, counts executed lines (step limit), caps memory
   (RLIMIT_AS) and output, and is killed from here when it overruns its wall-clock limit, so a
   crash, a hang or a memory blow-up costs one program, never the app.
"""

from __future__ import annotations

import ast
import json
import os
import select
import subprocess
import sys
import threading
import time
import warnings
from collections import deque
from dataclasses import dataclass, field
from typing import IO, Any, Literal, overload

SAFE_BUILTINS = (
    "abs", "all", "any", "bool", "dict", "enumerate", "filter", "float", "int", "isinstance", "len",
    "list", "map", "max", "min", "print", "range", "reversed", "round", "set", "sorted", "str", "sum",
    "tuple", "zip",
)  # fmt: skip

FORBIDDEN_NAMES = {
    "__import__", "__builtins__", "breakpoint", "compile", "delattr", "dir", "eval", "exec", "getattr",
    "globals", "hasattr", "help", "input", "locals", "memoryview", "object", "open", "setattr", "super",
    "type", "vars", "classmethod", "staticmethod", "property", "exit", "quit", "id", "bytearray",
}  # fmt: skip

# Attributes without underscores that still reach interpreter internals (frames, code, globals),
# and the string formatters, whose "{0.__class__}" fields walk attributes at run time.
FORBIDDEN_ATTRIBUTES = {
    "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code", "ag_frame", "ag_code", "f_globals",
    "f_locals", "f_builtins", "f_back", "f_code", "tb_frame", "tb_next", "mro", "format", "format_map",
}  # fmt: skip

ALLOWED_NODES = (
    ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Name, ast.Load, ast.Store,
    ast.Del, ast.Delete, ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp,
    ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension, ast.BinOp, ast.UnaryOp,
    ast.BoolOp, ast.Compare, ast.Call, ast.keyword, ast.Attribute, ast.Subscript, ast.Slice,
    ast.Starred, ast.If, ast.For, ast.While, ast.Break, ast.Continue, ast.Pass, ast.IfExp,
    ast.JoinedStr, ast.FormattedValue, ast.FunctionDef, ast.arguments, ast.arg, ast.Return,
    ast.Lambda, ast.NamedExpr, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context,
)  # fmt: skip

EOF: Any = object()  # the worker's stdout closed: it died
TOO_LONG: Any = object()  # the worker's reply ran past Limits.reply_chars


def _pipe(stream: IO[Any] | None) -> IO[Any]:
    """One of the worker's pipes: Popen types them optional, but the worker is always started with
    all three (stdin, stdout, stderr = PIPE)."""
    if stream is None:
        raise RuntimeError("the sandbox worker was started without its pipes")
    return stream


class StderrTail:
    """Drains a worker's stderr in a daemon thread, keeping only its last few KiB for diagnostics.

    A pipe nobody reads fills at 64 KiB, and then the worker blocks on its next write (a compiler
    warning, a library's log line) in the middle of a harmless program, which times out.
    """

    def __init__(self, process: subprocess.Popen, keep_bytes: int = 4096) -> None:
        self._tail: deque[bytes] = deque()
        self._kept = 0
        self._keep_bytes = keep_bytes
        self._thread = threading.Thread(
            target=self._drain, args=(_pipe(process.stderr).fileno(),), name="sandbox-stderr", daemon=True
        )
        self._thread.start()

    def _drain(self, descriptor: int) -> None:
        while True:
            try:
                chunk = os.read(descriptor, 65536)
            except OSError:
                return
            if not chunk:
                return
            self._tail.append(chunk)
            self._kept += len(chunk)
            while self._kept - len(self._tail[0]) >= self._keep_bytes:
                self._kept -= len(self._tail.popleft())

    def last_line(self, wait_s: float = 2.0) -> str:
        """The last non-blank line the worker wrote (after it exited: call it once it is killed)."""
        self._thread.join(wait_s)
        text = b"".join(self._tail).decode("utf-8", "replace")
        lines = [line for line in text.splitlines() if line.strip()]
        return lines[-1] if lines else "(no diagnostics)"


ErrorKind = Literal["refused", "runtime", "timeout", "steps", "memory", "output", "crashed"]


class SandboxViolation(Exception):
    """The program was refused before running; ``problems`` lists each with its line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _assigned_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


@overload
def parse_quietly(source: str, mode: Literal["exec"] = "exec") -> ast.Module: ...
@overload
def parse_quietly(source: str, mode: Literal["eval"]) -> ast.Expression: ...
@overload
def parse_quietly(source: str, mode: str) -> ast.AST: ...
def parse_quietly(source: str, mode: str = "exec") -> ast.AST:
    """``ast.parse`` without its warnings ("invalid decimal literal" for ``1if``; "invalid escape
    sequence" for ``'\\('``, a DeprecationWarning before Python 3.12): text from a model or a person is
    checked here, and the warning would reach their terminal as a stray line."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(source, mode=mode)


def unicode_problem(text: str) -> str | None:
    """Why ``text`` cannot be UTF-8 (an undecodable byte or a lone surrogate), or None when it can.

    Command-line arguments with invalid UTF-8 arrive as lone surrogates (Python's surrogateescape);
    nothing downstream (the parser, SQLite, the terminal) can encode them.
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        character = ord(text[error.start])
        line = text.count("\n", 0, error.start) + 1
        what = (
            f"the byte 0x{character - 0xDC00:02x} is not valid UTF-8"
            if 0xDC80 <= character <= 0xDCFF
            else f"the lone surrogate \\u{character:04x} is not a character"
        )
        return f"line {line}: {what} (character {error.start + 1})"
    return None


def _parse_for_sandbox(source: str) -> ast.Module | str:
    """The program's AST, compiled once as the worker will compile it; else why it cannot be.

    Compiling here catches what parses but never runs (a repeated keyword argument, ``break``
    outside a loop, nesting too deep for the compiler), so the check and the worker agree.
    """
    unreadable = unicode_problem(source)
    if unreadable:
        return unreadable
    try:
        tree = parse_quietly(source)
        with warnings.catch_warnings():  # compiler warnings ("is" with a literal) are not the caller's output
            warnings.simplefilter("ignore")
            compile(tree, "<sandbox>", "exec")
    except SyntaxError as error:
        return f"line {error.lineno or 1}: syntax error: {error.msg}"
    except (RecursionError, MemoryError):
        return "line 1: the program is nested too deeply to read"
    except ValueError as error:  # e.g. NUL bytes, on Pythons that do not call them a SyntaxError
        return f"line 1: the program cannot be read: {error}"
    return tree


def check_program(source: str, api_names: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Every reason to refuse ``source``, each as "line N: what"; empty means it may run.

    Never raises for any text: a source that cannot even be read is one refusal.
    """
    tree = _parse_for_sandbox(source)
    if isinstance(tree, str):
        return [tree]
    problems: list[str] = []
    known = set(SAFE_BUILTINS) | set(api_names) | _assigned_names(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if not isinstance(node, ALLOWED_NODES):
            problems.append(f"line {line}: {type(node).__name__} is not allowed")
            continue
        if isinstance(node, ast.Name):
            if node.id.startswith("_") or node.id in FORBIDDEN_NAMES:
                problems.append(f"line {line}: the name {node.id!r} is not allowed")
            elif isinstance(node.ctx, ast.Load) and node.id not in known:
                problems.append(f"line {line}: unknown name {node.id!r}")
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_") or node.attr in FORBIDDEN_ATTRIBUTES:
                problems.append(f"line {line}: the attribute {node.attr!r} is not allowed")
        elif isinstance(node, ast.FunctionDef) and node.decorator_list:
            problems.append(f"line {line}: decorators are not allowed")
        elif isinstance(node, ast.Constant) and isinstance(node.value, bytes):
            problems.append(f"line {line}: bytes literals are not allowed")
    return _bounded(problems)


def _bounded(problems: list[str], most: int = 10, width: int = 200) -> list[str]:
    """At most ``most`` problems of at most ``width`` characters: a hostile source (100,000 unknown
    names, a name a megabyte long) must not make the refusal itself huge."""
    kept = [problem if len(problem) <= width else problem[: width - 1] + "…" for problem in problems[:most]]
    if len(problems) > most:
        kept.append(f"… and {len(problems) - most} more problems")
    return kept


@dataclass
class APICall:
    name: str
    arguments: dict[str, Any]
    ok: bool
    result: Any = None
    error: str | None = None
    error_code: str | None = None
    duration_s: float = 0.0


@dataclass
class SandboxResult:
    ok: bool
    value: Any = None
    stdout: str = ""
    error: str | None = None
    error_kind: ErrorKind | None = None
    calls: list[APICall] = field(default_factory=list)
    steps: int = 0
    duration_s: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "value": self.value,
            "stdout": self.stdout,
            "error": self.error,
            "error_kind": self.error_kind,
            "calls": [call.__dict__ for call in self.calls],
            "steps": self.steps,
            "duration_s": round(self.duration_s, 4),
        }


@dataclass(frozen=True)
class Limits:
    time_s: float = 5.0
    steps: int = 200_000
    memory_mb: int = 512
    """Address space the program may add on top of the worker's own."""
    output_chars: int = 20_000
    """What the program may print."""
    reply_chars: int = 4_000_000
    """The worker's whole encoded reply (value, API call records, printed output): a program's value
    can be any size, and this process must never hold (or wait for) more than this."""


class Sandbox:
    """A reusable worker process running programs against one set of API functions.

    ``api_factory`` is ``"package.module:function"``; the worker imports it and calls it with
    ``factory_kwargs`` to get ``{name: callable}``. Calls are recorded and returned with the
    result, so AutoFeedback can inspect every API request a program made.
    """

    def __init__(
        self,
        api_factory: str = "scholar_tui.core.sandbox:no_apis",
        factory_kwargs: dict[str, Any] | None = None,
        *,
        api_names: set[str] | None = None,
        limits: Limits = Limits(),
    ) -> None:
        self.api_factory = api_factory
        self.factory_kwargs = factory_kwargs or {}
        self.limits = limits
        self._api_names = api_names
        self._process: subprocess.Popen | None = None
        self._starting: subprocess.Popen | None = None  # launched by ``prestart``, not yet ready
        self._stderr: StderrTail | None = None
        self._lock = threading.Lock()

    # -- the worker --------------------------------------------------------------------------
    def _launch(self) -> subprocess.Popen:
        """The worker process, told its API factory; it imports while this process goes on."""
        environment = dict(os.environ)
        # the worker must import exactly what this process can (editable installs, test helpers)
        environment["PYTHONPATH"] = os.pathsep.join(path for path in sys.path if path)
        environment["PYTHONIOENCODING"] = "utf-8"  # the replies are UTF-8 whatever the locale
        process = subprocess.Popen(
            [sys.executable, "-m", "scholar_tui.core.sandbox_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self._stderr = StderrTail(process)
        hello = {"factory": self.api_factory, "kwargs": self.factory_kwargs, "memory_mb": self.limits.memory_mb}
        _pipe(process.stdin).write(json.dumps(hello) + "\n")
        _pipe(process.stdin).flush()
        return process

    def _await_ready(self, process: subprocess.Popen) -> subprocess.Popen:
        """``process`` once its worker says it is ready (its API names); killed if it cannot start."""
        ready = self._read_line(process, timeout_s=60.0, most_chars=self.limits.reply_chars)
        if not isinstance(ready, dict) or not ready.get("ready"):
            process.kill()
            stderr = self._stderr
            detail = (ready.get("error") if isinstance(ready, dict) else None) or (
                stderr.last_line() if stderr is not None else "(no diagnostics)"
            )
            raise RuntimeError(f"the sandbox worker did not start: {detail}")
        self._api_names = set(ready["apis"])
        return process

    def prestart(self) -> None:
        """Start the worker now without waiting for it: its interpreter and API imports (about
        0.2 s) then overlap the caller's own work (``open_soay`` starts it before it opens the library),
        and the first ``run`` only waits for what is left. Idempotent; a worker that cannot start
        is reported by that ``run``, as without a prestart."""
        with self._lock:
            if self._starting is None and (self._process is None or self._process.poll() is not None):
                self._process = None
                self._starting = self._launch()

    @staticmethod
    def _read_line(process: subprocess.Popen, timeout_s: float, most_chars: int) -> dict[str, Any] | None:
        """The worker's next reply; None when it is silent past ``timeout_s``; EOF when it died;
        TOO_LONG when the line runs past ``most_chars`` (never read further: this process stays small)."""
        stdout = _pipe(process.stdout)
        readable, _, _ = select.select([stdout], [], [], timeout_s)
        if not readable:
            return None
        line = stdout.readline(most_chars + 1)
        if not line:
            return EOF
        if not line.endswith("\n"):
            return TOO_LONG
        return json.loads(line)

    def _ensure(self) -> subprocess.Popen:
        if self._process is None or self._process.poll() is not None:
            starting, self._starting = self._starting, None
            self._process = self._await_ready(starting or self._launch())
        return self._process

    @property
    def api_names(self) -> set[str]:
        if self._api_names is None:
            with self._lock:
                self._ensure()
        return set(self._api_names or ())

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    # -- running -----------------------------------------------------------------------------
    def check(self, source: str) -> None:
        problems = check_program(source, self.api_names)
        if problems:
            raise SandboxViolation(problems)

    def run(self, source: str) -> SandboxResult:
        started = time.perf_counter()
        problems = check_program(source, self.api_names)
        if problems:
            return SandboxResult(ok=False, error="; ".join(problems), error_kind="refused")
        with self._lock:
            process = self._ensure()
            request = {
                "source": source,
                "steps": self.limits.steps,
                "output_chars": self.limits.output_chars,
                "reply_chars": self.limits.reply_chars,
            }
            try:
                _pipe(process.stdin).write(json.dumps(request) + "\n")
                _pipe(process.stdin).flush()
                reply = self._read_line(process, timeout_s=self.limits.time_s, most_chars=self.limits.reply_chars)
            except (BrokenPipeError, ValueError):
                reply = EOF
            elapsed = time.perf_counter() - started
            if not isinstance(reply, dict):
                self._kill()  # a hung, dead or flooding worker is replaced on the next run
                return self._no_reply(reply, elapsed)
        return SandboxResult(
            ok=reply["ok"],
            value=reply.get("value"),
            stdout=reply.get("stdout", ""),
            error=reply.get("error"),
            error_kind=reply.get("error_kind"),
            calls=[APICall(**call) for call in reply.get("calls", [])],
            steps=reply.get("steps", 0),
            duration_s=elapsed,
        )

    def _no_reply(self, reply: Any, elapsed: float) -> SandboxResult:
        """What a run that got no readable reply (None, TOO_LONG or EOF from ``_read_line``) reports."""
        kind: ErrorKind
        if reply is None:
            error, kind = f"stopped after {self.limits.time_s:g} s (time limit)", "timeout"
        elif reply is TOO_LONG:
            error, kind = f"its reply ran past {self.limits.reply_chars} characters (output limit)", "output"
        else:
            error, kind = "the program crashed its worker process", "crashed"
        return SandboxResult(ok=False, error=error, error_kind=kind, duration_s=elapsed)

    def close(self) -> None:
        with self._lock:
            starting, self._starting = self._starting, None
            if starting is not None:  # prestarted and never used: nothing of it to keep
                starting.kill()
                starting.wait()
            if self._process is not None and self._process.poll() is None:
                try:
                    _pipe(self._process.stdin).close()
                    self._process.wait(timeout=2)
                except Exception:
                    pass
            self._kill()

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def no_apis() -> dict[str, Any]:
    """An API factory with no APIs: plain computation only."""
    return {}
