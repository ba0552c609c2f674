"""A small API library for sandbox tests: pure functions over an in-memory table of people."""

PEOPLE = {
    "p1": {"person_id": "p1", "name": "Ada Lovelace", "num_citation": 120, "coauthors": ["p2"]},
    "p2": {"person_id": "p2", "name": "Charles Babbage", "num_citation": 300, "coauthors": ["p1"]},
}


class APIError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def make(extra_people: int = 0):
    def searchPerson(name: str, organization: str = "", interest: str = ""):
        if not isinstance(name, str) or not name:
            raise APIError("E_BAD_ARGUMENT", "name must be a non-empty string")
        return [dict(person, coauthors=None) for person in PEOPLE.values() if name.lower() in person["name"].lower()]

    def getCoauthors(person_id: str):
        if person_id not in PEOPLE:
            raise APIError("E_NOT_FOUND", f"no person {person_id}")
        return [{"person_id": other, "name": PEOPLE[other]["name"]} for other in PEOPLE[person_id]["coauthors"]]

    return {"searchPerson": searchPerson, "getCoauthors": getCoauthors}


def chatty():
    """An API that logs 16 KiB to stderr per call, as a library with a verbose logger would."""
    import sys

    def noisyCount(n: int):
        sys.stderr.write(("warning: counting\n" * 1000)[: 16 * 1024])
        sys.stderr.flush()
        return n

    return {"noisyCount": noisyCount}


def tracing():
    """An API that says whether it runs under a trace function (the sandbox's line counter)."""
    import sys

    def isTraced():
        return sys.gettrace() is not None

    return {"isTraced": isTraced}


def many(items: int = 3000):
    """An API whose result is a long list of records, as getCoauthors gives for a prolific author."""

    def getMany():
        return [{"person_id": f"p{n}", "name": f"Person {n}", "num_joint_pubs": n % 7} for n in range(items)]

    return {"getMany": getMany}
