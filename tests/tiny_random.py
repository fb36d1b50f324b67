"""Tiny randomly initialised causal LMs saved as Hugging Face directories (no downloads)."""

from __future__ import annotations

from pathlib import Path

import torch
from transformers import (
    AutoTokenizer,
    LlamaConfig,
    LlamaForCausalLM,
    PreTrainedTokenizerFast,
)

from onepass import models


def llama_with_smollm_tokenizer(directory: Path, seed: int = 0, max_positions: int = 4096) -> Path:
    """A 2-layer random Llama that uses SmolLM2's real tokenizer and chat template."""
    tokenizer = AutoTokenizer.from_pretrained(models.cache_dir(models.TEST_MODEL))
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=max_positions,
                         tie_word_embeddings=True)
    LlamaForCausalLM(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def llama_with_char_tokenizer(directory: Path) -> Path:
    """A random Llama whose character-level tokenizer has no chat template and no multi-letter tokens,
    so 'Yes' and 'No' are three and two tokens: the slot label scheme cannot read it."""
    from tokenizers import Tokenizer, pre_tokenizers
    from tokenizers import models as tk_models

    alphabet = sorted(set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;?!<>/\n-_\"'{}[]"))
    vocab = {"<unk>": 0, **{ch: i + 1 for i, ch in enumerate(alphabet)}}
    tok = Tokenizer(tk_models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Split("", behavior="isolated")
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", pad_token="<unk>")
    config = LlamaConfig(vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=4096)
    LlamaForCausalLM(config).save_pretrained(directory)
    fast.save_pretrained(directory)
    return directory
