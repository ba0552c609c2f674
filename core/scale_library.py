"""A synthetic library of any size, as unarXive JSONL, for `bench scale` (issue #28).

The papers are written in the form `import unarxive` reads, so a benchmark measures the real
import path. What makes a library slow or hard at scale is reproduced, not its science:

- authors: a pool of people whose productivity follows Zipf's law (a few write hundreds of
  papers, most write one), each with a small group of usual coauthors (the evidence name merging
  looks for), written in variants as real metadata has them: initials ("M. Michelen"), accents
  dropped ("Jose Garcia" for "José García"), a middle initial, family name first;
- citations: each paper cites earlier papers by preferential attachment (a paper is picked in
  proportion to the citations it already has, plus one), so the in-degrees follow a power law;
  most in-library citations carry the arXiv id unarXive links, some only the title in the raw
  entry, and a share of the bibliography names works outside the library;
- text: titles recombined from real titles and noun phrases, abstracts and paragraphs from real
  sentences, sections with ``{{cite:KEY}}`` markers where the bibliography is cited.

The sentences come from the unArXive sample in the shared data folder, read at generation time
(never copied into the project); without it a small built-in vocabulary stands in (tests).
Seeded: the same size and seed give the same file, byte for byte.
"""

from __future__ import annotations

import bisect
import itertools
import json
import random
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

UNARXIVE_SAMPLE = Path("unarxive") / "arXiv_src_2212_086.jsonl"
ZIPF_EXPONENT = 1.07  # author productivity; Lotka's law for papers per author is close to this
FIRST_DAY = date(2015, 1, 1)  # new-style arXiv ids (YYMM.NNNNN) from here on
DAYS = 9 * 365
OUTSIDE_SHARE = 0.35  # bibliography entries naming works that are not in the library
ATTRACTIVENESS = 3  # a new paper's weight before any citation: less of it, the more the first papers hoard
TITLE_ONLY_SHARE = 0.2  # in-library citations without a linked id: found by their title

