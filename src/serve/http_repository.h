// The REST endpoints of Triton's model repository extension: POST /v2/repository/index,
// POST /v2/repository/models/NAME/load and .../unload.
#pragma once

namespace httplib {
class Server;
}

namespace bough::serve {

class ModelControl;

void add_repository_routes(httplib::Server& server, ModelControl& control);

}  // namespace bough::serve
