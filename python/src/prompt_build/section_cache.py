"""Dynamic sections and the per-session cache that keeps them byte-stable between turns.

A cached section is computed once per session and reused by name; an uncached
one is recomputed on every request (it changes the prompt tail and costs
cache hits: hence the loud name and the mandatory reason). Computes may be
plain functions or coroutine functions: ``resolve_system_prompt_sections``
takes plain ones, ``resolve_system_prompt_sections_async`` both, and runs
the awaitables concurrently.
"""
import asyncio
import inspect
from typing import Any, Awaitable, Callable, Dict, List, Optional, Sequence, Union

from ._arguments import check_bool, check_string
from .errors import ArgumentError
from .system_prompt import JS_WHITESPACE

SectionValue = Optional[str]
ComputeSection = Callable[[], Union[SectionValue, Awaitable[SectionValue]]]

_NOT_CACHED: Any = object()


class SectionCache:
    """One per session; clear it on /clear, /compact and worktree changes."""

    def __init__(self) -> None:
        self._values: Dict[str, SectionValue] = {}
        #: What was derived from the values: ``{profile name: (profile, assembly plan)}``, emptied by every change.
        self._plans: Dict[str, Any] = {}

    def get(self, name: str) -> Any:
        """The cached value (None is a value), or ``SectionCache.MISSING`` when never computed."""
        return self._values.get(name, _NOT_CACHED)

    def has(self, name: str) -> bool:
        return name in self._values

    def set(self, name: str, value: SectionValue) -> None:
        self._values[name] = value
        self._plans.clear()

    def clear(self) -> None:
        self._values.clear()
        self._plans.clear()

    def plan(self, profile: Any) -> Any:
        """What ``remember_plan`` stored for ``profile`` (the same object), unless a value changed since."""
        entry = self._plans.get(profile.name)
        return entry[1] if entry is not None and entry[0] is profile else None

    def remember_plan(self, profile: Any, plan: Any) -> None:
        self._plans[profile.name] = (profile, plan)

    @property
    def size(self) -> int:
        return len(self._values)

    MISSING = _NOT_CACHED


def create_section_cache() -> SectionCache:
    return SectionCache()


class SystemPromptSection:
    __slots__ = ("name", "compute", "cache", "cache_break", "reason")

    def __init__(self, name: str, compute: ComputeSection, cache: str, cache_break: bool = False, reason: Optional[str] = None) -> None:
        self.name = name
        self.compute = compute
        self.cache = cache
        self.cache_break = cache_break
        self.reason = reason


def system_prompt_section(name: str, compute: ComputeSection, cache_break: bool = False) -> SystemPromptSection:
    _check_section("system_prompt_section", name, compute)
    check_bool("system_prompt_section", "cache_break", cache_break)
    return SystemPromptSection(name, compute, "cached", cache_break=cache_break)


def DANGEROUS_uncached_system_prompt_section(name: str, compute: ComputeSection, reason: str) -> SystemPromptSection:
    _check_section("DANGEROUS_uncached_system_prompt_section", name, compute)
    if not isinstance(reason, str) or reason.strip(JS_WHITESPACE) == "":
        why = "given (a non-empty reason is required: an uncached section changes the prompt every turn and breaks the prompt cache)"
        raise ArgumentError("DANGEROUS_uncached_system_prompt_section", "reason", why, reason)
    return SystemPromptSection(name, compute, "uncached", reason=reason)


def _check_section(fn: str, name: Any, compute: Any) -> None:
    check_string(fn, "name", name)
    if not callable(compute):
        raise ArgumentError(fn, "compute", "a function", compute)


def _check_resolve(fn: str, sections: Any, cache: Any) -> None:
    if not isinstance(sections, (list, tuple)):
        raise ArgumentError(fn, "sections", "a sequence of sections (system_prompt_section…)", sections)
    for index, section in enumerate(sections):
        if not isinstance(section, SystemPromptSection):
            raise ArgumentError(fn, f"sections[{index}]", "a section from system_prompt_section or DANGEROUS_uncached_system_prompt_section", section)
    if not isinstance(cache, SectionCache):
        raise ArgumentError(fn, "cache", "the session's section cache (create_section_cache())", cache)


def _cached(section: SystemPromptSection, cache: SectionCache) -> Any:
    if section.cache == "cached" and not section.cache_break:
        return cache.get(section.name)
    return _NOT_CACHED


def _store(section: SystemPromptSection, cache: SectionCache, value: Any) -> SectionValue:
    # Uncached values are never stored: nothing may ever reuse them.
    if section.cache == "cached":
        cache.set(section.name, value)
    return value


def resolve_system_prompt_sections(sections: Sequence[SystemPromptSection], cache: SectionCache) -> List[SectionValue]:
    """Values in section order, for computes that return plain values."""
    _check_resolve("resolve_system_prompt_sections", sections, cache)
    values: List[SectionValue] = []
    for section in sections:
        value = _cached(section, cache)
        if value is _NOT_CACHED:
            value = section.compute()
            if inspect.isawaitable(value):
                if inspect.iscoroutine(value):
                    value.close()
                raise TypeError(f"section {section.name} computes asynchronously: use get_system_prompt_async / resolve_system_prompt_sections_async")
            value = _store(section, cache, value)
        values.append(value)
    return values


async def resolve_system_prompt_sections_async(sections: Sequence[SystemPromptSection], cache: SectionCache) -> List[SectionValue]:
    """Values in section order; every awaitable is started before any is awaited, so they run concurrently."""
    _check_resolve("resolve_system_prompt_sections_async", sections, cache)
    values: List[Any] = []
    pending: List[int] = []
    for index, section in enumerate(sections):
        value = _cached(section, cache)
        if value is _NOT_CACHED:
            value = section.compute()
            if inspect.isawaitable(value):
                pending.append(index)
            else:
                value = _store(section, cache, value)
        values.append(value)
    if pending:
        results = await asyncio.gather(*(values[index] for index in pending))
        for index, result in zip(pending, results):
            values[index] = _store(sections[index], cache, result)
    return values
