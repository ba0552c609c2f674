"""PaSa session-level PPO arithmetic (Eq. 1-8) against values worked out by hand."""

import pytest
import torch

from scholar_tui.training.ppo_math import (
    action_reward,
    advantages,
    clipped_values,
    indicator,
    policy_loss,
    rl_loss,
    session_returns,
    value_loss,
)


def test_eq1_reward_is_alpha_per_relevant_new_paper_minus_the_action_cost():
    assert action_reward(2, cost=0.1, alpha=1.5) == pytest.approx(2.9)
    assert action_reward(0, cost=0.1, alpha=1.5) == pytest.approx(-0.1)  # a fruitless [Search]
    assert action_reward(0, cost=0.0, alpha=1.5) == 0.0  # [Stop]


def test_eq2_indicator_counts_answer_set_or_selector_but_never_a_paper_already_queued():
    assert indicator(in_answer_set=True, selector_says_true=False, already_in_queue=False) == 1
    assert indicator(in_answer_set=False, selector_says_true=True, already_in_queue=False) == 1
    assert indicator(in_answer_set=True, selector_says_true=True, already_in_queue=True) == 0
    assert indicator(in_answer_set=False, selector_says_true=False, already_in_queue=False) == 0


def test_eq3_returns_by_hand():
    rewards = torch.tensor([0.0, 1.4, 0.0, -0.1])  # a [Search] that found one relevant paper, then [Stop]-ish cost
    next_values = torch.tensor([0.0, 2.0, 0.0, 0.0])  # sum of V(S_{q+p_j}) of the papers found at token 1
    log_ratio = torch.tensor([0.1, -0.2, 0.0, 0.3])  # log pi_theta - log pi_sft per token
    # x_t = r_t + gamma1 * v_t - beta * log_ratio_t = [-0.01, 1.62, 0, -0.13]
    returns = session_returns(rewards, next_values, log_ratio, gamma0=0.9, gamma1=0.1, beta=0.1)
    # R_3 = -0.13; R_2 = 0.9 * -0.13 = -0.117; R_1 = 1.62 + 0.9 * -0.117 = 1.5147; R_0 = -0.01 + 0.9 * 1.5147
    assert returns.tolist() == pytest.approx([1.35323, 1.5147, -0.117, -0.13], abs=1e-6)
    # Table 9's gamma0 = 1: plain reward-to-go within the session.
    table9 = session_returns(rewards, next_values, log_ratio, gamma0=1.0, gamma1=0.1, beta=0.1)
    assert table9.tolist() == pytest.approx([1.48, 1.49, -0.13, -0.13], abs=1e-6)


def test_eq3_rejects_tensors_of_different_lengths():
    with pytest.raises(ValueError):
        session_returns(torch.zeros(3), torch.zeros(2), torch.zeros(3), 1.0, 0.1, 0.1)


def test_eq4_advantage_is_return_minus_value():
    returns = torch.tensor([1.35323, 1.5147, -0.117, -0.13])
    values = torch.tensor([0.5, 1.0, -0.2, 0.0])
    assert advantages(returns, values).tolist() == pytest.approx([0.85323, 0.5147, 0.083, -0.13], abs=1e-6)


def test_eq5_clipped_policy_loss_by_hand_and_its_gradient():
    old = torch.log(torch.tensor([0.2, 0.4, 0.5, 0.5]))
    ratios = torch.tensor([1.5, 0.5, 1.1, 0.7])
    new = (old + torch.log(ratios)).requires_grad_(True)
    advantage = torch.tensor([1.0, 1.0, -1.0, -1.0])
    # min(rho A, clip(rho, 0.8, 1.2) A) = [1.2, 0.5, -1.1, -0.8]; Eq. 5 is their mean, the loss its negative.
    loss = policy_loss(new, old, advantage, epsilon=0.2)
    assert loss.item() == pytest.approx(-(1.2 + 0.5 - 1.1 - 0.8) / 4)
    loss.backward()
    # Token 0 is clipped (rho = 1.5 > 1.2 with A > 0) and token 3 too (rho = 0.7 < 0.8 with A < 0): no gradient.
    assert new.grad[0].item() == 0.0 and new.grad[3].item() == 0.0
    assert new.grad[1].item() == pytest.approx(-0.5 / 4)  # d(-rho A / 4)/d logprob = -rho A / 4
    assert new.grad[2].item() == pytest.approx(1.1 / 4)
    masked = policy_loss(new.detach(), old, advantage, 0.2, mask=torch.tensor([1.0, 1.0, 1.0, 0.0]))
    assert masked.item() == pytest.approx(-(1.2 + 0.5 - 1.1) / 3)


def test_eq6_eq7_clipped_value_loss_by_hand():
    values = torch.tensor([1.0, 0.0, 0.5])
    old_values = torch.tensor([0.5, 0.5, 0.5])
    returns = torch.tensor([2.0, 0.0, 0.0])
    assert clipped_values(values, old_values, 0.2).tolist() == pytest.approx([0.7, 0.3, 0.5])
    # max((R - V)^2, (R - V_clip)^2) = max([1, 0, 0.25], [1.69, 0.09, 0.25]) = [1.69, 0.09, 0.25]
    loss = value_loss(values, old_values, returns, epsilon=0.2)
    assert loss.item() == pytest.approx((1.69 + 0.09 + 0.25) / 3)
    # Eq. 8 with Table 9's eta = 10.
    assert rl_loss(torch.tensor(0.05), loss, eta=10.0).item() == pytest.approx(0.05 + 10 * 2.03 / 3)
