#!/usr/bin/env python3
"""scripts/check-layers catches what it is for: upward references planted in a temporary
copy of the tree (its sources, and its build tree's objects as links) make it fail, naming
each, where the unchanged copy passes. Plants: a quoted include and an angle-bracket include
that point up, a test of a lower layer including a higher one, and an object of ops/ that
calls into exec/ through a declaration written by hand, which only the link-level check sees.
Usage: plants.py SOURCE_DIR BUILD_DIR CXX
"""
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE, BUILD, CXX = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
CHECK = SOURCE / "scripts" / "check-layers"
TARGETS = ("bough_objects", "bough_serve")


def copy_sources(root: Path) -> None:
    def skip(folder, names):
        return [n for n in names if not (Path(folder, n).is_dir() or
                                         Path(n).suffix in (".h", ".cc", ".inc"))]
    for part in ("src", "tools", "python", "include", "tests"):
        shutil.copytree(SOURCE / part, root / part, ignore=skip)


def link_objects(root: Path) -> Path:
    """The build tree's object files (and unity sources), linked into root/build."""
    for target in TARGETS:
        real = BUILD / "CMakeFiles" / f"{target}.dir"
        for path in real.rglob("*"):
            if path.suffix in (".o", ".cxx"):
                mirror = root / "build" / path.relative_to(BUILD)
                mirror.parent.mkdir(parents=True, exist_ok=True)
                os.symlink(path, mirror)
    os.symlink(BUILD / "build.ninja", root / "build" / "build.ninja")  # which objects are current
    return root / "build"


def check(root: Path, build: Path) -> tuple:
    run = subprocess.run([sys.executable, str(CHECK), str(root), "--objects", str(build)],
                         capture_output=True, text=True)
    return run.returncode, run.stdout


def expect(root: Path, build: Path, what: str, line: str) -> bool:
    code, out = check(root, build)
    if code == 1 and line in out.splitlines():
        print(f"caught: {what}")
        return True
    print(f"NOT caught: {what} (exit {code}); wanted the line\n  {line}\ngot:\n{out}")
    return False


def planted(path: Path, text: str):
    """Appends `text` to `path` (a new file if there is none); returns the undo."""
    before = path.read_text() if path.exists() else None
    path.write_text((before or "") + text)
    return lambda: path.write_text(before) if before is not None else path.unlink()


def main() -> int:
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        copy_sources(root)
        build = link_objects(root)
        code, out = check(root, build)
        if code != 0:
            print(f"the unchanged copy does not pass:\n{out}")
            return 1
        plants = [
            ("a quoted include upward", "src/ops/registry.cc", '#include "exec/plan.h"\n',
             "src/ops/registry.cc: ops includes exec/plan.h"),
            ("an angle-bracket include upward", "src/kernels/broadcast.cc",
             "#include <ir/graph.h>\n", "src/kernels/broadcast.cc: kernels includes ir/graph.h"),
            ("a test of ops including the server", "tests/ops/planted_test.cc",
             '#include "serve/http_api.h"\n',
             "tests/ops/planted_test.cc: ops includes serve/http_api.h"),
        ]
        for what, file, text, line in plants:
            undo = planted(root / file, text)
            ok = expect(root, build, what, line) and ok
            undo()
        # ops/ calling exec/ with no include at all: only the objects show it.
        source = root / "src" / "ops" / "planted.cc"
        source.write_text("namespace bough::exec { void register_operators(); }\n"
                          "namespace bough::ops { void planted() { exec::register_operators(); } }\n")
        obj = build / "CMakeFiles" / "bough_objects.dir" / "src" / "ops" / "planted.cc.o"
        subprocess.run([CXX, "-c", str(source), "-o", str(obj)], check=True)
        ok = expect(root, build, "an object of ops/ using a function of exec/",
                    "ops/planted.cc: ops uses bough::exec::register_operators(), "
                    "defined in exec/operators.cc") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
