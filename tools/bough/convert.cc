// bough convert IN OUT — convert between ONNX (.onnx) and OpenVINO IR (.xml + .bin), by
// extension. IN is never overwritten; OUT is written through a temporary file and a rename.
#include <cstdio>
#include <filesystem>

#include "bough/model.h"
#include "commands.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/writer.h"

namespace bough::cli {

namespace {

namespace fs = std::filesystem;

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

}  // namespace

int cmd_convert(const Args& args) {
  if (args.size() != 2) {
    std::fprintf(stderr, "usage: bough convert IN OUT   (formats by extension: .onnx, .xml)\n");
    return kExitUsage;
  }
  const fs::path in = args[0], out = args[1];
  const std::string ext = out.extension().string();
  if (ext != ".onnx" && ext != ".xml") {
    std::fprintf(stderr, "bough: error: %s: the output must end in .onnx or .xml\n",
                 args[1].c_str());
    return kExitUsage;
  }
  // The IR's weights go beside the .xml, so they must not land on the input either.
  fs::path weights = fs::path(out).replace_extension(".bin");
  if (same_file(in, out) || (ext == ".xml" && same_file(in, weights))) {
    std::fprintf(stderr, "bough: error: %s: convert never overwrites its input\n", args[1].c_str());
    return kExitUsage;
  }
  Model model = Model::load(args[0]);
  if (ext == ".onnx")
    onnx::write_model_file(model.ir(), args[1]);
  else
    openvino::write_model_files(model.ir(), args[1]);
  return kExitOk;
}

}  // namespace bough::cli
