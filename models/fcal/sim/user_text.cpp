#include "fcal/sim/user_text.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

namespace fcal::sim {

namespace {

// Cut before escaping, so that an escape sequence is never cut in half.
std::string_view cut(std::string_view text, std::size_t most) { return text.substr(0, most); }

std::string size_note(std::string_view text, std::size_t most)
{
    return text.size() > most ? "... (" + std::to_string(text.size()) + " bytes)" : "";
}

}  // namespace

std::string escape_controls(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7F) {
            out += c;
            continue;
        }
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
        out += escaped;
    }
    return out;
}

std::string shortened(std::string_view text, std::size_t most) { return escape_controls(cut(text, most)) + size_note(text, most); }

std::string quoted_text(std::string_view text, std::size_t most)
{
    using nlohmann::json;
    const std::string json_text = json(std::string(cut(text, most))).dump(-1, ' ', false, json::error_handler_t::replace);
    return escape_controls(json_text) + size_note(text, most);
}

}  // namespace fcal::sim
