#include "tools/cli_util.h"

#include <atomic>
#include <fstream>
#include <sstream>

#include "formats/npy/npy.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {

std::string identity_model(const std::string& dir, const std::string& name, ElemType t,
                           bool ranked) {
  GraphBuilder g;
  g.input("x", t, {}, ranked);
  g.output("y", t, {}, ranked);
  g.node("Identity", {"x"}, {"y"}, "id");
  return save_model(make_model(g), dir, name);
}

std::string add_model(const std::string& dir) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.input("z", ElemType::Float, {2});
  g.output("y", ElemType::Float, {2});
  g.node("Add", {"x", "z"}, {"y"}, "add");
  return save_model(make_model(g), dir, "add.onnx");
}

std::string save_npy_f32(const std::string& dir, const std::string& name, Dims dims,
                         const std::vector<float>& values) {
  std::string path = dir + "/" + name;
  npy::write_npy(Tensor::from_vector(ElemType::Float, std::move(dims), values), path);
  return path;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

int run_python(const std::string& script, std::string* out) {
  static std::atomic<int> count = 0;
  const std::string path = scratch_dir("python_" + std::to_string(count++)) + "/s.py";
  std::ofstream(path) << script;
  return run_command("/usr/bin/python3 " + shell_quoted(path), out);
}

std::string shell_quoted(const std::string& s) { return "'" + s + "'"; }

}  // namespace bough::test
