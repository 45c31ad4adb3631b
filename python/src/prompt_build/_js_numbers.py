"""JavaScript's number conversions, for the generated render functions (see _js.py):
printing a double as ``Number::toString`` does, and ``StringToNumber``."""
import math
from typing import Any

def number_text(value: float) -> str:
    """ECMAScript Number::toString: shortest round-trip digits, exponent past 1e21 and below 1e-6."""
    if value != value:
        return "NaN"
    if value == 0:
        return "0"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    stripped = digits.lstrip("0")
    point -= len(digits) - len(stripped)
    digits = stripped.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return sign + head + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def double(value: Any) -> float:
    """A Python number as the JavaScript double it stands for (JSON integers too)."""
    if type(value) is float:
        return value
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


_JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


def string_number(text: str) -> float:
    """ECMAScript StringToNumber."""
    text = text.strip(_JS_SPACE)
    if text == "":
        return 0.0
    lowered = text.lower()
    for prefix, base in (("0x", 16), ("0o", 8), ("0b", 2)):
        if lowered.startswith(prefix):
            try:
                return float(int(text[2:], base)) if text[2:].isalnum() and "_" not in text else math.nan
            except ValueError:
                return math.nan
    if text in ("Infinity", "+Infinity"):
        return math.inf
    if text == "-Infinity":
        return -math.inf
    if not all(c in "0123456789+-.eE" for c in text):
        return math.nan
    try:
        return float(text)
    except ValueError:
        return math.nan
