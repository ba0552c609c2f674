"""Read one big JSON document a value at a time, so a 200 MB OpenAlex list never sits in memory.

``objects(stream)`` yields the records of an OpenAlex-style document: the elements of a top-level
list, the elements of a page's ``results`` list (its other keys, ``meta`` and the like, are read
and dropped), or a single top-level value. Memory holds one record and one read chunk. Each
value is decoded by the standard library's C decoder (``raw_decode``); only the punctuation
between the records is walked here.

Errors are ``JSONStreamError`` with the line and column, one line, like ``json``'s own; nesting
deeper than Python's recursion limit is an error, not a ``RecursionError``.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Iterator
from typing import IO, Any

CHUNK = 1 << 20
WHITESPACE = " \t\n\r"
_DECODER = json.JSONDecoder()


class JSONStreamError(ValueError):
    """Not valid JSON (or not UTF-8) at ``line``, ``column``; the message is one line."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line, self.column = line, column


class _Reader:
    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8-sig")()
        self.text = ""
        self.pos = 0
        self.lines_before = 0  # newlines in the text already dropped from the buffer
        self.eof = False

    def _fill(self) -> None:
        """Drop what was read, then read at least as much again as is pending (amortised linear)."""
        self.lines_before += self.text.count("\n", 0, self.pos)
        self.text = self.text[self.pos :]
        self.pos = 0
        data = self.stream.read(max(CHUNK, len(self.text)))
        try:
            self.text += self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            raise JSONStreamError(f"not UTF-8 text ({error.reason})", self._line(len(self.text))) from None
        self.eof = not data

    def _line(self, pos: int) -> int:
        return self.lines_before + self.text.count("\n", 0, pos) + 1

    def _error(self, message: str, pos: int) -> JSONStreamError:
        column = pos - self.text.rfind("\n", 0, pos)
        return JSONStreamError(message, self._line(pos), column)

    def peek(self) -> str:
        """The next character that is not white space ('' at the end of the file)."""
        while True:
            while self.pos < len(self.text) and self.text[self.pos] in WHITESPACE:
                self.pos += 1
            if self.pos < len(self.text) or self.eof:
                return self.text[self.pos : self.pos + 1]
            self._fill()

    def expect(self, allowed: str, after: str) -> str:
        char = self.peek()
        if not char or char not in allowed:
            found = repr(char) if char else "the end of the file"
            raise self._error(
                f"expected {' or '.join(repr(c) for c in allowed)} after {after}, found {found}", self.pos
            )
        self.pos += 1
        return char

    def value(self) -> Any:
        """The JSON value at the read position; reads more while the buffer ends inside it."""
        self.peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.text, self.pos)
            except json.JSONDecodeError as error:
                if self.eof:
                    raise self._error(error.msg, error.pos) from None
                self._fill()
                continue
            except RecursionError:
                raise self._error("nested too deeply (over ~1000 levels)", self.pos) from None
            except ValueError:  # int() of a number over 4,300 digits; more text only makes it longer
                raise self._error("a number of over 4,300 digits", self.pos) from None
            if end == len(self.text) and not self.eof:
                self._fill()  # '12' may be the start of '1234': decode again with more text
                continue
            self.pos = end
            return value

    def elements(self, label: Callable[[int], str]) -> Iterator[tuple[str, Any]]:
        """The elements of the list whose '[' was just read."""
        if self.peek() == "]":
            self.pos += 1
            return
        index = 0
        while True:
            yield label(index), self.value()
            index += 1
            if self.expect(",]", "a list element") == "]":
                return


def objects(stream: IO[bytes]) -> Iterator[tuple[str, Any]]:
    """(where, record) for each record of the document; ``where`` is 'results[3]' or 'object 4'."""
    reader = _Reader(stream)
    first = reader.peek()
    if first == "[":
        reader.pos += 1
        yield from reader.elements(lambda index: f"object {index + 1}")
    elif first == "{":
        reader.pos += 1
        yield from _members(reader)
    elif first:
        yield "object 1", reader.value()  # a bare string or number: the parser says what it is not
    if reader.peek():
        raise reader._error("extra data after the JSON document", reader.pos)


def _members(reader: _Reader) -> Iterator[tuple[str, Any]]:
    """A top-level object: stream its 'results' list; without one, the object is the record."""
    kept: dict[str, Any] = {}
    streamed = False
    if reader.peek() == "}":
        reader.pos += 1
    else:
        while True:
            at = reader.pos
            key = reader.value()
            if not isinstance(key, str):
                raise reader._error("an object key must be a string", at)
            reader.expect(":", f"the key {key[:40]!r}")
            if key == "results" and reader.peek() == "[":
                reader.pos += 1
                yield from reader.elements(lambda index: f"results[{index}]")
                streamed = True
            else:
                kept[key] = reader.value()
            if reader.expect(",}", f"the value of {key[:40]!r}") == "}":
                break
    if not streamed:
        yield "object 1", kept
