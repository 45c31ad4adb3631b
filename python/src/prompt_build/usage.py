"""One usage record per provider response (docs/usage.md#the-usage-record), as ``compiler/runtime/usage.ts``
and ``usage-providers.ts`` make it: the same record, key for key, for the same response (the ``usage``
conformance vectors). Each provider's usage is read from its own fields: ``uncached``, ``read`` and
``written`` never overlap and ``input`` is their sum, whatever the provider counts as input.

Responses are the providers' JSON shapes as dicts; an SDK object is read through its ``model_dump`` (or
``to_dict``), and boto3's ``ResponseMetadata.RequestId`` is read as Bedrock's request id.
"""
import re
from datetime import date, datetime, timedelta, timezone
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ._arguments import check_one_of, check_optional_string, check_prompt
from .errors import ArgumentError
from .system_prompt import prompt_source_of, static_prefix_hash_of

USAGE_RECORD_VERSION = 1
CACHE_TTL_NAMES = ("5m", "1h", "30m", "24h", "in_memory")
USAGE_PROVIDERS = ("anthropic", "bedrock", "openai", "gemini")

_FN = "record_usage"
_EXPECTED = (
    "a response of Anthropic Messages, Bedrock Converse, OpenAI Responses or Chat Completions, "
    "or Gemini generateContent (with its usage)"
)
_MAX_SAFE_INTEGER = 2**53 - 1


def record_usage(
    prompt: Sequence[str],
    response: Any,
    *,
    provider: Optional[str] = None,
    model: Optional[str] = None,
    ttl: Optional[str] = None,
    bundle: Optional[str] = None,
    profile: Optional[str] = None,
    agent: Optional[str] = None,
    session: Optional[str] = None,
    previous_response_id: Optional[str] = None,
    time: Any = None,
) -> Dict[str, Any]:
    """The usage record of ``response`` to a request whose system prompt was ``prompt``."""
    check_prompt(_FN, prompt)
    check_one_of(_FN, "provider", provider, USAGE_PROVIDERS)
    check_one_of(_FN, "ttl", ttl, CACHE_TTL_NAMES)
    for name, value in (("model", model), ("bundle", bundle), ("profile", profile), ("agent", agent), ("session", session)):
        check_optional_string(_FN, name, value)
    check_optional_string(_FN, "previous_response_id", previous_response_id)
    when = _iso_time(time)
    usage = read_provider_usage(response)
    source = prompt_source_of(prompt)
    miss = usage["miss"]
    return {
        "v": USAGE_RECORD_VERSION,
        "time": when,
        "provider": provider or usage["provider"],
        "api": usage["api"],
        "model": usage["model"] if usage["model"] is not None else model,
        "profile": source[1] if source is not None and source[0] == "profile" else profile,
        "agent": source[1] if source is not None and source[0] == "agent" else agent,
        "staticPrefixHash": static_prefix_hash_of(prompt),
        "bundle": bundle,
        "tokens": usage["tokens"],
        "ttl": ttl if ttl is not None else usage["ttl"],
        "responseId": usage["responseId"],
        "requestId": usage["requestId"],
        "session": session,
        "miss": None if miss is None else {**miss, "previousResponseId": previous_response_id},
    }


def read_provider_usage(response: Any) -> Dict[str, Any]:
    """The response's usage, by the response's shape (see usage-providers.ts)."""
    fields = _as_mapping(response)
    if isinstance(fields.get("usageMetadata"), Mapping):
        return _read_gemini(fields, fields["usageMetadata"])
    usage = fields.get("usage")
    if not isinstance(usage, Mapping):
        raise ArgumentError(_FN, "response", _EXPECTED, response)
    if "inputTokens" in usage or "outputTokens" in usage:
        return _read_bedrock(fields, usage)
    if "prompt_tokens" in usage:
        return _read_openai(fields, usage, "chat-completions")
    if "input_tokens_details" in usage or fields.get("object") == "response":
        return _read_openai(fields, usage, "responses")
    if "input_tokens" in usage:
        return _read_anthropic(fields, usage)
    raise ArgumentError(_FN, "response", _EXPECTED, response)


def _as_mapping(response: Any) -> Mapping[str, Any]:
    if isinstance(response, Mapping):
        return response
    for method in ("model_dump", "to_dict"):
        dump = getattr(response, method, None)
        if callable(dump):
            fields = dict(dump(by_alias=True) if method == "model_dump" else dump())
            request_id = getattr(response, "_request_id", None)
            if isinstance(request_id, str):
                fields.setdefault("_request_id", request_id)
            return fields
    raise ArgumentError(_FN, "response", _EXPECTED, response)


