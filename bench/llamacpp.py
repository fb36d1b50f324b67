"""llama.cpp (llama-cpp-python, the CPU anchor) against onepass's torch path: same model, same token ids.

The model is the GGUF onepass ships (Qwen2.5-Coder-1.5B-Instruct Q4_K_M). llama.cpp runs it as-is
(quantised matmuls); onepass dequantises it and runs torch in float32 and bfloat16. Each engine answers
the same requests: bench/latency.py's 3-question request on its ~209-token state, and a 16-question
request on the same state (16 distinct questions, so no engine can share a read).

What is timed, per request, every request paying its own prefill:
  - onepass: `Engine.decide(payload)` in-process (render + tokenise + prefill + reads + answers), the prefix
    cache cleared before each call, as in bench/latency.py;
  - llama.cpp, from onepass's token ids (tokenising is not timed; onepass's render time is reported next
    to it): clear the KV cache, decode the prefix in sequence 0, then the reads, two ways:
      sequential - each suffix decoded on top of the prefix in sequence 0, logits of its last token read,
                   the suffix removed again with llama_memory_seq_rm;
      batched    - the prefix copied to sequences 1..n with llama_memory_seq_cp (a unified KV cache shares
                   the cells), every suffix in one llama_decode, one logits row per suffix.
    The label log-probabilities are a log-softmax over the whole vocabulary of the last logits, read with
    llama_get_logits_ith (the high-level Llama.scores buffer stays zero with logits_all=False).
Reported: p50 over --repeats (after one warm-up) for 3 questions, decisions/s for 16, resident memory
after load and after the runs, and per question the max |delta p| of the label distribution (the labels'
probabilities renormalised over the labels, as the slot readout gives them) against torch float32.
The engines run one after another, never at once (each onepass dtype in its own process, so its memory
is its own); before each the script waits (bounded) for the CPUs to be idle and records the load average.

    bash scripts/setup-llamacpp.sh         # builds .venv-llamacpp (10-15 min on 2 cores)
    .venv-llamacpp/bin/python bench/llamacpp.py --json bench/out/llamacpp.json

The onepass half runs in .venv (the script starts itself there with --onepass-worker).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from latency import QUESTIONS, STATE  # noqa: E402

MODEL = "qwen2.5-coder-1.5b-instruct"
GGUF = Path.home() / ".cache/onepass/models" / MODEL / f"{MODEL}-q4_k_m.gguf"
ONEPASS_PYTHON = ROOT / ".venv/bin/python"

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


def cpu_busy(seconds: float = 2.0) -> float:
    """Fraction of all CPUs busy over the next `seconds` (from /proc/stat)."""
    def snap():
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # total, idle + iowait
    t0, i0 = snap()
    time.sleep(seconds)
    t1, i1 = snap()
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def wait_quiet(max_wait: float, busy_below: float = 0.15, log=print) -> dict:
    """Wait (at most max_wait s) until the machine is idle; returns what was seen, for the JSON."""
    started = time.monotonic()
    busy = cpu_busy()
    while busy >= busy_below and time.monotonic() - started < max_wait:
        busy = cpu_busy(5.0)
    waited = time.monotonic() - started
    if busy >= busy_below:
        log(f"  machine still {busy:.0%} busy after waiting {waited:.0f}s; measuring anyway")
    return {"cpu_busy_before": round(busy, 3), "waited_s": round(waited, 1),
            "loadavg_before": [round(x, 2) for x in os.getloadavg()]}


class Contention:
    """How much of the machine other processes used while a phase ran: (all busy CPU time - this process's
    and its children's) / (wall time x CPUs). Near 0 on a quiet machine; OpenMP spin-waits in both engines
    make any contention on 2 cores cost far more than its share."""

    @staticmethod
    def _snap():
        import resource

        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        hz = os.sysconf("SC_CLK_TCK")
        own = sum(getattr(resource.getrusage(w), f) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
                  for f in ("ru_utime", "ru_stime"))
        return time.monotonic(), (sum(fields) - fields[3] - fields[4]) / hz, own

    def __enter__(self):
        self.start = self._snap()
        return self

    def __exit__(self, *exc):
        (w0, b0, o0), (w1, b1, o1) = self.start, self._snap()
        self.others_cpu_share = round(max(0.0, (b1 - b0) - (o1 - o0)) / max(1e-9, (w1 - w0) * os.cpu_count()), 3)
        self.own_cpu_share = round((o1 - o0) / max(1e-9, (w1 - w0) * os.cpu_count()), 3)


def timed_repeats(call, repeats: int, max_wait: float, before=None) -> dict:
    """Run `call` (returns its own phase seconds or None) `repeats` times, each after `before` (untimed) and
    after waiting (at most max_wait s) for idle CPUs; the times, and the share of the CPUs other processes
    took during each."""
    runs, others, busy_starts = [], [], 0
    for _ in range(repeats):
        if before:
            before()
        if wait_quiet(max_wait, log=lambda m: None)["cpu_busy_before"] >= 0.15:
            busy_starts += 1
        with Contention() as seen:
            t = time.perf_counter()
            phases = call() or {}
            phases["total_s"] = time.perf_counter() - t
        runs.append(phases)
        others.append(seen.others_cpu_share)
    total = [r["total_s"] for r in runs]
    return {"runs": runs, "times_s": [round(x, 4) for x in total], "p50_s": round(p50(total), 4),
            "min_s": round(min(total), 4), "others_cpu_share": others, "repeats_started_busy": busy_starts}


def p50(values: list[float]) -> float:
    return statistics.median(values)


def softmax(lp):
    import numpy as np

    z = np.asarray(lp, dtype=np.float64)
    z = np.exp(z - z.max())
    return z / z.sum()


# -- onepass worker (runs in .venv) ---------------------------------------------------------------------
def onepass_worker(dtype: str, repeats: int, max_wait: float, out: Path) -> None:
    import torch

    from onepass import Engine

    result: dict = {"dtype": dtype, "torch": torch.__version__, "torch_threads": torch.get_num_threads()}
    import inspect

    options = {}
    if "request_timeout_s" in inspect.signature(Engine).parameters:
        options["request_timeout_s"] = None  # a benchmark on a busy machine must not be cut off
    started = time.perf_counter()
    engine = Engine(MODEL, dtype=dtype, log=lambda m: None, **options)
    result["load_s"] = round(time.perf_counter() - started, 2)
    result["dtype_served"] = engine.dtype.value
    result["after_load"] = rss_gb()
    slot = engine.readouts["slot"]
    requests = {}
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
        engine.backend._prefixes.clear()
        _, _, _, _, outcomes = engine.outcomes(request)  # label log-probs before calibration
        requests[name] = {"prefix": list(map(int, prefix)), "reads": reads, "render_ms_p50": round(p50(render) * 1000, 2),
                          "probs": {qid: [float(x) for x in o.probs(1.0)] for qid, o in outcomes.items()},
                          "label_mass": {qid: float(o.label_mass) for qid, o in outcomes.items()}}
    engine.decide(REQUESTS["3q"])  # warm-up
    engine.decide(REQUESTS["16q"])
    for name, payload in REQUESTS.items():
        def decide(payload=payload) -> None:
            engine.decide(payload)

        # Every timed request pays its own prefill: the prefix cache is cleared before each (untimed).
        timing = timed_repeats(decide, repeats, max_wait, before=engine.backend._prefixes.clear)
        timing.pop("runs")
        requests[name].update(timing)
        requests[name]["decisions_per_s"] = round(len(payload["questions"]) / timing["p50_s"], 2)
    result["requests"] = requests
    result["after_runs"] = rss_gb()
    out.write_text(json.dumps(result) + "\n")


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

    def system_info(self) -> str:
        return self.L.llama_print_system_info().decode()


def llama_bench(tokens: dict, repeats: int, threads: int, max_wait: float, log) -> dict:
    import llama_cpp
    import numpy as np

    needed = max(len(r["prefix"]) + sum(len(x["suffix"]) for x in r["reads"].values()) for r in tokens.values())
    n_ctx = (needed + 64 + 255) // 256 * 256
    n_seq = max(len(r["reads"]) for r in tokens.values()) + 1
    started = time.perf_counter()
    engine = LlamaCpp(GGUF, n_ctx, n_seq, threads)
    result: dict = {"llama_cpp_python": llama_cpp.__version__, "load_s": round(time.perf_counter() - started, 2),
                    "context": engine.params, "n_vocab": engine.n_vocab, "system_info": engine.system_info(),
                    "after_load": rss_gb()}
    for mode in ("sequential", "batched"):
        per = {}
        for name, req in tokens.items():
            reads = list(req["reads"].values())
            lps, _ = engine.run(req["prefix"], reads, mode)  # warm-up
            timing = timed_repeats(lambda req=req, reads=reads, mode=mode: engine.run(req["prefix"], reads, mode)[1],
                                   repeats, max_wait)
            phases = timing.pop("runs")
            lps, _ = engine.run(req["prefix"], reads, mode)  # the label log-probs (same every run)
            per[name] = {
                **timing,
                "prefill_ms_p50": round(p50([x["prefill_s"] for x in phases]) * 1000, 1),
                "reads_ms_p50": round(p50([x["reads_s"] for x in phases]) * 1000, 1),
                "decisions_per_s": round(len(reads) / timing["p50_s"], 2),
                "probs": {qid: [float(x) for x in softmax(lp)] for qid, lp in zip(req["reads"], lps)},
                "label_mass": {qid: float(np.exp(lp).sum()) for qid, lp in zip(req["reads"], lps)},
            }
            log(f"  llama.cpp {mode} {name}: p50 {per[name]['p50_s']:.3f}s (prefill {per[name]['prefill_ms_p50']} ms, "
                f"reads {per[name]['reads_ms_p50']} ms)")
        result[mode] = per
    result["after_runs"] = rss_gb()
    return result


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", default=str(ROOT / "bench/out/llamacpp.json"))
    parser.add_argument("--repeats", type=int, default=7, help="timed runs per request (after one warm-up)")
    parser.add_argument("--threads", type=int, default=2, help="llama.cpp n_threads / n_threads_batch")
    parser.add_argument("--dtypes", default="float32,bfloat16", help="onepass torch dtypes to run")
    parser.add_argument("--max-wait-quiet", type=float, default=900.0,
                        help="seconds to wait, before each engine, for the CPUs to be idle (other processes)")
    parser.add_argument("--max-wait-repeat", type=float, default=30.0,
                        help="seconds to wait, before each timed run, for the CPUs to be idle")
    parser.add_argument("--onepass-worker", metavar="DTYPE", help=argparse.SUPPRESS)
    parser.add_argument("--worker-out", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.onepass_worker:
        onepass_worker(args.onepass_worker, args.repeats, args.max_wait_repeat, Path(args.worker_out))
        return 0

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    for path, what in ((GGUF, "the GGUF (bash scripts/setup.sh)"), (ONEPASS_PYTHON, "onepass's .venv (bash scripts/setup.sh)")):
        if not path.exists():
            log(f"missing {path}: {what}")
            return 1
    result: dict = {"model": MODEL, "gguf": str(GGUF), "cpu": cpu_description(), "repeats": args.repeats,
                    "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "onepass": {}, "conditions": {}}

    # onepass first (its float32 run also exports the token ids llama.cpp reads), one process per dtype.
    dtypes = [d for d in args.dtypes.split(",") if d]
    if "float32" in dtypes:
        dtypes.remove("float32")
    dtypes.insert(0, "float32")  # the reference for |delta p|, and the token ids
    for dtype in dtypes:
        result["conditions"][f"torch_{dtype}"] = wait_quiet(args.max_wait_quiet, log=log)
        log(f"onepass torch {dtype} ...")
        with tempfile.NamedTemporaryFile(suffix=".json") as tmp, Contention() as seen:
            subprocess.run([str(ONEPASS_PYTHON), __file__, "--onepass-worker", dtype, "--worker-out", tmp.name,
                            "--repeats", str(args.repeats), "--max-wait-repeat", str(args.max_wait_repeat)],
                           check=True, cwd=ROOT)
            result["onepass"][dtype] = json.loads(Path(tmp.name).read_text())
        result["conditions"][f"torch_{dtype}"].update(
            loadavg_after=[round(x, 2) for x in os.getloadavg()], others_cpu_share=seen.others_cpu_share,
            own_cpu_share=seen.own_cpu_share)
        r = result["onepass"][dtype]["requests"]
        log(f"  3q p50 {r['3q']['p50_s']:.3f}s, 16q {r['16q']['decisions_per_s']} decisions/s")
    reference = result["onepass"]["float32"]["requests"]
    tokens = {name: {"prefix": r["prefix"], "reads": r["reads"]} for name, r in reference.items()}
    result["tokens"] = {name: {"prefix": len(t["prefix"]),
                               "suffixes": {q: len(x["suffix"]) for q, x in t["reads"].items()}} for name, t in tokens.items()}

    result["conditions"]["llama_cpp"] = wait_quiet(args.max_wait_quiet, log=log)
    log("llama.cpp ...")
    with Contention() as seen:
        result["llama_cpp"] = llama_bench(tokens, args.repeats, args.threads, args.max_wait_repeat, log)
    result["conditions"]["llama_cpp"].update(
        loadavg_after=[round(x, 2) for x in os.getloadavg()], others_cpu_share=seen.others_cpu_share,
        own_cpu_share=seen.own_cpu_share)

    # Agreement of the label distributions with torch float32, per question.
    result["max_abs_dp_vs_torch_float32"] = dp = {}
    for dtype in dtypes[1:]:
        dp[f"torch_{dtype}"] = {n: max_abs_dp(result["onepass"][dtype]["requests"][n]["probs"], reference[n]["probs"])
                                for n in REQUESTS}
    for mode in ("sequential", "batched"):
        dp[f"llama_cpp_{mode}"] = {n: max_abs_dp(result["llama_cpp"][mode][n]["probs"], reference[n]["probs"])
                                   for n in REQUESTS}
    result["max_abs_dp_llama_sequential_vs_batched"] = max(
        max(max_abs_dp(result["llama_cpp"]["sequential"][n]["probs"], result["llama_cpp"]["batched"][n]["probs"]).values())
        for n in REQUESTS)

    rows = []
    for dtype in dtypes:
        r = result["onepass"][dtype]
        worst = 0.0 if dtype == "float32" else max(max(v.values()) for v in dp[f"torch_{dtype}"].values())
        rows.append(("onepass torch (decide)", dtype, r["requests"]["3q"]["p50_s"], r["requests"]["16q"]["decisions_per_s"],
                     r["after_runs"]["rss_gb"], worst))
    for mode in ("sequential", "batched"):
        r = result["llama_cpp"][mode]
        worst = max(max(v.values()) for v in dp[f"llama_cpp_{mode}"].values())
        rows.append((f"llama.cpp {result['llama_cpp']['llama_cpp_python']} ({mode} reads)", "Q4_K_M",
                     r["3q"]["p50_s"], r["16q"]["decisions_per_s"], result["llama_cpp"]["after_runs"]["rss_gb"], worst))
    result["table"] = [dict(zip(("engine", "dtype", "p50_3q_s", "decisions_per_s_16q", "rss_gb", "max_abs_dp_vs_torch_f32"), row))
                       for row in rows]
    best_llama = min(result["llama_cpp"][m]["3q"]["p50_s"] for m in ("sequential", "batched"))
    if "bfloat16" in result["onepass"]:
        speedup = result["onepass"]["bfloat16"]["requests"]["3q"]["p50_s"] / best_llama
        result["llama_vs_torch_bf16_3q_speedup"] = round(speedup, 2)
        result["llama_beats_torch_bf16_by_1_5x"] = speedup > 1.5
    result["llama_vs_torch_f32_3q_speedup"] = round(reference["3q"]["p50_s"] / best_llama, 2)
    result["finished"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    result["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]

    lines = ["| engine | dtype | 3-question p50 s | 16-question decisions/s | RSS GB | max abs dp vs torch float32 |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {e} | {d} | {p:.3f} | {s:.1f} | {m:.2f} | {w:.4f} |" for e, d, p, s, m, w in rows]
    for name in REQUESTS:
        lines.append("")
        lines.append(f"{name}: onepass render+tokenise {reference[name]['render_ms_p50']} ms (inside decide; llama.cpp "
                     f"gets the ids), llama.cpp prefill {result['llama_cpp']['sequential'][name]['prefill_ms_p50']} ms "
                     f"of {len(tokens[name]['prefix'])} tokens")
    shares = {f"torch {d}": result["onepass"][d]["requests"] for d in dtypes}
    shares.update({f"llama.cpp {m}": result["llama_cpp"][m] for m in ("sequential", "batched")})
    lines.append("")
    lines.append("other processes' share of the CPUs during the timed runs (median 3q / 16q): " + ", ".join(
        f"{k} {p50(v['3q']['others_cpu_share']):.0%} / {p50(v['16q']['others_cpu_share']):.0%}" for k, v in shares.items())
        + f"; load average at the end {result['loadavg_end']}")
    print("\n".join(lines))
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=1) + "\n")
    log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
