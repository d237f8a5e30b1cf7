"""Pages anyone can open: a run, or a batch's report with a page for each of its runs, as self-contained HTML
(``genplan export``, ``genplan report --html``, the TUI's export key)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from genplan.engine.errors import GenplanError
from genplan.engine.runs.layout import is_run_dir, page_file

__all__ = ["ExportError", "PageWritten", "check_target", "default_page", "export_batch", "export_run", "run_page_name"]


class ExportError(GenplanError):
    """A page could not be made: no run there, no batch there, or the file cannot be written."""


@dataclass(frozen=True)
class PageWritten:
    path: Path
    size: int  # bytes
    pages: int = 1  # a batch: its report and every run's page


def export_run(run_dir: Path, out: Path, *, back_link: str | None = None, force: bool = False) -> PageWritten:
    """The page of the run in ``run_dir``, written to ``out`` (its folder made when missing). An existing ``out``
    is replaced only when it is a page genplan wrote (an export again), or with ``force`` (ExportError otherwise,
    before anything is written)."""
    from genplan.engine.share.collect import collect
    from genplan.engine.share.render import run_page

    run_dir = Path(run_dir)
    if not is_run_dir(run_dir):
        raise ExportError(f"{run_dir}: not a run directory (no run.json)")
    check_target(Path(out), force=force)
    return _write(Path(out), run_page(collect(run_dir), back_link=back_link))


# every page genplan writes says so in its head (templates/*.html.j2)
_GENPLAN_PAGE = b'<meta name="generator" content="genplan'


def check_target(out: Path, *, force: bool = False) -> None:
    """Whether a page may be written to ``out``: a new file, a page genplan wrote (replaced: the same page made
    again), or anything else with ``force``; ExportError (one line) for a directory, or for another file."""
    if out.is_dir():
        raise ExportError(f"{out}: is a directory; give the page's file name")
    if force or not out.exists():
        return
    try:
        with out.open("rb") as existing:
            head = existing.read(4096)
    except OSError as exc:
        raise ExportError(f"{out}: cannot be read to check it ({exc.strerror or exc})") from None
    if _GENPLAN_PAGE not in head:
        raise ExportError(f"{out}: exists and is not a page genplan wrote; not replaced (--force replaces it)")


def default_page(run_dir: Path) -> Path:
    """Where a run's page goes unless told otherwise: beside its files, named after the run."""
    return page_file(Path(run_dir))


def run_page_name(run_dir: Path) -> str:
    """The file name a batch's report gives a run's page."""
    return f"{Path(run_dir).name}.html"


def export_batch(batch_dir: Path, out: Path | None = None, *, force: bool = False) -> PageWritten:
    """The report of a batch as a page (default ``BATCH_DIR/report/report.html``), with every run's page written
    beside it in ``runs/`` and linked from its row. An existing ``out`` is replaced as :func:`export_run` says."""
    from genplan.engine.report.charts import coverage_svg, scatter_plots
    from genplan.engine.report.data import ReportError, load_batch
    from genplan.engine.report.paper_tables import all_tables
    from genplan.engine.share.render import batch_page

    try:
        data = load_batch(batch_dir)
    except ReportError as exc:
        raise ExportError(str(exc)) from None
    out = Path(out) if out is not None else Path(batch_dir) / "report" / "report.html"
    check_target(out, force=force)
    tables = all_tables(data)
    charts = dict(scatter_plots(data))
    coverage = next((t for t in tables if t.name == "coverage"), None)
    if coverage is not None:
        charts = {"coverage.svg": coverage_svg(coverage), **charts}
    runs = []
    pages = 1
    for record in data.runs:
        row = {"domain": record.domain, "preset": record.preset, "model": record.model, "seed": record.seed,
               "status": record.status or "not started", "calls": record.calls, "run": record.run_dir.name,
               "link": None}
        row["outcome"] = ""
        if is_run_dir(record.run_dir):  # what the run's own page says of it: its account
            from genplan.engine.account import account_of
            from genplan.engine.runs.account import count_words

            account = account_of(record.run_dir)
            row.update(status=account.outcome.status_words, outcome=account.outcome.facts.headline,
                       calls=count_words(account.counts))
            link = f"runs/{run_page_name(record.run_dir)}"
            export_run(record.run_dir, out.parent / link, back_link=f"../{out.name}", force=force)
            row["link"] = link
            pages += 1
        runs.append(row)
    written = _write(out, batch_page(f"Batch {data.name}", tables, charts, runs))
    return PageWritten(written.path, written.size, pages)


def _write(out: Path, page: str) -> PageWritten:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"{out}: cannot write the page ({exc.strerror or exc})") from None
    return PageWritten(out, out.stat().st_size)
