// How user text appears in messages (fcal/sim/user_text.hpp): escaped control characters, cut length.
#include <catch2/catch.hpp>

#include <string>

#include "fcal/sim/user_text.hpp"

using namespace fcal::sim;

TEST_CASE("user_text: control characters are escaped, printable text kept")
{
    CHECK(escape_controls("disk.count") == "disk.count");
    CHECK(escape_controls(std::string("a\0b", 3)) == R"(a\u0000b)");
    CHECK(escape_controls("\x1b[31m\n\x7f") == R"(\u001b[31m\u000a\u007f)");
    CHECK(escape_controls("caf\xc3\xa9") == "caf\xc3\xa9");  // UTF-8 stays
}

TEST_CASE("user_text: long text is cut with its size named")
{
    CHECK(shortened("short") == "short");
    CHECK(shortened(std::string(kShownBytes, 'x')) == std::string(kShownBytes, 'x'));
    CHECK(shortened(std::string(kShownBytes + 1, 'x')) == std::string(kShownBytes, 'x') + "... (81 bytes)");
    CHECK(shortened(std::string(3000000, '1'), 10) == "1111111111... (3000000 bytes)");
    // Cut before escaping: an escape sequence is never cut in half.
    CHECK(shortened(std::string(5, '\x01'), 2) == R"(\u0001\u0001... (5 bytes))");
}

TEST_CASE("user_text: quoted text is a JSON string, escaped and cut")
{
    CHECK(quoted_text("disk count") == R"("disk count")");
    CHECK(quoted_text(std::string("\0x", 2)) == R"("\u0000x")");
    CHECK(quoted_text("a\x7f") == R"("a\u007f")");
    CHECK(quoted_text(std::string(100, 'k'), 4) == R"("kkkk"... (100 bytes))");
    CHECK(quoted_text("\xff") == "\"\xef\xbf\xbd\"");  // invalid UTF-8 replaced, not thrown
}
