"""PaSa Crawler session-level PPO (PaSa §4.2 stage two, Eq. 1-8, Appendix A.2, Table 9).

Each PPO step samples session trajectories with the current policy (Appendix A.2: a search session
for each of ``queries_per_step`` queries, then ``expand_sessions`` expand sessions on papers sampled
from the search results, then as many again on papers sampled from those expand results), scores
every action (Eq. 1, with the Selector as auxiliary reward model, Eq. 2), computes the session
returns with the in-session and across-session discounts and the per-token KL penalty to the SFT
policy (Eq. 3), the advantages (Eq. 4), and takes ``epochs_per_step`` passes of the clipped policy
and value losses (Eq. 5-8) over them. For the first ``policy_freezing_steps`` steps only the value
model learns (PaSa §5.1). The defaults are Table 9's.

The policy starts as pi_sft, the imitation-learning model (``crawler-il``'s final/ folder); pi_sft
stays as the KL reference (the policy with its LoRA adapters off, or a frozen copy under full
fine-tuning). The value model V_phi is a copy of pi_sft's transformer with a scalar head.

    scholar-tui train crawler-ppo --model runs/crawler-il/final --output-dir runs/crawler-ppo --environment toy
"""

from __future__ import annotations

import copy
import json
import math
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scholar_tui.core.jsonl import json_objects
from scholar_tui.core.pasa.prompts import Paper, crawler_prompt, parse_actions, selector_prompt
from scholar_tui.training.crawler_env import (
    TABLE9_ACTION_COSTS,
    CrawlerEnvironment,
    SelectorScore,
    StepPaper,
    count_relevant,
)
from scholar_tui.training.errors import TrainingError
from scholar_tui.training.options import option, parse_options, required


@dataclass
class CrawlerPPOOptions:
    model: str = required("the SFT policy pi_sft: crawler-il's final/ folder, a model folder or a Hub id")
    output_dir: str = required("where checkpoints, losses.jsonl and final/ go")
    environment: str = option(
        "toy", "the crawler environment (toy: a built-in dozen papers; the library one comes with PaSa)"
    )
    queries_file: str = option(
        "", 'JSONL of {"query": ...} lines to train on (default: the environment\'s own queries)'
    )
    selector_model: str = option("", "a Selector model (selector-sft's final/) as the auxiliary reward, Eq. 2")
    alpha: float = option(1.5, "reward per newly found relevant paper, Eq. 1 (Table 9)")
    cost_search: float = option(TABLE9_ACTION_COSTS["Search"], "c([Search]), Eq. 1 (Table 9)")
    cost_expand: float = option(TABLE9_ACTION_COSTS["Expand"], "c([Expand]), Eq. 1 (Table 9)")
    cost_stop: float = option(TABLE9_ACTION_COSTS["Stop"], "c([Stop]), Eq. 1 (Table 9)")
    gamma0: float = option(1.0, "in-session discount, Eq. 3 (Table 9)")
    gamma1: float = option(0.1, "across-session discount, Eq. 3 (Table 9)")
    beta: float = option(0.1, "per-token KL penalty coefficient, Eq. 3 (Table 9)")
    epsilon: float = option(0.2, "clip range, Eq. 5-7 (Table 9)")
    eta: float = option(10.0, "value loss coefficient, Eq. 8 (Table 9)")
    learning_rate: float = option(1e-6, "AdamW learning rate (Table 9)")
    epochs_per_step: int = option(2, "passes over each step's sessions (Table 9)")
    forward_batch_size: int = option(1, "sessions per forward pass (Table 9)")
    accumulate_batch_size: int = option(16, "sessions per optimizer step (Table 9)")
    policy_freezing_steps: int = option(50, "steps that train the value model only (Table 9)")
    total_steps: int = option(250, "PPO steps (Table 9)")
    queries_per_step: int = option(4, "user queries per step, one search session each (Appendix A.2)")
    expand_sessions: int = option(6, "expand sessions per round, on papers sampled from the last round (Appendix A.2)")
    expand_rounds: int = option(2, "rounds of expand sessions per step (Appendix A.2)")
    max_new_tokens: int = option(128, "longest session response in tokens")
    temperature: float = option(1.0, "sampling temperature of the rollouts (the ratios use the untempered policy)")
    top_p: float = option(1.0, "nucleus sampling of the rollouts")
    max_prompt_length: int = option(2048, "sessions whose prompt is longer are skipped and counted")
    chat_template: str = option("auto", "auto, on or off: prompt as one chat turn, as crawler-il trained")
    max_grad_norm: float = option(1.0, "gradient clipping norm (0: off)")
    lora: bool = option(False, "train LoRA adapters on the policy and the value model")
    lora_r: int = option(16, "LoRA rank")
    lora_alpha: float = option(32.0, "LoRA alpha")
    lora_dropout: float = option(0.0, "LoRA dropout (0: PPO ratios need the same network at rollout and update)")
    lora_targets: str = option("all-linear", "module names to adapt, or all-linear")
    save_every: int = option(10, "write a checkpoint every N steps (and at the end)")
    seed: int = option(0, "seed for query order, sampling and initialisation")
    device: str = option("auto", "auto (cuda when torch sees a GPU, else cpu), cpu, cuda ...")
    dtype: str = option("auto", "auto, float32, bfloat16 or float16 for the model weights")
    resume: bool = option(True, "resume from OUTPUT_DIR/checkpoint.pt when it exists")
    quiet: bool = option(False, "log to losses.jsonl without printing")


