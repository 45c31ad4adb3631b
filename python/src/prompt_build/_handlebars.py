"""The Handlebars runtime, for the generated modules of templates the JavaScript
side renders with Handlebars' own compiled code (the code generator's fast path
leaves them alone: ``lookup`` and ``log`` calls, sub-expressions, block
parameters, sections like ``{{#name}}…{{/name}}``, any data variable or hash
argument).

Such a module (compiler/template/python-handlebars.ts) is the twin of what
Handlebars 4.7's JavaScript compiler writes for the template: one function per
program, ``(context, data, block_params, depths)``, calling the built-in
helpers below with what Handlebars passes them. These are Handlebars'
runtime pieces (runtime.js, helpers/*.js, utils.js) over JSON values, with the
JavaScript value rules of ``_js``: ``U`` is undefined, ``NC`` the null context,
a data frame a dict (``root``, ``_parent``, ``key``, ``index``, ``first``,
``last``, as ``createFrame`` copies them).
"""
import re
from collections.abc import Mapping
from typing import Any, Callable, Dict, List, Optional, Sequence

from ._js import ADD, NC, PRESENT, PUSH, S, U, G, GF, P, _js_falsy, _to_number, js_keys

Program = Callable[..., Any]


def FOLD(pieces: Sequence[Any]) -> Any:
    """A program's pieces joined as the compiled ``return a + b + …`` joins them: a left fold
    with JavaScript ``+`` from the first piece (``""`` for none); once the result is a string
    the rest is concatenation."""
    if not pieces:
        return ""
    result = pieces[0]
    for at in range(1, len(pieces)):
        if type(result) is str:
            return result + "".join([piece if type(piece) is str else S(piece) for piece in pieces[at:]])
        result = ADD(result, pieces[at])
    return result


def APPEND(buffer: Any, value: Any) -> Any:
    """``if (value != null) buffer += rt.text(value)``: a section's result into the buffer."""
    return buffer if value is None or value is U else ADD(buffer, P(value))


def GP(value: Any, parts: Sequence[str]) -> Any:
    """A context path: ``lookupProperty`` per segment, stopping at null or undefined."""
    for part in parts:
        value = G(value, part)
    return value


def GFP(value: Any, parts: Sequence[str]) -> Any:
    """A data path (``@root.a``): JavaScript ``&&`` between segments, so a falsy value stops it."""
    for part in parts:
        value = GF(value, part)
    return value


def SELF(context: Any) -> Any:
    """``this`` for a helper call: the context, or ``container.nullContext`` when it is null."""
    return NC if context is None or context is U else context


def DATA(data: Any, depth: int) -> Any:
    """``container.data(data, depth)``: ``@../x`` climbs ``_parent`` while there is a frame."""
    while depth > 0 and not _js_falsy(data):
        data = data.get("_parent", U) if isinstance(data, dict) else U
        depth -= 1
    return data


def BP(block_params: List[Any], depth: int, index: int) -> Any:
    """``blockParams[depth][index]``: a program that got no block parameters (an ``#if``'s, a
    section's over ``true``) has undefined there, and JavaScript throws reading from it."""
    frame = block_params[depth] if depth < len(block_params) else U
    if frame is U or frame is None:
        raise TypeError(f"Cannot read properties of undefined (reading '{index}')")
    return frame[index] if index < len(frame) else U


def PROG(fn: Program, data: Any, block_params: List[Any], depths: Optional[List[Any]]) -> Program:
    """``container.program(…)``: a program bound to the data, block parameters and depths of the
    program that made it; called with a context and, from a helper, its own data and block
    parameters (undefined when the helper passes none)."""

    def program(context: Any, own_data: Any = None, own_block_params: Any = U) -> Any:
        inner = depths if depths is None else PUSH(context, depths)
        return fn(context, data if own_data is None else own_data, [own_block_params] + block_params, inner)

    return program


def _run(program: Optional[Program], context: Any, *options: Any) -> Any:
    """A helper's ``options.fn``/``options.inverse``: ``container.noop`` (``""``) when the block has none."""
    return "" if program is None else program(context, *options)


def IF(this: Any, conditional: Any, fn: Optional[Program], inverse: Optional[Program], hash: Dict[str, Any]) -> Any:
    """helpers/if.js."""
    if (_js_falsy(hash.get("includeZero", U)) and _js_falsy(conditional)) or not PRESENT(conditional):
        return _run(inverse, this)
    return _run(fn, this)


