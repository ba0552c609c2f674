"""The library on the command line: `import`, `library …` and `api …`.

    scholar-tui import unarxive ../shared/data/unarxive/arXiv_src_2212_086.jsonl
    scholar-tui library stats | search "q" [--before DATE] | show ID | export-bibtex [FILE]
    scholar-tui library online search openalex|arxiv "q" [--before DATE] [--pick 1,3-5] | references ID | cited-by ID
    scholar-tui library person show NAME | merges | split person:N [--merge ID]
    scholar-tui api list | api searchPerson --name "Michelen" [--backend local|openalex]

Heavy modules (LanceDB, the embedder, httpx) are imported inside the commands so that
`scholar-tui --help` stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from scholar_tui.app.cli_support import Context, emit_json, terminal_text, whole
from scholar_tui.app.terminal_safety import show_controls
from scholar_tui.core.events import counted

KINDS = ("unarxive", "openalex", "arxiv", "bibtex", "pdf", "zotero")
SKIPPED_SHOWN = 5  # malformed records named one by one; the rest are counted


def _library(obj: Context):
    from scholar_tui.indexes.library import Library

    return Library.open(obj.where)


def _count_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{value} {name.replace('_', ' ')}" for name, value in counts.items())


def _sync_index(obj: Context, library, *, quiet: bool) -> dict[str, Any] | None:
    """Bring the search index level with SQLite; a missing embedder is a warning, not a failure.

    Ctrl-C stops the embedding, keeping the vectors made so far (``library index`` resumes)."""
    from scholar_tui.config.files import StateError
    from scholar_tui.indexes.library_search import IndexFinished, IndexProgress, LibraryIndex
    from scholar_tui.models import LLMError, load_embedder

    bar = None
    events = None
    try:
        index = LibraryIndex(obj.where, load_embedder(obj.settings))
        finished = None
        events = index.sync(library, batch_size=obj.settings.embeddings.batch_size)
        for event in events:
            if isinstance(event, IndexProgress) and event.total and not quiet:
                if bar is None:
                    label = f"embedding {event.total} papers (Ctrl-C stops; `scholar-tui library index` resumes)"
                    bar = click.progressbar(length=event.total, label=label, file=sys.stderr, show_eta=True)
                    bar.__enter__()
                bar.update(event.done - bar.pos)
            elif isinstance(event, IndexFinished):
                finished = event
    except (LLMError, StateError) as error:  # the import itself is kept: the next sync catches up
        click.echo(click.style(f"search index not updated: {error}", fg="yellow"), err=True)
        return None
    except KeyboardInterrupt:
        if events is not None:
            events.close()  # the sync saves what it made before it stops
        if bar is not None:
            bar.__exit__(None, None, None)
        coverage = LibraryIndex(obj.where, None).coverage(library)
        raise click.ClickException(
            f"stopped: {coverage.level} papers have vectors, {coverage.behind} not yet; "
            "`scholar-tui library index` goes on from there (words find every paper meanwhile)"
        ) from None
    if bar is not None:
        bar.__exit__(None, None, None)
    return finished.__dict__ if finished else None


# -- import --------------------------------------------------------------------------------------
@click.command("import")
@click.argument("kind", type=click.Choice(KINDS))
@click.argument("path", required=False, type=click.Path(path_type=Path))
@click.option("--no-index", is_flag=True, help="Do not update the search index now (search catches up later).")
@click.option(
    "--skip-bad",
    is_flag=True,
    help="Leave out malformed records (each named on stderr) and import the rest, instead of stopping.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_obj
def import_command(obj: Context, kind: str, path: Path | None, no_index: bool, skip_bad: bool, as_json: bool) -> None:
    """Import PATH into the library: KIND is unarxive (JSONL), openalex (API page or snapshot JSONL),
    arxiv (Atom feed), bibtex, pdf (a file or a folder, recursive: one paper per PDF, each stored
    whole; Ctrl-C stops between papers) or zotero (a Zotero data folder; default ~/Zotero). All or
    nothing per file (unless --skip-bad); a second run adds nothing."""
    from scholar_tui.core.library.importer import (
        ImportFinished,
        ImportProgress,
        LibraryImportError,
        import_file,
        with_cited_works,
    )
    from scholar_tui.core.pasa.works import CitedWorks

    if kind == "zotero":
        _import_zotero(obj, path, no_index, as_json)
        return
    if path is None:
        raise click.UsageError(f"import {kind} needs a PATH")
    if kind == "pdf":
        _import_pdfs(obj, path, no_index=no_index, as_json=as_json)
        return
    if path.is_dir():
        raise click.ClickException(f"{path} is a folder: only `import pdf` and `import zotero` read a folder")
    library = _library(obj)
    finished: ImportFinished | None = None
    cited: CitedWorks | None = None
    bar = None
    try:
        for event in with_cited_works(import_file(kind, path, library, skip_bad=skip_bad), library):
            if isinstance(event, CitedWorks):
                cited = event
            elif isinstance(event, ImportProgress) and not as_json:
                if bar is None:
                    bar = click.progressbar(length=event.total, label=f"importing {path.name}", file=sys.stderr)
                    bar.__enter__()
                bar.update(event.done - bar.pos)
            elif isinstance(event, ImportFinished):
                finished = event
    except LibraryImportError as error:
        raise click.ClickException(f"{error}; the library is unchanged") from error
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    assert finished is not None
    for line in finished.skipped[:SKIPPED_SHOWN]:
        click.echo(click.style(f"skipped {line}", fg="yellow"), err=True)
    if len(finished.skipped) > SKIPPED_SHOWN:
        click.echo(click.style(f"… and {len(finished.skipped) - SKIPPED_SHOWN} more", fg="yellow"), err=True)
    index = None if no_index else _sync_index(obj, library, quiet=as_json)
    totals = library.counts()
    if as_json:
        emit_json(
            {
                "kind": kind,
                "path": str(path),
                "records": finished.records,
                "added": finished.added,
                "merged": finished.merged,
                "works_merged": finished.works_merged,
                "seconds": round(finished.seconds, 3),
                "new_citations": finished.new_citations,
                "cited_works": cited.added if cited else 0,
                "skipped": finished.skipped,
                "library": totals,
                "index": index,
            }
        )
        return
    left_out = f"; left out {len(finished.skipped)} records, each named" if finished.skipped else ""
    click.echo(f"imported {finished.records} records from {path.name} in {finished.seconds:.2f} s{left_out}")
    click.echo(f"  added:   {_count_line(finished.added)}")
    _say_cited(cited)
    for line in finished.works_merged:
        click.echo(f"  merged:  {show_controls(line)}")
    for line in finished.merged:
        click.echo(f"  merged:  {line}")
    click.echo(f"  library: {_count_line(totals)}")
    if index:
        click.echo(
            f"  search index: embedded {index['embedded']} papers in {index['seconds']:.1f} s "
            f"({index['indexed']} indexed)"
        )


def _say_cited(cited) -> None:
    """The works the import's bibliographies cite, made papers for paper search (PaSa) at once."""
    if cited is not None and cited.added:
        click.echo(f"  cited:   {counted(cited.added, 'work')} their bibliographies cite, added for paper search")


