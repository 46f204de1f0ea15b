"""The wheel of the Python package `bough`: python/bough/*.py, the extension bough._core and the
`bough` command (as bough/bin/bough, run by the script `bough`), the last two taken from a CMake
build tree as it made them: the C++ is compiled by CMake alone, never by setuptools.

The tree is $BOUGH_BUILD_DIR, else build/ beside this file (scripts/build's). CMake configures
it when it has not been (release, no tests) and brings the two targets up to date, which
compiles nothing in a tree already built. setuptools' own files go to its wheel/ folder, so
the source tree is left as it was.

    pip wheel --no-build-isolation --no-deps -w dist .
    python3 -m build --wheel --no-isolation

The wheel links the system's shared libraries (protobuf, gRPC, re2...) as the build did: it
installs where they are, as on the machine that built it. There is no source distribution
(the C++ would be compiled again from it): `python3 -m build` needs --wheel.
"""
import os
import re
import subprocess
import sysconfig

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.abspath(os.environ.get("BOUGH_BUILD_DIR", os.path.join(ROOT, "build")))
SETUPTOOLS_DIR = os.path.join(BUILD, "wheel")


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(bough VERSION ([0-9.]+)", f.read()).group(1)


def built_files():
    """The extension for this Python and the CLI, from the build tree brought up to date."""
    if not os.path.isfile(os.path.join(BUILD, "CMakeCache.txt")):
        subprocess.run(["cmake", "-S", ROOT, "-B", BUILD, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=Release", "-DBOUGH_TESTS=OFF", "-DBOUGH_PYTHON=ON"],
                       check=True)
    subprocess.run(["cmake", "--build", BUILD, "--target", "bough_python", "bough"], check=True)
    extension = os.path.join(BUILD, "python", "bough", "_core" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not os.path.isfile(extension):
        raise SystemExit(f"setup.py: {BUILD} holds no {os.path.basename(extension)}: its "
                         "extension is for another Python (CMake's Python_EXECUTABLE)")
    return extension, os.path.join(BUILD, "bough")


class BuildPy(build_py):
    """The .py files, then the extension and the CLI from the build tree."""

    def run(self):
        super().run()
        extension, cli = built_files()
        package = os.path.join(self.build_lib, "bough")
        self.copy_file(extension, os.path.join(package, os.path.basename(extension)))
        self.mkpath(os.path.join(package, "bin"))
        self.copy_file(cli, os.path.join(package, "bin", "bough"))


class NoSdist(sdist):
    def run(self):
        raise SystemExit("bough has no source distribution (the C++ would be compiled again "
                         "from it): build the wheel with `python3 -m build --wheel --no-isolation` "
                         "or `pip wheel --no-build-isolation --no-deps -w dist .`")


class BinaryDistribution(Distribution):
    """A wheel for this platform and Python: it holds an extension."""

    def has_ext_modules(self):
        return True


os.makedirs(SETUPTOOLS_DIR, exist_ok=True)
setup(
    version=version(),
    packages=["bough"],
    package_dir={"bough": "python/bough"},
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildPy, "sdist": NoSdist},
    options={"build": {"build_base": SETUPTOOLS_DIR}, "egg_info": {"egg_base": SETUPTOOLS_DIR}},
    zip_safe=False,
)
