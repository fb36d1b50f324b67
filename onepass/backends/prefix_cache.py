"""The embedded backend's prefix cache: recently prefilled states (prompt prefixes) kept with their KV cache,
so a debiasing second round, or the next request about the same state, skips the state prefill.

Least recently used entries go first. It is bounded twice: by entry count, and by bytes (at most half the
memory budget, so forward passes always keep the other half); `make_room` evicts further when a pass needs
more. Not thread-safe by itself: the backend calls it under its model lock.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Iterator, Sequence

from onepass.backends.memory import MemoryBudget

__all__ = ["PrefixCache"]


class PrefixCache:
    """Token prefix -> entry (the backend stores `(KV cache, next-token log-probabilities)`); an entry's
    size is the KV cache of its prefix length, as `memory.cache_bytes` counts it."""

    def __init__(self, memory: MemoryBudget, max_entries: int):
        self.memory = memory
        self.max_entries = max_entries  # 0 turns the cache off
        self._entries: OrderedDict[tuple[int, ...], Any] = OrderedDict()
        self._bytes = 0

    @property
    def bytes(self) -> int:
        """What the cached KV caches hold; forward passes get the rest of the budget."""
        return self._bytes

    def __contains__(self, prefix: Sequence[int]) -> bool:
        return tuple(prefix) in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        """The cached prefixes, least recently used first."""
        return iter(list(self._entries))

    def get(self, prefix: Sequence[int]) -> Any | None:
        """The entry of `prefix` (now the most recently used), or None."""
        key = tuple(prefix)
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
        return entry

    def put(self, prefix: Sequence[int], entry: Any) -> None:
        """Keep `entry` for `prefix`, then evict the oldest while over the entry count or half the budget
        (the new entry itself may go when it alone is that large)."""
        if self.max_entries <= 0:
            return
        key = tuple(prefix)
        if key in self._entries:
            self._entries.move_to_end(key)
            self._entries[key] = entry
            return
        self._entries[key] = entry
        self._bytes += self.memory.cache_bytes(len(key))
        while len(self._entries) > self.max_entries or self._bytes > self.memory.budget // 2:
            self._evict()

    def make_room(self, needed: int) -> None:
        """Evict least recently used prefixes until a pass of `needed` bytes fits beside the rest."""
        while self._entries and self._bytes + needed > self.memory.budget:
            self._evict()

    def clear(self) -> None:
        self._entries.clear()
        self._bytes = 0

    def _evict(self) -> None:
        old, _ = self._entries.popitem(last=False)
        self._bytes -= self.memory.cache_bytes(len(old))