def _import_zotero(obj: Context, folder: Path | None, no_index: bool, as_json: bool) -> None:
    """`import zotero [DIR]`: progress on stderr, then the summary and one line per note."""
    from scholar_tui.core.library.importer import LibraryImportError, with_cited_works
    from scholar_tui.core.library.zotero import ZoteroFinished, import_zotero
    from scholar_tui.core.pasa.works import CitedWorks

    library = _library(obj)
    finished: ZoteroFinished | None = None
    cited: CitedWorks | None = None
    try:
        for event in with_cited_works(import_zotero(folder, library), library):
            if isinstance(event, CitedWorks):
                cited = event
            elif isinstance(event, ZoteroFinished):
                finished = event
            elif not as_json:
                click.echo(f"\r{event.done}/{event.total} items", nl=False, err=True)
    except LibraryImportError as error:
        raise click.ClickException(f"{show_controls(str(error))}; the library is unchanged") from error
    assert finished is not None
    if not as_json:
        click.echo("", err=True)
    index = None if no_index else _sync_index(obj, library, quiet=as_json)
    if as_json:
        emit_json({**finished.__dict__, "library": library.counts(), "index": index})
        return
    for line in finished.lines():
        click.echo(show_controls(line))
    _say_cited(cited)
    click.echo(f"  library: {_count_line(library.counts())}")


