"""The names include/bough/*.h exports: classes and functions marked BOUGH_API.

Shared by scripts/check-layers (public symbols may be used across layers) and
tests/install/exported_symbols.py (only these may leave libbough.so).
"""
import re
import subprocess
from pathlib import Path

MARKED = re.compile(r"\b(?:class|struct)\s+BOUGH_API\s+(\w+)|BOUGH_API\b[^;{(]*?\b(\w+)\s*\(")
# What the compiler puts before a class's name for its type information and tables.
PREFIXES = ("typeinfo name for ", "typeinfo for ", "vtable for ", "VTT for ",
            "guard variable for ", "non-virtual thunk to ", "virtual thunk to ")


def marked_names(header: Path) -> set:
    """The BOUGH_API names one header declares."""
    return {cls or func for cls, func in MARKED.findall(header.read_text())}


def public_names(root: Path) -> dict:
    """Header ("bough/tensor.h") -> its BOUGH_API names, for every public header."""
    return {f"bough/{h.name}": marked_names(h) for h in (root / "include" / "bough").glob("*.h")}


def public_name_of(symbol: str):
    """NAME for a demangled `bough::NAME...` symbol (prefixes such as "vtable for " dropped),
    else None."""
    for prefix in PREFIXES:
        if symbol.startswith(prefix):
            symbol = symbol[len(prefix):]
            break
    match = re.match(r"bough::(\w+)(?:$|::|\(|<|\[| )", symbol)
    return match.group(1) if match else None


def demangle(names: list) -> list:
    """The names demangled by c++filt, in order."""
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return out if names else []
