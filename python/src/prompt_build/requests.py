"""Request planners (``compiler/runtime/anthropic-request.ts``, ``bedrock-request.ts`` and
``breakpoint-budget.ts``): the provider's request fields with cache breakpoints placed within its
budget. At most 4 breakpoints a request, the caller's included and kept as they are; a longer TTL
before a shorter one; the planner's own places in priority order (end of tools, end of the static
prefix, end of system, last user turn or automatic caching), each it cannot place reported with the
reason. The caller's lists and dicts are never changed: what is marked is a copy, the rest is shared.
The result is the JavaScript runtime's, byte for byte as JSON."""
from collections import abc
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Set, Tuple, Union

from ._arguments import check_one_of, check_prompt
from .errors import ArgumentError
from .providers import _TTL_MINUTES, _cache_control, _cache_point, _checked_sides

#: The most cache breakpoints one request may hold.
MAX_BREAKPOINTS = 4

Position = Tuple[int, ...]


class _Caller(NamedTuple):
    path: str
    field: str
    marker: Mapping[str, Any]
    position: Position
    ttl: Optional[str]


class _Candidate(NamedTuple):
    at: str
    position: Position
    ttl: Optional[str]
    unplaceable: Optional[str] = None


def _is_mapping(value: Any) -> bool:
    """A dict, or another mapping: the fast check first (typing's isinstance is slow, and this runs per block)."""
    return isinstance(value, dict) or isinstance(value, abc.Mapping)


def _effective(ttl: Optional[str]) -> str:
    return "5m" if ttl is None else ttl


def _minutes(ttl: Optional[str]) -> int:
    return _TTL_MINUTES[_effective(ttl)]


def _check_ttl(fn: str, parameter: str, value: Any) -> None:
    check_one_of(fn, parameter, value, _TTL_MINUTES)


def _check_caller(fn: str, caller: Sequence[_Caller], parameter_of: Any) -> None:
    ordered = sorted(caller, key=lambda c: c.position)
    if len(ordered) > MAX_BREAKPOINTS:
        extra = ordered[MAX_BREAKPOINTS]
        raise ArgumentError(
            fn,
            parameter_of(f"{extra.path}.{extra.field}"),
            f"absent: a request holds at most {MAX_BREAKPOINTS} cache breakpoints, and this is the caller's {MAX_BREAKPOINTS + 1}th",
            extra.marker,
        )
    for before, later in zip(ordered, ordered[1:]):
        if _minutes(later.ttl) > _minutes(before.ttl):
            raise ArgumentError(
                fn,
                parameter_of(f"{later.path}.{later.field}.ttl"),
                f"no longer than '{_effective(before.ttl)}', the TTL of the caller's breakpoint at {before.path} before it (a longer TTL must come before a shorter one)",
                later.ttl,
            )


def _plan(caller: Sequence[_Caller], candidates: Sequence[_Candidate]) -> Tuple[List[_Candidate], List[Dict[str, str]]]:
    placed: List[_Candidate] = []
    dropped: List[Dict[str, str]] = []
    for candidate in candidates:
        reason = candidate.unplaceable or _ttl_conflict(caller, candidate) or _budget_spent(len(caller), len(placed))
        if reason is None:
            placed.append(candidate)
        else:
            dropped.append({"at": candidate.at, "reason": reason})
    return placed, dropped


def _ttl_conflict(caller: Sequence[_Caller], candidate: _Candidate) -> Optional[str]:
    own = _minutes(candidate.ttl)
    for other in caller:
        theirs = _minutes(other.ttl)
        before = other.position < candidate.position
        after = other.position > candidate.position
        if (before and own > theirs) or (after and own < theirs):
            side = "before" if before else "after"
            return f"the caller's '{_effective(other.ttl)}' breakpoint at {other.path} comes {side} it, and a longer TTL must come before a shorter one"
    return None


def _budget_spent(callers: int, placed: int) -> Optional[str]:
    if callers + placed < MAX_BREAKPOINTS:
        return None
    return f"a request holds at most {MAX_BREAKPOINTS} cache breakpoints: {callers} placed by the caller, {placed} by the places ranked before it"


