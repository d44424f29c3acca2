"""What a definition does because of the protocol it implements, in words.

A method named `fmt` in `impl Display for Version`, `__toString`, `compareTo` or Go's
`String()` says nothing in its own words about what a developer asks ("how is a version
shown as text?", "how are two pre-releases compared to sort them?"): its meaning comes from
the standard interface it implements. This table gives those interfaces' meanings, for
the languages preuve reads by syntax tree and Python; a definition implementing one is
searched (keyword and meaning) with them (`role_words`).
"""

from __future__ import annotations

import re

_TEXT = "string conversion: the value as text, formatted for display"
_DEBUG = "debug representation: how the value shows when debugging"
_ORDER = "ordering: compares two values, less or greater, to sort them"
_EQUAL = "equality: whether two values are equal"
_HASH = "hashing: the value's hash code for hash maps and sets"
_ITERATE = "iteration: yields the items one after another"
_NEW = "constructor: creates and initialises a new instance"
_RELEASE = "clean-up: releases the resources when done (close, destructor)"
_PARSE = "parsing: builds the value from a string"
_CONVERT = "conversion: builds the value from another type"
_SERIALIZE = "serialization: encodes the value (JSON, serde)"
_DESERIALIZE = "deserialization: decodes the value (JSON, serde)"
_LENGTH = "length: the number of items"
_CALL = "called like a function"

# Rust: the trait of `impl Trait for Type` (its last path segment, generics dropped)
RUST_TRAITS = {
    "Display": _TEXT, "Debug": _DEBUG, "Ord": _ORDER, "PartialOrd": _ORDER,
    "Eq": _EQUAL, "PartialEq": _EQUAL, "Hash": _HASH, "Iterator": _ITERATE,
    "IntoIterator": _ITERATE, "DoubleEndedIterator": _ITERATE, "Drop": _RELEASE,
    "FromStr": _PARSE, "From": _CONVERT, "TryFrom": _CONVERT, "Into": _CONVERT,
    "Serialize": _SERIALIZE, "Deserialize": _DESERIALIZE, "Visitor": _DESERIALIZE,
    "Error": "error type: an error with its message and source",
    "Default": "default value: the value built with no arguments",
    "Clone": "copy: duplicates the value",
    "Deref": "dereference: access to the inner value", "DerefMut": "dereference: access "
    "to the inner value", "FromIterator": "collecting: builds the value from an iterator's "
    "items", "Extend": "collecting: adds an iterator's items to the value",
    "Add": "arithmetic: addition (+)", "Sub": "arithmetic: subtraction (-)",
    "Mul": "arithmetic: multiplication (*)", "Div": "arithmetic: division (/)",
    "Index": "indexing: item access by index ([])",
    "Future": "asynchronous computation: polled until ready (async, await)",
}

# methods whose name is the protocol, in any language (a name this specific means the
# same wherever it is defined)
METHODS = {
    # Python
    "__str__": _TEXT, "__repr__": _DEBUG, "__format__": _TEXT, "__lt__": _ORDER,
    "__le__": _ORDER, "__gt__": _ORDER, "__ge__": _ORDER, "__eq__": _EQUAL,
    "__hash__": _HASH, "__iter__": _ITERATE, "__next__": _ITERATE, "__len__": _LENGTH,
    "__init__": _NEW, "__new__": _NEW, "__enter__": "context manager: set-up on entering "
    "a with block", "__exit__": "context manager: clean-up on leaving a with block",
    "__del__": _RELEASE, "__call__": _CALL, "__getitem__": "item access by key or index",
    "__contains__": "membership test (in)",
    # PHP
    "__construct": _NEW, "__destruct": _RELEASE, "__toString": _TEXT, "__invoke": _CALL,
    "jsonSerialize": _SERIALIZE, "getIterator": _ITERATE,
    # Java, C#, JavaScript
    "toString": _TEXT, "ToString": _TEXT, "compareTo": _ORDER, "CompareTo": _ORDER,
    "equals": _EQUAL, "Equals": _EQUAL, "hashCode": _HASH, "GetHashCode": _HASH,
    "iterator": _ITERATE, "GetEnumerator": _ITERATE, "Dispose": _RELEASE,
    "toJSON": _SERIALIZE,
    # Go (fmt.Stringer, error, sort.Interface, encoding/json, io.Closer, http.Handler)
    "String": _TEXT, "GoString": _DEBUG, "Less": _ORDER,
    "MarshalJSON": _SERIALIZE, "UnmarshalJSON": _DESERIALIZE, "MarshalText": _SERIALIZE,
    "UnmarshalText": _DESERIALIZE, "ServeHTTP": "HTTP handler: serves an HTTP request",
    # Ruby
    "to_s": _TEXT, "inspect": _DEBUG, "<=>": _ORDER, "==": _EQUAL, "eql?": _EQUAL,
    "hash": _HASH, "each": _ITERATE, "initialize": _NEW,
}

_IMPL = re.compile(r"\bimpl\b(?:\s*<[^{]*?>)?\s+(?:[\w:]+::)?(\w+)(?:<.*?>)?\s+for\s")
_LAST = re.compile(r"(?:::|#|\.)")


def role_words(heading: str, symbol: str | None) -> str:
    """What the definition `symbol` under `heading` (its containers' opening lines) does
    as the implementation of a standard protocol, or "" ("ordering: compares two values,
    less or greater, to sort them" for `Prerelease::cmp` under `impl Ord for
    Prerelease`)."""
    if not symbol:
        return ""
    for opening in reversed((heading or "").split(" > ")):
        found = _IMPL.search(opening)
        if found and found.group(1) in RUST_TRAITS:
            return RUST_TRAITS[found.group(1)]
    name = _LAST.split(symbol.rstrip(")"))[-1].strip()
    if name != symbol.strip() or symbol.startswith("__"):  # a member, or a dunder
        return METHODS.get(name, "")
    return ""
