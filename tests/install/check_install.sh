#!/usr/bin/env bash
# Installs the build into a temporary prefix, then builds the consumer project against it
# twice, with find_package(bough) and with pkg-config, and runs both on the example model.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > /dev/null
model=$src/examples/if_loop.onnx
consumer=$src/tests/install/consumer

# Nothing of protobuf in the public headers.
if grep -rl "google/protobuf\|onnx.pb.h\|pugixml" "$tmp/prefix/include"; then
  echo "check_install: the installed headers include protobuf or pugixml" >&2
  exit 1
fi

echo "== find_package(bough)"
cmake -S "$consumer" -B "$tmp/with-cmake" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" > /dev/null
cmake --build "$tmp/with-cmake"
"$tmp/with-cmake/consumer" "$model"
# The installed library carries its soname and the consumer found it through the rpath.
libs=$(ldd "$tmp/with-cmake/consumer")  # not piped into grep -q: pipefail and SIGPIPE
if [[ $libs != *"libbough.so.0.1 => $tmp/prefix/"* ]]; then
  echo "check_install: the consumer does not load the installed libbough.so.0.1:" >&2
  echo "$libs" >&2
  exit 1
fi

echo "== pkg-config bough"
export PKG_CONFIG_PATH=$(dirname "$(find "$tmp/prefix" -name bough.pc)")
# shellcheck disable=SC2046  # the flags are words
g++ "$consumer/main.cc" -o "$tmp/pkg-consumer" $(pkg-config --cflags --libs bough)
LD_LIBRARY_PATH=$(pkg-config --variable=libdir bough) "$tmp/pkg-consumer" "$model"

# The installed Python package (when it was built), imported from the prefix alone.
package=$(find "$tmp/prefix" -path '*dist-packages/bough/__init__.py' | head -n 1)
if [ -n "$package" ]; then
  site=$(dirname "$(dirname "$package")")
  echo "== python3 -c 'import bough' from ${site#"$tmp/prefix/"}"
  PYTHONPATH=$site /usr/bin/python3 -c "
import numpy as np, bough
s = bough.InferenceSession('$model')
y = s.run(['x_final'], {'x': np.array([1, 2, 3], np.float32), 'n': np.array(4)})[0]
assert y.tolist() == [1, 1.25, 1.5], y
print('x_final =', y)"
fi
echo "check_install: the consumers built and ran"