def _breakpoint_list(caller: Sequence[_Caller], placed: Sequence[Tuple[_Candidate, str]]) -> List[Dict[str, str]]:
    entries = [(c.position, {"at": "caller", "path": c.path, "ttl": _effective(c.ttl)}) for c in caller]
    entries += [(candidate.position, {"at": candidate.at, "path": path, "ttl": _effective(candidate.ttl)}) for candidate, path in placed]
    return [entry for _, entry in sorted(entries, key=lambda item: item[0])]


def _sides(fn: str, system: Any, ttl: Optional[str], static_ttl: Optional[str], cache: bool) -> List[Tuple[str, bool, Optional[str]]]:
    """The prompt's non-empty sides (text, is_static, ttl), as ``breakpointSides`` gives them."""
    check_prompt(fn, system, "system")
    sides, prefix_ttl = _checked_sides(system, ttl, static_ttl, cache, fn)
    out: List[Tuple[str, bool, Optional[str]]] = []
    if sides.static != "":
        out.append((sides.static, True, prefix_ttl))
    if sides.dynamic != "":
        out.append((sides.dynamic, False, ttl))
    return out


def _place_name(is_static: bool) -> str:
    return "end of static prefix" if is_static else "end of system"


def _last_user(messages: Sequence[Mapping[str, Any]]) -> int:
    m = len(messages) - 1
    while m >= 0 and messages[m]["role"] != "user":
        m -= 1
    return m


# Anthropic Messages API --------------------------------------------------------------------------

_ANTHROPIC = "to_anthropic_request"


def _anthropic_parameter(path: str) -> str:
    return path



def _check_control(holder: Mapping[str, Any], at: str) -> None:
    value = holder.get("cache_control")
    if value is None:
        return
    if not _is_mapping(value) or value.get("type") != "ephemeral":
        raise ArgumentError(_ANTHROPIC, f"{at}.cache_control", "null or { type: 'ephemeral', ttl? }", value)
    _check_ttl(_ANTHROPIC, f"{at}.cache_control.ttl", value.get("ttl"))


def _check_list(fn: str, parameter: str, value: Any, expected: str) -> List[Any]:
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise ArgumentError(fn, parameter, expected, value)
    return list(value)


def _anthropic_tools(value: Any) -> List[Mapping[str, Any]]:
    tools = _check_list(_ANTHROPIC, "tools", value, "an array of tools")
    for i, tool in enumerate(tools):
        if not _is_mapping(tool):
            raise ArgumentError(_ANTHROPIC, f"tools[{i}]", "a tool (an object)", tool)
        _check_control(tool, f"tools[{i}]")
    return tools


def _anthropic_messages(value: Any) -> List[Mapping[str, Any]]:
    messages = _check_list(_ANTHROPIC, "messages", value, "an array of messages")
    for m, message in enumerate(messages):
        at = f"messages[{m}]"
        if not _is_mapping(message):
            raise ArgumentError(_ANTHROPIC, at, "a message (an object)", message)
        if not isinstance(message.get("role"), str):
            raise ArgumentError(_ANTHROPIC, f"{at}.role", "a string", message.get("role"))
        content = message.get("content")
        if isinstance(content, str):
            continue
        if not isinstance(content, (list, tuple)):
            raise ArgumentError(_ANTHROPIC, f"{at}.content", "a string or an array of content blocks", content)
        for j, block in enumerate(content):
            if not _is_mapping(block) or not isinstance(block.get("type"), str):
                raise ArgumentError(_ANTHROPIC, f"{at}.content[{j}]", "a content block (an object with a type)", block)
            _check_control(block, f"{at}.content[{j}]")
    return messages


def _caller_mark(holder: Mapping[str, Any], path: str, position: Position) -> List[_Caller]:
    marker = holder.get("cache_control")
    if not _is_mapping(marker):
        return []
    return [_Caller(path, "cache_control", marker, position, marker.get("ttl"))]


