#include "serve/http_api.h"

#include <httplib.h>

#include <charconv>
#include <nlohmann/json.hpp>

#include "serve/datatype.h"
#include "serve/http_reply.h"
#include "serve/infer_request.h"
#include "serve/infer_response.h"
#include "serve/protocol_error.h"

namespace bough::serve {

using nlohmann::json;

namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kHeaderLength = "Inference-Header-Content-Length";

// The model a URL names (matches[1]), at the version it names (matches[2], optional).
std::shared_ptr<ServedModel> find_model(const ApiState& state, const httplib::Request& req) {
  return serve::find_model(state, req.matches[1].str(), req.matches[2].str());
}

json tensor_metadata(const ValueInfo& info) {
  return {
      {"name", info.name}, {"datatype", datatype_name(info.elem)}, {"shape", metadata_shape(info)}};
}

json model_metadata(const ServedModel& model) {
  json inputs = json::array(), outputs = json::array();
  for (const ValueInfo& info : model.inputs()) inputs.push_back(tensor_metadata(info));
  for (const ValueInfo& info : model.outputs()) outputs.push_back(tensor_metadata(info));
  return {{"name", model.name()},
          {"versions", {model.version()}},
          {"platform", kPlatform},
          {"inputs", inputs},
          {"outputs", outputs}};
}

std::optional<size_t> header_length(const httplib::Request& req) {
  if (!req.has_header(kHeaderLength)) return std::nullopt;
  const std::string text = req.get_header_value(kHeaderLength);
  size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size())
    bad_request(std::string(kHeaderLength) + " must be a whole number, got \"" + text + "\"");
  return value;
}

void infer(ServedModel& model, const httplib::Request& req, httplib::Response& res) {
  RequestTimer timer(model.metrics());
  const InferRequest request = parse_infer_request(req.body, header_length(req), model);
  const NamedValues outputs = model.run(request.inputs, timer.times);
  InferResponse response = make_infer_response(model.name(), model.version(), request, outputs);
  timer.succeeded();
  if (response.header_length) {
    res.set_header(kHeaderLength, std::to_string(*response.header_length));
    res.set_content(std::move(response.body), "application/octet-stream");
  } else {
    res.set_content(std::move(response.body), kJson);
  }
}

}  // namespace

void send_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace),
                  kJson);
}

void add_api_routes(httplib::Server& server, ApiState& state) {
  const std::string model_path = R"(/v2/models/([^/]+)(?:/versions/([^/]+))?)";
  server.Get("/v2", [&state](const httplib::Request&, httplib::Response& res) {
    const json metadata = {{"name", kServerName},
                           {"version", state.server_version},
                           {"extensions", server_extensions()}};
    res.set_content(metadata.dump(), kJson);
  });
  // Health answers with the status alone: 200 for true, 400 for false (the protocol's 4xx).
  server.Get("/v2/health/live",
             [](const httplib::Request&, httplib::Response& res) { res.status = 200; });
  server.Get("/v2/health/ready", [&state](const httplib::Request&, httplib::Response& res) {
    res.status = state.ready.load() ? 200 : kBadRequest;
  });
  server.Get(model_path, [&state](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] { res.set_content(model_metadata(*find_model(state, req)).dump(), kJson); });
  });
  server.Get(model_path + "/ready", [&state](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      const std::string name = req.matches[1].str();
      if (model_ready(state, name, req.matches[2].str()))
        res.status = 200;
      else
        send_error(res, kBadRequest,
                   "model '" + name +
                       "' is not ready: " + state.models.unavailable(name).value_or("not loaded"));
    });
  });
  server.Post(model_path + "/infer", [&state](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] { infer(*find_model(state, req), req, res); });
  });

  // A compressed body is refused before it is read: decompressing it would escape the limit
  // on request size.
  server.set_pre_routing_handler([](const httplib::Request& req, httplib::Response& res) {
    const std::string encoding = req.get_header_value("Content-Encoding");
    if (encoding.empty() || encoding == "identity")
      return httplib::Server::HandlerResponse::Unhandled;
    send_error(res, kUnsupportedMediaType,
               "Content-Encoding '" + encoding + "' is not accepted; send the body as it is");
    return httplib::Server::HandlerResponse::Handled;
  });
  // Errors httplib answers itself (no such endpoint, a body over the limit, a malformed
  // request) get the protocol's error object too; health answers keep their empty body.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty() || req.path.starts_with("/v2/health/")) return;
    std::string message = "HTTP status " + std::to_string(res.status);
    if (res.status == 404) message = "no endpoint " + req.method + " " + req.path;
    if (res.status == 413) message = "the request body is larger than the server's limit";
    send_error(res, res.status, message);
  });
  server.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
        answer(res, [&] { std::rethrow_exception(error); });
      });
}

}  // namespace bough::serve
