"""Prompt templates: Jinja2 files in ``genplan.prompts``, one per prompt, overridable by the user.

Templates live in one directory per *variant* (``stein/``, ``baseline/``, ``silver/``), named after
the prompt (``strategy_generate.j2``). A user override directory (``--prompts DIR``) has the same
layout; a file there wins over the built-in file of the same relative name, and everything the user
did not copy falls back to the built-in templates.

Variants fall back along a chain: a template missing in ``baseline/`` is taken from ``stein/``, and
``<variant>-reasoning`` is ``<variant>`` with ``reasoning=True`` (templates leave out their
"think step by step" instructions then). Rendering uses ``StrictUndefined``: a variable a template
needs but the caller did not pass is an error naming the template file and the variable.
"""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from genplan.engine.errors import GenplanError

PACKAGE = "genplan.prompts"
SUFFIX = ".j2"
REASONING_SUFFIX = "-reasoning"
DEFAULT_VARIANT = "stein"


@dataclass(frozen=True)
class Variant:
    """A set of prompts. ``fallback`` names the variant that provides templates this one lacks."""

    name: str
    fallback: str | None
    function_name: str  # the function the code prompts ask for (and extraction looks for)
    defaults: dict[str, Any] = field(default_factory=dict)  # variables every template receives


_BASE_VARIANTS: dict[str, Variant] = {
    # reference_prompts: the reference code's restrictions (no search, no external modules); --faithful sets it
    "stein": Variant("stein", None, "generate_solution", {"reasoning": False, "reference_prompts": False}),
    # Bas: Silver's three steps as separate conversations, phrased like ours (reuses system, NL and feedback).
    "baseline": Variant("baseline", "stein", "generate_solution", {"reasoning": False, "reference_prompts": False}),
    # Sil: Silver et al.'s single conversation with their own prompts; no fallback on purpose.
    "silver": Variant("silver", None, "get_plan", {"reasoning": False}),
    # PDDLego+ and PlanGen (Gong et al. 2025): PDDL from text observations; no code is asked for.
    "pddlego": Variant("pddlego", None, "", {"reasoning": False}),
}

# Pipeline step -> template name (inside the variant's directory).
STEP_TEMPLATES: dict[str, str] = {
    "nl.domain": "nl_domain",
    "nl.task": "nl_task",
    "strategy.generate": "strategy_generate",
    "strategy.plan": "strategy_plan",
    "strategy.reflect": "strategy_reflect",
    "strategy.revise": "strategy_revise",
    "code.generate": "code_generate",
    "code.reflect": "code_reflect",
    "code.revise": "code_revise",
    "baseline.summary": "summary",
    "baseline.strategy": "strategy",
    "baseline.code": "code",
    "baseline.fix": "fix",
    "pddlego.pddl": "pddl_update",  # the first call of a trial renders pddl_initial
    "pddlego.plangen": "plangen",
}


class PromptError(GenplanError):
    """A prompt could not be rendered; ``str(err)`` is one line naming the template file."""


class _TemplateRaised(Exception):
    """Raised by ``raise_error(...)`` inside a template (e.g. for an unknown feedback kind)."""


def _raise_error(message: str) -> None:
    raise _TemplateRaised(message)


def variant_info(variant: str) -> Variant:
    """The variant called ``variant``; ``<base>-reasoning`` is derived from ``<base>``."""
    if variant in _BASE_VARIANTS:
        return _BASE_VARIANTS[variant]
    if variant.endswith(REASONING_SUFFIX):
        base = _BASE_VARIANTS.get(variant[: -len(REASONING_SUFFIX)])
        if base is not None:
            return Variant(variant, base.name, base.function_name, {**base.defaults, "reasoning": True})
    raise PromptError(f"unknown prompt variant {variant!r}; known: {', '.join(known_variants())}")


def known_variants() -> list[str]:
    return [v for base in _BASE_VARIANTS for v in (base, base + REASONING_SUFFIX)]


def template_name(name: str) -> str:
    """Accepts a step name (``strategy.generate``), a template name or a file name."""
    name = STEP_TEMPLATES.get(name, name)
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name


