#include "inputs.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "bough/error.h"
#include "formats/npy/npy.h"
#include "formats/onnx/tensor_proto.h"
#include "ir/float_formats.h"
#include "options.h"
#include "suggest.h"
#include "util/files.h"

namespace bough::cli {

namespace {
namespace inputs_op {

// NAME=VALUE split at the first '='.
std::pair<std::string, std::string> split_assignment(const std::string& text) {
  size_t eq = text.find('=');
  return {text.substr(0, eq), text.substr(eq + 1)};
}

CLI::Validator assignment(const std::string& what) {
  return CLI::Validator(
      [what](std::string& text) -> std::string {
        size_t eq = text.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
          return "must be NAME=" + what + ", got '" + text + "'";
        return "";
      },
      "NAME=" + what);
}

onnx::ProtoKind proto_kind(const ValueInfo& info) {
  if (info.type.rfind("seq(", 0) == 0) return onnx::ProtoKind::Sequence;
  if (info.type.rfind("optional(", 0) == 0) return onnx::ProtoKind::Optional;
  return onnx::ProtoKind::Tensor;
}

Value read_input_file(const std::string& path, const ValueInfo& info) {
  if (info.type.rfind("map(", 0) == 0)
    fail(ErrorKind::Unsupported, path, "input '" + info.name + "' is a map; bough has no maps");
  // Content decides: a .npy file starts with its magic, whatever its name.
  if (read_file(path).rfind("\x93NUMPY", 0) == 0) return npy::read_npy(path);
  return onnx::read_value_file(path, proto_kind(info));
}

// A tensor of the declared type and shape with values from a fixed seed: floats (float16,
// bfloat16 and float8 included) in [-1, 1), integers in [0, 10), random booleans, strings of
// one digit.
// With `set_to_one`, a free dimension that `dims` does not size is 1, and named there.
Tensor random_tensor(const ValueInfo& info, const std::map<std::string, int64_t>& dims,
                     std::mt19937_64* rng, std::vector<std::string>* set_to_one) {
  if (proto_kind(info) != onnx::ProtoKind::Tensor || info.type.rfind("tensor(", 0) != 0)
    throw UsageError("input '" + info.name + "' is " + info.type +
                     ": @random makes tensors only; give it with --input " + info.name + "=FILE");
  if (!info.rank_known)
    throw UsageError("input '" + info.name + "' (" + info.type +
                     ") has no declared shape; give it with --input " + info.name + "=FILE");
  Dims shape;
  for (const Dim& d : info.shape) {
    if (d.known()) {
      shape.push_back(d.size);
    } else if (auto it = dims.find(d.symbol); !d.symbol.empty() && it != dims.end()) {
      shape.push_back(it->second);
    } else if (set_to_one) {
      shape.push_back(1);
      const std::string name =
          !d.symbol.empty() ? d.symbol : info.name + "[" + std::to_string(shape.size() - 1) + "]";
      if (std::find(set_to_one->begin(), set_to_one->end(), name) == set_to_one->end())
        set_to_one->push_back(name);
    } else {
      throw UsageError("input '" + info.name + "' (" + info.type + ") has the dimension " +
                       (d.symbol.empty()
                            ? "'?' with no name; give the input with --input"
                            : "'" + d.symbol + "'; give its size with --dim " + d.symbol + "=N"));
    }
  }
  Tensor t(info.elem, shape);
  std::uniform_real_distribution<double> real(-1, 1);
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0; i < t.numel(); ++i) {
    switch (info.elem) {
      case ElemType::Float:
        t.data<float>()[i] = static_cast<float>(real(*rng));
        break;
      case ElemType::Double:
        t.data<double>()[i] = real(*rng);
        break;
      case ElemType::Float16:
        t.data<uint16_t>()[i] = float_to_half(static_cast<float>(real(*rng)));
        break;
      case ElemType::BFloat16:
        t.data<uint16_t>()[i] = float_to_bfloat16(static_cast<float>(real(*rng)));
        break;
      case ElemType::Float8E4M3FN:
      case ElemType::Float8E4M3FNUZ:
      case ElemType::Float8E5M2:
      case ElemType::Float8E5M2FNUZ:
        t.data<uint8_t>()[i] = float_to_float8(info.elem, static_cast<float>(real(*rng)));
        break;
      case ElemType::Bool:
        t.data<bool>()[i] = small(*rng) < 5;
        break;
      case ElemType::Int8:
        t.data<int8_t>()[i] = static_cast<int8_t>(small(*rng));
        break;
      case ElemType::UInt8:
        t.data<uint8_t>()[i] = static_cast<uint8_t>(small(*rng));
        break;
      case ElemType::Int16:
        t.data<int16_t>()[i] = static_cast<int16_t>(small(*rng));
        break;
      case ElemType::UInt16:
        t.data<uint16_t>()[i] = static_cast<uint16_t>(small(*rng));
        break;
      case ElemType::Int32:
        t.data<int32_t>()[i] = small(*rng);
        break;
      case ElemType::UInt32:
        t.data<uint32_t>()[i] = static_cast<uint32_t>(small(*rng));
        break;
      case ElemType::Int64:
        t.data<int64_t>()[i] = small(*rng);
        break;
      case ElemType::UInt64:
        t.data<uint64_t>()[i] = static_cast<uint64_t>(small(*rng));
        break;
      case ElemType::String:
        t.strings()[i] = std::to_string(small(*rng));
        break;
      default:
        throw UsageError("input '" + info.name + "' is " + info.type +
                         ": @random cannot make that element type; give it with --input " +
                         info.name + "=FILE");
    }
  }
  return t;
}

// DIR/input_N.pb in the order of N.
std::vector<std::string> numbered_inputs(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) fail(ErrorKind::IO, dir, "no such folder");
  std::vector<std::pair<long, std::string>> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("input_", 0) == 0)
      files.emplace_back(std::strtol(name.c_str() + 6, nullptr, 10), e.path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> paths;
  for (auto& f : files) paths.push_back(std::move(f.second));
  return paths;
}

}  // namespace inputs_op
}  // namespace

