"""A tiny randomly initialised Llama and its tokenizer, built offline: for tests and CPU smoke runs.

The tokenizer is a Llama-style byte-fallback BPE over single characters (every byte is reachable,
so any text encodes), which llama.cpp's converter accepts, so the export can be tried end to end.
The model knows nothing; it exists to show that a script runs, saves, resumes and exports.
"""

from __future__ import annotations

import string
from pathlib import Path

# A chat template in the usual Jinja form, for trying --chat-template on.
TINY_CHAT_TEMPLATE = (
    "{% for message in messages %}<{{ message['role'] }}>{{ message['content'] }}\n{% endfor %}"
    "{% if add_generation_prompt %}<assistant>{% endif %}"
)


def tiny_tokenizer(chat_template: bool = False):
    from tokenizers import Tokenizer, decoders, models, normalizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"<unk>": 0, "<s>": 1, "</s>": 2}
    for byte in range(256):
        vocab[f"<0x{byte:02X}>"] = len(vocab)
    for character in "▁" + string.ascii_letters + string.digits + string.punctuation + "\n":
        vocab.setdefault(character, len(vocab))
    model = models.BPE(vocab=vocab, merges=[], unk_token="<unk>", byte_fallback=True, fuse_unk=True)
    tokenizer = Tokenizer(model)
    tokenizer.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    tokenizer.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(), decoders.Strip(" ", 1, 0)]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="</s>"
    )
    if chat_template:
        fast.chat_template = TINY_CHAT_TEMPLATE
    return fast


def build_tiny_model(
    folder: str | Path, *, hidden: int = 32, layers: int = 2, seed: int = 0, chat_template: bool = False
) -> Path:
    """Write a random LlamaForCausalLM (hidden ``hidden``, ``layers`` layers) and its tokenizer."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    folder = Path(folder)
    tokenizer = tiny_tokenizer(chat_template)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(folder))
    tokenizer.save_pretrained(str(folder))
    return folder
