"""Regenerate (or check) the debug/ and eval/ task files of the domains library.

Every domain's generator.py records the seeds and sizes of its task sets in DEBUG_SPECS and EVAL_SPECS,
so this script needs nothing per domain.

    python domains/make_tasks.py [--check] [DOMAIN ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from genplan.engine.domainlib import DomainDir, DomainDirError, list_domains, natural_key

HERE = Path(__file__).resolve().parent
GENERATED_SETS = ("debug", "eval")


def _shown(path: Path) -> str:
    """Paths in messages relative to the checkout, so they read like domains/ferry/debug/task-00.pddl."""
    try:
        return str(path.resolve().relative_to(HERE.parent))
    except ValueError:
        return str(path)


def expected_files(domain: DomainDir) -> dict[Path, str]:
    """Every generator-made task file of ``domain`` with the text it must have."""
    files: dict[Path, str] = {}
    for task_set in GENERATED_SETS:
        for index, (seed, sizes) in enumerate(domain.task_specs(task_set)):
            files[domain.task_file(task_set, index)] = domain.generate(seed, **sizes)
    return files


SPECS_BEGIN = "<!-- task specs: begin (written by domains/make_tasks.py) -->"
SPECS_END = "<!-- task specs: end -->"


def specs_table(domain: DomainDir) -> str:
    """Markdown table of every generated task file with its seed and sizes."""
    rows = ["| task file | seed | sizes |", "|---|---|---|"]
    for task_set in GENERATED_SETS:
        for index, (seed, sizes) in enumerate(domain.task_specs(task_set)):
            shown = " ".join(f"{name}={value}" for name, value in domain.check_sizes(sizes).items())
            rows.append(f"| `{task_set}/{domain.task_file(task_set, index).name}` | {seed} | {shown} |")
    return "\n".join(rows)


def readme_with_specs(domain: DomainDir) -> tuple[Path, str | None, str | None]:
    """(README path, current text, text with an up-to-date specs table) — both None without markers."""
    readme = domain.path / "README.md"
    if not readme.is_file():
        return readme, None, None
    current = readme.read_text(encoding="utf-8")
    if SPECS_BEGIN not in current or SPECS_END not in current:
        return readme, None, None
    head, rest = current.split(SPECS_BEGIN, 1)
    _old, tail = rest.split(SPECS_END, 1)
    return readme, current, f"{head}{SPECS_BEGIN}\n{specs_table(domain)}\n{SPECS_END}{tail}"


def stale_files(domain: DomainDir, expected: dict[Path, str]) -> list[Path]:
    """Numbered task files that no spec produces any more (e.g. after EVAL_SPECS got shorter)."""
    present = [*domain.debug_tasks(), *domain.eval_tasks()]
    return [p for p in present if p.name.startswith("task-") and p not in expected]


def sync_domain(domain: DomainDir, check_only: bool) -> list[str]:
    """Write (or with ``check_only`` just compare) the task files; return one line per difference."""
    expected = expected_files(domain)
    differences: list[str] = []
    for path, text in expected.items():
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        differences.append(f"{_shown(path)}: {'missing' if current is None else 'differs from the generator output'}")
        if not check_only:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    readme, current_readme, new_readme = readme_with_specs(domain)
    if new_readme is not None and new_readme != current_readme:
        differences.append(f"{_shown(readme)}: task specs table is out of date")
        if not check_only:
            readme.write_text(new_readme, encoding="utf-8")
    for path in sorted(stale_files(domain, expected), key=natural_key):
        differences.append(f"{_shown(path)}: not produced by any spec")
        if not check_only:
            path.unlink()
    return differences


def prepare_dirs(candidates: list[Path]) -> None:
    """A new domain has no task directories yet; create them so DomainDir.open accepts it."""
    for path in candidates:
        if (path / "domain.toml").is_file():
            for task_set in GENERATED_SETS:
                (path / task_set).mkdir(exist_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domains", nargs="*", help="domain directory names below domains/ (default: all)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if any file differs")
    args = parser.parse_args(argv)
    candidates = [HERE / name for name in args.domains] or [p for p in HERE.iterdir() if p.is_dir()]
    if not args.check:
        prepare_dirs(candidates)
    try:
        if args.domains:
            domains = [DomainDir.open(HERE / name) for name in args.domains]
        else:
            domains = list_domains(HERE)
        failed = False
        for domain in domains:
            differences = sync_domain(domain, args.check)
            verb = "differ" if args.check else "rewritten"
            summary = f"{len(differences)} file(s) {verb}" if differences else "up to date"
            print(f"{domain.name}: {len(domain.task_specs('debug'))} debug, "
                  f"{len(domain.task_specs('eval'))} eval specs; {summary}")
            for line in differences:
                print(f"  {line}")
            failed = failed or bool(differences)
    except DomainDirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 1 if (failed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