def _usage(provider: str, api: str, model: Any, response_id: Any, request_id: Any, ttl: Any, tokens: Dict[str, Any], miss: Any) -> Dict[str, Any]:
    return {
        "provider": provider,
        "api": api,
        "model": _text(model),
        "responseId": _text(response_id),
        "requestId": _text(request_id),
        "ttl": _text(ttl),
        "tokens": tokens,
        "miss": miss,
    }


def _read_anthropic(response: Mapping[str, Any], usage: Mapping[str, Any]) -> Dict[str, Any]:
    split = usage.get("cache_creation")
    by_ttl = isinstance(split, Mapping)
    read = _count(usage, "cache_read_input_tokens", "response.usage")
    written = _count(usage, "cache_creation_input_tokens", "response.usage")
    uncached = _count(usage, "input_tokens", "response.usage")
    tokens = {
        "read": read,
        "written": written,
        "written5m": _count(split, "ephemeral_5m_input_tokens", "response.usage.cache_creation") if by_ttl else None,
        "written1h": _count(split, "ephemeral_1h_input_tokens", "response.usage.cache_creation") if by_ttl else None,
        "uncached": uncached,
        "input": read + written + uncached,
        "output": _count(usage, "output_tokens", "response.usage"),
    }
    return _usage("anthropic", "messages", response.get("model"), response.get("id"), response.get("_request_id"), None, tokens, _anthropic_miss(response.get("diagnostics")))


def _anthropic_miss(diagnostics: Any) -> Optional[Dict[str, Any]]:
    """``diagnostics`` is None when none was asked for, or when the prefix was reused; a None reason is pending."""
    if not isinstance(diagnostics, Mapping):
        return None
    reason = diagnostics.get("cache_miss_reason")
    if not isinstance(reason, Mapping):
        return {"reason": "pending", "missedTokens": None}
    kind = _text(reason.get("type")) or "unavailable"
    missed = None if "cache_missed_input_tokens" not in reason else _count(reason, "cache_missed_input_tokens", "response.diagnostics.cache_miss_reason")
    return {"reason": kind, "missedTokens": missed}


def _read_bedrock(response: Mapping[str, Any], usage: Mapping[str, Any]) -> Dict[str, Any]:
    read = _count(usage, "cacheReadInputTokens", "response.usage")
    written = _count(usage, "cacheWriteInputTokens", "response.usage")
    uncached = _count(usage, "inputTokens", "response.usage")
    details = usage.get("cacheDetails")
    split = isinstance(details, list)
    metadata = response.get("$metadata")
    request_id = metadata.get("requestId") if isinstance(metadata, Mapping) else None
    boto = response.get("ResponseMetadata")
    if request_id is None and isinstance(boto, Mapping):
        request_id = boto.get("RequestId")
    tokens = {
        "read": read,
        "written": written,
        "written5m": _ttl_sum(details, "5m") if split else None,
        "written1h": _ttl_sum(details, "1h") if split else None,
        "uncached": uncached,
        "input": read + written + uncached,
        "output": _count(usage, "outputTokens", "response.usage"),
    }
    return _usage("bedrock", "converse", None, None, request_id, None, tokens, None)


def _ttl_sum(details: List[Any], ttl: str) -> int:
    total = 0
    for index, detail in enumerate(details):
        if not isinstance(detail, Mapping):
            raise ArgumentError(_FN, f"response.usage.cacheDetails[{index}]", "an object", detail)
        if detail.get("ttl") == ttl:
            total += _count(detail, "inputTokens", f"response.usage.cacheDetails[{index}]")
    return total


# OpenAI's two APIs name the same counts apart; both count cache reads and writes inside the input total.
_OPENAI_KEYS = {
    "responses": ("input_tokens", "input_tokens_details", "output_tokens"),
    "chat-completions": ("prompt_tokens", "prompt_tokens_details", "completion_tokens"),
}


def _read_openai(response: Mapping[str, Any], usage: Mapping[str, Any], api: str) -> Dict[str, Any]:
    total, details_key, output = _OPENAI_KEYS[api]
    details = usage.get(details_key)
    details = details if isinstance(details, Mapping) else {}
    tokens = _inclusive(
        _count(usage, total, "response.usage"),
        _count(details, "cached_tokens", f"response.usage.{details_key}"),
        _count(details, "cache_write_tokens", f"response.usage.{details_key}"),
        _count(usage, output, "response.usage"),
    )
    # The Responses API echoes the cache options asked; Chat Completions does not.
    options = response.get("prompt_cache_options")
    options = options if isinstance(options, Mapping) else {}
    ttl = _text(options.get("ttl")) or _text(response.get("prompt_cache_retention")) if api == "responses" else None
    miss = _openai_miss(response.get("prompt_cache_diagnostics")) if api == "responses" else None
    return _usage("openai", api, response.get("model"), response.get("id"), response.get("_request_id"), ttl, tokens, miss)


