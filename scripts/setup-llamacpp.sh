#!/usr/bin/env bash
# Build llama-cpp-python from source into its own virtualenv, .venv-llamacpp, for bench/llamacpp.py (the
# CPU anchor onepass's torch path is measured against). Optional: scripts/setup.sh does not call it.
#
# The build is native (-march=native through GGML_NATIVE=ON), so the library only runs on a CPU with the
# same instruction sets: the check below compares what ggml was compiled with against /proc/cpuinfo
# (AVX2, AVX-512, AVX-512 VNNI/BF16, AMX) and rebuilds on a mismatch. It compiles in roughly 8-15 minutes
# on 2 cores. Idempotent: a second run on the same machine only checks. Exits non-zero, loudly, on failure.
#
#   bash scripts/setup-llamacpp.sh          # PYTHON=python3.11 to choose the interpreter
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-llamacpp
LLAMA_CPP_PYTHON_VERSION=0.3.36
# Its runtime dependencies, pinned (numpy/jinja2/typing-extensions as in requirements/lock.txt).
DEPS=("numpy==2.4.6" "diskcache==5.6.3" "jinja2==3.1.6" "typing-extensions==4.16.0")
PY=${PYTHON:-python3}
LOG=$VENV/build.log

fail() { echo "setup-llamacpp: FAILED: $*" >&2; exit 1; }
trap 'fail "command on line $LINENO exited with status $?"' ERR

check() {
    "$VENV/bin/python" - "$LLAMA_CPP_PYTHON_VERSION" <<'EOF'
import importlib.metadata as md
import sys

want = sys.argv[1]
try:
    got = md.version("llama_cpp_python")
except md.PackageNotFoundError:
    got = None
if got != want:
    print(f"llama-cpp-python is {got}, want {want}", file=sys.stderr)
    sys.exit(1)
import llama_cpp

info = llama_cpp.llama_print_system_info().decode()
built = {p.split("=")[0].strip() for p in info.replace("|", " | ").split("|") if p.strip().endswith("= 1")}
host = set()
with open("/proc/cpuinfo") as f:
    for line in f:
        if line.startswith("flags"):
            host = set(line.split(":", 1)[1].split())
            break
# /proc/cpuinfo flag -> ggml's name for it. A mismatch either way is wrong: missing means a slow generic
# build, extra means the library was built on another CPU and dies with SIGILL here.
features = {"avx2": "AVX2", "avx512f": "AVX512", "avx512_vnni": "AVX512_VNNI", "avx512_bf16": "AVX512_BF16",
            "amx_int8": "AMX_INT8"}
problems = [f"{name}: cpu has it={flag in host}, ggml built with it={name in built}"
            for flag, name in features.items() if (flag in host) != (name in built)]
if problems:
    print("native build does not match this CPU: " + "; ".join(problems), file=sys.stderr)
    print(info, file=sys.stderr)
    sys.exit(1)
enabled = " ".join(n for n in features.values() if n in built) or "no AVX2/AVX-512/AMX"
print(f"llama-cpp-python {got} (ggml: {enabled})")
EOF
}

if [ -x "$VENV/bin/python" ] && have=$(check 2>/dev/null); then
    echo "setup-llamacpp: $VENV already has $have"
    exit 0
fi

started=$(date +%s)
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "pip==26.3"
command -v cmake >/dev/null || echo "setup-llamacpp: no system cmake; pip's build isolation fetches one" >&2
# GGML_NATIVE=ON: -march=native, so AVX2 / AVX-512 / AMX are used where this CPU has them. LLAVA_BUILD=OFF:
# the multimodal library is not needed for text and is a large part of the compile time. No pip cache: a
# cached wheel from another CPU would bring the wrong instruction sets.
echo "setup-llamacpp: compiling llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (log: $LOG; 8-15 min on 2 cores)"
CMAKE_ARGS="-DGGML_NATIVE=ON -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_TOOLS=OFF ${CMAKE_ARGS:-}" \
CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
"$VENV/bin/python" -m pip install -v --disable-pip-version-check --no-cache-dir --force-reinstall \
    --no-binary llama-cpp-python "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" "${DEPS[@]}" >"$LOG" 2>&1 \
    || { tail -n 40 "$LOG" >&2; fail "pip could not build llama-cpp-python (full log: $LOG)"; }
grep -m1 -o "Adding CPU backend variant.*" "$LOG" || true  # expect "ggml-cpu: -march=native"
check || fail "$VENV does not hold a working native llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (see above)"
echo "setup-llamacpp: built and installed in $(( $(date +%s) - started ))s"
