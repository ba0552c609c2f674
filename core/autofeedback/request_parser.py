"""Reading API requests: ``<<API>>NAME(key=value, …)<</API>>`` text, and the calls inside a program.

The paper's input format is ``APINAME(key1=value1, key2=value2, …)`` (AutoFeedback §3.1), put
between ``<<API>>`` and ``<</API>>`` because special indicators make the request both likelier and
easier to parse (§5, threat 1). A request is read with Python's own parser, so that quoting,
escapes and numbers mean what they mean in the SoAy programs that make the same calls. A value
that is not a literal (a variable, an expression) is kept as written and marked ``<expression>``:
its type is only known at run time.

Anything that cannot be read this way is E1 (NO_API): ``RequestSyntaxError`` says what is wrong.
It is the only exception the readers raise, whatever the text: invalid UTF-8, NUL bytes, thousands
of nested terms and a keyword given twice are malformed requests like any other.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from scholar_tui.core.sandbox import SAFE_BUILTINS, parse_quietly, unicode_problem

OPEN_TAG, CLOSE_TAG = "<<API>>", "<</API>>"
BLOCK = re.compile(re.escape(OPEN_TAG) + r"(.*?)" + re.escape(CLOSE_TAG), re.DOTALL)


class _Expression:
    """Marks a value that is not a literal (a variable, a call): known only at run time."""

    def __repr__(self) -> str:
        return "<expression>"


EXPRESSION = _Expression()


class RequestSyntaxError(ValueError):
    """The text holds no readable API request (E1); the message says why, in one line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Argument:
    name: str | None
    """The keyword as written; None for a positional argument."""
    value: Any
    """The literal value (str, int, list…), or ``EXPRESSION`` when it is not a literal."""
    source: str
    """The value as written."""
    position: int | None = None

    @property
    def literal(self) -> bool:
        return self.value is not EXPRESSION


@dataclass
class ParsedRequest:
    api: str
    arguments: tuple[Argument, ...] = ()
    text: str = ""
    """The call as written (``searchPerson(name="Ada")``)."""
    line: int | None = None
    """Line in the program, for calls found in programs."""
    index: int = 0
    """Order of the call in its program (0 for a lone request)."""

    @property
    def keywords(self) -> dict[str, Argument]:
        return {argument.name: argument for argument in self.arguments if argument.name is not None}

    @property
    def positional(self) -> list[Argument]:
        return [argument for argument in self.arguments if argument.name is None]

    def literal_kwargs(self, parameter_names: list[str] | None = None) -> dict[str, Any]:
        """Keyword arguments with literal values; positional ones named after ``parameter_names``."""
        values: dict[str, Any] = {}
        for position, argument in enumerate(self.positional):
            if parameter_names and position < len(parameter_names):
                values[parameter_names[position]] = argument.value
        for name, argument in self.keywords.items():
            values[name] = argument.value
        return values

    def wrapped(self) -> str:
        return f"{OPEN_TAG}{self.text}{CLOSE_TAG}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "api": self.api,
            "arguments": [
                {"name": a.name, "value": a.value if a.literal else repr(EXPRESSION), "source": a.source}
                for a in self.arguments
            ],
            "text": self.text,
            "line": self.line,
        }


Reader = TypeVar("Reader", bound=Callable[..., Any])


def _one_line_errors(reader: Reader) -> Reader:
    """Python's parser and ``ast.unparse`` recurse: a request nested thousands deep (``1+1+…``)
    exhausts the stack or memory, which is a malformed request (E1), not a crash."""

    @functools.wraps(reader)
    def wrapper(*args, **kwargs):
        try:
            return reader(*args, **kwargs)
        except (RecursionError, MemoryError) as error:
            raise RequestSyntaxError("the text is nested too deeply to read") from error

    return wrapper  # type: ignore[return-value]


def _parse(text: str, mode: str) -> ast.AST:
    """``ast.parse`` that fails with SyntaxError only (the Unicode and NUL checks Python leaves to
    the encoder raise other errors)."""
    problem = unicode_problem(text)
    if problem is not None:
        raise SyntaxError(problem)
    try:
        return parse_quietly(text, mode=mode)
    except ValueError as error:  # NUL bytes, on Pythons that do not call them a SyntaxError
        raise SyntaxError(str(error)) from error


def _argument(node: ast.expr, source: str, name: str | None, position: int | None) -> Argument:
    written = ast.get_source_segment(source, node) or ast.unparse(node)
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = EXPRESSION
    return Argument(name=name, value=value, source=written, position=position)


