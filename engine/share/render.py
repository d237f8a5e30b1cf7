"""The page itself: jinja2 templates with the stylesheet and the script inline, code highlighted by pygments.

The long texts of a run (prompts, answers, versions, feedback) go into one JSON block that the page's script
reads; the script fills a request's messages in when a reader opens it, so a page of a hundred model calls
opens at once. Every text is scrubbed of known secrets before it is written (:func:`scrub`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import MarkdownLexer, PythonLexer, SchemeLexer, TextLexer

from genplan.engine.sandbox.redact import REDACTED, known_secrets
from genplan.engine.share.collect import RunData, head_facts

_TEMPLATES = resources.files(__package__) / "templates"
_LEXERS: dict[str, type[Lexer]] = {".py": PythonLexer, ".pddl": SchemeLexer, ".md": MarkdownLexer}


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FunctionLoader(_template), autoescape=True, trim_blocks=True,
                             lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["highlighted"] = highlighted
    env.filters["json_inline"] = json_inline
    return env


def _template(name: str) -> str:
    return (_TEMPLATES / name).read_text(encoding="utf-8")


def highlighted(text: str, file: str = "") -> str:
    """``text`` as highlighted HTML (pygments), by the file's extension; plain text for other files."""
    lexer = _LEXERS.get(Path(file).suffix, TextLexer)()
    return str(highlight(text, lexer, HtmlFormatter(nowrap=True)))


def json_inline(value: Any) -> str:
    """JSON that is safe inside a <script> element (no ``</script>``, no HTML comment opener)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def secrets(extra: Iterable[str | None] = ()) -> list[str]:
    """What no page may contain: the keys genplan knows of (the environment's API keys and tokens, the config
    file's key, keys registered by a run) and ``extra`` values, longest first."""
    found = set(known_secrets()) | {s for s in extra if s and len(s) >= 8}
    return sorted(found, key=len, reverse=True)


def scrub(page: str, known: Iterable[str]) -> str:
    for secret in known:
        page = page.replace(secret, REDACTED)
    return page


def _common() -> dict[str, Any]:
    return {"css": _template("page.css") + HtmlFormatter().get_style_defs(".hl"), "script": _template("page.js")}


def run_page(data: RunData, *, back_link: str | None = None) -> str:
    """The run's page as one HTML text, secrets scrubbed."""
    payload = {
        "texts": data.texts.items,
        "versions": [{"kind": v.kind, "name": v.name, "text": v.text, "file": v.file, "artefact": v.artefact}
                     for v in data.versions],
        "plans": data.plans,
    }
    kinds: dict[str, list[Any]] = {}
    for version in data.versions:
        kinds.setdefault(version.kind, []).append(version)
    page = _environment().get_template("run.html.j2").render(
        run=data, head=head_facts(data.account), kinds=kinds, payload=payload, back_link=back_link, texts=data.texts.items,
        records={name: json.dumps(record, indent=2, ensure_ascii=False, default=str)
                 for name, record in data.records.items()}, **_common())
    return scrub(page, secrets(_key_values(data.meta)))


def _key_values(meta: Mapping[str, Any]) -> list[str | None]:
    """The value of the variable the run's model settings name for the key (it may not look like a secret)."""
    model = meta.get("model")
    name = model.get("api_key_env") if isinstance(model, dict) else None
    return [os.environ.get(name)] if isinstance(name, str) else []


def batch_page(title: str, tables: list[Any], charts: Mapping[str, str], runs: list[dict[str, Any]]) -> str:
    """A batch's report as one page: its tables, its charts (SVG, inline) and a link to each run's page."""
    from genplan.engine.report.render import text_rows

    shown = [{"title": t.title, "columns": t.columns, "rows": text_rows(t), "notes": t.notes} for t in tables]
    page = _environment().get_template("batch.html.j2").render(title=title, tables=shown, charts=charts, runs=runs,
                                                               **_common())
    return scrub(page, secrets())
