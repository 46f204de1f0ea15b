#include "formats/onnx/sparse.h"

#include <cstring>

#include "bough/error.h"
#include "formats/onnx/tensor_proto.h"

namespace bough::onnx {

Tensor dense_from_sparse(const onnxpb::SparseTensorProto& p, const std::string& model_dir,
                         const std::string& where) {
  Tensor values = tensor_from_proto(p.values(), model_dir, where);
  Tensor indices = tensor_from_proto(p.indices(), model_dir, where);
  Dims dims;
  for (int64_t d : p.dims()) dims.push_back(d);
  if (values.type() == ElemType::String || is_sub_byte(values.type()))
    fail(ErrorKind::Unsupported, where, "sparse tensors of this element type");
  Tensor dense = Tensor::zeros(values.type(), dims);
  int64_t nnz = values.numel();
  int64_t total = dense.numel();
  size_t elem = static_cast<size_t>(elem_bits(values.type()) / 8);
  bool coordinates = indices.rank() == 2;
  if ((coordinates &&
       (indices.dim(0) != nnz || indices.dim(1) != static_cast<int64_t>(dims.size()))) ||
      (!coordinates && indices.numel() != nnz))
    fail(ErrorKind::InvalidModel, where, "sparse tensor indices do not match its values");
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t pos = 0;
    if (coordinates) {
      for (size_t d = 0; d < dims.size(); ++d)
        pos = pos * dims[d] +
              indices.get_int(k * static_cast<int64_t>(dims.size()) + static_cast<int64_t>(d));
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