def _call_to_request(call: ast.Call, source: str, index: int = 0) -> ParsedRequest:
    arguments: list[Argument] = []
    for position, node in enumerate(call.args):
        if isinstance(node, ast.Starred):
            raise RequestSyntaxError("a request cannot unpack arguments with *", call.lineno)
        arguments.append(_argument(node, source, None, position))
    for keyword in call.keywords:
        if keyword.arg is None:
            raise RequestSyntaxError("a request cannot unpack arguments with **", call.lineno)
        if any(argument.name == keyword.arg for argument in arguments):
            # Python refuses this call when it compiles it; read here, the last value would win
            raise RequestSyntaxError(f"the keyword argument {keyword.arg} is given twice", call.lineno)
        arguments.append(_argument(keyword.value, source, keyword.arg, None))
    text = ast.get_source_segment(source, call) or ast.unparse(call)
    name = call.func.id if isinstance(call.func, ast.Name) else ast.unparse(call.func)
    return ParsedRequest(api=name, arguments=tuple(arguments), text=text, line=call.lineno, index=index)


@_one_line_errors
def parse_request(text: str, *, require_tags: bool = True) -> ParsedRequest:
    """The first ``<<API>>NAME(…)<</API>>`` request in ``text`` (E1 → RequestSyntaxError).

    With ``require_tags=False`` a bare ``NAME(…)`` is accepted too (a person typing in the debugger).
    """
    if text is None or not text.strip():
        raise RequestSyntaxError("no API request was generated (the output is empty)")
    found = BLOCK.search(text)
    if found is None:
        if OPEN_TAG in text:
            raise RequestSyntaxError(f"the request opens with {OPEN_TAG} but never closes with {CLOSE_TAG}")
        if require_tags:
            raise RequestSyntaxError(f"the output has no {OPEN_TAG}…{CLOSE_TAG} block")
        inner = text.strip()
    else:
        inner = found.group(1).strip()
    if not inner:
        raise RequestSyntaxError(f"the {OPEN_TAG}…{CLOSE_TAG} block is empty")
    try:
        tree = _parse(inner, mode="eval")
    except SyntaxError as error:
        raise RequestSyntaxError(f"{inner[:80]!r} is not of the form APINAME(key=value, …): {error.msg}") from error
    call = tree.body if isinstance(tree, ast.Expression) else None  # mode "eval" parses to one
    if not isinstance(call, ast.Call):
        raise RequestSyntaxError(f"{inner[:80]!r} is not a call of the form APINAME(key=value, …)")
    if not isinstance(call.func, ast.Name):
        raise RequestSyntaxError(f"the API name {ast.unparse(call.func)!r} must be a plain name")
    request = _call_to_request(call, inner)
    request.line = None
    return request


def _defined_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


@_one_line_errors
def program_calls(source: str) -> list[ParsedRequest]:
    """Every call in a program that can only be an API call, in source order.

    A call counts when it calls a plain name that is neither a safe built-in (``len``, ``sorted``)
    nor something the program defines itself; method calls (``names.append``) are never API calls.
    So a misspelt API (``search_person(...)``) is found too, and the scanner can name its error.
    """
    try:
        tree = _parse(source, mode="exec")
    except SyntaxError as error:
        raise RequestSyntaxError(f"the program does not parse: {error.msg}", error.lineno) from error
    own = _defined_names(tree)
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id not in SAFE_BUILTINS
        and node.func.id not in own
    ]
    calls.sort(key=lambda node: (node.lineno, node.col_offset))
    return [_call_to_request(call, source, index) for index, call in enumerate(calls)]


def format_request(api: str, arguments: dict[str, Any], *, tags: bool = True) -> str:
    """``<<API>>api(key="value", …)<</API>>``; strings in double quotes, other literals as Python writes them."""
    parts = [
        f"{key}={json.dumps(value, ensure_ascii=False) if isinstance(value, str) else repr(value)}"
        for key, value in arguments.items()
    ]
    call = f"{api}({', '.join(parts)})"
    return f"{OPEN_TAG}{call}{CLOSE_TAG}" if tags else call


def call_arguments(arguments: dict[str, Any], parameter_names: list[str] | None = None) -> dict[str, Any]:
    """The keyword arguments of a recorded sandbox call.

    The sandbox binds calls to the API functions' ``(*args, **kwargs)`` signature, so a record
    reads ``{"args": [...], "kwargs": {...}}``; positional values are named after the spec.
    """
    if set(arguments) <= {"args", "kwargs"} and ("args" in arguments or "kwargs" in arguments):
        values: dict[str, Any] = {}
        for position, value in enumerate(arguments.get("args") or []):
            key = parameter_names[position] if parameter_names and position < len(parameter_names) else f"arg{position}"
            values[key] = value
        values.update(arguments.get("kwargs") or {})
        return values
    return dict(arguments)


__all__ = [
    "Argument",
    "CLOSE_TAG",
    "EXPRESSION",
    "OPEN_TAG",
    "ParsedRequest",
    "RequestSyntaxError",
    "call_arguments",
    "format_request",
    "parse_request",
    "program_calls",
]
