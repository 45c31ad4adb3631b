"""Where the run-time contexts go (docs/context.md#where-the-parts-go): the system context after the system
prompt, in the dynamic tail; the user context as a first user message, so it
never touches the cached system prompt at all. The message's wording is the
bundle's ``user-context`` text (context_wording.py)."""
from typing import Any, Dict, List, Mapping, Sequence, Tuple, Union

from ._arguments import check_bundle, check_entries, check_prompt
from ._js import js_keys
from .errors import ArgumentError
from .bundle import Bundle
from .context_wording import render_context_text
from .system_prompt import SystemPrompt, as_system_prompt, has_text


def append_system_context(system_prompt: SystemPrompt, system_context: Mapping[str, str]) -> SystemPrompt:
    """The system context as one last part of ``key: value`` lines; blank values are left out."""
    check_prompt("append_system_context", system_prompt, "system_prompt")
    check_entries("append_system_context", "system_context", system_context)
    entries = _filled(system_context)
    if not entries:
        return system_prompt
    return as_system_prompt([*system_prompt, "\n".join(f"{key}: {value}" for key, value in entries)], derived_from=[system_prompt])


def prepend_user_context(messages: Sequence[Any], user_context: Mapping[str, str], wording: Bundle = None) -> List[Union[Dict[str, str], Any]]:
    """A new list: the user context as a first user message, then ``messages``; ``wording`` is the
    bundle whose ``context`` profile words the message."""
    if not isinstance(messages, (list, tuple)):
        raise ArgumentError("prepend_user_context", "messages", "a sequence of messages", messages)
    check_entries("prepend_user_context", "user_context", user_context)
    # Checked even when the context is empty, so a call missing it fails on the first test, not in production.
    check_bundle("prepend_user_context", "wording", wording, "the bundle whose context profile words the message (parts.wording)")
    entries = _filled(user_context)
    if not entries:
        return list(messages)
    content = render_context_text(wording, "user-context", {"entries": [{"key": key, "value": value} for key, value in entries]})
    return [{"role": "user", "content": content}, *messages]


def _filled(context: Mapping[str, str]) -> List[Tuple[str, str]]:
    # Object.entries order, as the JavaScript runtime sees the same JSON object.
    return [(key, context[key]) for key in js_keys(context) if has_text(context[key])]
