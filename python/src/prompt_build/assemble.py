"""Assembles one profile of a bundle (docs/runtime.md#assembling-a-profile): static texts, the boundary, then the
dynamic sections rendered from the context through the session's section cache.

``get_system_prompt`` is for plain callers (the bundle's sections render
synchronously); ``get_system_prompt_async`` is the same for asyncio code, where
it can be awaited alongside other work. Both give the same prompt.
"""
from typing import Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union

from ._arguments import check_bundle, check_mapping, check_one_of, check_optional_string, check_prompt_input, check_string
from .bundle import Bundle, BundleProfile, DynamicSection
from .errors import ArgumentError, BundleError
from .section_cache import (
    DANGEROUS_uncached_system_prompt_section,
    SectionCache,
    SystemPromptSection,
    resolve_system_prompt_sections,
    resolve_system_prompt_sections_async,
    system_prompt_section,
)
from .system_prompt import (
    JS_WHITESPACE,
    SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
    StaticPrefix,
    SystemPrompt,
    _new_tuple,
    as_bundle_prompt,
    prompt_class,
    has_text,
    trim_trailing_newlines,
)


def get_system_prompt(
    bundle: Bundle,
    *,
    context: Mapping[str, Any] = None,  # type: ignore[assignment]
    cache: SectionCache = None,  # type: ignore[assignment]
    profile: Optional[str] = None,
    mode: str = "default",
) -> SystemPrompt:
    """``mode`` "simple" and "proactive" select the profiles of those names, whatever ``profile`` says."""
    # _find_profile and the plan's half of _ready, written out: a warm request ends here,
    # and each function call is a measurable part of it. So the arguments are checked in
    # full only where a cheap test (or the lookups themselves) found something wrong.
    if type(context) is not dict or mode not in _MODES:
        _check_assembly("get_system_prompt", bundle, context, cache, profile, mode)
    name = mode if mode == "simple" or mode == "proactive" else "default" if profile is None else profile
    try:
        found = bundle.profiles.get(name)
        plan = cache._plans.get(name)
    except (AttributeError, TypeError):
        _check_assembly("get_system_prompt", bundle, context, cache, profile, mode)
        raise
    if found is None:
        _check_assembly("get_system_prompt", bundle, context, cache, profile, mode)
        raise _no_profile(bundle, name)
    if plan is not None and plan[0] is found:
        return plan[1](context)  # type: ignore[no-any-return]
    ready = _ready(found, context, cache)
    if ready is not None:
        return ready
    values = resolve_system_prompt_sections(_sections(found, context), cache)
    _remember_plan(found, cache)
    return _assemble(found, values)


async def get_system_prompt_async(
    bundle: Bundle,
    *,
    context: Mapping[str, Any],
    cache: SectionCache,
    profile: Optional[str] = None,
    mode: str = "default",
) -> SystemPrompt:
    _check_assembly("get_system_prompt_async", bundle, context, cache, profile, mode)
    found = _find_profile(bundle, profile, mode)
    ready = _ready(found, context, cache)
    if ready is not None:
        return ready
    values = await resolve_system_prompt_sections_async(_sections(found, context), cache)
    _remember_plan(found, cache)
    return _assemble(found, values)


_MODES = ("default", "simple", "proactive")


def _check_assembly(fn: str, bundle: Any, context: Any, cache: Any, profile: Any, mode: Any) -> None:
    check_bundle(fn, "bundle", bundle)
    check_mapping(fn, "context", context, "a mapping of the values the templates read")
    if not isinstance(cache, SectionCache):
        raise ArgumentError(fn, "cache", "the session's section cache (create_section_cache())", cache)
    check_optional_string(fn, "profile", profile)
    check_one_of(fn, "mode", mode, _MODES)


def _ready(profile: BundleProfile, context: Mapping[str, Any], cache: SectionCache) -> Optional[SystemPrompt]:
    """The prompt when no section needs resolving: a warm cache's plan, or a static-only profile."""
    plan = cache.plan(profile)
    if plan is not None:
        return plan(context)  # type: ignore[no-any-return]
    if not profile.dynamic_sections:
        # The boundary even with nothing after it: what a caller appends later stays out of the cached prefix.
        return as_bundle_prompt([*profile.static_texts, SYSTEM_PROMPT_DYNAMIC_BOUNDARY], profile.static_prefix_hash, ("profile", profile.name))
    return None