def _openai_miss(diagnostics: Any) -> Optional[Dict[str, Any]]:
    """OpenAI's diagnosis (``prompt_cache_options.comparison_response_id`` asked), its reason in OpenAI's words; a type
    other than a hit or a miss is the reason itself. Not in the typed SDKs' declarations: a value of another type is
    left out, never refused (docs/usage.md#miss-reasons)."""
    kind = _text(diagnostics.get("type")) if isinstance(diagnostics, Mapping) else None
    if kind is None or kind == "cache_hit":
        return None
    if kind != "cache_miss":
        return {"reason": kind, "missedTokens": None}
    missed = diagnostics.get("cache_missed_tokens")
    if isinstance(missed, float) and missed.is_integer():
        missed = int(missed)  # 5.0 is 5, as in JSON and JavaScript
    whole = type(missed) is int and 0 <= missed <= _MAX_SAFE_INTEGER
    return {"reason": _text(diagnostics.get("reason")) or "unavailable", "missedTokens": missed if whole else None}


def _read_gemini(response: Mapping[str, Any], usage: Mapping[str, Any]) -> Dict[str, Any]:
    """Cached content is inside ``promptTokenCount``; tool results fed back are input counted apart; thoughts are output."""
    where = "response.usageMetadata"
    output = _count(usage, "candidatesTokenCount", where) + _count(usage, "thoughtsTokenCount", where)
    tokens = _inclusive(_count(usage, "promptTokenCount", where), _count(usage, "cachedContentTokenCount", where), 0, output)
    tools = _count(usage, "toolUsePromptTokenCount", where)
    tokens = {**tokens, "uncached": tokens["uncached"] + tools, "input": tokens["input"] + tools}
    return _usage("gemini", "generate-content", response.get("modelVersion"), response.get("responseId"), None, None, tokens, None)


def _inclusive(total: int, read: int, written: int, output: int) -> Dict[str, Any]:
    uncached = max(0, total - read - written)
    return {"read": read, "written": written, "written5m": None, "written1h": None, "uncached": uncached, "input": read + written + uncached, "output": output}


def _count(fields: Mapping[str, Any], key: str, where: str) -> int:
    """A token count: absent or None is 0; anything else must be a whole number (5.0 is 5, as in JSON)."""
    value = fields.get(key)
    if value is None:
        return 0
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if type(value) is not int or value < 0 or value > _MAX_SAFE_INTEGER:
        raise ArgumentError(_FN, f"{where}.{key}", "a whole number of tokens", fields.get(key))
    return value


def _text(value: Any) -> Optional[str]:
    return value if isinstance(value, str) and value != "" else None


# 9999-12-31T23:59:59.999Z: the last time both runtimes write with a four-digit year.
_LATEST_MS = 253402300799999
# [0-9], not \d: in Python \d takes any Unicode digit (a fullwidth 2, U+FF12), which JavaScript's \d does not.
_ISO_TIME = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?(?:Z|([+-])([0-9]{2}):([0-9]{2}))")
_EPOCH = datetime(1970, 1, 1)


def _iso_time(time: Any) -> str:
    """``time`` as the record writes it: ISO 8601 in UTC with milliseconds, whatever offset it was given in."""
    if time is None:
        now = datetime.now(timezone.utc).replace(tzinfo=None)
        return _format_ms((now - _EPOCH) // timedelta(milliseconds=1))
    if isinstance(time, bool):
        ms = None
    elif isinstance(time, (int, float)):
        ms = int(time) if time == time and abs(time) != float("inf") else None
    elif isinstance(time, str):
        ms = _parse_iso_time(time)
    else:
        ms = None
    if ms is None or not 0 <= ms <= _LATEST_MS:
        raise ArgumentError(
            _FN, "time", "an ISO 8601 date and time with its offset (…Z, …+02:00) or milliseconds since 1970, before the year 10000", time
        )
    return _format_ms(ms)


def _parse_iso_time(text: str) -> Optional[int]:
    match = _ISO_TIME.fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second = (int(group) for group in match.groups()[:6])
    fraction = int((match.group(7) or "").ljust(3, "0")[:3])
    try:
        days = (date(year, month, day) - date(1970, 1, 1)).days
    except ValueError:
        return None
    if hour > 23 or minute > 59 or second > 59:
        return None
    offset_hours, offset_minutes = int(match.group(9) or 0), int(match.group(10) or 0)
    if offset_hours > 23 or offset_minutes > 59:
        return None
    sign = -1 if match.group(8) == "-" else 1
    local = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + fraction
    return local - sign * (offset_hours * 60 + offset_minutes) * 60_000


def _format_ms(ms: int) -> str:
    moment = _EPOCH + timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
