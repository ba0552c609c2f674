"""Command-line flags and config files for the training scripts, from one dataclass per script.

Every field of a script's options dataclass is a flag (``learning_rate`` -> ``--learning-rate``) and
a key of the config file (TOML or JSON, ``--config FILE``; keys may be spelled with ``_`` or ``-``).
Precedence, lowest first: the dataclass defaults < the config file < flags given on the command line.
No torch here, so ``--help`` answers at once.
"""

from __future__ import annotations

import argparse
import json
import tomllib
import types
import typing
from dataclasses import MISSING, asdict, field, fields
from pathlib import Path
from typing import Any, TypeVar

Options = TypeVar("Options")
REQUIRED = "required"


def required(help_text: str) -> Any:
    """A field every run must give (flag or config key); ``help_text`` is its ``--help`` line."""
    return field(default="", metadata={"help": help_text, REQUIRED: True})


def option(default: Any, help_text: str) -> Any:
    """A field with a default; ``help_text`` is its ``--help`` line."""
    return field(default=default, metadata={"help": help_text})


def _plain_type(annotation: Any) -> tuple[type, bool]:
    """(the base type, whether None is allowed) of ``int``, ``str | None`` and the like."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        members = [member for member in typing.get_args(annotation) if member is not type(None)]
        return members[0], True
    return annotation, False


def _coerce(value: Any, kind: type, optional: bool, name: str) -> Any:
    if value is None and optional:
        return None
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind is bool and not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    if kind is not bool and isinstance(value, bool):
        raise ValueError(f"{name} must be {kind.__name__}, got {value!r}")
    if not isinstance(value, kind):
        raise ValueError(f"{name} must be {kind.__name__}, got {value!r}")
    return value


def read_config_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise ValueError(f"cannot read config file {path}: {error.strerror}") from error
    try:
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        raise ValueError(
            f"config file {path} is not valid {'JSON' if path.suffix == '.json' else 'TOML'}: {error}"
        ) from error
    if not isinstance(data, dict):
        raise ValueError(f"config file {path} must hold a table of keys")
    return {key.replace("-", "_"): value for key, value in data.items()}


def build_parser(options_type: type, prog: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description,
        argument_default=argparse.SUPPRESS,
    )
    parser.add_argument("--config", type=Path, help="TOML or JSON file whose keys mirror these flags")
    hints = typing.get_type_hints(options_type)
    for item in fields(options_type):
        kind, optional = _plain_type(hints[item.name])
        flag = "--" + item.name.replace("_", "-")
        default = None if item.default is MISSING else item.default
        help_text = item.metadata.get("help", "")
        if item.metadata.get(REQUIRED):
            help_text += " (required, here or in the config file)"
        else:
            help_text += f" (default: {default})"
        if kind is bool:
            parser.add_argument(flag, action=argparse.BooleanOptionalAction, help=help_text)
        else:
            parser.add_argument(flag, type=kind, metavar=kind.__name__.upper(), help=help_text)
    return parser


def parse_options(options_type: type[Options], argv: list[str] | None, prog: str, description: str) -> Options:
    """The options in force: defaults, then the config file, then the flags given."""
    parser = build_parser(options_type, prog, description)
    given = vars(parser.parse_args(argv))
    values: dict[str, Any] = {}
    hints = typing.get_type_hints(options_type)
    known = {item.name for item in fields(options_type)}
    config_path = given.pop("config", None)
    if config_path is not None:
        try:
            from_file = read_config_file(config_path)
        except ValueError as error:
            parser.error(str(error))
        unknown = sorted(set(from_file) - known)
        if unknown:
            parser.error(f"unknown key {unknown[0]!r} in {config_path} (keys mirror the flags; see --help)")
        for key, value in from_file.items():
            kind, optional = _plain_type(hints[key])
            try:
                values[key] = _coerce(value, kind, optional, f"{key} in {config_path}")
            except ValueError as error:
                parser.error(str(error))
    values.update(given)
    for item in fields(options_type):
        if item.metadata.get(REQUIRED) and values.get(item.name) in (None, ""):
            parser.error(f"--{item.name.replace('_', '-')} is required (as a flag or a config-file key)")
    return options_type(**values)


def options_dict(options: Any) -> dict[str, Any]:
    return asdict(options)
