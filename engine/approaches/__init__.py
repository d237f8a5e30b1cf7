"""The approaches: each LLM method is one module here (stein, bas/sil in baselines)."""