void add_run_options(CLI::App* app, RunOptions* opt) {
  using namespace inputs_op;
  app->add_option("MODEL", opt->model, "the model")->required();
  app->add_option("-i,--input", opt->inputs,
                  "an input: NAME=FILE (.npy, or a TensorProto, SequenceProto or OptionalProto "
                  ".pb) or NAME=@random (generated from the declared type); repeat per input")
      ->check(assignment("FILE"));
  app->add_option("--dim", opt->dims,
                  "the size of a symbolic dimension for generated inputs: NAME=VALUE")
      ->check(assignment("VALUE"));
  app->add_option("-x,--threads", opt->threads,
                  "threads for kernels that split their work, this one included; 0: one per "
                  "physical core, as ONNX Runtime's default; 1: this thread alone")
      ->check(at_least(0))
      ->capture_default_str();
  app->add_option("-y,--inter-op-threads", opt->inter_op_threads,
                  "accepted as onnxruntime_perf_test's -y: bough runs one node at a time, "
                  "each splitting its work over the --threads threads, so a count above 1 "
                  "changes nothing and says so")
      ->check(at_least(0))
      ->capture_default_str();
  add_optimization_option(app, &opt->optimization);
  add_newer_opset_flag(app, &opt->allow_newer_opset);
}

NamedValues load_inputs(const RunOptions& opt, const Session& session, bool random_rest,
                        std::vector<std::string>* set_to_one) {
  using namespace inputs_op;
  std::vector<std::string> symbols;  // the inputs' named dimensions, in order
  for (const ValueInfo& info : session.inputs())
    for (const Dim& d : info.shape)
      if (!d.symbol.empty() && std::find(symbols.begin(), symbols.end(), d.symbol) == symbols.end())
        symbols.push_back(d.symbol);
  std::map<std::string, int64_t> dims;
  for (const std::string& d : opt.dims) {
    auto [name, value] = split_assignment(d);
    char* end = nullptr;
    long long size = std::strtoll(value.c_str(), &end, 10);
    if (*end || size < 0)
      throw UsageError("--dim: " + name + " must be a size, got '" + value + "'");
    if (std::find(symbols.begin(), symbols.end(), name) == symbols.end())
      throw UsageError(
          "--dim: the model's inputs have no dimension named '" + name + "' (" +
          (symbols.empty() ? std::string("they have none") : "theirs: " + joined(symbols)) + ")" +
          did_you_mean(name, symbols));
    if (!dims.emplace(name, size).second) throw UsageError("--dim: " + name + " given twice");
  }
  std::vector<std::string>* ones = opt.free_dims_are_one ? set_to_one : nullptr;
  std::map<std::string, const ValueInfo*> declared;
  for (const ValueInfo& info : session.inputs()) declared[info.name] = &info;
  std::set<std::string> with_default;
  for (const ValueInfo& info : session.inputs())
    if (info.has_default) with_default.insert(info.name);

  std::mt19937_64 rng(0);
  NamedValues feed;
  std::set<std::string> given;
  for (const std::string& assignment : opt.inputs) {
    auto [name, source] = split_assignment(assignment);
    auto it = declared.find(name);
    if (it == declared.end()) {
      std::vector<std::string> names;
      for (const ValueInfo& info : session.inputs()) names.push_back(info.name);
      throw UsageError("--input: the model has no input '" + name +
                       "' (its inputs: " + joined(names) + ")" + did_you_mean(name, names));
    }
    if (!given.insert(name).second) throw UsageError("--input: '" + name + "' given twice");
    feed.emplace_back(name, source == "@random"
                                ? Value(random_tensor(*it->second, dims, &rng, ones))
                                : read_input_file(source, *it->second));
  }
  if (!opt.data_set.empty()) {
    std::vector<const ValueInfo*> needed;
    for (const ValueInfo& info : session.inputs())
      if (!info.has_default) needed.push_back(&info);
    const std::vector<std::string> files = numbered_inputs(opt.data_set);
    if (files.size() != needed.size())
      fail(ErrorKind::BadInput, opt.data_set,
           std::to_string(files.size()) + " input files (input_N.pb) for the model's " +
               std::to_string(needed.size()) + " inputs without a default");
    for (size_t i = 0; i < files.size(); ++i)
      if (given.insert(needed[i]->name).second)
        feed.emplace_back(needed[i]->name, read_input_file(files[i], *needed[i]));
  }
  std::string missing;
  for (const ValueInfo& info : session.inputs()) {
    if (given.count(info.name) || with_default.count(info.name)) continue;
    if (random_rest)
      feed.emplace_back(info.name, random_tensor(info, dims, &rng, ones));
    else
      missing += "\n  " + info.name + ": " + info.type;
  }
  if (!missing.empty())
    fail(ErrorKind::BadInput, opt.model,
         "missing inputs (give each with --input NAME=FILE or NAME=@random):" + missing);
  return feed;
}

