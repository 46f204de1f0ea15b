// bough info MODEL — print the IR.
#include <cstdio>

#include "commands.h"
#include "formats/onnx/reader.h"
#include "ir/printer.h"

namespace bough::cli {

int cmd_info(const Args& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: bough info MODEL\n");
    return kExitUsage;
  }
  auto model = onnx::read_model_file(args[0]);
  std::fputs(ir::print_model(*model).c_str(), stdout);
  return kExitOk;
}

}  // namespace bough::cli
