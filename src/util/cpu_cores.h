// How many threads a session takes when it is not told: one per physical core.
#pragma once

#include <string>
#include <vector>

namespace bough::util {

// The physical cores among the CPUs this process may run on (its affinity mask), a core with
// several hardware threads counted once: ONNX Runtime's thread count for
// intra_op_num_threads = 0. At least 1.
int physical_cores();

// The same over the CPUs `cpus`, reading which CPUs share a core from the sysfs tree at
// `cpu_dir` (/sys/devices/system/cpu: cpuN/topology/thread_siblings_list). A CPU whose
// siblings cannot be read counts as a core of its own.
int physical_cores(const std::string& cpu_dir, const std::vector<int>& cpus);

}  // namespace bough::util
