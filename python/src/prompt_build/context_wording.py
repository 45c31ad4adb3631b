"""The words wrapped around run-time context data (the git snapshot's preamble, the
instruction files' preamble, the date line, the user-context message) are prompt
text: sections of the bundle's ``context`` profile, each rendered on its own from
the data. This module only finds and renders them; it holds no wording
(the same contract as ``prompt-build/runtime``'s context-wording.ts)."""
from typing import Any, Dict, Tuple

from .bundle import Bundle, RenderSection
from ._arguments import check_bundle, check_mapping
from .errors import ArgumentError, BundleError

#: The profile whose sections are the context wording; never a system prompt of its own.
CONTEXT_PROFILE = "context"
CONTEXT_TEXTS: Tuple[str, ...] = ("git-snapshot", "instructions", "current-date", "user-context")


def has_context_wording(bundle: Bundle) -> bool:
    """Whether ``bundle`` carries every wording text."""
    check_bundle("has_context_wording", "bundle", bundle)
    profile = bundle.profiles.get(CONTEXT_PROFILE)
    return profile is not None and all(any(s.name == name for s in profile.dynamic_sections) for name in CONTEXT_TEXTS)


def render_context_text(bundle: Bundle, text: str, values: Dict[str, Any]) -> str:
    """``text`` rendered from ``values`` exactly as the template gives it: no newline trimmed."""
    check_bundle("render_context_text", "bundle", bundle)
    if text not in CONTEXT_TEXTS:
        raise ArgumentError("render_context_text", "text", "one of " + ", ".join(CONTEXT_TEXTS), text)
    check_mapping("render_context_text", "values", values, "a mapping of the values the text reads")
    return _renderer(bundle, text)(values) or ""


def _renderer(bundle: Bundle, text: str) -> RenderSection:
    profile = bundle.profiles.get(CONTEXT_PROFILE)
    for section in profile.dynamic_sections if profile else ():
        if section.name == text:
            return section.render
    raise BundleError(
        f"the bundle has no context wording '{text}': a profile '{CONTEXT_PROFILE}' with a dynamic section '{text}' "
        "(copy prompts/sections/context/ and prompts/profiles/context.md from prompt-build's embedded set), or pass the embedded bundle"
    )
