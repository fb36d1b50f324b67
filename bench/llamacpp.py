"""llama.cpp (llama-cpp-python, the CPU anchor) against onepass's torch path: same model, same token ids.

The model is the GGUF onepass ships (Qwen2.5-Coder-1.5B-Instruct Q4_K_M). llama.cpp runs it as-is
(quantised matmuls); onepass dequantises it and runs torch in float32 and bfloat16. Each engine answers
the same requests: bench/latency.py's 3-question request on its ~209-token state, and a 16-question
request on the same state (16 distinct questions, so no engine can share a read).

What is timed, per request, every request paying its own prefill:
  - onepass: `Engine.decide(payload)` in-process (validate + render + tokenise + prefill + reads + answers),
    the prefix cache cleared before each call (untimed), as in bench/latency.py;
  - llama.cpp, from onepass's token ids (tokenising is not timed; onepass's render time is reported next
    to it): clear the KV cache, decode the prefix in sequence 0, then the reads, two ways:
      sequential - each suffix decoded on top of the prefix in sequence 0, logits of its last token read,
                   the suffix removed again with llama_memory_seq_rm;
      batched    - the prefix copied to sequences 1..n with llama_memory_seq_cp (a unified KV cache shares
                   the cells), every suffix in one llama_decode, one logits row per suffix.
    The label log-probabilities are a log-softmax over the whole vocabulary of the last logits, read with
    llama_get_logits_ith (the high-level Llama.scores buffer stays zero with logits_all=False).

Runs are interleaved, never concurrent: llama.cpp is loaded once in this process; each onepass dtype runs
in its own process (its memory is its own), one at a time, float32 first. In each dtype's phase every
repeat times torch and both llama.cpp modes once, one after the other, in a rotating order, each call after
a bounded wait for idle CPUs. On a shared machine the engines so see the same background load; the JSON
records, per call, the share of the CPUs other processes took (OpenMP spin-waits make any contention on
2 cores cost both engines far more than its share), and a paired speedup (each torch call against the
llama.cpp calls of the same repeat).
Reported: p50 over --repeats (after one warm-up) for 3 questions, decisions/s for 16, resident memory
after the runs, and per question the max |delta p| of the label distribution (the labels' probabilities
renormalised over the labels, as the slot readout gives them) against torch float32.

    bash scripts/setup-llamacpp.sh         # builds .venv-llamacpp (10-15 min on 2 cores)
    .venv-llamacpp/bin/python bench/llamacpp.py --json bench/out/llamacpp.json [--resume]

About 40 minutes on 2 quiet cores with the default 5 repeats (torch bfloat16 on a CPU without bf16 units is
half of it). Every timed call is checkpointed in JSON.partial; --resume continues a killed run there.
The onepass half runs in .venv (the script starts itself there with --torch-worker).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from latency import QUESTIONS, STATE  # noqa: E402

__all__ = ["LlamaCpp", "TorchWorker", "main", "torch_worker"]

MODEL = "qwen2.5-coder-1.5b-instruct"
GGUF = Path.home() / ".cache/onepass/models" / MODEL / f"{MODEL}-q4_k_m.gguf"
ONEPASS_PYTHON = ROOT / ".venv/bin/python"
QUIET = 0.15  # all-CPU busy fraction below which the machine counts as idle

# 16 distinct questions over the same state: bench/latency.py's three, then thirteen more of each type.
QUESTIONS_16 = {
    **QUESTIONS,
    "refund": {"type": "noul", "instructions": "Does the customer ask for a refund?"},
    "login": {"type": "noul", "instructions": "Are some users unable to log in?"},
    "angry": {"type": "noul", "instructions": "Is the customer angry?"},
    "deadline": {"type": "noul", "instructions": "Does the message mention a deadline?"},
    "spam": {"type": "noul", "instructions": "Is this message spam?"},
    "sentiment": {"type": "choice", "instructions": "What is the customer's sentiment?",
                  "criteria": {"positive": None, "neutral": None, "negative": None}},
    "issue": {"type": "choice", "instructions": "What is the main issue?",
              "criteria": {"duplicate charge": None, "missing seats": None, "login bug": None, "cancellation": None}},
    "reply": {"type": "choice", "instructions": "How should we reply?",
              "criteria": {"email": None, "phone call": None, "no reply needed": None}},
    "author": {"type": "choice", "instructions": "Which department does the author work in?",
               "criteria": {"finance": None, "engineering": None, "marketing": None, "legal": None}},
    "impact": {"type": "score", "instructions": "How severe is the business impact?",
               "criteria": ["none", "minor", "major", "critical"]},
    "clarity": {"type": "score", "instructions": "How clear is the request?",
                "criteria": ["unclear", "somewhat clear", "clear"]},
    "effort": {"type": "score", "instructions": "How much work will resolving this take?",
               "criteria": ["minutes", "hours", "days", "weeks"]},
    "churn": {"type": "score", "instructions": "How likely is the customer to cancel?",
              "criteria": ["unlikely", "possible", "likely"]},
}
assert len(QUESTIONS_16) == 16
REQUESTS = {
    "3q": {"model": "jev-latest", "state": STATE, "questions": QUESTIONS},
    "16q": {"model": "jev-latest", "state": STATE, "questions": QUESTIONS_16},
}


# -- shared helpers (both venvs: stdlib + numpy only) ----------------------------------------------------
def rss_gb() -> dict:
    """Resident memory now and at its peak, from /proc/self/status."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[{"VmRSS": "rss_gb", "VmHWM": "peak_rss_gb"}[key]] = round(int(value.split()[0]) / 2**20, 3)
    return out


