"""What a variant directory's ``generator.py`` runs: the original generator, its output renamed.

Kept apart from the writing of directories: this is what runs whenever tasks of a variant are generated.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from genplan.engine.domainlib import DomainDir
from genplan.engine.pddl import load_domain, parse_problem_text
from genplan.engine.pddl.fastproblem import parse_problem_fast
from genplan.engine.pddl.writer import problem_to_pddl
from genplan.engine.variants.mapping import MAPPING_FILE, load_mapping
from genplan.engine.variants.renaming import RenamingFor, VariantError, anonymize_renaming, rename_problem


class VariantGenerator:
    """What a variant directory's generator.py runs: the original generator, its problems renamed."""

    def __init__(self, variant_dir: Path) -> None:
        self.path = Path(variant_dir)
        meta_file = self.path / "domain.toml"
        with meta_file.open("rb") as handle:
            self.meta = tomllib.load(handle)
        base_dir = self.meta.get("base_dir")
        if not isinstance(base_dir, str):
            raise VariantError([f"{meta_file}: missing 'base_dir' (the original domain directory)"])
        self.base = DomainDir.open((self.path / base_dir).resolve())
        self.domain = load_domain(self.base.domain_file)
        self.name = str(self.meta["name"])
        if self.meta.get("variant") == "anonymized":
            self._renaming_for: RenamingFor = lambda p: anonymize_renaming(self.domain, p, self.name)
        else:
            costume = load_mapping(self.path / MAPPING_FILE)
            self._renaming_for = lambda p: costume.renaming_for(self.domain, p, self.name)
        self.parameters = self.base.parameters()

    def specs(self, task_set: str) -> list[tuple[int, dict[str, int]]]:
        return self.base.task_specs(task_set)

    def generate(self, seed: int, **sizes: int) -> str:
        text = self.base.generate(seed, **sizes)
        problem = parse_problem_fast(text, self.domain) or parse_problem_text(text, self.domain)
        return problem_to_pddl(rename_problem(problem, self._renaming_for(problem)))

    def main(self, argv: list[str]) -> int:
        from genplan.engine.generator_kit import run_cli

        run_cli(self.parameters, self.generate, f"Generate a task of {self.name}.", argv)
        return 0