FIRST_NAMES = (
    "Marcus Xuan-Truong Anna Wei José María Søren Zoë Björn Élodie Ahmed Priya Hiroshi Yuki Lukas Chiara "
    "Mateo Olga Dmitri Ingrid François Renée Jürgen Ana Paulo João Li Ming Jing Hao Fatima Omar Sara "
    "Elena Giulia Tomás Agnieszka Krzysztof Nuno Raúl Andrés Camille Hélène Noémie Jiří Dávid Ákos "
    "Emma Liam Noah Olivia James Sophia Benjamin Mia Lucas Amelia Henry Harper Daniel Evelyn Samuel "
    "Grace Adrian Vahid Kenji Aiko Ravi Sunita Kwame Amara Thabo Nia Ivan Katarzyna Mikko Aino "
    "Gunnar Astrid Pedro Lucía Matías Valentina Diego Jakub Petra Marek Zsófia Lars Freya Hugo Inès"
).split()
SURNAMES = (
    "Michelen Vu García Müller Østergaard Nguyen Smith Wang Zhang Li Chen Liu Yang Huang Zhao Wu "
    "Kumar Singh Sharma Patel Tanaka Suzuki Watanabe Sato Kim Park Lee Choi Novák Dvořák Kovács "
    "Szabó Nagy Horváth Schmidt Schneider Fischer Weber Meyer Wagner Becker Schäfer Koch Rossi Russo "
    "Ferrari Bianchi Romano Colombo Martin Bernard Dubois Durand Lefèvre Moreau Laurent Fontaine "
    "Rodríguez Fernández López Martínez Sánchez Pérez Gómez Díaz Álvarez Muñoz Silva Santos Oliveira "
    "Pereira Costa Ferreira Almeida Ivanov Petrov Smirnov Kuznetsov Popov Sokolov Andersson Johansson "
    "Karlsson Nilsson Eriksson Larsen Hansen Jensen Nielsen Pedersen Virtanen Korhonen Mäkinen Nowak "
    "Kowalski Wiśniewski Wójcik Kamiński Lewandowski Öztürk Yılmaz Demir Şahin Çelik Okafor Mensah "
    "Del Maestro Partovi Nia Byun Reddy Kabluchko Brown Taylor Wilson Davies Evans Thomas Johnson"
).split()
SURNAME_PARTS = (
    "Ber Hol Lin Dahl Kar Mor Ven Tor Sel Wen Ash Brom Cal Dun Fen Gal Har Jor Kel Lor Mar Nor Ost "
    "Pel Quin Ros Sten Tal Ul Var Wes Yor Zan Ald Bri Cor Del Eng Fal Gun Hel Ivar Jas Kol Lund Mel"
).split()
SURNAME_ENDS = "berg mann sen son ström ez ini elli ov ova ski ová ić ard ier ley ton wood field ström".split()
MIDDLES = "ABCDEFGHJKLMNPRSTW"
STOPWORDS = set(
    "a an the of for in on with and or to from by via at as is are be we our this that these those it its "
    "which where when can will may has have been not but than then there their they such into over under "
    "between also more most some any each all one two both using used show shows given let".split()
)
TITLE_JOINS = re.compile(r"\s(?=(?:of|for|in|with|on|via|from|to|under|beyond|towards)\s)", re.I)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
SECTIONS = (
    ("Introduction", ["section"]),
    ("Related Work", ["section"]),
    ("Method", ["section", "subsection", "subsection"]),
    ("Experiments", ["section", "subsection"]),
    ("Discussion", ["section"]),
    ("Conclusion", ["section"]),
)
SUBSECTION_TITLES = ("Setting", "Main result", "Analysis", "Data", "Evaluation", "Ablations", "Proofs")
CATEGORIES = "cs.LG cs.CL cs.CV math.PR math.CA cond-mat.stat-mech astro-ph.EP quant-ph hep-th stat.ML".split()
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")  # RFC 2822, whatever the locale
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
JOURNALS = ("Phys. Rev. B", "J. Mach. Learn. Res.", "Ann. Probab.", "Nature", "Astrophys. J.", "Proc. NeurIPS")

FALLBACK_SENTENCES = (
    "We study the zeros of derivatives of random polynomials with independent roots.",
    "Our method improves retrieval of scientific papers over a strong lexical baseline.",
    "The transmission spectrum of the exoplanet shows no detectable atmosphere.",
    "We prove that the empirical measure converges almost surely to the limiting distribution.",
    "Integer-only recurrent networks run efficiently on low-power hardware accelerators.",
    "Hopping matrix elements between nearby molecules are computed with a simple approach.",
    "A mutation-based generator produces adversarial text for machine learning applications.",
    "The localization and mapping system leverages hierarchical scene representations in real time.",
    "Shallow quantum circuits solve deeper problems when combined with classical post-processing.",
    "Stationary spacetimes are analytic in a neighbourhood of maximal hypersurfaces.",
    "Numerical relaxation results agree with the analytical predictions for soil mechanics models.",
    "We introduce a product formula for global Kuranishi charts in symplectic geometry.",
    "Experiments on three benchmarks confirm the gains of the proposed estimator.",
    "The bound is tight up to logarithmic factors in the number of samples.",
    "A graph neural network predicts molecular properties from atomic coordinates.",
    "The training objective combines a contrastive loss with a reconstruction term.",
    "We release the code and the data to reproduce every figure of this paper.",
    "Previous work assumed independent noise, which does not hold for correlated measurements.",
    "The attention mechanism lets the model weigh distant tokens of the input sequence.",
    "Monte Carlo simulations of the lattice model reveal a continuous phase transition.",
)
FALLBACK_TITLES = (
    "Zeros of a growing number of derivatives of random polynomials with independent roots",
    "A simple approach to hopping matrix elements between nearby molecules",
    "Training Integer-Only Deep Recurrent Neural Networks",
    "High-Resolution Transmission Spectroscopy of the Terrestrial Exoplanet GJ 486b",
    "Analyticity of stationary spacetimes from maximal hypersurfaces",
    "Reduce-and-chop: Shallow circuits for deeper problems",
    "Contrastive learning for molecular property prediction",
    "Phase transitions in lattice models with long-range interactions",
)


