"""AutoToS prompts: rendered from ``prompts/autotos/*.j2`` (one file per prompt). The feedback after a failed
check is made in ``engine/feedback/autotos.py`` with the same templates."""

from __future__ import annotations

import importlib.resources
import json
from functools import lru_cache
from typing import Any

import jinja2


class _Loader(jinja2.BaseLoader):
    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        name = template.removeprefix("autotos/")
        name = name if name.endswith(".j2") else name + ".j2"
        resource = importlib.resources.files("genplan.prompts").joinpath("autotos", name)
        if not resource.is_file():
            raise jinja2.TemplateNotFound(template)
        return resource.read_text(encoding="utf-8"), f"prompts/autotos/{name}", lambda: True


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=_Loader(), undefined=jinja2.StrictUndefined, keep_trailing_newline=False,
                              autoescape=False)


def render(name: str, **values: Any) -> str:
    return _environment().get_template(name).render(**values).strip() + "\n"


def show(value: Any) -> str:
    """A state as the model sees it: Python literal syntax (tuples stay tuples)."""
    return repr(value) if not isinstance(value, str) else value


def first_prompts(domain: str, examples: dict[str, Any]) -> tuple[str, str]:
    """(successor prompt, goal prompt) of a domain."""
    values = {k: (v if isinstance(v, (str, bool)) else show(v)) for k, v in examples.items()}
    return render(f"succ_{domain}", **values), render(f"goal_{domain}", **values)


def system_prompt() -> str:
    return render("system")


def summary_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
