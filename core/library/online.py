"""Online sources over HTTP (synchronous httpx): OpenAlex and the arXiv API, politely.

Polite means: a timeout on every request (``network.timeout_s``), retries with exponential
back-off on 429 and 5xx (``Retry-After`` honoured, capped), the contact address from
``network.contact_email`` as OpenAlex's ``mailto`` parameter and in the User-Agent, and no
retries when the network is simply not there. Offline — ``network.offline`` set, or no route to
the host — is one ``OfflineError`` with one clear line; the local library keeps working.

``OnlineSources`` caches what it fetches into the library (the same writer the importers use), so
a search done once online is answered locally afterwards.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, timedelta
from importlib.metadata import PackageNotFoundError, version
from typing import Any
from urllib.parse import urlparse

import httpx

from scholar_tui.config.settings import NetworkSettings
from scholar_tui.core.events import Event
from scholar_tui.core.library.identity import merge_people, merges_note, queried_surnames
from scholar_tui.core.readiness import OFFLINE_STEP
from scholar_tui.indexes.records import PaperRecord, openalex_id

OPENALEX_URL = "https://api.openalex.org"
ARXIV_URL = "https://export.arxiv.org/api/query"
RETRY_STATUSES = {429, 500, 502, 503, 504}
MAX_RETRY_AFTER_S = 30.0
FIELDED = re.compile(r"\b(au|ti|abs|cat|all|id|co|jr|rn):", re.I)
ONLINE_SOURCES = {"arxiv": "arXiv", "openalex": "OpenAlex"}


class OfflineError(Exception):
    """No network (or network.offline is set): one line for the user."""


class SourceError(Exception):
    """The source answered, but not with something usable (4xx, errors after retries, bad body)."""


class NotFound(SourceError):
    """404 from the source: the id names nothing there."""


def _user_agent(email: str | None) -> str:
    try:
        own = version("scholar-tui")
    except PackageNotFoundError:  # running from a source tree without metadata
        own = "dev"
    return f"scholar-tui/{own} (mailto:{email})" if email else f"scholar-tui/{own}"


class PoliteClient:
    """GETs with timeouts, retries and back-off; ``transport`` lets tests replay recorded answers."""

    def __init__(
        self,
        network: NetworkSettings,
        *,
        transport: httpx.BaseTransport | None = None,
        retries: int = 3,
        backoff_s: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
        notice: Callable[[str], None] | None = None,
    ) -> None:
        self.network = network
        self.transport = transport
        self.retries = retries
        self.backoff_s = backoff_s
        self.sleep = sleep
        self.notice = notice  # told at once when a source stops answering (the CLI prints it)
        self.requests: list[httpx.Request] = []  # what was sent, for tests and the log

    @property
    def total_s(self) -> float:
        """What one lookup may take in all, retries and back-off included: twice the timeout, so
        a source that never answers costs 20 s with the default 10 s, not 4 tries x 10 s + back-off."""
        return 2 * self.network.timeout_s

    def _client(self) -> httpx.Client:
        return httpx.Client(
            timeout=self.network.timeout_s,
            headers={"User-Agent": _user_agent(self.network.contact_email)},
            transport=self.transport,
            follow_redirects=True,
        )

    def get(self, url: str, params: dict[str, Any] | None = None) -> httpx.Response:
        host = urlparse(url).netloc
        if self.network.offline:
            raise OfflineError(f"offline (network.offline is set): {host} is not asked; {OFFLINE_STEP}")
        deadline = time.monotonic() + self.total_s
        with self._client() as client:
            for attempt in range(self.retries + 1):
                left = deadline - time.monotonic()
                try:
                    response = client.get(url, params=params, timeout=max(0.1, min(self.network.timeout_s, left)))
                    self.requests.append(response.request)
                except (httpx.ConnectError, httpx.UnsupportedProtocol) as error:
                    # No route or no DNS: retrying will not help, and the user should know now.
                    raise OfflineError(
                        f"cannot reach {host} ({type(error).__name__}): working offline; {OFFLINE_STEP}"
                    ) from error
                except httpx.TransportError as error:  # timeouts, dropped connections
                    delay = self.backoff_s * 2**attempt
                    if attempt == self.retries or deadline - time.monotonic() <= delay:
                        raise OfflineError(
                            f"{host} did not answer within {self.total_s:g} s ({attempt + 1} tries, "
                            f"{type(error).__name__}; network.timeout_s = {self.network.timeout_s:g}); "
                            f"{OFFLINE_STEP}"
                        ) from error
                    if attempt == 0 and self.notice is not None:
                        self.notice(
                            f"{host} is not answering ({type(error).__name__}); trying again for at most "
                            f"{deadline - time.monotonic():.0f} s more"
                        )
                    self.sleep(delay)
                    continue
                if response.status_code in RETRY_STATUSES:
                    delay = self._delay(response, attempt)
                    if attempt == self.retries:
                        raise SourceError(f"{host} answered {response.status_code} after {attempt + 1} tries")
                    if deadline - time.monotonic() <= delay:
                        raise SourceError(
                            f"{host} answered {response.status_code}; waiting {delay:g} s more would "
                            f"pass the {self.total_s:g} s limit (twice network.timeout_s)"
                        )
                    self.sleep(delay)
                    continue
                if response.status_code == 404:
                    raise NotFound(f"{host}: nothing at {response.request.url.path}")
                if response.status_code >= 400:
                    detail = " ".join(response.text.split())[:160]
                    raise SourceError(f"{host} answered {response.status_code}: {detail}")
                return response
        raise AssertionError("unreachable")

    def _delay(self, response: httpx.Response, attempt: int) -> float:
        header = response.headers.get("Retry-After", "")
        if header.strip().isdigit():
            return min(float(header), MAX_RETRY_AFTER_S)
        return self.backoff_s * 2**attempt

    def get_json(self, url: str, params: dict[str, Any] | None = None) -> Any:
        response = self.get(url, params)
        try:
            return response.json()
        except ValueError as error:
            raise SourceError(f"{urlparse(url).netloc} answered with something that is not JSON") from error


def _day_before(cutoff: str) -> str:
    return (date.fromisoformat(cutoff[:10]) - timedelta(days=1)).isoformat()


class OpenAlexClient:
    """The OpenAlex endpoints the library uses; every method returns OpenAlex JSON objects."""

    def __init__(self, http: PoliteClient, base_url: str = OPENALEX_URL) -> None:
        self.http = http
        self.base_url = base_url.rstrip("/")

    def _params(self, **params: Any) -> dict[str, Any]:
        params = {key: value for key, value in params.items() if value is not None}
        if self.http.network.contact_email:
            params["mailto"] = self.http.network.contact_email  # OpenAlex's polite pool
        return params

    def _list(self, endpoint: str, **params: Any) -> list[dict]:
        page = self.http.get_json(f"{self.base_url}/{endpoint}", self._params(**params))
        if not isinstance(page, dict) or not isinstance(page.get("results"), list):
            raise SourceError(f"OpenAlex /{endpoint} answered without a results list")
        return page["results"]

    def search_works(self, query: str, *, before: str | None = None, per_page: int = 25) -> list[dict]:
        cutoff = f"to_publication_date:{_day_before(before)}" if before else None
        return self._list("works", search=query, filter=cutoff, per_page=per_page)

    def search_authors(self, query: str, *, per_page: int = 25) -> list[dict]:
        return self._list("authors", search=query, per_page=per_page)

    def search_institutions(self, query: str, *, per_page: int = 5) -> list[dict]:
        return self._list("institutions", search=query, per_page=per_page)

    def authors_at(self, institution_id: str, *, per_page: int = 25) -> list[dict]:
        return self._list(
            "authors",
            filter=f"last_known_institutions.id:{institution_id}",
            sort="cited_by_count:desc",
            per_page=per_page,
        )

    def work(self, work_id: str) -> dict:
        return self.http.get_json(f"{self.base_url}/works/{work_id}", self._params())

    def author(self, author_id: str) -> dict:
        return self.http.get_json(f"{self.base_url}/authors/{author_id}", self._params())

    def works_by_ids(self, work_ids: list[str]) -> list[dict]:
        found: list[dict] = []
        for start in range(0, len(work_ids), 50):  # OpenAlex ORs at most 50 values in one filter
            batch = work_ids[start : start + 50]
            found += self._list("works", filter=f"openalex:{'|'.join(batch)}", per_page=50)
        return found

    def references(self, work_id: str) -> tuple[dict, list[dict]]:
        """The work and the works it cites."""
        work = self.work(work_id)
        cited = [openalex_id(item) for item in work.get("referenced_works") or []]
        return work, self.works_by_ids([item for item in cited if item])

    def cited_by(self, work_id: str, *, per_page: int = 25) -> list[dict]:
        return self._list("works", filter=f"cites:{work_id}", sort="cited_by_count:desc", per_page=per_page)

    def works_of(self, author_id: str, *, per_page: int = 50) -> list[dict]:
        return self._list("works", filter=f"author.id:{author_id}", sort="cited_by_count:desc", per_page=per_page)


class ArxivClient:
    """arXiv's search API; the date cut-off becomes a submittedDate range in the query."""

    def __init__(self, http: PoliteClient, base_url: str = ARXIV_URL) -> None:
        self.http = http
        self.base_url = base_url

    @staticmethod
    def query_for(text: str, before: str | None) -> str:
        if FIELDED.search(text):  # 'au:del_maestro', 'ti:"graph neural"': arXiv's own syntax, as typed
            words = text.strip()
        else:
            words = " AND ".join(f"all:{word}" for word in text.replace('"', " ").split()) or "all:*"
        if before:
            last = _day_before(before).replace("-", "")
            words = f"({words}) AND submittedDate:[199101010000 TO {last}2359]"
        return words

    def search(self, text: str, *, before: str | None = None, max_results: int = 25) -> list[PaperRecord]:
        from scholar_tui.core.library.arxiv import ArxivFeedError, parse_feed

        response = self.http.get(
            self.base_url,
            {
                "search_query": self.query_for(text, before),
                "start": 0,
                "max_results": max_results,
                "sortBy": "relevance",
            },
        )
        try:
            records, _ = parse_feed(response.content)
        except ArxivFeedError as error:
            raise SourceError(f"arXiv: {error}") from error
        # Belt and braces: the feed's <published> is v1's date; nothing on or after the cut-off.
        return [record for record in records if not before or (record.date and record.date < before)]


