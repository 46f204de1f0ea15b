// Fuzz target: the .npy reader on arbitrary bytes. Only bough::Error may come out, and what
// it reads must hold what bough's kernels assume: bool bytes 0 or 1. What it reads is
// written back and read again, which must give the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "bough/error.h"
#include "formats/npy/npy.h"
#include "util/bool_bytes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  bough::Tensor t;
  try {
    t = bough::npy::decode_npy(std::string(reinterpret_cast<const char*>(data), size), "fuzz.npy");
  } catch (const bough::Error&) {
    return 0;
  }
  if (t.type() == bough::ElemType::Bool && bough::util::has_non_boolean_bytes(t.raw(), t.nbytes()))
    __builtin_trap();
  const std::string again = bough::npy::encode_npy(t);
  const bough::Tensor back = bough::npy::decode_npy(again, "fuzz-again.npy");
  if (back.shape() != t.shape() || bough::npy::encode_npy(back) != again) __builtin_trap();
  return 0;
}
