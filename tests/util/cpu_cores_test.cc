// util::physical_cores over made-up sysfs trees: hardware threads of one core count once, only
// the CPUs given count, and a CPU whose topology cannot be read is a core of its own.
#include "util/cpu_cores.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

// DIR/cpuN/topology/thread_siblings_list holding `siblings[N]` (no file for "").
std::string cpu_tree(const std::string& name, const std::vector<std::string>& siblings) {
  const std::string dir = test::scratch_dir(name);
  for (size_t cpu = 0; cpu < siblings.size(); ++cpu) {
    const fs::path topology = fs::path(dir) / ("cpu" + std::to_string(cpu)) / "topology";
    fs::create_directories(topology);
    if (!siblings[cpu].empty())
      std::ofstream(topology / "thread_siblings_list") << siblings[cpu] << "\n";
  }
  return dir;
}

TEST(PhysicalCores, HardwareThreadsOfOneCoreCountOnce) {
  // 4 cores with 2 threads each, the siblings numbered as Intel's (N and N+4).
  const std::string dir =
      cpu_tree("cores_smt", {"0,4", "1,5", "2,6", "3,7", "0,4", "1,5", "2,6", "3,7"});
  EXPECT_EQ(util::physical_cores(dir, {0, 1, 2, 3, 4, 5, 6, 7}), 4);
  // The process may run on CPUs 0 and 4 only: one core.
  EXPECT_EQ(util::physical_cores(dir, {0, 4}), 1);
  EXPECT_EQ(util::physical_cores(dir, {0, 5, 6}), 3);
  // The siblings numbered as AMD's (2N and 2N+1), in ranges.
  const std::string amd = cpu_tree("cores_smt_ranges", {"0-1", "0-1", "2-3", "2-3"});
  EXPECT_EQ(util::physical_cores(amd, {0, 1, 2, 3}), 2);
}

TEST(PhysicalCores, WithoutTopologyEachCpuIsACore) {
  const std::string dir = cpu_tree("cores_no_topology", {"0", "", "", "3"});
  EXPECT_EQ(util::physical_cores(dir, {0, 1, 2, 3}), 4);
  EXPECT_EQ(util::physical_cores(dir + "/none", {0, 1, 2}), 3);
  EXPECT_EQ(util::physical_cores(dir, {}), 1);  // at least one
}

// On this machine: between 1 and the CPUs the process may use.
TEST(PhysicalCores, ThisMachine) {
  const int cores = util::physical_cores();
  EXPECT_GE(cores, 1);
  EXPECT_LE(cores, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
}

}  // namespace
}  // namespace bough
