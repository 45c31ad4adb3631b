"""Python side of `npm run bench` (bench/python.mjs runs it): medians of repeated timings.

Reads ``{"module": path, "context": {...}, "expected": str, "dist": dir}`` on stdin and
prints JSON: the generated render function of the bench's 4 KB section against a
hand-written f-string renderer of the same text, a warm-cache assemble of the default
profile against ``"\\n\\n".join`` of the strings it gives, and ``load_bundle`` of ``dist``.
"""
import importlib.util
import json
import statistics
import sys
import time
from typing import Any, Callable, Dict, List

import prompt_build as pb
from prompt_build._js import RUNTIME

BATCH = 200
SAMPLES = 300


def floor(ctx: Dict[str, Any]) -> str:
    """The fastest plain Python for the bench template: f-strings and loops, no helpers."""
    dirs = ctx["additionalDirectories"]
    out = (
        f"# Environment\nYou have been invoked in the following environment:\n- Primary working directory: {ctx['cwd']}\n"
        f"- Is a git repository: {'Yes' if ctx['isGitRepo'] else 'No'}\n"
    )
    if dirs:
        out += "- Additional working directories: " + ", ".join(dirs) + "\n"
    out += (
        f"- Platform: {ctx['platform']}\n- Shell: {ctx['shell']}\n- OS version: {ctx['osVersion']}\n"
        f"- Model: {ctx['modelName']} (ID: {ctx['modelId']})\n- Knowledge cutoff: {ctx['knowledgeCutoff']}\n"
    )
    language = ctx["language"]
    if language:
        out += (
            f"\n# Language\nAlways respond in {language}. Use {language} for all explanations, comments and communications "
            "with the user. Technical terms and code identifiers keep their original form.\n"
        )
    out += "\n# MCP Server Instructions\nThe following MCP servers have provided instructions for how to use their tools and resources:\n"
    out += "".join([f"\n## {server['name']}\n{server['instructions']}\n" for server in ctx["mcpServers"]])
    out += "\n# Memory\n"
    out += "".join([f"- [{m['title']}]({m['file']}): {m['description']}\n" for m in ctx["memories"]])
    git = ctx["git"]
    out += (
        "\n# Git status\nThis is the git status at the start of the conversation. It is a snapshot in time and will not update "
        f"during the conversation.\nCurrent branch: {git['branch']}\nMain branch (you will usually use this for PRs): "
        f"{git['mainBranch']}\nStatus:\n{git['status']}\nRecent commits:\n"
    )
    out += "".join([f"{commit}\n" for commit in git["commits"]])
    return out


def sample_ns(run: Callable[[], Any]) -> float:
    start = time.perf_counter_ns()
    for _ in range(BATCH):
        run()
    return (time.perf_counter_ns() - start) / BATCH


def interleaved(candidates: Dict[str, Callable[[], Any]], samples: int) -> Dict[str, float]:
    """Medians of ns per call; the candidates alternate so machine noise falls on all alike."""
    for _ in range(samples // 10):
        for run in candidates.values():
            sample_ns(run)
    timings: Dict[str, List[float]] = {name: [] for name in candidates}
    for _ in range(samples):
        for name, run in candidates.items():
            timings[name].append(sample_ns(run))
    return {name: statistics.median(values) for name, values in timings.items()}


def main() -> None:
    request = json.load(sys.stdin)
    spec = importlib.util.spec_from_file_location("prompt_build_bench_section", request["module"])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ctx = request["context"]
    render = module.create(RUNTIME)
    if render(ctx) != request["expected"] or floor(ctx) != request["expected"]:
        raise SystemExit("the generated module and the f-string floor must render what the JavaScript thunk renders")
    rendering = interleaved({"floor": lambda: floor(ctx), "render": lambda: render(ctx)}, SAMPLES)

    loads: List[float] = []
    for _ in range(21):
        start = time.perf_counter_ns()
        bundle = pb.load_bundle(request["dist"])
        loads.append((time.perf_counter_ns() - start) / 1e6)
    inputs = {name for s in bundle.manifest["profiles"]["default"]["sections"] if s["kind"] == "dynamic" for name in s["inputs"]}
    context = {name: f"sample {name}" for name in sorted(inputs)}
    cache = pb.create_section_cache()
    strings = list(pb.get_system_prompt(bundle, context=context, cache=cache))
    assembling = interleaved(
        {"floor": lambda: "\n\n".join(strings), "assemble": lambda: "\n\n".join(pb.get_system_prompt(bundle, context=context, cache=cache))},
        SAMPLES,
    )
    json.dump(
        {
            "renderNs": rendering["render"],
            "renderFloorNs": rendering["floor"],
            "renderRatio": rendering["render"] / rendering["floor"],
            "assembleNs": assembling["assemble"],
            "assembleFloorNs": assembling["floor"],
            "assembleRatio": assembling["assemble"] / assembling["floor"],
            "loadBundleMs": statistics.median(loads),
            "bytes": len(request["expected"]),
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
