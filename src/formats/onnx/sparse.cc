#include "formats/onnx/sparse.h"

#include <cstring>

#include "bough/error.h"
#include "formats/onnx/tensor_proto.h"

namespace bough::onnx {

Tensor dense_from_sparse(const onnxpb::SparseTensorProto& p, const std::string& model_dir,
                         const std::string& where) {
  Tensor values = tensor_from_proto(p.values(), model_dir, where);
  Tensor indices = tensor_from_proto(p.indices(), model_dir, where);
  if (values.type() == ElemType::String || is_sub_byte(values.type()))
    fail(ErrorKind::Unsupported, where, "sparse tensors of this element type");
  // A few bytes of sparse data may describe a huge dense tensor: cap what it may expand to.
  constexpr int64_t kMaxDenseBytes = int64_t{1} << 32;
  const int64_t elem_bytes = elem_bits(values.type()) / 8;
  if (checked_numel(p.dims(), where) > kMaxDenseBytes / elem_bytes)
    fail(ErrorKind::Unsupported, where, "sparse tensor expands to more than 4 GiB");
  const Dims dims(std::span<const int64_t>(p.dims().data(), p.dims().size()));
  Tensor dense = Tensor::zeros(values.type(), dims);
  int64_t nnz = values.numel();
  int64_t total = dense.numel();
  const auto elem = static_cast<size_t>(elem_bytes);
  bool coordinates = indices.rank() == 2;
  if ((coordinates &&
       (indices.dim(0) != nnz || indices.dim(1) != static_cast<int64_t>(dims.size()))) ||
      (!coordinates && indices.numel() != nnz))
    fail(ErrorKind::InvalidModel, where, "sparse tensor indices do not match its values");
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t pos = 0;
    if (coordinates) {
      for (size_t d = 0; d < dims.size(); ++d) {
        const int64_t i =
            indices.get_int(k * static_cast<int64_t>(dims.size()) + static_cast<int64_t>(d));
        if (i < 0 || i >= dims[d])
          fail(ErrorKind::InvalidModel, where, "sparse index out of range");
        pos = pos * dims[d] + i;
      }
    } else {
      pos = indices.get_int(k);
    }
    if (pos < 0 || pos >= total) fail(ErrorKind::InvalidModel, where, "sparse index out of range");
    std::memcpy(dense.data<uint8_t>() + static_cast<size_t>(pos) * elem,
                values.data<uint8_t>() + static_cast<size_t>(k) * elem, elem);
  }
  return dense;
}

}  // namespace bough::onnx
