#include "fcal/sim/vcd_window.hpp"

#include <cmath>
#include <cstdlib>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <systemc>

#include "fcal/sim/parameter_table.hpp"
#include "fcal/sim/user_text.hpp"

namespace fcal::sim {

namespace {

// A number of microseconds: all of `text`, finite, not negative.
bool parse_us(const std::string& text, double& us)
{
    if (text.empty() || text.find_first_of(" \t") != std::string::npos) return false;
    char* end = nullptr;
    us = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(us) && us >= 0;
}

// The length of one time unit of `$timescale` ("1 ps", "10ns"), in seconds; 0 if not understood.
double timescale_seconds(const std::string& text)
{
    std::size_t digits = 0;
    while (digits < text.size() && (std::isdigit(static_cast<unsigned char>(text[digits])) != 0)) ++digits;
    if (digits == 0) return 0;
    const double count = std::strtod(text.substr(0, digits).c_str(), nullptr);
    const std::size_t first = text.find_first_not_of(' ', digits);
    const std::string unit = first == std::string::npos ? std::string() : text.substr(first);
    static const std::pair<const char*, double> units[] = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}, {"fs", 1e-15}};
    for (const auto& [name, seconds] : units)
        if (unit == name) return count * seconds;
    return 0;
}

// A time in microseconds as a count of `unit_s` (the VCD's time unit, the kernel's resolution): the
// one conversion, so that the window checked is the window filtered.
std::uint64_t in_units(double us, double unit_s) { return static_cast<std::uint64_t>(std::llround(us * 1e-6 / unit_s)); }

// One VCD token stream, whitespace separated (the format's own rule).
class Tokens {
public:
    explicit Tokens(std::istream& in) : in_(in) {}
    bool next(std::string& token) { return static_cast<bool>(in_ >> token); }
    // The tokens up to "$end", joined by single spaces (false: none before the end of the file).
    bool until_end(std::string& joined)
    {
        joined.clear();
        std::string t;
        while (next(t)) {
            if (t == "$end") return true;
            if (!joined.empty()) joined += ' ';
            joined += t;
        }
        return false;
    }

private:
    std::istream& in_;
};

}  // namespace

VcdWindow VcdWindow::parse(const std::string& option, const std::string& text)
{
    const auto colon = text.find(':');
    VcdWindow w;
    if (colon == std::string::npos || !parse_us(text.substr(0, colon), w.start_us_) || !parse_us(text.substr(colon + 1), w.end_us_))
        throw ConfigError(option + ": '" + escape_controls(text) + "' is not START_US:END_US (two numbers of microseconds, e.g. 2400:2900)");
    if (!(w.start_us_ < w.end_us_))
        throw ConfigError(option + ": '" + escape_controls(text) + "': START_US must be before END_US");
    // Simulated time, and so the VCD's time stamps, is whole steps of SystemC's resolution (1 ps):
    // ends that round to the same step leave no window.
    const sc_core::sc_time step = sc_core::sc_get_time_resolution();
    if (in_units(w.start_us_, step.to_seconds()) == in_units(w.end_us_, step.to_seconds()))
        throw ConfigError(option + ": '" + escape_controls(text) + "': START_US and END_US round to the same time (simulated time is in steps of " +
                          step.to_string() + ")");
    return w;
}

std::string VcdWindow::filter(std::istream& in, std::ostream& out) const
{
    Tokens tokens(in);
    std::string t, body;
    double unit_s = 0;
    std::vector<std::string> ids;  // in declaration order, each once (Verilator shares ids between aliases)
    std::unordered_map<std::string, std::size_t> index;
    // The header, copied a declaration per line.
    for (;;) {
        if (!tokens.next(t)) return "no $enddefinitions: not a complete VCD";
        if (t.empty() || t[0] != '$') return "'" + escape_controls(t) + "' outside a declaration in the header";
        if (!tokens.until_end(body)) return "the header ends inside " + t;
        out << t << ' ' << body << (body.empty() ? "" : " ") << "$end\n";
        if (t == "$timescale") unit_s = timescale_seconds(body);
        if (t == "$var") {
            // $var TYPE SIZE ID NAME...
            std::vector<std::string> words;
            for (std::size_t p = 0, q; p < body.size(); p = q + 1) {
                q = body.find(' ', p);
                if (q == std::string::npos) q = body.size();
                words.push_back(body.substr(p, q - p));
            }
            if (words.size() < 4) return "a $var with too few fields: '" + escape_controls(body) + "'";
            if (index.emplace(words[2], ids.size()).second) ids.push_back(words[2]);
        }
        if (t == "$enddefinitions") break;
    }
    if (unit_s <= 0) return "no $timescale this filter understands";
    const std::uint64_t start = in_units(start_us_, unit_s), end = in_units(end_us_, unit_s);

    // Values: "1", "b0101", "r2.5"... per signal; empty until the file gives one.
    std::vector<std::string> value(ids.size());
    std::uint64_t now = 0;
    bool dumped = false;  // the initial dump at START is out
    const auto dump = [&](std::uint64_t at) {
        out << '#' << at << "\n$dumpvars\n";
        for (std::size_t i = 0; i < ids.size(); ++i)
            if (!value[i].empty()) out << value[i] << (value[i].size() > 1 ? " " : "") << ids[i] << '\n';
        out << "$end\n";
        dumped = true;
    };
    const auto change = [&](const std::string& v, const std::string& id) -> std::string {
        const auto it = index.find(id);
        if (it == index.end()) return "a change of undeclared signal '" + escape_controls(id) + "'";
        if (dumped)
            out << v << (v.size() > 1 ? " " : "") << id << '\n';
        else
            value[it->second] = v;
        return "";
    };
    while (tokens.next(t)) {
        if (t[0] == '#') {
            const char* first = t.c_str() + 1;
            char* last = nullptr;
            const std::uint64_t at = std::strtoull(first, &last, 10);
            if (last == first || *last != '\0' || at < now) return "a bad time stamp '" + escape_controls(t) + "'";
            now = at;
            if (!dumped && now > start) dump(start);
            if (now > end) break;
            if (dumped) out << '#' << now << '\n';
        } else if (t == "$comment") {
            if (!tokens.until_end(body)) return "a $comment without $end";
        } else if (t[0] == '$') {
            // $dumpvars, $dumpall, $dumpon, $dumpoff and their $end: the values inside are changes like any other.
        } else if (t[0] == 'b' || t[0] == 'B' || t[0] == 'r' || t[0] == 'R' || t[0] == 's' || t[0] == 'S') {
            std::string id;
            if (!tokens.next(id)) return "a value without a signal at the end of the file";
            if (std::string e = change(t, id); !e.empty()) return e;
        } else if (std::string_view("01xXzZ").find(t[0]) != std::string_view::npos && t.size() > 1) {
            if (std::string e = change(t.substr(0, 1), t.substr(1)); !e.empty()) return e;
        } else {
            return "'" + escape_controls(t) + "' is not a VCD value change";
        }
    }
    // The run ended before START (its values at its end), or within the window.
    if (!dumped) dump(std::min(start, now));
    if (now > end) out << '#' << end << '\n';
    return "";
}

}  // namespace fcal::sim
