"""Which system prompt a request actually uses (docs/runtime.md#the-priority-chain). First match wins:
override → coordinator → agent → custom → default; ``append`` is added last in
every case but override, which replaces everything."""
from typing import List, Optional, Sequence, Union

from ._arguments import check_bool, check_prompt_input
from .system_prompt import SYSTEM_PROMPT_DYNAMIC_BOUNDARY, SystemPrompt, as_system_prompt, has_text

#: A prompt as one string or as parts; None, empty and blank parts count as absent.
PromptInput = Union[str, Sequence[str], None]

CUSTOM_AGENT_INSTRUCTIONS_HEADING = "# Custom Agent Instructions"


def build_effective_system_prompt(
    *,
    default_system_prompt: PromptInput,
    override_system_prompt: PromptInput = None,
    coordinator_system_prompt: PromptInput = None,
    agent_system_prompt: PromptInput = None,
    custom_system_prompt: PromptInput = None,
    append_system_prompt: PromptInput = None,
    proactive: bool = False,
) -> SystemPrompt:
    fn = "build_effective_system_prompt"
    for name, value in (
        ("override_system_prompt", override_system_prompt),
        ("coordinator_system_prompt", coordinator_system_prompt),
        ("agent_system_prompt", agent_system_prompt),
        ("custom_system_prompt", custom_system_prompt),
        ("default_system_prompt", default_system_prompt),
        ("append_system_prompt", append_system_prompt),
    ):
        check_prompt_input(fn, name, value)
    check_bool(fn, "proactive", proactive)
    override = _parts(override_system_prompt)
    if override:
        return as_system_prompt(override, derived_from=[override_system_prompt])
    # The prompt in front keeps its static prefix's identity (for provider cache keys) when its prefix is unchanged.
    sources = [coordinator_system_prompt, agent_system_prompt, custom_system_prompt, default_system_prompt]
    base = _base(default_system_prompt, coordinator_system_prompt, agent_system_prompt, custom_system_prompt, proactive)
    return as_system_prompt([*base, *_parts(append_system_prompt)], derived_from=sources)


def _base(default: PromptInput, coordinator_prompt: PromptInput, agent_prompt: PromptInput, custom_prompt: PromptInput, proactive: bool) -> List[str]:
    agent = _parts(agent_prompt)
    coordinator = _parts(coordinator_prompt)
    if coordinator:
        return [*coordinator, *agent]
    if agent:
        if not proactive:
            return agent
        # One part under the heading: an agent prompt's own boundary must not end up inside its text.
        text = "\n\n".join(part for part in agent if part != SYSTEM_PROMPT_DYNAMIC_BOUNDARY)
        return [*_parts(default), f"{CUSTOM_AGENT_INSTRUCTIONS_HEADING}\n{text}"]
    custom = _parts(custom_prompt)
    return custom if custom else _parts(default)


def _parts(prompt: PromptInput) -> List[str]:
    if prompt is None:
        return []
    items = [prompt] if isinstance(prompt, str) else list(prompt)
    return [part for part in items if has_text(part)]