def _remember_plan(profile: BundleProfile, cache: SectionCache) -> None:
    """Stores the profile's warm assembly in the cache, if every cached section has its value."""
    parts: List[str] = [*profile.static_texts, SYSTEM_PROMPT_DYNAMIC_BOUNDARY]
    head: Optional[Tuple[str, ...]] = None
    segments = []
    render: Optional[Callable[[Any], Optional[str]]] = None
    for section in profile.dynamic_sections:
        if section.cache == "uncached":
            if head is None:
                head = tuple(parts)
            else:
                segments.append((render, tuple(parts)))
            parts, render = [], section.render
            continue
        if not cache.has(section.name):
            return
        value = cache.get(section.name)
        if has_text(value):
            parts.append(value)
    if head is None:
        head = tuple(parts)
    else:
        segments.append((render, tuple(parts)))
    prefix = StaticPrefix(profile.static_prefix_hash, len(profile.static_texts) + 1, ("profile", profile.name))
    cache.remember_plan(profile, _plan(head, tuple(segments), prompt_class(prefix)))  # type: ignore[arg-type]


_Plan = Callable[[Mapping[str, Any]], SystemPrompt]


def _plan(head: Tuple[str, ...], segments: Tuple[Tuple[Callable[[Any], Optional[str]], Tuple[str, ...]], ...], make: Any) -> _Plan:
    """A warm cache's assembly of one profile: the parts up to the first uncached section,
    then each uncached section's render and the (cached) parts after it. Valid while the
    cache is unchanged (``SectionCache.plan``), so a warm request renders only what must be.
    ``make`` is the prompt class carrying the profile's static prefix (``prompt_class``)."""
    renders = tuple(render for render, _ in segments)
    tails = tuple(tail for _, tail in segments)
    # What the uncached sections rendered last time and the prompt made of it: a prompt
    # is an immutable tuple, so the next request that renders the same texts gets it again.
    last: List[Any] = [None, None]

    def assemble(context: Mapping[str, Any]) -> SystemPrompt:
        texts = []
        for render in renders:
            texts.append(render(context))
        if texts == last[0]:
            return last[1]  # type: ignore[no-any-return]
        parts = list(head)
        for text, tail in zip(texts, tails):
            if type(text) is str:
                text = text.rstrip("\n")
                # has_text, with its common case (a visible first character) inline.
                if text and (text[0] not in JS_WHITESPACE or has_text(text)):
                    parts.append(text)
            parts += tail
        prompt = _new_tuple(make, parts)
        last[:] = texts, prompt
        return prompt  # type: ignore[no-any-return]

    return assemble


def get_agent_system_prompt(bundle: Bundle, name: str, environment: Union[str, Sequence[str], None] = None) -> SystemPrompt:
    """An agent's text is the same for every user: the static prefix; the environment goes after the boundary."""
    check_bundle("get_agent_system_prompt", "bundle", bundle)
    check_string("get_agent_system_prompt", "name", name)
    check_prompt_input("get_agent_system_prompt", "environment", environment)
    agent = bundle.agents.get(name)
    if agent is None:
        known = ", ".join(bundle.agents) or "none"
        raise BundleError(f'the bundle has no agent "{name}" (agents: {known})')
    extra = [environment] if isinstance(environment, str) else list(environment or [])
    parts = [agent.prompt, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, *[part for part in extra if has_text(part)]]
    return as_bundle_prompt(parts, agent.definition["hash"], ("agent", name))


def _assemble(profile: BundleProfile, values: List[Optional[str]]) -> SystemPrompt:
    parts = [*profile.static_texts, SYSTEM_PROMPT_DYNAMIC_BOUNDARY, *[value for value in values if has_text(value)]]
    return as_bundle_prompt(parts, profile.static_prefix_hash, ("profile", profile.name))  # type: ignore[arg-type]


def _find_profile(bundle: Bundle, profile: Optional[str], mode: str) -> BundleProfile:
    name = mode if mode == "simple" or mode == "proactive" else "default" if profile is None else profile
    found = bundle.profiles.get(name)
    if found is None:
        raise _no_profile(bundle, name)
    return found


def _no_profile(bundle: Bundle, name: str) -> BundleError:
    known = ", ".join(bundle.profiles) or "none"
    return BundleError(f'the bundle has no profile "{name}" (profiles: {known})')


def _sections(profile: BundleProfile, context: Mapping[str, Any]) -> List[SystemPromptSection]:
    return [_section(section, context) for section in profile.dynamic_sections]


def _section(section: DynamicSection, context: Mapping[str, Any]) -> SystemPromptSection:
    def compute() -> Optional[str]:
        text = section.render(context)  # type: ignore[arg-type]
        return trim_trailing_newlines(text) if isinstance(text, str) else None

    if section.cache == "cached":
        return system_prompt_section(section.name, compute)
    return DANGEROUS_uncached_system_prompt_section(section.name, compute, section.reason or "")
