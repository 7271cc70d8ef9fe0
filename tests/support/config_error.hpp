#pragma once
// Test-only: the one-line message of the ConfigError an action throws (the test fails when it throws
// none), and a substring check for it.
#include <catch2/catch.hpp>
#include <string>

#include "fcal/sim/parameter_table.hpp"

namespace fcal::test {

template <typename F>
std::string error_of(F&& action)
{
    try {
        action();
    } catch (const sim::ConfigError& e) {
        const std::string message = e.what();
        CHECK(message.find('\n') == std::string::npos);
        return message;
    }
    FAIL("no ConfigError was thrown");
    return "";
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace fcal::test
