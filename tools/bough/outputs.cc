#include "outputs.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "bough/error.h"
#include "formats/npy/npy.h"
#include "formats/onnx/tensor_proto.h"
#include "options.h"
#include "util/files.h"
#include "util/json.h"
#include "util/printable.h"

namespace bough::cli {

namespace fs = std::filesystem;

namespace {
namespace outputs_op {

bool numeric(ElemType t) {
  return t != ElemType::String && t != ElemType::Complex64 && t != ElemType::Complex128;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

// Element i as text: quoted strings, true/false, unsigned 64-bit in full.
std::string element(const Tensor& t, int64_t i, bool json) {
  switch (t.type()) {
    case ElemType::String:
      return json ? util::json_string(t.strings()[i])
                  : "\"" + util::printable_name(t.strings()[i]) + "\"";
    case ElemType::Bool:
      return t.data<bool>()[i] ? "true" : "false";
    case ElemType::UInt64:
      return std::to_string(t.data<uint64_t>()[i]);  // above 2^63 get_int would be negative
    case ElemType::Complex64: {
      const float* c = t.data<float>() + 2 * i;
      return json ? "[" + number(c[0]) + ", " + number(c[1]) + "]"
                  : "(" + number(c[0]) + (c[1] < 0 ? "" : "+") + number(c[1]) + "j)";
    }
    case ElemType::Complex128: {
      const double* c = t.data<double>() + 2 * i;
      return json ? "[" + number(c[0]) + ", " + number(c[1]) + "]"
                  : "(" + number(c[0]) + (c[1] < 0 ? "" : "+") + number(c[1]) + "j)";
    }
    default:
      break;
  }
  if (!is_float_type(t.type())) return std::to_string(t.get_int(i));
  double v = t.get_double(i);
  if (json && !std::isfinite(v))  // JSON has no NaN or infinity: strings, as Python's json
    return std::isnan(v) ? "\"NaN\"" : v > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  return number(v);
}

std::string elements(const Tensor& t, int64_t limit, bool json) {
  const int64_t n = std::min(t.numel(), limit);
  std::string s = "[";
  for (int64_t i = 0; i < n; ++i) s += (i ? ", " : "") + element(t, i, json);
  // JSON has no `...`: there "truncated" says that values were left out.
  if (t.numel() > n && !json) s += ", ...";
  return s + "]";
}

struct Summary {
  double min = 0, max = 0, mean = 0;
  int64_t nan = 0, inf = 0, finite = 0;
};

// min / max / mean over the finite values; NaN and infinities counted apart.
Summary summarize(const Tensor& t) {
  Summary s;
  double sum = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = t.get_double(i);
    if (std::isnan(v)) {
      ++s.nan;
    } else if (std::isinf(v)) {
      ++s.inf;
    } else {
      s.min = s.finite ? std::min(s.min, v) : v;
      s.max = s.finite ? std::max(s.max, v) : v;
      sum += v;
      ++s.finite;
    }
  }
  if (s.finite) s.mean = sum / static_cast<double>(s.finite);
  return s;
}

void print_text(const std::string& name, const Value& v, const std::string& mode) {
  std::printf("%s: %s", util::printable_name(name).c_str(), describe(v).c_str());
  if (v.is_tensor()) {
    const Tensor& t = v.tensor();
    if (mode == "preview") std::printf(" %s", preview_values(t, 8).c_str());
    if (mode == "full") std::printf(" %s", preview_values(t, t.numel()).c_str());
    if (mode == "summary" && numeric(t.type())) std::printf("  %s", summary_text(t).c_str());
  }
  std::printf("\n");
  if (v.is_sequence())
    for (size_t i = 0; i < v.seq().items.size(); ++i)
      print_text("  [" + std::to_string(i) + "]", v.seq().items[i], mode);
}

std::string json_value(const Value& v, const std::string& mode) {
  std::string out = "{\"type\": " + util::json_string(describe(v));
  if (v.is_tensor()) {
    const Tensor& t = v.tensor();
    std::string shape;
    for (int64_t d : t.shape()) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    out += ", \"dtype\": " + util::json_string(std::string(elem_name(t.type()))) +
           ", \"shape\": [" + shape + "]";
    if (mode == "summary" && numeric(t.type())) {
      Summary s = summarize(t);
      out += ", \"finite\": " + std::to_string(s.finite) + ", \"nan\": " + std::to_string(s.nan) +
             ", \"inf\": " + std::to_string(s.inf);
      if (s.finite)
        out += ", \"min\": " + number(s.min) + ", \"max\": " + number(s.max) +
               ", \"mean\": " + number(s.mean);
    }
    if (mode == "preview" || mode == "full")
      out += ", \"values\": " + elements(t, mode == "full" ? t.numel() : 8, true) +
             ", \"truncated\": " + (mode == "preview" && t.numel() > 8 ? "true" : "false");
  } else if (v.is_sequence()) {
    std::string items;
    for (const Value& item : v.seq().items)
      items += (items.empty() ? "" : ", ") + json_value(item, mode);
    out += ", \"items\": [" + items + "]";
  }
  return out + "}";
}

// A name usable as a file name on any system: letters, digits, '_', '-', '.'.
std::string safe_file_name(const std::string& name) {
  std::string out;
  for (char c : name)
    out +=
        (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  if (out.empty() || out[0] == '.') out = "_" + out;
  return out;
}

}  // namespace outputs_op
}  // namespace

std::string summary_text(const Tensor& t) {
  using namespace outputs_op;
  if (!numeric(t.type())) return "";
  Summary s = summarize(t);
  std::string out =
      s.finite ? "min " + number(s.min) + "  max " + number(s.max) + "  mean " + number(s.mean)
               : "no finite values";
  if (s.nan) out += "  NaN " + std::to_string(s.nan);
  if (s.inf) out += "  inf " + std::to_string(s.inf);
  return out;
}

std::string preview_values(const Tensor& t, int64_t limit) {
  return outputs_op::elements(t, limit, false);
}

void add_output_options(CLI::App* app, OutputOptions* opt) {
  app->add_option("--output-dir", opt->dir,
                  "write each output to DIR/NAME.npy, or NAME.pb where numpy has no dtype for "
                  "it (and for sequences and optionals)");
  app->add_flag("--force", opt->force, "let --output-dir replace files already there");
  app->add_option("--print", opt->print,
                  "how to print the outputs: preview (the first values), full, summary "
                  "(shape, dtype, min/max/mean, NaN and inf counts) or none")
      ->check(one_of({"preview", "full", "summary", "none"}))
      ->capture_default_str();
  app->add_flag("--json", opt->json, "print the outputs as one JSON object on stdout");
}

void print_outputs(const NamedValues& outputs, const OutputOptions& opt) {
  using namespace outputs_op;
  if (opt.json) {
    std::string out = "{\"outputs\": [";
    for (size_t i = 0; i < outputs.size(); ++i) {
      std::string v = json_value(outputs[i].second, opt.print);
      out += std::string(i ? ",\n  " : "\n  ") +
             "{\"name\": " + util::json_string(outputs[i].first) + ", " + v.substr(1);
    }
    std::printf("%s\n]}\n", out.c_str());
    return;
  }
  if (opt.print == "none") return;
  for (const auto& [name, value] : outputs) print_text(name, value, opt.print);
}

OutputDir::OutputDir(const OutputOptions& opt, const Session& session)
    : dir_(opt.dir), force_(opt.force), session_(session) {
  using namespace outputs_op;
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec))
    fail(ErrorKind::IO, opt.dir, "--output-dir is not a folder");
  if (!fs::exists(dir_, ec)) {
    made_dir_ = fs::create_directories(dir_, ec);
    if (ec) fail(ErrorKind::IO, opt.dir, "cannot make the folder: " + ec.message());
  }
  // File names: safe, and distinct (a suffix when two names map to one file name).
  // Each safe name remembers the suffix to try next, so that many names mapping to one file
  // name take linear time, not a count from 2 for each.
  std::unordered_set<std::string> taken;
  std::unordered_map<std::string, int> next_suffix;
  for (const std::string& name : session.output_names()) {
    const std::string base = safe_file_name(name);
    std::string stem = base;
    if (taken.count(stem)) {
      int& n = next_suffix.try_emplace(base, 2).first->second;
      do stem = base + "_" + std::to_string(n++);
      while (taken.count(stem));
    }
    taken.insert(stem);
    stems_.push_back(stem);
    for (const char* ext : {".npy", ".pb"})
      if (!force_ && fs::exists(dir_ / (stem + ext), ec))
        fail(ErrorKind::IO, (dir_ / (stem + ext)).string(), "already exists (--force replaces it)");
  }
  staging_ = dir_ / (".bough-partial-" + std::to_string(::getpid()));
  fs::create_directory(staging_, ec);
  if (ec) fail(ErrorKind::IO, staging_.string(), "cannot write into --output-dir: " + ec.message());
}

