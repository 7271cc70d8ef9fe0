#pragma once
// Test-only helper for twin runs of whole simulations (SystemC elaborates once per process): `body`
// runs in a child process and hands back its JSON through a pipe; an exception in it comes back as
// {"error": what}, which fails the test with its text.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <exception>
#include <string>

#include <nlohmann/json.hpp>

namespace fcal::test {

template <class Body>
nlohmann::json in_child(Body&& body)
{
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        ::close(fds[0]);
        std::string out;
        try {
            out = body().dump();
        } catch (const std::exception& e) {
            out = nlohmann::json{{"error", e.what()}}.dump();
        }
        for (std::size_t done = 0; done < out.size();) {
            const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
            if (n <= 0) ::_exit(1);
            done += static_cast<std::size_t>(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    const nlohmann::json doc = nlohmann::json::parse(text);
    INFO(doc.value("error", std::string()));
    REQUIRE(!doc.contains("error"));
    return doc;
}

}  // namespace fcal::test
