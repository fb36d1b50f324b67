"""What a backend reports as it works, for whoever measures it (onepass.timing: the Server-Timing header and
the /metrics counters). The backend calls its observer; nothing outside the backend wraps or patches it.

The calls come from the thread doing the work, inside the request's `Deadline` context (a batcher leader
runs other requests' reads under their own deadline), so an observer can charge each event to the request
it served. They must be quick and must not raise.
"""

from __future__ import annotations

__all__ = ["Observed", "Observer"]


class Observer:
    """Ignores everything; subclass and override what you measure."""

    def prefill(self, hit: bool, seconds: float) -> None:
        """A state prefill ended (or failed): answered from the prefix cache (`hit`) or computed."""

    def round(self, jobs: int) -> None:
        """A batcher round started, carrying the reads of `jobs` requests."""


class Observed:
    """A backend that reports to one observer, set with `observe` (by default one that ignores it all)."""

    observer: Observer = Observer()

    def observe(self, observer: Observer) -> None:
        self.observer = observer
