"""Where logits come from. Every backend answers one narrow question (see base.Backend)."""

from onepass.backends.base import Backend, Read

__all__ = ["Backend", "Read"]