class _Loader(jinja2.BaseLoader):
    """Looks a template path (``stein/nl_domain.j2``) up in the override dir, then in the package."""

    def __init__(self, override_dir: Path | None) -> None:
        self.override_dir = override_dir
        self.builtin = importlib.resources.files(PACKAGE)

    def locate(self, path: str) -> tuple[str, Callable[[], str], bool] | None:
        """(where, reader, is_override) for an existing template, else None."""
        parts = [p for p in path.split("/") if p]
        if not parts or any(p in (".", "..") for p in parts):
            return None
        if self.override_dir is not None:
            candidate = self.override_dir.joinpath(*parts)
            if candidate.is_file():
                return str(candidate), lambda: candidate.read_text(encoding="utf-8"), True
        resource = self.builtin
        for part in parts:  # one step at a time: not every Traversable takes several parts
            resource = resource.joinpath(part)
        if resource.is_file():
            return str(resource), lambda: resource.read_text(encoding="utf-8"), False
        return None

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool]]:
        found = self.locate(template)
        if found is None:
            raise jinja2.TemplateNotFound(template)
        where, read, is_override = found
        source = read()
        if not is_override:
            return source, where, lambda: True  # package data does not change while we run
        mtime = Path(where).stat().st_mtime
        return source, where, lambda: Path(where).is_file() and Path(where).stat().st_mtime == mtime

    def list_paths(self) -> set[str]:
        paths: set[str] = set()
        for root, prefix in _walk(self.builtin, ""):
            if root.name.endswith(SUFFIX):
                paths.add(prefix)
        if self.override_dir is not None and self.override_dir.is_dir():
            for file in self.override_dir.rglob("*" + SUFFIX):
                paths.add(file.relative_to(self.override_dir).as_posix())
        return paths


def _walk(node: Any, prefix: str) -> Iterator[tuple[Any, str]]:
    """All files below an importlib.resources Traversable, with their relative posix paths."""
    for child in node.iterdir():
        path = f"{prefix}/{child.name}" if prefix else child.name
        if child.is_dir():
            if child.name != "__pycache__":
                yield from _walk(child, path)
        elif child.is_file():
            yield child, path