def _busy_seconds() -> float:
    """CPU seconds all CPUs have spent busy since boot (everything but idle and iowait)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int | str) -> float:
    """user + system CPU seconds of one process, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_busy(seconds: float = 2.0) -> float:
    """Fraction of all CPUs busy over the next `seconds`."""
    t0, b0 = time.monotonic(), _busy_seconds()
    time.sleep(seconds)
    return (_busy_seconds() - b0) / ((time.monotonic() - t0) * os.cpu_count())


def wait_quiet(max_wait: float) -> dict:
    """Wait (at most max_wait s) until the machine is idle; what was seen, for the JSON."""
    started = time.monotonic()
    busy = cpu_busy()
    while busy >= QUIET and time.monotonic() - started < max_wait:
        busy = cpu_busy(3.0)
    return {"cpu_busy_before": round(busy, 3), "waited_s": round(time.monotonic() - started, 1),
            "loadavg": [round(x, 2) for x in os.getloadavg()]}


class Contention:
    """Share of the machine's CPUs that processes other than `own` (pids) took while the block ran."""

    def __init__(self, own: list[int]):
        self.own = own

    def _snap(self):
        return time.monotonic(), _busy_seconds(), sum(_cpu_seconds(p) for p in self.own)

    def __enter__(self):
        self.start = self._snap()
        return self

    def __exit__(self, *exc):
        (w0, b0, o0), (w1, b1, o1) = self.start, self._snap()
        self.others = round(max(0.0, (b1 - b0) - (o1 - o0)) / max(1e-9, (w1 - w0) * os.cpu_count()), 3)


def p50(values: list[float]) -> float:
    return statistics.median(values)


def softmax(lp):
    import numpy as np

    z = np.asarray(lp, dtype=np.float64)
    z = np.exp(z - z.max())
    return z / z.sum()


