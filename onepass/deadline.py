"""A request's time budget and cancel flag (`Deadline`), the `checkpoint()` every backend calls between
forward passes, and the out-of-memory mapping: what the server, the engine and every backend share about
stopping a request, so none of them imports another for it.

Each request carries a `Deadline` in a context variable of the thread running it. Backends call
`checkpoint()` between forward passes; past the budget, or once the client has left, the request stops
there with a 503 `deadline_exceeded` (or 499). A forward pass that has started always finishes.
"""

from __future__ import annotations

import contextlib
import time
from contextvars import ContextVar
from typing import Callable

from onepass.errors import APIError, retry_headers

__all__ = ["Deadline", "DeadlineExceeded", "RequestCancelled", "checkpoint", "current_deadline", "is_out_of_memory",
           "overloaded"]


class DeadlineExceeded(APIError):
    """503: the request ran out of its time budget (checked between forward passes)."""


class RequestCancelled(APIError):
    """499: the client went away while its request ran; nobody is waiting for the answer."""


class Deadline:
    """A request's time budget and cancel flag. Never interrupts a forward pass: `check()` is called
    between passes (engine rounds, read batches, continuation batches, remote calls)."""

    def __init__(self, seconds: float | None, *, retry_after_s: int = 1, setting: str = "--request-timeout-s",
                 clock: Callable[[], float] = time.monotonic):
        self.seconds = seconds
        self.retry_after_s = retry_after_s
        self.setting = setting  # the flag or argument that sets the budget, named in the error
        self._clock = clock
        self.expires = None if seconds is None else clock() + seconds
        self.reason: str | None = None  # "client_closed", "deadline" or "shutdown" once cancelled

    def cancel(self, reason: str = "client_closed") -> None:
        if self.reason is None:
            self.reason = reason

    def remaining(self) -> float | None:
        return None if self.expires is None else max(0.0, self.expires - self._clock())

    def timeout_error(self) -> DeadlineExceeded:
        return DeadlineExceeded(
            503, "deadline_exceeded",
            f"the request did not finish within its deadline of {self.seconds:g}s ({self.setting}) and was stopped; "
            f"retry after {self.retry_after_s}s, or send a smaller request (fewer questions, a shorter state)",
            retry_headers(self.retry_after_s),
        )

    def error(self) -> APIError | None:
        """The error the request stops with, or None while it may go on."""
        if self.reason == "client_closed":
            return RequestCancelled(499, "client_closed_request", "the client disconnected while the request ran")
        if self.reason == "shutdown":
            return APIError(503, "shutting_down", "the server is shutting down; retry, another instance may answer", retry_headers(1))
        if self.reason == "deadline" or (self.expires is not None and self._clock() >= self.expires):
            return self.timeout_error()
        return None

    def check(self) -> None:
        error = self.error()
        if error is not None:
            raise error

    @contextlib.contextmanager
    def active(self):
        """Make this the deadline `checkpoint()` sees in the current thread."""
        token = _CURRENT.set(self)
        try:
            yield self
        finally:
            _CURRENT.reset(token)


_CURRENT: ContextVar[Deadline | None] = ContextVar("onepass_deadline", default=None)


def current_deadline() -> Deadline | None:
    return _CURRENT.get()


def checkpoint() -> None:
    """Between forward passes: stop here if this thread's request is past its deadline or cancelled."""
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.check()


# -- out of memory ---------------------------------------------------------------------------------------

# CPU allocators raise a plain RuntimeError, so the message is the only sign there.
_OOM_TEXT = ("out of memory", "can't allocate memory", "cannot allocate memory", "not enough memory")


def is_out_of_memory(error: BaseException) -> bool:
    if isinstance(error, MemoryError) or type(error).__name__ == "OutOfMemoryError":
        return True
    return isinstance(error, RuntimeError) and any(text in str(error).lower() for text in _OOM_TEXT)


def overloaded(what: str, retry_after_s: int = 1) -> APIError:
    """503 for an allocation failure: the request is not wrong, the machine had no room for it now."""
    return APIError(
        503, "overloaded",
        f"the model ran out of memory on {what}; retry after {retry_after_s}s, and if it happens again send a "
        "smaller request (fewer questions, a shorter state) or fewer requests at once",
        retry_headers(retry_after_s),
    )
