"""Instance generator of the anonymized domain anonymized7: the generator of heavy with its output renamed.

Written by `genplan anonymize`; regenerate the directory rather than editing this file. The original
generator is found through `base_dir` in domain.toml.
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
