"""The remote side of onepass: what every engine behind an HTTP URL shares, and the factory that builds one.

Everything but the logits stays in onepass: the served model's tokenizer is loaded locally, so prompts are
rendered and labels checked exactly as in the embedded engine, and the same readouts, calibration and wire
format apply. This module owns the parts common to vLLM and SGLang:

- the probe, run once when the backend is built: the start-up checks (`remote_checks.py`: served model,
  key, tokenizer agreement), the context length (`max_context`), then the engine's read primitive; if the
  engine is not up yet it runs again on first use, and requests get 503 `engine_unavailable` until it
  answers;
- the one read path (`RemoteBackend.logprobs`): reads grouped into calls within the engine's limits, the
  state-affinity header, labels the engine did not return given back as NaN and flagged;
- `build_remote_engine`, the Engine over a remote backend.

Each engine (`vllm.py`, `sglang.py`) supplies only its probe of the read primitive and its scoring call.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from pathlib import Path
from typing import Any, Callable

import numpy as np

from onepass import models
from onepass.backends.base import Backend, Capabilities, Read
from onepass.backends.engine_client import (
    EngineClient,
    EngineHTTPError,
    RetryPolicy,
    engine_error,
)
from onepass.backends.remote_checks import (
    RemoteConfigError,
    check_tokenizer,
    pick_model,
)
from onepass.deadline import checkpoint
from onepass.errors import APIError

__all__ = [
    "BACKENDS",
    "KEY_ENV",
    "STATE_HEADER",
    "RemoteBackend",
    "RemoteConfigError",
    "build_backend",
    "group_reads",
    "load_tokenizer",
    "state_key",
]

log = logging.getLogger("onepass.backends")

BACKENDS = ("vllm", "sglang")
KEY_ENV = "ONEPASS_BACKEND_KEY"
# Sent with every read: a digest of the rendered state prefix (token ids), never the content itself.
STATE_HEADER = "x-onepass-state"


# -- reads -------------------------------------------------------------------------------------------------


def state_key(prefix: list[int]) -> str:
    return hashlib.sha256(np.asarray(prefix, dtype=np.int64).tobytes()).hexdigest()[:32]


def chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def group_reads(reads: list, max_prompts: int, max_ids: int) -> list[tuple[list[int], list[list[int]]]]:
    """Consecutive reads packed into engine calls: (read indices, label-id chunks to ask for).

    A call carries at most `max_prompts` prompts and asks every prompt for the union of the group's label
    ids, at most `max_ids` at a time; a group grows while its union fits. A single read with more ids than
    that gets its ids split over several calls on the same prompt (the prefix cache serves the repeats).
    """
    groups: list[tuple[list[int], list[list[int]]]] = []
    current: list[int] = []
    union: dict[int, None] = {}
    for i, read in enumerate(reads):
        ids = dict.fromkeys(int(t) for t in read.token_ids)
        grown = len(union) + sum(1 for t in ids if t not in union)
        if current and (len(current) >= max_prompts or grown > max(max_ids, len(union))):
            groups.append((current, chunks(list(union), max_ids)))
            current, union = [], {}
        current.append(i)
        union.update(ids)
    if current:
        groups.append((current, chunks(list(union), max_ids)))
    return groups


class RemoteBackend(Backend):
    """A Backend whose logits come from an engine over HTTP; vLLM and SGLang subclass it.

    Built with a probe: the served model, its context length (`max_context`) and the tokenizer are checked,
    then the engine's own `_probe` picks its read primitive. An engine not reachable yet is probed again on
    first use; until then `max_context` is the tokenizer's limit (what it falls back to when the engine does
    not say). Thread-safe: concurrent reads only share the pooled HTTP client, so an engine that batches
    across requests sees them concurrently.
    """

    name = "remote"
    capabilities = Capabilities(reentrant=True, may_miss_labels=True)

    def __init__(self, client: EngineClient, model: str, tokenizer=None, *, on_missing: str = "flag",
                 max_prompts_per_call: int = 64, affinity_header: str | None = STATE_HEADER, probe: bool = True):
        if on_missing == "floor":  # the old name of "flag", from when missing labels got a floor value
            on_missing = "flag"
        if on_missing not in ("flag", "error"):
            raise ValueError("on_missing must be 'flag' or 'error'")
        self.client = client
        self.model = model
        self.tokenizer = tokenizer
        self.on_missing = on_missing
        self.max_prompts_per_call = max_prompts_per_call
        self.affinity_header = affinity_header
        self.max_context = self._fallback_context()  # the served model's, once the probe has read its card
        self.probed = False  # the engine answered the start-up probe (else: probed on first use)
        self._probe_lock = threading.Lock()
        self.tokenizer_checked = False
        self.stats = {"calls": 0, "reads": 0, "missing_labels": 0}
        self._stats_lock = threading.Lock()
        if probe:
            try:
                self._probe_once()
            except APIError as error:
                if error.status != 503:
                    raise
                log.warning("%s engine at %s not reachable yet (%s); probing again on first use",
                            client.engine, client.shown_url, error.message)

    # -- what each engine supplies ----------------------------------------------------------------------------
    def _probe(self) -> None:  # pragma: no cover - abstract
        """Find the engine's read primitive (after the model and tokenizer checks)."""
        raise NotImplementedError

    def _score(self, prefix: list[int], reads: list[Read], ids: list[int], headers: dict[str, str] | None) -> list[dict[int, float]]:
        """One engine call: for each read (prompt `prefix + read.suffix`), label id -> log-probability of
        what the engine returned among `ids`."""
        raise NotImplementedError  # pragma: no cover - abstract

    def _ids_per_call(self) -> int:
        """How many label ids one call may ask for."""
        return 1 << 30

    def _unreturned(self) -> str:
        """Where a label that did not come back was looked for (an engine that always returns every asked
        label raises an engine error here instead)."""
        return "the answer"

    # -- probe ------------------------------------------------------------------------------------------------
    def ensure_probed(self) -> None:
        """The probe, on first use when start-up could not reach the engine. A configuration problem found
        this late is a 502 for the request (and logged); at start-up it stops the server from loading."""
        if self.probed:
            return
        try:
            self._probe_once()
        except RemoteConfigError as error:
            log.error("%s", error)
            raise engine_error(self.client.engine, f"onepass cannot use it: {error}") from None

    def _probe_once(self) -> None:
        with self._probe_lock:
            if self.probed:
                return
            card = pick_model(self.client, self.model)
            length = card.get("max_model_len")
            # One position after the prompt is read, so a prompt may take all but one position.
            self.max_context = int(length) - 1 if isinstance(length, int) and length > 1 else self._fallback_context()
            if self.tokenizer is not None:
                self.tokenizer_checked = check_tokenizer(self.client, self.model, self.tokenizer)
            self._probe()
            self.probed = True

    def _probe_post(self, path: str, body: Any, *, what: str | None = None,
                    keep: Callable[[EngineHTTPError], bool] = lambda _error: False) -> Any:
        """A POST of the probe. An HTTP refusal `keep` accepts is raised as is, for the engine to read (a
        fallback); any other is a 502 naming the probe."""
        try:
            return self.client.post(path, body)
        except EngineHTTPError as error:
            if keep(error):
                raise
            raise engine_error(self.client.engine, f"{what or 'start-up probe of ' + path}: HTTP {error.status}: {error.message}") from None

    def _fallback_context(self) -> int:
        limit = getattr(self.tokenizer, "model_max_length", None)
        return int(limit) if isinstance(limit, int) and 0 < limit < 10**7 else 2048

    # -- the read path ----------------------------------------------------------------------------------------
    def headers(self, prefix: list[int]) -> dict[str, str] | None:
        """The state-affinity header: equal for every call about one state, so a router hashing on it sends
        all of a state's questions (and later requests about it) to the replica whose prefix cache has it."""
        if not self.affinity_header:
            return None
        return {self.affinity_header: state_key(prefix)}

    def count(self, key: str, n: int = 1) -> None:
        with self._stats_lock:
            self.stats[key] += n

    def logprobs(self, prefix: list[int], reads: list[Read]) -> list[np.ndarray]:
        if not reads:
            return []
        self.ensure_probed()
        longest = len(prefix) + max(len(read.suffix) for read in reads)
        if longest > self.max_context:  # only when the first-use probe found a shorter context than assumed
            raise APIError(400, "max_tokens_exceeded",
                           f"the state and question take {longest} tokens; model {self.model} reads at most "
                           f"{self.max_context}. Shorten the state or the question text.")
        results: list[np.ndarray | None] = [None] * len(reads)
        headers = self.headers(prefix)
        for indices, id_chunks in group_reads(reads, self.max_prompts_per_call, self._ids_per_call()):
            group = [reads[i] for i in indices]
            found: list[dict[int, float]] = [{} for _ in group]
            for ids in id_chunks:
                checkpoint()  # between engine calls: stop a request past its deadline or cancelled
                answer = self._score(list(prefix), group, ids, headers)
                self.count("calls")
                for row, got in zip(found, answer):
                    row.update(got)
            for i, row in zip(indices, found):
                results[i] = self._finish(list(reads[i].token_ids), row)
        self.count("reads", len(reads))
        return results  # type: ignore[return-value]

    def _finish(self, token_ids: list[int], found: dict[int, float]) -> np.ndarray:
        """One read's array from the id -> log-probability map the engine returned: NaN (and flagged) for
        each label it did not return."""
        missing = [i for i in dict.fromkeys(token_ids) if i not in found]
        if missing:
            where = self._unreturned()
            self.count("missing_labels", len(missing))
            if self.on_missing == "error":
                raise engine_error(self.client.engine, f"label token ids {missing} were not in {where}")
            log.warning("%s engine: label token ids %s not in %s; left out and flagged",
                        self.client.engine, missing, where)
        return np.array([found.get(i, np.nan) for i in token_ids], dtype=np.float64)


