// bough convert IN OUT [--captures carried|implicit] [--opset N] — convert between ONNX
// (.onnx) and OpenVINO IR (.xml + .bin), by extension; --opset sets the ai.onnx opset of
// the ONNX written. IN is never overwritten; OUT is written through a temporary file and a
// rename, and only replaces an existing file with --force.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "bough/error.h"
#include "commands.h"
#include "formats/onnx/loop_captures.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/writer.h"
#include "formats/read_model.h"
#include "infer/opset_target.h"
#include "options.h"
#include "util/files.h"

namespace bough::cli {

namespace {
namespace convert_op {

namespace fs = std::filesystem;

struct Options {
  std::string in, out;
  std::string captures = "carried";
  std::optional<int64_t> opset;
  bool force = false;
};

int convert(const Options& opt) {
  const std::vector<std::string> paths = {opt.in, opt.out};
  const onnx::LoopCaptures captures =
      opt.captures == "implicit" ? onnx::LoopCaptures::Implicit : onnx::LoopCaptures::Carried;
  const std::optional<int64_t>& opset = opt.opset;
  const fs::path in = paths[0], out = paths[1];
  const std::string ext = out.extension().string();
  if (ext != ".onnx" && ext != ".xml") {
    return usage_error(paths[1] + ": the output must end in .onnx or .xml");
  }
  if (opset && ext != ".onnx") {
    return usage_error("--opset applies to ONNX output only");
  }
  // The IR's weights go beside the .xml, so they must not land on the input either.
  fs::path weights = fs::path(out).replace_extension(".bin");
  if (same_file(in, out) || (ext == ".xml" && same_file(in, weights))) {
    return usage_error(paths[1] + ": convert never overwrites its input");
  }
  std::error_code ec;
  for (const fs::path& written : ext == ".xml" ? std::vector{out, weights} : std::vector{out})
    if (!opt.force && fs::exists(written, ec))
      fail(ErrorKind::IO, written.string(), "already exists (--force replaces it)");
  auto model = read_model_file(paths[0]);
  if (ext == ".onnx") {
    if (opset) infer::set_onnx_opset(*model, *opset);
    if (captures == onnx::LoopCaptures::Carried) onnx::carry_loop_captures(*model);
    onnx::write_model_file(*model, paths[1]);
  } else {
    openvino::write_model_files(*model, paths[1]);
  }
  return kExitOk;
}

}  // namespace convert_op
}  // namespace

Command add_convert(CLI::App& root) {
  using namespace convert_op;
  CLI::App* app = root.add_subcommand(
      "convert", "convert between ONNX (.onnx) and OpenVINO IR (.xml + .bin), by extension");
  auto opt = std::make_shared<Options>();
  app->add_option("IN", opt->in, "the model to read (never overwritten)")->required();
  app->add_option("OUT", opt->out, "the model to write: .onnx, or .xml with its .bin beside it")
      ->required();
  app->add_option("--captures", opt->captures,
                  "how written ONNX Loop bodies read outer values: as loop-carried values "
                  "returned unchanged (carried) or by name (implicit)")
      ->check(one_of({"carried", "implicit"}))
      ->capture_default_str();
  app->add_option_function<std::string>(
         "--opset", [opt](const std::string& v) { opt->opset = std::stoll(v); },
         "the ai.onnx opset of the ONNX written (refused, naming the nodes, when a node would "
         "mean something else there or not exist); default: the model's")
      ->check(at_least(1));
  app->add_flag("--force", opt->force, "replace OUT (and the .bin beside an .xml) when it exists");
  return {app, [opt] { return convert(*opt); }};
}

}  // namespace bough::cli