def works_to_records(works: list[dict]) -> list[PaperRecord]:
    from scholar_tui.core.library.openalex import parse_work

    records = []
    for work in works:
        try:
            records.append(parse_work(work))
        except ValueError:
            continue  # one odd result does not spoil the page
    return records


@dataclass
class OnlineFound(Event):
    source: str
    query: str
    records: list[PaperRecord]
    kind: str = "online_found"

    def summary(self) -> str:
        name = ONLINE_SOURCES.get(self.source, self.source)
        if not self.records:
            return f"{name} found nothing for “{self.query}”: try other words"
        return f"{len(self.records)} results from {name} for “{self.query}”"


@dataclass
class OnlineFailed(Event):
    source: str
    message: str
    kind: str = "online_failed"

    def summary(self) -> str:
        return self.message


@dataclass
class AddProgress(Event):
    done: int
    total: int
    stage: str  # "papers" | "references"
    kind: str = "add_progress"

    def summary(self) -> str:
        return f"adding {self.stage}: {self.done}/{self.total}"


@dataclass
class AddFinished(Event):
    paper_ids: list[int]
    cited_ids: list[int]  # works the added papers cite, fetched from OpenAlex
    merged: list[str] = field(default_factory=list)
    seconds: float = 0.0
    problem: str = ""
    kind: str = "add_finished"

    def summary(self) -> str:
        text = f"added {len(self.paper_ids)} papers to the library"
        if self.cited_ids:
            text += f" and {len(self.cited_ids)} works they cite"
        text += f" in {self.seconds:.1f} s" + merges_note(self.merged)
        return text + (f" · {self.problem}" if self.problem else "")


