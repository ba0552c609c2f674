"""The sandbox's worker process: JSON lines in, JSON lines out (see core/sandbox.py).

The first line names the API factory; each later line is a program to run. The worker answers
each with the program's value, its printed output, every API call it made, and any error.
Programs were checked by ``check_program`` before they were sent; the limits here are the
second layer: a line-step counter, an output cap and an address-space cap.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import io
import json
import sys
import time
import traceback
from typing import Any

FILENAME = "<sandbox>"
LAST_VALUE = "_sandbox_last_value"


class StepLimit(BaseException):
    """Raised inside the program when it executed too many lines."""


class OutputLimit(BaseException):
    """Raised inside the program when it printed too much."""


def _limit_memory(extra_mb: int) -> None:
    try:
        import resource

        with open("/proc/self/status") as status:
            current_kb = next(int(line.split()[1]) for line in status if line.startswith("VmSize:"))
        limit = current_kb * 1024 + extra_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, OSError, StopIteration, ValueError):
        pass  # not Linux: the parent's wall-clock limit still applies


def plain(value: Any, depth: int = 0) -> Any:
    """A JSON-able copy of a program's value (API results are dicts, lists and scalars)."""
    if depth > 20:
        return "…"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(key): plain(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(item, depth + 1) for item in value]
    return repr(value)


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
            try:
                result = function(*args, **kwargs)
                entry["result"] = plain(result)
                return result
            except Exception as error:
                entry.update(ok=False, error=f"{type(error).__name__}: {error}", error_code=getattr(error, "code", None))
                raise
            finally:
                entry["duration_s"] = time.perf_counter() - started
                calls.append(entry)

        recorded.__name__ = name
        return recorded

    return {name: wrap(name, function) for name, function in apis.items()}


def _safe_builtins(output: io.StringIO, output_chars: int) -> dict[str, Any]:
    from .sandbox import SAFE_BUILTINS

    namespace = {name: getattr(builtins, name) for name in SAFE_BUILTINS if name != "print"}

    def sandbox_print(*values, sep=" ", end="\n"):
        output.write(str(sep).join(str(value) for value in values) + str(end))
        if output.tell() > output_chars:
            raise OutputLimit()

    namespace["print"] = sandbox_print
    return namespace


def _program_line(error: BaseException) -> int | None:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == FILENAME]
    return frames[-1].lineno if frames else None


def run_program(source: str, apis: dict[str, Any], step_limit: int, output_chars: int) -> dict[str, Any]:
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
        exec(code, namespace)  # noqa: S102 - checked source, restricted builtins
        value = namespace.get("result", namespace.get("answer", namespace.get(LAST_VALUE)))
        reply["value"] = plain(value)
    except StepLimit:
        reply.update(ok=False, error_kind="steps", error=f"stopped after {step_limit} steps (step limit)")
    except OutputLimit:
        reply.update(ok=False, error_kind="output", error=f"printed more than {output_chars} characters")
    except MemoryError:
        reply.update(ok=False, error_kind="memory", error="ran out of its memory allowance")
    except Exception as error:  # the program's own failure, reported with its line
        line = _program_line(error)
        where = f"line {line}: " if line else ""
        reply.update(ok=False, error_kind="runtime", error=f"{where}{type(error).__name__}: {error}")
    finally:
        sys.settrace(None)
    reply["stdout"] = output.getvalue()[:output_chars]
    reply["steps"] = steps
    return reply


def main() -> None:
    hello = json.loads(sys.stdin.readline())
    try:
        module_name, _, function_name = hello["factory"].partition(":")
        apis = getattr(importlib.import_module(module_name), function_name)(**hello.get("kwargs", {}))
    except Exception as error:  # noqa: BLE001 - reported to the parent as one line
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
        try:
            text = json.dumps(reply, default=repr)
        except (TypeError, ValueError) as error:
            text = json.dumps({"ok": False, "error_kind": "runtime", "error": f"unserialisable result: {error}"})
        print(text, flush=True)


if __name__ == "__main__":
    main()
