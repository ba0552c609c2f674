"""The API graph and the solution library (SoAy §4), computed from the API specs.

An edge A → B exists when something A returns can be passed as one of B's parameters (the
paper's API coupling: returns(A) ∩ params(B) ≠ ∅); a nested return such as getPublication's
``authors`` couples through the fields of its items. A solution is a path of at most three APIs
that starts at a fuzzy-search API (the only ones that take a person's words). The library keeps
the simple ones (fewest APIs for an intent): no API twice, no fuzzy search after the head, and no
hop through an API that only describes the entity it was given (getPersonBasicInfo(p) hands back
p's own id, so searchPerson → getPersonBasicInfo → getCoauthors is searchPerson → getCoauthors
with a detour) — unless the hop goes through a nested, different entity such as a paper's authors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

FUZZY_APIS = ("searchPerson", "searchPublication")
# APIs whose result describes the very entity they were given (same person, same paper).
DESCRIBE_GIVEN_ENTITY = frozenset({"getPersonBasicInfo", "getPersonInterest", "getPublication"})
MAX_HOPS = 3


def return_names(spec) -> set[str]:
    """Every field a call's result offers, nested item fields included."""
    names: set[str] = set()
    for field in spec.returns:
        names.add(field.name)
        names.update(getattr(field, "fields", ()) or ())
    return names


def nested_names(spec) -> set[str]:
    return {name for field in spec.returns for name in (getattr(field, "fields", ()) or ())}


def couplings(specs: Mapping) -> dict[tuple[str, str], frozenset[str]]:
    """(A, B) → the attributes through which A's results feed B's parameters."""
    edges = {}
    for a, spec_a in specs.items():
        offered = return_names(spec_a)
        for b, spec_b in specs.items():
            if a == b:
                continue
            shared = offered & {parameter.name for parameter in spec_b.parameters}
            if shared:
                edges[(a, b)] = frozenset(shared)
    return edges


@dataclass(frozen=True)
class Solution:
    apis: tuple[str, ...]

    @property
    def hops(self) -> int:
        return len(self.apis)

    @property
    def head(self) -> str:
        return self.apis[0]

    @property
    def tail(self) -> str:
        return self.apis[-1]

    def __str__(self) -> str:
        return " -> ".join(self.apis)


def solution_library(specs: Mapping, max_hops: int = MAX_HOPS) -> list[Solution]:
    """Valid (fuzzy head) and simple (no repeated API) paths of 1..max_hops APIs."""
    edges = couplings(specs)
    found: list[Solution] = []

    def simple_hop(a: str, b: str, through: frozenset[str]) -> bool:
        if b in FUZZY_APIS:  # searching again by something already found is never simpler
            return False
        if a in DESCRIBE_GIVEN_ENTITY and not through & nested_names(specs[a]):
            return False  # a detour: the entity's id was already in hand before ``a``
        return True

    def extend(path: tuple[str, ...]) -> None:
        found.append(Solution(path))
        if len(path) == max_hops:
            return
        for (a, b), through in edges.items():
            if a == path[-1] and b not in path and simple_hop(a, b, through):
                extend(path + (b,))

    for head in FUZZY_APIS:
        if head in specs:
            extend((head,))
    return sorted(found, key=lambda solution: (solution.hops, solution.apis))


@dataclass(frozen=True)
class Combination:
    """SoAy §5.1: a head input, a solution and a tail output bind one question intent."""

    head_input: str
    solution: Solution
    tail_output: str

    @property
    def key(self) -> str:
        return f"{self.head_input}|{'>'.join(self.solution.apis)}|{self.tail_output}"
