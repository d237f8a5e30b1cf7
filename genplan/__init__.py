"""genplan: develop generalized plans for PDDL domains with LLMs."""

__version__ = "0.1.0"
