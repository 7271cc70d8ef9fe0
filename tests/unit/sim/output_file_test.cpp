// Outputs written atomically or not at all (fcal/sim/output_file.hpp): the temporary file beside the
// target, its removal when the run does not finish, the rename when it does, and the targets refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

#include "config_error.hpp"
#include "fcal/sim/output_file.hpp"

using namespace fcal::sim;
using fcal::test::contains;
using fcal::test::error_of;
namespace fs = std::filesystem;

namespace {

// A scratch folder for one test, named after the process.
class Folder {
public:
    Folder() : path_(fs::temp_directory_path() / ("fcal_output_file_test_" + std::to_string(::getpid())))
    {
        fs::remove_all(path_);
        fs::create_directory(path_);
    }
    ~Folder() { fs::remove_all(path_); }
    std::string operator/(const std::string& name) const { return (path_ / name).string(); }
    std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path_), fs::directory_iterator())); }

private:
    fs::path path_;
};

std::string read(const std::string& path)
{
    std::ostringstream text;
    text << std::ifstream(path).rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("output_file: the data reach the target only at commit")
{
    Folder dir;
    std::ofstream(dir / "p.stats") << "old\n";
    {
        OutputFile out("--stats-json", dir / "p.stats");
        CHECK(out.temporary() != out.path());
        CHECK(fs::path(out.temporary()).parent_path() == fs::path(dir / "p.stats").parent_path());
        out.stream() << "new\n";
        CHECK(out.finish().empty());
        CHECK(read(dir / "p.stats") == "old\n");
        CHECK(out.commit().empty());
    }
    CHECK(read(dir / "p.stats") == "new\n");
    CHECK(dir.entries() == 1);  // no temporary file left
}

TEST_CASE("output_file: a run that does not finish leaves the target as it was")
{
    Folder dir;
    std::ofstream(dir / "p.trace") << "old\n";
    {
        OutputFile out("--trace", dir / "p.trace");
        out.stream() << "half a li";
    }  // destroyed uncommitted: refused, failed or interrupted
    CHECK(read(dir / "p.trace") == "old\n");
    CHECK(dir.entries() == 1);
    {
        OutputFile out("--cdf", dir / "new.cdf");
    }
    CHECK_FALSE(fs::exists(dir / "new.cdf"));
}

TEST_CASE("output_file: the finished file keeps the target's permissions")
{
    Folder dir;
    std::ofstream(dir / "p.stats") << "old\n";
    fs::permissions(dir / "p.stats", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
    OutputFile out("--stats-json", dir / "p.stats");
    out.stream() << "new\n";
    REQUIRE(out.finish().empty());
    REQUIRE(out.commit().empty());
    CHECK(fs::status(dir / "p.stats").permissions() == (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
}

TEST_CASE("output_file: a symbolic link is followed, not replaced")
{
    Folder dir;
    std::ofstream(dir / "real.json") << "old\n";
    fs::create_symlink(dir / "real.json", dir / "link.json");
    OutputFile out("--stats-json", dir / "link.json");
    out.stream() << "new\n";
    REQUIRE(out.finish().empty());
    REQUIRE(out.commit().empty());
    CHECK(fs::is_symlink(dir / "link.json"));
    CHECK(read(dir / "real.json") == "new\n");
}

TEST_CASE("output_file: targets that cannot take a renamed file are refused before anything is made")
{
    Folder dir;
    CHECK(error_of([] { OutputFile::check_target("--trace", ""); }) == "--trace: an empty path");
    CHECK(contains(error_of([&] { OutputFile::check_target("--vcd", dir / ""); }), "is a directory"));
    CHECK(contains(error_of([&] { OutputFile::check_target("--vcd", "/dev/full", true); }), "'/dev/full' is not a regular file"));
    CHECK(contains(error_of([&] { OutputFile::check_target("--cdf", dir / "no/such/folder/x.csv"); }), "no folder"));
    CHECK(contains(error_of([&] { OutputFile::check_target("--cdf", dir / "no\x1b/x.csv"); }), R"(no\u001b)"));
    CHECK(dir.entries() == 0);
    // A suffix (the VCD writers') needs a file of its own.
    CHECK(contains(error_of([] { OutputFile("--vcd", "/dev/null", ".vcd"); }), "not a regular file"));
}

TEST_CASE("output_file: a device is written directly and its write errors are seen")
{
    OutputFile null("--trace", "/dev/null");
    CHECK(null.temporary() == "/dev/null");
    null.stream() << std::string(100000, 'x');
    CHECK(null.finish().empty());
    CHECK(null.commit().empty());
    CHECK(fs::is_character_file("/dev/null"));

    OutputFile full("--trace", "/dev/full");
    full.stream() << std::string(100000, 'x');
    const std::string error = full.finish();
    CHECK(error == "--trace: '/dev/full': cannot write (No space left on device)");
}

TEST_CASE("output_file: a folder that cannot be written is bad input")
{
    if (::geteuid() == 0) return;  // root writes anywhere
    Folder dir;
    fs::create_directory(dir / "ro");
    fs::permissions(dir / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    CHECK(contains(error_of([&] { OutputFile("--cdf", dir / "ro/x.csv"); }), "cannot write in its folder"));
}
