#include "version.h"

#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "kernels/gemm_f32.h"

namespace bough::cli {

namespace {
namespace version_op {

// Whether the compiler was allowed to use each feature everywhere (-march).
#ifdef __SSE4_2__
constexpr bool kSse42 = true;
#else
constexpr bool kSse42 = false;
#endif
#ifdef __AVX2__
constexpr bool kAvx2 = true;
#else
constexpr bool kAvx2 = false;
#endif
#ifdef __FMA__
constexpr bool kFma = true;
#else
constexpr bool kFma = false;
#endif
#ifdef __F16C__
constexpr bool kF16c = true;
#else
constexpr bool kF16c = false;
#endif
#ifdef __AVX512F__
constexpr bool kAvx512f = true;
#else
constexpr bool kAvx512f = false;
#endif
#ifdef __AVX512BW__
constexpr bool kAvx512bw = true;
#else
constexpr bool kAvx512bw = false;
#endif

#if defined(__x86_64__) || defined(__i386__)
// CPUID leaf 1 directly: clang 14's __builtin_cpu_supports does not know "f16c".
bool cpu_has_f16c() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
}
#endif

struct Feature {
  const char* name;
  bool compiled;  // the binary assumes it
  bool present;   // the CPU running it has it
};

std::vector<Feature> features() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return {{"sse4.2", kSse42, __builtin_cpu_supports("sse4.2") != 0},
          {"avx2", kAvx2, __builtin_cpu_supports("avx2") != 0},
          {"fma", kFma, __builtin_cpu_supports("fma") != 0},
          {"f16c", kF16c, cpu_has_f16c()},
          {"avx512f", kAvx512f, __builtin_cpu_supports("avx512f") != 0},
          {"avx512bw", kAvx512bw, __builtin_cpu_supports("avx512bw") != 0}};
#else
  return {};
#endif
}

}  // namespace version_op
}  // namespace

std::string version_text() {
  using namespace version_op;
  std::string compiled, present;
  for (const Feature& f : features()) {
    if (f.compiled) compiled += std::string(compiled.empty() ? "" : " ") + f.name;
    if (f.present) present += std::string(present.empty() ? "" : " ") + f.name;
  }
  return std::string("bough ") + BOUGH_VERSION +
         "\ncompiled for: " + (compiled.empty() ? "the baseline ISA" : compiled) +
         "\nthis CPU has: " + (present.empty() ? "none of those" : present) +
         "\nkernels picked: " + std::string(kernels::gemm_kernel_set());
}

}  // namespace bough::cli