# -- onepass worker (runs in .venv): load, export token ids + probabilities, then time calls on demand -----
def torch_worker(dtype: str) -> None:
    """Line protocol on stdin/stdout: one JSON line when ready (token ids, label probabilities, load info),
    then per command line: "3q"/"16q" -> {"s": seconds of one decide}, "rss" -> memory, "quit"."""
    sys.stdout.flush()
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything the libraries print (Python or C) goes to stderr, off the protocol
    sys.stdout = sys.stderr
    import torch

    from onepass import Engine

    started = time.perf_counter()
    # No deadline: a benchmark on a busy machine must not be cut off.
    engine = Engine(MODEL, dtype=dtype, log=lambda m: None, request_timeout_s=None)
    info: dict = {"dtype": dtype, "dtype_served": engine.dtype.value, "torch": torch.__version__,
                  "torch_threads": torch.get_num_threads(), "load_s": round(time.perf_counter() - started, 2),
                  "after_load": rss_gb(), "requests": {}}
    slot = engine.readouts["slot"]
    for name, payload in REQUESTS.items():
        request = engine.validate(payload)  # onepass.wire.parse_request + the engine's own checks
        prefix = engine.renderer.prefix(request.state)
        reads = {}
        for qid, question in request.questions.items():
            plan = slot.plan(engine.renderer, question)
            assert len(plan.reads) == 1 and not plan.continuations and plan.followup is None, qid
            reads[qid] = {"suffix": list(map(int, plan.reads[0].suffix)),
                          "token_ids": list(map(int, plan.reads[0].token_ids))}
        # What decide spends before the model: validate + render + tokenise (llama.cpp gets ids for free).
        render = []
        for _ in range(5):
            t = time.perf_counter()
            request = engine.validate(payload)
            engine.renderer.prefix(request.state)
            for question in request.questions.values():
                slot.plan(engine.renderer, question)
            render.append(time.perf_counter() - t)
        engine.backend.clear_prefix_cache()
        outcomes = engine.outcomes(request).by_question  # label log-probs before calibration; also a warm-up
        info["requests"][name] = {
            "prefix": list(map(int, prefix)), "reads": reads, "render_ms_p50": round(p50(render) * 1000, 2),
            "probs": {qid: [float(x) for x in o.probs(1.0)] for qid, o in outcomes.items()},
            "label_mass": {qid: float(o.label_mass) for qid, o in outcomes.items()}}
    for payload in REQUESTS.values():  # warm-up of the timed path
        engine.backend.clear_prefix_cache()
        engine.decide(payload)
    info["after_warmup"] = rss_gb()
    proto.write(json.dumps(info) + "\n")
    for line in sys.stdin:
        command = line.strip()
        if command in REQUESTS:
            engine.backend.clear_prefix_cache()  # every timed request pays its own prefill
            t = time.perf_counter()
            engine.decide(REQUESTS[command])
            proto.write(json.dumps({"s": time.perf_counter() - t}) + "\n")
        elif command == "rss":
            proto.write(json.dumps(rss_gb()) + "\n")
        else:
            break


class TorchWorker:
    def __init__(self, dtype: str):
        self.dtype = dtype
        self.proc = subprocess.Popen([str(ONEPASS_PYTHON), __file__, "--torch-worker", dtype], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.pid = self.proc.pid
        self.info = self._reply()

    def _reply(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"torch {self.dtype} worker died (exit status {self.proc.wait()})")
        return json.loads(line)

    def ask(self, command: str) -> dict:
        self.proc.stdin.write(command + "\n")
        return self._reply()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=60)


