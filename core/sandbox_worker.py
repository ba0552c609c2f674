"""The sandbox's worker process: JSON lines in, JSON lines out (see core/sandbox.py).

The first line names the API factory; each later line is a program to run. The worker answers
each with the program's value, its printed output, every API call it made, and any error.
Programs were checked by ``check_program`` before they were sent; the limits here are the
second layer: a line-step counter, an output cap, an address-space cap and a cap on the encoded
reply (value, API call records and output together), which is measured before it is copied.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import io
import json
import math
import os
import sys
import time
import traceback
import warnings
from collections.abc import Iterable
from typing import Any

FILENAME = "<sandbox>"
LAST_VALUE = "_sandbox_last_value"
RESULT_COST = "_result_chars"  # a call record's note of what its result's copy costs; never sent


class StepLimit(BaseException):
    """Raised inside the program when it executed too many lines."""


class OutputLimit(BaseException):
    """Raised inside the program when it printed too much."""


class ReplyTooLarge(Exception):
    """The value and the call records would not fit in the reply (``Limits.reply_chars``)."""


class Budget:
    """Characters a reply may still spend; ``plain`` stops walking a value as soon as it is spent.

    It also remembers each container it copied, with its cost: a value that shares one list
    many times (``x = [x, x]`` forty times) is 2**40 items written out, but only forty to walk.
    """

    def __init__(self, chars: int = sys.maxsize) -> None:
        self.left = self.start = chars
        self.copied: dict[int, tuple[Any, Any, int]] = {}  # id → (the original, kept alive; its copy; cost)

    @property
    def spent(self) -> int:
        return self.start - self.left

    def spend(self, chars: int) -> None:
        self.left -= chars
        if self.left < 0:
            raise ReplyTooLarge()


ERROR_CHARS = 1000  # an error message quotes values (a KeyError's key): keep it a line, not a megabyte
HUGE_INT_BITS = 13_000  # about 4,000 digits: beyond that Python will not even write the number out
SEQUENCES: tuple[type[Iterable[Any]], ...] = (
    list,
    tuple,
    set,
    frozenset,
    type({}.keys()),
    type({}.values()),
    type({}.items()),
)


def _limit_memory(extra_mb: int) -> None:
    try:
        import resource

        with open("/proc/self/status") as status:
            current_kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
        limit = current_kb * 1024 + extra_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, StopIteration, ValueError):
        pass  # not Linux: the parent's wall-clock limit still applies


def clean_text(text: str, most_chars: float = math.inf) -> str:
    """``text`` cut to ``most_chars`` and made valid UTF-8: a lone surrogate (``'\\ud800'`` in a
    program) becomes its escape, which the parent, SQLite and the terminal can all encode."""
    if len(text) > most_chars:
        text = text[: int(most_chars) - 1] + "…"
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def plain(value: Any, budget: Budget | None = None, depth: int = 0) -> Any:
    """A JSON-able copy of a program's value (API results are dicts, lists and scalars).

    With a ``budget`` it raises ReplyTooLarge as soon as the copy would pass it, before copying
    anything big: each string's length is charged before the string is touched.
    """
    budget = budget if budget is not None else Budget()
    budget.spend(2)  # every item costs at least its separator
    if depth > 20:
        return "…"
    if isinstance(value, str):
        budget.spend(len(value))
        return clean_text(value)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > HUGE_INT_BITS:
        return f"<an integer of about {int(value.bit_length() * math.log10(2))} digits>"
    if value is None or isinstance(value, (bool, int, float)):
        budget.spend(8)
        return value
    if isinstance(value, dict) or isinstance(value, SEQUENCES):  # two checks: mypy narrows each
        if id(value) in budget.copied:
            _, copy, cost = budget.copied[id(value)]
            budget.spend(cost)
            return copy
        before = budget.left
        if isinstance(value, dict):
            copy = {plain(str(key), budget): plain(item, budget, depth + 1) for key, item in value.items()}
        else:
            copy = [plain(item, budget, depth + 1) for item in value]
        budget.copied[id(value)] = (value, copy, before - budget.left)
        return copy
    return plain(repr(value), budget)


def _record_calls(apis: dict[str, Any], calls: list[dict[str, Any]]) -> dict[str, Any]:
    def wrap(name: str, function):
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):
            signature = None

        def recorded(*args, **kwargs):
            try:
                arguments = dict(signature.bind(*args, **kwargs).arguments) if signature else dict(kwargs)
            except TypeError:
                arguments = {"args": list(args), **kwargs}
            started = time.perf_counter()
            entry: dict[str, Any] = {"name": name, "arguments": plain(arguments), "ok": True}
            # The API and the copy of its result run untraced: with the line counter installed,
            # every Python call they make (thousands for a prolific author's coauthors) would go
            # through it only to be told not to count (4x the call's time). The program's own
            # lines are counted again when the call returns; the wall-clock limit bounds the call.
            tracer = sys.gettrace()
            sys.settrace(None)
            try:
                result = function(*args, **kwargs)
                copied = Budget()
                entry["result"] = plain(result, copied)
                entry[RESULT_COST] = copied.spent  # encode_reply charges it without walking the copy again
                return result
            except Exception as error:
                entry.update(ok=False, error=_error_text(error), error_code=getattr(error, "code", None))
                raise
            finally:
                sys.settrace(tracer)
                entry["duration_s"] = time.perf_counter() - started
                calls.append(entry)

        recorded.__name__ = name
        return recorded

    return {name: wrap(name, function) for name, function in apis.items()}


def _safe_builtins(output: io.StringIO, output_chars: int) -> dict[str, Any]:
    from scholar_tui.core.sandbox import SAFE_BUILTINS

    namespace = {name: getattr(builtins, name) for name in SAFE_BUILTINS if name != "print"}

    def sandbox_print(*values, sep=" ", end="\n"):
        text = str(sep).join(str(value) for value in values) + str(end)
        room = output_chars - output.tell()
        output.write(text[: max(room, 0)])  # what fits, never the whole of a huge line
        if len(text) > room:
            raise OutputLimit()

    namespace["print"] = sandbox_print
    return namespace


def _error_text(error: BaseException) -> str:
    return clean_text(f"{type(error).__name__}: {error}", ERROR_CHARS)


def _program_line(error: BaseException) -> int | None:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == FILENAME]
    return frames[-1].lineno if frames else None


def run_program(source: str, apis: dict[str, Any], step_limit: int, output_chars: int) -> dict[str, Any]:
    """The program's reply, its ``value`` as the program left it (``encode_reply`` makes it plain)."""
    tree = ast.parse(source, filename=FILENAME)
    if tree.body and isinstance(tree.body[-1], ast.Expr):  # the last expression is the value
        last = tree.body[-1]
        tree.body[-1] = ast.Assign(targets=[ast.Name(LAST_VALUE, ast.Store())], value=last.value)
        ast.copy_location(tree.body[-1], last)
        ast.fix_missing_locations(tree)
    code = compile(tree, FILENAME, "exec")
    output = io.StringIO()
    calls: list[dict[str, Any]] = []
    namespace: dict[str, Any] = {"__builtins__": _safe_builtins(output, output_chars)}
    namespace.update(_record_calls(apis, calls))
    steps = 0

    def count_lines(frame, event, arg):
        nonlocal steps
        if event == "line":
            steps += 1
            if steps > step_limit:
                raise StepLimit()
        return count_lines

    def trace(frame, event, arg):
        # only the program's own frames are counted; API internals run untraced, at full speed
        return count_lines if frame.f_code.co_filename == FILENAME else None

    reply: dict[str, Any] = {"ok": True, "calls": calls}
    sys.settrace(trace)
    try:
        exec(code, namespace)
        reply["value"] = namespace.get("result", namespace.get("answer", namespace.get(LAST_VALUE)))
    except StepLimit:
        reply.update(ok=False, error_kind="steps", error=f"stopped after {step_limit} steps (step limit)")
    except OutputLimit:
        reply.update(ok=False, error_kind="output", error=f"printed more than {output_chars} characters")
    except MemoryError:
        reply.update(ok=False, error_kind="memory", error="ran out of its memory allowance")
    except Exception as error:  # the program's own failure, reported with its line
        line = _program_line(error)
        where = f"line {line}: " if line else ""
        reply.update(ok=False, error_kind="runtime", error=where + _error_text(error))
    finally:
        sys.settrace(None)
    reply["stdout"] = clean_text(output.getvalue(), output_chars)
    reply["steps"] = steps
    return reply