def _automatic_ttl(automatic: Any, ttl: Optional[str], cache: bool) -> Tuple[bool, Optional[str]]:
    if automatic is None or automatic is False:
        return False, None
    if automatic is not True and not _is_mapping(automatic):
        raise ArgumentError(_ANTHROPIC, "automatic", "true, false or { ttl }", automatic)
    auto_ttl = None if automatic is True else automatic.get("ttl")
    _check_ttl(_ANTHROPIC, "automatic.ttl", auto_ttl)
    if cache is False:
        raise ArgumentError(_ANTHROPIC, "automatic", "false or absent when options.cache is false", automatic)
    if _minutes(auto_ttl) > _minutes(ttl):
        raise ArgumentError(
            _ANTHROPIC,
            "automatic.ttl",
            f"no longer than options.ttl ('{_effective(ttl)}'): automatic caching marks the last block, and a longer TTL must come before a shorter one",
            auto_ttl,
        )
    return True, auto_ttl


def _automatic_candidate(messages: Sequence[Mapping[str, Any]], marked: Set[str], ttl: Optional[str]) -> _Candidate:
    candidate = _Candidate("automatic", (3,), ttl)
    if not messages:
        return candidate
    m = len(messages) - 1
    content = messages[m]["content"]
    if isinstance(content, str) or len(content) == 0:
        return candidate
    last = f"messages[{m}].content[{len(content) - 1}]"
    if last not in marked:
        return candidate
    # The API makes it a no-op with the same TTL and refuses the request with another.
    return candidate._replace(unplaceable=f"the request's last block, {last}, already holds the caller's breakpoint")


def _anthropic_turn(messages: Sequence[Mapping[str, Any]], marked: Set[str], ttl: Optional[str]) -> Optional[Tuple[_Candidate, str]]:
    m = _last_user(messages)
    if m < 0:
        return None
    content = messages[m]["content"]
    j = 0 if isinstance(content, str) else len(content) - 1
    path = f"messages[{m}].content[{j}]"
    if path in marked:
        return None
    return _Candidate("last user turn", (2, m, j), ttl, _unplaceable_block(content)), path


def _unplaceable_block(content: Union[str, Sequence[Mapping[str, Any]]]) -> Optional[str]:
    if content == "":
        return "the last user turn is an empty string, and an empty text block cannot be cached"
    if isinstance(content, str):
        return None
    if len(content) == 0:
        return "the last user turn has no content block"
    block = content[-1]
    if block["type"] in ("thinking", "redacted_thinking"):
        return f"the last user turn ends in a {block['type']} block, which cannot carry cache_control"
    if block["type"] == "text" and block.get("text") == "":
        return "the last user turn ends in an empty text block, which cannot be cached"
    return None


def _marked_message(message: Mapping[str, Any], m: int, at: Mapping[str, Optional[str]]) -> Mapping[str, Any]:
    content = message["content"]
    if isinstance(content, str):
        path = f"messages[{m}].content[0]"
        # A string is one text block: the same text, now able to carry the breakpoint.
        if path not in at:
            return message
        return {**message, "content": [{"type": "text", "text": content, "cache_control": _cache_control(at[path])}]}
    for j, block in enumerate(content):
        path = f"messages[{m}].content[{j}]"
        if path in at:
            blocks = list(content)
            blocks[j] = {**block, "cache_control": _cache_control(at[path])}
            return {**message, "content": blocks}
    return message


