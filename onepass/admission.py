"""Bounded admission in front of a fixed pool of worker threads: 429 past capacity, 503 past the queue
timeout or the request's deadline, 499 when the client leaves; the worker slot is freed only when the
model call really ends, so the pool is never oversubscribed."""

from __future__ import annotations

import asyncio
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from onepass.config import ServerConfig
from onepass.deadline import Deadline, DeadlineExceeded
from onepass.errors import APIError, retry_headers
from onepass.metrics import Metrics

__all__ = ["Admission"]


async def _until_disconnect(receive) -> None:
    """Returns when the client goes away (the body has been read, so receive only reports that)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


class Admission:
    """Bounded admission in front of a fixed pool of `workers` threads.

    At most `workers + max_queue` decision requests are inside the server (being read, waiting, or
    running); one more is turned away at once with 429. A validated request waits at most
    `queue_timeout_s` for a worker (then 503) and is dropped if its client disconnects while it waits.
    A worker slot is released when the model call really ends, not when its awaiting coroutine does, so
    the pool is never oversubscribed.
    """

    def __init__(self, settings: ServerConfig, metrics: Metrics):
        self.settings = settings
        self.metrics = metrics
        self.capacity = settings.workers + settings.max_queue
        self.executor = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="onepass-worker")
        self.admitted = 0
        self.free = settings.workers
        self.waiting: deque[asyncio.Future] = deque()

    # -- admission ---------------------------------------------------------------------------------------
    def enter(self) -> None:
        s = self.settings
        if self.admitted >= self.capacity:
            self.metrics.rejected.labels("queue_full").inc()
            raise APIError(
                429, "queue_full",
                f"the server is at capacity ({s.workers} running, {s.max_queue} queued); retry after {s.retry_after_s}s",
                retry_headers(s.retry_after_s),
            )
        self.admitted += 1
        self.metrics.admitted.set(self.admitted)

    def leave(self) -> None:
        self.admitted -= 1
        self.metrics.admitted.set(self.admitted)

    # -- workers -----------------------------------------------------------------------------------------
    def _grant(self) -> None:
        while self.free > 0 and self.waiting:
            ticket = self.waiting.popleft()
            if not ticket.done():
                self.free -= 1
                ticket.set_result(None)
        self.metrics.queue.set(len(self.waiting))

    def _release(self) -> None:
        self.free += 1
        self._grant()

    def _forget(self, ticket: asyncio.Future) -> None:
        if ticket.done() and not ticket.cancelled():
            self._release()  # granted but not used
        else:
            ticket.cancel()
            try:
                self.waiting.remove(ticket)
            except ValueError:
                pass
        self.metrics.queue.set(len(self.waiting))

    async def _acquire(self, receive) -> float:
        """Wait for a worker slot; returns the seconds waited. 503 past the deadline, 499 if the client left."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return 0.0
        s = self.settings
        loop = asyncio.get_running_loop()
        ticket = loop.create_future()
        self.waiting.append(ticket)
        self.metrics.queue.set(len(self.waiting))
        started = loop.time()
        # One watcher per waiting request: bounded by max_queue like the waiting itself.
        watcher = asyncio.ensure_future(_until_disconnect(receive)) if receive is not None else None
        try:
            await asyncio.wait([x for x in (ticket, watcher) if x is not None], timeout=s.queue_timeout_s,
                               return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            self._forget(ticket)
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        gone = watcher is not None and watcher.done() and not watcher.cancelled()
        if gone:
            watcher.exception()  # retrieve; any end of the receive channel means nobody is waiting for the answer
        if ticket.done() and not ticket.cancelled() and not gone:
            return loop.time() - started
        self._forget(ticket)
        if gone:
            self.metrics.rejected.labels("client_closed").inc()
            raise APIError(499, "client_closed_request", "the client disconnected while the request waited for a worker")
        self.metrics.rejected.labels("queue_timeout").inc()
        raise APIError(
            503, "queue_timeout",
            f"the request waited {s.queue_timeout_s:g}s for a worker without starting; retry after {s.retry_after_s}s",
            retry_headers(s.retry_after_s),
        )

    def _finished(self, future: asyncio.Future) -> None:
        if not future.cancelled():
            future.exception()  # retrieved here so an abandoned failure is not reported as never retrieved
        self.metrics.busy.dec()
        self._release()

    async def run(self, fn: Callable, arg: Any, receive=None, timeout_s: float | None = None) -> Any:
        """fn(arg) on a worker, under a Deadline of `timeout_s` (the engine's request_timeout_s, None for
        none) that the engine checks between
        forward passes. Past it the client gets its 503 at once, and a client that disconnects cancels the
        request; either way the worker stops at its next check, and its slot is freed when it has."""
        waited = await self._acquire(receive)
        self.metrics.queue_wait.observe(waited)
        self.metrics.busy.inc()
        s = self.settings
        deadline = Deadline(timeout_s, retry_after_s=s.retry_after_s)
        try:
            future = asyncio.get_running_loop().run_in_executor(self.executor, _under, deadline, fn, arg)
        except BaseException:
            self.metrics.busy.dec()
            self._release()
            raise
        future.add_done_callback(self._finished)
        # One watcher per running request: bounded by workers, like the running itself.
        watcher = asyncio.ensure_future(_until_disconnect(receive)) if receive is not None else None
        try:
            await asyncio.wait([x for x in (future, watcher) if x is not None], timeout=deadline.remaining(),
                               return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # cancelled (shutdown past its timeout): the worker stops at its next check
            deadline.cancel("shutdown")
            raise
        finally:
            if watcher is not None:
                watcher.cancel()
        if future.done():
            try:
                return future.result()
            except DeadlineExceeded:
                self.metrics.rejected.labels("deadline_exceeded").inc()
                raise
        if watcher is not None and watcher.done() and not watcher.cancelled():
            watcher.exception()  # retrieve; any end of the receive channel means nobody waits for the answer
            deadline.cancel("client_closed")
            self.metrics.rejected.labels("client_closed").inc()
            raise APIError(499, "client_closed_request", "the client disconnected while the request ran; it was stopped")
        deadline.cancel("deadline")
        self.metrics.rejected.labels("deadline_exceeded").inc()
        raise deadline.timeout_error()


def _under(deadline: Deadline, fn: Callable, arg: Any) -> Any:
    """Runs on a worker thread: the engine and its backend see the request's deadline from here on."""
    with deadline.active():
        return fn(arg)
