"""Every usage vector (test/conformance/usage.json) gives in Python what it gives in JavaScript: the same record,
byte for byte as a JSON line, the same OpenTelemetry attributes, bundle identity and section changes; the
refusals are refused with an ArgumentError naming the same parameter."""
import json
import unittest
from typing import Any, Dict

from fixtures import python_parameter, snake, vectors

import prompt_build as pb
from prompt_build.bundle import Bundle
from prompt_build.system_prompt import as_bundle_prompt
from prompt_build.usage_sections import section_changes

VECTORS = vectors("usage.json")


def prompt_of(seed: Any) -> Any:
    if not isinstance(seed, dict) or "parts" not in seed:
        return seed
    if "source" in seed:
        return as_bundle_prompt(seed["parts"], seed["hash"], tuple(seed["source"]))
    return pb.as_system_prompt(seed["parts"], static_prefix_hash=seed.get("hash"))


def run(case: Dict[str, Any]) -> Dict[str, Any]:
    options = {snake(key): value for key, value in case.get("options", {}).items()}
    record = pb.record_usage(prompt_of(case["prompt"]), case["response"], **options)
    return {"record": record, "line": pb.usage_line(record), "attributes": pb.usage_attributes(record), "metricAttributes": pb.usage_metric_attributes(record)}


class UsageVectors(unittest.TestCase):
    def test_records(self) -> None:
        for case in VECTORS["records"]:
            with self.subTest(case["name"]):
                got = run(case)
                expected = case["expect"]
                self.assertEqual(got["line"], expected["line"], "the same bytes as JSON.stringify")
                self.assertEqual(json.dumps(got["record"]), json.dumps(expected["record"]), "the same keys in the same order")
                self.assertEqual(got["attributes"], expected["attributes"])
                self.assertEqual(list(got["attributes"]), list(expected["attributes"]))
                self.assertEqual(got["metricAttributes"], expected["metricAttributes"])

    def test_refusals(self) -> None:
        for case in VECTORS["refusals"]:
            with self.subTest(case["name"]):
                with self.assertRaises(pb.ArgumentError) as raised:
                    run(case)
                error = raised.exception
                self.assertEqual(error.parameter, python_parameter(case["expect"]["parameter"]))
                self.assertIn(f"record_usage: {error.parameter} must be ", str(error))

    def test_identities(self) -> None:
        for case in VECTORS["identities"]:
            with self.subTest(case["name"]):
                self.assertEqual(pb.bundle_identity(Bundle(case["manifest"], {}, {})), case["expect"])

    def test_sections(self) -> None:
        for case in VECTORS["sections"]:
            with self.subTest(case["name"]):
                changes = section_changes([tuple(p) for p in case["before"]], [tuple(p) for p in case["after"]])
                self.assertEqual(changes, case["expect"]["changes"])
                miss = {"reason": "system_changed", "missedTokens": case["missedTokens"], "previousResponseId": None}
                self.assertEqual(pb.describe_miss({**miss, "sections": changes}, case["record"]), case["expect"]["described"])
                self.assertEqual(pb.describe_miss(miss, case["record"]), case["expect"]["withoutSections"])

    def test_every_case_is_run(self) -> None:
        self.assertGreaterEqual(len(VECTORS["records"]), 20)
        self.assertGreaterEqual(len(VECTORS["refusals"]), 15)


if __name__ == "__main__":
    unittest.main()
