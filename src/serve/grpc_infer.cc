#include "serve/grpc_infer.h"

#include <grpc_predict_v2.pb.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "serve/datatype.h"
#include "serve/infer_checks.h"
#include "serve/protocol_error.h"
#include "serve/tensor_data.h"

namespace bough::serve {

namespace {

using inference::InferTensorContents;

// The field of InferTensorContents that carries `type`; empty for a type without one (FP16
// and BF16 travel raw, and types outside the protocol not at all).
std::string_view typed_field(ElemType type) {
  switch (type) {
    case ElemType::Bool:
      return "bool_contents";
    case ElemType::Int8:
    case ElemType::Int16:
    case ElemType::Int32:
      return "int_contents";
    case ElemType::Int64:
      return "int64_contents";
    case ElemType::UInt8:
    case ElemType::UInt16:
    case ElemType::UInt32:
      return "uint_contents";
    case ElemType::UInt64:
      return "uint64_contents";
    case ElemType::Float:
      return "fp32_contents";
    case ElemType::Double:
      return "fp64_contents";
    case ElemType::String:
      return "bytes_contents";
    default:
      return {};
  }
}

// Every field of `c` with its element count.
std::vector<std::pair<std::string_view, int>> field_sizes(const InferTensorContents& c) {
  return {
      {"bool_contents", c.bool_contents_size()},     {"int_contents", c.int_contents_size()},
      {"int64_contents", c.int64_contents_size()},   {"uint_contents", c.uint_contents_size()},
      {"uint64_contents", c.uint64_contents_size()}, {"fp32_contents", c.fp32_contents_size()},
      {"fp64_contents", c.fp64_contents_size()},     {"bytes_contents", c.bytes_contents_size()}};
}

bool has_contents(const InferTensorContents& c) {
  const auto sizes = field_sizes(c);
  return std::any_of(sizes.begin(), sizes.end(), [](const auto& field) { return field.second; });
}

// Where T's values travel: the index of their field among the number fields of
// InferTensorContents in the order int, int64, uint, uint64, fp32, fp64 (the integers of 8
// and 16 bits travel in the 32-bit fields).
template <typename T>
constexpr size_t kField = std::is_same_v<T, float> ? 4
                          : std::is_same_v<T, double>
                              ? 5
                              : (std::is_unsigned_v<T> ? 2 : 0) + (sizeof(T) == 8 ? 1 : 0);

template <typename T>
const auto& values_of(const InferTensorContents& c) {
  return std::get<kField<T>>(std::tie(c.int_contents(), c.int64_contents(), c.uint_contents(),
                                      c.uint64_contents(), c.fp32_contents(), c.fp64_contents()));
}
template <typename T>
auto* mutable_values_of(InferTensorContents& c) {
  return std::get<kField<T>>(std::make_tuple(c.mutable_int_contents(), c.mutable_int64_contents(),
                                             c.mutable_uint_contents(), c.mutable_uint64_contents(),
                                             c.mutable_fp32_contents(), c.mutable_fp64_contents()));
}

// Copies `values` into `t` as T, refusing a value T cannot hold (an int_contents of 300 for
// INT8) with the message tensor_from_json gives.
template <typename T, typename Values>
void copy_values(const Values& values, Tensor& t, const std::string& name) {
  T* out = t.data<T>();
  for (int i = 0; i < values.size(); ++i) {
    const auto v = values.Get(i);
    if constexpr (std::is_integral_v<T>)
      if (!std::in_range<T>(v))
        bad_request("input '" + name + "': " + std::to_string(v) + " is not a value of datatype " +
                    datatype_name(t.type()));
    out[i] = static_cast<T>(v);
  }
}

// A tensor from typed contents: the one field that matches the datatype, holding exactly the
// shape's element count.
Tensor tensor_from_contents(const InferTensorContents& c, const DeclaredInput& input,
                            const std::string& name) {
  const std::string datatype = datatype_name(input.type);
  const std::string_view field = typed_field(input.type);
  if (field.empty())
    bad_request(input.what + ": datatype " + datatype +
                " has no field in typed contents; send it in raw_input_contents");
  int64_t count = 0;
  for (const auto& [other, size] : field_sizes(c)) {
    if (other == field)
      count = size;
    else if (size > 0)
      bad_request(input.what + ": datatype " + datatype + " takes " + std::string(field) +
                  ", the request gives " + std::string(other));
  }
  if (count != input.shape.numel())
    bad_request(input.what + ": " + std::to_string(count) + " data elements, its shape has " +
                std::to_string(input.shape.numel()));
  Tensor t(input.type, input.shape);
  const bool number = visit_number(input.type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    copy_values<T>(values_of<T>(c), t, name);
  });
  if (number) return t;
  if (input.type == ElemType::Bool) {
    for (int i = 0; i < c.bool_contents_size(); ++i) t.data<uint8_t>()[i] = c.bool_contents(i);
    return t;
  }
  // BYTES: typed_field above admits nothing else.
  for (int i = 0; i < c.bytes_contents_size(); ++i) t.strings()[i] = c.bytes_contents(i);
  return t;
}

template <typename T, typename Field>
void add_values(Field* field, const Tensor& t) {
  const T* data = t.data<T>();
  field->Reserve(static_cast<int>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) field->Add(data[i]);
}

// Writes `t` into typed contents (its type has a field: the caller checked).
void set_contents(InferTensorContents& c, const Tensor& t) {
  const bool number = visit_number(t.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    add_values<T>(mutable_values_of<T>(c), t);
  });
  if (number) return;
  if (t.type() == ElemType::Bool) {
    const uint8_t* data = t.data<uint8_t>();
    for (int64_t i = 0; i < t.numel(); ++i) c.add_bool_contents(data[i] != 0);
    return;
  }
  // BYTES
  for (int64_t i = 0; i < t.numel(); ++i) c.add_bytes_contents(t.strings()[i]);
}

