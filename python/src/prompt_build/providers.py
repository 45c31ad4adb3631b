"""Each provider's own request shape from a SystemPrompt (docs/runtime.md#provider-adapters), exactly as
``prompt-build/runtime``'s adapters build them: the static prefix and the dynamic
tail on either side of the boundary, the marker never sent."""
import re
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


def _cache_point(ttl: Optional[str]) -> Dict[str, str]:
    return {"type": "default"} if ttl is None else {"type": "default", "ttl": ttl}


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
            blocks.append({"cachePoint": _cache_point(point_ttl)})
    return blocks


def to_openai_request(
    prompt: Sequence[str],
    *,
    prompt_cache_key: Optional[str] = None,
    model: Optional[str] = None,
    cache_mode: Optional[str] = None,
    prompt_cache_retention: Optional[str] = None,
) -> Dict[str, Any]:
    """Responses API fields. Before GPT-5.6: ``instructions`` and a ``prompt_cache_key`` from the static
    prefix hash. GPT-5.6 and later match a cached prefix only at a breakpoint: a developer message of
    ``input_text`` blocks, the static prefix and the tail each closed by an explicit breakpoint, and
    ``prompt_cache_options`` (``implicit`` unless asked, keeping OpenAI's own breakpoint for the conversation)."""
    fn = "to_openai_request"
    check_prompt(fn, prompt)
    check_optional_string(fn, "prompt_cache_key", prompt_cache_key)
    check_optional_string(fn, "model", model)
    check_one_of(fn, "cache_mode", cache_mode, ("implicit", "explicit"))
    check_one_of(fn, "prompt_cache_retention", prompt_cache_retention, ("in_memory", "24h"))
    key = _cache_key(prompt, prompt_cache_key)
    generation = None if model is None else gpt_generation(model)
    if generation is not None and generation >= (5, 6):
        if prompt_cache_retention is not None:
            raise ArgumentError(fn, "prompt_cache_retention", f"absent for {model} (it takes prompt_cache_options.ttl instead)", prompt_cache_retention)
        sides = prompt_sides(prompt)
        content = [{"type": "input_text", "text": text, "prompt_cache_breakpoint": {"mode": "explicit"}} for text in sides if text != ""]
        request: Dict[str, Any] = {"input": [{"role": "developer", "content": content}], "prompt_cache_options": {"mode": cache_mode or "implicit"}}
        if key is not None:
            request["prompt_cache_key"] = key
        return request
    if cache_mode is not None:
        raise ArgumentError(fn, "cache_mode", "absent for models before GPT-5.6 (they take no explicit breakpoints)", cache_mode)
    if prompt_cache_retention == "in_memory" and generation is not None and generation >= (5, 5):
        raise ArgumentError(fn, "prompt_cache_retention", f"'24h' for {model}", prompt_cache_retention)
    request = {"instructions": render_system_prompt(prompt)}
    if key is not None:
        request["prompt_cache_key"] = key
    if prompt_cache_retention is not None:
        request["prompt_cache_retention"] = prompt_cache_retention
    return request


def _cache_key(prompt: Sequence[str], given: Optional[str]) -> Optional[str]:
    key = given
    if key is None:
        digest = static_prefix_hash_of(prompt)
        key = None if digest is None else f"pb-{digest[:32]}"
    if key is not None and (len(key) == 0 or len(key) > PROMPT_CACHE_KEY_MAX_LENGTH):
        raise ArgumentError("to_openai_request", "prompt_cache_key", f"1 to {PROMPT_CACHE_KEY_MAX_LENGTH} characters long", key)
    return key


_GPT = re.compile(r"^(?:openai/)?gpt-(\d+)(?:\.(\d+))?(?:$|-)")


def gpt_generation(model: str) -> Optional[Tuple[int, int]]:
    """``(major, minor)`` of a GPT model id (``gpt-5.6``, ``gpt-5.6-mini-2026-07-01``, ``openai/gpt-6``), or None."""
    match = _GPT.match(model.strip().lower())
    return (int(match.group(1)), int(match.group(2) or 0)) if match else None


def to_gemini_system_instruction(prompt: Sequence[str]) -> Dict[str, List[Dict[str, str]]]:
    """Gemini ``systemInstruction``: one text part, the static prefix first."""
    check_prompt("to_gemini_system_instruction", prompt)
    text = render_system_prompt(prompt)
    return {"parts": [] if text == "" else [{"text": text}]}
