"""Checks a parsed ``manifest.json`` before the runtime trusts it: the same checks, in the
same words, as the JavaScript runtime's ``validate-manifest.ts``, plus the Python modules."""
import json
import re
from typing import Any, Dict, List, Tuple

from ._js import U, S
from .errors import BundleError

#: The manifest schema this runtime reads (``SCHEMA_VERSION`` in compiler/runtime/manifest.ts).
SCHEMA_VERSION = 1

_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def is_bundle_path(file: Any) -> bool:
    """A tampered manifest must not make the loader read outside the bundle."""
    return (
        isinstance(file, str)
        and file != ""
        and not file.startswith("/")
        and re.search(r"[\\:\0]", file) is None
        and all(segment not in ("", ".", "..") for segment in file.split("/"))
    )


def validate_manifest(value: Any, origin: str) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise BundleError(f"{origin}: the manifest is not a JSON object")
    version = value.get("schemaVersion", U)
    if type(version) is not int or version != SCHEMA_VERSION:
        raise BundleError(
            f"{origin}: manifest schemaVersion {_json(version)} is not supported; this runtime reads schemaVersion "
            f"{SCHEMA_VERSION}. Rebuild the bundle with a prompt-build version that matches the runtime."
        )
    problems = _profile_problems(value.get("profiles")) + _agent_problems(value.get("agents"))
    if problems:
        raise BundleError(f"{origin}: invalid manifest:\n  " + "\n  ".join(problems))
    return value


def list_artifacts(manifest: Dict[str, Any], origin: str) -> Tuple[List[Tuple[str, str]], List[Tuple[str, str]]]:
    """Every file this runtime reads, once each, sorted: texts (static sections, agent prompts) and Python modules."""
    texts: Dict[str, str] = {}
    modules: Dict[str, str] = {}

    def add(into: Dict[str, str], file: str, digest: str) -> None:
        known = into.get(file)
        if known is not None and known != digest:
            raise BundleError(f"{origin}: the manifest names {file} with two different hashes")
        into[file] = digest

    for profile in manifest["profiles"].values():
        for section in profile["sections"]:
            if section["kind"] == "static":
                add(texts, section["file"], section["hash"])
            else:
                add(modules, section["python"], section["pythonHash"])
    for agent in manifest["agents"].values():
        add(texts, agent["file"], agent["hash"])
    return sorted(texts.items()), sorted(modules.items())


def _profile_problems(profiles: Any) -> List[str]:
    if not isinstance(profiles, dict):
        return ['"profiles" is not an object']
    problems: List[str] = []
    for name, profile in profiles.items():
        where = f"profile {name}"
        if not isinstance(profile, dict) or not isinstance(profile.get("sections"), list):
            problems.append(f'{where}: no "sections" list')
            continue
        static_count = 0
        seen_dynamic = False
        for index, section in enumerate(profile["sections"]):
            at = f"{where}, section {index}"
            if not isinstance(section, dict):
                problems.append(f"{at}: not an object")
                continue
            problems.extend(_artifact_problems(section, at))
            if not isinstance(section.get("name"), str) or section.get("name") == "":
                problems.append(f"{at}: no name")
            kind = section.get("kind")
            if kind == "static":
                static_count += 1
                if seen_dynamic:
                    problems.append(f"{at}: static section after a dynamic one")
            elif kind == "dynamic":
                seen_dynamic = True
                if section.get("cache") not in ("cached", "uncached"):
                    problems.append(f'{at}: cache must be "cached" or "uncached"')
                problems.extend(_python_problems(section, at))
            else:
                problems.append(f'{at}: kind must be "static" or "dynamic"')
        digest = profile.get("staticPrefixHash")
        if not isinstance(digest, str) or not _SHA256.match(digest):
            problems.append(f"{where}: staticPrefixHash is not a sha256 hex digest")
        boundary = profile.get("boundaryIndex", U)
        if type(boundary) is not int or boundary != static_count:
            problems.append(f"{where}: boundaryIndex {_js_string(boundary)} is not the static count {static_count}")
    return problems


def _python_problems(section: Dict[str, Any], at: str) -> List[str]:
    if "python" not in section:
        return [f"{at}: no Python module (the bundle was built without the python target: build with --targets js,python)"]
    problems: List[str] = []
    if not is_bundle_path(section.get("python")):
        problems.append(f"{at}: python {_json(section.get('python', U))} is not a relative path inside the bundle")
    digest = section.get("pythonHash")
    if not isinstance(digest, str) or not _SHA256.match(digest):
        problems.append(f"{at}: pythonHash is not a sha256 hex digest")
    return problems


def _agent_problems(agents: Any) -> List[str]:
    if not isinstance(agents, dict):
        return ['"agents" is not an object']
    problems: List[str] = []
    for name, agent in agents.items():
        if isinstance(agent, dict):
            problems.extend(_artifact_problems(agent, f"agent {name}"))
        else:
            problems.append(f"agent {name}: not an object")
    return problems


def _artifact_problems(entry: Dict[str, Any], where: str) -> List[str]:
    problems: List[str] = []
    if not is_bundle_path(entry.get("file")):
        problems.append(f"{where}: file {_json(entry.get('file', U))} is not a relative path inside the bundle")
    digest = entry.get("hash")
    if not isinstance(digest, str) or not _SHA256.match(digest):
        problems.append(f"{where}: hash is not a sha256 hex digest")
    return problems


def _json(value: Any) -> str:
    """JSON.stringify as a message shows it: an absent value is ``undefined``."""
    return "undefined" if value is U else json.dumps(value, ensure_ascii=False)


def _js_string(value: Any) -> str:
    return "undefined" if value is U else "null" if value is None else S(value)
