"""The Python usage recorder (docs/usage.md#python), as the JavaScript one behaves (test/runtime/usage-recorder.test.ts):
a bundle prompt names its profile or agent, sinks never fail a request, the JSONL sink writes the same line to a
stream or a file, Anthropic's diagnostics are threaded per session and a ``system_changed`` miss between two builds
names the section that changed. ``opentelemetry-api`` is not installed here: the sink says it is disabled."""
import copy
import io
import json
import os
import shutil
import tempfile
import unittest
from typing import Any, Dict, List

from fixtures import build, vectors, write_tree

import prompt_build as pb

FIXTURES = {case["name"]: case["response"] for case in vectors("usage.json")["records"]}
COLD = FIXTURES["anthropic: a cold write, 5-minute split"]
WARM = FIXTURES["anthropic: a warm read"]
CHANGED = FIXTURES["anthropic: system_changed, with the previous response named"]
TIME = "2026-03-01T12:00:00Z"

TREE = {
    "prompts/sections/intro.md": "You are a careful assistant.\n",
    "prompts/sections/tone.md": "Be brief.\n",
    "prompts/sections/env.md": "---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n",
    "prompts/profiles/default.md": "---\nsections: [intro, tone, env]\ncacheWarning: false\n---\n",
    "agents/explore.md": "---\nname: explore\ndescription: Reads code.\n---\nYou explore code.\n",
}