SessionAndFeed open_session(const RunOptions& opt, bool random_rest,
                            const std::function<void(const Session&)>& before_inputs) {
  if (opt.inter_op_threads > 1)
    std::fprintf(stderr,
                 "bough: note: --inter-op-threads %d is not used: bough runs one node at a "
                 "time, each splitting its work over the --threads threads (-x)\n",
                 opt.inter_op_threads);
  Model model = Model::load(opt.model);
  const SessionOptions options{opt.threads, opt.allow_newer_opset, opt.optimization};
  // The further sessions share the Model's weights; each prepares its own.
  std::vector<std::unique_ptr<Session>> more;
  for (int i = 1; i < opt.sessions; ++i) more.push_back(std::make_unique<Session>(model, options));
  const auto start = std::chrono::steady_clock::now();
  // The session takes the Model: it then frees each weight it prepared while it plans.
  auto session = std::make_unique<Session>(std::move(model), options);
  const double created =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // What the check found that does not stop a run (`bough check` calls these errors).
  for (const std::string& w : session->warnings())
    std::fprintf(stderr, "%s: warning: %s\n", opt.model.c_str(), w.c_str());
  if (before_inputs) before_inputs(*session);
  std::vector<std::string> set_to_one;
  NamedValues feed = load_inputs(opt, *session, random_rest, &set_to_one);
  return {std::move(session), std::move(more), std::move(feed), created, std::move(set_to_one)};
}

}  // namespace bough::cli