def encode_reply(reply: dict[str, Any], reply_chars: int) -> str:
    """``reply`` as one JSON line of at most ``reply_chars`` characters.

    The value and the call records are walked against the budget before they are copied, so a
    program's 200 MB string is refused (the output limit), not encoded, which would take the
    worker past its memory limit and the parent past any sane size.
    """
    budget = Budget(reply_chars)
    try:
        budget.spend(len(reply.get("stdout", "")) + len(reply.get("error") or ""))
        fitted = dict(
            reply,
            calls=[_fitted_call(call, budget) for call in reply.get("calls", [])],
            value=plain(reply.get("value"), budget),
        )
        text = json.dumps(fitted, ensure_ascii=False)
        if len(text) <= reply_chars:
            return text
    except (ReplyTooLarge, MemoryError):
        pass
    return _too_large_reply(reply, reply_chars)


def _fitted_call(call: dict[str, Any], budget: Budget) -> dict[str, Any]:
    """A call record charged to ``budget``: its result was copied plain when it was recorded, so
    it is charged what that copy cost instead of being walked again (a list of 7,000 coauthors
    took as long to walk as to fetch)."""
    if RESULT_COST not in call:
        return plain(call, budget)
    fitted = plain({key: value for key, value in call.items() if key not in ("result", RESULT_COST)}, budget)
    budget.spend(call[RESULT_COST])
    fitted["result"] = call["result"]
    return fitted


