#include "fcal/sim/fst_converter.hpp"

#include <cerrno>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace fcal::sim {

bool FstConverter::wanted(const std::string& path)
{
    if (path.size() < 4) return false;
    std::string ext = path.substr(path.size() - 4);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".fst";
}

std::string FstConverter::program()
{
    const char* path = std::getenv("PATH");
    std::istringstream folders(path ? path : "/usr/bin:/bin");
    for (std::string folder; std::getline(folders, folder, ':');) {
        const std::string candidate = (folder.empty() ? std::string(".") : folder) + "/vcd2fst";
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "";
}

std::string FstConverter::convert(const std::string& vcd, const std::string& fst)
{
    const std::string exe = program();
    if (exe.empty()) return "vcd2fst is no longer on PATH";
    // vcd2fst talks on stdout and stderr (progress, a summary): not fcal-sim's output.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::string a0 = exe, a1 = "--vcdname", a2 = vcd, a3 = "--fstname", a4 = fst;
    char* argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), a4.data(), nullptr};
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return std::string("cannot run vcd2fst: ") + std::strerror(spawned);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return std::string("waiting for vcd2fst: ") + std::strerror(errno);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        // vcd2fst exits 0 whatever happened (even for a file that is not a VCD): at least see a file.
        struct stat st {};
        if (::stat(fst.c_str(), &st) != 0 || st.st_size == 0) return "vcd2fst wrote nothing";
        return "";
    }
    if (WIFEXITED(status)) return "vcd2fst failed (exit " + std::to_string(WEXITSTATUS(status)) + ")";
    return "vcd2fst was killed by signal " + std::to_string(WTERMSIG(status));
}

}  // namespace fcal::sim
