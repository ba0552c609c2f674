"""PaSa paper search (issue #6): a Crawler and a Selector over the library, offline and online.

Modules, in the order a run uses them:

- ``works`` / ``reference_titles``: cited works become library papers (titles read out of raw
  bibliography strings), so that [Expand] has papers to add and [Search] can find them offline;
- ``phrases``: the user query's key phrases, the [Search] queries a tiny model picks from;
- ``actions``: the GBNF grammar of a Crawler session (real section names only, no repeats);
- ``crawler`` / ``selector``: the two agents (Table 8 and Table 15 prompts, decision token first);
- ``tools``: search (library hybrid search + arXiv/OpenAlex) and expand (a section's citations);
- ``queue``: the paper queue, depth limit and budgets; ``engine``: the loop, as typed ``events``;
- ``queries`` / ``metrics`` / ``bench``: the AutoScholarQuery-style set built from the library,
  PaSa's metrics, and PaSa against plain search; ``export``: BibTeX and JSON.

``setup.build_agent`` puts an agent together; ``scholar-tui search``, ``scholar-tui bench pasa``
and the Paper search tab consume the same event stream.
"""
