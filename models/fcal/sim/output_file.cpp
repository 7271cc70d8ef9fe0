#include "fcal/sim/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fcal/sim/user_text.hpp"

namespace fcal::sim {

namespace {

namespace fs = std::filesystem;

std::string named(const std::string& option, const std::string& path) { return option + ": '" + escape_controls(path) + "'"; }

// Where the data really go: an existing symbolic link is followed, so that renaming replaces the
// file it points to and not the link.
std::string target_of(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_symlink(path, ec)) return path;
    const fs::path real = fs::weakly_canonical(path, ec);
    return ec ? path : real.string();
}

}  // namespace

void OutputFile::check_target(const std::string& option, const std::string& path, bool file_only)
{
    if (path.empty()) throw ConfigError(option + ": an empty path");
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throw ConfigError(named(option, path) + " is a directory");
        if (S_ISREG(st.st_mode)) return;
        if ((S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) && !file_only) return;
        throw ConfigError(named(option, path) + (file_only ? " is not a regular file" : " is not a regular file, character device or pipe"));
    }
    if (errno != ENOENT) throw ConfigError(named(option, path) + ": " + std::strerror(errno));
    const fs::path folder = fs::path(target_of(path)).parent_path();
    std::error_code ec;
    if (!folder.empty() && !fs::is_directory(folder, ec))
        throw ConfigError(named(option, path) + ": no folder " + escape_controls(folder.string()));
}

OutputFile::OutputFile(const std::string& option, const std::string& path, const std::string& suffix)
    : option_(option), path_(target_of(path))
{
    check_target(option, path, !suffix.empty());
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        direct_ = true;
        pipe_ = S_ISFIFO(st.st_mode);
        temporary_ = path_;
        return;
    }
    const fs::path target(path_);
    const fs::path folder = target.parent_path();
    const std::string pattern = (folder.empty() ? std::string() : folder.string() + "/") + "." + target.filename().string() +
                                ".XXXXXX" + suffix;
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    const int fd = ::mkstemps(name.data(), static_cast<int>(suffix.size()));
    if (fd < 0) throw ConfigError(named(option, path) + ": cannot write in its folder (" + std::strerror(errno) + ")");
    temporary_ = name.data();
    // mkstemp makes the file private; give it the target's permissions, or the usual ones.
    mode_t mode = 0;
    if (::stat(path_.c_str(), &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        mode = 0666 & ~mask;
    }
    ::fchmod(fd, mode);
    ::close(fd);
}

OutputFile::~OutputFile()
{
    if (out_.is_open()) out_.close();
    if (!committed_ && !direct_) ::unlink(temporary_.c_str());
}

std::ostream& OutputFile::stream()
{
    if (!out_.is_open()) out_.open(temporary_, std::ios::binary | (direct_ ? std::ios::out : std::ios::trunc));
    if (!out_.is_open()) out_.setstate(std::ios::badbit);
    return out_;
}

std::string OutputFile::error(const std::string& why) const { return named(option_, path_) + ": cannot write (" + why + ")"; }

std::string OutputFile::finish()
{
    if (!out_.is_open()) return "";
    out_.flush();
    const bool written = out_.good();
    out_.close();
    if (written && !out_.fail()) return "";
    if (pipe_) return error("a write failed");  // the reader gets no probe byte
    // The stream keeps no errno, and the failing write may lie far back: ask the file system again
    // with one more byte (the file is discarded anyway).
    const int fd = ::open(temporary_.c_str(), O_WRONLY | O_APPEND);
    const bool again = fd >= 0 && ::write(fd, "\n", 1) == 1;
    const int why = errno;
    if (fd >= 0) ::close(fd);
    return error(again ? "a write failed" : std::strerror(why));
}

std::string OutputFile::commit()
{
    if (direct_) return "";
    if (::rename(temporary_.c_str(), path_.c_str()) != 0) return error(std::string("renaming the finished file: ") + std::strerror(errno));
    committed_ = true;
    return "";
}

}  // namespace fcal::sim
