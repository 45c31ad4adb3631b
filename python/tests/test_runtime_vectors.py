"""Every runtime vector (test/conformance/runtime.json) gives in Python what it gives in JavaScript."""
import asyncio
import json
import os
import shutil
import tempfile
import unittest
from typing import Any, Callable, Dict, List

from fixtures import build, python_parameter, snake, temp_dir, vectors, write_tree

import prompt_build as pb

VECTORS = vectors("runtime.json")
ERRORS = {"ValueError": "RangeError", "TypeError": "TypeError", "BundleError": "BundleError", "MissingVariableError": "MissingVariableError", "RenderError": "RenderError"}



def settle(run: Callable[[], Any]) -> Dict[str, Any]:
    try:
        return {"value": run()}
    except Exception as error:  # the vectors name the error; JavaScript's RangeError is Python's ValueError
        return {"error": ERRORS.get(type(error).__name__, type(error).__name__)}


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def tree() -> Dict[str, str]:
    """The fixture tree of runtime-seeds.ts, carried in the vectors."""
    return VECTORS["fixture"]  # type: ignore[no-any-return]


class RuntimeVectors(unittest.TestCase):
    dist = ""

    @classmethod
    def setUpClass(cls) -> None:
        cls.root = os.path.realpath(tempfile.mkdtemp(prefix="pb-py-runtime-"))
        write_tree(cls.root, tree())
        cls.dist = build(cls.root)
        cls.bundle = pb.load_bundle(cls.dist)

    @classmethod
    def tearDownClass(cls) -> None:
        shutil.rmtree(cls.root, True)

    def test_assembly(self) -> None:
        for case in VECTORS["assembly"]:
            kwargs = {"context": case["context"], "cache": pb.create_section_cache()}
            kwargs.update({key: case[key] for key in ("profile", "mode") if key in case})
            with self.subTest(case["name"]):
                self.assertEqual(settle(lambda: list(pb.get_system_prompt(self.bundle, **kwargs))), case["expect"])
                async_result = settle(lambda: list(asyncio.run(pb.get_system_prompt_async(self.bundle, **kwargs))))
                self.assertEqual(async_result, case["expect"])

    def test_section_cache_over_turns(self) -> None:
        for case in VECTORS["sectionCache"]:
            cache = pb.create_section_cache()
            results: List[List[str]] = []
            for step in case["steps"]:
                if "clear" in step:
                    cache.clear()
                else:
                    results.append(list(pb.get_system_prompt(self.bundle, context=step["context"], cache=cache)))
            self.assertEqual(results, case["expect"], case["name"])

    def test_section_cache_api(self) -> None:
        for case in VECTORS["cacheApi"]:
            for asynchronous in (False, True):
                self.assertEqual(self._run_cache_api(case, asynchronous), case["expect"], f"{case['name']} (async: {asynchronous})")

    def _run_cache_api(self, case: Dict[str, Any], asynchronous: bool) -> List[Dict[str, Any]]:
        cache = pb.create_section_cache()
        results = []
        for step in case["steps"]:
            if "clear" in step:
                cache.clear()
                continue
            computed: List[str] = []

            def compute_of(name: str, values: Dict[str, Any] = step["values"]) -> Callable[[], Any]:
                def compute() -> Any:
                    computed.append(name)
                    return values.get(name)

                async def compute_async() -> Any:
                    return compute()

                return compute_async if asynchronous else compute

            sections = [
                pb.system_prompt_section(s["name"], compute_of(s["name"]), cache_break=s.get("cacheBreak", False))
                if s["cache"] == "cached"
                else pb.DANGEROUS_uncached_system_prompt_section(s["name"], compute_of(s["name"]), s.get("reason", ""))
                for s in case["sections"]
            ]
            if asynchronous:
                values = asyncio.run(pb.resolve_system_prompt_sections_async(sections, cache))
            else:
                values = pb.resolve_system_prompt_sections(sections, cache)
            results.append({"values": values, "computed": computed, "size": cache.size})
        return results

    def test_agents(self) -> None:
        for case in VECTORS["agents"]:
            result = settle(lambda: list(pb.get_agent_system_prompt(self.bundle, case["agent"], case.get("environment"))))
            self.assertEqual(result, case["expect"], case["name"])

    def test_priority_chain(self) -> None:
        for case in VECTORS["priorityChain"]:
            inputs = {snake(key): value for key, value in case["input"].items()}
            if "defaultStaticPrefixHash" in case and isinstance(inputs["default_system_prompt"], list):
                inputs["default_system_prompt"] = pb.as_system_prompt(inputs["default_system_prompt"], static_prefix_hash=case["defaultStaticPrefixHash"])
            result = pb.build_effective_system_prompt(**inputs)
            actual = {"prompt": list(result), "promptCacheKey": pb.to_openai_request(result).get("prompt_cache_key")}
            self.assertEqual(actual, case["expect"], case["name"])

    def test_provider_blocks(self) -> None:
        adapters = {"anthropic": pb.to_anthropic_system, "bedrock": pb.to_bedrock_system, "openai": pb.to_openai_request, "gemini": pb.to_gemini_system_instruction}
        for case in VECTORS["providers"]:
            prompt = pb.as_system_prompt(case["prompt"], static_prefix_hash=case.get("staticPrefixHash"))
            options = {snake(key): value for key, value in case.get("options", {}).items()}
            result = settle(lambda: as_json(adapters[case["adapter"]](prompt, **options)))
            self.assertEqual(result, case["expect"], case["name"])
            if "value" in result:  # key order too, as JSON serialisers write it
                self.assertEqual(json.dumps(result["value"]), json.dumps(case["expect"]["value"]), case["name"])

    def test_shapes(self) -> None:
        """Every prompt shape end to end: assembled, system context appended, through all four adapters."""
        for case in VECTORS["shapes"]:
            with self.subTest(case["name"]):
                prompt = self._shape_prompt(case["source"])
                if "systemContext" in case:
                    prompt = pb.append_system_context(prompt, case["systemContext"])
                actual = {
                    "prompt": list(prompt),
                    "anthropic": pb.to_anthropic_system(prompt, ttl="5m", static_ttl="1h"),
                    "bedrock": pb.to_bedrock_system(prompt, ttl="5m", static_ttl="1h"),
                    "openai": pb.to_openai_request(prompt),
                    "openaiExplicit": pb.to_openai_request(prompt, model="gpt-5.6"),
                    "gemini": pb.to_gemini_system_instruction(prompt),
                }
                self.assertEqual(json.dumps(as_json(actual)), json.dumps(case["expect"]))

    def _shape_prompt(self, source: Dict[str, Any]) -> pb.SystemPrompt:
        """As ``shapePrompt`` in test/conformance/runtime-vectors.test.ts."""
        if "agent" in source:
            return pb.get_agent_system_prompt(self.bundle, source["agent"], source.get("environment"))
        profile = pb.get_system_prompt(self.bundle, profile=source["profile"], context=source.get("context", {}), cache=pb.create_section_cache())
        if "chain" not in source:
            return profile
        chain = source["chain"]
        agent = chain.get("agent")
        return pb.build_effective_system_prompt(
            default_system_prompt=profile,
            custom_system_prompt=chain.get("custom"),
            override_system_prompt=chain.get("override"),
            append_system_prompt=chain.get("append"),
            agent_system_prompt=None if agent is None else pb.get_agent_system_prompt(self.bundle, agent),
            proactive=chain.get("proactive", False),
        )

    def test_refusals(self) -> None:
        """The calls JavaScript refuses, Python refuses too, with an ArgumentError naming the same parameter."""
        for case in VECTORS["refusals"]:
            with self.subTest(case["name"]):
                name = CALLS[case["call"]]
                args = [self._decode(arg) for arg in case["args"]]
                kwargs: Dict[str, Any] = {}
                if case["call"] in OPTIONS_LAST and args and isinstance(args[-1], dict):
                    kwargs = {snake(key): value for key, value in args.pop().items()}
                function = getattr(pb, name)
                with self.assertRaises(pb.ArgumentError) as raised:
                    result = function(*args, **kwargs)
                    if asyncio.iscoroutine(result):
                        asyncio.run(result)
                error = raised.exception
                expected = python_parameter(case["expect"]["parameter"])
                self.assertEqual(error.parameter, RENAMED.get((case["call"], expected), expected))
                self.assertIn(f"{name}: {error.parameter} must be ", str(error))
                if any("$promise" in json.dumps(arg) for arg in case["args"]):
                    self.assertIn("did you forget `await`?", str(error))
                for arg in args + list(kwargs.values()):
                    _close_coroutines(arg)

    def _decode(self, value: Any) -> Any:
        """A refusal seed's argument with its stand-ins replaced (see RefusalSeed in runtime-seeds.ts)."""
        if isinstance(value, list):
            return [self._decode(item) for item in value]
        if not isinstance(value, dict):
            return value
        if "$bundle" in value:
            return self.bundle
        if "$prompt" in value:
            return pb.as_system_prompt(value["$prompt"])
        if "$cache" in value:
            return pb.create_section_cache()
        if "$function" in value:
            return lambda: None
        if "$promise" in value:
            inner = self._decode(value["$promise"])

            async def later() -> Any:
                return inner

            return later()
        return {key: self._decode(item) for key, item in value.items()}

    def test_tampered_bundles(self) -> None:
        for case in VECTORS["tampered"]:
            with self.subTest(case["name"]):
                dist = os.path.join(temp_dir(self), "dist")
                shutil.copytree(self.dist, dist)
                damage(dist, case)
                expected = case["python"]
                if "ok" in expected:
                    pb.load_bundle(dist)
                else:
                    with self.assertRaises(pb.BundleError) as raised:
                        pb.load_bundle(dist)
                    self.assertIn(expected["names"], str(raised.exception))


