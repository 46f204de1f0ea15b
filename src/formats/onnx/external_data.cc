#include "formats/onnx/external_data.h"

#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "bough/error.h"

namespace bough::onnx {

namespace fs = std::filesystem;

namespace {

int64_t parse_size(const std::string& text, const std::string& key, const std::string& where) {
  size_t used = 0;
  long long v = -1;
  try {
    v = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v < 0)
    fail(ErrorKind::InvalidModel, where, "external data " + key + " '" + text + "' is not a size");
  return v;
}

}  // namespace

ExternalData::ExternalData(const onnxpb::TensorProto& proto, const std::string& model_dir,
                           int64_t nbytes, const std::string& where)
    : nbytes_(nbytes), where_(where) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const auto& entry : proto.external_data()) {
    if (entry.key() == "location")
      location = entry.value();
    else if (entry.key() == "offset")
      offset = parse_size(entry.value(), "offset", where);
    else if (entry.key() == "length")
      length = parse_size(entry.value(), "length", where);
  }
  if (location.empty()) fail(ErrorKind::InvalidModel, where, "external data has no location");
  if (model_dir.empty()) fail(ErrorKind::InvalidModel, where, "external data is not allowed here");
  file_ = path_inside_folder(model_dir, location, where, "external data location");
  std::error_code ec;
  if (!fs::is_regular_file(file_, ec))
    fail(ErrorKind::InvalidModel, where,
         "external data location '" + location + "' is not a regular file");
  if (length >= 0 && length != nbytes)
    fail(ErrorKind::InvalidModel, where,
         "external data length " + std::to_string(length) + " does not match the " +
             std::to_string(nbytes) + " bytes the tensor's shape needs");
  in_ = std::make_unique<ReadOnlyFile>(file_);
  const auto size = static_cast<int64_t>(in_->size());
  if (offset > size || nbytes > size - offset)
    fail(ErrorKind::InvalidModel, where,
         "external data [" + std::to_string(offset) + ", +" + std::to_string(nbytes) +
             ") is outside " + file_ + " (" + std::to_string(size) + " bytes)");
  offset_ = offset;
}

void ExternalData::read_into(void* out) {
  auto* at = static_cast<char*>(out);
  for (int64_t done = 0; done < nbytes_;) {
    const ssize_t got = ::pread(in_->fd(), at + done, static_cast<size_t>(nbytes_ - done),
                                static_cast<off_t>(offset_ + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) fail(ErrorKind::IO, where_, "cannot read external data from " + file_);
    done += got;
  }
}

}  // namespace bough::onnx
