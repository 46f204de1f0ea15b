#include "inputs.h"

#include <cstdio>
#include <cstdlib>

#include "formats/npy/npy.h"
#include "formats/onnx/tensor_proto.h"

namespace bough::cli {

namespace {

bool parse_int(const std::string& s, int* out) {
  char* end = nullptr;
  long v = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end || v < 0 || v > 1000000000) return false;
  *out = static_cast<int>(v);
  return true;
}

}  // namespace

bool parse_run_options(const Args& args, const char* command, RunOptions* opt, bool* is_bench) {
  const bool bench = is_bench != nullptr;
  auto usage = [&] {
    std::fprintf(stderr,
                 "usage: bough %s MODEL [--input NAME=FILE.npy|FILE.pb]... %s[--threads N] "
                 "[--allow-newer-opset] [--optimize none|basic|all]\n",
                 command, bench ? "[--iters N] [--warmup W] " : "[--output-dir DIR] ");
    return false;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    std::string v;
    if (a == "--input") {
      if (!value(&v)) return usage();
      size_t eq = v.find('=');
      if (eq == std::string::npos || eq == 0) return usage();
      opt->inputs.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    } else if (a == "--threads") {
      if (!value(&v) || !parse_int(v, &opt->threads) || opt->threads < 1) return usage();
    } else if (a == "--optimize") {
      if (!value(&v) || !parse_optimization(v, &opt->optimization)) return usage();
    } else if (a == "--allow-newer-opset") {
      opt->allow_newer_opset = true;
    } else if (!bench && a == "--output-dir") {
      if (!value(&opt->output_dir)) return usage();
    } else if (bench && a == "--iters") {
      if (!value(&v) || !parse_int(v, &opt->iters) || opt->iters < 1) return usage();
    } else if (bench && a == "--warmup") {
      if (!value(&v) || !parse_int(v, &opt->warmup)) return usage();
    } else if (a.rfind("--", 0) == 0 || !opt->model.empty()) {
      std::fprintf(stderr, "bough %s: unexpected argument '%s'\n", command, a.c_str());
      return usage();
    } else {
      opt->model = a;
    }
  }
  if (opt->model.empty()) return usage();
  return true;
}

bool parse_optimization(const std::string& level, Optimization* out) {
  if (level == "none")
    *out = Optimization::none;
  else if (level == "basic")
    *out = Optimization::basic;
  else if (level == "all")
    *out = Optimization::all;
  else
    return false;
  return true;
}

NamedValues load_inputs(const RunOptions& opt) {
  NamedValues feed;
  for (const auto& [name, file] : opt.inputs) {
    bool npy = file.size() > 4 && file.compare(file.size() - 4, 4, ".npy") == 0;
    feed.emplace_back(name, npy ? Value(npy::read_npy(file))
                                : onnx::read_value_file(file, onnx::ProtoKind::Tensor));
  }
  return feed;
}

std::string safe_file_name(const std::string& name) {
  std::string out;
  for (char c : name)
    out +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  if (out.empty() || out[0] == '.') out = "_" + out;
  return out;
}

}  // namespace bough::cli