# -- the material ---------------------------------------------------------------------------------
@dataclass
class Material:
    """Real text to recombine: sentences, title heads and tails split at a preposition, and noun
    phrases (two content words in a row) for titles that no real title starts."""

    sentences: list[str]
    heads: list[str]
    tails: list[str]
    phrases: list[str]
    source: str

    @classmethod
    def read(cls, data_dir: Path | None) -> Material:
        path = Path(data_dir) / UNARXIVE_SAMPLE if data_dir is not None else None
        if path is None or not path.is_file():
            return cls.from_text(list(FALLBACK_SENTENCES), list(FALLBACK_TITLES), "built-in vocabulary")
        sentences, titles = [], []
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                record = json.loads(line)
                metadata = record.get("metadata") or {}
                titles.append(" ".join((metadata.get("title") or "").split()))
                texts = [metadata.get("abstract") or ""] + [
                    part.get("text") or "" for part in record.get("body_text") or []
                ]
                sentences += [sentence for text in texts for sentence in _clean_sentences(text)]
        return cls.from_text(sorted(set(sentences)), [title for title in titles if title], str(path))

    @classmethod
    def from_text(cls, sentences: list[str], titles: list[str], source: str) -> Material:
        heads, tails = [], []
        for title in titles:
            parts = TITLE_JOINS.split(title, maxsplit=1)
            heads.append(parts[0].rstrip(":"))
            if len(parts) == 2:
                tails.append(parts[1])
        phrases = sorted(
            {
                f"{first} {second}"
                for sentence in sentences
                for first, second in itertools.pairwise(sentence.rstrip(".").split())
                if _content_word(first) and _content_word(second)
            }
        )
        return cls(sentences, sorted(set(heads)), sorted(set(tails)), phrases, source)


def _clean_sentences(text: str) -> Iterator[str]:
    """Whole plain sentences of a paragraph: no markers, no LaTeX, no 'Theorem REF', 8-40 words."""
    for sentence in SENTENCE_END.split(" ".join(text.split())):
        if any(mark in sentence for mark in ("{{", "$", "\\", "REF", "[", "http")):
            continue
        if 8 <= len(sentence.split()) <= 40 and sentence.endswith("."):
            yield sentence


def _content_word(word: str) -> bool:
    return word.isalpha() and word.islower() and len(word) > 4 and word not in STOPWORDS


# -- people ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Person:
    first: str
    last: str
    middle: str = ""  # an initial, for people who sign with one sometimes

    @property
    def name(self) -> str:
        return " ".join(part for part in (self.first, self.middle, self.last) if part)


