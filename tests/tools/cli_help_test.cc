// `bough --help`, `bough help [CMD]` and `bough CMD --help`: every command and option with
// its default, against golden files in tests/golden/cli (after a deliberate change to the
// options, regenerate them with `build/bough help CMD > tests/golden/cli/CMD.txt` and review
// the diff). `--version` against /proc/cpuinfo.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

const char* const kCommands[] = {"info",      "check",    "infer",   "ops",  "run",  "bench",
                                 "test-data", "optimize", "convert", "show", "serve"};

std::string golden(const std::string& name) {
  return test::read_text(test::source_dir() + "/tests/golden/cli/" + name + ".txt");
}

TEST(CliHelp, ToolHelpListsEveryCommandAndTheExitCodes) {
  std::string out, via_help;
  ASSERT_EQ(test::run_cli("--help", &out), 0) << out;
  EXPECT_EQ(out, golden("bough"));
  ASSERT_EQ(test::run_cli("help", &via_help), 0) << via_help;
  EXPECT_EQ(via_help, out);
  for (const char* cmd : kCommands)
    EXPECT_NE(out.find(std::string("  ") + cmd + " "), std::string::npos) << cmd;
  EXPECT_NE(out.find("exit status: 0 success, 1 invalid or unsupported model or failed tests, 2 "
                     "usage,\n             3 bad input data, 4 I/O error"),
            std::string::npos)
      << out;
}

TEST(CliHelp, EveryCommandHasHelpTheThreeWays) {
  for (const char* cmd : kCommands) {
    std::string dashed, helped, short_flag;
    ASSERT_EQ(test::run_cli(std::string(cmd) + " --help", &dashed), 0) << cmd << dashed;
    ASSERT_EQ(test::run_cli(std::string("help ") + cmd, &helped), 0) << cmd << helped;
    ASSERT_EQ(test::run_cli(std::string(cmd) + " -h", &short_flag), 0) << cmd << short_flag;
    EXPECT_EQ(dashed, golden(cmd)) << cmd;
    EXPECT_EQ(helped, dashed) << cmd;
    EXPECT_EQ(short_flag, dashed) << cmd;
  }
}

TEST(CliHelp, HelpOfAnUnknownCommandIsAUsageError) {
  std::string out;
  EXPECT_EQ(test::run_cli("help frobnicate", &out), 2) << out;
  EXPECT_NE(out.find("no command named 'frobnicate'"), std::string::npos) << out;
}

// The CPU line says what /proc/cpuinfo says of each feature.
TEST(CliHelp, VersionNamesTheBuildAndTheCpuFeatures) {
  std::string out;
  ASSERT_EQ(test::run_cli("--version", &out), 0) << out;
  EXPECT_EQ(out.rfind("bough 0.1.0\ncompiled for: ", 0), 0u) << out;
  size_t cpu = out.find("\nthis CPU has: ");
  ASSERT_NE(cpu, std::string::npos) << out;
  std::string cpu_line = " " + out.substr(cpu + 15);
  cpu_line = cpu_line.substr(0, cpu_line.find('\n')) + " ";
  std::ifstream info("/proc/cpuinfo");
  std::string line, flags;
  while (std::getline(info, line))
    if (line.rfind("flags", 0) == 0) {
      flags = " " + line.substr(line.find(':') + 1) + " ";
      break;
    }
  if (flags.empty()) GTEST_SKIP() << "no /proc/cpuinfo flags";
  // /proc/cpuinfo spells sse4.2 as sse4_2.
  for (auto [ours, linux_name] : {std::pair{"avx2", "avx2"},
                                  {"fma", "fma"},
                                  {"f16c", "f16c"},
                                  {"avx512f", "avx512f"},
                                  {"sse4.2", "sse4_2"}})
    EXPECT_EQ(cpu_line.find(std::string(" ") + ours + " ") != std::string::npos,
              flags.find(std::string(" ") + linux_name + " ") != std::string::npos)
        << ours << " in" << cpu_line;
    // The release build targets x86-64-v3 (AVX2 + FMA); the sanitizer builds set no -march.
#ifdef __AVX2__
  EXPECT_NE(out.find("compiled for: sse4.2 avx2 fma f16c"), std::string::npos) << out;
#else
  EXPECT_NE(out.find("compiled for: the baseline ISA"), std::string::npos) << out;
#endif
  // The kernels are picked at run time by what the CPU has (Highway's AVX3 needs all four).
  auto has = [&](const char* f) {
    return flags.find(std::string(" ") + f + " ") != std::string::npos;
  };
  const char* picked = has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl")
                           ? "avx512"
                       : has("avx2") ? "avx2"
                                     : nullptr;
  if (picked) {
    EXPECT_NE(out.find(std::string("\nkernels picked: ") + picked), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace bough