@dataclass
class Session:
    """One sampled session and what PPO needs of it (per-token tensors over the response)."""

    query: str
    paper_id: str | None
    prompt_ids: list[int]
    response_ids: list[int]
    rewards: Any  # (T,) Eq. 1 rewards on the tokens that end an action
    next_values: Any  # (T,) sum of V(S_{q+p_j}) of the papers each action added
    old_logprobs: Any = None
    ref_logprobs: Any = None
    old_values: Any = None
    returns: Any = None
    advantages: Any = None
    found: list[StepPaper] = field(default_factory=list)
    actions: int = 0
    relevant: int = 0


# -- models ------------------------------------------------------------------------------------
def build_value_model(policy, lora_config=None):
    """V_phi: a copy of the policy's transformer (no LM head) with a scalar head per position."""
    import torch
    from torch import nn

    from scholar_tui.training.lora import apply_lora

    class ValueModel(nn.Module):
        def __init__(self, backbone: nn.Module, hidden: int) -> None:
            super().__init__()
            self.backbone = backbone
            self.head = nn.Linear(hidden, 1, dtype=torch.float32)
            nn.init.normal_(self.head.weight, std=1.0 / math.sqrt(hidden + 1))
            nn.init.zeros_(self.head.bias)

        def forward(self, input_ids, attention_mask):
            hidden = self.backbone(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            return self.head(hidden.float()).squeeze(-1)

    backbone = copy.deepcopy(policy.base_model)
    hidden = policy.get_input_embeddings().embedding_dim
    if lora_config is not None:
        apply_lora(backbone, lora_config)  # freezes the backbone; the head below stays trainable
    return ValueModel(backbone, hidden).to(next(policy.parameters()).device)


def make_selector(spec: str, device, chat_setting: str) -> SelectorScore:
    """Selector(q, p) as P(True) of its decision token, the first token of its answer (PaSa §4.3)."""
    import torch

    from scholar_tui.training.runtime import load_model
    from scholar_tui.training.sft import encode_prompt, uses_chat_template

    model, tokenizer = load_model(spec)
    model.to(device).eval()
    chat = uses_chat_template(tokenizer, chat_setting)
    true_id = tokenizer("True", add_special_tokens=False)["input_ids"][0]
    false_id = tokenizer("False", add_special_tokens=False)["input_ids"][0]
    if true_id == false_id:
        raise TrainingError(f"{spec}: 'True' and 'False' start with the same token; the decision token is ambiguous")

    @torch.no_grad()
    def score(query: str, paper: Paper) -> float:
        ids = encode_prompt(tokenizer, selector_prompt(query, paper.title, paper.abstract), chat)
        logits = model(input_ids=torch.tensor([ids], device=device)).logits[0, -1]
        pair = torch.stack([logits[true_id], logits[false_id]]).float()
        return torch.softmax(pair, dim=0)[0].item()

    return score


# -- rollouts ----------------------------------------------------------------------------------
def token_text_ends(tokenizer, ids: list[int]) -> tuple[str, list[int]]:
    """The decoded response and, per token, the length of the text up to and including it."""
    ends = [len(tokenizer.decode(ids[: index + 1], skip_special_tokens=True)) for index in range(len(ids))]
    return tokenizer.decode(ids, skip_special_tokens=True), ends


def token_at(ends: list[int], char_end: int) -> int:
    """The token whose text completes character ``char_end`` (where an action's tool runs)."""
    for index, end in enumerate(ends):
        if end >= char_end:
            return index
    return len(ends) - 1


def score_actions(
    env: CrawlerEnvironment,
    tokenizer,
    query: str,
    response_ids: list[int],
    costs: dict[str, float],
    alpha: float,
    selector: SelectorScore | None,
):
    """Run a response's actions in ``env``; per-token Eq. 1 rewards and the papers each action added.

    The response is cut after its first [Stop] (the session ends there). Returns (kept token ids,
    rewards list, {token index: [StepPaper]}, number of actions, relevant papers found).
    """
    from scholar_tui.training.ppo_math import action_reward

    text, ends = token_text_ends(tokenizer, response_ids)
    actions = parse_actions(text)
    stop = next((index for index, action in enumerate(actions) if action.kind == "Stop"), None)
    if stop is not None:
        actions = actions[: stop + 1]
        response_ids = response_ids[: token_at(ends, actions[-1].end) + 1]
    rewards = [0.0] * len(response_ids)
    found_at: dict[int, list[StepPaper]] = {}
    relevant_total = 0
    for action in actions:
        found = env.step(action)
        index = min(token_at(ends, action.end), len(response_ids) - 1)
        relevant = count_relevant(env, query, found, selector)
        relevant_total += relevant
        rewards[index] += action_reward(relevant, costs[action.kind], alpha)  # Eq. 1
        if found:
            found_at.setdefault(index, []).extend(found)
    return response_ids, rewards, found_at, len(actions), relevant_total


class Rollout:
    """Samples sessions with the policy and fills in what Eq. 3-8 need."""

    def __init__(
        self, options: CrawlerPPOOptions, policy, reference, value_model, tokenizer, env, selector, device, chat: bool
    ) -> None:
        self.options, self.policy, self.reference, self.value_model = options, policy, reference, value_model
        self.tokenizer, self.env, self.selector, self.device, self.chat = tokenizer, env, selector, device, chat
        self.costs = {"Search": options.cost_search, "Expand": options.cost_expand, "Stop": options.cost_stop}
        self.skipped = 0

    def prompt_ids(self, query: str, paper: Paper | None) -> list[int]:
        from scholar_tui.training.sft import encode_prompt

        return encode_prompt(self.tokenizer, crawler_prompt(query, paper), self.chat)

    def generate(self, prompt_ids: list[int]) -> list[int]:
        import torch

        from scholar_tui.training.runtime import autocast

        input_ids = torch.tensor([prompt_ids], device=self.device)
        with torch.no_grad(), autocast(self.device):
            output = self.policy.generate(
                input_ids=input_ids,
                attention_mask=torch.ones_like(input_ids),
                do_sample=True,
                temperature=self.options.temperature,
                top_p=self.options.top_p,
                max_new_tokens=self.options.max_new_tokens,
                pad_token_id=self.tokenizer.pad_token_id,
                eos_token_id=self.tokenizer.eos_token_id,
            )
        return output[0, len(prompt_ids) :].tolist()

    def initial_state_values(self, query: str, papers: list[StepPaper]) -> list[float]:
        """V(S_{q+p_j}): the value of each expand session a new paper will start (Eq. 3)."""
        import torch

        from scholar_tui.training.runtime import autocast

        rows = [self.prompt_ids(query, item.paper)[-self.options.max_prompt_length :] for item in papers]
        values = []
        for offset in range(0, len(rows), 8):
            batch = rows[offset : offset + 8]
            input_ids, attention = pad_right(batch, self.tokenizer.pad_token_id, self.device)
            with torch.no_grad(), autocast(self.device):
                predicted = self.value_model(input_ids, attention)
            last = torch.tensor([len(row) - 1 for row in batch], device=self.device)
            values.extend(predicted[torch.arange(len(batch), device=self.device), last].float().tolist())
        return values

    def session(self, query: str, paper_id: str | None) -> Session | None:
        import torch

        if paper_id is None:
            self.env.reset(query)
            paper = None
        else:
            paper = self.env.expand(query, paper_id)
        prompt_ids = self.prompt_ids(query, paper)
        if len(prompt_ids) > self.options.max_prompt_length:
            self.skipped += 1
            return None
        response_ids = self.generate(prompt_ids)
        if not response_ids:
            self.skipped += 1
            return None
        response_ids, rewards, found_at, actions, relevant = score_actions(
            self.env, self.tokenizer, query, response_ids, self.costs, self.options.alpha, self.selector
        )
        next_values = [0.0] * len(response_ids)
        found: list[StepPaper] = []
        for index, papers in found_at.items():
            next_values[index] = sum(self.initial_state_values(query, papers))
            found.extend(papers)
        session = Session(
            query,
            paper_id,
            prompt_ids,
            response_ids,
            torch.tensor(rewards),
            torch.tensor(next_values),
            found=found,
            actions=actions,
            relevant=relevant,
        )
        self.fill_old_outputs(session)
        return session

    def fill_old_outputs(self, session: Session) -> None:
        """log pi_old, log pi_sft and V_old of every response token, then Eq. 3 and Eq. 4."""
        import torch

        from scholar_tui.training.lora import has_lora, lora_disabled
        from scholar_tui.training.ppo_math import advantages, session_returns
        from scholar_tui.training.runtime import autocast

        with torch.no_grad(), autocast(self.device):
            logprobs, values, mask = forward_sessions(
                self.policy, self.value_model, [session], self.tokenizer.pad_token_id, self.device
            )
            if self.reference is None and has_lora(self.policy):
                with lora_disabled(self.policy):
                    ref_logprobs, _, _ = forward_sessions(
                        self.policy, None, [session], self.tokenizer.pad_token_id, self.device
                    )
            else:
                ref_logprobs, _, _ = forward_sessions(
                    self.reference, None, [session], self.tokenizer.pad_token_id, self.device
                )
        picked = mask[0].bool()
        session.old_logprobs = logprobs[0][picked].float().cpu()
        session.ref_logprobs = ref_logprobs[0][picked].float().cpu()
        session.old_values = values[0][picked].float().cpu()
        o = self.options
        session.returns = session_returns(
            session.rewards,
            session.next_values,
            session.old_logprobs - session.ref_logprobs,
            o.gamma0,
            o.gamma1,
            o.beta,
        )
        session.advantages = advantages(session.returns, session.old_values)

    def step(self, queries: list[str], rng: random.Random) -> list[Session]:
        """Appendix A.2: search sessions, then ``expand_rounds`` rounds of sampled expand sessions."""
        sessions = [session for query in queries if (session := self.session(query, None)) is not None]
        frontier = [(session.query, item.paper_id) for session in sessions for item in session.found]
        for _ in range(self.options.expand_rounds):
            picked = rng.sample(frontier, min(self.options.expand_sessions, len(frontier)))
            round_sessions = [
                session for query, paper_id in picked if (session := self.session(query, paper_id)) is not None
            ]
            sessions.extend(round_sessions)
            frontier = [(session.query, item.paper_id) for session in round_sessions for item in session.found]
        return sessions


def pad_right(rows: list[list[int]], pad_id: int, device):
    import torch

    width = max(len(row) for row in rows)
    input_ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    attention = torch.zeros((len(rows), width), dtype=torch.long)
    for index, row in enumerate(rows):
        input_ids[index, : len(row)] = torch.tensor(row)
        attention[index, : len(row)] = 1
    return input_ids.to(device), attention.to(device)


def forward_sessions(policy, value_model, sessions: list[Session], pad_id: int, device):
    """Per-state log-probabilities of the taken tokens and values, laid out (B, L-1) with a mask.

    State index s = prompt_len - 1 + j is the state before response token j: the logits there score
    token j, and the value there is V(s_t) for it.
    """
    import torch

    from scholar_tui.training.ppo_math import token_logprobs

    rows = [session.prompt_ids + session.response_ids for session in sessions]
    input_ids, attention = pad_right(rows, pad_id, device)
    mask = torch.zeros((len(rows), input_ids.size(1) - 1), device=device)
    for index, session in enumerate(sessions):
        start = len(session.prompt_ids) - 1
        mask[index, start : start + len(session.response_ids)] = 1
    logprobs = None
    if policy is not None:
        logits = policy(input_ids=input_ids, attention_mask=attention).logits[:, :-1]
        logprobs = token_logprobs(logits, input_ids[:, 1:])
    values = value_model(input_ids, attention)[:, :-1] if value_model is not None else None
    return logprobs, values, mask


def lay_out(sessions: list[Session], name: str, mask):
    """A per-token session field placed on the (B, L-1) state grid that ``forward_sessions`` uses."""
    import torch

    grid = torch.zeros_like(mask)
    for index, session in enumerate(sessions):
        start = len(session.prompt_ids) - 1
        grid[index, start : start + len(session.response_ids)] = getattr(session, name).to(grid.device)
    return grid


# -- the loop ----------------------------------------------------------------------------------
def read_query_texts(path: str) -> list[str]:
    """The ``query`` of every line: lines of ``{"query": …}``, or a PaSa query set (``pasa build-queries``)."""
    texts = []
    for where, data in json_objects(path, TrainingError):
        if not isinstance(data.get("query"), str):
            raise TrainingError(f"{where}: each line needs a string field 'query'")
        texts.append(data["query"])
    return texts


def update(
    options: CrawlerPPOOptions,
    policy,
    value_model,
    optimizer,
    sessions: list[Session],
    frozen: bool,
    pad_id: int,
    device,
    rng: random.Random,
) -> dict[str, float]:
    """``epochs_per_step`` passes of Eq. 5-8 over the step's sessions; the mean losses."""
    import torch

    from scholar_tui.training.ppo_math import policy_loss, rl_loss, value_loss
    from scholar_tui.training.runtime import autocast

    trainable = [p for group in optimizer.param_groups for p in group["params"]]
    policy_losses, value_losses = [], []
    for _ in range(options.epochs_per_step):
        order = sessions[:]
        rng.shuffle(order)
        for start in range(0, len(order), options.accumulate_batch_size):
            group = order[start : start + options.accumulate_batch_size]
            optimizer.zero_grad(set_to_none=True)
            for offset in range(0, len(group), options.forward_batch_size):
                batch = group[offset : offset + options.forward_batch_size]
                with autocast(device):
                    # While the policy is frozen (Table 9), only the value model sees a gradient.
                    logprobs, values, mask = forward_sessions(
                        None if frozen else policy, value_model, batch, pad_id, device
                    )
                    returns = lay_out(batch, "returns", mask)
                    value = value_loss(
                        values.float(), lay_out(batch, "old_values", mask), returns, options.epsilon, mask
                    )
                    if frozen:
                        loss = options.eta * value
                    else:
                        policy_part = policy_loss(
                            logprobs,
                            lay_out(batch, "old_logprobs", mask),
                            lay_out(batch, "advantages", mask),
                            options.epsilon,
                            mask,
                        )
                        loss = rl_loss(policy_part, value, options.eta)
                        policy_losses.append(policy_part.item())
                value_losses.append(value.item())
                (loss * len(batch) / len(group)).backward()
            if options.max_grad_norm > 0:
                torch.nn.utils.clip_grad_norm_(trainable, options.max_grad_norm)
            optimizer.step()
    # policy_loss is None while the policy is frozen (JSON has no NaN).
    return {"policy_loss": _mean(policy_losses), "value_loss": _mean(value_losses)}


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def train(options: CrawlerPPOOptions) -> dict[str, Any]:
    import torch

    from scholar_tui.training.crawler_env import make_environment
    from scholar_tui.training.lora import LoRAConfig, apply_lora
    from scholar_tui.training.options import options_dict
    from scholar_tui.training.runtime import (
        LOSS_LOG,
        LossLog,
        load_checkpoint,
        load_model,
        pick_device,
        pick_dtype,
        save_checkpoint,
        save_final,
        seed_everything,
    )
    from scholar_tui.training.sft import uses_chat_template

    for name in ("epochs_per_step", "forward_batch_size", "accumulate_batch_size", "queries_per_step", "total_steps"):
        if getattr(options, name) < 1:
            raise TrainingError(f"{name} must be at least 1")
    seed_everything(options.seed)
    output_dir = Path(options.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    env = make_environment(options.environment)
    queries = read_query_texts(options.queries_file) if options.queries_file else env.training_queries()
    if not queries:
        raise TrainingError("no training queries")

    device = pick_device(options.device)
    dtype = pick_dtype(options.dtype, device, options.lora)
    if not options.lora and dtype != torch.float32:
        raise TrainingError("full fine-tuning keeps float32 weights; drop --dtype or add --lora")
    policy, tokenizer = load_model(options.model, dtype)
    chat = uses_chat_template(tokenizer, options.chat_template)
    lora = (
        LoRAConfig(options.lora_r, options.lora_alpha, options.lora_dropout, options.lora_targets)
        if options.lora
        else None
    )
    value_model = build_value_model(policy, lora)
    if lora is not None:
        apply_lora(policy, lora)
        reference = None  # pi_sft is the policy with its adapters off
    else:
        reference = copy.deepcopy(policy).requires_grad_(False)
        reference.to(device).eval()
    policy.to(device).eval()  # eval throughout: dropout would make pi_old and pi_theta differ
    value_model.to(device).eval()
    selector = (
        make_selector(options.selector_model, device, "auto") if options.selector_model else env.selector_probability
    )

    parameters = [p for p in list(policy.parameters()) + list(value_model.parameters()) if p.requires_grad]
    optimizer = torch.optim.AdamW(parameters, lr=options.learning_rate)
    progress = {"step": 0, "cursor": 0}
    if options.resume:
        restored = load_checkpoint(output_dir, {"policy": policy, "value": value_model}, optimizer)
        if restored is not None:
            progress = restored
            print(f"resumed from {output_dir / 'checkpoint.pt'} at step {progress['step']}", flush=True)
    (output_dir / "config.json").write_text(json.dumps(options_dict(options), indent=2))

    rollout = Rollout(options, policy, reference, value_model, tokenizer, env, selector, device, chat)
    log = LossLog(output_dir / LOSS_LOG)
    order = queries[:]
    random.Random(options.seed).shuffle(order)
    last: dict[str, Any] = {}
    while progress["step"] < options.total_steps:
        began = time.monotonic()
        step_rng = random.Random(options.seed * 1_000_003 + progress["step"])
        batch = [order[(progress["cursor"] + index) % len(order)] for index in range(options.queries_per_step)]
        sessions = rollout.step(batch, step_rng)
        if not sessions:
            raise TrainingError("every session was skipped (prompts longer than --max-prompt-length?)")
        frozen = progress["step"] < options.policy_freezing_steps
        losses = update(
            options, policy, value_model, optimizer, sessions, frozen, tokenizer.pad_token_id, device, step_rng
        )
        progress["step"] += 1
        progress["cursor"] = (progress["cursor"] + options.queries_per_step) % len(order)
        tokens = sum(len(session.response_ids) for session in sessions)
        last = {
            "step": progress["step"],
            "policy_frozen": frozen,
            "sessions": len(sessions),
            "return": sum(session.returns[0].item() for session in sessions) / len(sessions),
            "reward": sum(session.rewards.sum().item() for session in sessions) / len(sessions),
            "relevant_found": sum(session.relevant for session in sessions),
            "actions": sum(session.actions for session in sessions),
            "kl": sum((s.old_logprobs - s.ref_logprobs).sum().item() for s in sessions) / max(tokens, 1),
            **losses,
            "step_s": round(time.monotonic() - began, 3),
        }
        if not all(math.isfinite(value) for value in losses.values() if value is not None):
            raise TrainingError(f"loss became non-finite at step {progress['step']}: {losses}")
        log.log(last, quiet=options.quiet)
        if progress["step"] % options.save_every == 0 or progress["step"] == options.total_steps:
            save_checkpoint(output_dir, {"policy": policy, "value": value_model}, optimizer, dict(progress))
    final = save_final(
        policy,
        tokenizer,
        output_dir / "final",
        options.model,
        lora,
        {"script": "crawler-ppo", "chat_template": chat, "steps": progress["step"]},
    )
    return {
        "steps": progress["step"],
        "last": last,
        "skipped_sessions": rollout.skipped,
        "final": str(final),
        "checkpoint": str(output_dir / "checkpoint.pt"),
        "losses": str(output_dir / LOSS_LOG),
        "device": str(device),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    options = parse_options(CrawlerPPOOptions, argv, "scholar-tui train crawler-ppo", __doc__.split("\n\n")[0])
    return train(options)


if __name__ == "__main__":
    from scholar_tui.training.cli_entry import run_script

    run_script(main)
