"""Hand-written decision items, one module per domain (see docs/corpus.md)."""
