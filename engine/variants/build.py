"""``genplan costume`` and ``genplan anonymize``: check everything first, then write a variant directory.

Here live what the two commands add to :mod:`.directory`: their checks, domain.toml entries, READMEs and
the generator.py they write.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from genplan.engine.domainlib import DomainDir, DomainDirError
from genplan.engine.pddl import PddlError
from genplan.engine.pddl.model import Domain
from genplan.engine.variants.costume import OBJECT_WORDS, SINGULAR, Costume
from genplan.engine.variants.directory import VariantPlan, open_base, plan_variant, write_variant
from genplan.engine.variants.mapping import MAPPING_FILE, read_mapping
from genplan.engine.variants.renaming import ANONYMOUS_DOMAIN, VariantError, anonymize_renaming, valid_name

# The import below is the package's stable name (see __init__.py), not the module defining the class.
GENERATOR_TEMPLATE = '''"""Instance generator of the {kind} domain {name}: the generator of {base} with its output renamed.

Written by `genplan {command}`; regenerate the directory rather than editing this file. The original
generator is found through `base_dir` in domain.toml{mapping_note}.
"""

from __future__ import annotations

import sys
from pathlib import Path

from genplan.engine.variants import VariantGenerator

_VARIANT = VariantGenerator(Path(__file__).resolve().parent)
PARAMETERS = _VARIANT.parameters
DEBUG_SPECS = _VARIANT.specs("debug")
EVAL_SPECS = _VARIANT.specs("eval")


def generate(seed: int, **sizes: int) -> str:
    return _VARIANT.generate(seed, **sizes)


if __name__ == "__main__":
    sys.exit(_VARIANT.main(sys.argv[1:]))
'''


def _preflight(base_dir: str | Path, out: str | Path, force: bool) -> tuple[list[str], Any]:
    """Problems with the base directory and the output place; the opened base when it is usable."""
    problems: list[str] = []
    opened = None
    try:
        opened = open_base(base_dir)
    except (DomainDirError, PddlError) as exc:
        problems.append(str(exc))
    out_path = Path(out)
    if opened is not None and out_path.resolve() == opened[0].path.resolve():
        problems.append(f"{out_path}: the output directory is the original domain directory")
    if out_path.exists() and (not out_path.is_dir() or (any(out_path.iterdir()) and not force)):
        problems.append(f"{out_path}: exists and is not an empty directory (use --force to regenerate it)")
    return problems, opened


def build_costume_dir(base_dir: str | Path, mapping_path: str | Path, out: str | Path, force: bool = False) -> VariantPlan:
    """``genplan costume``: check everything first (raising VariantError with every problem), then write."""
    out = Path(out)
    problems, opened = _preflight(base_dir, out, force)
    costume, mapping_problems = read_mapping(mapping_path)
    problems += mapping_problems
    if costume is not None and opened is not None:
        base, domain, tasks = opened
        problems += costume.check(domain, [problem for _, _, problem in tasks])
    if costume is not None and not costume.description.strip():
        problems.append(f"{costume.path}: missing 'description' (the costumed domain's description for domain.toml)")
    if problems:
        raise VariantError(list(dict.fromkeys(problems)))
    assert costume is not None and opened is not None
    base, domain, tasks = opened
    name = costume.name or out.name
    meta = {
        "name": name,
        "typed_objects": base.typed_objects,
        "description": costume.description.strip(),
        **({"notes": costume.notes.strip()} if costume.notes.strip() else {}),
        "costume_of": base.name,
        "variant": "costume",
    }
    mapping_text = Path(mapping_path).read_text(encoding="utf-8")
    plan = plan_variant(
        base,
        domain,
        tasks,
        lambda problem: costume.renaming_for(domain, problem, name),
        out,
        meta,
        _costume_readme(name, base, costume, domain),
        {"generator.py": _generator_text("costume", name, base.name), MAPPING_FILE: mapping_text},
    )
    write_variant(plan, force)
    return plan


def build_anonymized_dir(base_dir: str | Path, out: str | Path, name: str = ANONYMOUS_DOMAIN, force: bool = False) -> VariantPlan:
    """``genplan anonymize``: every name numbered; checks first, then writes."""
    out = Path(out)
    problems, opened = _preflight(base_dir, out, force)
    if not valid_name(name):
        problems.append(f"--name '{name}' is not a valid PDDL name")
    if problems:
        raise VariantError(problems)
    base, domain, tasks = opened
    meta = {
        "name": name,
        "typed_objects": base.typed_objects,
        "description": (
            "An anonymized planning domain: every action, predicate, type, parameter and object has a numbered "
            "name (action1, predicate1, type1, object1, ...). Its PDDL definition is all there is to know about it."
        ),
        "costume_of": base.name,
        "variant": "anonymized",
    }
    plan = plan_variant(
        base,
        domain,
        tasks,
        lambda problem: anonymize_renaming(domain, problem, name),
        out,
        meta,
        _anonymized_readme(name, base),
        {"generator.py": _generator_text("anonymized", name, base.name)},
    )
    write_variant(plan, force)
    return plan


def _generator_text(kind: str, name: str, base: str) -> str:
    command = "costume" if kind == "costume" else "anonymize"
    note = f" and the renaming is read from {MAPPING_FILE}" if kind == "costume" else ""
    return GENERATOR_TEMPLATE.format(kind=kind, name=name, base=base, command=command, mapping_note=note)


def _costume_readme(name: str, base: DomainDir, costume: Costume, domain: Domain) -> str:
    rows = []
    renaming = costume.renaming_for(domain, None, name)
    for category in ("actions", "predicates", "types", "variables", "functions"):
        for old, new in getattr(renaming, category).items():
            rows.append(f"| {SINGULAR[category]} | `{old}` | `{new}` |")
    for old, new in costume.tables["objects"].items():
        rows.append(f"| object | `{old}` | `{new}` |")
    for old, new in costume.tables[OBJECT_WORDS].items():
        rows.append(f"| object word | `{old}…` | `{new}…` |")
    table = "\n".join(["| kind | original | costume |", "|---|---|---|", *rows])
    return f"""# {name}

A costumed variant of `{base.name}`: the same domain with every action, predicate, type, parameter and
object renamed, so the names tell a different story while the structure is exactly the original's. A plan
is valid here exactly when the plan with the original names is valid for `{base.name}`.

{textwrap.fill(" ".join(costume.description.split()), width=104)}

## Files

Everything here is produced by

```sh
genplan costume domains/{base.name} --mapping domains/{name}/{MAPPING_FILE} --out domains/{name} --force
```

from `{MAPPING_FILE}` (the mapping) and the original directory. `debug/`, `eval/` (and `probes/`) hold the
original tasks renamed, with the same file names; problem names are replaced by a digest of the original
name. `generator.py` runs the original generator and renames its output, so
`python domains/make_tasks.py --check {name}` reproduces the tasks. Comments of the original PDDL are
not carried over.

## Names

{table}
"""


def _anonymized_readme(name: str, base: DomainDir) -> str:
    return f"""# {name}

An anonymized variant of `{base.name}`: actions, predicates, types and parameters are numbered in the
order of the domain file (`action1`, `predicate1`, `type1`, `var1`, …), objects per task in the order of
its `:objects` section (constants first). The structure is exactly the original's.

Produced by `genplan anonymize domains/{base.name} --out <this directory>`; `generator.py` runs the
original generator and anonymizes its output.
"""