def _too_large_reply(reply: dict[str, Any], reply_chars: int) -> str:
    """The output-limit reply: no value, and each call only as its name and outcome, while they fit."""
    error = f"its value and API call records run past {reply_chars} characters (output limit)"
    if reply.get("error"):
        error += f"; before that: {reply['error']}"
    calls, budget = [], Budget(reply_chars // 2)
    for call in reply.get("calls", []):
        try:
            budget.spend(200)
        except ReplyTooLarge:
            break
        calls.append(
            {
                "name": call["name"],
                "arguments": {},
                "ok": call["ok"],
                "error": call.get("error"),
                "error_code": call.get("error_code"),
                "duration_s": call.get("duration_s", 0.0),
            }
        )
    return json.dumps(
        {
            "ok": False,
            "error_kind": "output",
            "error": error,
            "calls": calls,
            "stdout": reply.get("stdout", ""),
            "steps": reply.get("steps", 0),
        },
        ensure_ascii=False,
    )


def main() -> None:
    warnings.simplefilter("ignore")  # compiler warnings about a program are noise on a pipe nobody shows
    hello = json.loads(sys.stdin.readline())
    try:
        module_name, _, function_name = hello["factory"].partition(":")
        apis = getattr(importlib.import_module(module_name), function_name)(**hello.get("kwargs", {}))
    except Exception as error:
        print(json.dumps({"ready": False, "error": f"{type(error).__name__}: {error}"}), flush=True)
        return
    _limit_memory(int(hello.get("memory_mb", 512)))
    print(json.dumps({"ready": True, "apis": sorted(apis)}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = run_program(request["source"], apis, request["steps"], request["output_chars"])
        except MemoryError:
            reply = {"ok": False, "error_kind": "memory", "error": "ran out of its memory allowance", "calls": []}
        except (SyntaxError, RecursionError, ValueError) as error:  # check_program compiled it first; a
            # different stack depth here must still cost the program, never the worker
            reply = {"ok": False, "error_kind": "refused", "error": f"line 1: {_error_text(error)}", "calls": []}
        try:
            text = encode_reply(reply, request.get("reply_chars", 4_000_000))
        except (TypeError, ValueError, RecursionError) as error:  # a huge int, or a key nested too deep to write
            text = json.dumps({"ok": False, "error_kind": "runtime", "error": f"unserialisable result: {error}"})
        print(text, flush=True)


if __name__ == "__main__":
    main()
    # stdin closed: the parent is done with this worker and waits for it to exit (Sandbox.close).
    # Nothing is left to write or release (replies are flushed, SQLite committed each call), so it
    # exits at once instead of tearing the interpreter down (a tenth of a second the parent waited).
    sys.stdout.flush()
    os._exit(0)