def _ascii(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


def variant(person: Person, rng: random.Random) -> tuple[str, str]:
    """(family, given) as this paper writes the person: mostly whole, else one of the variants
    real metadata has. The importer builds 'given family' from unarXive's authors_parsed."""
    roll = rng.random()
    if roll < 0.62:
        return person.last, person.first
    if roll < 0.77:  # initials, hyphenated names keep both: "X.-T. Vu"
        return person.last, "-".join(f"{part[0]}." for part in person.first.split("-"))
    if roll < 0.86 and _ascii(person.name) != person.name:  # accents lost on the way
        return _ascii(person.last), _ascii(person.first)
    if roll < 0.94:  # a middle initial, whether or not the person usually writes one
        return person.last, f"{person.first} {person.middle or MIDDLES[len(person.last) % len(MIDDLES)] + '.'}"
    return person.first, person.last  # family name first, as some records have it


def _surname(rng: random.Random) -> str:
    if rng.random() < 0.55:
        return rng.choice(SURNAMES)
    return rng.choice(SURNAME_PARTS) + rng.choice(SURNAME_ENDS)


def make_people(count: int, rng: random.Random) -> list[Person]:
    """``count`` distinct people, the most productive first (their order is their Zipf rank)."""
    people: list[Person] = []
    seen: set[tuple[str, str, str]] = set()
    while len(people) < count:
        first, last = rng.choice(FIRST_NAMES), _surname(rng)
        middle = f"{rng.choice(MIDDLES)}." if rng.random() < 0.25 else ""
        key = (first, last, middle)
        if key in seen or (first, last, "") in seen and not middle:
            continue
        seen.add(key)
        people.append(Person(first, last, middle))
    return people


class Zipf:
    """Draws ranks 0..n-1 with probability proportional to 1 / (rank + 1) ** exponent."""

    def __init__(self, count: int, exponent: float = ZIPF_EXPONENT) -> None:
        self.cumulative = list(itertools.accumulate(1.0 / (rank + 1) ** exponent for rank in range(count)))

    def draw(self, rng: random.Random) -> int:
        return bisect.bisect_left(self.cumulative, rng.random() * self.cumulative[-1])


# -- the library ----------------------------------------------------------------------------------
@dataclass
class GeneratedLibrary:
    """What was written, and what the bench asks about it (all drawn from the library itself)."""

    path: str
    papers: int
    people: int
    author_slots: int
    variant_names: int  # distinct written names beyond one per person
    citations_in_library: int
    citations_outside: int
    in_degrees: list[int] = field(repr=False, default_factory=list)
    prolific_author: str = ""  # the most productive person, as most papers write them
    paper_title: str = ""  # a paper's title, for "Who wrote the paper …?"
    search_query: str = ""  # words of a title, for `library search` and PaSa's `search`
    material: str = ""

    def as_dict(self) -> dict:
        degrees = sorted(self.in_degrees, reverse=True)
        return {
            "path": self.path,
            "papers": self.papers,
            "people": self.people,
            "author_slots": self.author_slots,
            "variant_names": self.variant_names,
            "citations_in_library": self.citations_in_library,
            "citations_outside": self.citations_outside,
            "most_cited": degrees[:5],
            "uncited_share": round(sum(1 for d in degrees if d == 0) / max(1, len(degrees)), 3),
            "prolific_author": self.prolific_author,
            "paper_title": self.paper_title,
            "search_query": self.search_query,
            "material": self.material,
        }


class _Titles:
    def __init__(self, material: Material, rng: random.Random) -> None:
        self.material, self.rng = material, rng
        self.seen: set[str] = set()

    def next(self) -> str:
        m, rng = self.material, self.rng
        for attempt in itertools.count():
            roll = rng.random()
            if roll < 0.4 and m.tails:
                title = f"{rng.choice(m.heads)} {rng.choice(m.tails)}"
            elif roll < 0.8 and m.tails:
                title = f"{rng.choice(m.phrases).capitalize()} {rng.choice(m.tails)}"
            else:
                title = f"{rng.choice(m.heads)}: {rng.choice(m.phrases)} and {rng.choice(m.phrases)}"
            if attempt > 20:
                title += f" ({attempt})"  # a tiny vocabulary runs out of combinations
            if title.lower() not in self.seen:
                self.seen.add(title.lower())
                return title
        raise AssertionError("unreachable")


def _arxiv_id(day: date, serial: int) -> str:
    return f"{day:%y%m}.{serial:05d}"


def _raw_entry(authors: list[str], title: str, year: int, arxiv: str | None, rng: random.Random) -> str:
    names = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 else "")
    where = f"arXiv:{arxiv}" if arxiv else rng.choice(JOURNALS) + f" {rng.randint(1, 120)}, {rng.randint(1, 999)}"
    return f"{names}, {title}, {where} ({year})."


def _initials(family: str, given: str) -> str:
    return f"{given.split()[0][0]}. {family}" if given else family


@dataclass
class _Written:
    arxiv: str
    title: str
    year: int
    authors: list[str]