# -- building one ------------------------------------------------------------------------------------------


def load_tokenizer(source: str):
    """A tokenizer from a registry name (its verified local files) or a local path; never from a hub."""
    from transformers import AutoTokenizer

    name = models.DEFAULT_MODEL if source in models.ALIASES else source
    if name in models.REGISTRY:
        if models.is_cached(name):
            return AutoTokenizer.from_pretrained(models.cache_dir(name))
        gguf, _digest = models.gguf_path(models.REGISTRY[name])
        return AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    path = Path(source).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return AutoTokenizer.from_pretrained(path.parent, gguf_file=path.name)
    if path.is_dir() and any((path / f).exists() for f in ("tokenizer.json", "tokenizer_config.json", "tokenizer.model")):
        return AutoTokenizer.from_pretrained(path)
    raise RemoteConfigError(
        f"cannot load a tokenizer from {source!r}: give --tokenizer a registry model name "
        f"({', '.join(sorted(models.REGISTRY))}), a .gguf file, or a directory with the served model's "
        "tokenizer files (tokenizer.json / tokenizer_config.json). Hubs are never contacted."
    )


def build_backend(backend: str, url: str, model: str, key: str | None = None, tokenizer=None, *,
                  timeout_s: float = 60.0, connect_timeout_s: float = 5.0, retry: RetryPolicy | None = None,
                  transport=None, **options) -> RemoteBackend:
    """The backend for `backend` at `url`, probed (its `max_context` set) unless the engine is not up yet."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {list(BACKENDS)} (or 'embedded')")
    engine_name = {"vllm": "vLLM", "sglang": "SGLang"}[backend]
    client = EngineClient(url, key, engine=engine_name, timeout_s=timeout_s, connect_timeout_s=connect_timeout_s,
                          retry=retry, transport=transport)
    if backend == "vllm":
        from onepass.backends.vllm import VLLMBackend

        return VLLMBackend(client, model, tokenizer, **options)
    from onepass.backends.sglang import SGLangBackend

    return SGLangBackend(client, model, tokenizer, **options)