def open_online(where, network: NetworkSettings, *, transport: httpx.BaseTransport | None = None) -> "OnlineSources":
    """The online flow over this installation's library (its own connection: open it in the thread that uses it)."""
    from scholar_tui.indexes.library import Library

    return OnlineSources(Library.open(where), network, transport=transport)


class OnlineSources:
    """Online search whose results land in the library; returns library paper/person ids."""

    def __init__(
        self, library, network: NetworkSettings, *, transport: httpx.BaseTransport | None = None, backoff_s: float = 1.0
    ) -> None:
        self.library = library
        self.merged: list = []  # identity merges made by the last add
        self.http = PoliteClient(network, transport=transport, backoff_s=backoff_s)
        self.openalex = OpenAlexClient(self.http)
        self.arxiv = ArxivClient(self.http)

    def cache_works(self, works: list[dict], *, cites: str | None = None) -> list[int]:
        records = works_to_records(works)
        for record in records:
            if cites:
                record.cites_openalex.append(cites)
        return self.cache_papers(records)

    def cache_papers(self, records: list[PaperRecord], *, query: str = "") -> list[int]:
        """Store records in one transaction; their authors' name variants are merged (identity)."""
        from scholar_tui.core.library.importer import store_records

        with self.library.transaction():
            paper_ids, _ = store_records(self.library, records)
            self.merged += merge_people(
                self.library, person_ids=self.library.authors_of(paper_ids), queried=queried_surnames(query)
            )
        return paper_ids

    # -- search, then add the chosen results (the Library tab's and `library online search`'s flow) --
    def find(self, source: str, query: str, *, before: str | None = None, limit: int = 25) -> list[PaperRecord]:
        """Search a source without storing anything: what a person chooses from."""
        if source == "arxiv":
            return self.arxiv.search(query, before=before, max_results=limit)
        if source == "openalex":
            return works_to_records(self.openalex.search_works(query, before=before, per_page=limit))
        raise SourceError(f"unknown online source {source!r}: {' or '.join(ONLINE_SOURCES)}")

    def search(self, source: str, query: str, *, before: str | None = None, limit: int = 25) -> Iterator[Event]:
        """One search as events: ``OnlineFound`` with the records, or ``OnlineFailed`` with one line."""
        name = ONLINE_SOURCES.get(source, source)
        if not query.strip():
            yield OnlineFailed(source, f"type what to search {name} for (words, or arXiv's au:NAME / ti:WORDS)")
            return
        try:
            records = self.find(source, query, before=before, limit=limit)
        except (OfflineError, SourceError) as error:
            yield OnlineFailed(source, str(error))  # the error names the host it could not reach
            return
        yield OnlineFound(source, query, records)

    def add(self, records: list[PaperRecord], *, query: str = "", references: bool = True) -> Iterator[Event]:
        """Add chosen records to the library, then (OpenAlex) the works they cite, with progress."""
        started = time.monotonic()
        self.merged = []
        paper_ids: list[int] = []
        for done, record in enumerate(records, start=1):
            paper_ids += self.cache_papers([record], query=query)
            yield AddProgress(done, len(records), "papers")
        cited = (
            list(dict.fromkeys(ref.openalex_id for record in records for ref in record.references if ref.openalex_id))
            if references
            else []
        )
        cited_ids: list[int] = []
        problem = ""
        for start in range(0, len(cited), 50):  # one request per 50 ids, as OpenAlex allows
            try:
                works = self.openalex.works_by_ids(cited[start : start + 50])
            except (OfflineError, SourceError) as error:
                problem = f"references not fetched: {error}"
                break
            cited_ids += self.cache_works(works)
            yield AddProgress(min(start + 50, len(cited)), len(cited), "references")
        yield AddFinished(
            sorted(set(paper_ids)),
            sorted(set(cited_ids) - set(paper_ids)),
            [merge.summary() for merge in self.merged],
            time.monotonic() - started,
            problem,
        )

    def cache_authors(self, authors: list[dict]) -> list[int]:
        from scholar_tui.core.library.openalex import parse_author

        people = []
        with self.library.transaction():
            for author in authors:
                try:
                    people.append(self.library.store_person(parse_author(author))[0])
                except ValueError:
                    continue
        return people

    def search_openalex(self, query: str, *, before: str | None = None, limit: int = 25) -> list[int]:
        return self.cache_works(self.openalex.search_works(query, before=before, per_page=limit))

    def search_arxiv(self, query: str, *, before: str | None = None, limit: int = 25) -> list[int]:
        return self.cache_papers(self.arxiv.search(query, before=before, max_results=limit), query=query)

    def search_authors(self, name: str, *, limit: int = 25) -> list[int]:
        return self.cache_authors(self.openalex.search_authors(name, per_page=limit))

    def _openalex_id_of(self, paper_id: int) -> str:
        paper = self.library.paper(paper_id)
        if paper is None:
            raise SourceError(f"paper:{paper_id} is not in the library")
        if not paper["openalex_id"]:
            raise SourceError(f"paper:{paper_id} has no OpenAlex id; import it from OpenAlex first")
        return paper["openalex_id"]

    def fetch_references(self, paper_id: int) -> list[int]:
        """The works a library paper cites, cached and linked (its references resolve)."""
        work, cited = self.openalex.references(self._openalex_id_of(paper_id))
        self.cache_works([work])
        return self.cache_works(cited)

    def fetch_cited_by(self, paper_id: int, *, limit: int = 25) -> list[int]:
        """Works citing a library paper, cached with a reference to it (citation edges appear)."""
        work_id = self._openalex_id_of(paper_id)
        return self.cache_works(self.openalex.cited_by(work_id, per_page=limit), cites=work_id)
