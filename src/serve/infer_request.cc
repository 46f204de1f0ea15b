#include "serve/infer_request.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "serve/datatype.h"
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

const ValueInfo* find_info(const std::vector<ValueInfo>& infos, const std::string& name) {
  const auto it = std::find_if(infos.begin(), infos.end(),
                               [&](const ValueInfo& info) { return info.name == name; });
  return it == infos.end() ? nullptr : &*it;
}

Dims read_shape(const json& input, const std::string& what) {
  const json& shape = member(input, "shape");
  if (!shape.is_array()) bad_request(what + ": \"shape\" must be an array of whole numbers");
  std::vector<int64_t> dims;
  for (const json& d : shape) {
    if (!d.is_number_integer()) bad_request(what + ": \"shape\" must be an array of whole numbers");
    dims.push_back(
        d.is_number_unsigned() && d.get<uint64_t>() > uint64_t{INT64_MAX} ? -1 : d.get<int64_t>());
  }
  element_count(dims, what);
  return Dims(std::span<const int64_t>(dims));
}

// The datatype and shape against what the model declares for the input.
void check_fits(const ValueInfo& info, ElemType type, const Dims& shape, const std::string& what) {
  if (info.elem != ElemType::Undefined && info.elem != type)
    bad_request(what + ": datatype " + datatype_name(type) + ", the model takes " +
                datatype_name(info.elem));
  if (!info.rank_known) return;
  bool fits = info.shape.size() == shape.size();
  for (size_t i = 0; fits && i < shape.size(); ++i)
    fits = !info.shape[i].known() || info.shape[i].size == shape[i];
  if (fits) return;
  std::string declared = "[";
  for (size_t i = 0; i < info.shape.size(); ++i)
    declared += (i ? "," : "") + std::to_string(info.shape[i].known() ? info.shape[i].size : -1);
  bad_request(what + ": shape " + shape_string(shape) + ", the model takes " + declared + "]");
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
    const ValueInfo* info = find_info(model.inputs(), name);
    if (!info) bad_request(what + ": model '" + model.name() + "' has no such input");
    for (const auto& [seen, value] : result.inputs)
      if (seen == name) bad_request(what + " is given twice");
    const std::string& datatype = string_member(input, "datatype", what);
    const std::optional<ElemType> type = parse_datatype(datatype);
    if (!type) bad_request(what + ": unknown datatype \"" + datatype + "\"");
    const Dims shape = read_shape(input, what);
    check_fits(*info, *type, shape, what);
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
      result.inputs.emplace_back(name, tensor_from_binary(binary.substr(0, n), *type, shape, name));
      binary.remove_prefix(n);
    } else {
      if (!input.contains("data")) bad_request(what + " has no \"data\"");
      result.inputs.emplace_back(name, tensor_from_json(input.at("data"), *type, shape, name));
    }
  }
  if (!binary.empty())
    bad_request(std::to_string(binary.size()) +
                " bytes after the JSON header are not claimed by any input's binary_data_size");
  for (const ValueInfo& info : model.inputs()) {
    const bool given = std::any_of(result.inputs.begin(), result.inputs.end(),
                                   [&](const auto& input) { return input.first == info.name; });
    if (!given && !info.has_default) bad_request("input '" + info.name + "' is missing");
  }

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
    if (!find_info(model.outputs(), name))
      bad_request(what + ": model '" + model.name() + "' has no such output");
    for (const RequestedOutput& seen : result.outputs)
      if (seen.name == name) bad_request(what + " is asked for twice");
    result.outputs.push_back(
        {name, bool_parameter(parameters_of(output, what), "binary_data", all_binary, what)});
  }
  return result;
}

}  // namespace bough::serve
