"""Argument checks for the public functions, as ``compiler/runtime/arguments.ts`` makes them:
the same inputs are refused, each with an ``ArgumentError`` naming the function and the parameter."""
from typing import Any, Iterable, Mapping, Optional

from .errors import ArgumentError


def check_prompt(fn: str, prompt: Any, parameter: str = "prompt") -> None:
    """A prompt: a list or tuple of strings (a SystemPrompt, or the parts one is made of)."""
    if not isinstance(prompt, (list, tuple)):
        raise ArgumentError(fn, parameter, "a SystemPrompt (a sequence of strings)", prompt)
    for index, part in enumerate(prompt):
        if type(part) is not str:
            raise ArgumentError(fn, f"{parameter}[{index}]", "a string", part)


def check_prompt_input(fn: str, parameter: str, value: Any) -> None:
    """A prompt given as one string, as parts, or absent (the priority chain's inputs)."""
    if value is None or isinstance(value, str):
        return
    if not isinstance(value, (list, tuple)):
        raise ArgumentError(fn, parameter, "a string, a sequence of strings or None", value)
    check_prompt(fn, value, parameter)


def check_string(fn: str, parameter: str, value: Any) -> None:
    if not isinstance(value, str):
        raise ArgumentError(fn, parameter, "a string", value)


def check_optional_string(fn: str, parameter: str, value: Any) -> None:
    if value is not None:
        check_string(fn, parameter, value)


def check_bool(fn: str, parameter: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ArgumentError(fn, parameter, "True or False", value)


def check_one_of(fn: str, parameter: str, value: Any, allowed: Iterable[str]) -> None:
    options = tuple(allowed)
    if value is not None and value not in options:
        raise ArgumentError(fn, parameter, "one of " + ", ".join(f"'{a}'" for a in options), value)


def check_mapping(fn: str, parameter: str, value: Any, expected: str) -> None:
    if not isinstance(value, Mapping):
        raise ArgumentError(fn, parameter, expected, value)


def check_entries(fn: str, parameter: str, value: Any) -> None:
    """Key-value context entries: a mapping whose values are strings (None is left out)."""
    check_mapping(fn, parameter, value, "a mapping of strings")
    for key, entry in value.items():
        if entry is not None and not isinstance(entry, str):
            raise ArgumentError(fn, f"{parameter}.{key}", "a string", entry)


def check_bundle(fn: str, parameter: str, value: Any, expected: Optional[str] = None) -> None:
    from .bundle import Bundle  # here, not at the top: bundle.py imports what imports this module

    if not isinstance(value, Bundle):
        raise ArgumentError(fn, parameter, expected or "a bundle from load_bundle", value)
