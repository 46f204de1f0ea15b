// Whole-file reads and crash-safe writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace bough {

// Reads a whole file; throws Error(IO) naming the path. Only regular files are read (see
// ReadOnlyFile).
std::string read_file(const std::string& path);

// The canonical path that `relative` names inside `folder` (empty: the current folder), for
// the files a model refers to. Throws Error(InvalidModel, where) saying "<what> '<relative>'
// ..." when `relative` is absolute or resolves outside the folder, through ".." or a symlink.
std::string path_inside_folder(const std::string& folder, const std::string& relative,
                               const std::string& where, const std::string& what);

// A file opened for reading (throws Error(IO) naming the path, as read_file does), for
// callers that stream it instead of holding it whole; closed when this goes. Only a regular
// file is opened: a FIFO, a device or a socket is refused without blocking (opening a FIFO
// for reading waits for a writer; reading a device may never end).
class ReadOnlyFile {
 public:
  explicit ReadOnlyFile(const std::string& path);
  ~ReadOnlyFile();
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  int fd() const { return fd_; }
  // Bytes, when it was opened.
  uint64_t size() const { return size_; }

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
};

// Whether two paths name the same file (also when `b` does not exist yet: by their
// canonical spelling).
bool same_file(const std::string& a, const std::string& b);

// Throws Error(IO) naming `path` when its folder does not exist or cannot be written, for
// commands that write their result only after long work.
void require_writable_folder(const std::string& path);

// Writes to a temporary file in the same folder, then renames it over `path`, so a failed
// write leaves any old file intact. Refuses to replace an existing file unless `overwrite`.
void write_file_atomic(const std::string& path, std::string_view bytes, bool overwrite = true);

}  // namespace bough
