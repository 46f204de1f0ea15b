#include "formats/onnx/type_proto.h"

#include "bough/error.h"

namespace bough::onnx {

namespace {

ElemType elem_from_code(int code, const std::string& where) {
  if (code == 0) return ElemType::Undefined;
  if (!is_valid_elem_code(code))
    fail(ErrorKind::InvalidModel, where, "unknown element type " + std::to_string(code));
  return static_cast<ElemType>(code);
}

ir::Shape shape_from_proto(const onnxpb::TensorShapeProto& p) {
  ir::Shape s = ir::Shape::of({});
  for (const auto& d : p.dim()) {
    if (d.has_dim_value())
      s.dims.push_back(ir::Dim::known(d.dim_value()));
    else if (d.has_dim_param() && !d.dim_param().empty())
      s.dims.push_back(ir::Dim::named(d.dim_param()));
    else
      s.dims.push_back(ir::Dim::unknown());
  }
  return s;
}

void shape_to_proto(const ir::Shape& s, onnxpb::TensorShapeProto* p) {
  for (const auto& d : s.dims) {
    auto* dim = p->add_dim();
    if (d.kind == ir::Dim::Kind::Known)
      dim->set_dim_value(d.value);
    else if (d.kind == ir::Dim::Kind::Symbol)
      dim->set_dim_param(d.symbol);
  }
}

// The element type and shape of a tensor or a sparse tensor type (TypeProto's Tensor and
// SparseTensor hold the same two fields).
template <typename TensorLike>
void read_tensor_like(const TensorLike& p, ir::Type& t, const std::string& where) {
  t.elem = elem_from_code(p.elem_type(), where);
  if (p.has_shape()) t.shape = shape_from_proto(p.shape());
}
template <typename TensorLike>
void write_tensor_like(const ir::Type& t, TensorLike* p) {
  p->set_elem_type(static_cast<int>(t.elem));
  if (t.shape.rank_known) shape_to_proto(t.shape, p->mutable_shape());
}

}  // namespace

ir::Type type_from_proto(const onnxpb::TypeProto& p, const std::string& where) {
  ir::Type t;
  t.denotation = p.denotation();
  auto inner = [&](const onnxpb::TypeProto& e) {
    return std::make_shared<const ir::Type>(type_from_proto(e, where));
  };
  switch (p.value_case()) {
    case onnxpb::TypeProto::kTensorType:
      t.kind = ir::Type::Kind::Tensor;
      read_tensor_like(p.tensor_type(), t, where);
      break;
    case onnxpb::TypeProto::kSparseTensorType:
      t.kind = ir::Type::Kind::SparseTensor;
      read_tensor_like(p.sparse_tensor_type(), t, where);
      break;
    case onnxpb::TypeProto::kSequenceType:
      t.kind = ir::Type::Kind::Sequence;
      if (p.sequence_type().has_elem_type()) t.inner = inner(p.sequence_type().elem_type());
      break;
    case onnxpb::TypeProto::kOptionalType:
      t.kind = ir::Type::Kind::Optional;
      if (p.optional_type().has_elem_type()) t.inner = inner(p.optional_type().elem_type());
      break;
    case onnxpb::TypeProto::kMapType:
      t.kind = ir::Type::Kind::Map;
      t.elem = elem_from_code(p.map_type().key_type(), where);
      if (p.map_type().has_value_type()) t.inner = inner(p.map_type().value_type());
      break;
    case onnxpb::TypeProto::kOpaqueType:
      t.kind = ir::Type::Kind::Opaque;
      break;
    case onnxpb::TypeProto::VALUE_NOT_SET:
      break;
  }
  return t;
}

void type_to_proto(const ir::Type& t, onnxpb::TypeProto* p) {
  if (!t.denotation.empty()) p->set_denotation(t.denotation);
  switch (t.kind) {
    case ir::Type::Kind::Undefined:
      break;
    case ir::Type::Kind::Tensor:
      write_tensor_like(t, p->mutable_tensor_type());
      break;
    case ir::Type::Kind::SparseTensor:
      write_tensor_like(t, p->mutable_sparse_tensor_type());
      break;
    case ir::Type::Kind::Sequence: {
      auto* st = p->mutable_sequence_type();
      if (t.inner) type_to_proto(*t.inner, st->mutable_elem_type());
      break;
    }
    case ir::Type::Kind::Optional: {
      auto* ot = p->mutable_optional_type();
      if (t.inner) type_to_proto(*t.inner, ot->mutable_elem_type());
      break;
    }
    case ir::Type::Kind::Map: {
      auto* mt = p->mutable_map_type();
      mt->set_key_type(static_cast<int>(t.elem));
      if (t.inner) type_to_proto(*t.inner, mt->mutable_value_type());
      break;
    }
    case ir::Type::Kind::Opaque:
      p->mutable_opaque_type();
      break;
  }
}

}  // namespace bough::onnx
