// External tensor data: the `location`, `offset` and `length` entries of a TensorProto.
#pragma once

#include <memory>
#include <string>

#include "onnx.pb.h"
#include "util/files.h"

namespace bough::onnx {

// The `nbytes` bytes an external-data TensorProto refers to (a `length` entry must say the
// same; without one, the data is the `nbytes` bytes at `offset`). Opening refuses a location
// that is absolute, resolves outside `model_dir` (through "..", or a symlink) or is not a
// regular file, and data that does not lie within the file, before the caller allocates
// anything; read_into then reads exactly `nbytes` into the caller's buffer.
class ExternalData {
 public:
  ExternalData(const onnxpb::TensorProto& proto, const std::string& model_dir, int64_t nbytes,
               const std::string& where);
  void read_into(void* out);

 private:
  std::unique_ptr<ReadOnlyFile> in_;
  std::string file_;
  int64_t offset_ = 0;
  int64_t nbytes_ = 0;
  std::string where_;
};

}  // namespace bough::onnx
