"""The API documentation as DAC reads it (AutoFeedback §3.3.1): paragraphs → sentences → chunks.

The documentation is compiled from the library's specs: for each API its description, each
parameter's type and description, what it returns, and the meaning of every error code it raises
(``ERROR_CODES``). Following Figure 5, it is split into sentences, each sentence is embedded, and
adjacent sentences of the same paragraph whose embeddings are similar are put in the same chunk
(semantic chunking). A chunk keeps its paragraph's heading ("Error E_NOT_FOUND from getCoauthors:"),
so that a sentence split off from its first one still says what it is about.

Chunks of the API named ``*`` hold the error codes every API shares (E_UNKNOWN_API among them):
they are what a request to an API that does not exist can be matched with.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from scholar_tui.core.library.apis import ERROR_CODES, SPECS, APISpec

ANY_API = "*"
CHUNK_SIMILARITY = 0.3
"""Adjacent sentences at least this similar share a chunk (cosine of their embeddings)."""
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")


@dataclass(frozen=True)
class DocParagraph:
    api: str
    section: str
    """"description", "parameter:person_id", "returns", "error:E_NOT_FOUND"."""
    heading: str
    text: str


@dataclass(frozen=True)
class DocChunk:
    api: str
    section: str
    text: str
    sentences: int


def split_sentences(text: str) -> list[str]:
    return [part.strip() for part in SENTENCE_END.split(text.strip()) if part.strip()]


def api_documentation(
    specs: Mapping[str, APISpec] = SPECS, error_codes: Mapping[str, str] = ERROR_CODES
) -> list[DocParagraph]:
    """Every paragraph of the documentation, API by API."""
    paragraphs: list[DocParagraph] = []
    for name, spec in specs.items():
        paragraphs.append(DocParagraph(name, "description", f"{name}:", spec.description))
        for parameter in spec.parameters:
            need = "required" if parameter.required else "optional"
            paragraphs.append(
                DocParagraph(
                    name,
                    f"parameter:{parameter.name}",
                    f"Parameter {parameter.name} of {name} ({parameter.type}, {need}):",
                    parameter.description,
                )
            )
        if spec.at_least_one_of:
            paragraphs.append(
                DocParagraph(
                    name,
                    "parameters",
                    f"Parameters of {name}:",
                    f"At least one of {', '.join(spec.at_least_one_of)} must be given.",
                )
            )
        fields = " ".join(
            f"Field {field.name} ({field.type}): {field.description.rstrip('.')}." for field in spec.returns
        )
        returns = f"{name} returns {spec.returns_type}. {fields}"
        if spec.returns_type.startswith("list"):
            returns += (
                " An empty list means that nothing in this backend matches the values given; "
                "check them against the instruction."
            )
        paragraphs.append(DocParagraph(name, "returns", f"Returns of {name}:", returns))
        for code in spec.errors:
            paragraphs.append(DocParagraph(name, f"error:{code}", f"Error {code} from {name}:", error_codes[code]))
    for code, meaning in error_codes.items():
        paragraphs.append(DocParagraph(ANY_API, f"error:{code}", f"Error {code}:", meaning))
    return paragraphs


def fingerprint(paragraphs: list[DocParagraph], embedder_name: str) -> str:
    """Changes when the documentation or the embedder does: the index is rebuilt then."""
    digest = hashlib.sha1(embedder_name.encode())
    for paragraph in paragraphs:
        digest.update(f"{paragraph.api}\x1f{paragraph.section}\x1f{paragraph.heading}\x1f{paragraph.text}\x1e".encode())
    return digest.hexdigest()


def semantic_chunks(paragraphs: list[DocParagraph], embedder, threshold: float = CHUNK_SIMILARITY) -> list[DocChunk]:
    """Group adjacent similar sentences of each paragraph into chunks (one embedding pass)."""
    sentences = [
        (index, sentence) for index, paragraph in enumerate(paragraphs) for sentence in split_sentences(paragraph.text)
    ]
    vectors = embedder.embed([sentence for _, sentence in sentences]) if sentences else np.zeros((0, 1))
    chunks: list[DocChunk] = []
    current: list[str] = []
    current_paragraph: int | None = None
    previous: np.ndarray | None = None

    def close() -> None:
        if current and current_paragraph is not None:
            paragraph = paragraphs[current_paragraph]
            chunks.append(
                DocChunk(paragraph.api, paragraph.section, f"{paragraph.heading} {' '.join(current)}", len(current))
            )

    for (index, sentence), vector in zip(sentences, vectors, strict=False):
        same = index == current_paragraph and previous is not None and float(previous @ vector) >= threshold
        if not same:
            close()
            current, current_paragraph = [], index
        current.append(sentence)
        previous = vector
    close()
    return chunks
