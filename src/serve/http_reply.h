// How the REST endpoints answer an error: the protocol's {"error": "message"} with the status
// of serve/protocol_error.h. For files that include httplib.h.
#pragma once

#include <exception>
#include <string>

#include "serve/protocol_error.h"

namespace httplib {
struct Response;
}

namespace bough::serve {

void send_error(httplib::Response& res, int status, const std::string& message);

// Runs `handle`, answering whatever it throws with the protocol's error object.
template <typename Handle>
void answer(httplib::Response& res, Handle&& handle) {
  try {
    handle();
  } catch (...) {
    const ErrorReply reply = error_reply(std::current_exception());
    send_error(res, reply.status, reply.message);
  }
}

}  // namespace bough::serve
