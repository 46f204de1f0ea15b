#!/usr/bin/env python3
"""Lists the dynamic symbols libbough.so defines and fails on any outside the public API.

The public API is what include/bough/*.h marks BOUGH_API (classes and functions of namespace
bough). A symbol passes when, demangled and stripped of its "typeinfo for"-style prefix, it
is `bough::NAME` or `bough::NAME::...` for such a NAME; everything else (bough::ops,
bough::kernels, the protobuf classes, std:: instantiations) fails. It also fails when a
cornerstone of the API (Session::run, Model::load) is missing, so an export macro that
expands to nothing cannot pass. Usage: exported_symbols.py LIBBOUGH_SO SOURCE_DIR
"""
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from public_api import demangle, public_name_of, public_names  # noqa: E402

# Defined by the linker in every shared object.
LINKER = {"_init", "_fini", "_edata", "_end", "__bss_start"}
REQUIRED = ("bough::Session::run(", "bough::Model::load(")


def exported(library: str) -> list:
    nm = subprocess.run(["nm", "-D", "--defined-only", "--format=posix", library],
                        capture_output=True, text=True, check=True).stdout
    mangled = [line.split()[0] for line in nm.splitlines() if line.strip()]
    return [d for m, d in zip(mangled, demangle(mangled)) if m not in LINKER]


def main() -> int:
    library, source = sys.argv[1], Path(sys.argv[2])
    names = set().union(*public_names(source).values())
    symbols = exported(library)
    bad = sorted(s for s in symbols if public_name_of(s) not in names)
    missing = [r for r in REQUIRED if not any(s.startswith(r) for s in symbols)]
    for s in bad:
        print(f"internal symbol exported: {s}")
    for r in missing:
        print(f"public symbol not exported: {r}...")
    print(f"exported_symbols: {len(symbols)} defined dynamic symbols, {len(bad)} outside the "
          f"public API ({len(names)} names marked BOUGH_API)")
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
