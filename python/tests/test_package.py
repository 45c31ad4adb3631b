"""The package itself: standard library only, loads ``dist/`` from any working directory,
refuses a tampered or half-copied copy of it, writes nothing into a bundle."""
import asyncio
import json
import os
import shutil
import subprocess
import sys
import unittest

from fixtures import REPO, SRC, build, temp_dir, write_tree

import prompt_build as pb

DIST = os.path.join(REPO, "dist")

CLOSURE = r"""
import sys
before = set(sys.modules)
import prompt_build as pb
bundle = pb.load_bundle(sys.argv[1])
prompt = pb.get_system_prompt(bundle, context={"cwd": "/w", "isGitRepo": True, "platform": "linux"}, cache=pb.create_section_cache())
pb.to_anthropic_system(prompt)
import asyncio
new = sorted(set(sys.modules) - before)
print("\n".join(new))
"""


def python(*args: str, cwd: str = REPO) -> subprocess.CompletedProcess:  # type: ignore[type-arg]
    env = {**os.environ, "PYTHONPATH": SRC}
    # -S: no site module, so the interpreter's own start-up hooks (.pth files, sitecustomize) are not counted.
    return subprocess.run([sys.executable, "-S", "-X", "importtime", *args], capture_output=True, text=True, cwd=cwd, env=env)


