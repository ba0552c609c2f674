"""A small scholar library for SoAy tests: the seven APIs' shapes over a few people and papers, and a
sandbox that runs a plan's program in this process (the real sandbox is tested in test_sandbox)."""

import re
from difflib import SequenceMatcher

from scholar_tui.core.sandbox import APICall, SandboxResult

PEOPLE = {
    "person:1": "Gordon Fraser",
    "person:2": "Gordon Plotkin",
    "person:3": "Martin Gruber",
    "person:4": "Andrea Stocco",
    "person:5": "Helge Spieker",
    "person:6": "Qurban Ali",
    "person:7": "Patric Feldmeier",
}
PAPERS = {  # id: (title, year, citations, venue, author ids in order)
    "paper:1": ("An Empirical Study of Flaky Tests in Python", 2021, None, "arXiv", ["person:3", "person:1"]),
    "paper:2": (
        "Practical Flaky Test Prediction using Common Code Evolution",
        2023,
        None,
        "arXiv",
        ["person:3", "person:1"],
    ),
    "paper:3": ("Many-Objective Neuroevolution for Testing Games", 2025, None, "arXiv", ["person:7", "person:1"]),
    "paper:4": (
        "OpenCat: Improving Interoperability of ADS Testing",
        2025,
        4,
        "arXiv",
        ["person:6", "person:4", "person:5"],
    ),
    "paper:5": ("Towards Automated Page Object Generation for Web Testing", 2026, 9, None, ["person:4"]),
    "paper:6": ("Sum and Tensor of Quantitative Effects", 2022, None, "arXiv", ["person:2"]),
    "paper:8": ("Reduce-and-chop: Shallow circuits for deeper problems", 2022, None, "arXiv", ["person:5"]),
    "paper:7": ("Evaluating Human Trajectory Prediction with Metamorphic Testing", 2024, None, "arXiv", ["person:5"]),
}


URLS = {"paper:4": "https://doi.org/10.1234/opencat.2025", "paper:6": "https://arxiv.org/abs/2212.11784"}


def _words(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z0-9]+", text.lower()) if len(word) >= 4}


class FakeAPI:
    """The seven APIs' shapes over the library above (searches: shared words, then spelling)."""

    def searchPerson(self, name):
        def fit(pid):
            whole = SequenceMatcher(None, name.lower(), PEOPLE[pid].lower()).ratio()
            return max(whole, max(SequenceMatcher(None, name.lower(), p.lower()).ratio() for p in PEOPLE[pid].split()))

        found = sorted((pid for pid in PEOPLE if fit(pid) >= 0.6), key=lambda pid: -fit(pid))
        return [self._person(pid) for pid in found]

    def _person(self, pid):
        pubs = [p for p, paper in PAPERS.items() if pid in paper[4]]
        return {"person_id": pid, "name": PEOPLE[pid], "num_citation": None, "interest": [], "num_pubs": len(pubs),
                "organization": None, "aliases": []}  # fmt: skip

    def searchPublication(self, publication_info):
        asked = _words(publication_info)
        found = sorted(
            (pid for pid in PAPERS if asked & _words(PAPERS[pid][0])), key=lambda p: -len(asked & _words(PAPERS[p][0]))
        )
        return [{"pub_id": pid, "title": PAPERS[pid][0], "year": PAPERS[pid][1]} for pid in found]

    def getPublication(self, pub_id):
        title, year, cited, venue, authors = PAPERS[pub_id]
        return {"pub_id": pub_id, "title": title, "abstract": None, "year": year, "venue": venue,
                "num_citation": cited, "url": URLS.get(pub_id),
                "authors": [{"person_id": a, "name": PEOPLE[a], "organization": None} for a in authors]}  # fmt: skip

    def getPersonPubs(self, person_id):
        return [
            {
                "pub_id": pid,
                "title": p[0],
                "year": p[1],
                "num_citation": p[2],
                "authors_name_list": [PEOPLE[a] for a in p[4]],
            }
            for pid, p in PAPERS.items()
            if person_id in p[4]
        ]

    def getCoauthors(self, person_id):
        joint: dict[str, int] = {}
        for paper in PAPERS.values():
            if person_id in paper[4]:
                for other in paper[4]:
                    if other != person_id:
                        joint[other] = joint.get(other, 0) + 1
        ranked = sorted(joint, key=lambda other: -joint[other])
        return [{"person_id": o, "name": PEOPLE[o], "relation": "coauthor", "num_joint_pubs": joint[o]} for o in ranked]

    def getPersonInterest(self, person_id):
        return []

    def getPersonBasicInfo(self, person_id):
        return {"person_id": person_id, "name": PEOPLE[person_id], "gender": None, "organization": None,
                "position": None, "bio": None, "education_experience": None, "email": None}  # fmt: skip


class InlineSandbox:
    """Runs a plan's program in this process over the fake APIs (the real sandbox is tested elsewhere)."""

    def __init__(self, api):
        self.api = api

    def run(self, program: str) -> SandboxResult:
        calls: list[APICall] = []  # each API call, as the real sandbox records them

        def recorded(name, call):
            def api_call(**arguments):
                result = call(**arguments)
                calls.append(APICall(name, arguments, True, result))
                return result

            return api_call

        names = {name: recorded(name, getattr(self.api, name)) for name in dir(self.api) if name[:1].islower()}
        try:
            exec(program, names)  # the generated program, as the worker would run it
        except Exception as error:
            return SandboxResult(ok=False, error=str(error), error_kind="runtime", calls=calls)
        return SandboxResult(ok=True, value=names.get("result"), calls=calls)

    def close(self):
        pass
