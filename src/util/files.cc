#include "util/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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
  const ReadOnlyFile file(path);
  std::string bytes(static_cast<size_t>(file.size()), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(file.fd(), bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) fail(ErrorKind::IO, path, std::string("cannot read: ") + std::strerror(errno));
    if (got == 0) fail(ErrorKind::IO, path, "cannot read: the file shrank while it was read");
    done += static_cast<size_t>(got);
  }
  return bytes;
}

std::string path_inside_folder(const std::string& folder, const std::string& relative,
                               const std::string& where, const std::string& what) {
  namespace fs = std::filesystem;
  const fs::path rel(relative);
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory())
    fail(ErrorKind::InvalidModel, where,
         what + " '" + relative + "' is absolute; it must be relative to the model");
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(fs::path(folder.empty() ? "." : folder), ec);
  const fs::path file = ec ? fs::path() : fs::weakly_canonical(base / rel, ec);
  auto [base_end, file_it] = std::mismatch(base.begin(), base.end(), file.begin(), file.end());
  if (ec || base_end != base.end())
    fail(ErrorKind::InvalidModel, where, what + " '" + relative + "' leaves the model's folder");
  return file.string();
}

ReadOnlyFile::ReadOnlyFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO waits for a writer otherwise. The type is known only once
  // the file is open (checking the path first would race with a rename).
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd_ < 0) fail(ErrorKind::IO, path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  const char* refused = nullptr;
  if (::fstat(fd_, &st) != 0 || st.st_size < 0)
    refused = "cannot read";
  else if (S_ISDIR(st.st_mode))
    refused = "is a folder, not a file";
  else if (!S_ISREG(st.st_mode))
    refused = "is not a regular file (a FIFO, device or socket is not read)";
  else if (::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK) != 0)
    refused = "cannot read";
  if (refused) {
    ::close(fd_);
    fail(ErrorKind::IO, path, refused);
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
