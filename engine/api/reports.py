"""What a front end needs to report on batches: reading a batch directory, the paper's tables (and the paper's own
numbers beside them), rendering them for a terminal, Markdown or JSON, writing the report files; and the
reproduction of the paper (its domains, the experiment file, the published numbers). ``genplan report`` and
``genplan reproduce`` use these."""

from __future__ import annotations

from genplan.engine.report.beside_paper import tables_beside_paper
from genplan.engine.report.data import ReportError, load_batch
from genplan.engine.report.paper import load_paper_numbers
from genplan.engine.report.paper_tables import all_tables
from genplan.engine.report.render import to_json, to_markdown, to_terminal
from genplan.engine.report.write import write_report
from genplan.engine.reproduce import (
    ReproduceError,
    domain_listing,
    experiment_text,
    find_domains,
    load_published,
    published_table,
)

__all__ = [
    "ReportError", "ReproduceError", "all_tables", "domain_listing", "experiment_text", "find_domains",
    "load_batch", "load_paper_numbers", "load_published", "published_table", "tables_beside_paper", "to_json",
    "to_markdown", "to_terminal", "write_report",
]
