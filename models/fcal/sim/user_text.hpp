#pragma once
// Text from the user (keys, values, paths, input tokens) as it appears in a one-line error message:
// control characters (DEL included, which JSON leaves as it is) written as \u00XX, so that nothing
// reaches the terminal as a control sequence or breaks the line, and long text cut to a readable
// length with its size named (a 10 000-character key or a 3 MB token is not worth printing).
// SystemC-free: fcal-codec uses it too.
#include <cstddef>
#include <string>
#include <string_view>

namespace fcal::sim {

// How many bytes of one piece of user text a message shows.
constexpr std::size_t kShownBytes = 80;

// Control characters as \u00XX; nothing cut.
std::string escape_controls(std::string_view text);
// Escaped, and at most `most` bytes of the text followed by "... (N bytes)".
std::string shortened(std::string_view text, std::size_t most = kShownBytes);
// In JSON string syntax ("..." with escapes; invalid UTF-8 replaced), escaped and shortened.
std::string quoted_text(std::string_view text, std::size_t most = kShownBytes);

}  // namespace fcal::sim
