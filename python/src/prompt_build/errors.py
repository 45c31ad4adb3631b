"""The errors of the runtime: the same names and messages as ``prompt-build/runtime``."""
from typing import Optional


class BundleError(Exception):
    """A bundle that cannot be trusted to give the right prompt; the message names the file."""


class RenderError(Exception):
    """A dynamic section could not render; names the section and, where one is to blame, the variable."""

    def __init__(self, section: str, variable: Optional[str], message: str) -> None:
        super().__init__(message)
        self.section = section
        self.variable = variable
        self.message = message


class MissingVariableError(RenderError):
    """A required context variable was missing when its section rendered."""

    def __init__(self, section: str, variable: str) -> None:
        super().__init__(section, variable, f'dynamic section "{section}" needs the context variable "{variable}", which is missing')


class ArgumentError(TypeError, ValueError):
    """A public function called with an argument it cannot take: names the function, the parameter
    and what it got (the same refusals as ``prompt-build/runtime``'s ArgumentError). A TypeError and a
    ValueError both, so code that caught either before still does."""

    def __init__(self, function: str, parameter: str, expected: str, got: object) -> None:
        hint = " (did you forget `await`?)" if _is_awaitable(got) else ""
        super().__init__(f"{function}: {parameter} must be {expected}; got {_describe(got)}{hint}")
        self.function = function
        self.parameter = parameter


def _is_awaitable(value: object) -> bool:
    return hasattr(value, "__await__")


def _describe(value: object) -> str:
    """What a value is, in a few words, without printing it (it may be large, or a secret)."""
    if value is None:
        return "None"
    if _is_awaitable(value):
        return "a coroutine" if type(value).__name__ == "coroutine" else "an awaitable"
    if isinstance(value, bool):
        return f"bool {value}"
    if isinstance(value, str):
        return repr(value) if len(value) <= 20 else f"a string of {len(value)} characters"
    if isinstance(value, (int, float)):
        return f"{type(value).__name__} {value!r}"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)}"
    if callable(value):
        return "a function"
    return f"a {type(value).__name__}"