#: The JavaScript names of the refusal vectors' calls, and Python's.
CALLS = {
    "toAnthropicSystem": "to_anthropic_system",
    "toBedrockSystem": "to_bedrock_system",
    "toOpenAIRequest": "to_openai_request",
    "toGeminiSystemInstruction": "to_gemini_system_instruction",
    "getSystemPrompt": "get_system_prompt",
    "getAgentSystemPrompt": "get_agent_system_prompt",
    "buildEffectiveSystemPrompt": "build_effective_system_prompt",
    "appendSystemContext": "append_system_context",
    "prependUserContext": "prepend_user_context",
    "asSystemPrompt": "as_system_prompt",
    "DANGEROUS_uncachedSystemPromptSection": "DANGEROUS_uncached_system_prompt_section",
    "systemPromptSection": "system_prompt_section",
    "resolveSystemPromptSections": "resolve_system_prompt_sections",
    "renderSystemPrompt": "render_system_prompt",
    "renderContextText": "render_context_text",
    "loadBundle": "load_bundle",
}
#: Parameters each runtime names in its own way: (JavaScript call, parameter) → Python's.
RENAMED = {("loadBundle", "dir"): "path"}
#: Those whose last JavaScript argument is an object of options: Python's keyword arguments.
OPTIONS_LAST = {"toAnthropicSystem", "toBedrockSystem", "toOpenAIRequest", "getSystemPrompt", "getAgentSystemPrompt", "buildEffectiveSystemPrompt"}



