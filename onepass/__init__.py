"""onepass: a self-hosted System One decision server (yes/no, choice and score answers in one pass)."""

from onepass.engine import Engine

__version__ = "0.1.0"
__all__ = ["Engine", "__version__"]
