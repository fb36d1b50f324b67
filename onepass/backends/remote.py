"""Build an Engine whose logits come from a vLLM or SGLang deployment.

Everything but the logits stays in onepass: the served model's tokenizer is loaded locally, so prompts are
rendered and labels checked exactly as in the embedded engine, and the same readouts, calibration and wire
format apply. The engine is probed once at start-up (served model, context length, tokenizer agreement, the
read primitive it supports); if it is not up yet, the probe runs again on first use and requests get 503
`engine_unavailable` until it answers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from onepass import models
from onepass.backends.http import EngineClient, RemoteConfigError, RetryPolicy, display_url

BACKENDS = ("vllm", "sglang")
KEY_ENV = "ONEPASS_BACKEND_KEY"


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
                  transport=None, **options):
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


def build_remote_engine(backend: str, url: str, model: str, key: str | None = None, tokenizer_path: str | None = None,
                        *, readout: str = "slot", engine_kwargs: dict | None = None,
                        log: Callable[[str], None] = print, **options):
    """An Engine reading label log-probabilities from `backend` ("vllm" or "sglang") at `url`.

    model: the engine's served model name (what its /v1/models lists); also the id onepass answers with.
    key: the engine's API key (default: $ONEPASS_BACKEND_KEY); sent as a Bearer token, never logged.
    tokenizer_path: registry name, .gguf file or tokenizer directory; default: `model` itself when that is a
    registry name or a local path.
    engine_kwargs: more Engine arguments (readout_options, abstain thresholds, ...), as for the embedded engine.
    options: timeout_s, connect_timeout_s, retry (RetryPolicy), on_missing ("floor" | "error"),
    max_prompts_per_call, affinity_header, and backend specifics (vLLM: mode, fallback_top_k,
    data_parallel_size; SGLang: route, max_label_ids).
    """
    from onepass.engine import Engine

    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {list(BACKENDS)}")
    key = key or os.environ.get(KEY_ENV) or None
    source = tokenizer_path or model
    try:
        tokenizer = load_tokenizer(source)
    except RemoteConfigError:
        if tokenizer_path:
            raise
        raise RemoteConfigError(
            f"model {model!r} is neither a registry name nor a local path, so onepass cannot load its tokenizer: "
            "pass --tokenizer with the served model's tokenizer directory (or .gguf file)"
        ) from None
    shown = display_url(url)
    remote = build_backend(backend, url, model, key, tokenizer, **options)
    engine = Engine(None, backend=remote, tokenizer=tokenizer, model_id=model, readout=readout, log=log,
                    **(engine_kwargs or {}))
    engine.info.description = f"{model}, served by {remote.client.engine}"
    probed = "probed" if remote._probed else "not reachable yet; probing on first use"
    log(f"onepass on {remote.client.engine} at {shown}: model {model} ({probed}; tokenizer from {source})")
    return engine