def to_anthropic_request(
    system: Sequence[str],
    *,
    tools: Optional[Sequence[Mapping[str, Any]]] = None,
    messages: Optional[Sequence[Mapping[str, Any]]] = None,
    ttl: Optional[str] = None,
    static_ttl: Optional[str] = None,
    cache: bool = True,
    automatic: Union[bool, Mapping[str, Any], None] = None,
) -> Dict[str, Any]:
    """Messages API ``tools``, ``system``, ``messages`` (and automatic caching's top-level
    ``cache_control``) with breakpoints placed: ``{"request", "breakpoints", "dropped"}``, as
    ``toAnthropicRequest`` gives them."""
    check_prompt(_ANTHROPIC, system, "system")
    tool_list = _anthropic_tools(tools)
    message_list = _anthropic_messages(messages)
    sides = _sides(_ANTHROPIC, system, ttl, static_ttl, cache)
    auto_on, auto_ttl = _automatic_ttl(automatic, ttl, cache)

    caller = [c for i, tool in enumerate(tool_list) for c in _caller_mark(tool, f"tools[{i}]", (0, i))]
    for m, message in enumerate(message_list):
        if not isinstance(message["content"], str):
            for j, block in enumerate(message["content"]):
                caller += _caller_mark(block, f"messages[{m}].content[{j}]", (2, m, j))
    _check_caller(_ANTHROPIC, caller, _anthropic_parameter)
    marked = {c.path for c in caller}

    candidates: List[Tuple[_Candidate, str]] = []
    if cache:
        prefix_ttl = static_ttl if static_ttl is not None else ttl
        last_tool = len(tool_list) - 1
        if last_tool >= 0 and f"tools[{last_tool}]" not in marked:
            candidates.append((_Candidate("end of tools", (0, last_tool), prefix_ttl), f"tools[{last_tool}]"))
        for i, (_, is_static, side_ttl) in enumerate(sides):
            candidates.append((_Candidate(_place_name(is_static), (1, i), side_ttl), f"system[{i}]"))
        if auto_on:
            candidates.append((_automatic_candidate(message_list, marked, auto_ttl), "cache_control"))
        else:
            turn = _anthropic_turn(message_list, marked, ttl)
            if turn is not None:
                candidates.append(turn)
    placed, dropped = _plan(caller, [c for c, _ in candidates])
    placed_paths = [(c, path) for c, path in candidates if c in placed]
    at = {path: c.ttl for c, path in placed_paths}

    request: Dict[str, Any] = {}
    if tools is not None:
        request["tools"] = [{**tool, "cache_control": _cache_control(at[f"tools[{i}]"])} if f"tools[{i}]" in at else tool for i, tool in enumerate(tool_list)]
    request["system"] = [
        {"type": "text", "text": text, "cache_control": _cache_control(at[f"system[{i}]"])} if f"system[{i}]" in at else {"type": "text", "text": text}
        for i, (text, _, _) in enumerate(sides)
    ]
    if messages is not None:
        request["messages"] = [_marked_message(message, m, at) for m, message in enumerate(message_list)]
    if "cache_control" in at:
        request["cache_control"] = _cache_control(at["cache_control"])
    return {"request": request, "breakpoints": _breakpoint_list(caller, placed_paths), "dropped": dropped}


# Bedrock Converse API ----------------------------------------------------------------------------

_BEDROCK = "to_bedrock_request"


def _bedrock_parameter(path: str) -> str:
    """``toolConfig.tools[1]`` is the keyword ``tool_config``'s ``tools[1]``."""
    return "tool_config" + path[len("toolConfig") :] if path.startswith("toolConfig") else path


def _point(ttl: Optional[str]) -> Dict[str, Dict[str, str]]:
    return {"cachePoint": _cache_point(ttl)}


def _is_point(block: Mapping[str, Any]) -> bool:
    return block.get("cachePoint") is not None


def _check_point(block: Mapping[str, Any], at: str) -> None:
    value = block.get("cachePoint")
    if value is None:
        return
    if not _is_mapping(value) or value.get("type") != "default":
        raise ArgumentError(_BEDROCK, f"{at}.cachePoint", "{ type: 'default', ttl? }", value)
    _check_ttl(_BEDROCK, f"{at}.cachePoint.ttl", value.get("ttl"))


def _bedrock_tools(value: Any) -> List[Mapping[str, Any]]:
    if value is None:
        return []
    if not _is_mapping(value):
        raise ArgumentError(_BEDROCK, "tool_config", "an object { tools }", value)
    tools = value.get("tools")
    if not isinstance(tools, (list, tuple)):
        raise ArgumentError(_BEDROCK, "tool_config.tools", "an array of tools", tools)
    for i, tool in enumerate(tools):
        if not _is_mapping(tool):
            raise ArgumentError(_BEDROCK, f"tool_config.tools[{i}]", "a tool (an object)", tool)
        _check_point(tool, f"tool_config.tools[{i}]")
    return list(tools)


