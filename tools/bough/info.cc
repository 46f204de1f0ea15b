// bough info MODEL — print the IR.
#include <cstdio>

#include "bough/model.h"
#include "commands.h"
#include "ir/printer.h"

namespace bough::cli {

int cmd_info(const Args& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: bough info MODEL\n");
    return kExitUsage;
  }
  Model model = Model::load(args[0]);
  std::fputs(ir::print_model(model.ir()).c_str(), stdout);
  return kExitOk;
}

}  // namespace bough::cli
