#include "serve/protocol_error.h"

#include <new>

#include "bough/error.h"

namespace bough::serve {

ErrorReply error_reply(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const ProtocolError& e) {
    return {e.status(), e.what()};
  } catch (const Error& e) {
    switch (e.kind()) {
      case ErrorKind::BadInput:
        return {kBadRequest, e.what()};
      case ErrorKind::Stopped:
        return {kUnavailable, e.what()};
      default:
        return {kInternalError, e.what()};
    }
  } catch (const std::bad_alloc&) {
    return {kUnavailable, "not enough memory for this request"};
  } catch (const std::exception& e) {
    return {kInternalError, e.what()};
  } catch (...) {
    return {kInternalError, "an unknown failure"};
  }
}

}  // namespace bough::serve
