// Small models and helpers for the CLI tests.
#pragma once

#include <string>
#include <vector>

#include "bough/tensor.h"

namespace bough::test {

// x -> Identity -> y, both of element type `t` and shape `dims` (unranked when empty and
// `ranked` is false); saved as DIR/NAME, returning the path.
std::string identity_model(const std::string& dir, const std::string& name, ElemType t,
                           bool ranked = false);
// x, z: float[2] -> Add -> y: float[2].
std::string add_model(const std::string& dir);
// A float .npy file DIR/NAME; returns its path.
std::string save_npy_f32(const std::string& dir, const std::string& name, Dims dims,
                         const std::vector<float>& values);
// The whole file as text ("" when it cannot be read).
std::string read_text(const std::string& path);
// How many times `what` occurs in `text` (overlapping occurrences too).
size_t count_of(const std::string& text, const std::string& what);
// Runs a Python script with Debian's python3 (numpy, onnx) from a file, so that it may hold
// any quote; returns its exit status and fills `out` as run_command does.
int run_python(const std::string& script, std::string* out);
// `s` single-quoted for the shell.
std::string shell_quoted(const std::string& s);

}  // namespace bough::test
