"""The sections behind a ``system_changed`` miss (``compiler/runtime/usage-sections.ts``): two prompts' static
sections compared by name and hash, and the sentence that says it (docs/usage.md#miss-reasons)."""
from typing import Any, Dict, List, Mapping, Sequence, Tuple


def section_changes(before: Sequence[Tuple[str, str]], after: Sequence[Tuple[str, str]]) -> List[Dict[str, str]]:
    """Sections of ``after`` changed or added (in its order), then those removed, then those kept but moved."""
    old = dict(before)
    now = dict(after)
    changes: List[Dict[str, str]] = []
    for name, digest in after:
        if name not in old:
            changes.append({"name": name, "change": "added"})
        elif old[name] != digest:
            changes.append({"name": name, "change": "changed"})
    for name, _ in before:
        if name not in now:
            changes.append({"name": name, "change": "removed"})
    kept_before = [name for name, _ in before if name in now]
    kept_after = [name for name, _ in after if name in old]
    for index, name in enumerate(kept_after):
        if (kept_before[index] if index < len(kept_before) else None) != name and old[name] == now[name]:
            changes.append({"name": name, "change": "moved"})
    return changes


def describe_miss(miss: Mapping[str, Any], record: Mapping[str, Any]) -> str:
    """A miss in words: "section `tone` changed in the static prefix of profile `default`"."""
    if record.get("profile") is not None:
        prefix = f"profile `{record['profile']}`"
    elif record.get("agent") is not None:
        prefix = f"agent `{record['agent']}`"
    else:
        prefix = "the prompt"
    missed = "" if miss.get("missedTokens") is None else f" ({miss['missedTokens']} tokens not read)"
    sections = miss.get("sections")
    if sections is None:
        return f"{miss['reason']}{missed}"
    if not sections:
        return f"{miss['reason']}: the static prefix of {prefix} is unchanged, so the dynamic tail changed{missed}"
    each = ", ".join(f"section `{section['name']}` {section['change']}" for section in sections)
    return f"{miss['reason']}: {each} in the static prefix of {prefix}{missed}"