# -- llama.cpp (runs in .venv-llamacpp) -----------------------------------------------------------------
class LlamaCpp:
    """The low-level llama.cpp API: one context, a unified KV cache, sequences for prefix reuse."""

    def __init__(self, path: Path, n_ctx: int, n_seq: int, threads: int):
        import llama_cpp as L
        from llama_cpp._logger import set_verbose

        set_verbose(False)  # llama.cpp's load/graph chatter to stderr; errors still show
        self.L = L
        L.llama_backend_init()
        mparams = L.llama_model_default_params()
        self.model = L.llama_model_load_from_file(str(path).encode(), mparams)
        if not self.model:
            raise RuntimeError(f"llama.cpp could not load {path}")
        cparams = L.llama_context_default_params()
        cparams.n_ctx = n_ctx
        cparams.n_batch = n_ctx
        cparams.n_ubatch = min(512, n_ctx)
        cparams.n_seq_max = n_seq
        cparams.n_threads = threads
        cparams.n_threads_batch = threads
        cparams.kv_unified = True  # sequences copied from the prefix share its cells
        self.ctx = L.llama_init_from_model(self.model, cparams)
        if not self.ctx:
            raise RuntimeError("llama.cpp could not create a context")
        self.params = {"n_ctx": n_ctx, "n_batch": n_ctx, "n_ubatch": min(512, n_ctx), "n_seq_max": n_seq,
                       "n_threads": threads, "kv_unified": True, "flash_attn_type": int(cparams.flash_attn_type),
                       "type_k": int(cparams.type_k), "type_v": int(cparams.type_v), "load_mode": int(mparams.load_mode)}
        self.mem = L.llama_get_memory(self.ctx)
        self.n_vocab = L.llama_vocab_n_tokens(L.llama_model_get_vocab(self.model))
        self.batch = L.llama_batch_init(n_ctx, 0, 1)

    def _decode(self, items: list[tuple[int, int, int, bool]]) -> None:
        """items: (token, position, sequence, logits wanted)."""
        b = self.batch
        b.n_tokens = len(items)
        for i, (token, pos, seq, logits) in enumerate(items):
            b.token[i] = token
            b.pos[i] = pos
            b.n_seq_id[i] = 1
            b.seq_id[i][0] = seq
            b.logits[i] = logits
        rc = self.L.llama_decode(self.ctx, b)
        if rc != 0:
            raise RuntimeError(f"llama_decode returned {rc}")

    def _label_logprobs(self, index: int, token_ids: list[int]):
        import numpy as np

        ptr = self.L.llama_get_logits_ith(self.ctx, index)
        logits = np.ctypeslib.as_array(ptr, shape=(self.n_vocab,)).astype(np.float64)
        top = logits.max()
        lse = top + np.log(np.exp(logits - top).sum())
        return logits[token_ids] - lse

    def run(self, prefix: list[int], reads: list[dict], mode: str) -> tuple[list, dict]:
        """Prefill the prefix (sequence 0), then every read; (label log-probs per read, phase seconds)."""
        L = self.L
        t0 = time.perf_counter()
        L.llama_memory_clear(self.mem, True)
        n = len(prefix)
        self._decode([(tok, i, 0, i == n - 1) for i, tok in enumerate(prefix)])
        t1 = time.perf_counter()
        out = []
        if mode == "sequential":
            for read in reads:
                suffix = read["suffix"]
                self._decode([(tok, n + j, 0, j == len(suffix) - 1) for j, tok in enumerate(suffix)])
                out.append(self._label_logprobs(-1, read["token_ids"]))
                L.llama_memory_seq_rm(self.mem, 0, n, -1)
        else:
            items, last = [], []
            for k, read in enumerate(reads, start=1):
                L.llama_memory_seq_cp(self.mem, 0, k, -1, -1)
                suffix = read["suffix"]
                items += [(tok, n + j, k, j == len(suffix) - 1) for j, tok in enumerate(suffix)]
                last.append(len(items) - 1)
            self._decode(items)
            out = [self._label_logprobs(i, read["token_ids"]) for i, read in zip(last, reads)]
        t2 = time.perf_counter()
        return out, {"prefill_s": t1 - t0, "reads_s": t2 - t1}


