"""Cross-request batching: reads from concurrent requests are gathered and run in one forward pass.

Callers (server worker threads) submit jobs; the first caller that finds the model idle becomes the leader:
it waits at most `max_wait_s` for more jobs, but only while the engine says more requests are on their way
(a lone request never waits), takes jobs up to `max_jobs` / `max_tokens`, runs them, and hands every job its
own result. There is no background thread: when no request is in flight, nothing runs.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable


@dataclass
class Job:
    prefix: list[int]
    reads: list
    tokens: int
    done: bool = False
    result: Any = None
    error: BaseException | None = None


class ReadBatcher:
    def __init__(self, run: Callable[[list[Job]], None], max_wait_s: float = 0.002, max_jobs: int = 16,
                 max_tokens: int = 8192):
        self._run = run  # fills job.result / job.error for every job it is given
        self.max_wait_s = max_wait_s
        self.max_jobs = max_jobs
        self.max_tokens = max_tokens
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

    def submit(self, prefix: list[int], reads: list, tokens: int):
        job = Job(prefix, reads, tokens)
        with self._cv:
            self._queue.append(job)
            self._cv.notify_all()
            while True:
                if job.done:
                    break
                if self._busy:
                    self._cv.wait()
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

    def _gather(self) -> list[Job]:
        """Called with the lock held: wait for companions while more requests are expected, then take a batch."""
        deadline = time.monotonic() + self.max_wait_s
        while (len(self._queue) < min(self._expected, self.max_jobs)
               and sum(j.tokens for j in self._queue) < self.max_tokens):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            self._cv.wait(left)
        batch, tokens = [], 0
        for job in list(self._queue):
            if batch and (len(batch) >= self.max_jobs or tokens + job.tokens > self.max_tokens):
                break
            batch.append(job)
            tokens += job.tokens
            self._queue.remove(job)
        return batch

    def _run_safely(self, batch: list[Job]) -> None:
        try:
            self._run(batch)
        except BaseException as error:  # noqa: BLE001 - handed to every waiting caller, re-raised there
            for job in batch:
                if not job.done:
                    job.error, job.done = error, True
        self.batches += 1
        self.batched_jobs += len(batch)
        for job in batch:
            job.done = True
