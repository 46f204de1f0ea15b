// bough run MODEL [--input NAME=FILE]... [--output-dir DIR] [--threads N]
#include <cstdio>
#include <filesystem>

#include "bough/error.h"
#include "bough/session.h"
#include "commands.h"
#include "formats/npy/npy.h"
#include "inputs.h"

namespace bough::cli {

namespace {

std::string preview(const Tensor& t) {
  std::string s = "[";
  const int64_t n = std::min<int64_t>(t.numel(), 8);
  for (int64_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    if (t.type() == ElemType::String) {
      s += "\"" + t.strings()[i] + "\"";
    } else if (t.type() == ElemType::Bool) {
      s += t.data<bool>()[i] ? "true" : "false";
    } else if (is_float_type(t.type())) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", t.get_double(i));
      s += buf;
    } else if (t.type() == ElemType::Complex64 || t.type() == ElemType::Complex128) {
      s += "?";
    } else if (t.type() == ElemType::UInt64) {
      s += std::to_string(t.data<uint64_t>()[i]);  // above 2^63 get_int would show it negative
    } else {
      s += std::to_string(t.get_int(i));
    }
  }
  if (t.numel() > n) s += ", ...";
  return s + "]";
}

void print_value(const std::string& name, const Value& v) {
  std::printf("%s: %s", name.c_str(), describe(v).c_str());
  if (v.is_tensor()) std::printf(" %s", preview(v.tensor()).c_str());
  std::printf("\n");
  if (v.is_sequence())
    for (size_t i = 0; i < v.seq().items.size(); ++i)
      print_value("  [" + std::to_string(i) + "]", v.seq().items[i]);
}

}  // namespace

int cmd_run(const Args& args) {
  RunOptions opt;
  if (!parse_run_options(args, "run", &opt, nullptr)) return kExitUsage;
  Model model = Model::load(opt.model);
  Session session(model, SessionOptions{opt.threads, opt.allow_newer_opset});
  NamedValues outputs = session.run(load_inputs(opt));
  for (const auto& [name, value] : outputs) print_value(name, value);
  if (!opt.output_dir.empty()) {
    std::filesystem::create_directories(opt.output_dir);
    for (const auto& [name, value] : outputs) {
      if (!value.is_tensor()) continue;
      npy::write_npy(
          value.tensor(),
          (std::filesystem::path(opt.output_dir) / (safe_file_name(name) + ".npy")).string());
    }
  }
  return kExitOk;
}

}  // namespace bough::cli
