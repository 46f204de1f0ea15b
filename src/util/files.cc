#include "util/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "bough/error.h"

namespace bough {

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec)) return fs::equivalent(a, b, ec);
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(ErrorKind::IO, path, "is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::IO, path, std::string("cannot open: ") + std::strerror(errno));
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) fail(ErrorKind::IO, path, "cannot read");
  std::string bytes(static_cast<size_t>(size), '\0');
  in.seekg(0);
  in.read(bytes.data(), size);
  if (!in) fail(ErrorKind::IO, path, "cannot read");
  return bytes;
}

ReadOnlyFile::ReadOnlyFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) fail(ErrorKind::IO, path, "is a folder, not a file");
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fail(ErrorKind::IO, path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || st.st_size < 0) {
    ::close(fd_);
    fail(ErrorKind::IO, path, "cannot read");
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

ReadOnlyFile::~ReadOnlyFile() { ::close(fd_); }

void require_writable_folder(const std::string& path) {
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    fail(ErrorKind::IO, path, "cannot write: " + folder.string() + " is not a folder");
  if (::access(folder.c_str(), W_OK) != 0)
    fail(ErrorKind::IO, path, std::string("cannot write: ") + std::strerror(errno));
}

void write_file_atomic(const std::string& path, std::string_view bytes, bool overwrite) {
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec))
    fail(ErrorKind::IO, path, "exists already (not overwriting)");
  std::string tmp = path + ".tmp-bough";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail(ErrorKind::IO, path, std::string("cannot write: ") + std::strerror(errno));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      fail(ErrorKind::IO, path, "cannot write (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = std::strerror(errno);
    std::remove(tmp.c_str());
    fail(ErrorKind::IO, path, "cannot replace file: " + why);
  }
}

}  // namespace bough