def _collapse_blank_lines(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


class PromptLibrary:
    """Renders prompt templates. ``override_dir`` (``--prompts DIR``) is searched before the built-ins."""

    def __init__(self, override_dir: Path | str | None = None) -> None:
        self.override_dir = Path(override_dir) if override_dir is not None else None
        if self.override_dir is not None and not self.override_dir.is_dir():
            raise PromptError(f"{self.override_dir}: prompt directory does not exist")
        self._loader = _Loader(self.override_dir)
        self._env = jinja2.Environment(
            loader=self._loader,
            undefined=jinja2.StrictUndefined,
            autoescape=False,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
        )
        # Python's repr: tasks, plans and outputs are shown to the model as Python values.
        self._env.filters["pyrepr"] = repr
        # Lets a template reject a variable value it does not know, e.g. an unknown feedback kind.
        self._env.globals["raise_error"] = _raise_error

    # ------------------------------------------------------------------ lookup
    def _chain(self, variant: str) -> list[Variant]:
        chain: list[Variant] = []
        current: str | None = variant
        while current is not None:
            info = variant_info(current)
            chain.append(info)
            current = info.fallback
        return chain

    def resolve(self, name: str, variant: str = DEFAULT_VARIANT) -> str:
        """The template path (``stein/code_reflect.j2``) used for ``name`` in ``variant``."""
        base = template_name(name)
        for info in self._chain(variant):
            path = f"{info.name}/{base}{SUFFIX}"
            if self._loader.locate(path) is not None:
                return path
        searched = ", ".join(f"{v.name}/" for v in self._chain(variant))
        raise PromptError(f"no prompt template {base}{SUFFIX} for variant {variant!r} (searched {searched})")

    def source_file(self, name: str, variant: str = DEFAULT_VARIANT) -> str:
        """Where the template for ``name`` is read from (an override file or the built-in one)."""
        found = self._loader.locate(self.resolve(name, variant))
        assert found is not None
        return found[0]

    def read_file(self, path: str) -> str:
        """A file shipped beside the templates (e.g. ``pddlego/coincollector_domain.pddl``), from the override
        directory when it has one."""
        found = self._loader.locate(path)
        if found is None:
            raise PromptError(f"no file {path} among the prompts" + (f" or in {self.override_dir}" if self.override_dir else ""))
        return found[1]()

    def list_templates(self, variant: str | None = None) -> list[str]:
        """Template paths (``variant/name.j2``); with a variant, the names it can render (partials excluded)."""
        paths = self._loader.list_paths()
        if variant is None:
            return sorted(paths)
        names: set[str] = set()
        for info in self._chain(variant):
            prefix = info.name + "/"
            names.update(
                p[len(prefix) : -len(SUFFIX)]
                for p in paths
                if p.startswith(prefix) and "/" not in p[len(prefix) :] and not p[len(prefix) :].startswith("_")
            )
        return sorted(names)

    def function_name(self, variant: str = DEFAULT_VARIANT) -> str:
        return variant_info(variant).function_name

    # --------------------------------------------------------------- rendering
    def render(self, name: str, variant: str = DEFAULT_VARIANT, **variables: Any) -> str:
        """Render the prompt ``name`` (template or step name) of ``variant`` with ``variables``."""
        path = self.resolve(name, variant)
        context = {**variant_info(variant).defaults, **variables}
        try:
            template = self._env.get_template(path)
            text = template.render(**context)
        except jinja2.TemplateSyntaxError as err:
            where = err.filename or path
            raise PromptError(f"{where}:{err.lineno}: template syntax error: {err.message}") from None
        except jinja2.TemplateNotFound as err:
            raise PromptError(f"{self.source_file(name, variant)}: includes missing template {err.name}") from None
        except jinja2.UndefinedError as err:
            where = _template_frame(err) or self.source_file(name, variant)
            given = ", ".join(sorted(variables)) or "none"
            raise PromptError(f"{where}: {_undefined_message(err)} (variables given: {given})") from None
        except _TemplateRaised as err:
            where = _template_frame(err) or self.source_file(name, variant)
            raise PromptError(f"{where}: {err}") from None
        return _collapse_blank_lines(text)


def _undefined_message(err: jinja2.UndefinedError) -> str:
    match = re.match(r"'([^']+)' is undefined", str(err))
    if match:
        return f"missing variable {match.group(1)!r}"
    return f"undefined value: {err}"


def _template_frame(err: BaseException) -> str | None:
    """``file:line`` of the innermost template frame in the traceback (Jinja rewrites frames to templates)."""
    where = None
    tb = err.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith(SUFFIX):
            where = f"{filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return where


# ------------------------------------------------------------------ AutoToS's templates (prompts/autotos/*.j2)
class _AutoToSLoader(jinja2.BaseLoader):
    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Any]:
        name = template.removeprefix("autotos/")
        name = name if name.endswith(".j2") else name + ".j2"
        resource = importlib.resources.files("genplan.prompts").joinpath("autotos", name)
        if not resource.is_file():
            raise jinja2.TemplateNotFound(template)
        return resource.read_text(encoding="utf-8"), f"prompts/autotos/{name}", lambda: True


@lru_cache(maxsize=1)
def _autotos_environment() -> jinja2.Environment:
    return jinja2.Environment(loader=_AutoToSLoader(), undefined=jinja2.StrictUndefined, keep_trailing_newline=False,
                              autoescape=False)


def render_autotos(name: str, **values: Any) -> str:
    """An AutoToS prompt or feedback message from ``prompts/autotos/<name>.j2``."""
    return _autotos_environment().get_template(name).render(**values).strip() + "\n"


def show_state(value: Any) -> str:
    """A state as the model sees it: Python literal syntax (tuples stay tuples)."""
    return repr(value) if not isinstance(value, str) else value
