#include "formats/onnx/external_data.h"

#include <filesystem>
#include <fstream>

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
  fs::path rel(location);
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
    fail(ErrorKind::InvalidModel, where,
         "external data location '" + location + "' is absolute; it must be relative to the model");
  if (model_dir.empty()) fail(ErrorKind::InvalidModel, where, "external data is not allowed here");
  std::error_code ec;
  fs::path base = fs::weakly_canonical(fs::path(model_dir), ec);
  fs::path file = fs::weakly_canonical(base / rel, ec);
  auto [base_end, file_it] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (ec || base_end != base.end())
    fail(ErrorKind::InvalidModel, where,
         "external data location '" + location + "' leaves the model's folder");
  if (!fs::is_regular_file(file, ec))
    fail(ErrorKind::InvalidModel, where,
         "external data location '" + location + "' is not a regular file");
  if (length >= 0 && length != nbytes)
    fail(ErrorKind::InvalidModel, where,
         "external data length " + std::to_string(length) + " does not match the " +
             std::to_string(nbytes) + " bytes the tensor's shape needs");
  file_ = file.string();
  in_.open(file, std::ios::binary);
  if (!in_) fail(ErrorKind::IO, where, "cannot open external data file " + file_);
  in_.seekg(0, std::ios::end);
  auto size = static_cast<int64_t>(in_.tellg());
  if (offset > size || nbytes > size - offset)
    fail(ErrorKind::InvalidModel, where,
         "external data [" + std::to_string(offset) + ", +" + std::to_string(nbytes) +
             ") is outside " + file_ + " (" + std::to_string(size) + " bytes)");
  offset_ = offset;
}

void ExternalData::read_into(void* out) {
  if (nbytes_ == 0) return;
  in_.seekg(offset_);
  in_.read(static_cast<char*>(out), nbytes_);
  if (!in_) fail(ErrorKind::IO, where_, "cannot read external data from " + file_);
}

}  // namespace bough::onnx
