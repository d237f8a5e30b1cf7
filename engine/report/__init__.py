"""The paper's tables and figures from a batch directory (see engine/batch/__init__.py for its layout).

One module per step: :mod:`.data` (``load_batch``) reads what the runs left on disk; :mod:`.paper_tables`
turns that into plain :class:`~.table.Table` values (numbers, not text); :mod:`.render` writes them as a
terminal table, Markdown, CSV and JSON; :mod:`.charts` draws the plots as SVG with the few primitives of
:mod:`.svg` (no plotting library: none is a dependency); :mod:`.write` puts every format into a directory.

- coverage: per domain, the average coverage over the seeds and the coverage of the best run, for each
  model and preset (Stein et al., Tables 1-2), with the average over the domains;
- errors: per model and preset, the runs whose generation stopped (incomplete) and, of the runs whose
  program failed some task, the share in which each error type occurred (Table 5);
- budget: model calls, tokens (input + output) and generation time per run, averaged over the seeds and
  then over the domains, with the ratios between presets (Table 9), and per domain (Figures 10-11);
- planner: the best run's program against the satisficing planner on the commonly solved tasks: mean
  runtime and plan length ratios and how often the program is at least as fast / short (Table 6);
- coverage.svg (Figure "coverage per domain"), runtime-<model>-<preset>.svg and length-... .svg
  (log-log scatter of program vs planner with the diagonal, Figures 7-9).
"""
