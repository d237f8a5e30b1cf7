"""genplan.prompts."""
