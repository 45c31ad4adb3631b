"""A service's usage recorder (``compiler/runtime/usage-recorder.ts``, docs/usage.md#recording-usage): each response read
into a record (``record_usage``), the record sent to every sink (a callback, ``jsonl_usage_sink``,
``open_telemetry_usage_sink``), and — for sessions that ask for cache diagnostics — the previous response's
id threaded into the next request, so that a ``system_changed`` miss names the static sections that
changed between the two prompts, across two bundles too. A sink that raises never fails the request it
records: the error goes to ``on_error``."""
from collections import OrderedDict
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ._arguments import check_bool, check_bundle, check_string
from .errors import ArgumentError
from .system_prompt import prompt_source_of, static_prefix_hash_of
from .usage import record_usage
from .usage_bundle import StaticSection, bundle_identity, static_sections_of
from .usage_sections import section_changes

UsageSink = Callable[[Dict[str, Any]], None]


class UsageRecorder:
    def __init__(
        self,
        sinks: Sequence[UsageSink] = (),
        bundle: Any = None,
        diagnostics: bool = False,
        max_sessions: int = 10_000,
        on_error: Optional[Callable[[BaseException, Dict[str, Any]], None]] = None,
    ) -> None:
        fn = "create_usage_recorder"
        if not isinstance(sinks, (list, tuple)):
            raise ArgumentError(fn, "sinks", "a sequence of functions", sinks)
        for index, sink in enumerate(sinks):
            if not callable(sink):
                raise ArgumentError(fn, f"sinks[{index}]", "a function", sink)
        if bundle is not None:
            check_bundle(fn, "bundle", bundle)
        check_bool(fn, "diagnostics", diagnostics)
        if type(max_sessions) is not int or max_sessions < 1:
            raise ArgumentError(fn, "max_sessions", "a whole number above 0", max_sessions)
        if on_error is not None and not callable(on_error):
            raise ArgumentError(fn, "on_error", "a function", on_error)
        self._sinks = tuple(sinks)
        self._bundle = bundle
        self._diagnostics = diagnostics
        self._max_sessions = max_sessions
        self._on_error = on_error
        # Least recently recorded first.
        self._sessions: "OrderedDict[str, Tuple[Optional[str], Optional[List[StaticSection]]]]" = OrderedDict()
        self._identities: Dict[int, Tuple[Any, str]] = {}

    def diagnostics_for(self, session: str) -> Dict[str, Optional[str]]:
        """The ``diagnostics`` parameter of a session's next Anthropic request: ``{"previous_message_id": …}``."""
        check_string("diagnostics_for", "session", session)
        if not self._diagnostics:
            raise ArgumentError("diagnostics_for", "session", "asked of a recorder created with diagnostics=True", session)
        state = self._sessions.get(session)
        return {"previous_message_id": state[0] if state is not None else None}

    def record(self, prompt: Sequence[str], response: Any, *, bundle: Any = None, **options: Any) -> Dict[str, Any]:
        """Reads ``response`` (keyword options as ``record_usage``'s), sends the record to every sink, returns it."""
        if bundle is not None:
            check_bundle("record", "bundle", bundle)
        for reserved in ("previous_response_id",):
            if reserved in options:
                raise ArgumentError("record", reserved, "left to the recorder", options[reserved])
        bundle = bundle if bundle is not None else self._bundle
        session = options.get("session") if self._diagnostics and isinstance(options.get("session"), str) else None
        previous = self._sessions.get(session) if session is not None else None
        if bundle is not None:
            options["bundle"] = self._identity(bundle)
        if previous is not None:
            options["previous_response_id"] = previous[0]
        record = record_usage(prompt, response, **options)
        if session is not None:
            sections = _sections_of(bundle, prompt) if bundle is not None else None
            miss = record["miss"]
            if miss is not None and miss["reason"] == "system_changed" and previous is not None and previous[1] is not None and sections is not None:
                miss["sections"] = section_changes(previous[1], sections)
            self._sessions.pop(session, None)
            self._sessions[session] = (record["responseId"], sections)
            if len(self._sessions) > self._max_sessions:
                self._sessions.popitem(last=False)
        for sink in self._sinks:
            try:
                sink(record)
            except Exception as error:  # a sink never fails the request it records
                if self._on_error is not None:
                    self._on_error(error, record)
        return record

    def _identity(self, bundle: Any) -> str:
        known = self._identities.get(id(bundle))
        if known is not None and known[0] is bundle:
            return known[1]
        identity = bundle_identity(bundle)
        self._identities[id(bundle)] = (bundle, identity)
        return identity


def create_usage_recorder(
    sinks: Sequence[UsageSink] = (),
    bundle: Any = None,
    diagnostics: bool = False,
    max_sessions: int = 10_000,
    on_error: Optional[Callable[[BaseException, Dict[str, Any]], None]] = None,
) -> UsageRecorder:
    return UsageRecorder(sinks, bundle, diagnostics, max_sessions, on_error)


def _sections_of(bundle: Any, prompt: Sequence[str]) -> Optional[List[StaticSection]]:
    source = prompt_source_of(prompt)
    digest = static_prefix_hash_of(prompt)
    return static_sections_of(bundle, source, digest) if source is not None and digest is not None else None
