"""The usage record through OpenTelemetry (``compiler/runtime/usage-opentelemetry.ts``, docs/usage.md#opentelemetry): the
GenAI semantic conventions' attributes and the ``gen_ai.client.token.usage`` histogram, plus ``prompt_build.*``.

``opentelemetry-api`` is optional: ``open_telemetry_usage_sink`` imports it when called, and returns a sink
that does nothing when it is not installed (``sink.enabled`` says which). The attributes themselves are
plain data, the same as the JavaScript runtime's (the ``usage`` conformance vectors).
"""
import calendar
from typing import Any, Dict, List, Optional, Tuple

PROVIDER_NAMES = {"anthropic": "anthropic", "bedrock": "aws.bedrock", "openai": "openai", "gemini": "gcp.gen_ai"}
_SCOPE = "prompt-build"
# The bucket boundaries the conventions give for ``gen_ai.client.token.usage``.
_TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864]


def usage_metric_attributes(record: Dict[str, Any]) -> Dict[str, Any]:
    """What identifies the operation, the model and the prompt: few values each, so fit for metrics too."""
    attributes: Dict[str, Any] = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": PROVIDER_NAMES[record["provider"]]}
    for key, value in (
        ("gen_ai.request.model", record["model"]),
        ("prompt_build.profile", record["profile"]),
        ("prompt_build.agent", record["agent"]),
        ("prompt_build.static_prefix_hash", record["staticPrefixHash"]),
    ):
        if value is not None:
            attributes[key] = value
    return attributes


def usage_attributes(record: Dict[str, Any]) -> Dict[str, Any]:
    """Every attribute of the record, for a span."""
    tokens = record["tokens"]
    miss = record["miss"] or {}
    sections = miss.get("sections")
    attributes = {
        **usage_metric_attributes(record),
        # Every record has an api: it marks the spans this sink filled, for ``prompt-build usage`` reading an export.
        "prompt_build.api": record["api"],
        "gen_ai.usage.input_tokens": tokens["input"],
        "gen_ai.usage.output_tokens": tokens["output"],
        "gen_ai.usage.cache_read.input_tokens": tokens["read"],
        "gen_ai.usage.cache_creation.input_tokens": tokens["written"],
    }
    optional: List[Tuple[str, Any]] = [
        ("gen_ai.response.id", record["responseId"]),
        ("gen_ai.conversation.id", record["session"]),
        ("prompt_build.bundle", record["bundle"]),
        ("prompt_build.cache.ttl", record["ttl"]),
        ("prompt_build.usage.cache_creation_5m.input_tokens", tokens["written5m"]),
        ("prompt_build.usage.cache_creation_1h.input_tokens", tokens["written1h"]),
        ("prompt_build.cache.miss_reason", miss.get("reason")),
        ("prompt_build.cache.missed_input_tokens", miss.get("missedTokens")),
        ("prompt_build.cache.changed_sections", None if sections is None else [f"{s['name']}:{s['change']}" for s in sections]),
    ]
    for key, value in optional:
        if value is not None:
            attributes[key] = value
    return attributes


def _record_nanos(time: str) -> int:
    """The record's time (``YYYY-MM-DDTHH:MM:SS.mmmZ``, as both runtimes write it) in nanoseconds since 1970."""
    seconds = calendar.timegm((int(time[0:4]), int(time[5:7]), int(time[8:10]), int(time[11:13]), int(time[14:16]), int(time[17:19]), 0, 0, 0))
    return (seconds * 1000 + int(time[20:23])) * 1_000_000


def _token_histogram(meter: Any) -> Any:
    name, unit, description = "gen_ai.client.token.usage", "{token}", "Measures number of input and output tokens used"
    try:
        return meter.create_histogram(name, unit=unit, description=description, explicit_bucket_boundaries_advisory=_TOKEN_BUCKETS)
    except TypeError:
        # opentelemetry-api before 1.23 takes no advice: the SDK's default buckets.
        return meter.create_histogram(name, unit=unit, description=description)


def cache_outcome(record: Dict[str, Any]) -> str:
    tokens = record["tokens"]
    return "hit" if tokens["read"] > 0 else "write" if tokens["written"] > 0 else "none"


class _Sink:
    def __init__(self, enabled: bool, write: Any = None) -> None:
        self.enabled = enabled
        self._write = write

    def __call__(self, record: Dict[str, Any]) -> None:
        if self._write is not None:
            self._write(record)


def open_telemetry_usage_sink(span: str = "active") -> Any:
    """A sink through ``opentelemetry-api`` when it is importable, else one that does nothing. ``span``:
    ``active`` puts the attributes on the current span (else on a span of their own), ``new`` always on a
    span of their own, ``none`` records metrics only. Without an SDK configured by the host, the API's
    own no-op implementation makes every call free of effect."""
    try:
        from opentelemetry import metrics, trace  # type: ignore[import-not-found]
    except ImportError:
        return _Sink(False)
    tracer = trace.get_tracer(_SCOPE)
    state: Dict[str, Any] = {"provider": None, "instruments": None}

    def instruments() -> Any:
        provider = metrics.get_meter_provider()
        if provider is not state["provider"] or state["instruments"] is None:
            meter = provider.get_meter(_SCOPE)
            state["provider"] = provider
            state["instruments"] = (
                _token_histogram(meter),
                meter.create_counter("prompt_build.cache.tokens", unit="{token}", description="Input tokens by what the cache did with them: read, written, uncached"),
                meter.create_counter("prompt_build.cache.requests", unit="{request}", description="Requests by cache outcome: hit (read), write (written only), none"),
            )
        return state["instruments"]

    def write(record: Dict[str, Any]) -> None:
        token_usage, cache_tokens, requests = instruments()
        common = usage_metric_attributes(record)
        tokens = record["tokens"]
        token_usage.record(tokens["input"], {**common, "gen_ai.token.type": "input"})
        token_usage.record(tokens["output"], {**common, "gen_ai.token.type": "output"})
        for kind in ("read", "written", "uncached"):
            if tokens[kind] > 0:
                cache_tokens.add(tokens[kind], {**common, "prompt_build.cache.token_kind": kind})
        requests.add(1, {**common, "prompt_build.cache.outcome": cache_outcome(record)})
        if span == "none":
            return
        active: Optional[Any] = trace.get_current_span() if span == "active" else None
        if active is not None and active.is_recording():
            active.set_attributes(usage_attributes(record))
            return
        name = "chat" if record["model"] is None else f"chat {record['model']}"
        # A span of its own stands at the record's time (given, or now), so an export read back has the record's times.
        time = _record_nanos(record["time"])
        span_of_its_own = tracer.start_span(name, kind=trace.SpanKind.CLIENT, start_time=time)
        # Attributes only for a span that records: with no SDK configured, the span is the API's no-op.
        if span_of_its_own.is_recording():
            span_of_its_own.set_attributes(usage_attributes(record))
        span_of_its_own.end(end_time=time)

    return _Sink(True, write)