def generate(size: int, out: Path, *, seed: int = 0, data_dir: Path | None = None) -> GeneratedLibrary:
    """Write ``size`` papers to ``out`` (unarXive JSONL, oldest first) and say what is in it."""
    rng = random.Random(f"scale-library:{seed}:{size}")
    material = Material.read(data_dir)
    people = make_people(max(20, size * 3 // 5), rng)
    productivity = Zipf(len(people))
    groups = [[productivity.draw(rng) for _ in range(4)] for _ in people]  # each person's usual coauthors
    titles = _Titles(material, rng)
    days = sorted(rng.randrange(DAYS) for _ in range(size))
    written: list[_Written] = []
    attachment: list[int] = []  # paper i ATTRACTIVENESS times, plus once per citation it has received
    in_degrees = [0] * size
    names: set[str] = set()
    used: set[int] = set()  # the people who wrote at least one paper
    slots = outside = 0
    serial_of_month: dict[str, int] = {}
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as file:
        for index in range(size):
            day = FIRST_DAY + timedelta(days=days[index])
            month = f"{day:%y%m}"
            serial_of_month[month] = serial_of_month.get(month, 0) + 1
            paper_id = _arxiv_id(day, serial_of_month[month])
            authors = _authors(rng, productivity, groups)
            used.update(authors)
            parsed = [list(variant(people[rank], rng)) + [""] for rank in authors]
            slots += len(parsed)
            names.update(f"{given} {family}" for family, given, _ in parsed)
            cited = _cited(rng, attachment, index)
            for target in cited:
                in_degrees[target] += 1
                attachment.append(target)
            attachment += [index] * ATTRACTIVENESS
            bib = _bibliography(rng, cited, written, titles, people, productivity)
            outside += len(bib) - len(cited)  # the entries naming works outside the library
            title = titles.next()
            record = _record(rng, material, paper_id, day, title, parsed, bib)
            file.write(json.dumps(record, ensure_ascii=False) + "\n")
            written.append(_Written(paper_id, title, day.year, [_initials(f, g) for f, g, _ in parsed]))
    first_title = written[len(written) // 2].title if written else ""
    top = people[0]
    return GeneratedLibrary(
        path=str(out),
        papers=size,
        people=len(used),
        author_slots=slots,
        variant_names=max(0, len(names) - len(used)),
        citations_in_library=sum(in_degrees),
        citations_outside=outside,
        in_degrees=in_degrees,
        prolific_author=top.name,
        paper_title=first_title,
        search_query=" ".join([word for word in first_title.split() if word.lower() not in STOPWORDS][:6]),
        material=material.source,
    )


def _authors(rng: random.Random, productivity: Zipf, groups: list[list[int]]) -> list[int]:
    """A first author by productivity, then 0-5 coauthors, most from the first author's group."""
    lead = productivity.draw(rng)
    chosen = [lead]
    for _ in range(min(5, int(rng.expovariate(0.6)))):
        other = rng.choice(groups[lead]) if rng.random() < 0.6 else productivity.draw(rng)
        if other not in chosen:
            chosen.append(other)
    rng.shuffle(chosen)
    return chosen


def _cited(rng: random.Random, attachment: list[int], index: int) -> list[int]:
    """Earlier papers this one cites, by preferential attachment (a power law of in-degrees)."""
    if not attachment:
        return []
    wanted = min(index, 2 + int(rng.expovariate(1 / 6)))
    cited: list[int] = []
    for _ in range(wanted * 3):
        if len(cited) == wanted:
            break
        target = rng.choice(attachment)
        if target not in cited:
            cited.append(target)
    return cited


def _bibliography(
    rng: random.Random,
    cited: list[int],
    written: list[_Written],
    titles: _Titles,
    people: list[Person],
    productivity: Zipf,
) -> dict[str, dict]:
    entries: list[dict] = []
    for target in cited:
        paper = written[target]
        linked = rng.random() >= TITLE_ONLY_SHARE
        raw = _raw_entry(paper.authors, paper.title, paper.year, paper.arxiv if linked else None, rng)
        entries.append({"bib_entry_raw": raw, "ids": {"arxiv_id": paper.arxiv if linked else None}})
    for _ in range(int(len(cited) * OUTSIDE_SHARE / (1 - OUTSIDE_SHARE) + rng.random())):
        authors = [people[productivity.draw(rng)] for _ in range(rng.randint(1, 4))]
        raw = _raw_entry(
            [f"{person.first[0]}. {person.last}" for person in authors],
            titles.next(),
            rng.randint(1995, 2014),
            None,
            rng,
        )
        entries.append({"bib_entry_raw": raw, "ids": {"arxiv_id": None}})
    rng.shuffle(entries)
    return {f"b{number}": entry for number, entry in enumerate(entries)}


def _paragraph(rng: random.Random, material: Material, keys: list[str]) -> str:
    sentences = rng.sample(material.sentences, k=min(len(material.sentences), rng.randint(2, 4)))
    text = []
    for sentence in sentences:
        if keys and rng.random() < 0.6:
            marks = " ".join(f"{{{{cite:{key}}}}}" for key in keys[: rng.randint(1, 2)])
            del keys[: len(marks.split())]
            sentence = f"{sentence[:-1]} {marks}."
        text.append(sentence)
    return " ".join(text)


def _body(rng: random.Random, material: Material, bib_keys: list[str]) -> list[dict]:
    """Sections and subsections of paragraphs. The introduction and related work cite every
    bibliography entry once, in order of appearance; later sections cite a few of them again."""
    remaining = list(bib_keys)
    body = []
    for number, (title, kinds) in enumerate(SECTIONS, start=1):
        opening = title in ("Introduction", "Related Work")
        sub = 0
        for kind in kinds:
            heading, sec_number = title, str(number)
            if kind == "subsection":
                sub += 1
                heading, sec_number = rng.choice(SUBSECTION_TITLES), str(sub)
            for _ in range(rng.randint(1, 3)):
                keys = remaining if opening else rng.sample(bib_keys, k=min(len(bib_keys), rng.randint(0, 2)))
                body.append(_paragraph_of(heading, sec_number, kind, _paragraph(rng, material, keys)))
        if title == "Related Work" and remaining:  # what the sentences had no room for
            marks = " ".join(f"{{{{cite:{key}}}}}" for key in remaining)
            body.append(_paragraph_of(title, str(number), "section", f"{rng.choice(material.sentences)[:-1]} {marks}."))
            remaining = []
    return body


def _paragraph_of(section: str, number: str, kind: str, text: str) -> dict:
    return {"section": section, "sec_number": number, "sec_type": kind, "content_type": "paragraph", "text": text}


def _record(
    rng: random.Random,
    material: Material,
    paper_id: str,
    day: date,
    title: str,
    parsed: list[list[str]],
    bib: dict[str, dict],
) -> dict:
    abstract = " ".join(rng.sample(material.sentences, k=min(len(material.sentences), rng.randint(3, 6))))
    created = f"{WEEKDAYS[day.weekday()]}, {day.day:02d} {MONTHS[day.month - 1]} {day.year} 12:00:00 GMT"
    return {
        "paper_id": paper_id,
        "metadata": {
            "id": paper_id,
            "authors": ", ".join(f"{given} {family}" for family, given, _ in parsed),
            "title": title,
            "abstract": abstract,
            "categories": " ".join(rng.sample(CATEGORIES, k=rng.randint(1, 3))),
            "license": "http://creativecommons.org/licenses/by/4.0/",
            "journal-ref": None,
            "doi": None,
            "versions": [{"version": "v1", "created": created}],
            "update_date": day.isoformat(),
            "authors_parsed": parsed,
        },
        "discipline": "Synthetic",
        "abstract": {"section": "Abstract", "text": abstract},
        "body_text": _body(rng, material, list(bib)),
        "bib_entries": bib,
        "ref_entries": {},
    }
