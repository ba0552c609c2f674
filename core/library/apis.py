"""The academic API library: SoAy's seven AMiner-style APIs over the local library or OpenAlex.

``SPECS`` is the single machine-readable description of the APIs — name, description, typed
parameters (required or optional), what they return, and the error codes they raise with their
meanings. SoAy builds its prompts, API graph and sandbox from it; AutoFeedback checks requests
against it. ``AcademicAPI(backend).call(name, **arguments)`` validates the arguments against the
spec and raises ``APIError`` (with ``.code``) for anything wrong, so a program gets the same
error from either backend.

Inputs and returns follow the SoAy paper and its AMiner client (RUCKBReasoning/SoAy, model.py):
searchPerson → person_id, name, num_citation, interest, num_pubs, organization; searchPublication
→ pub_id, title, year; getCoauthors → person_id, name, relation; getPersonInterest → interests;
getPublication → title, abstract, authors, year, venue, num_citation; getPersonBasicInfo →
person_id, name, gender, organization, position, bio, education_experience, email; getPersonPubs →
pub_id, title, num_citation, year, authors_name_list. Fields a source does not have are null.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

# -- the spec ----------------------------------------------------------------------------------

ERROR_CODES: dict[str, str] = {
    "E_BAD_ARGUMENT": (
        "A parameter is missing, unknown, empty or of the wrong type, or an id has the wrong form for "
        "this backend (local ids look like person:12 / paper:34, OpenAlex ids like A5023888391 / W2741809807). "
        "The message names the parameter and what is expected; fix the call, do not retry it as is."
    ),
    "E_NOT_FOUND": (
        "The id is well formed but names no person or publication in this backend. Ids come from "
        "searchPerson / searchPublication / getPersonPubs / getCoauthors of the same backend."
    ),
    "E_UNKNOWN_API": "No API has this name; the message lists the seven APIs (names are case-sensitive camelCase).",
    "E_UNSUPPORTED": "This backend cannot answer this combination of parameters; the message says what it needs.",
    "E_OFFLINE": (
        "The OpenAlex backend cannot reach api.openalex.org (no network, or network.offline is set). "
        "The local backend still answers."
    ),
    "E_UPSTREAM": "OpenAlex answered with an error or an unusable body, after retries on 429/5xx.",
}


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str  # JSON-schema type: "string"
    required: bool
    description: str
    example: Any = None


@dataclass(frozen=True)
class ReturnField:
    name: str
    type: str  # "string", "integer", "list[string]", "list[object]"
    description: str
    nullable: bool = True
    fields: tuple[str, ...] = ()
    """For a ``list[object]``: the keys of each item (they couple APIs: a paper's authors'
    person_id feeds the person APIs)."""


@dataclass(frozen=True)
class APISpec:
    name: str
    description: str
    parameters: tuple[Parameter, ...]
    returns_type: str  # "list[object]", "object" or "list[string]"
    returns: tuple[ReturnField, ...]
    errors: tuple[str, ...]
    at_least_one_of: tuple[str, ...] = ()
    example: str = ""

    def parameter(self, name: str) -> Parameter | None:
        return next((p for p in self.parameters if p.name == name), None)

    def signature(self) -> str:
        arguments = ", ".join(f"{p.name}: str" if p.required else f"{p.name}: str = None" for p in self.parameters)
        python = {"list[object]": "list[dict]", "object": "dict", "list[string]": "list[str]"}[self.returns_type]
        return f"{self.name}({arguments}) -> {python}"

    def as_dict(self) -> dict:
        data = asdict(self)
        data["signature"] = self.signature()
        data["errors"] = [{"code": code, "meaning": ERROR_CODES[code]} for code in self.errors]
        data["json_schema"] = self.json_schema()
        return data

    def json_schema(self) -> dict:
        """The parameters as a JSON schema (tool-calling formats and grammar-constrained decoding)."""
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {p.name: {"type": p.type, "description": p.description} for p in self.parameters},
            "required": [p.name for p in self.parameters if p.required],
            "additionalProperties": False,
        }
        if self.at_least_one_of:
            schema["anyOf"] = [{"required": [name]} for name in self.at_least_one_of]
        return schema


PERSON_ID = Parameter(
    "person_id",
    "string",
    True,
    "A person id from searchPerson or getCoauthors of the same backend (local: 'person:12'; OpenAlex: 'A5023888391').",
    "person:1",
)
PUB_ID = Parameter(
    "pub_id",
    "string",
    True,
    "A publication id from searchPublication or getPersonPubs (local: 'paper:34', or an arXiv id, DOI or "
    "OpenAlex work id of a library paper; OpenAlex: 'W2741809807').",
    "paper:1",
)
NOT_FOUND_ERRORS = ("E_BAD_ARGUMENT", "E_NOT_FOUND", "E_OFFLINE", "E_UPSTREAM")

SPECS: dict[str, APISpec] = {
    spec.name: spec
    for spec in (
        APISpec(
            "searchPerson",
            "Search scholars by (partial, misspelled, accented) name or any spelling of it, organization and "
            "research interest; "
            "the best matches first. With a name, organization and interest rank the matches; without one, "
            "they filter. Use it to turn a scholar's name into a person_id.",
            (
                Parameter(
                    "name", "string", False, "The scholar's name or part of it ('Michelen', 'M. Michelen').", "Michelen"
                ),
                Parameter("organization", "string", False, "An organization the scholar works at.", "MIT"),
                Parameter("interest", "string", False, "A research interest or field ('probability').", "probability"),
            ),
            "list[object]",
            (
                ReturnField("person_id", "string", "The id to pass to the other person APIs.", False),
                ReturnField("name", "string", "The scholar's name.", False),
                ReturnField("num_citation", "integer", "Citations of the scholar's work, when the source counts them."),
                ReturnField("interest", "list[string]", "Research interests, most prominent first.", False),
                ReturnField(
                    "num_pubs",
                    "integer",
                    "Number of publications (in the source), over every spelling of the name.",
                    False,
                ),
                ReturnField("organization", "string", "The latest known organization."),
                ReturnField(
                    "aliases",
                    "list[string]",
                    "Other spellings of the name that are the same person ('A. Del Maestro' for 'Adrian Del Maestro').",
                    False,
                ),
            ),
            ("E_BAD_ARGUMENT", "E_UNSUPPORTED", "E_OFFLINE", "E_UPSTREAM"),
            at_least_one_of=("name", "organization", "interest"),
            example='searchPerson(name="Michelen")',
        ),
        APISpec(
            "searchPublication",
            "Search publications by title or other publication information (a partial or paraphrased title, "
            "possibly with authors and year); the best matches first. Use it to turn a title into a pub_id.",
            (
                Parameter(
                    "publication_info",
                    "string",
                    True,
                    "The title or a description of the publication.",
                    "Zeros of a growing number of derivatives of random polynomials",
                ),
            ),
            "list[object]",
            (
                ReturnField("pub_id", "string", "The id to pass to getPublication.", False),
                ReturnField("title", "string", "The publication's title.", False),
                ReturnField("year", "integer", "Year of publication."),
            ),
            ("E_BAD_ARGUMENT", "E_OFFLINE", "E_UPSTREAM"),
            example='searchPublication(publication_info="zeros of derivatives of random polynomials")',
        ),
        APISpec(
            "getCoauthors",
            "The scholars who wrote publications together with a person, most joint publications first.",
            (PERSON_ID,),
            "list[object]",
            (
                ReturnField("person_id", "string", "The coauthor's person_id.", False),
                ReturnField("name", "string", "The coauthor's name.", False),
                ReturnField("relation", "string", "How they are related: 'coauthor'.", False),
                ReturnField("num_joint_pubs", "integer", "Publications they wrote together (in the source).", False),
            ),
            NOT_FOUND_ERRORS,
            example='getCoauthors(person_id="person:1")',
        ),
        APISpec(
            "getPersonInterest",
            "A person's research interests, most prominent first (OpenAlex topics; in the local library the "
            "imported profile's topics, else the subject categories of the person's papers).",
            (PERSON_ID,),
            "list[string]",
            (ReturnField("interests", "list[string]", "Research interests as names.", False),),
            NOT_FOUND_ERRORS,
            example='getPersonInterest(person_id="person:1")',
        ),
        APISpec(
            "getPublication",
            "Details of one publication: title, abstract, authors (with their person_id), year, venue and "
            "number of citations.",
            (PUB_ID,),
            "object",
            (
                ReturnField("pub_id", "string", "The publication's id.", False),
                ReturnField("title", "string", "Title.", False),
                ReturnField("abstract", "string", "Abstract."),
                ReturnField(
                    "authors",
                    "list[object]",
                    "Authors in order: {person_id, name, organization}.",
                    False,
                    fields=("person_id", "name", "organization"),
                ),
                ReturnField("year", "integer", "Year of publication."),
                ReturnField("venue", "string", "Journal, conference or 'arXiv'."),
                ReturnField("num_citation", "integer", "Times cited, when the source counts it."),
                ReturnField("url", "string", "Where to read it."),
            ),
            NOT_FOUND_ERRORS,
            example='getPublication(pub_id="paper:1")',
        ),
        APISpec(
            "getPersonBasicInfo",
            "A person's profile: name, gender, organization, position, bio, education experience and email "
            "(what the source has; the rest is null).",
            (PERSON_ID,),
            "object",
            (
                ReturnField("person_id", "string", "The person's id.", False),
                ReturnField("name", "string", "Name.", False),
                ReturnField("gender", "string", "Gender."),
                ReturnField("organization", "string", "The latest known organization."),
                ReturnField("position", "string", "Position or title."),
                ReturnField("bio", "string", "Short biography."),
                ReturnField("education_experience", "string", "Education history."),
                ReturnField("email", "string", "E-mail address."),
            ),
            NOT_FOUND_ERRORS,
            example='getPersonBasicInfo(person_id="person:1")',
        ),
        APISpec(
            "getPersonPubs",
            "A person's publications, most cited first (then newest): pub_id, title, citations, year and author names.",
            (PERSON_ID,),
            "list[object]",
            (
                ReturnField("pub_id", "string", "The publication's id.", False),
                ReturnField("title", "string", "Title.", False),
                ReturnField("num_citation", "integer", "Times cited, when the source counts it."),
                ReturnField("year", "integer", "Year of publication."),
                ReturnField("authors_name_list", "list[string]", "Author names in order.", False),
            ),
            NOT_FOUND_ERRORS,
            example='getPersonPubs(person_id="person:1")',
        ),
    )
}


class APIError(Exception):
    """A call the API library refuses or cannot answer; ``code`` is one of ERROR_CODES."""

    def __init__(self, code: str, message: str, *, api: str | None = None, parameter: str | None = None) -> None:
        assert code in ERROR_CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.api = api
        self.parameter = parameter

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "message": self.message,
            "api": self.api,
            "parameter": self.parameter,
            "meaning": ERROR_CODES[self.code],
        }


def specs_as_dicts() -> list[dict]:
    return [spec.as_dict() for spec in SPECS.values()]


def validate(spec: APISpec, args: tuple, kwargs: dict[str, Any]) -> dict[str, str]:
    """Positional and keyword arguments -> checked keyword arguments, or APIError(E_BAD_ARGUMENT)."""
    names = [p.name for p in spec.parameters]
    if len(args) > len(names):
        raise APIError(
            "E_BAD_ARGUMENT",
            f"{spec.name} takes at most {len(names)} arguments ({', '.join(names)}); {len(args)} were given",
            api=spec.name,
        )
    arguments: dict[str, Any] = dict(zip(names, args, strict=False))
    for key, value in kwargs.items():
        if key not in names:
            raise APIError(
                "E_BAD_ARGUMENT",
                f"{spec.name} has no parameter {key!r}; its parameters are {', '.join(names)}",
                api=spec.name,
                parameter=key,
            )
        if key in arguments:
            raise APIError("E_BAD_ARGUMENT", f"{spec.name}: {key!r} given twice", api=spec.name, parameter=key)
        arguments[key] = value
    checked: dict[str, str] = {}
    for parameter in spec.parameters:
        value = arguments.get(parameter.name)
        if value is None:
            if parameter.required:
                raise APIError(
                    "E_BAD_ARGUMENT",
                    f"{spec.name} needs {parameter.name!r} ({parameter.description})",
                    api=spec.name,
                    parameter=parameter.name,
                )
            continue
        if not isinstance(value, str):
            raise APIError(
                "E_BAD_ARGUMENT",
                f"{spec.name}: {parameter.name!r} must be a string, not {type(value).__name__} ({value!r})",
                api=spec.name,
                parameter=parameter.name,
            )
        if not value.strip():
            raise APIError(
                "E_BAD_ARGUMENT", f"{spec.name}: {parameter.name!r} is empty", api=spec.name, parameter=parameter.name
            )
        checked[parameter.name] = value.strip()
    if spec.at_least_one_of and not any(name in checked for name in spec.at_least_one_of):
        raise APIError(
            "E_BAD_ARGUMENT", f"{spec.name} needs at least one of {', '.join(spec.at_least_one_of)}", api=spec.name
        )
    return checked


class AcademicAPI:
    """The seven APIs over one backend: ``api.searchPerson(name=...)`` or ``api.call(name, ...)``."""

    def __init__(self, backend: "Backend") -> None:
        self.backend = backend

    @property
    def backend_name(self) -> str:
        return self.backend.name

    def call(self, name: str, /, *args: Any, **kwargs: Any) -> Any:
        spec = SPECS.get(name)
        if spec is None:
            raise APIError("E_UNKNOWN_API", f"no API named {name!r}; the APIs are {', '.join(SPECS)}", api=name)
        arguments = validate(spec, args, kwargs)
        return getattr(self.backend, name)(**arguments)

    def functions(self) -> dict[str, Callable[..., Any]]:
        """Plain functions by API name, with the spec as docstring: what a sandbox exposes."""

        def bind(name: str) -> Callable[..., Any]:
            def function(*args: Any, **kwargs: Any) -> Any:
                return self.call(name, *args, **kwargs)

            function.__name__ = name
            function.__doc__ = f"{SPECS[name].signature()}\n\n{SPECS[name].description}"
            # the spec's parameters as the signature: callers (the sandbox's call log) see names
            # inspect.signature() reads __signature__; a function's type does not declare it
            function.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
                [
                    inspect.Parameter(
                        parameter.name,
                        inspect.Parameter.POSITIONAL_OR_KEYWORD,
                        default=inspect.Parameter.empty if parameter.required else None,
                    )
                    for parameter in sorted(SPECS[name].parameters, key=lambda p: not p.required)
                ]
            )
            return function

        return {name: bind(name) for name in SPECS}

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name in SPECS:
            return lambda *args, **kwargs: self.call(name, *args, **kwargs)
        raise AttributeError(name)


class Backend:
    """What a backend implements: the seven APIs with arguments already validated.

    The two backends live in ``api_backends``: ``LocalBackend`` (SQLite) and ``OpenAlexBackend``.
    """

    name = "abstract"


def local_api(library) -> AcademicAPI:
    from scholar_tui.core.library.api_backends import LocalBackend

    return AcademicAPI(LocalBackend(library))


def open_api(where, settings, backend: str = "local") -> AcademicAPI:
    """The API library over this installation's library ("local") or OpenAlex (cached locally).

    Opens its own SQLite connection: call it in the thread (or process) that makes the calls.
    """
    from scholar_tui.indexes.library import Library

    library = Library.open(where)
    if backend == "local":
        return local_api(library)
    if backend == "openalex":
        return openalex_api(settings.network, library)
    raise APIError("E_BAD_ARGUMENT", f"unknown backend {backend!r}: local or openalex", parameter="backend")


def openalex_api(network, library=None, *, transport=None, backoff_s: float = 1.0, notice=None) -> AcademicAPI:
    """The OpenAlex backend with the polite client; ``library`` caches what it fetches; ``notice`` is
    told at once when OpenAlex stops answering (the lookup then still waits up to its bound)."""
    from scholar_tui.core.library.api_backends import OpenAlexBackend
    from scholar_tui.core.library.online import OpenAlexClient, PoliteClient

    client = OpenAlexClient(PoliteClient(network, transport=transport, backoff_s=backoff_s, notice=notice))
    return AcademicAPI(OpenAlexBackend(client, library))
