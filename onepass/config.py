"""Every setting, declared once: `EngineConfig` (how a model answers) and `ServerConfig` (what the HTTP
server admits). Each field carries its default, its bounds or choices, its flag and its help; the CLI's
flags, `Engine(...)`, `create_app(...)` and the docs' flag tables are built from or checked against these
two classes (tests/test_config.py fails when a field has no flag or a flag no field). Out-of-range values
raise `ConfigError` naming the flag: nothing is clamped.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, Callable

from onepass.errors import ConfigError
from onepass.hardware import DTYPES
from onepass.readouts import READOUTS
from onepass.wire import MAX_LEVELS, MAX_OPTIONS

__all__ = ["EngineConfig", "ServerConfig", "add_flags", "from_args", "flag_of", "parse_bytes", "SHAPE_LIMITS"]

READOUT_NAMES = tuple(READOUTS)


def parse_bytes(text: str | int) -> int:
    """'8GiB', '512M', '1073741824' -> bytes (K/M/G are powers of 1024, with or without 'iB')."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = float(text)
    else:
        units = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
        raw = str(text).strip().lower().removesuffix("ib").removesuffix("b")
        number, unit = (raw[:-1], raw[-1]) if raw[-1:] in units and raw[-1:] else (raw, "")
        try:
            value = float(number) * units[unit]
        except ValueError:
            raise ValueError(f"{text!r} is not a size; use bytes or a number with K, M or G (e.g. 8G, 512MiB)") from None
    if not 1 <= value < 1 << 50:
        raise ValueError(f"{text!r} must be at least 1 byte")
    return int(value)


def setting(default: Any, help: str, *, flag: str | None = None, low: float | None = None, high: float | None = None,
            choices: tuple | None = None, parse: Callable[[str], Any] | None = None, group: str = "model",
            cli: bool = True) -> Any:
    """A dataclass field with what the CLI and the checks need to know about it."""
    meta = {"help": help, "flag": flag, "low": low, "high": high, "choices": choices, "parse": parse, "group": group, "cli": cli}
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


def flag_of(f) -> str:
    return f.metadata.get("flag") or "--" + f.name.replace("_", "-")


def _kind(f) -> type | None:
    """The scalar type a field holds (from its annotation string: the module uses postponed annotations)."""
    text = str(f.type)
    for name, kind in (("bool", bool), ("int", int), ("float", float), ("str", str)):
        if text.startswith(name):
            return kind
    return None


def _check(config) -> None:
    problems = []
    for f in fields(config):
        value, meta, kind = getattr(config, f.name), f.metadata, _kind(f)
        if value is None or kind is None or not meta:
            continue
        where = f"{f.name} ({flag_of(f)})" if meta.get("cli") else f.name
        if kind is bool:
            if not isinstance(value, bool):
                problems.append(f"{where} must be true or false, got {value!r}")
            continue
        if kind in (int, float):
            kinds = (int, float) if kind is float else (int,)
            if isinstance(value, bool) or not isinstance(value, kinds) or (isinstance(value, float) and not math.isfinite(value)):
                problems.append(f"{where} must be {'a number' if kind is float else 'an integer'}, got {value!r}")
                continue
            low, high = meta.get("low"), meta.get("high")
            if (low is not None and value < low) or (high is not None and value > high):
                bounds = f">= {low:g}" if high is None else (f"<= {high:g}" if low is None else f"between {low:g} and {high:g}")
                problems.append(f"{where} must be {bounds}, got {value!r}")
        if meta.get("choices") and value not in meta["choices"]:
            problems.append(f"{where} must be one of {list(meta['choices'])}, got {value!r}")
    problems += config._cross_checks() if not problems else []
    if problems:
        raise ConfigError(f"invalid {type(config).__name__}: " + "; ".join(problems))


