"""Cross-request batching: reads from concurrent requests are gathered and run in one forward pass.

Callers (server worker threads) submit jobs; the first caller that finds the model idle becomes the leader:
it waits at most `max_wait_s` for more jobs, but only while the engine says more requests are on their way
(a lone request never waits), takes jobs up to `max_jobs` / `max_tokens`, runs them, and hands every job its
own result. There is no background thread: when no request is in flight, nothing runs.

Fairness: a job too big to share a pass (over `solo_tokens`) gets a batch of its own, and a runner finishes
each job (waking its caller) as soon as that job's result exists, so a small job never waits for the big
ones that happened to arrive with it.

Deadlines (onepass/deadline.py): a job still waiting in the queue is dropped as soon as its request's
deadline passes or its client leaves; a runner hands each job's deadline to the thread that runs it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from onepass.deadline import Deadline, current_deadline

__all__ = ["Job", "ReadBatcher", "shared_pass_failed"]

log = logging.getLogger("onepass.backends")

# How often a caller waiting for the model looks at its own deadline and cancel flag.
_POLL_S = 0.05


# -- the batcher -----------------------------------------------------------------------------------------


@dataclass
class Job:
    prefix: list[int]
    reads: list
    tokens: int
    done: bool = False
    result: Any = None
    error: BaseException | None = None
    deadline: Deadline | None = None
    taken: bool = False  # in a batch being run (then it can no longer be withdrawn)
    _cv: threading.Condition | None = field(default=None, repr=False)

    def finish(self, result: Any = None, error: BaseException | None = None) -> None:
        """Hand the job its result (or error) and wake its caller now, not when the whole batch ends."""
        if self._cv is None:
            self.result, self.error, self.done = result, error, True
            return
        with self._cv:
            self.result, self.error, self.done = result, error, True
            self._cv.notify_all()

    def active(self):
        """Run under this job's deadline (a leader runs other requests' jobs on its own thread)."""
        return self.deadline.active() if self.deadline is not None else contextlib.nullcontext()


class ReadBatcher:
    def __init__(self, run: Callable[[list[Job]], None], max_wait_s: float = 0.002, max_jobs: int = 16,
                 max_tokens: int = 8192, solo_tokens: int | None = None, on_leave: Callable[[], None] | None = None):
        self._run = run  # fills job.result / job.error (ideally with job.finish) for every job it is given
        self._on_leave = on_leave  # called (outside the lock) each time a request leaves the engine
        self.max_wait_s = max_wait_s
        self.max_jobs = max_jobs
        self.max_tokens = max_tokens
        # Jobs above a fair share of a batch cannot share a pass; they run in a batch of their own.
        self.solo_tokens = solo_tokens if solo_tokens is not None else max(1, max_tokens // max(1, max_jobs))
        self._cv = threading.Condition()
        self._queue: list[Job] = []
        self._busy = False
        self._expected = 0  # requests inside the engine that may still submit a job
        self.batches = 0  # how many model batches ran, and how many jobs they carried (for tests and metrics)
        self.batched_jobs = 0

    @contextlib.contextmanager
    def expecting(self):
        """Marks one request in flight, so a leader knows whether waiting can gather anything."""
        with self._cv:
            self._expected += 1
        try:
            yield
        finally:
            with self._cv:
                self._expected -= 1
                self._cv.notify_all()
            if self._on_leave is not None:
                self._on_leave()

    def submit(self, prefix: list[int], reads: list, tokens: int):
        job = Job(prefix, reads, tokens, deadline=current_deadline(), _cv=self._cv)
        with self._cv:
            self._queue.append(job)
            self._cv.notify_all()
            while not job.done:
                if self._busy:
                    self._wait(job)
                    continue
                self._busy = True
                batch = self._gather()
                self._cv.release()
                try:
                    self._run_safely(batch)
                finally:
                    self._cv.acquire()
                    self._busy = False
                    self._cv.notify_all()
        if job.error is not None:
            raise job.error
        return job.result

    def _wait(self, job: Job) -> None:
        """Called with the lock held while another thread runs a batch: a job not yet taken is withdrawn
        once its deadline passes or its client leaves; otherwise wait for a wake-up (or the next poll)."""
        deadline = job.deadline
        if deadline is None:
            self._cv.wait()
            return
        error = deadline.error()
        if error is not None and not job.taken:
            self._queue.remove(job)
            job.error, job.done = error, True
            return
        left = deadline.remaining()
        self._cv.wait(_POLL_S if left is None else max(0.001, min(left, _POLL_S)))

    def _drop_stopped(self) -> None:
        """Called with the lock held: queued jobs past their deadline (or cancelled) never reach the model."""
        for job in list(self._queue):
            error = job.deadline.error() if job.deadline is not None else None
            if error is not None:
                self._queue.remove(job)
                job.error, job.done = error, True
                self._cv.notify_all()

    def _gather(self) -> list[Job]:
        """Called with the lock held: wait for companions while more requests are expected, then take a batch."""
        deadline = time.monotonic() + self.max_wait_s
        while (len(self._queue) < min(self._expected, self.max_jobs)
               and sum(j.tokens for j in self._queue) < self.max_tokens):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self._cv.wait(left)
        self._drop_stopped()
        if self._queue and self._queue[0].tokens > self.solo_tokens:
            batch = [self._queue.pop(0)]  # the oldest job is too big to share: it runs alone, now
        else:
            batch, tokens = [], 0
            for job in list(self._queue):
                if job.tokens > self.solo_tokens:
                    continue  # stays first in line for the next batch
                if batch and (len(batch) >= self.max_jobs or tokens + job.tokens > self.max_tokens):
                    break
                batch.append(job)
                tokens += job.tokens
                self._queue.remove(job)
        for job in batch:
            job.taken = True
        return batch

    def _run_safely(self, batch: list[Job]) -> None:
        if not batch:
            return
        try:
            with batch[0].active() if len(batch) == 1 else contextlib.nullcontext():
                self._run(batch)
        except BaseException as error:  # noqa: BLE001 - handed to every waiting caller, re-raised there
            for job in batch:
                if not job.done:
                    job.error, job.done = error, True
        self.batches += 1
        self.batched_jobs += len(batch)
        for job in batch:
            job.done = True


def shared_pass_failed(jobs: list[Job], error: BaseException) -> None:
    """A shared pass failed for a reason other than memory: a bug to surface (logged, and every job in the
    pass fails with it), never to hide behind a one-by-one retry."""
    log.error("a forward pass shared by %d requests failed: %s: %s", len(jobs), type(error).__name__, error,
              exc_info=(type(error), error, error.__traceback__))
    for job in jobs:
        job.finish(error=error)
