#include "test_paths.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "exec/operators.h"

namespace bough::test {

namespace fs = std::filesystem;

namespace {
// The control-flow operators join the registry before any test looks operators up, as the
// CLI's main and sessions do (exec/operators.h).
[[maybe_unused]] const bool operators_registered = (exec::register_operators(), true);
}  // namespace

std::string source_dir() { return BOUGH_SOURCE_DIR; }
std::string cli_path() { return BOUGH_CLI; }

std::string conformance_dir() {
  if (const char* env = std::getenv("BOUGH_CONFORMANCE_DIR"); env && *env) return env;
  for (const fs::path& p : {fs::path(source_dir()) / ".." / "shared" / "conformance" / "onnx-node",
                            fs::path("/usr/share/libonnx-testdata/data/node")})
    if (fs::is_directory(p)) return fs::canonical(p).string();
  return "";
}

std::string scratch_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("bough-test-" + std::to_string(::getpid())) / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

int run_cli(const std::string& args, std::string* output) {
  return run_command(cli_path() + " " + args, output);
}

int run_command(const std::string& command, std::string* output) {
  std::string cmd = "{ " + command + "; } 2>&1";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buf;
  output->clear();
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) output->append(buf.data(), n);
  int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace bough::test
