#include "util/cpu_cores.h"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <thread>

namespace bough::util {

int physical_cores(const std::string& cpu_dir, const std::vector<int>& cpus) {
  // Each core is known by the list of CPUs that share it ("0,4" or "0-1"): the same text for
  // all of them.
  std::set<std::string> cores;
  int unknown = 0;
  for (int cpu : cpus) {
    std::ifstream file(cpu_dir + "/cpu" + std::to_string(cpu) + "/topology/thread_siblings_list");
    std::string siblings;
    if (std::getline(file, siblings) && !siblings.empty())
      cores.insert(siblings);
    else
      ++unknown;
  }
  return std::max(1, static_cast<int>(cores.size()) + unknown);
}

int physical_cores() {
  std::vector<int> cpus;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  } else {
    for (unsigned cpu = 0; cpu < std::thread::hardware_concurrency(); ++cpu)
      cpus.push_back(static_cast<int>(cpu));
  }
  return physical_cores("/sys/devices/system/cpu", cpus);
}

}  // namespace bough::util
