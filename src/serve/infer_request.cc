#include "serve/infer_request.h"

#include <nlohmann/json.hpp>

#include "serve/infer_checks.h"
#include "serve/protocol_error.h"
#include "serve/tensor_data.h"

namespace bough::serve {

using nlohmann::json;

namespace {

// member `key` of `object`, or null when absent.
const json& member(const json& object, const char* key) {
  static const json kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

const std::string& string_member(const json& object, const char* key, const std::string& what) {
  const json& value = member(object, key);
  if (!value.is_string()) bad_request(what + ": \"" + key + "\" must be a string");
  return value.get_ref<const std::string&>();
}

const json& parameters_of(const json& object, const std::string& what) {
  const json& parameters = member(object, "parameters");
  if (!parameters.is_null() && !parameters.is_object())
    bad_request(what + ": \"parameters\" must be an object");
  return parameters;
}

// A bool parameter, `otherwise` when absent.
bool bool_parameter(const json& parameters, const char* key, bool otherwise,
                    const std::string& what) {
  if (parameters.is_null() || !parameters.contains(key)) return otherwise;
  const json& value = parameters.at(key);
  if (!value.is_boolean()) bad_request(what + ": parameter \"" + key + "\" must be true or false");
  return value.get<bool>();
}

// The shape's dimensions; one past 2^63 reads as -1, which the shape check refuses.
std::vector<int64_t> read_shape(const json& input, const std::string& what) {
  const json& shape = member(input, "shape");
  if (!shape.is_array()) bad_request(what + ": \"shape\" must be an array of whole numbers");
  std::vector<int64_t> dims;
  for (const json& d : shape) {
    if (!d.is_number_integer()) bad_request(what + ": \"shape\" must be an array of whole numbers");
    dims.push_back(
        d.is_number_unsigned() && d.get<uint64_t>() > uint64_t{INT64_MAX} ? -1 : d.get<int64_t>());
  }
  return dims;
}

}  // namespace

InferRequest parse_infer_request(std::string_view body, std::optional<size_t> header_length,
                                 const ServedModel& model) {
  if (header_length && *header_length > body.size())
    bad_request("Inference-Header-Content-Length is " + std::to_string(*header_length) +
                ", the body has only " + std::to_string(body.size()) + " bytes");
  const std::string_view header = header_length ? body.substr(0, *header_length) : body;
  std::string_view binary = header_length ? body.substr(*header_length) : std::string_view();
  const json request = json::parse(header, nullptr, false);
  if (request.is_discarded() || !request.is_object())
    bad_request("the request is not a JSON object");

  InferRequest result;
  if (request.contains("id")) result.id = string_member(request, "id", "the request");
  const json& inputs = member(request, "inputs");
  if (!inputs.is_array()) bad_request("the request has no \"inputs\" array");
  for (const json& input : inputs) {
    if (!input.is_object()) bad_request("each of \"inputs\" must be an object");
    const std::string& name = string_member(input, "name", "an input");
    const std::string what = "input '" + name + "'";
    const std::string& datatype = string_member(input, "datatype", what);
    const std::vector<int64_t> shape = read_shape(input, what);
    const DeclaredInput declared = check_input(model, name, datatype, shape, result.inputs);
    const json& parameters = parameters_of(input, what);
    if (!parameters.is_null() && parameters.contains("binary_data_size")) {
      const json& size = parameters.at("binary_data_size");
      if (!size.is_number_unsigned())
        bad_request(what + ": \"binary_data_size\" must be a whole number of bytes");
      if (!header_length)
        bad_request(what + ": binary data needs the Inference-Header-Content-Length header");
      if (size.get<uint64_t>() > binary.size())
        bad_request(what + ": its " + std::to_string(size.get<uint64_t>()) +
                    " bytes of binary data run past the end of the body");
      const size_t n = size.get<size_t>();
      result.inputs.emplace_back(
          name, tensor_from_binary(binary.substr(0, n), declared.type, declared.shape, name));
      binary.remove_prefix(n);
    } else {
      if (!input.contains("data")) bad_request(what + " has no \"data\"");
      result.inputs.emplace_back(
          name, tensor_from_json(input.at("data"), declared.type, declared.shape, name));
    }
  }
  if (!binary.empty())
    bad_request(std::to_string(binary.size()) +
                " bytes after the JSON header are not claimed by any input's binary_data_size");
  check_inputs_complete(model, result.inputs);

  const bool all_binary = bool_parameter(parameters_of(request, "the request"),
                                         "binary_data_output", false, "the request");
  const json& outputs = member(request, "outputs");
  if (!outputs.is_null() && !outputs.is_array())
    bad_request("\"outputs\" must be an array of objects");
  if (outputs.is_null() || outputs.empty()) {
    for (const ValueInfo& info : model.outputs()) result.outputs.push_back({info.name, all_binary});
    return result;
  }
  for (const json& output : outputs) {
    if (!output.is_object()) bad_request("each of \"outputs\" must be an object");
    const std::string& name = string_member(output, "name", "an output");
    const std::string what = "output '" + name + "'";
    check_output(model, name, result.outputs);
    result.outputs.push_back(
        {name, bool_parameter(parameters_of(output, what), "binary_data", all_binary, what)});
  }
  return result;
}

}  // namespace bough::serve
