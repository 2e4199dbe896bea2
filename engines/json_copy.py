"""A deep copy for JSON-shaped data, several times cheaper than ``copy.deepcopy``.

States hand out views and ``to_dict`` results that callers may change, so the nested
parts a state keeps (its last events, round results, options) are copied on the way out
and on the way in. ``copy.deepcopy`` did that for the whole result: it dispatches on every
value and records every object in a memo, strings included, and under load the copies in
``view`` and ``to_dict`` were a tenth of the bot's CPU (``docs/performance.md``).

Engine data is trees of dicts, lists and tuples over immutable leaves (str, including
``engines.base.Message``, int, float, bool, None), with no object reached twice, so a
plain recursion gives an equal, fully independent copy. Any other type is handed to
``copy.deepcopy``, so the result is never shallower than before.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

T = TypeVar("T")

_ATOMS = (str, int, float, bool, type(None))


def copy_json(value: T) -> T:
    """An independent copy of ``value``: new dicts, lists and tuples all the way down."""
    return _copy(value)  # type: ignore[no-any-return]


def _copy(value: Any) -> Any:
    kind = type(value)
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if kind is list:
        return [_copy(item) for item in value]
    if kind is tuple:
        return tuple(_copy(item) for item in value)
    if isinstance(value, _ATOMS):  # a Message is a str; strings never change
        return value
    return copy.deepcopy(value)
