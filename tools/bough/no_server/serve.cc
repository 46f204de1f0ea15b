// `bough serve` in a build made without the server (BOUGH_SERVE=OFF, as scripts/example
// builds the CLI): the command is there so that it says why it cannot run, instead of
// `bough` calling it unknown.
#include <CLI/CLI.hpp>

#include "bough/commands.h"

namespace bough::cli {

Command add_serve(CLI::App& root) {
  CLI::App* app = root.add_subcommand(
      "serve", "not in this build: it was made without the server (BOUGH_SERVE=OFF)");
  app->allow_extras();
  return {app, [] {
            return usage_error(
                "this bough was built without the server (BOUGH_SERVE=OFF, as scripts/example "
                "builds it); scripts/build builds it with `bough serve`");
          }};
}

}  // namespace bough::cli