def _import_pdfs(obj: Context, path: Path, *, no_index: bool, as_json: bool) -> None:
    """`import pdf PATH`: a line per file as it is read, the skipped files named one line each."""
    from scholar_tui.core.library.importer import ImportProgress, LibraryImportError, with_cited_works
    from scholar_tui.core.library.pdf_import import PdfImportFinished, import_pdfs
    from scholar_tui.core.pasa.works import CitedWorks

    library = _library(obj)
    settings = obj.settings.pdf
    finished: PdfImportFinished | None = None
    cited: CitedWorks | None = None
    events = with_cited_works(import_pdfs(path, library, grobid_url=settings.grobid_url), library)
    try:
        for event in events:
            if isinstance(event, CitedWorks):
                cited = event
            elif isinstance(event, ImportProgress) and event.message and not as_json:
                click.echo(terminal_text(f"[{event.done + 1}/{event.total}] reading {event.message}"), err=True)
            elif isinstance(event, PdfImportFinished):
                finished = event
    except LibraryImportError as error:
        raise click.ClickException(str(error)) from error
    except KeyboardInterrupt:
        events.close()  # the paper being stored rolls back with its transaction; the ones before stay
        click.echo("cancelled: the papers already stored stay; the one being read was not stored", err=True)
        raise SystemExit(130) from None
    assert finished is not None
    index = None if no_index or not finished.papers else _sync_index(obj, library, quiet=as_json)
    if as_json:
        emit_json(
            {
                "kind": "pdf",
                "path": str(path),
                "files": finished.files,
                "papers": [{"file": name, "paper_id": paper_id, "new": new} for name, paper_id, new in finished.papers],
                "skipped": finished.skipped,
                "notes": finished.notes,
                "merged": finished.merged,
                "added": finished.added,
                "new_citations": finished.new_citations,
                "seconds": round(finished.seconds, 3),
                "library": library.counts(),
                "index": index,
            }
        )
        return
    click.echo(terminal_text(finished.summary))
    _say_cited(cited)
    for name, paper_id, new in finished.papers:
        paper = library.paper(paper_id) or {}
        counts = f"{len(library.sections(paper_id))} sections, {len(library.references(paper_id))} references"
        click.echo(
            terminal_text(
                f"  {'added' if new else 'merged'}: {name} → paper:{paper_id} "
                f"{(paper.get('title') or '')[:70]} ({counts})"
            )
        )
    for line in finished.skipped:
        click.echo(click.style(terminal_text(f"  skipped: {line}"), fg="yellow"), err=True)
    for line in finished.notes:
        click.echo(click.style(terminal_text(f"  note: {line}"), fg="yellow"), err=True)
    for line in finished.merged:
        click.echo(terminal_text(f"  merged:  {line}"))
    click.echo(f"  library: {_count_line(library.counts())}")
    if index:
        click.echo(
            f"  search index: embedded {index['embedded']} papers in {index['seconds']:.1f} s "
            f"({index['indexed']} indexed)"
        )


# -- library -------------------------------------------------------------------------------------
@click.group()
def library() -> None:
    """The local library: counts, hybrid search, paper details, BibTeX export, online sources."""


@library.command("stats")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def library_stats(obj: Context, as_json: bool) -> None:
    """How many papers, people, sections, references and citations the library holds."""
    from scholar_tui.indexes.library_search import LibraryIndex
    from scholar_tui.models import LLMError, load_embedder

    lib = _library(obj)
    counts = lib.counts()
    try:  # named, not loaded: vectors of another embedding model than the configured one do not count
        embedder = load_embedder(obj.settings)
    except LLMError:
        embedder = None
    coverage = LibraryIndex(obj.where, embedder).coverage(lib)  # against SQLite: a stale index is said
    imports = lib.recent_imports()
    if as_json:
        emit_json(
            {
                **counts,
                "indexed_for_search": coverage.level,
                "search_index_behind": coverage.behind,
                "search_index_extra": coverage.extra,
                "recent_imports": imports,
            }
        )
        return
    for name, value in counts.items():
        click.echo(f"{name.replace('_', ' '):20} {value}")
    note = coverage.note()
    click.echo(f"{'indexed for search':20} {coverage.level}" + (f"  ({note})" if note else ""))
    _note_if_empty(lib)


def _note_if_empty(lib) -> None:
    """An empty library gets one line on stderr saying how to fill it (the output stays parseable)."""
    from scholar_tui.core.readiness import library_missing

    missing = library_missing(lib)
    if missing is not None:
        click.echo(click.style(missing.summary(), fg="yellow"), err=True)


