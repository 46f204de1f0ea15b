#include "serve/http_repository.h"

#include <httplib.h>

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>

#include "serve/http_reply.h"
#include "serve/model_control.h"

namespace bough::serve {

using nlohmann::json;

namespace {

// The request body: empty, or a JSON object whose keys are among `keys`.
json read_body(const httplib::Request& req, std::initializer_list<const char*> keys) {
  if (req.body.empty()) return json::object();
  json body = json::parse(req.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) bad_request("the body must be a JSON object");
  for (const auto& item : body.items()) {
    if (std::find_if(keys.begin(), keys.end(), [&](const char* k) { return item.key() == k; }) ==
        keys.end())
      bad_request("unknown key \"" + item.key() + "\" in the request");
  }
  return body;
}

// A load or unload request's "parameters": an object, each key as check_control_parameter
// says.
void check_parameters(const json& body) {
  if (!body.contains("parameters")) return;
  const json& parameters = body["parameters"];
  if (!parameters.is_object()) bad_request("\"parameters\" must be an object");
  for (const auto& item : parameters.items()) check_control_parameter(item.key());
}

}  // namespace

void add_repository_routes(httplib::Server& server, ModelControl& control) {
  server.Post(
      "/v2/repository/index", [&control](const httplib::Request& req, httplib::Response& res) {
        answer(res, [&] {
          const json body = read_body(req, {"ready"});
          if (body.contains("ready") && !body["ready"].is_boolean())
            bad_request("\"ready\" must be true or false");
          json index = json::array();
          for (const IndexEntry& entry : control.index(body.value("ready", false))) {
            json line = {{"name", entry.name}, {"state", entry.state}, {"reason", entry.reason}};
            if (!entry.version.empty()) line["version"] = entry.version;
            index.push_back(std::move(line));
          }
          res.set_content(index.dump(-1, ' ', false, json::error_handler_t::replace),
                          "application/json");
        });
      });
  server.Post(R"(/v2/repository/models/([^/]+)/(load|unload))",
              [&control](const httplib::Request& req, httplib::Response& res) {
                answer(res, [&] {
                  check_parameters(read_body(req, {"parameters"}));
                  if (req.matches[2].str() == "load")
                    control.load(req.matches[1].str());
                  else
                    control.unload(req.matches[1].str());
                  res.status = 200;
                });
              });
}

}  // namespace bough::serve