def UNLESS(this: Any, conditional: Any, fn: Optional[Program], inverse: Optional[Program], hash: Dict[str, Any]) -> Any:
    """helpers/if.js: ``if`` with the programs swapped (and the same hash)."""
    return IF(this, conditional, inverse, fn, hash)


def WITH(this: Any, context: Any, fn: Optional[Program], inverse: Optional[Program], data: Any) -> Any:
    """helpers/with.js: the block on the value, its one block parameter the value."""
    if PRESENT(context):
        return _run(fn, context, data, [context])
    return _run(inverse, this)


def EACH(this: Any, context: Any, fn: Optional[Program], inverse: Optional[Program], data: Any) -> Any:
    """helpers/each.js over JSON values: a list by index, a dict by ``Object.keys`` order, one frame
    for the whole loop (a copy of the data, ``_parent`` the data) updated per item."""
    frame = dict(data)
    frame["_parent"] = data
    result = ""
    count = 0
    if isinstance(context, (list, tuple)):
        fields: Sequence[Any] = range(len(context))
        values: Sequence[Any] = context
    elif isinstance(context, Mapping):
        fields = js_keys(context)
        values = [context[key] for key in fields]
    else:
        fields = values = ()
    last = len(fields) - 1
    for index, field in enumerate(fields):
        value = values[index]
        frame["key"] = field
        frame["index"] = index
        frame["first"] = index == 0
        frame["last"] = index == last
        result = ADD(result, _run(fn, value, frame, [value, field]))
        count += 1
    if count == 0:
        return _run(inverse, this)
    return result


def BHM(this: Any, context: Any, fn: Optional[Program], inverse: Optional[Program], data: Any, block_params: List[Any]) -> Any:
    """helpers/block-helper-missing.js: a section (``{{#name}}…{{/name}}``) over its value. ``this``
    is the raw context (no null context here); over an object the block gets the helper's options,
    so its block parameters are the calling program's whole list."""
    if context is True:
        return _run(fn, this)
    if context is False or context is None or context is U:
        return _run(inverse, this)
    if isinstance(context, (list, tuple)):
        return EACH(this, context, fn, inverse, data) if len(context) > 0 else _run(inverse, this)
    return _run(fn, context, data, block_params)


def _property_key(value: Any) -> str:
    """ECMAScript ToPropertyKey of a JSON value."""
    if type(value) is str:
        return value
    if value is None:
        return "null"
    if value is U:
        return "undefined"
    return S(value)


def LOOKUP(obj: Any = U, field: Any = U, *_: Any) -> Any:
    """helpers/lookup.js: a falsy object is the result; otherwise its own property ``field``."""
    if _js_falsy(obj):
        return obj
    return G(obj, _property_key(field))


# logger.js: the level names, by index; Handlebars logs at info and above.
_METHODS = ("debug", "info", "warn", "error")
_INTEGER = re.compile(r"[+-]?\d+")


def _level_number(level: Any) -> Any:
    """``logger.lookupLevel``: a method name's index, else a string's ``parseInt``; other values as they are."""
    if type(level) is str:
        lowered = level.lower()
        if lowered in _METHODS:
            return _METHODS.index(lowered)
        found = _INTEGER.match(level.lstrip())
        return int(found.group()) if found else float("nan")
    return level


def _log_text(value: Any) -> str:
    if type(value) is str:
        return value
    if value is U:
        return "undefined"
    if value is None:
        return "null"
    return S(value) if not isinstance(value, (list, tuple, Mapping)) else repr(value)


def LOG(hash: Dict[str, Any], data: Any, arguments: Sequence[Any]) -> Any:
    """helpers/log.js: logged, never printed — through the ``logging`` module (logger
    ``prompt_build.template``) at the level Handlebars' console method has; nothing below ``info``
    where Handlebars prints nothing but ``debug``. The value is undefined."""
    level = hash.get("level", U)
    if level is None or level is U:
        level = data.get("level", U) if isinstance(data, dict) else U
        if level is None or level is U:
            level = 1
    number = _level_number(level)
    threshold = _to_number(number)
    method = {"0": "debug", "1": "info", "2": "warn", "3": "error"}.get(_property_key(number), "log")
    if method != "debug" and not threshold >= 1:
        return U
    import logging

    severity = {"debug": logging.DEBUG, "warn": logging.WARNING, "error": logging.ERROR}.get(method, logging.INFO)
    logging.getLogger("prompt_build.template").log(severity, "%s", " ".join(_log_text(value) for value in arguments))
    return U
