"""Shared by the Python tests: the repository's paths, the conformance vectors, and
fixture trees built into bundles by the repository's own compiler (``node lib/cli/bin.js``,
built by ``npm run build:tool``, which ``npm test`` runs first). Everything is written
inside temporary directories."""
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SRC = os.path.join(REPO, "python", "src")
CONFORMANCE = os.path.join(REPO, "test", "conformance")
CLI = os.path.join(REPO, "lib", "cli", "bin.js")

if SRC not in sys.path:
    sys.path.insert(0, SRC)


def vectors(name: str) -> Dict[str, Any]:
    with open(os.path.join(CONFORMANCE, name), encoding="utf-8") as handle:
        return json.load(handle)  # type: ignore[no-any-return]


def temp_dir(test: Any, prefix: str = "pb-py-") -> str:
    """A temporary directory removed when ``test`` ends."""
    path = os.path.realpath(tempfile.mkdtemp(prefix=prefix))
    test.addCleanup(shutil.rmtree, path, True)
    return path


def write_tree(root: str, files: Dict[str, str]) -> None:
    for rel, content in files.items():
        path = os.path.join(root, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(content)


def build(root: str) -> str:
    """Builds ``root`` with the repository's compiler; returns the bundle directory."""
    if not os.path.exists(CLI):
        raise RuntimeError(f"{CLI} is missing: run `npm run build:tool` (npm test does) before the Python tests")
    out = os.path.join(root, "dist")
    result = subprocess.run(["node", CLI, "build", "--root", root, "--out", out, "--no-cache"], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"the build of {root} failed:\n{result.stdout}{result.stderr}")
    return out


def section_name(index: int) -> str:
    return f"r{index:04d}"


def render_tree(cases: Sequence[Dict[str, Any]]) -> Dict[str, str]:
    """The render cases' fixture tree: the same files as ``renderTree`` in test/conformance/render-seeds.ts."""
    files: Dict[str, str] = {}
    for index, case in enumerate(cases):
        front = "\n".join(["---", "kind: dynamic", f"inputs: {_js_json(case['inputs'])}", f"optional: {_js_json(case['optional'])}", "---", ""])
        files[f"prompts/sections/{section_name(index)}.md"] = front + case["template"]
    names: List[str] = [section_name(index) for index in range(len(cases))]
    files["prompts/profiles/render.md"] = f"---\ncacheWarning: false\ndescription: every render case\nsections: {_js_json(names)}\n---\n"
    return files


def _js_json(value: Any) -> str:
    """JSON.stringify's spelling: no spaces, non-ASCII kept."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def snake(name: str) -> str:
    """A JavaScript name in Python's spelling: ``staticTtl`` → ``static_ttl``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def python_parameter(parameter: str) -> str:
    """The parameter a JavaScript refusal names, as Python names it: ``options.staticTtl`` is the keyword
    ``static_ttl``; ``systemContext.gitStatus`` is ``system_context.gitStatus``; ``input.toolConfig.tools[0]``
    is ``tool_config.tools[0]``."""
    for prefix in ("options.", "input."):
        if parameter.startswith(prefix):
            parameter = parameter[len(prefix) :]
    head, dot, rest = parameter.partition(".")
    return snake(head) + dot + rest