class Package(unittest.TestCase):
    def test_imports_only_the_standard_library(self) -> None:
        run = python("-c", CLOSURE, DIST)
        self.assertEqual(run.returncode, 0, run.stderr)
        loaded = [name for name in run.stdout.split() if name]
        self.assertIn("prompt_build", loaded)
        foreign = [name for name in loaded if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] != "prompt_build" and not name.startswith("prompt_build_section_")]
        self.assertEqual(foreign, [])
        # -X importtime lists every module imported, including those imported by others.
        timed = [line.split("|")[-1].strip() for line in run.stderr.splitlines()[1:] if line.startswith("import time:")]
        self.assertIn("prompt_build", timed)
        self.assertEqual([m for m in timed if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] != "prompt_build"], [])

    def test_loads_dist_from_any_working_directory(self) -> None:
        elsewhere = temp_dir(self)
        for path in (DIST, os.path.relpath(DIST, elsewhere)):
            script = "import sys, prompt_build as pb; b = pb.load_bundle(sys.argv[1]); print(sorted(b.profiles))"
            run = python("-c", script, path, cwd=elsewhere)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("'default'", run.stdout)

    def test_writes_nothing_into_the_bundle(self) -> None:
        copy = self._copy()
        before = sorted(os.listdir(os.path.join(copy, "dynamic")))
        pb.load_bundle(copy)
        self.assertEqual(sorted(os.listdir(os.path.join(copy, "dynamic"))), before)

    def test_refuses_a_tampered_bundle_naming_the_file(self) -> None:
        copy = self._copy()
        manifest = self._manifest(copy)
        intro = manifest["profiles"]["default"]["sections"][0]["file"]
        with open(os.path.join(copy, intro), "r+b") as handle:
            first = handle.read(1)
            handle.seek(0)
            handle.write(bytes([first[0] ^ 1]))
        with self.assertRaises(pb.BundleError) as raised:
            pb.load_bundle(copy)
        self.assertIn(f"artifact {intro} does not match the manifest", str(raised.exception))

    def test_refuses_a_half_copied_bundle_naming_the_missing_file(self) -> None:
        copy = self._copy()
        module = next(s["python"] for s in self._manifest(copy)["profiles"]["default"]["sections"] if s["kind"] == "dynamic")
        os.remove(os.path.join(copy, module))
        with self.assertRaises(pb.BundleError) as raised:
            pb.load_bundle(copy)
        self.assertIn(f"{module} is missing", str(raised.exception))

    def test_refuses_a_bundle_built_without_the_python_target(self) -> None:
        copy = self._copy()
        manifest = self._manifest(copy)
        for profile in manifest["profiles"].values():
            for section in profile["sections"]:
                section.pop("python", None)
        with open(os.path.join(copy, "manifest.json"), "w", encoding="utf-8") as handle:
            json.dump(manifest, handle)
        with self.assertRaisesRegex(pb.BundleError, "built without the python target"):
            pb.load_bundle(copy)

    def test_plain_and_asyncio_callers_get_the_same_prompt(self) -> None:
        bundle = pb.load_bundle(DIST)
        context = {"cwd": "/w", "isGitRepo": False, "platform": "linux", "mcpServers": [{"name": "a", "instructions": "b"}]}
        plain = pb.get_system_prompt(bundle, context=context, cache=pb.create_section_cache())

        async def session() -> pb.SystemPrompt:
            return await pb.get_system_prompt_async(bundle, context=context, cache=pb.create_section_cache())

        self.assertEqual(asyncio.run(session()), plain)
        self.assertIn(pb.SYSTEM_PROMPT_DYNAMIC_BOUNDARY, plain)

    def test_a_warm_cache_follows_changes_to_its_values(self) -> None:
        bundle = pb.load_bundle(DIST)
        cache = pb.create_section_cache()
        context = {"cwd": "/w", "isGitRepo": False, "platform": "linux"}
        first = pb.get_system_prompt(bundle, context=context, cache=cache)
        self.assertEqual(pb.get_system_prompt(bundle, context={**context, "cwd": "/other"}, cache=cache), first)
        cache.set("env-info", "# Env\n\nset by hand")
        self.assertIn("# Env\n\nset by hand", pb.get_system_prompt(bundle, context=context, cache=cache))
        uncached = pb.get_system_prompt(bundle, context={**context, "mcpServers": [{"name": "n", "instructions": "i"}]}, cache=cache)
        self.assertTrue(uncached[-1].startswith("# MCP server instructions"), uncached[-1])

    def test_a_warm_request_renders_its_uncached_section_each_time(self) -> None:
        bundle = pb.load_bundle(DIST)
        cache = pb.create_section_cache()
        context = {"cwd": "/w", "isGitRepo": False, "platform": "linux"}
        servers = [{"name": "one", "instructions": "i"}]
        first = pb.get_system_prompt(bundle, context={**context, "mcpServers": servers}, cache=cache)
        again = pb.get_system_prompt(bundle, context={**context, "mcpServers": servers}, cache=cache)
        self.assertEqual(again, first)
        servers[0]["name"] = "two"  # changed in place: the same list, another text
        changed = pb.get_system_prompt(bundle, context={**context, "mcpServers": servers}, cache=cache)
        self.assertIn("## two", changed[-1])
        self.assertNotIn("# MCP server instructions", "".join(pb.get_system_prompt(bundle, context=context, cache=cache)))

    def test_one_cache_across_two_bundles_gives_each_its_own_prompt(self) -> None:
        """A cache keeps one warm plan per profile name: another bundle's profile of that name must not reuse it."""
        bundles = []
        for text in ("first bundle", "second bundle"):
            root = temp_dir(self)
            write_tree(
                root,
                {
                    "prompts/sections/intro.md": f"---\nkind: static\n---\n{text}\n",
                    "prompts/sections/now.md": "---\nkind: dynamic\ncache: uncached\nreason: the time changes every turn\ninputs: [now]\n---\nnow {{now}}\n",
                    "prompts/profiles/default.md": "---\ncacheWarning: false\nsections: [intro, now]\n---\n",
                },
            )
            bundles.append(pb.load_bundle(build(root)))
        cache = pb.create_section_cache()
        for _ in range(2):  # the second round is warm
            for bundle, text in zip(bundles, ("first bundle", "second bundle")):
                self.assertEqual(list(pb.get_system_prompt(bundle, context={"now": "1"}, cache=cache)), [text, pb.SYSTEM_PROMPT_DYNAMIC_BOUNDARY, "now 1"])

    def test_a_warm_prompt_keeps_its_prefix_pickled_and_copied(self) -> None:
        import copy
        import pickle

        bundle = pb.load_bundle(DIST)
        cache = pb.create_section_cache()
        context = {"cwd": "/w", "isGitRepo": False, "platform": "linux"}
        cold = pb.get_system_prompt(bundle, context=context, cache=cache)
        warm = pb.get_system_prompt(bundle, context=context, cache=cache)  # made by the plan's class
        self.assertEqual(warm, cold)
        self.assertIsInstance(warm, pb.SystemPrompt)
        self.assertEqual(warm.static_prefix, cold.static_prefix)
        for again in (pickle.loads(pickle.dumps(warm)), copy.copy(warm), copy.deepcopy(warm)):
            self.assertIs(type(again), pb.SystemPrompt)
            self.assertEqual((again, again.static_prefix), (warm, warm.static_prefix))

    def test_an_uncached_section_needs_a_reason(self) -> None:
        with self.assertRaisesRegex(TypeError, "non-empty reason"):
            pb.DANGEROUS_uncached_system_prompt_section("x", lambda: "v", " ")

    def test_a_missing_variable_names_section_and_variable(self) -> None:
        bundle = pb.load_bundle(DIST)
        with self.assertRaises(pb.MissingVariableError) as raised:
            pb.get_system_prompt(bundle, context={"isGitRepo": True, "platform": "linux"}, cache=pb.create_section_cache())
        self.assertEqual((raised.exception.section, raised.exception.variable), ("env-info", "cwd"))
        self.assertEqual(str(raised.exception), 'dynamic section "env-info" needs the context variable "cwd", which is missing')

    def _copy(self) -> str:
        copy = os.path.join(temp_dir(self), "dist")
        shutil.copytree(DIST, copy)
        return copy

    def _manifest(self, bundle: str) -> dict:  # type: ignore[type-arg]
        with open(os.path.join(bundle, "manifest.json"), encoding="utf-8") as handle:
            return json.load(handle)  # type: ignore[no-any-return]


if __name__ == "__main__":
    unittest.main()
