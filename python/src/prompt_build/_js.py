"""JavaScript value semantics for the generated render functions.

A section's template is compiled once, from one AST, to JavaScript and to
Python (``dist/dynamic/<name>.<hash>.py``). The JavaScript reproduces what
Handlebars renders; this module gives the Python the pieces of JavaScript it
needs for that, over JSON values: ``None`` is null, the ``U`` sentinel is
undefined (a missing key), lists are arrays, dicts are objects, ``bool`` and
``int``/``float`` are booleans and numbers (doubles).

The generated modules bind these names as locals (``S``, ``P``, ``ADD``…);
they are short on purpose, since every printed value goes through one.
"""
import math
from collections.abc import Mapping
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ._js_numbers import double as _double, number_text, string_number as _string_number
from .errors import MissingVariableError, RenderError


class _Undefined:
    """JavaScript's ``undefined``: what a lookup of a missing key yields (distinct from null)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "undefined"


U: Any = _Undefined()


class _NullContext(dict):  # type: ignore[type-arg]
    """Handlebars' ``nullContext``: ``this`` inside a block when the context is null (an empty sealed object)."""

    def __hash__(self) -> int:  # pragma: no cover - identity is all that matters
        return id(self)


NC: Any = _NullContext()

_MAX_SAFE = 2**53


def _int_text(value: int) -> str:
    return str(value) if -_MAX_SAFE < value < _MAX_SAFE else number_text(_double(value))


def _join(items: Sequence[Any]) -> str:
    """Array.prototype.join(','): null and undefined elements print nothing."""
    return ",".join("" if item is None or item is U else S(item) for item in items)


def S(value: Any) -> str:
    """JavaScript string conversion of a printed value (``"" + value``), null and undefined as ''."""
    kind = type(value)
    if kind is str:
        return value
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return _int_text(value)
    if kind is float:
        return number_text(value)
    if value is None or value is U:
        return ""
    if isinstance(value, (list, tuple)):
        return _join(value)
    if isinstance(value, Mapping):
        return "[object Object]"
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return number_text(_double(value))
    raise TypeError(f"a Python {kind.__name__} is not a JSON value")