@dataclass(frozen=True)
class EngineConfig:
    """How one model answers: which model, where it runs, how labels are read and calibrated."""

    model: str | None = setting(None, "registry name, .gguf file or Hugging Face directory (default: the registry's default model)")
    device: str = setting("auto", "auto (a CUDA GPU when torch sees one, else cpu) | cpu | cuda | cuda:N", group="hardware")
    dtype: str = setting("auto", "auto: bfloat16 where the processor multiplies bf16 natively (AMX / AVX-512 BF16, CUDA), "
                                 "else float32", choices=DTYPES, group="hardware")
    torch_threads: int | None = setting(None, "intra-op threads of an in-process model (default: torch's, one per core); use "
                                              "fewer than the cores on a machine shared with other CPU work", low=1, high=1024,
                                        group="hardware")
    readout: str = setting("auto", "how labels are read (docs/readouts.md); auto: per question type and option count, "
                                   "the family the model's profile measured best (slot where it measured none)",
                           choices=READOUT_NAMES)
    calibration: str | None = setting("auto", "'auto' (the model's own profile), 'none', or a profile path")
    abstain_mass: float | None = setting(None, "mark x_abstain below this label mass", low=0.0, high=1.0)
    abstain_confidence: float | None = setting(None, "mark x_abstain below this confidence", low=0.0, high=1.0)
    debias_max_reads: int = setting(4, "debiased: most reads per choice question", low=1, high=64)
    debias_entropy: float = setting(0.5, "debiased: normalised entropy above which to read again", low=0.0, high=1.0)
    debias_order: str = setting("canonical", "debiased: start from options sorted by name (order invariant) or as the "
                                             "request lists them", choices=("canonical", "given"))
    likelihood_normalise: str = setting("mean", "likelihood and shortlist: score an option by its mean or total token "
                                                "log-probability", choices=("mean", "sum"))
    prior_correction: bool = setting(False, "divide each question's content-free label prior out of its answers (slot, "
                                            "isolated, likelihood; per request: x_debias_prior); docs/calibration.md")
    strict_options: bool = setting(False, "a top-level x_ field that is not a onepass option (a misspelt x_readuot) is "
                                          "a 422 naming the known ones; off: ignored and named in the "
                                          "x-onepass-ignored-fields header (docs/operations.md)")
    head: str | None = setting(None, "a learned head (safetensors from `onepass tune`) served as readout 'head' "
                                     "(x_readout: head, or --readout head); docs/readouts.md")
    adapters: tuple[str, ...] = setting((), "an adapter directory from `onepass learn`, served under its name "
                                            "(repeatable); docs/learn.md", flag="--adapter")
    adapters_dir: str | None = setting(None, "serve every adapter directory (one with a manifest.json) inside this one")
    shortlist_k: int = setting(8, "shortlist: options the first pass keeps for the rerank", low=2, high=MAX_OPTIONS)
    shortlist_first: str = setting("likelihood", "shortlist: the first pass over all options (likelihood: measured better "
                                                 "than a slot read on many options, docs/readouts.md)",
                                   choices=READOUTS["shortlist"].FIRST)
    shortlist_rerank: str = setting("likelihood", "shortlist: the family that reranks the shortlist",
                                    choices=READOUTS["shortlist"].RERANK)
    max_input_tokens: int = setting(65536, "tokens one request may make the model read (state once, every question, "
                                           "follow-up reads); 400 past it", low=1)
    request_timeout_s: float | None = setting(60.0, "seconds a running request may take, checked between forward passes, "
                                                    "before 503 deadline_exceeded", low=0.001, high=86_400,
                                              group="limits")
    memory_budget: int | None = setting(None, "embedded: bytes a request may make the engine hold beyond the weights "
                                              "(cached states, KV copies, activations, logits), e.g. 8G; default half the "
                                              "memory free after loading", parse=parse_bytes, low=1, group="embedded")
    read_mode: str = setting("auto", "embedded: a request's question reads in one packed sequence or in padded rows "
                                     "(docs/throughput.md)", choices=("auto", "batched", "packed"), group="embedded")
    batch_wait_ms: float = setting(2.0, "embedded: longest wait for concurrent requests to share a forward pass (0: never "
                                        "wait)", low=0.0, high=1000.0, group="embedded")
    batching: str = setting("invariant", "embedded: invariant (every read a pass of its own, every state prefilled alone "
                                         "in fixed chunks: an answer is bit-identical whatever else is in flight or cached) "
                                         "or shared (a request's reads and concurrent requests share forward passes, and "
                                         "--read-mode, --batch-wait-ms apply; answers then move with their company, in "
                                         "bf16 by up to 0.09); docs/throughput.md", choices=("invariant", "shared"),
                            group="embedded")
    backend: str = setting("embedded", "where logits come from: in-process, or a vLLM / SGLang server (docs/deployment.md)",
                           choices=("embedded", "vllm", "sglang"), group="remote")
    backend_url: str | None = setting(None, "engine base URL (also ONEPASS_BACKEND_URL)", group="remote")
    backend_key: str | None = setting(None, "engine API key (prefer ONEPASS_BACKEND_KEY: argv shows in ps)", group="remote")
    tokenizer: str | None = setting(None, "served model's tokenizer: directory, .gguf or registry name (default: --model)",
                                    group="remote")
    backend_timeout_s: float = setting(60.0, "seconds to wait for one engine answer", flag="--backend-timeout", low=0.001,
                                       high=86_400, group="remote")
    backend_retries: int = setting(3, "retries on 5xx/429/connection errors, with backoff", low=0, high=100, group="remote")
    backend_dp_size: int | None = setting(None, "vLLM --data-parallel-size: pin a state's prompts to one rank", low=1,
                                          group="remote")

    def __post_init__(self):
        if self.backend_url is None and os.environ.get("ONEPASS_BACKEND_URL") and self.backend != "embedded":
            object.__setattr__(self, "backend_url", os.environ["ONEPASS_BACKEND_URL"])
        if isinstance(self.memory_budget, str):
            try:
                object.__setattr__(self, "memory_budget", parse_bytes(self.memory_budget))
            except ValueError as error:
                raise ConfigError(f"--memory-budget: {error}") from None
        _check(self)

    def _cross_checks(self) -> list[str]:
        problems = []
        if self.prior_correction and self.readout not in ("slot", "isolated", "likelihood", "auto"):
            problems.append(f"prior_correction (--prior-correction) works with readout slot, isolated, likelihood or "
                            f"auto (where its policy picks one of those), not {self.readout!r}")
        if self.readout == "head" and not self.head:
            problems.append("readout head (--readout head) needs a learned head: add --head PATH (fit one with "
                            "`onepass tune`)")
        if self.head and self.backend != "embedded":
            problems.append(f"head (--head) reads hidden states, which backend {self.backend} does not hand out; "
                            "use --backend embedded")
        if self.backend != "embedded" and not (self.backend_url and self.model):
            problems.append(f"backend {self.backend} (--backend) needs backend_url (--backend-url) and model (--model, "
                            "the engine's served model name)")
        return problems

    def replace(self, **changes) -> EngineConfig:
        return replace(self, **changes)

    @property
    def calibration_path(self) -> str | None:
        """'auto', a profile path, or None for uncalibrated ('none' / 'off')."""
        return None if self.calibration in (None, "none", "off") else self.calibration

    def readout_options(self) -> dict[str, dict]:
        """Constructor arguments of each readout family that has any."""
        return {"debiased": {"max_reads": self.debias_max_reads, "entropy_threshold": self.debias_entropy,
                             "order": self.debias_order},
                "likelihood": {"normalise": self.likelihood_normalise},
                "shortlist": {"k": self.shortlist_k, "normalise": self.likelihood_normalise,
                              "first": self.shortlist_first, "rerank": self.shortlist_rerank},
                "head": {"path": self.head}}

    def embedded_options(self) -> dict:
        return {"read_mode": self.read_mode, "batch_wait_ms": self.batch_wait_ms, "memory_budget": self.memory_budget,
                "invariant": self.batching == "invariant"}


