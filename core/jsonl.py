"""Records as JSON lines: the one way engines and training scripts read and write them.

A record type is a dataclass with ``from_dict(data, where)`` and ``to_dict()``; ``from_dict``
checks its fields with ``require`` and raises ``FormatError`` naming the file and line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Protocol, Self, TypeVar


class FormatError(ValueError):
    """A JSONL file or record is malformed; the message names the file and line."""


class JsonRecord(Protocol):
    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "record") -> Self: ...

    def to_dict(self) -> dict[str, Any]: ...


Record = TypeVar("Record", bound=JsonRecord)


def require(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise FormatError(f"{where}: missing field {key!r}")
    value = data[key]
    # bool is an int subclass: a "hops": true must not pass as an int.
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise FormatError(f"{where}: field {key!r} must be {_kind_name(kind)}, not a boolean")
    if not isinstance(value, kind):
        raise FormatError(f"{where}: field {key!r} must be {_kind_name(kind)}, got {type(value).__name__}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


# -- files ------------------------------------------------------------------------------------
def json_objects(path: str | Path, error: type[Exception] = FormatError) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(where, object)`` for each non-blank line, ``where`` being ``FILE:LINE``; ``error`` names a bad line."""
    path = Path(path)
    if not path.is_file():
        raise error(f"{path}: no such file")
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                data = json.loads(line)
            except json.JSONDecodeError as bad:
                raise error(f"{where}: not JSON ({bad.msg})") from bad
            if not isinstance(data, dict):
                raise error(f"{where}: each line must be a JSON object")
            yield where, data


def iter_jsonl(path: str | Path, record_type: type[Record]) -> Iterator[Record]:
    """Records from a JSONL file, one per non-blank line; FormatError names the bad line."""
    for where, data in json_objects(path):
        yield record_type.from_dict(data, where)


def read_jsonl(path: str | Path, record_type: type[Record]) -> list[Record]:
    return list(iter_jsonl(path, record_type))


def write_jsonl(path: str | Path, records: Iterable[JsonRecord]) -> int:
    """Write records (atomically) and return how many were written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    count = 0
    with temporary.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")
            count += 1
    temporary.replace(path)
    return count