def P(value: Any) -> Any:
    """A printed value as JavaScript ``+`` sees it: its primitive (a string, number or boolean)."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool:
        return value
    if value is None or value is U:
        return ""
    if isinstance(value, (bool, int, float)):
        return value
    return S(value)


def ADD(left: Any, right: Any) -> Any:
    """JavaScript ``+`` on primitives: concatenation if either is a string, else numeric addition."""
    if type(left) is str or type(right) is str:
        return S(left) + S(right)
    return _double(left) + _double(right)


def _array_index(key: str, length: int) -> Optional[int]:
    if not key.isdigit() or not key.isascii() or (len(key) > 1 and key[0] == "0"):
        return None
    index = int(key)
    return index if index < length else None


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


def G(parent: Any, key: str) -> Any:
    """Handlebars' ``lookupProperty``: own properties only; a null or undefined parent is the result."""
    kind = type(parent)
    if kind is dict:
        return parent.get(key, U)
    if parent is None or parent is U:
        return parent
    if isinstance(parent, Mapping):
        return parent.get(key, U) if parent is not NC else U
    if isinstance(parent, (list, tuple)):
        if key == "length":
            return len(parent)
        index = _array_index(key, len(parent))
        return U if index is None else parent[index]
    if isinstance(parent, str):
        units = _utf16(parent)
        if key == "length":
            return len(units) // 2
        index = _array_index(key, len(units) // 2)
        return U if index is None else units[2 * index : 2 * index + 2].decode("utf-16-le", "surrogatepass")
    return U


def GF(parent: Any, key: str) -> Any:
    """A data path's lookup (``@root.x``): JavaScript ``&&``, so a falsy parent is the result."""
    return parent if _js_falsy(parent) else G(parent, key)


def _js_falsy(value: Any) -> bool:
    kind = type(value)
    if kind is str:
        return value == ""
    if kind is bool:
        return not value
    if kind is int or kind is float:
        return value == 0 or value != value
    if value is None or value is U:
        return True
    if isinstance(value, (bool, int, float, str)):
        return not value or value != value
    return False


def TRUTHY(value: Any) -> bool:
    """``#if``: JavaScript falsy values and empty lists fail (an empty dict passes)."""
    if _js_falsy(value):
        return False
    return not (isinstance(value, (list, tuple)) and len(value) == 0)


def PRESENT(value: Any) -> bool:
    """``#with`` and ``includeZero``: Handlebars' ``!isEmpty``, where 0 is present."""
    if isinstance(value, (list, tuple)):
        return len(value) > 0
    return not _js_falsy(value) or (type(value) is not bool and isinstance(value, (int, float)) and value == 0)


def js_keys(value: Mapping[str, Any]) -> List[str]:
    """Object.keys order: array-index keys ascending, then the others in insertion order."""
    indexes: List[Tuple[int, str]] = []
    others: List[str] = []
    for key in value:
        index = _array_index(key, 2**32 - 1) if type(key) is str else None
        if index is None:
            others.append(key)
        else:
            indexes.append((index, key))
    if not indexes:
        return others
    return [key for _, key in sorted(indexes)] + others


def EACH(value: Any) -> Tuple[Optional[List[str]], Sequence[Any]]:
    """What ``#each`` walks: (None, items) for a list, (keys, values) for a dict, nothing for the rest."""
    kind = type(value)
    if kind is list:
        return None, value
    # The common nothing-to-walk cases before the Mapping check, which is an ABC's (slow) one.
    if kind is str or value is None or value is U:
        return None, ()
    if isinstance(value, (list, tuple)):
        return None, list(value)
    if isinstance(value, Mapping):
        keys = js_keys(value)
        return keys, [value[key] for key in keys]
    return None, ()


def _to_number(value: Any) -> float:
    if value is None:
        return 0.0
    if value is U:
        return math.nan
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return _double(value)
    if isinstance(value, str):
        return _string_number(value)
    return _to_number(S(value))


def loose_equal(left: Any, right: Any) -> bool:
    """JavaScript ``==`` over JSON values (objects by identity)."""
    left_nullish = left is None or left is U
    right_nullish = right is None or right is U
    if left_nullish or right_nullish:
        return left_nullish and right_nullish
    left_object = isinstance(left, (list, tuple, Mapping))
    right_object = isinstance(right, (list, tuple, Mapping))
    if left_object and right_object:
        return left is right
    if left_object:
        return loose_equal(S(left), right)
    if right_object:
        return loose_equal(left, S(right))
    if isinstance(left, str) and isinstance(right, str):
        return left == right
    return _to_number(left) == _to_number(right)


def PUSH(context: Any, depths: List[Any]) -> List[Any]:
    """Handlebars' wrapProgram: a block's context joins ``depths`` unless it equals (``!=``) the current one."""
    if not loose_equal(context, depths[0]) and not (context is NC and depths[0] is None):
        return [context] + depths
    return depths


def DEPTH(depths: List[Any], level: int) -> Any:
    """``../`` ``level`` times: undefined past the outermost context."""
    return depths[level] if level < len(depths) else U


def context(value: Any, section: str) -> Dict[str, Any]:
    """The root context as a dict: any mapping will do."""
    if isinstance(value, Mapping):
        return dict(value)
    raise RenderError(section, None, f'dynamic section "{section}" failed to render: the context is a {type(value).__name__}, not a mapping')


def missing(section: str, variable: str) -> None:
    raise MissingVariableError(section, variable)


def failed(section: str, error: BaseException) -> RenderError:
    """Anything else that went wrong while rendering, as a RenderError naming the section."""
    if isinstance(error, RenderError):
        return error
    first = str(error).split("\n", 1)[0]
    return RenderError(section, None, f'dynamic section "{section}" failed to render: {type(error).__name__}: {first}')


class RenderRuntime:
    """What a generated module receives as ``rt``."""

    U = U
    NC = NC
    S = staticmethod(S)
    P = staticmethod(P)
    ADD = staticmethod(ADD)
    G = staticmethod(G)
    GF = staticmethod(GF)
    TRUTHY = staticmethod(TRUTHY)
    PRESENT = staticmethod(PRESENT)
    EACH = staticmethod(EACH)
    PUSH = staticmethod(PUSH)
    DEPTH = staticmethod(DEPTH)
    RenderError = RenderError
    context = staticmethod(context)
    missing = staticmethod(missing)
    failed = staticmethod(failed)

    @property
    def HB(self) -> Any:
        """The Handlebars runtime (``_handlebars``), imported by the first module that needs it."""
        from . import _handlebars

        return _handlebars


RUNTIME = RenderRuntime()
