#include "serve/infer_response.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "serve/datatype.h"
#include "serve/infer_checks.h"
#include "serve/tensor_data.h"

namespace bough::serve {

namespace {

std::string quoted(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

InferResponse make_infer_response(const std::string& model_name, const std::string& version,
                                  const InferRequest& request, const NamedValues& outputs) {
  std::string json =
      "{\"model_name\":" + quoted(model_name) + ",\"model_version\":" + quoted(version);
  if (request.id) json += ",\"id\":" + quoted(*request.id);
  json += ",\"outputs\":[";
  std::string binary;
  for (size_t i = 0; i < request.outputs.size(); ++i) {
    const RequestedOutput& wanted = request.outputs[i];
    const Tensor& t = output_tensor(outputs, wanted.name);
    json += i ? ",{" : "{";
    json += "\"name\":" + quoted(wanted.name) + ",\"datatype\":\"" + datatype_name(t.type()) +
            "\",\"shape\":" + shape_string(t.shape());
    if (wanted.binary) {
      const size_t size = append_binary_data(binary, t);
      json += ",\"parameters\":{\"binary_data_size\":" + std::to_string(size) + "}}";
    } else {
      json += ",\"data\":";
      append_json_data(json, t);
      json += "}";
    }
  }
  json += "]}";
  if (binary.empty() && std::none_of(request.outputs.begin(), request.outputs.end(),
                                     [](const RequestedOutput& o) { return o.binary; }))
    return {std::move(json), std::nullopt};
  InferResponse response{std::move(json), std::nullopt};
  response.header_length = response.body.size();
  response.body += binary;
  return response;
}

}  // namespace bough::serve
