"""ConferenceQA question files: one tree JSON and four question files in a directory."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scholar_tui.core.conference.tree import ConferenceError, read_json

QUESTION_TYPES = ("extraction_atomic", "extraction_complex", "reasoning_atomic", "reasoning_complex")
SHORT_TYPE = {
    "extraction_atomic": "EA",
    "extraction_complex": "EC",
    "reasoning_atomic": "RA",
    "reasoning_complex": "RC",
}


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    sources: tuple[str, ...]
    """The ``from`` field: where the answer lives (one path, or several)."""
    question_type: str


def _records(data: Any, path: Path) -> list[dict]:
    """A list of {question, answer, from}; some files wrap it as {"QAs": [...]}."""
    if isinstance(data, dict):
        lists = [value for value in data.values() if isinstance(value, list)]
        if len(lists) != 1:
            raise ConferenceError(f"{path}: expected a list of questions (or one key holding it)")
        data = lists[0]
    if not isinstance(data, list):
        raise ConferenceError(f"{path}: expected a list of questions")
    return data


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_text(item) for item in value)
    return " ".join(str(value).split()) if value is not None else ""


def load_questions(path: Path, question_type: str) -> list[Question]:
    questions = []
    for index, record in enumerate(_records(read_json(path), path)):
        if not isinstance(record, dict) or "question" not in record:
            raise ConferenceError(f"{path}: item {index} has no 'question'")
        source = record.get("from") or ""
        sources = tuple(str(item) for item in source) if isinstance(source, list) else (str(source),)
        questions.append(
            Question(
                _text(record["question"]),
                _text(record.get("answer", "")),
                tuple(item for item in sources if item.strip()),
                question_type,
            )
        )
    return questions


@dataclass(frozen=True)
class DatasetFiles:
    tree_file: Path
    question_files: dict[str, Path]


def find_dataset_files(directory: Path) -> DatasetFiles:
    """The tree JSON and the question files of a directory in ConferenceQA form."""
    if not directory.is_dir():
        raise ConferenceError(f"{directory}: not a directory (expected one tree JSON plus the four question files)")
    question_files = {
        kind: directory / f"{kind}.json" for kind in QUESTION_TYPES if (directory / f"{kind}.json").exists()
    }
    if not question_files:
        raise ConferenceError(f"{directory}: none of {', '.join(name + '.json' for name in QUESTION_TYPES)} found")
    trees = sorted(path for path in directory.glob("*.json") if path.stem not in QUESTION_TYPES)
    if len(trees) != 1:
        found = ", ".join(path.name for path in trees) or "none"
        raise ConferenceError(f"{directory}: expected exactly one tree JSON besides the question files (found {found})")
    return DatasetFiles(trees[0], question_files)


def load_dataset_questions(files: DatasetFiles) -> list[Question]:
    return [question for kind, path in files.question_files.items() for question in load_questions(path, kind)]