@dataclass(frozen=True)
class ServerConfig:
    """Every limit the HTTP server enforces; each rejects past it (never clamps). docs/operations.md."""

    api_keys: list = setting([], "API keys (from ONEPASS_API_KEYS / --api-key-file, never a flag)", cli=False)
    host: str = setting("127.0.0.1", "listen address (others need keys or --no-auth)", group="server")
    port: int = setting(8000, "listen port (0: any free port)", low=0, high=65535, group="server")
    # Bodies: bytes as sent (compressed or not), bytes after decompression, seconds to receive a body.
    max_body_bytes: int = setting(1 << 20, "request body as sent, compressed or not", low=1, group="limits")
    max_decompressed_bytes: int = setting(4 << 20, "request body after decompression", low=1, group="limits")
    body_timeout_s: float = setting(30.0, "seconds to receive a body before 408", flag="--body-timeout", low=0.001,
                                    high=3600, group="limits")
    # A refused body is read and discarded up to these bounds first, so a client still sending sees the answer.
    max_drain_bytes: int = setting(8 << 20, "bytes of a refused body read and discarded before the answer, so a client "
                                            "still sending sees it instead of a reset", low=0, group="limits")
    drain_timeout_s: float = setting(5.0, "seconds spent draining a refused body", flag="--drain-timeout", low=0, high=3600,
                                     group="limits")
    # Request shape (422 when exceeded); also enforced by `onepass decide`.
    max_questions: int = setting(64, "questions per request", low=1, group="shape")
    max_options: int = setting(MAX_OPTIONS, "options per choice question", low=2, high=MAX_OPTIONS, group="shape")
    max_levels: int = setting(MAX_LEVELS, "levels per score question", low=2, high=MAX_LEVELS, group="shape")
    max_state_chars: int = setting(262_144, "characters of the state (objects and arrays: their compact JSON)", low=1,
                                   group="shape")
    max_text_chars: int = setting(16_384, "characters of each instruction, description or criterion", low=1, group="shape")
    max_name_chars: int = setting(1_024, "characters of each option name", low=1, group="shape")
    max_id_chars: int = setting(256, "characters of each question id", low=1, group="shape")
    max_model_chars: int = setting(256, "characters of the model name", low=1, group="shape")
    max_depth: int = setting(32, "JSON nesting depth (the top-level object is level 1)", low=2, high=512, group="shape")
    # Backpressure: `workers` requests run (the embedded engine batches their reads), `max_queue` more wait.
    workers: int = setting(4, "requests handed to the engine at once; the embedded engine batches their reads", low=1,
                           high=256, group="backpressure")
    max_queue: int = setting(32, "requests admitted beyond the running ones", low=0, high=100_000, group="backpressure")
    max_batch_states: int = setting(16, "states per POST /v1/systemone/batch call; each also counts as one request", low=1,
                                    high=100_000, group="backpressure")
    queue_timeout_s: float = setting(60.0, "seconds a request may wait for a worker before 503", flag="--queue-timeout",
                                     low=0.001, high=86_400, group="backpressure")
    retry_after_s: int = setting(1, "retry-after seconds on 429 and queue-timeout 503", flag="--retry-after", low=1,
                                 high=3600, group="backpressure")
    loading_retry_after_s: int = setting(5, "retry-after seconds while the model loads", flag="--loading-retry-after",
                                         low=1, high=3600, group="backpressure")
    max_connections: int = setting(1024, "open connections + requests before an immediate 429", low=1, high=1_000_000,
                                   group="backpressure")
    shutdown_timeout_s: float = setting(30.0, "seconds SIGTERM waits for in-flight requests", flag="--shutdown-timeout",
                                        low=0, high=86_400, group="backpressure")

    def __post_init__(self):
        _check(self)

    def _cross_checks(self) -> list[str]:
        problems = []
        if self.max_decompressed_bytes < self.max_body_bytes:
            problems.append(
                f"max_decompressed_bytes (--max-decompressed-bytes, {self.max_decompressed_bytes}) must be at least "
                f"max_body_bytes (--max-body-bytes, {self.max_body_bytes}): an uncompressed body is its own decompressed size")
        if not isinstance(self.api_keys, (list, tuple)):
            problems.append("api_keys must be a list of strings")
        else:
            for i, key in enumerate(self.api_keys, 1):
                # Never echo a key: name it by position only.
                if not isinstance(key, str) or not key:
                    problems.append(f"API key #{i} is empty or not a string")
                elif not all(0x21 <= ord(c) <= 0x7E for c in key):
                    problems.append(f"API key #{i} contains whitespace, control or non-ASCII characters; "
                                    "keys travel in an HTTP header and must be visible ASCII")
        return problems

    def describe(self) -> dict[str, Any]:
        """The settings as loggable values (keys counted, never shown)."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "api_keys"}
        out["api_keys"] = len(self.api_keys)
        return out


SHAPE_LIMITS = tuple(f.name for f in fields(ServerConfig) if f.metadata.get("group") == "shape")
GROUP_TITLES = {
    "model": "model and readout", "hardware": "hardware", "embedded": "in-process engine",
    "remote": "remote engine (vLLM / SGLang)", "limits": "limits (408 / 413 / 503 when exceeded)",
    "shape": "request shape (422 when exceeded)", "backpressure": "backpressure (429 / 503 with retry-after)",
    "server": "listening",
}


def _default_text(f) -> str:
    default = f.default if f.default is not MISSING else None
    if default is None or default is False or default == ():
        return ""
    return f" (default {default:g})" if isinstance(default, float) else f" (default {default})"


def add_flags(parser: argparse.ArgumentParser, cls: type, *, groups: tuple[str, ...] | None = None,
              names: tuple[str, ...] | None = None) -> None:
    """One flag per field of `cls` (those of `groups` or `names` only, when given). Flags default to None
    (argparse.SUPPRESS for the value), so `from_args` can tell "not given" from "given the default"."""
    sections: dict[str, Any] = {}
    for f in fields(cls):
        meta = f.metadata
        if not meta.get("cli") or (groups is not None and meta["group"] not in groups) or (names is not None and f.name not in names):
            continue
        group = meta["group"]
        if group not in sections:
            sections[group] = parser.add_argument_group(GROUP_TITLES[group])
        kind = _kind(f)
        help_text = meta["help"] + _default_text(f)
        if str(f.type).startswith("tuple"):  # a repeatable flag: each use adds one value
            sections[group].add_argument(flag_of(f), dest=f.name, action="append", default=None, help=help_text,
                                         metavar=flag_of(f)[2:].upper().replace("-", "_"))
            continue
        if kind is bool:
            sections[group].add_argument(flag_of(f), dest=f.name, action="store_true", default=None, help=help_text)
            continue
        # A value with its own parser (sizes) reaches the config as text, so its error reads like the others.
        parse = str if meta.get("parse") else (kind if kind in (int, float) else str)
        # Choices are shown, and checked by the config (one message format for every bad value).
        choices = meta.get("choices")
        sections[group].add_argument(flag_of(f), dest=f.name, type=parse, default=None, help=help_text,
                                     metavar="{" + ",".join(choices) + "}" if choices else flag_of(f)[2:].upper().replace("-", "_"))


def from_args(cls: type, args: argparse.Namespace, **extra):
    """An instance of `cls` from parsed flags (fields not given keep their defaults) and `extra` values."""
    given = {f.name: getattr(args, f.name) for f in fields(cls) if getattr(args, f.name, None) is not None}
    given = {k: tuple(v) if isinstance(v, list) else v for k, v in given.items()}  # repeatable flags
    return cls(**{**given, **extra})