class Usage(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        # Two builds of one project, the second with `tone` edited: a deploy in the middle of a session.
        cls.root = os.path.realpath(tempfile.mkdtemp(prefix="pb-py-usage-"))
        write_tree(cls.root, TREE)
        shutil.copytree(build(cls.root), os.path.join(cls.root, "dist-before"))
        write_tree(cls.root, {"prompts/sections/tone.md": "Be brief and kind.\n"})
        cls.before = pb.load_bundle(os.path.join(cls.root, "dist-before"))
        cls.after = pb.load_bundle(build(cls.root))

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.root, True)

    def prompt(self, bundle: Any) -> Any:
        return pb.get_system_prompt(bundle, context={"cwd": "/w"}, cache=pb.create_section_cache())

    def test_a_bundle_prompt_names_its_profile_or_agent_through_the_priority_chain(self) -> None:
        prompt = self.prompt(self.before)
        record = pb.record_usage(prompt, WARM, time=TIME)
        self.assertEqual((record["profile"], record["agent"]), ("default", None))
        self.assertEqual(record["staticPrefixHash"], self.before.manifest["profiles"]["default"]["staticPrefixHash"])
        effective = pb.append_system_context(pb.build_effective_system_prompt(default_system_prompt=prompt, append_system_prompt="Be terse."), {"gitStatus": "clean"})
        self.assertEqual(pb.record_usage(effective, WARM, time=TIME)["profile"], "default")
        agent = pb.record_usage(pb.get_agent_system_prompt(self.before, "explore"), WARM, time=TIME)
        self.assertEqual((agent["profile"], agent["agent"]), (None, "explore"))
        custom = pb.build_effective_system_prompt(default_system_prompt=prompt, custom_system_prompt="Custom.")
        self.assertEqual(pb.record_usage(custom, WARM, time=TIME)["staticPrefixHash"], None)

    def test_the_identity_tells_two_builds_apart(self) -> None:
        self.assertRegex(pb.bundle_identity(self.before), r"^[0-9a-f]{16}$")
        self.assertNotEqual(pb.bundle_identity(self.before), pb.bundle_identity(self.after))

    def test_sinks_get_every_record_and_one_that_raises_fails_nothing(self) -> None:
        stream = io.StringIO()
        seen: List[Dict[str, Any]] = []
        errors: List[BaseException] = []

        def broken(record: Dict[str, Any]) -> None:
            raise RuntimeError("collector down")

        recorder = pb.create_usage_recorder(sinks=[broken, pb.jsonl_usage_sink(stream), seen.append], bundle=self.before, on_error=lambda error, record: errors.append(error))
        record = recorder.record(self.prompt(self.before), COLD, time=TIME, ttl="5m")
        self.assertEqual(record["bundle"], pb.bundle_identity(self.before))
        self.assertEqual(seen, [record])
        self.assertEqual(stream.getvalue(), pb.usage_line(record) + "\n")
        self.assertEqual([str(error) for error in errors], ["collector down"])

    def test_the_jsonl_sink_appends_to_a_file_path(self) -> None:
        path = os.path.join(self.root, "usage.jsonl")
        sink = pb.jsonl_usage_sink(path)
        first = pb.record_usage(self.prompt(self.before), COLD, time=TIME)
        second = pb.record_usage(self.prompt(self.before), WARM, time=TIME)
        sink(first)
        sink(second)
        with open(path, encoding="utf-8") as handle:
            self.assertEqual([json.loads(line) for line in handle], [first, second])

    @unittest.skipUnless(hasattr(os, "mkfifo"), "no FIFOs here")
    def test_the_jsonl_sink_refuses_a_path_that_is_not_a_regular_file_without_blocking(self) -> None:
        record = pb.record_usage(self.prompt(self.before), WARM, time=TIME)
        fifo = os.path.join(self.root, "usage.fifo")
        os.mkfifo(fifo)
        sink = pb.jsonl_usage_sink(fifo)
        with self.assertRaises(OSError):
            sink(record)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            with self.assertRaises(OSError) as raised:
                sink(record)
            self.assertIn("is not a regular file", str(raised.exception))
        finally:
            os.close(reader)

    def test_a_lone_surrogate_is_written_as_json_stringify_escapes_it(self) -> None:
        record = {"v": 1, "model": "a\ud800", "profile": "\udc00b"}
        # JSON.stringify({v: 1, model: 'a\ud800', profile: '\udc00b'}), as the JavaScript sink writes it.
        expected = '{"v":1,"model":"a\\ud800","profile":"\\udc00b"}\n'
        path = os.path.join(self.root, "surrogate.jsonl")
        pb.jsonl_usage_sink(path)(record)
        with open(path, "rb") as handle:
            self.assertEqual(handle.read(), expected.encode("ascii"))
        stream = io.StringIO()
        pb.jsonl_usage_sink(stream)(record)
        self.assertEqual(stream.getvalue(), expected)

    def test_diagnostics_are_threaded_per_session_and_name_the_section_a_deploy_changed(self) -> None:
        recorder = pb.create_usage_recorder(bundle=self.before, diagnostics=True)
        self.assertEqual(recorder.diagnostics_for("s-1"), {"previous_message_id": None})
        recorder.record(self.prompt(self.before), COLD, time=TIME, session="s-1")
        self.assertEqual(recorder.diagnostics_for("s-1"), {"previous_message_id": "msg_01cold"})
        record = recorder.record(self.prompt(self.after), CHANGED, time=TIME, session="s-1", bundle=self.after)
        self.assertEqual(record["miss"], {"reason": "system_changed", "missedTokens": 2900, "previousResponseId": "msg_01cold", "sections": [{"name": "tone", "change": "changed"}]})
        self.assertEqual(pb.describe_miss(record["miss"], record), "system_changed: section `tone` changed in the static prefix of profile `default` (2900 tokens not read)")
        self.assertEqual(recorder.diagnostics_for("s-1"), {"previous_message_id": "msg_05changed"})

    def test_the_least_recently_recorded_session_is_forgotten_first(self) -> None:
        recorder = pb.create_usage_recorder(diagnostics=True, max_sessions=2)
        prompt = self.prompt(self.before)
        for session in ("a", "b", "a", "c"):
            recorder.record(prompt, WARM, time=TIME, session=session)
        self.assertEqual(recorder.diagnostics_for("a")["previous_message_id"], "msg_02warm")
        self.assertIsNone(recorder.diagnostics_for("b")["previous_message_id"])

    def test_an_sdk_object_is_read_through_model_dump(self) -> None:
        class Message:
            _request_id = "req_42"

            def model_dump(self, by_alias: bool = False) -> Dict[str, Any]:
                return copy.deepcopy(WARM)

        record = pb.record_usage(self.prompt(self.before), Message(), time=TIME)
        self.assertEqual((record["tokens"]["read"], record["requestId"]), (3000, "req_42"))
        boto = {**FIXTURES["bedrock: a read, cacheDetails empty"], "ResponseMetadata": {"RequestId": "aws-1"}}
        del boto["$metadata"]
        self.assertEqual(pb.record_usage(self.prompt(self.before), boto, time=TIME)["requestId"], "aws-1")

    def test_refusals_name_the_parameter(self) -> None:
        with self.assertRaises(pb.ArgumentError) as raised:
            pb.create_usage_recorder(sinks=[5])
        self.assertEqual(raised.exception.parameter, "sinks[0]")
        with self.assertRaises(pb.ArgumentError) as raised:
            pb.create_usage_recorder().diagnostics_for("s")
        self.assertEqual(raised.exception.parameter, "session")
        with self.assertRaises(pb.ArgumentError) as raised:
            pb.jsonl_usage_sink(5)
        self.assertEqual(raised.exception.parameter, "out")

    def test_a_time_has_ascii_digits_as_javascript_reads_it(self) -> None:
        prompt = self.prompt(self.before)
        self.assertEqual(pb.record_usage(prompt, WARM, time="2024-01-01T00:00:00Z")["time"], "2024-01-01T00:00:00.000Z")
        for time in ("\uff12\uff10\uff12\uff14-01-01T00:00:00Z", "2024-01-01T00:00:00+0\u0661:00"):
            with self.assertRaises(pb.ArgumentError) as raised:
                pb.record_usage(prompt, WARM, time=time)
            self.assertEqual(raised.exception.parameter, "time")

    def test_open_telemetry_is_a_disabled_no_op_without_the_api_package(self) -> None:
        try:
            import opentelemetry  # type: ignore[import-not-found]  # noqa: F401
        except ImportError:
            sink = pb.open_telemetry_usage_sink()
            self.assertFalse(sink.enabled)
            sink(pb.record_usage(self.prompt(self.before), WARM, time=TIME))
        else:
            self.skipTest("opentelemetry-api is installed here: the disabled path is not what runs")


if __name__ == "__main__":
    unittest.main()
