// bough convert IN OUT [--captures carried|implicit] [--opset N] — convert between ONNX
// (.onnx) and OpenVINO IR (.xml + .bin), by extension; --opset sets the ai.onnx opset of
// the ONNX written. IN is never overwritten; OUT is written through a temporary file and a
// rename.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "commands.h"
#include "formats/onnx/loop_captures.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/writer.h"
#include "formats/read_model.h"
#include "infer/opset_target.h"
#include "util/files.h"

namespace bough::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kUsage =
    "usage: bough convert IN OUT [--captures carried|implicit] [--opset N]\n"
    "  formats by extension: .onnx, .xml (OpenVINO IR, with its .bin beside it)\n"
    "  --captures: how written ONNX Loop bodies read outer values: as loop-carried values\n"
    "              returned unchanged (carried, the default) or by name (implicit)\n"
    "  --opset:    the ai.onnx opset of the ONNX written (refused, naming the nodes, when\n"
    "              a node would mean something else there or not exist)\n";

}  // namespace

int cmd_convert(const Args& args) {
  std::vector<std::string> paths;
  onnx::LoopCaptures captures = onnx::LoopCaptures::Carried;
  std::optional<int64_t> opset;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--opset" && i + 1 < args.size()) {
      const std::string& text = args[++i];
      char* end = nullptr;
      opset = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0') {
        std::fprintf(stderr, "bough: error: --opset takes a number, not '%s'\n", text.c_str());
        return kExitUsage;
      }
      continue;
    }
    if (args[i] == "--captures" && i + 1 < args.size()) {
      const std::string& mode = args[++i];
      if (mode == "carried")
        captures = onnx::LoopCaptures::Carried;
      else if (mode == "implicit")
        captures = onnx::LoopCaptures::Implicit;
      else {
        std::fprintf(stderr, "bough: error: --captures takes carried or implicit, not '%s'\n",
                     mode.c_str());
        return kExitUsage;
      }
    } else {
      paths.push_back(args[i]);
    }
  }
  if (paths.size() != 2) {
    std::fputs(kUsage, stderr);
    return kExitUsage;
  }
  const fs::path in = paths[0], out = paths[1];
  const std::string ext = out.extension().string();
  if (ext != ".onnx" && ext != ".xml") {
    std::fprintf(stderr, "bough: error: %s: the output must end in .onnx or .xml\n",
                 paths[1].c_str());
    return kExitUsage;
  }
  if (opset && ext != ".onnx") {
    std::fprintf(stderr, "bough: error: --opset applies to ONNX output only\n");
    return kExitUsage;
  }
  // The IR's weights go beside the .xml, so they must not land on the input either.
  fs::path weights = fs::path(out).replace_extension(".bin");
  if (same_file(in, out) || (ext == ".xml" && same_file(in, weights))) {
    std::fprintf(stderr, "bough: error: %s: convert never overwrites its input\n",
                 paths[1].c_str());
    return kExitUsage;
  }
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

}  // namespace bough::cli