OutputDir::~OutputDir() {
  std::error_code ec;
  fs::remove_all(staging_, ec);
  if (!done_ && made_dir_) fs::remove(dir_, ec);  // only when empty
}

void OutputDir::write(const NamedValues& outputs) {
  std::vector<std::string> files;
  bool renamed = false;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Value& v = outputs[i].second;
    const ValueInfo& declared = session_.outputs()[i];
    std::string bytes, ext = ".pb";
    if (declared.type.rfind("optional(", 0) == 0 || v.is_none()) {
      bytes = onnx::encode_value(v, onnx::ProtoKind::Optional);
    } else if (v.is_sequence()) {
      bytes = onnx::encode_value(v, onnx::ProtoKind::Sequence);
    } else if (v.is_tensor() && npy::has_dtype(v.tensor().type())) {
      bytes = npy::encode_npy(v.tensor());
      ext = ".npy";
    } else {
      bytes = onnx::encode_value(v, onnx::ProtoKind::Tensor);
    }
    files.push_back(stems_[i] + ext);
    renamed |= stems_[i] != outputs[i].first;
    write_file_atomic((staging_ / files.back()).string(), bytes);
  }
  if (renamed) {
    std::string map = "{";
    for (size_t i = 0; i < outputs.size(); ++i)
      map += std::string(i ? ",\n " : "\n ") + util::json_string(files[i]) + ": " +
             util::json_string(outputs[i].first);
    files.push_back("names.json");
    write_file_atomic((staging_ / files.back()).string(), map + "\n}\n");
  }
  for (const std::string& f : files) {
    std::error_code ec;
    if (!force_ && fs::exists(dir_ / f, ec))
      fail(ErrorKind::IO, (dir_ / f).string(), "already exists (--force replaces it)");
  }
  std::vector<std::string> added;  // files that were not there before
  for (const std::string& f : files) {
    std::error_code ec;
    const bool existed = fs::exists(dir_ / f, ec);
    fs::rename(staging_ / f, dir_ / f, ec);
    if (ec) {
      // Take back the new files moved already, so that no partial set of outputs is left
      // (a file replaced under --force stays replaced).
      for (const std::string& m : added) fs::remove(dir_ / m, ec);
      fail(ErrorKind::IO, (dir_ / f).string(), "cannot write: " + ec.message());
    }
    if (!existed) added.push_back(f);
  }
  done_ = true;
}

}  // namespace bough::cli