// The request's "binary_data_output" parameter, when it has one.
std::optional<bool> binary_data_output(const inference::ModelInferRequest& message) {
  const auto it = message.parameters().find("binary_data_output");
  if (it == message.parameters().end()) return std::nullopt;
  if (it->second.parameter_choice_case() != inference::InferParameter::kBoolParam)
    bad_request("the request: parameter \"binary_data_output\" must be a bool_param");
  return it->second.bool_param();
}

}  // namespace

InferRequest read_grpc_request(const inference::ModelInferRequest& message,
                               const ServedModel& model) {
  const bool raw = message.raw_input_contents_size() > 0;
  if (raw && message.raw_input_contents_size() != message.inputs_size())
    bad_request("the request has " + std::to_string(message.raw_input_contents_size()) +
                " raw_input_contents for " + std::to_string(message.inputs_size()) +
                " inputs; give one for each input, in the order of \"inputs\"");
  InferRequest result;
  if (!message.id().empty()) result.id = message.id();
  for (int i = 0; i < message.inputs_size(); ++i) {
    const auto& input = message.inputs(i);
    const std::string& name = input.name();
    const DeclaredInput declared = check_input(
        model, name, input.datatype(),
        std::span<const int64_t>(input.shape().data(), input.shape().size()), result.inputs);
    if (!raw) {
      result.inputs.emplace_back(name, tensor_from_contents(input.contents(), declared, name));
      continue;
    }
    if (has_contents(input.contents()))
      bad_request(declared.what +
                  " has typed contents, and the request has raw_input_contents: send one or "
                  "the other");
    result.inputs.emplace_back(name, tensor_from_binary(message.raw_input_contents(i),
                                                        declared.type, declared.shape, name));
  }
  check_inputs_complete(model, result.inputs);

  const bool raw_outputs = binary_data_output(message).value_or(raw);
  if (message.outputs_size() == 0)
    for (const ValueInfo& info : model.outputs())
      result.outputs.push_back({info.name, raw_outputs});
  for (const auto& output : message.outputs()) {
    check_output(model, output.name(), result.outputs);
    result.outputs.push_back({output.name(), raw_outputs});
  }
  return result;
}

void write_grpc_response(const ServedModel& model, const InferRequest& request,
                         const NamedValues& outputs, inference::ModelInferResponse& response) {
  response.set_model_name(model.name());
  response.set_model_version(model.version());
  if (request.id) response.set_id(*request.id);
  std::vector<const Tensor*> tensors;
  bool raw = false;
  for (const RequestedOutput& wanted : request.outputs) {
    tensors.push_back(&output_tensor(outputs, wanted.name));
    raw = raw || wanted.binary || typed_field(tensors.back()->type()).empty();
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = *tensors[i];
    auto* out = response.add_outputs();
    out->set_name(request.outputs[i].name);
    out->set_datatype(datatype_name(t.type()));
    for (int64_t d : t.shape()) out->add_shape(d);
    if (raw)
      append_binary_data(*response.add_raw_output_contents(), t);
    else
      set_contents(*out->mutable_contents(), t);
  }
}

}  // namespace bough::serve
