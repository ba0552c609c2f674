"""Training scripts for the local models (issue #8): SoAy SFT, PaSa Selector SFT, Crawler imitation
learning and session-level PPO, and the GGUF export. See training/README.md."""
