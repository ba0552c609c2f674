"""The arithmetic of PaSa's session-level PPO (PaSa §4.2, Eq. 1-8), on plain tensors.

The Crawler is a token-level MDP: every generated token is an action a_t of the policy. The
reward of a tool action (Eq. 1) lands on the last token of its text, where the tool runs; the other
tokens carry only the KL penalty of Eq. 3. A session (search session from S_q, expand session from
S_{q+p}) ends with [Stop]; returns are Monte Carlo within the session, and the sessions that the
newly found papers will start enter through their value V(S_{q+p_j}), discounted by gamma_1.

Sign convention: Eq. 5 is an objective to maximise; ``policy_loss`` is its negative, so that every
function here returns something to minimise.
"""

from __future__ import annotations

import torch


def action_reward(relevant_new_papers: int, cost: float, alpha: float) -> float:
    """Eq. 1: r(s_t, a_t) = alpha * sum_i I(q, p_i, t) - c(a_t).

    ``relevant_new_papers`` is the sum of the indicator over the papers the action added; the
    indicator (Eq. 1, or Eq. 2 with the Selector) is ``crawler_env.count_relevant``'s business.
    """
    return alpha * relevant_new_papers - cost


def indicator(in_answer_set: bool, selector_says_true: bool, already_in_queue: bool) -> int:
    """Eq. 2: I(q, p_i, t) = 1 if (Selector(q, p_i) = 1 or p_i in P) and p_i not in Q_t, else 0.

    With no Selector (``selector_says_true=False``) this is Eq. 1's indicator: p_i in P - Q_t.
    """
    return int((selector_says_true or in_answer_set) and not already_in_queue)


def session_returns(
    rewards: torch.Tensor,
    next_session_values: torch.Tensor,
    log_ratio: torch.Tensor,
    gamma0: float,
    gamma1: float,
    beta: float,
) -> torch.Tensor:
    """Eq. 3, for the tokens t = t_i .. t_{i+1}-1 of one session (1-D tensors of equal length):

        R_t = sum_{k=0}^{t_{i+1}-1-t} gamma0^k [ r(s_{t+k}, a_{t+k})
                                                + gamma1 * sum_j V(S_{q+p_j})
                                                - beta * log pi_theta(a_{t+k}|s_{t+k}) / pi_sft(a_{t+k}|s_{t+k}) ]

    ``rewards[k]``: Eq. 1's reward of the action whose text ends at token k (0 elsewhere);
    ``next_session_values[k]``: sum over the papers p_j that action added of the value of the
    expand session each will start, V(S_{q+p_j}) (0 elsewhere); ``log_ratio[k]``: log pi_theta -
    log pi_sft of token k under the sampling policy. (The paper's typesetting writes the KL term
    with a_t, s_t; it is per token, so it is taken at t+k like the reward.) The session ends with
    [Stop], so nothing is bootstrapped past its last token.
    """
    if not (rewards.shape == next_session_values.shape == log_ratio.shape) or rewards.dim() != 1:
        raise ValueError("rewards, next_session_values and log_ratio must be 1-D and of one length")
    per_token = rewards + gamma1 * next_session_values - beta * log_ratio
    returns = torch.empty_like(per_token)
    running = per_token.new_zeros(())
    for index in range(per_token.numel() - 1, -1, -1):
        running = per_token[index] + gamma0 * running
        returns[index] = running
    return returns


def advantages(returns: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
    """Eq. 4: A(s_t, a_t) = R_t - V(s_t), with the values of the sampling-time value model."""
    return returns - values


def masked_mean(values: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    if mask is None:
        return values.mean()
    mask = mask.to(values.dtype)
    return (values * mask).sum() / mask.sum().clamp(min=1.0)


def policy_loss(
    logprobs: torch.Tensor,
    old_logprobs: torch.Tensor,
    advantage: torch.Tensor,
    epsilon: float,
    mask: torch.Tensor | None = None,
) -> torch.Tensor:
    """Minus Eq. 5: -E[min(rho * A, clip(rho, 1 - eps, 1 + eps) * A)], rho = pi_theta / pi_theta_old."""
    ratio = torch.exp(logprobs - old_logprobs)
    unclipped = ratio * advantage
    clipped = torch.clamp(ratio, 1.0 - epsilon, 1.0 + epsilon) * advantage
    return -masked_mean(torch.minimum(unclipped, clipped), mask)


def clipped_values(values: torch.Tensor, old_values: torch.Tensor, epsilon: float) -> torch.Tensor:
    """Eq. 7: V_clip(s_t) = clip(V(s_t), V_old(s_t) - eps, V_old(s_t) + eps)."""
    return torch.maximum(torch.minimum(values, old_values + epsilon), old_values - epsilon)


def value_loss(
    values: torch.Tensor,
    old_values: torch.Tensor,
    returns: torch.Tensor,
    epsilon: float,
    mask: torch.Tensor | None = None,
) -> torch.Tensor:
    """Eq. 6: E[max((R_t - V(s_t))^2, (R_t - V_clip(s_t))^2)]."""
    unclipped = (returns - values) ** 2
    clipped = (returns - clipped_values(values, old_values, epsilon)) ** 2
    return masked_mean(torch.maximum(unclipped, clipped), mask)


def rl_loss(policy: torch.Tensor, value: torch.Tensor, eta: float) -> torch.Tensor:
    """Eq. 8: L_RL = L_policy + eta * L_value."""
    return policy + eta * value


def token_logprobs(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
    """log pi(a_t | s_t) of the chosen tokens: ``logits[..., t, :]`` scores ``tokens[..., t]``."""
    return torch.log_softmax(logits.float(), dim=-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