def _close_coroutines(value: Any) -> None:
    """A refused call never awaited its coroutine argument: close it, so Python does not warn."""
    if asyncio.iscoroutine(value):
        value.close()
    elif isinstance(value, dict):
        for item in value.values():
            _close_coroutines(item)
    elif isinstance(value, list):
        for item in value:
            _close_coroutines(item)


def damage(dist: str, case: Dict[str, Any]) -> None:
    """As ``damage`` in test/conformance/runtime-vectors.test.ts."""
    manifest_file = os.path.join(dist, "manifest.json")
    with open(manifest_file, encoding="utf-8") as handle:
        manifest = json.load(handle)
    sections = [s for profile in manifest["profiles"].values() for s in profile["sections"]]
    target = case["target"]
    if target["kind"] == "manifest":
        file = "manifest.json"
    elif target["kind"] == "agent":
        file = manifest["agents"][target["agent"]]["file"]
    else:
        entry = next(s for s in sections if s["name"] == target["section"])
        file = entry["python"] if target["kind"] == "python" else entry["file"]
    full = os.path.join(dist, file)
    kind = case["damage"]
    if kind == "append-byte":
        with open(full, "ab") as handle:
            handle.write(b"x")
    elif kind == "remove":
        os.remove(full)
    elif kind == "truncate":
        with open(full, "rb") as handle:
            data = handle.read()
        with open(full, "wb") as handle:
            handle.write(data[:100])
    else:
        if kind == "schema-version":
            manifest["schemaVersion"] = 2
        else:
            for s in sections:
                if s["name"] == target["section"]:
                    s["file"] = "../outside.md"
        with open(manifest_file, "w", encoding="utf-8") as handle:
            json.dump(manifest, handle)


if __name__ == "__main__":
    unittest.main()
