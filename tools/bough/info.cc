// bough info MODEL — print the IR, with the type inference finds for every value.
#include <cstdio>

#include "commands.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "ir/printer.h"

namespace bough::cli {

int cmd_info(const Args& args) {
  if (args.size() != 1) {
    std::fprintf(stderr, "usage: bough info MODEL\n");
    return kExitUsage;
  }
  auto model = read_model_file(args[0]);
  // An invalid model is still printed, with what inference could find; `bough check` says
  // what is wrong with it.
  infer::Validation v = infer::validate(*model);
  infer::annotate(*model, v.types);
  std::fputs(ir::print_model(*model).c_str(), stdout);
  return kExitOk;
}

}  // namespace bough::cli
