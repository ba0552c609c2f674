"""The training layer: scripts for the local models (issue #8): SoAy SFT, PaSa Selector SFT, Crawler
imitation learning and session-level PPO, and the GGUF export. See training/README.md.

Trains on what the engines write and prompts them with: the records and prompts live in core
(``core.soay.prompts``, ``core.pasa.prompts``, ``core.jsonl``). May import core, indexes, models
and config; never app. Only here is torch imported.
"""