def _bedrock_messages(value: Any) -> List[Mapping[str, Any]]:
    messages = _check_list(_BEDROCK, "messages", value, "an array of messages")
    for m, message in enumerate(messages):
        at = f"messages[{m}]"
        if not _is_mapping(message):
            raise ArgumentError(_BEDROCK, at, "a message (an object)", message)
        if not isinstance(message.get("role"), str):
            raise ArgumentError(_BEDROCK, f"{at}.role", "a string", message.get("role"))
        content = message.get("content")
        if not isinstance(content, (list, tuple)):
            raise ArgumentError(_BEDROCK, f"{at}.content", "an array of content blocks", content)
        for j, block in enumerate(content):
            if not _is_mapping(block):
                raise ArgumentError(_BEDROCK, f"{at}.content[{j}]", "a content block (an object)", block)
            _check_point(block, f"{at}.content[{j}]")
    return messages


def _caller_point(block: Mapping[str, Any], path: str, position: Position) -> List[_Caller]:
    marker = block.get("cachePoint")
    if not _is_mapping(marker):
        return []
    return [_Caller(path, "cachePoint", marker, position, marker.get("ttl"))]


def to_bedrock_request(
    system: Sequence[str],
    *,
    tool_config: Optional[Mapping[str, Any]] = None,
    messages: Optional[Sequence[Mapping[str, Any]]] = None,
    ttl: Optional[str] = None,
    static_ttl: Optional[str] = None,
    cache: bool = True,
) -> Dict[str, Any]:
    """Converse API ``toolConfig``, ``system`` and ``messages`` with ``cachePoint`` blocks placed:
    ``{"request", "breakpoints", "dropped"}``, as ``toBedrockRequest`` gives them."""
    check_prompt(_BEDROCK, system, "system")
    tools = _bedrock_tools(tool_config)
    message_list = _bedrock_messages(messages)
    sides = _sides(_BEDROCK, system, ttl, static_ttl, cache)

    caller = [c for i, tool in enumerate(tools) for c in _caller_point(tool, f"toolConfig.tools[{i}]", (0, i))]
    for m, message in enumerate(message_list):
        for j, block in enumerate(message["content"]):
            caller += _caller_point(block, f"messages[{m}].content[{j}]", (2, m, j))
    _check_caller(_BEDROCK, caller, _bedrock_parameter)

    tools_point = _Candidate("end of tools", (0, len(tools)), static_ttl if static_ttl is not None else ttl)
    side_points = [_Candidate(_place_name(is_static), (1, i), side_ttl) for i, (_, is_static, side_ttl) in enumerate(sides)]
    turn: Optional[Tuple[_Candidate, int]] = None
    m = _last_user(message_list)
    if m >= 0:
        content = message_list[m]["content"]
        if not content or not _is_point(content[-1]):
            candidate = _Candidate("last user turn", (2, m, len(content)), ttl)
            turn = (candidate._replace(unplaceable="the last user turn has no content block") if not content else candidate, m)
    candidates: List[_Candidate] = []
    if cache:
        # A cache point already closing the tools (or the turn) is the caller's: nothing to add there.
        if tools and not _is_point(tools[-1]):
            candidates.append(tools_point)
        candidates += side_points
        if turn is not None:
            candidates.append(turn[0])
    placed, dropped = _plan(caller, candidates)
    placed_paths: List[Tuple[_Candidate, str]] = []

    request: Dict[str, Any] = {}
    if tool_config is not None:
        if tools_point in placed:
            placed_paths.append((tools_point, f"toolConfig.tools[{len(tools)}]"))
            request["toolConfig"] = {**tool_config, "tools": [*tools, _point(tools_point.ttl)]}
        else:
            request["toolConfig"] = tool_config
    blocks: List[Dict[str, Any]] = []
    for (text, _, _), candidate in zip(sides, side_points):
        blocks.append({"text": text})
        if candidate in placed:
            placed_paths.append((candidate, f"system[{len(blocks)}]"))
            blocks.append(_point(candidate.ttl))
    request["system"] = blocks
    if messages is not None:
        planned: List[Mapping[str, Any]] = []
        for index, message in enumerate(message_list):
            if turn is None or index != turn[1] or turn[0] not in placed:
                planned.append(message)
                continue
            content = list(message["content"])
            placed_paths.append((turn[0], f"messages[{index}].content[{len(content)}]"))
            planned.append({**message, "content": [*content, _point(turn[0].ttl)]})
        request["messages"] = planned
    return {"request": request, "breakpoints": _breakpoint_list(caller, placed_paths), "dropped": dropped}
