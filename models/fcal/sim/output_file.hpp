#pragma once
// One output file of a run (README, "fcal-sim"), written so that nothing already at its path is
// lost: the data go to a temporary file beside the target, created only once the run has passed
// every check, and it is renamed onto the target only when complete and written without error. A
// refused, failed or interrupted run leaves whatever was at the path as it was. (A kill that gives
// no chance to clean up, SIGKILL, leaves the temporary file, ".NAME.XXXXXX", beside the target.)
// A character device or a pipe (/dev/null, /dev/stdout on a terminal, a FIFO) holds no file to lose
// and cannot be renamed onto: it is written directly, its writes checked the same way.
#include <fstream>
#include <string>

#include "fcal/sim/parameter_table.hpp"

namespace fcal::sim {

class OutputFile {
public:
    // Refuses, with a ConfigError naming the option and the path: an empty path, a folder that does
    // not exist, a directory, a block device or socket, and (`file_only`: for writers that need a file
    // name of their own) a character device or pipe. Creates nothing.
    static void check_target(const std::string& option, const std::string& path, bool file_only = false);

    // check_target, then creates the temporary file beside the target (its name ends in `suffix`:
    // SystemC's VCD writer adds ".vcd" to the name it is given; a suffix implies file_only).
    // ConfigError if it cannot.
    OutputFile(const std::string& option, const std::string& path, const std::string& suffix = "");
    ~OutputFile();  // removes the temporary file unless it was committed
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    const std::string& path() const { return path_; }
    const std::string& temporary() const { return temporary_; }
    // The temporary file as a stream, for what this program writes itself (other writers are given
    // temporary()).
    std::ostream& stream();
    // Flushes and closes the stream: "" when every write succeeded, else a one-line error naming the
    // option and the path.
    std::string finish();
    // The same error text for a failure found otherwise (a writer that does not report its own).
    std::string error(const std::string& why) const;
    // Renames the temporary file onto the target: "" or the error.
    std::string commit();

private:
    std::string option_, path_, temporary_;
    std::ofstream out_;
    bool direct_ = false;  // a device or pipe, written as it is: temporary_ is path_
    bool pipe_ = false;
    bool committed_ = false;
};

}  // namespace fcal::sim
