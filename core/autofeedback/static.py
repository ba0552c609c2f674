"""The Static Scanning Component (AutoFeedback §3.2): find the first error in a request, locally.

Detection follows §3.2.2 in ascending order and stops at the first error found:

* E1 — no request, or one that does not parse.
* E2 — the API name is not in the relevant set R (the retriever's top-1 for the instruction):
  E2.1 it is another documented API; E2.2 lower-cased with non-letters removed it equals a
  documented API; E2.3 its embedding similarity to a documented API exceeds the threshold (0.5);
  otherwise E2 other.
* E3 — a parameter name the API does not document (P_g): E3.1 another API's parameter; E3.2 a
  documented parameter after the same normalisation; E3.3 similarity above the threshold to one
  of the API's parameters; otherwise E3 other.
* E4.1 — a literal value whose type differs from the documented type.

Each finding carries what Table 2 says SSC returns (``returns``):

==================  ==========================================
E1                  nothing
E2.1 & other        the name of the relevant API A_r
E2.2, E2.3          the generated name A_g, the documented name
E3.1 & other        the parameter name P_g
E3.2, E3.3          P_g, the documented parameter name
E4.1                the parameter, the description of it
==================  ==========================================

(The symbols of Table 2 are lost in our copy of the paper; "the name of" for E2.1 & other is read
as the relevant API's, because §4.2 RQ4 says static feedback "recommended" the relevant API.)

Programs (SoAy) are scanned call by call (``program_calls``). A program chains several APIs, so
the one-API relevant set cannot judge each call: a program is an E2.1 only when none of its calls
is in R — R being the solution's APIs when the caller knows them, else the retriever's top-1.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scholar_tui.core.autofeedback.request_parser import ParsedRequest, RequestSyntaxError, parse_request, program_calls
from scholar_tui.core.autofeedback.retriever import APIRetriever
from scholar_tui.core.autofeedback.taxonomy import error_type, literal_key
from scholar_tui.core.library.apis import SPECS, APISpec
from scholar_tui.core.sandbox import check_program

PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list, tuple),
    "object": (dict,),
}
TYPE_WORDS = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    list: "a list",
    tuple: "a tuple",
    dict: "a dict",
    type(None): "None",
}


@dataclass
class StaticFinding:
    sub_type: str
    """"E1", "E2.1" … "E2.other", "E3.1" … "E3.other", "E4.1"."""
    returns: tuple[str, ...]
    """What Table 2 returns for this sub-type."""
    request: str
    """The request (or program call) as written; for E1 the output that could not be read."""
    api: str | None = None
    parameter: str | None = None
    value: str | None = None
    """The offending value as written (E4.1)."""
    detail: str = ""
    similarity: float | None = None
    relevant: list[str] = field(default_factory=list)
    line: int | None = None
    call_index: int | None = None
    in_program: bool = False
    feedback: str = ""

    @property
    def error_type(self) -> str:
        return error_type(self.sub_type)

    @property
    def location(self) -> str:
        place = f"line {self.line}: " if self.line is not None else ""
        if self.error_type == "E1":
            return place + "the request's format"
        if self.error_type == "E2":
            return place + f"the API name {self.api}"
        return place + f"the parameter {self.parameter} of {self.api}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "error_type": self.error_type,
            "sub_type": self.sub_type,
            "returns": list(self.returns),
            "location": self.location,
            "request": self.request,
            "api": self.api,
            "parameter": self.parameter,
            "value": self.value,
            "detail": self.detail,
            "similarity": self.similarity,
            "relevant": self.relevant,
            "line": self.line,
            "call_index": self.call_index,
            "feedback": self.feedback,
        }


def _type_word(value: Any) -> str:
    return TYPE_WORDS.get(type(value), f"a {type(value).__name__}")


class StaticScanner:
    """SSC over one API documentation (``specs``) with one API retriever."""

    def __init__(
        self,
        retriever: APIRetriever,
        specs: Mapping[str, APISpec] = SPECS,
        *,
        threshold: float = 0.5,
        relevant_k: int = 1,
    ) -> None:
        self.retriever = retriever
        self.specs = dict(specs)
        self.threshold = threshold
        self.relevant_k = relevant_k

    # -- entry points --------------------------------------------------------------------------
    def scan_request(self, text: str, instruction: str, relevant: Sequence[str] | None = None) -> StaticFinding | None:
        """The first error in a ``<<API>>…<</API>>`` request, or None when it may be sent."""
        from scholar_tui.core.autofeedback.templates import static_feedback

        try:
            request = parse_request(text)
        except RequestSyntaxError as error:
            finding: StaticFinding | None = StaticFinding("E1", (), request=text or "", detail=str(error))
        else:
            finding = self.detect(request, instruction, relevant)
        if finding is not None:
            finding.feedback = static_feedback(finding, self.specs, self.threshold)
        return finding

    def scan_program(self, source: str, instruction: str, relevant: Sequence[str] | None = None) -> list[StaticFinding]:
        """Every call's first error, in source order (empty: the program may run).

        E1 when the program does not parse, calls no API at all or would be refused by the sandbox
        (a class, an import…); E2.1 (on the last call) when none of its calls is in the relevant set
        (``relevant``, else the retriever's top-1).
        """
        from scholar_tui.core.autofeedback.templates import static_feedback

        findings: list[StaticFinding] = []
        try:
            calls = program_calls(source)
        except RequestSyntaxError as error:
            findings.append(
                StaticFinding("E1", (), request=source, detail=str(error), line=error.line, in_program=True)
            )
            calls = []
        else:
            if not calls:
                findings.append(
                    StaticFinding("E1", (), request=source, detail="the program calls no API", in_program=True)
                )
            refused = self._sandbox_refusal(source, calls)
            if refused is not None:
                findings.append(refused)
        for call in calls:
            finding = self.detect(call, instruction, relevant, check_selection=False)
            if finding is not None:
                finding.in_program = True
                findings.append(finding)
        documented = [call for call in calls if call.api in self.specs]
        if documented and len(documented) == len(calls) and not findings:
            wanted = list(relevant) if relevant else self.retriever.relevant(instruction, self.relevant_k)
            if not any(call.api in wanted for call in documented):
                last = documented[-1]
                findings.append(
                    StaticFinding(
                        "E2.1",
                        (wanted[0],),
                        request=last.text,
                        api=last.api,
                        relevant=wanted,
                        line=last.line,
                        call_index=last.index,
                        in_program=True,
                        detail=f"the program never calls {' or '.join(wanted)}, the API the instruction needs",
                    )
                )
        for finding in findings:
            finding.feedback = static_feedback(finding, self.specs, self.threshold)
        return findings

    def _sandbox_refusal(self, source: str, calls: list[ParsedRequest]) -> StaticFinding | None:
        """E1 when the sandbox would refuse the program, so the scan never passes what cannot run.

        Calls of undocumented names count as known here: they are E2 errors, which the scan names.
        """
        problems = check_program(source, set(self.specs) | {call.api for call in calls})
        if not problems:
            return None
        numbered = re.match(r"line (\d+):", problems[0])
        line = int(numbered.group(1)) if numbered else None
        return StaticFinding(
            "E1",
            (),
            request=source,
            line=line,
            in_program=True,
            detail="the sandbox refuses the program: " + "; ".join(problems),
        )

    # -- detection -----------------------------------------------------------------------------
    def detect(
        self,
        request: ParsedRequest,
        instruction: str,
        relevant: Sequence[str] | None = None,
        *,
        check_selection: bool = True,
    ) -> StaticFinding | None:
        """E2 → E3 → E4 on one parsed request; the first error found, or None."""
        base: dict[str, Any] = dict(request=request.text, api=request.api, line=request.line, call_index=request.index)
        wanted: list[str] | None = list(relevant) if relevant else None

        def relevant_set() -> list[str]:
            nonlocal wanted
            if wanted is None:
                wanted = self.retriever.relevant(instruction, self.relevant_k)
            return wanted

        spec = self.specs.get(request.api)
        # E2: the API name is not in R.
        if spec is not None and check_selection and request.api not in relevant_set():
            return StaticFinding(
                "E2.1",
                (relevant_set()[0],),
                relevant=relevant_set(),
                **base,
                detail=f"{request.api} is documented but the instruction needs {relevant_set()[0]}",
            )
        if spec is None:
            key = literal_key(request.api)
            literal = next((name for name in self.specs if literal_key(name) == key), None)
            if literal is not None:
                return StaticFinding(
                    "E2.2",
                    (request.api, literal),
                    **base,
                    detail=f"{request.api} is {literal} in another case or naming style",
                )
            closest, score = self.retriever.closest_api(request.api)
            if score > self.threshold:
                return StaticFinding(
                    "E2.3",
                    (request.api, closest),
                    similarity=score,
                    **base,
                    detail=f"{request.api} is not documented; {closest} is similar ({score:.2f})",
                )
            target = relevant_set()[0]
            return StaticFinding(
                "E2.other",
                (target,),
                similarity=score,
                relevant=relevant_set(),
                **base,
                detail=f"{request.api} is not documented and resembles no API (best {closest}, {score:.2f})",
            )
        # E3: parameter names the API does not document.
        own = [parameter.name for parameter in spec.parameters]
        for name in request.keywords:
            if name in own:
                continue
            finding = self._parameter_error(spec, name, base)
            if finding is not None:
                return finding
        # E4.1: literal values of the wrong type.
        for name, argument in self._named_arguments(request, own):
            parameter = spec.parameter(name)
            if parameter is None or not argument.literal:
                continue
            value = argument.value
            if value is None and not parameter.required:
                continue  # None means "not given" for an optional parameter
            expected = PYTHON_TYPES.get(parameter.type, (object,))
            if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
                return StaticFinding(
                    "E4.1",
                    (name, parameter.description),
                    parameter=name,
                    value=argument.source,
                    **base,
                    detail=f"{name}={argument.source} is {_type_word(value)}; the documentation says {parameter.type}",
                )
        return None

    def _named_arguments(self, request: ParsedRequest, own: list[str]):
        for position, argument in enumerate(request.positional):
            if position < len(own):
                yield own[position], argument
        yield from request.keywords.items()

    def _parameter_error(self, spec: APISpec, name: str, base: dict) -> StaticFinding | None:
        others = {p.name: api for api, other in self.specs.items() if api != spec.name for p in other.parameters}
        if name in others:
            return StaticFinding(
                "E3.1",
                (name,),
                parameter=name,
                **base,
                detail=f"{name} is a parameter of {others[name]}, not of {spec.name}",
            )
        key = literal_key(name)
        candidates = [p.name for p in spec.parameters] + [
            p for p in others if p not in {q.name for q in spec.parameters}
        ]
        literal = next((candidate for candidate in candidates if literal_key(candidate) == key), None)
        if literal is not None:
            return StaticFinding(
                "E3.2",
                (name, literal),
                parameter=name,
                **base,
                detail=f"{name} is {literal} in another case or naming style",
            )
        closest, score = self.retriever.closest_parameter(name, spec)
        if closest is not None and score > self.threshold:
            return StaticFinding(
                "E3.3",
                (name, closest),
                parameter=name,
                similarity=score,
                **base,
                detail=f"{name} is not a parameter of {spec.name}; {closest} is similar ({score:.2f})",
            )
        return StaticFinding(
            "E3.other",
            (name,),
            parameter=name,
            similarity=score if closest else None,
            **base,
            detail=f"{name} is not a parameter of {spec.name} and resembles none of them",
        )