def load_llama(tokens: dict, threads: int, modes, log) -> tuple[LlamaCpp, dict, dict]:
    """llama.cpp with a context that fits the widest request; its load info, and per mode and request the
    label probabilities (the first run of each is also the warm-up)."""
    import numpy as np

    log("loading llama.cpp ...")
    needed = max(len(t["prefix"]) + sum(len(x["suffix"]) for x in t["reads"].values()) for t in tokens.values())
    started = time.perf_counter()
    llama = LlamaCpp(GGUF, (needed + 64 + 255) // 256 * 256, max(len(t["reads"]) for t in tokens.values()) + 1, threads)
    info = {"load_s": round(time.perf_counter() - started, 2), "context": llama.params, "n_vocab": llama.n_vocab,
            "after_load": rss_gb()}
    probs: dict = {m: {} for m in modes}
    for mode in modes:
        for name, t in tokens.items():
            lps, _ = llama.run(t["prefix"], list(t["reads"].values()), mode)
            probs[mode][name] = {"probs": {q: [float(x) for x in softmax(lp)] for q, lp in zip(t["reads"], lps)},
                                 "label_mass": {q: float(np.exp(lp).sum()) for q, lp in zip(t["reads"], lps)}}
    return llama, info, probs


def max_abs_dp(a: dict, b: dict) -> dict:
    """Per question: max over labels of |p_a - p_b|."""
    return {qid: round(max(abs(x - y) for x, y in zip(a[qid], b[qid])), 5) for qid in a}


def cpu_description() -> dict:
    flags, model = set(), platform.machine()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
    wanted = ("avx2", "fma", "avx512f", "avx512_vnni", "avx512_bf16", "amx_tile", "amx_int8", "amx_bf16")
    return {"model": model, "cpus": os.cpu_count(), "flags": [f for f in wanted if f in flags]}


def summarise(calls: list[dict], questions: int) -> dict:
    """p50 over all timed calls, and over the quiet ones (others took < 10% of the CPUs) when >= 3."""
    times = [c["s"] for c in calls]
    quiet = [c["s"] for c in calls if c["others"] < 0.10]
    out = {"times_s": [round(t, 4) for t in times], "others_cpu_share": [c["others"] for c in calls],
           "p50_s": round(p50(times), 4), "min_s": round(min(times), 4),
           "decisions_per_s": round(questions / p50(times), 2), "quiet_calls": len(quiet)}
    if len(quiet) >= 3:
        out["quiet_p50_s"] = round(p50(quiet), 4)
        out["quiet_decisions_per_s"] = round(questions / p50(quiet), 2)
    for phase in ("prefill_s", "reads_s"):
        if all(phase in c for c in calls):
            out[f"{phase[:-2]}_ms_p50"] = round(p50([c[phase] for c in calls]) * 1000, 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default=str(ROOT / "bench/out/llamacpp.json"))
    parser.add_argument("--repeats", type=int, default=5, help="timed calls per engine and request (after a warm-up)")
    parser.add_argument("--threads", type=int, default=2, help="llama.cpp n_threads / n_threads_batch")
    parser.add_argument("--dtypes", default="float32,bfloat16", help="onepass torch dtypes (float32 always runs)")
    parser.add_argument("--resume", action="store_true", help="continue the run checkpointed in JSON.partial")
    parser.add_argument("--max-wait", type=float, default=20.0,
                        help="seconds to wait, before each timed call, for the CPUs to be idle")
    parser.add_argument("--torch-worker", metavar="DTYPE", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.torch_worker:
        torch_worker(args.torch_worker)
        return 0

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    for path, what in ((GGUF, "the GGUF (bash scripts/setup.sh)"), (ONEPASS_PYTHON, "onepass's .venv (bash scripts/setup.sh)")):
        if not path.exists():
            log(f"missing {path}: {what}")
            return 1
    import llama_cpp

    result: dict = {"model": MODEL, "gguf": str(GGUF), "cpu": cpu_description(), "repeats": args.repeats,
                    "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "loadavg_start": [round(x, 2) for x in os.getloadavg()],
                    "llama_cpp_python": llama_cpp.__version__, "llama_system_info": llama_cpp.llama_print_system_info().decode()}
    dtypes = ["float32"] + [d for d in args.dtypes.split(",") if d and d != "float32"]

    # One torch process at a time (float32 first: the reference, and the token ids), each interleaved with
    # llama.cpp, which stays loaded in this process; the peak memory is one torch copy plus the GGUF.
    # Every timed call is checkpointed: --resume continues a run that was killed (a shared machine).
    modes = ("sequential", "batched")
    engines = [f"torch_{d}" for d in dtypes] + [f"llama_{m}" for m in modes]
    checkpoint = Path(args.json + ".partial")
    state = {"calls": {e: {n: [] for n in REQUESTS} for e in engines}, "engines": {}, "reference": None,
             "worker_restarts": [], "runs_started": []}
    if args.resume and checkpoint.exists():
        saved = json.loads(checkpoint.read_text())
        if saved.get("args") == [args.repeats, dtypes]:
            state = saved
            log(f"resuming from {checkpoint}")
    state["args"] = [args.repeats, dtypes]
    state["runs_started"].append(result["started"])
    calls = state["calls"]
    done = {(c["phase"], c["repeat"], name, e) for e in calls for name in calls[e] for c in calls[e][name]}

    def save() -> None:
        checkpoint.parent.mkdir(parents=True, exist_ok=True)
        checkpoint.write_text(json.dumps(state) + "\n")

    def start(dtype: str) -> TorchWorker:
        for attempt in (1, 2):
            try:
                log(f"loading onepass torch {dtype} ...")
                return TorchWorker(dtype)
            except RuntimeError as error:  # killed while loading (a shared machine short of memory)
                state["worker_restarts"].append(f"{dtype} load: {error}")
                if attempt == 2:
                    raise
                time.sleep(30)

    llama = None
    for dtype in dtypes:
        phase = [f"torch_{dtype}"] + [f"llama_{m}" for m in modes]
        todo = [(r, name, engine) for r in range(args.repeats) for name in REQUESTS
                for engine in phase[r % len(phase):] + phase[: r % len(phase)] if (dtype, r, name, engine) not in done]
        if not todo and f"torch_{dtype}" in state["engines"] and state["reference"] is not None:
            continue
        worker = start(dtype)
        if state["reference"] is None:
            state["reference"] = worker.info["requests"]
        reference = state["reference"]
        tokens = {name: {"prefix": r["prefix"], "reads": r["reads"]} for name, r in reference.items()}
        if llama is None:
            llama, result["llama_cpp"], llama_probs = load_llama(tokens, args.threads, modes, log)
        # Per repeat and request: torch and both llama.cpp modes once each, in a rotating order.
        for r, name, engine in todo:
            seen_before = wait_quiet(args.max_wait)
            with Contention([os.getpid(), worker.pid]) as seen:
                if engine.startswith("torch_"):
                    try:
                        call = {"s": worker.ask(name)["s"]}
                    except (RuntimeError, BrokenPipeError) as error:
                        state["worker_restarts"].append(f"{dtype} repeat {r + 1}: {error}")
                        worker = start(dtype)
                        call = {"s": worker.ask(name)["s"]}
                else:
                    t = time.perf_counter()
                    _, phases = llama.run(tokens[name]["prefix"], list(tokens[name]["reads"].values()), engine[6:])
                    call = {"s": time.perf_counter() - t, **phases}
            calls[engine][name].append({**call, "others": seen.others, "phase": dtype, "repeat": r,
                                        "busy_before": seen_before["cpu_busy_before"]})
            save()
            log(f"  {dtype} phase, repeat {r + 1}/{args.repeats} {name} {engine}: {call['s']:.3f}s (others {seen.others:.0%})")
        state["engines"][f"torch_{dtype}"] = {
            **{k: v for k, v in worker.info.items() if k != "requests"}, "after_runs": worker.ask("rss"),
            **{name: {"render_ms_p50": worker.info["requests"][name]["render_ms_p50"],
                      "probs": worker.info["requests"][name]["probs"],
                      "label_mass": worker.info["requests"][name]["label_mass"]} for name in REQUESTS}}
        save()
        worker.close()
    reference = state["reference"]
    tokens = {name: {"prefix": r["prefix"], "reads": r["reads"]} for name, r in reference.items()}
    if llama is None:  # everything was timed before a resume: llama.cpp's probabilities and memory still
        llama, result["llama_cpp"], llama_probs = load_llama(tokens, args.threads, modes, log)
    result["tokens"] = {name: {"prefix": len(t["prefix"]), "suffixes": {q: len(x["suffix"]) for q, x in t["reads"].items()}}
                        for name, t in tokens.items()}
    result["worker_restarts"], result["runs_started"] = state["worker_restarts"], state["runs_started"]
    result["engines"] = {}
    for dtype in dtypes:
        info = state["engines"][f"torch_{dtype}"]
        result["engines"][f"torch_{dtype}"] = {
            **{k: v for k, v in info.items() if k not in REQUESTS},
            **{name: {**summarise(calls[f"torch_{dtype}"][name], len(REQUESTS[name]["questions"])), **info[name]}
               for name in REQUESTS}}
    for mode in modes:  # llama.cpp's calls of every phase together
        result["engines"][f"llama_{mode}"] = {
            "after_runs": rss_gb(),
            **{name: {**summarise(calls[f"llama_{mode}"][name], len(REQUESTS[name]["questions"])), **llama_probs[mode][name]}
               for name in REQUESTS}}
    result["calls"] = calls

    # Agreement of the label distributions with torch float32, per question.
    dp = result["max_abs_dp_vs_torch_float32"] = {
        e: {n: max_abs_dp(result["engines"][e][n]["probs"], reference[n]["probs"]) for n in REQUESTS} for e in engines[1:]}
    result["max_abs_dp_llama_sequential_vs_batched"] = max(
        max(max_abs_dp(llama_probs["sequential"][n]["probs"], llama_probs["batched"][n]["probs"]).values()) for n in REQUESTS)

    labels = {f"torch_{d}": ("onepass torch (decide)", d) for d in dtypes}
    labels.update({f"llama_{m}": (f"llama.cpp {llama_cpp.__version__} ({m} reads)", "Q4_K_M") for m in modes})
    result["table"] = []
    for e in engines:
        data = result["engines"][e]
        result["table"].append({
            "engine": labels[e][0], "dtype": labels[e][1], "p50_3q_s": data["3q"]["p50_s"],
            "decisions_per_s_16q": data["16q"]["decisions_per_s"], "rss_gb": data["after_runs"]["rss_gb"],
            "max_abs_dp_vs_torch_f32": 0.0 if e == "torch_float32" else max(max(v.values()) for v in dp[e].values()),
            "quiet_p50_3q_s": data["3q"].get("quiet_p50_s"), "quiet_decisions_per_s_16q": data["16q"].get("quiet_decisions_per_s"),
            "others_cpu_share_median": p50(data["3q"]["others_cpu_share"] + data["16q"]["others_cpu_share"])})
    best_llama = min(result["engines"][f"llama_{m}"]["3q"]["p50_s"] for m in modes)
    for d in dtypes:
        result[f"llama_speedup_vs_torch_{d}_3q"] = round(result["engines"][f"torch_{d}"]["3q"]["p50_s"] / best_llama, 2)
        # Paired: each torch call over the faster llama.cpp call of the same phase and repeat (same background).
        paired = [t["s"] / min(c["s"] for m in modes for c in calls[f"llama_{m}"]["3q"]
                               if (c["phase"], c["repeat"]) == (t["phase"], t["repeat"]))
                  for t in calls[f"torch_{d}"]["3q"]]
        result[f"llama_speedup_vs_torch_{d}_3q_paired_p50"] = round(p50(paired), 2)
    if "bfloat16" in dtypes:
        result["llama_beats_torch_bf16_by_1_5x"] = result["llama_speedup_vs_torch_bfloat16_3q"] > 1.5
    result["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]

    lines = ["| engine | dtype | 3-question p50 s | 16-question decisions/s | RSS GB | max abs dp vs torch float32 | others' CPU share |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {row['engine']} | {row['dtype']} | {row['p50_3q_s']:.3f} | {row['decisions_per_s_16q']:.2f} | "
              f"{row['rss_gb']:.2f} | {row['max_abs_dp_vs_torch_f32']:.4f} | {row['others_cpu_share_median']:.0%} |"
              for row in result["table"]]
    lines.append("")
    for name in REQUESTS:
        seq = result["engines"]["llama_sequential"][name]
        lines.append(f"{name}: onepass render+tokenise {reference[name]['render_ms_p50']} ms (inside decide; llama.cpp gets "
                     f"the ids); llama.cpp prefill {seq['prefill_ms_p50']} ms of {len(tokens[name]['prefix'])} tokens, "
                     f"sequential reads {seq['reads_ms_p50']} ms, batched reads "
                     f"{result['engines']['llama_batched'][name]['reads_ms_p50']} ms")
    lines.append("speedup of the faster llama.cpp mode (3q p50): " + ", ".join(
        f"vs torch {d} {result[f'llama_speedup_vs_torch_{d}_3q']}x (paired per repeat "
        f"{result[f'llama_speedup_vs_torch_{d}_3q_paired_p50']}x)" for d in dtypes))
    lines.append(f"load average: start {result['loadavg_start']}, end {result['loadavg_end']}")
    print("\n".join(lines))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    checkpoint.unlink(missing_ok=True)
    log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
