"""What a usage record needs from the bundle a prompt came from (``compiler/runtime/usage-bundle.ts``):
a short identity of the bundle, and the static sections of a profile's (or an agent's) prefix with their
hashes — what names the sections behind a ``system_changed`` miss (docs/usage.md#miss-reasons)."""
from typing import Any, List, Optional, Tuple

from ._arguments import check_bundle

_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3
_MASK_64 = 0xFFFFFFFFFFFFFFFF

StaticSection = Tuple[str, str]


def bundle_identity(bundle: Any) -> str:
    """16 hex digits of FNV-1a (64-bit) over every profile's and agent's name and artifact hashes: a label that
    tells builds apart in a log, the same value the JavaScript runtime gives (not a checksum: loading verifies
    the artifacts' own sha256)."""
    check_bundle("bundle_identity", "bundle", bundle)
    value = _FNV_OFFSET
    for byte in identity_text(bundle).encode("utf-8"):
        value = ((value ^ byte) * _FNV_PRIME) & _MASK_64
    return f"{value:016x}"


def _js_order(name: str) -> bytes:
    """JavaScript's default sort compares UTF-16 code units; so does this key."""
    return name.encode("utf-16-be", "surrogatepass")


def identity_text(bundle: Any) -> str:
    profiles = bundle.manifest["profiles"]
    agents = bundle.manifest["agents"]
    lines: List[str] = []
    for name in sorted(profiles, key=_js_order):
        profile = profiles[name]
        sections = [f"{section['kind']}:{section['name']}:{section['hash']}" for section in profile["sections"]]
        lines.append("\t".join(["profile", name, profile["staticPrefixHash"], *sections]))
    for name in sorted(agents, key=_js_order):
        lines.append("\t".join(["agent", name, agents[name]["hash"]]))
    return "\n".join(lines)


def static_sections_of(bundle: Any, source: Tuple[str, str], static_prefix_hash: str) -> Optional[List[StaticSection]]:
    """The static sections of the prefix ``source`` names, when ``bundle`` holds it with this hash."""
    kind, name = source
    if kind == "agent":
        agent = bundle.manifest["agents"].get(name)
        return [(name, agent["hash"])] if agent is not None and agent["hash"] == static_prefix_hash else None
    profile = bundle.manifest["profiles"].get(name)
    if profile is None or profile["staticPrefixHash"] != static_prefix_hash:
        return None
    return [(section["name"], section["hash"]) for section in profile["sections"] if section["kind"] == "static"]
