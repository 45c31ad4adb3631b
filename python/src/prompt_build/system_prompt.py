"""The assembled system prompt: an ordered tuple of parts, one per section.

Like the JavaScript ``SystemPrompt`` it remembers the identity of the static
prefix it starts with (a profile's ``staticPrefixHash``, an agent's text
hash) when its first parts are exactly what the bundle holds, so provider
adapters can derive cache keys from it. A plain list never carries one.
"""
from typing import Any, Iterable, NamedTuple, Optional, Sequence, Tuple

from ._arguments import check_bool, check_optional_string, check_prompt

SYSTEM_PROMPT_DYNAMIC_BOUNDARY = "__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__"

# JavaScript's WhiteSpace and LineTerminator (what String.prototype.trimStart removes),
# not Python's str.isspace set: a section is left out exactly when the JS runtime leaves it out.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def has_text(value: Any) -> bool:
    """None, non-strings, empty and whitespace-only results are left out of a prompt."""
    return isinstance(value, str) and value.lstrip(JS_WHITESPACE) != ""


def trim_trailing_newlines(text: str) -> str:
    """A section's own final newlines would only add blank lines where sections are joined."""
    return text.rstrip("\n")


class StaticPrefix(NamedTuple):
    hash: str
    #: How many parts the prefix is: up to and including the boundary, or all of a prompt without one.
    length: int
    #: The profile or agent of the bundle the prefix is, as ("profile" | "agent", name); None for a hash the caller gave.
    source: Optional[Tuple[str, str]] = None


class SystemPrompt(tuple):  # type: ignore[type-arg]
    """A tuple of str that knows its static prefix (see ``as_system_prompt``)."""

    static_prefix: Optional[StaticPrefix]

    def __new__(cls, parts: Iterable[str], static_prefix: Optional[StaticPrefix] = None) -> "SystemPrompt":
        prompt = _new_tuple(cls, parts)
        prompt.static_prefix = static_prefix
        return prompt

    def __reduce__(self) -> Any:
        # As the base class, whatever subclass made it (``prompt_class``): pickled and copied alike.
        return (SystemPrompt, (tuple(self), self.static_prefix))


def prompt_class(static_prefix: StaticPrefix) -> Any:
    """A SystemPrompt subclass whose prompts all have ``static_prefix``, as a class attribute:
    ``tuple.__new__(cls, parts)`` then makes one with no instance dictionary to fill, which
    is most of what a warm request costs (a section cache's plan holds one)."""
    return type("SystemPrompt", (SystemPrompt,), {"static_prefix": static_prefix, "__module__": SystemPrompt.__module__})


# Bound once: a warm request builds one SystemPrompt, and super() is a measurable part of that.
_new_tuple = tuple.__new__


def as_system_prompt(
    parts: Sequence[str],
    static_prefix_hash: Optional[str] = None,
    derived_from: Sequence[Any] = (),
) -> SystemPrompt:
    """A SystemPrompt of ``parts``; its prefix identity is given, or carried over from a prompt it starts with unchanged."""
    check_optional_string("as_system_prompt", "static_prefix_hash", static_prefix_hash)
    if isinstance(parts, SystemPrompt) and static_prefix_hash is None:
        return parts
    check_prompt("as_system_prompt", parts, "parts")
    items = list(parts)
    if static_prefix_hash is not None:
        boundary = items.index(SYSTEM_PROMPT_DYNAMIC_BOUNDARY) if SYSTEM_PROMPT_DYNAMIC_BOUNDARY in items else -1
        length = len(items) if boundary == -1 else boundary + 1
        return SystemPrompt(items, StaticPrefix(static_prefix_hash, length))
    return SystemPrompt(items, _carried_prefix(items, derived_from))


def as_bundle_prompt(parts: Sequence[str], static_prefix_hash: str, source: Tuple[str, str]) -> SystemPrompt:
    """A prompt assembled from a bundle (assemble.py): ``as_system_prompt`` with its static prefix's hash and
    the profile or agent it is, which a prompt derived from it unchanged carries too."""
    check_prompt("as_system_prompt", parts, "parts")
    items = list(parts)
    boundary = items.index(SYSTEM_PROMPT_DYNAMIC_BOUNDARY) if SYSTEM_PROMPT_DYNAMIC_BOUNDARY in items else -1
    return SystemPrompt(items, StaticPrefix(static_prefix_hash, len(items) if boundary == -1 else boundary + 1, source))


def _carried_prefix(parts: Sequence[str], sources: Sequence[Any]) -> Optional[StaticPrefix]:
    for source in sources:
        if not isinstance(source, SystemPrompt) or source.static_prefix is None:
            continue
        prefix = source.static_prefix
        if prefix.length <= len(parts) and all(parts[i] == source[i] for i in range(prefix.length)):
            return prefix
    return None


def static_prefix_hash_of(prompt: Sequence[str]) -> Optional[str]:
    check_prompt("static_prefix_hash_of", prompt)
    prefix = getattr(prompt, "static_prefix", None)
    return prefix.hash if prefix is not None else None


def prompt_source_of(prompt: Sequence[str]) -> Optional[Tuple[str, str]]:
    """The profile or agent of a bundle the prompt's static prefix is, as ("profile" | "agent", name), or None."""
    prefix = getattr(prompt, "static_prefix", None)
    return prefix.source if prefix is not None else None


def render_system_prompt(prompt: Sequence[str], show_boundary: bool = False) -> str:
    """The prompt as one string, parts separated by blank lines; the boundary dropped unless shown."""
    check_prompt("render_system_prompt", prompt)
    check_bool("render_system_prompt", "show_boundary", show_boundary)
    parts = prompt if show_boundary else [part for part in prompt if part != SYSTEM_PROMPT_DYNAMIC_BOUNDARY]
    return "\n\n".join(parts)
