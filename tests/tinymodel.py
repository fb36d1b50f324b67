"""A tiny random Qwen3 with a locally trained tokenizer: no downloads, builds in about a second.

Used by the remote-backend tests: the fake engines and the embedded backend compute with the same weights,
and the vLLM integration test serves the same directory from vLLM's CPU build. Shapes follow what vLLM's CPU
attention accepts (head_dim 64). The lm_head is scaled up so label distributions are far from uniform: a
comparison between backends then means something (near-uniform numbers would agree whatever was read).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)
SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
WORDS = (
    "the a an of to in is it that this for on with as are was be by at or from not but what which who "
    "content question answer options option levels level rate yes no label only best fits match matches "
    "description below above true false customer order refund shipping late arrived broken happy angry "
    "price product support ticket email message review five stars great terrible okay please help thanks "
    "model decision read between exactly one allowed labels nothing else number with if does"
).split()
VERSION = 1  # bump when the recipe changes, so cached builds are rebuilt


def _corpus(rng: random.Random, lines: int = 3000) -> list[str]:
    out = []
    for _ in range(lines):
        words = [rng.choice(WORDS) for _ in range(rng.randint(4, 14))]
        if rng.random() < 0.6:
            words.insert(rng.randrange(len(words) + 1), rng.choice(["Yes", "No", "Yes.", "No."]))
        if rng.random() < 0.3:
            words.append(f"{rng.choice('ABCDEFGH')}. {rng.choice(WORDS)}")
        out.append(" ".join(words).capitalize() + "\nAnswer: " + rng.choice(["Yes", "No", "A", "B", "3"]))
    return out


def build_tokenizer(directory: Path, seed: int = 0):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=640,
        min_frequency=2,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(_corpus(random.Random(seed)), trainer=trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>", unk_token=None, model_max_length=512
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(directory)
    return fast


def build(directory: str | Path, seed: int = 0, hidden: int = 128, layers: int = 2, logit_scale: float = 8.0) -> Path:
    """Write tokenizer + config + safetensors weights into `directory` (reused when already built)."""
    import torch
    from transformers import AutoTokenizer, Qwen3Config, Qwen3ForCausalLM

    directory = Path(directory)
    stamp = directory / "tinymodel.json"
    recipe = {"version": VERSION, "seed": seed, "hidden": hidden, "layers": layers, "logit_scale": logit_scale}
    if stamp.exists() and json.loads(stamp.read_text()) == recipe:
        return directory
    directory.mkdir(parents=True, exist_ok=True)
    build_tokenizer(directory, seed)
    tokenizer = AutoTokenizer.from_pretrained(directory)
    config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=hidden // 64,
        num_key_value_heads=1,
        head_dim=64,
        max_position_embeddings=512,
        rope_theta=10000.0,
        tie_word_embeddings=False,
        bos_token_id=None,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        dtype="float32",
    )
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(config).eval()
    with torch.no_grad():
        model.lm_head.weight.mul_(logit_scale)
    model.save_pretrained(directory, safe_serialization=True)
    stamp.write_text(json.dumps(recipe) + "\n")
    return directory


if __name__ == "__main__":
    import sys

    print(build(sys.argv[1] if len(sys.argv) > 1 else "/tmp/onepass-tinymodel"))


# -- a real vLLM (CPU build) serving a directory, for the integration test and bench/remote_vllm.py --------

REPO = Path(__file__).resolve().parent.parent
VLLM_PYTHON = REPO / ".venv-vllm" / "bin" / "python"


class EngineStartError(RuntimeError):
    pass


class VLLMProcess:
    """`python -m vllm.entrypoints.openai.api_server` from .venv-vllm on 127.0.0.1, in its own process group.

    Use as a context manager; on exit the whole group gets SIGTERM, then SIGKILL. Raises EngineStartError
    (with the log's tail) when .venv-vllm is missing, the server exits, or it is not healthy in time.
    """

    def __init__(self, model_dir, served_name: str, log_path, *, port: int | None = None, timeout_s: float = 420.0,
                 extra_args: tuple[str, ...] = ()):
        self.model_dir = str(model_dir)
        self.served_name = served_name
        self.log_path = Path(log_path)
        self.port = port or _free_port()
        self.timeout_s = timeout_s
        self.extra_args = extra_args
        self.process = None
        self.started_in_s: float | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def __enter__(self):
        import os
        import subprocess
        import time

        import httpx

        if not VLLM_PYTHON.exists():
            raise EngineStartError(
                f"{VLLM_PYTHON} is missing: the vLLM integration test needs vLLM's CPU build in its own venv. "
                "Run `bash scripts/setup-vllm.sh` first."
            )
        env = {
            **os.environ,
            "VLLM_CPU_KVCACHE_SPACE": "1",
            "VLLM_CPU_OMP_THREADS_BIND": "nobind",
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "VLLM_NO_USAGE_STATS": "1",
            "DO_NOT_TRACK": "1",
        }
        env.pop("VIRTUAL_ENV", None)
        command = [
            str(VLLM_PYTHON), "-m", "vllm.entrypoints.openai.api_server",
            "--model", self.model_dir, "--served-model-name", self.served_name,
            "--dtype", "float32", "--max-model-len", "512", "--enforce-eager",
            "--host", "127.0.0.1", "--port", str(self.port), *self.extra_args,
        ]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "wb")
        started = time.monotonic()
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        log.close()
        try:
            while True:
                if self.process.poll() is not None:
                    raise EngineStartError(f"vLLM exited with status {self.process.returncode} while starting:\n{self.log_tail()}")
                try:
                    if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() - started > self.timeout_s:
                    raise EngineStartError(f"vLLM was not healthy after {self.timeout_s:.0f}s:\n{self.log_tail()}")
                time.sleep(1)
        except BaseException:
            self.stop()
            raise
        self.started_in_s = time.monotonic() - started
        return self

    def stop(self) -> None:
        import os
        import signal
        import subprocess

        if self.process is None or self.process.poll() is not None:
            return
        pgid = os.getpgid(self.process.pid)
        os.killpg(pgid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(pgid, signal.SIGKILL)
            self.process.wait(timeout=30)
        try:  # workers left in the group after the parent exited
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def __exit__(self, *exc):
        self.stop()


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
