"""Runs anyone can open: a run or a batch as one self-contained HTML page.

:mod:`.collect` reads a run directory (its run.json, event log, requests and answers, versions, check results,
counterexamples, an own-loop run's records) into plain data; :mod:`.render` turns that into one HTML file with
its CSS and script inline and nothing loaded from the network (code highlighted by pygments, laid out by
jinja2 templates). Every text on the way out is scrubbed of the secrets genplan knows of (API keys in the
environment, the config file's key, keys registered by a run), so a page can be posted as it is.
Front ends reach this through :mod:`genplan.engine.api.share`.
"""
