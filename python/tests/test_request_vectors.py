"""Every request planner vector (test/conformance/requests.json) gives in Python what it gives in JavaScript,
byte for byte as JSON; the refusals are refused with an ArgumentError naming the same parameter."""
import asyncio
import copy
import json
import unittest
from typing import Any, Dict, Tuple

from fixtures import python_parameter, snake, vectors

import prompt_build as pb

VECTORS = vectors("requests.json")
CALLS = {"toAnthropicRequest": pb.to_anthropic_request, "toBedrockRequest": pb.to_bedrock_request}




def arguments(case: Dict[str, Any]) -> Tuple[Any, Dict[str, Any]]:
    """The case's prompt and keyword arguments; ``{"$promise": x}`` an un-awaited x (a coroutine)."""
    system = case["system"]
    if isinstance(system, dict) and "$promise" in system:
        inner = system["$promise"]

        async def later() -> Any:
            return inner

        system = later()
    kwargs = {snake(key): value for key, value in {**case.get("input", {}), **case.get("options", {})}.items()}
    return system, kwargs


class RequestVectors(unittest.TestCase):
    def test_planned(self) -> None:
        for case in VECTORS["anthropic"] + VECTORS["bedrock"]:
            with self.subTest(case["name"]):
                system, kwargs = arguments(case)
                before = copy.deepcopy(kwargs)
                result = CALLS[case["call"]](system, **kwargs)
                self.assertEqual(json.dumps(result), json.dumps(case["expect"]["value"]))
                self.assertEqual(kwargs, before, "the caller's lists and dicts are left as they were")

    def test_refusals(self) -> None:
        for case in VECTORS["refusals"]:
            with self.subTest(case["name"]):
                system, kwargs = arguments(case)
                function = CALLS[case["call"]]
                with self.assertRaises(pb.ArgumentError) as raised:
                    function(system, **kwargs)
                if asyncio.iscoroutine(system):
                    system.close()
                    self.assertIn("did you forget `await`?", str(raised.exception))
                error = raised.exception
                self.assertEqual(error.parameter, python_parameter(case["expect"]["parameter"]))
                self.assertIn(f"{function.__name__}: {error.parameter} must be ", str(error))

    def test_every_case_is_run(self) -> None:
        self.assertGreaterEqual(len(VECTORS["anthropic"]), 25)
        self.assertGreaterEqual(len(VECTORS["bedrock"]), 10)
        self.assertGreaterEqual(len(VECTORS["refusals"]), 25)


if __name__ == "__main__":
    unittest.main()