@library.command("search")
@click.argument("query")
@click.option("--before", help="Only papers published strictly before this date (YYYY-MM-DD).")
@click.option("--collection", help="Only papers in this collection (a name or a path; sub-collections included).")
@click.option("--tag", help="Only papers with this tag.")
@click.option("--limit", type=whole(), default=10, show_default=True)
@click.option(
    "--cited",
    is_flag=True,
    help="Include the works the library's papers cite (title-only papers made for paper search).",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def library_search(
    obj: Context,
    query: str,
    before: str | None,
    collection: str | None,
    tag: str | None,
    limit: int,
    cited: bool,
    as_json: bool,
) -> None:
    """Hybrid (vector + full-text) search over titles and abstracts of the library's own papers
    (with --cited, of the works they cite too)."""
    from scholar_tui.config.files import StateError
    from scholar_tui.core.readiness import library_missing
    from scholar_tui.indexes.library_search import LibraryIndex, SearchError
    from scholar_tui.models import LLMError, load_embedder

    query = _utf8(query)
    lib = _library(obj)
    missing = library_missing(lib)
    if missing is not None:  # before loading the embedder: there is nothing to search
        raise click.ClickException(missing.summary())
    within = _labelled(lib, collection, tag)
    index = None
    try:
        try:
            index = LibraryIndex(obj.where, load_embedder(obj.settings))
            hits = index.search(lib, query, before=before, limit=limit, within=within, own_only=not cited)
        except (LLMError, StateError) as error:  # no embedder: the words still find papers
            click.echo(click.style(f"words-only search (the embedder cannot be used: {error})", fg="yellow"), err=True)
            index = LibraryIndex(obj.where, None)
            hits = index.search(lib, query, before=before, limit=limit, within=within, own_only=not cited)
        else:
            if index is not None and index.missing:
                click.echo(click.style(_missing_line(index.missing), fg="yellow"), err=True)
    except SearchError as error:
        raise click.ClickException(str(error)) from error
    if as_json:
        emit_json([hit.as_dict() for hit in hits])
        return
    if not hits:
        click.echo("no papers found" + (f" before {before}" if before else ""))
    for hit in hits:
        ranks = f"vector #{hit.vector_rank or '-'} text #{hit.text_rank or '-'}"
        click.echo(f"paper:{hit.paper_id:<5} {hit.date or '????-??-??'}  {show_controls(hit.title)}  [{ranks}]")
    if index is not None and index.cited_left_out:
        click.echo(_cited_line(index.cited_left_out))


def _cited_line(count: int) -> str:
    """What an own-papers search left out, and how to see it."""
    from scholar_tui.indexes.search_changes import CITED_COUNT_CAP

    many = f"{CITED_COUNT_CAP}+" if count >= CITED_COUNT_CAP else str(count)
    works = "cited work" if count == 1 else "cited works"
    return f"{many} {works} (what these papers cite) also match: --cited includes them"


def _missing_line(missing: int) -> str:
    return (
        f"{missing} papers have no vector yet: found by their words only "
        "(`scholar-tui library index` computes the vectors)"
    )


@library.command("index")
@click.pass_obj
def library_index(obj: Context) -> None:
    """Compute the vectors of the papers that lack one (after a large import, or another embedding
    model). A progress bar with the time left; Ctrl-C stops it and the next run goes on from there.
    Searches work meanwhile: by words for every paper, by meaning for those with a vector."""
    lib = _library(obj)
    finished = _sync_index(obj, lib, quiet=False)
    if finished is None:
        raise click.ClickException("the search index was not updated")
    click.echo(
        f"search index: embedded {finished['embedded']} papers in {finished['seconds']:.1f} s, "
        f"dropped {finished['removed']} out of date ({finished['indexed']} papers have vectors)"
    )


def _labelled(lib, collection: str | None, tag: str | None) -> set[int] | None:
    from scholar_tui.core.library.labels import LabelError, labelled_papers

    try:
        return labelled_papers(lib, collection, tag)
    except LabelError as error:  # it lists the library's collections: outside text
        raise click.ClickException(terminal_text(str(error))) from error


def _utf8(argument: str) -> str:
    """An argument as valid text: bytes that were not UTF-8 (a shell's $'\\xff') become U+FFFD.

    Python hands such bytes over as lone surrogates, which no encoder, index or terminal accepts."""
    return argument.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _resolve(lib, paper: str) -> int:
    paper = _utf8(paper)
    paper_id = lib.resolve_paper(paper)
    if paper_id is None:
        raise click.ClickException(
            f"no paper {show_controls(paper)!r} in the library (use paper:N, an arXiv id, a DOI or an OpenAlex id)"
        )
    return paper_id


def _links(reference: dict) -> str:
    links = []
    if reference["cited_paper_id"]:
        links.append(f"in library: paper:{reference['cited_paper_id']}")
    if reference["arxiv_id"]:
        links.append(f"arXiv:{reference['arxiv_id']}")
    if reference["doi"]:
        links.append(f"doi:{reference['doi']}")
    if reference["openalex_id"]:
        links.append(f"OpenAlex {reference['openalex_id']}")
    return "; ".join(links)


@library.command("show")
@click.argument("paper")
@click.option("--references/--no-references", default=True, help="List the references with their links.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def library_show(obj: Context, paper: str, references: bool, as_json: bool) -> None:
    """One paper: PAPER is paper:N, an arXiv id, a DOI or an OpenAlex id."""
    lib = _library(obj)
    paper_id = _resolve(lib, paper)
    row = lib.paper(paper_id)
    authors = lib.paper_authors(paper_id)
    sections = lib.sections(paper_id)
    refs = lib.references(paper_id)
    if as_json:
        emit_json(
            {
                **row,
                "pub_id": f"paper:{paper_id}",
                "authors": authors,
                "sections": [
                    {key: value for key, value in section.items() if key != "text"}
                    | {
                        "characters": len(section["text"]),
                        "reference_ids": [r["id"] for r in lib.references(paper_id, section["id"])],
                    }
                    for section in sections
                ],
                "references": refs,
                "cited_by": [f"paper:{citing}" for citing in lib.cited_by(paper_id)],
                "sources": lib.paper_sources(paper_id),
                **lib.paper_labels(paper_id),
                "merges": lib.work_merges(paper_id=paper_id),
            }
        )
        return
    safe = show_controls  # data imported before control characters were stripped may hold some
    click.echo(click.style(safe(row["title"]), bold=True))
    click.echo(safe(", ".join(author["name"] for author in authors)))
    ids = [f"paper:{paper_id}"] + [
        f"{label} {row[key]}"
        for label, key in (("arXiv", "arxiv_id"), ("doi", "doi"), ("OpenAlex", "openalex_id"))
        if row[key]
    ]
    click.echo(safe(f"{row['date'] or 'date unknown'} · {row['venue'] or 'venue unknown'} · {' · '.join(ids)}"))
    if row["cited_by_count"] is not None:
        click.echo(f"cited by {row['cited_by_count']} (source count)")
    if row.get("pdf_path"):
        click.echo(safe(f"PDF: {row['pdf_path']}"))
    _echo_sources(lib, paper_id)
    if row["abstract"]:
        click.echo("\n" + safe(row["abstract"]))
    if sections:
        click.echo(click.style(f"\nSections ({len(sections)})", bold=True))
        for section in sections:
            number = f"{section['number']} " if section["number"] else ""
            page = f"  p. {section['page']}" if section.get("page") else ""
            click.echo(
                safe(f"  {number}{section['title'] or '(untitled)'}{page}  [{section['reference_count']} references]")
            )
    if references and refs:
        click.echo(click.style(f"\nReferences ({len(refs)})", bold=True))
        for reference in refs:
            label = f"[{reference['ordinal']}]" if reference["ordinal"] else "[-]"
            text = reference["raw"] or reference["cited_title"] or reference["openalex_id"]
            links = _links(reference)
            click.echo(safe(f"  {label} {text}" + (f"\n      {links}" if links else "")))


def _echo_sources(lib, paper_id: int) -> None:
    """Where the paper came from (every source id kept), and the merges that made it one record."""
    sources = lib.paper_sources(paper_id)
    if sources:
        listed = "; ".join(
            f"{row['source']} {row['source_id']}" + (f" ({row['library']})" if row["library"] else "")
            for row in sources
        )
        click.echo(show_controls(f"sources: {listed}"))
    labels = lib.paper_labels(paper_id)
    if labels["collections"] or labels["tags"]:
        click.echo(
            show_controls(
                f"collections: {'; '.join(labels['collections']) or '-'} · tags: {', '.join(labels['tags']) or '-'}"
            )
        )
    for merge in lib.work_merges(paper_id=paper_id):
        click.echo(
            show_controls(
                f"merge {merge['id']}: “{merge['title']}” from {merge['record_source']} — "
                f"{merge['evidence']}; undo: scholar-tui library split paper:{paper_id} "
                f"--merge {merge['id']}"
            )
        )


@library.command("merges")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def library_merges(obj: Context, as_json: bool) -> None:
    """Every merge of two records into one paper in force, with its evidence (undo: library split)."""
    lib = _library(obj)
    merges = lib.work_merges()
    if as_json:
        emit_json(merges)
        return
    if not merges:
        click.echo("no records merged")
    for merge in merges:
        click.echo(
            show_controls(
                f"merge {merge['id']}: “{merge['title']}” ({merge['record_source']}) → "
                f"paper:{merge['kept_id']} ({merge['evidence']})"
            )
        )


@library.command("split")
@click.argument("paper")
@click.option("--merge", "merge_id", type=int, help="Undo only this merge (default: every merge into PAPER).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def library_split(obj: Context, paper: str, merge_id: int | None, as_json: bool) -> None:
    """Undo merges into PAPER: each merged record becomes its own paper again, with its source,
    ids, collections and tags, and later imports keep the two apart."""
    lib = _library(obj)
    paper_id = _resolve(lib, paper)
    merges = [m for m in lib.work_merges(paper_id=paper_id) if merge_id is None or m["id"] == merge_id]
    if not merges:
        raise click.ClickException(
            f"paper:{paper_id} has no merge{' ' + str(merge_id) if merge_id else ''} to undo "
            "(`scholar-tui library merges` lists them)"
        )
    with lib.transaction():
        restored = [lib.split_work_merge(merge["id"]) for merge in reversed(merges)]
    if as_json:
        emit_json(restored)
        return
    for item in restored:
        click.echo(
            show_controls(
                f"paper:{item['restored_id']} “{item['title']}” is its own paper again; "
                f"paper:{item['kept_id']} keeps the rest"
            )
        )


@library.command("collections")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def library_collections(obj: Context, as_json: bool) -> None:
    """The collections and tags imported from reference managers, with how many papers each holds."""
    lib = _library(obj)
    collections, tags = lib.collections(), lib.tags()
    if as_json:
        emit_json({"collections": collections, "tags": tags})
        return
    click.echo(f"{len(collections)} collections")
    for row in collections:
        click.echo(show_controls(f"  {row['path']}  ({row['papers']} papers)"))
    click.echo(f"{len(tags)} tags: " + show_controls(", ".join(f"{row['tag']} ({row['papers']})" for row in tags)))


@library.command("export-bibtex")
@click.argument("output", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.pass_obj
def library_export_bibtex(obj: Context, output: Path | None) -> None:
    """Write every paper as BibTeX to OUTPUT (default: standard output); `library export` has RIS and CSL-JSON."""
    from scholar_tui.core.exports import ExportError, export_papers, gather, to_bibtex

    lib = _library(obj)
    try:
        references = gather(lib)
    finally:
        lib.close()
    if output is None:
        text, count = to_bibtex(references)
        click.echo(text, nl=False)
        click.echo(f"{count} entries", err=True)
        return
    try:
        written = export_papers(output, "bib", references)
    except ExportError as error:
        raise click.ClickException(str(error)) from error
    click.echo(written.summary(), err=True)


# -- online ----------------------------------------------------------------------------------------
@library.group("online")
def library_online() -> None:
    """Ask OpenAlex or arXiv; what comes back is cached into the library."""


def _say_now(line: str) -> None:
    """A notice while a command waits (an online source stopped answering): on stderr, at once."""
    click.echo(line, err=True)


def _online(obj: Context, run) -> tuple[Any, list[int]]:
    from scholar_tui.core.library.online import OfflineError, OnlineSources, SourceError
    from scholar_tui.indexes.library import LibraryBusy

    lib = _library(obj)
    sources = OnlineSources(lib, obj.settings.network)
    sources.http.notice = _say_now
    try:
        return lib, run(sources)
    except (OfflineError, SourceError, LibraryBusy) as error:
        raise click.ClickException(str(error)) from error


def _print_papers(lib, paper_ids: list[int], as_json: bool) -> None:
    papers = lib.papers(paper_ids)
    rows = [papers[paper_id] for paper_id in paper_ids if paper_id in papers]
    if as_json:
        emit_json([{"pub_id": f"paper:{row['id']}", **row} for row in rows])
        return
    for row in rows:
        click.echo(f"paper:{row['id']:<5} {row['date'] or '????'}  {show_controls(row['title'])}")
    click.echo(f"{len(rows)} papers cached in the library", err=True)


def _picked(pick: str, count: int) -> list[int]:
    """'all', '1,3-5' -> 0-based indexes of the results (numbered from 1 as they are listed)."""
    if pick.strip().lower() == "all":
        return list(range(count))
    chosen: list[int] = []
    for part in pick.split(","):
        first, _, last = part.strip().partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise click.BadParameter(f"{part!r}: use numbers from the list, e.g. 1,3-5, or all", param_hint="--pick")
        chosen += [n - 1 for n in range(int(first), int(last or first) + 1) if 1 <= n <= count]
    return list(dict.fromkeys(chosen))


@library_online.command("search")
@click.argument("source", type=click.Choice(["openalex", "arxiv"]))
@click.argument("query")
@click.option("--before", help="Only papers published strictly before this date (YYYY-MM-DD).")
@click.option("--limit", type=whole(), default=25, show_default=True)
@click.option(
    "--pick",
    default="all",
    show_default=True,
    help="Which results to add, by their number in the list: 'all', '1,3-5'.",
)
@click.option("--list-only", is_flag=True, help="Only list the results; add nothing.")
@click.option(
    "--references/--no-references",
    default=True,
    show_default=True,
    help="Also add the works the chosen papers cite (OpenAlex lists them).",
)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def online_search(
    obj: Context,
    source: str,
    query: str,
    before: str | None,
    limit: int,
    pick: str,
    list_only: bool,
    references: bool,
    as_json: bool,
) -> None:
    """Search SOURCE for QUERY (arXiv also takes its own syntax: au:del_maestro) and add the results
    you pick to the library, with the works they cite when OpenAlex has them."""
    from scholar_tui.core.library.online import AddFinished, AddProgress, OnlineFailed, open_online

    sources = open_online(obj.where, obj.settings.network)
    sources.http.notice = _say_now
    found = next(iter(sources.search(source, query, before=before, limit=limit)))
    if isinstance(found, OnlineFailed):
        raise click.ClickException(found.summary())
    records = found.records
    if not as_json or list_only:
        for number, record in enumerate(records, start=1):
            authors = ", ".join(author.name for author in record.authors[:3]) + (
                " …" if len(record.authors) > 3 else ""
            )
            click.echo(f"{number:>3}. {record.date or '????'}  {record.title}  — {authors}", err=as_json)
        click.echo(found.summary(), err=True)
    if list_only:
        if as_json:
            emit_json(
                [
                    {
                        "number": n,
                        "title": r.title,
                        "date": r.date,
                        "arxiv_id": r.arxiv_id,
                        "openalex_id": r.openalex_id,
                        "authors": [a.name for a in r.authors],
                    }
                    for n, r in enumerate(records, start=1)
                ]
            )
        return
    chosen = [records[index] for index in _picked(pick, len(records))]
    finished = None
    for event in sources.add(chosen, query=query if source == "arxiv" else "", references=references):
        if isinstance(event, AddProgress) and not as_json:
            click.echo(f"\r{event.summary()}", nl=False, err=True)  # progress on one line of stderr
        elif isinstance(event, AddFinished):
            finished = event
    assert finished is not None
    click.echo(("\n" if not as_json else "") + finished.summary(), err=True)
    for line in finished.merged:
        click.echo(f"  merged: {line}", err=True)
    _print_papers(sources.library, finished.paper_ids, as_json)


@library_online.command("references")
@click.argument("paper")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def online_references(obj: Context, paper: str, as_json: bool) -> None:
    """Fetch from OpenAlex the works PAPER cites (it needs an OpenAlex id)."""
    paper_id = _resolve(_library(obj), paper)
    lib, ids = _online(obj, lambda s: s.fetch_references(paper_id))
    _print_papers(lib, ids, as_json)


@library_online.command("cited-by")
@click.argument("paper")
@click.option("--limit", type=whole(), default=25, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def online_cited_by(obj: Context, paper: str, limit: int, as_json: bool) -> None:
    """Fetch from OpenAlex the works that cite PAPER."""
    paper_id = _resolve(_library(obj), paper)
    lib, ids = _online(obj, lambda s: s.fetch_cited_by(paper_id, limit=limit))
    _print_papers(lib, ids, as_json)


# -- people: one person under many spellings ---------------------------------------------------------
@library.group("person")
def library_person() -> None:
    """Scholars in the library: their aliases, and the merges of name variants (undo with split)."""


def _person(lib, person: str) -> int:
    person_id = lib.resolve_person(person)
    if person_id is None:
        from scholar_tui.core.library.apis import local_api

        hits = local_api(lib).searchPerson(name=person)
        person_id = int(hits[0]["person_id"].split(":")[1]) if hits else None
    if person_id is None:
        raise click.ClickException(
            f"no person {person!r} in the library (use person:N or a name; "
            "`scholar-tui api searchPerson --name …` lists them)"
        )
    return person_id


@library_person.command("show")
@click.argument("person")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def person_show(obj: Context, person: str, as_json: bool) -> None:
    """PERSON (person:N or a name): aliases, papers, and the merges that made them one person."""
    lib = _library(obj)
    person_id = _person(lib, person)
    row = lib.person(person_id)
    papers = lib.person_papers(person_id)
    merges = lib.person_merges(person_id)
    if as_json:
        emit_json(
            {
                "person_id": f"person:{person_id}",
                "name": row["name"],
                "aliases": row["names"],
                "num_pubs": len(papers),
                "merges": merges,
            }
        )
        return
    click.echo(click.style(f"person:{person_id} {row['name']}", bold=True) + f" · {len(papers)} papers in the library")
    click.echo(f"aliases: {'; '.join(row['names'])}")
    for merge in merges:
        click.echo(
            f"merge {merge['id']}: “{merge['merged_name']}” (was person:{merge['merged_id']}) — "
            f"{merge['evidence']}; undo: scholar-tui library person split person:{person_id} --merge {merge['id']}"
        )


@library_person.command("merges")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def person_merges(obj: Context, as_json: bool) -> None:
    """Every merge of name variants in force, with its evidence."""
    lib = _library(obj)
    merges = lib.person_merges()
    if as_json:
        emit_json(merges)
        return
    if not merges:
        click.echo("no name variants merged")
    for merge in merges:
        kept = lib.person(merge["kept_id"])
        click.echo(
            f"merge {merge['id']}: “{merge['merged_name']}” → person:{merge['kept_id']} “{kept['name']}” "
            f"({merge['evidence']})"
        )


@library_person.command("split")
@click.argument("person")
@click.option("--merge", "merge_id", type=int, help="Undo only this merge (default: every merge into PERSON).")
@click.option("--json", "as_json", is_flag=True)
@click.pass_obj
def person_split(obj: Context, person: str, merge_id: int | None, as_json: bool) -> None:
    """Undo merges into PERSON: the merged spellings become their own people again, and later
    imports keep them apart."""
    from scholar_tui.core.library.identity import split_person

    lib = _library(obj)
    person_id = _person(lib, person)
    try:
        with lib.transaction():
            restored = split_person(lib, person_id, merge_id)
    except (ValueError, KeyError) as error:
        raise click.ClickException(str(error).strip("'\"")) from error
    if as_json:
        emit_json(restored)
        return
    for item in restored:
        papers = len(lib.person_papers(item["restored_id"]))
        click.echo(
            f"person:{item['restored_id']} “{item['restored_name']}” is its own person again ({papers} papers); "
            f"person:{person_id} keeps {len(lib.person_papers(person_id))}"
        )


# -- api ---------------------------------------------------------------------------------------------
def _api_command(spec) -> click.Command:
    def callback(backend: str, **arguments: Any) -> None:
        from scholar_tui.core.library.apis import APIError, local_api, openalex_api

        obj: Context = click.get_current_context().obj
        lib = _library(obj)
        api = local_api(lib) if backend == "local" else openalex_api(obj.settings.network, lib, notice=_say_now)
        given = {name: value for name, value in arguments.items() if value is not None}
        if backend == "local":
            _note_if_empty(lib)
        try:
            emit_json(api.call(spec.name, **given))
        except APIError as error:
            raise click.ClickException(str(error)) from error

    params: list[click.Parameter] = [
        click.Option(
            [f"--{p.name.replace('_', '-')}", *([f"--{p.name}"] if "_" in p.name else []), p.name],
            help=p.description + (" (required)" if p.required else ""),
        )
        for p in spec.parameters
    ]
    params.append(
        click.Option(
            ["--backend"],
            type=click.Choice(["local", "openalex"]),
            default="local",
            show_default=True,
            help="Answer from the local library or from OpenAlex.",
        )
    )
    return click.Command(spec.name, callback=callback, params=params, help=f"{spec.signature()}\n\n{spec.description}")


class _APIGroup(click.Group):
    """`api list` plus one subcommand per API spec (names are the APIs' own camelCase)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from scholar_tui.core.library.apis import SPECS

        return ["list", *SPECS]

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        from scholar_tui.core.library.apis import SPECS

        if name in SPECS:
            return _api_command(SPECS[name])
        return super().get_command(ctx, name)


@click.group(cls=_APIGroup)
def api() -> None:
    """The academic API library (SoAy's seven APIs): `api list`, or `api NAME --param value`."""


@api.command("list")
@click.option("--json", "as_json", is_flag=True, help="The full machine-readable specs.")
def api_list(as_json: bool) -> None:
    """The APIs with their parameters, returns and error codes."""
    from scholar_tui.core.library.apis import ERROR_CODES, SPECS, specs_as_dicts

    if as_json:
        emit_json({"apis": specs_as_dicts(), "error_codes": ERROR_CODES})
        return
    for spec in SPECS.values():
        click.echo(click.style(spec.signature(), bold=True))
        click.echo(f"  {spec.description}")
        for p in spec.parameters:
            click.echo(f"  - {p.name} ({p.type}, {'required' if p.required else 'optional'}): {p.description}")
        if spec.at_least_one_of:
            click.echo(f"  at least one of: {', '.join(spec.at_least_one_of)}")
        click.echo(f"  returns {spec.returns_type}: {', '.join(f.name for f in spec.returns)}")
        click.echo(f"  errors: {', '.join(spec.errors)}\n")
    click.echo("error codes:")
    for code, meaning in ERROR_CODES.items():
        click.echo(f"  {code}: {meaning}")
