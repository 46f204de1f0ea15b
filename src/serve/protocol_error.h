// A request the server answers with an error: an HTTP status and {"error": message} over
// REST, the matching gRPC status code over gRPC.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace bough::serve {

// HTTP statuses the protocol's errors use.
inline constexpr int kBadRequest = 400;
inline constexpr int kNotFound = 404;
inline constexpr int kUnsupportedMediaType = 415;
inline constexpr int kInternalError = 500;
inline constexpr int kUnavailable = 503;

class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(int status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Throws ProtocolError(400, message).
[[noreturn]] inline void bad_request(const std::string& message) {
  throw ProtocolError(kBadRequest, message);
}

// The answer to a failed request, as an HTTP status and a message.
struct ErrorReply {
  int status;
  std::string message;
};

// The reply to whatever `error` holds: a ProtocolError's own status; for bough::Error, 400 for
// bad input, 503 for a run stopped by its time or memory limit (the server declining), 500
// otherwise; 503 for std::bad_alloc; 500 for anything else.
ErrorReply error_reply(std::exception_ptr error);

}  // namespace bough::serve
