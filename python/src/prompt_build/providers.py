"""Each provider's own request shape from a SystemPrompt (SPEC §6.7), exactly as
``prompt-build/runtime``'s adapters build them: the static prefix and the dynamic
tail on either side of the boundary, the marker never sent."""
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

from ._arguments import check_bool, check_one_of, check_optional_string, check_prompt
from .errors import ArgumentError
from .system_prompt import SYSTEM_PROMPT_DYNAMIC_BOUNDARY, render_system_prompt, static_prefix_hash_of

#: The longest ``prompt_cache_key`` OpenAI accepts (characters).
PROMPT_CACHE_KEY_MAX_LENGTH = 64

_TTL_MINUTES = {"5m": 5, "1h": 60}


class PromptSides(NamedTuple):
    static: str
    dynamic: str


def prompt_sides(prompt: Sequence[str]) -> PromptSides:
    """Without a boundary nothing is known to be shared across users: it is all tail."""
    parts = list(prompt)
    if SYSTEM_PROMPT_DYNAMIC_BOUNDARY not in parts:
        return PromptSides("", _join(parts))
    boundary = parts.index(SYSTEM_PROMPT_DYNAMIC_BOUNDARY)
    return PromptSides(_join(parts[:boundary]), _join(parts[boundary + 1 :]))


def _join(parts: Sequence[str]) -> str:
    return "\n\n".join(part for part in parts if part != SYSTEM_PROMPT_DYNAMIC_BOUNDARY)


def _checked_sides(prompt: Sequence[str], ttl: Optional[str], static_ttl: Optional[str], cache: bool, adapter: str) -> Tuple[PromptSides, Optional[str]]:
    """The prompt's sides and the static prefix's TTL, the arguments checked; a breakpoint with a
    longer TTL must come before one with a shorter TTL."""
    check_prompt(adapter, prompt)
    check_bool(adapter, "cache", cache)
    check_one_of(adapter, "ttl", ttl, _TTL_MINUTES)
    check_one_of(adapter, "static_ttl", static_ttl, _TTL_MINUTES)
    prefix = static_ttl if static_ttl is not None else ttl
    if prefix is not None and ttl is not None and _TTL_MINUTES[prefix] < _TTL_MINUTES[ttl]:
        raise ArgumentError(adapter, "static_ttl", f"no shorter than ttl '{ttl}' (a longer TTL must come before a shorter one)", prefix)
    return prompt_sides(prompt), prefix


def _cache_control(ttl: Optional[str]) -> Dict[str, str]:
    return {"type": "ephemeral"} if ttl is None else {"type": "ephemeral", "ttl": ttl}


def _text_block(text: str, control: Optional[Dict[str, str]]) -> Dict[str, Any]:
    return {"type": "text", "text": text, "cache_control": control} if control else {"type": "text", "text": text}


def to_anthropic_system(
    prompt: Sequence[str], *, ttl: Optional[str] = None, static_ttl: Optional[str] = None, cache: bool = True, global_scope: bool = False
) -> List[Dict[str, Any]]:
    """Messages API ``system`` blocks: the static prefix and the tail, each ending in a cache breakpoint."""
    sides, prefix_ttl = _checked_sides(prompt, ttl, static_ttl, cache, "to_anthropic_system")
    check_bool("to_anthropic_system", "global_scope", global_scope)
    blocks: List[Dict[str, Any]] = []
    if sides.static != "":
        control = _cache_control(prefix_ttl) if cache else None
        if control is not None and global_scope:
            control = {**control, "scope": "global"}
        blocks.append(_text_block(sides.static, control))
    if sides.dynamic != "":
        blocks.append(_text_block(sides.dynamic, _cache_control(ttl) if cache else None))
    return blocks


def to_bedrock_system(prompt: Sequence[str], *, ttl: Optional[str] = None, static_ttl: Optional[str] = None, cache: bool = True) -> List[Dict[str, Any]]:
    """Converse API ``system`` blocks: text, each side followed by a ``cachePoint``."""
    sides, prefix_ttl = _checked_sides(prompt, ttl, static_ttl, cache, "to_bedrock_system")
    blocks: List[Dict[str, Any]] = []
    for text, point_ttl in ((sides.static, prefix_ttl), (sides.dynamic, ttl)):
        if text == "":
            continue
        blocks.append({"text": text})
        if cache:
            blocks.append({"cachePoint": {"type": "default"} if point_ttl is None else {"type": "default", "ttl": point_ttl}})
    return blocks


def to_openai_request(prompt: Sequence[str], *, prompt_cache_key: Optional[str] = None) -> Dict[str, str]:
    """Responses API fields: ``instructions``, and a ``prompt_cache_key`` from the static prefix hash."""
    check_prompt("to_openai_request", prompt)
    check_optional_string("to_openai_request", "prompt_cache_key", prompt_cache_key)
    instructions = render_system_prompt(prompt)
    key = prompt_cache_key
    if key is None:
        digest = static_prefix_hash_of(prompt)
        key = None if digest is None else f"pb-{digest[:32]}"
    if key is None:
        return {"instructions": instructions}
    if len(key) == 0 or len(key) > PROMPT_CACHE_KEY_MAX_LENGTH:
        raise ArgumentError("to_openai_request", "prompt_cache_key", f"1 to {PROMPT_CACHE_KEY_MAX_LENGTH} characters long", key)
    return {"instructions": instructions, "prompt_cache_key": key}


def to_gemini_system_instruction(prompt: Sequence[str]) -> Dict[str, List[Dict[str, str]]]:
    """Gemini ``systemInstruction``: one text part, the static prefix first."""
    check_prompt("to_gemini_system_instruction", prompt)
    text = render_system_prompt(prompt)
    return {"parts": [] if text == "" else [{"text": text}]}
