"""The Python OpenTelemetry sink hands ``opentelemetry-api`` what the JavaScript sink hands ``@opentelemetry/api``
(docs/usage.md#opentelemetry): for every usage vector (test/conformance/usage.json, ``emitted``: recorded by
test/conformance/usage-emitted.ts), the same instruments, the same measurements with the same attributes, and the
same span — name, kind, times, attributes. ``opentelemetry-api`` is not installed here: a stand-in package with
just the calls the sink makes, recording them, is written to a temporary directory and put first on ``sys.path``."""
import os
import shutil
import sys
import tempfile
import textwrap
import unittest
from typing import Any, Dict, List

from fixtures import vectors
from test_usage_vectors import prompt_of

import prompt_build as pb
from fixtures import snake

STAND_IN = {
    "__init__.py": '"""A stand-in for opentelemetry-api that records what it is handed (python/tests/test_usage_opentelemetry.py)."""\n',
    "_recorded.py": "emitted = {'instruments': [], 'measurements': [], 'spans': []}\n",
    "trace.py": '''
        import enum
        from opentelemetry._recorded import emitted

        class SpanKind(enum.Enum):
            INTERNAL = 0
            SERVER = 1
            CLIENT = 2

        class _Span:
            def __init__(self, record):
                self._record = record
            def is_recording(self):
                return self._record is not None
            def set_attributes(self, attributes):
                self._record["attributes"].update(attributes)
            def end(self, end_time=None):
                if self._record is not None:
                    self._record["end"] = end_time

        class _Tracer:
            def start_span(self, name, context=None, kind=SpanKind.INTERNAL, attributes=None, links=None, start_time=None, record_exception=True, set_status_on_exception=True):
                record = {"name": name, "kind": kind, "start": start_time, "end": None, "attributes": {}}
                emitted["spans"].append(record)
                return _Span(record)

        def get_tracer(name, version=None, *args, **kwargs):
            return _Tracer()

        def get_current_span(context=None):
            return _Span(None)
    ''',
    "metrics.py": '''
        from opentelemetry._recorded import emitted

        class _Instrument:
            def __init__(self, name):
                self._name = name
            def _measure(self, value, attributes=None, context=None):
                emitted["measurements"].append({"instrument": self._name, "value": value, "attributes": dict(attributes)})
            record = _measure
            add = _measure

        class _Meter:
            def create_histogram(self, name, unit="", description="", explicit_bucket_boundaries_advisory=None):
                boundaries = None if explicit_bucket_boundaries_advisory is None else list(explicit_bucket_boundaries_advisory)
                emitted["instruments"].append({"kind": "histogram", "name": name, "unit": unit, "description": description, "boundaries": boundaries})
                return _Instrument(name)
            def create_counter(self, name, unit="", description=""):
                emitted["instruments"].append({"kind": "counter", "name": name, "unit": unit, "description": description, "boundaries": None})
                return _Instrument(name)

        class _MeterProvider:
            def get_meter(self, name, version=None, schema_url=None, attributes=None):
                return _Meter()

        _PROVIDER = _MeterProvider()

        def get_meter_provider():
            return _PROVIDER
    ''',
}


class OpenTelemetrySink(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.root = tempfile.mkdtemp(prefix="pb-py-otel-")
        os.mkdir(os.path.join(cls.root, "opentelemetry"))
        for name, text in STAND_IN.items():
            with open(os.path.join(cls.root, "opentelemetry", name), "w", encoding="utf-8") as handle:
                handle.write(textwrap.dedent(text))
        sys.path.insert(0, cls.root)
        import opentelemetry._recorded  # type: ignore[import-not-found]

        cls.emitted = opentelemetry._recorded.emitted

    @classmethod
    def tearDownClass(cls) -> None:
        sys.path.remove(cls.root)
        for name in [name for name in sys.modules if name == "opentelemetry" or name.startswith("opentelemetry.")]:
            del sys.modules[name]
        shutil.rmtree(cls.root, True)

    def emitted_for(self, record: Dict[str, Any]) -> Dict[str, List[Any]]:
        for values in self.emitted.values():
            values.clear()
        sink = pb.open_telemetry_usage_sink()
        self.assertTrue(sink.enabled)
        sink(record)
        # The JavaScript API takes milliseconds and SpanKind.CLIENT; Python's, nanoseconds and SpanKind.CLIENT.
        spans = [{**span, "kind": span["kind"].name.lower(), "start": span["start"] / 1e6, "end": span["end"] / 1e6} for span in self.emitted["spans"]]
        return {"instruments": list(self.emitted["instruments"]), "measurements": list(self.emitted["measurements"]), "spans": spans}

    def test_every_vector_emits_what_the_javascript_sink_emits(self) -> None:
        for case in vectors("usage.json")["records"]:
            with self.subTest(case["name"]):
                options = {snake(key): value for key, value in case.get("options", {}).items()}
                record = pb.record_usage(prompt_of(case["prompt"]), case["response"], **options)
                self.assertEqual(self.emitted_for(record), case["expect"]["emitted"])

    def test_a_span_stands_at_the_record_time(self) -> None:
        case = vectors("usage.json")["records"][0]
        record = pb.record_usage(prompt_of(case["prompt"]), case["response"], time="2026-03-01T12:00:00.123Z")
        span = self.emitted_for(record)["spans"][0]
        self.assertEqual((span["start"], span["end"]), (1772366400123, 1772366400123))


if __name__ == "__main__":
    unittest.main()
