#include "fcal/sim/parameter_table.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

#include "fcal/sim/user_text.hpp"

namespace fcal::sim {

namespace {

using nlohmann::json;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kKi = 1024;
constexpr std::int64_t kMi = kKi * kKi;
constexpr std::int64_t kGi = kMi * kKi;

// Objects and arrays nested deeper than this are refused; a configuration needs 3
// ({"disk": {"3": {"access_ms": 5}}}).
constexpr unsigned kMaxJsonDepth = 16;

std::string too_deep()
{
    return "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (a configuration needs at most 3)";
}

// A JSON value in a message, escaped and cut short.
std::string shown(const json& value)
{
    return shortened(value.dump(-1, ' ', false, json::error_handler_t::replace), 40);
}

// A key the user gave, as a message shows it: as it is when it is plain printable ASCII of a
// readable length, else quoted, escaped and cut (a newline must not break the one-line rule, nor a
// NUL cut the message short, nor a 10 000-character key fill the terminal; found by fuzzing and a
// red-team pass, tests/fuzz/regressions).
std::string shown_key(const std::string& key)
{
    const bool plain = !key.empty() && key.size() <= kShownBytes &&
                       std::all_of(key.begin(), key.end(), [](char c) { return c > ' ' && c < 0x7F; });
    return plain ? key : quoted_text(key);
}

std::string real_text(double value)
{
    // Shortest text that reads back as the same double: 43.9 stays "43.9", not "43.899999999999999".
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

std::string hex_text(std::int64_t value)
{
    std::ostringstream out;
    out << "0x" << std::uppercase << std::hex << std::setw(2) << std::setfill('0') << value;
    return out.str();
}

std::string expectation(const Parameter& p)
{
    switch (p.type) {
    case ParamType::Bool: return "true or false";
    case ParamType::Integer: return "an integer";
    case ParamType::Real: return "a number";
    case ParamType::Choice: return "one of " + range_text(p);
    case ParamType::Bytes: return "a byte size (e.g. 2048 or 64K)";
    case ParamType::AlPa: return "an AL_PA (e.g. 0x01)";
    }
    throw std::logic_error("unknown parameter type");
}

[[noreturn]] void wrong_type(const Parameter& p, const std::string& got)
{
    throw ConfigError(p.key + ": expected " + expectation(p) + ", got " + got);
}

[[noreturn]] void out_of_range(const Parameter& p, const std::string& value)
{
    const std::string range = range_text(p);
    // Two-sided ranges read naturally as "1..125"; one-sided ones need "must be".
    if (range.find("..") != std::string::npos)
        throw ConfigError(p.key + ": " + value + " is out of range " + range);
    throw ConfigError(p.key + ": " + value + " is out of range (must be " + range + ")");
}

// Whole-string integer; nullopt when the text is not one, overflow reported as out of range.
std::optional<std::int64_t> parse_integer(const Parameter& p, const std::string& text, int base = 10)
{
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value, base);
    if (text.empty() || result.ptr != end) return std::nullopt;
    if (result.ec == std::errc::result_out_of_range) out_of_range(p, shortened(text));
    if (result.ec != std::errc()) return std::nullopt;
    return value;
}

std::int64_t parse_bytes_text(const Parameter& p, const std::string& text)
{
    std::int64_t multiplier = 1;
    std::string digits = text;
    if (!digits.empty()) {
        switch (digits.back()) {
        case 'K': case 'k': multiplier = kKi; break;
        case 'M': case 'm': multiplier = kMi; break;
        case 'G': case 'g': multiplier = kGi; break;
        default: break;
        }
        if (multiplier != 1) digits.pop_back();
    }
    if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        wrong_type(p, quoted_text(text));
    const auto value = parse_integer(p, digits);
    if (!value) wrong_type(p, quoted_text(text));
    if (*value > kInt64Max / multiplier) out_of_range(p, shortened(text));
    return *value * multiplier;
}

std::int64_t parse_al_pa_text(const Parameter& p, const std::string& text)
{
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const std::string digits = hex ? text.substr(2) : text;
    // from_chars would take a sign; an AL_PA never has one.
    if (!digits.empty() && digits[0] == '-') wrong_type(p, quoted_text(text));
    const auto value = parse_integer(p, digits, hex ? 16 : 10);
    if (!value) wrong_type(p, quoted_text(text));
    return *value;
}

ParamValue parse_text(const Parameter& p, const std::string& text)
{
    switch (p.type) {
    case ParamType::Bool:
        if (text == "true" || text == "1") return true;
        if (text == "false" || text == "0") return false;
        wrong_type(p, quoted_text(text));
    case ParamType::Integer: {
        const auto value = parse_integer(p, text);
        if (!value) wrong_type(p, quoted_text(text));
        return *value;
    }
    case ParamType::Real: {
        double value = 0.0;
        const char* end = text.data() + text.size();
        const auto result = std::from_chars(text.data(), end, value);
        if (text.empty() || result.ptr != end || result.ec != std::errc() || !std::isfinite(value))
            wrong_type(p, quoted_text(text));
        return value;
    }
    case ParamType::Choice:
        if (std::find(p.choices.begin(), p.choices.end(), text) == p.choices.end()) wrong_type(p, quoted_text(text));
        return text;
    case ParamType::Bytes: return parse_bytes_text(p, text);
    case ParamType::AlPa: return parse_al_pa_text(p, text);
    }
    throw std::logic_error("unknown parameter type");
}

// A JSON value must already have the right JSON type: "8" is not an integer. Byte sizes and AL_PAs
// also take strings, because "64K" and "0xE8" cannot be written as JSON numbers.
ParamValue parse_json_value(const Parameter& p, const json& value)
{
    switch (p.type) {
    case ParamType::Bool:
        if (!value.is_boolean()) wrong_type(p, shown(value));
        return value.get<bool>();
    case ParamType::Integer:
    case ParamType::Bytes:
    case ParamType::AlPa:
        if (value.is_number_unsigned()) {
            if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(kInt64Max)) out_of_range(p, shown(value));
            return static_cast<std::int64_t>(value.get<std::uint64_t>());
        }
        if (value.is_number_integer()) return value.get<std::int64_t>();
        // A whole number beyond 64 bits reaches here as a double (1e30, or 99999999999999999999):
        // too large, not "not an integer".
        if (value.is_number_float() && std::isfinite(value.get<double>()) &&
            std::abs(value.get<double>()) >= 0x1p63 && std::floor(value.get<double>()) == value.get<double>())
            out_of_range(p, shown(value));
        if (value.is_string() && p.type != ParamType::Integer) return parse_text(p, value.get<std::string>());
        wrong_type(p, shown(value));
    case ParamType::Real:
        if (!value.is_number()) wrong_type(p, shown(value));
        return value.get<double>();
    case ParamType::Choice:
        if (!value.is_string()) wrong_type(p, shown(value));
        return parse_text(p, value.get<std::string>());
    }
    throw std::logic_error("unknown parameter type");
}

void check_limits(const Parameter& p, const ParamValue& value)
{
    switch (p.type) {
    case ParamType::Bool:
    case ParamType::Choice:
        return;
    case ParamType::Integer:
    case ParamType::Bytes: {
        const auto v = std::get<std::int64_t>(value);
        if (v < p.int_min || v > p.int_max) out_of_range(p, value_text(p, value));
        if (p.multiple_of > 1 && v % p.multiple_of != 0)
            throw ConfigError(p.key + ": " + value_text(p, value) + " is not a multiple of " + std::to_string(p.multiple_of));
        return;
    }
    case ParamType::Real: {
        const auto v = std::get<double>(value);
        if (v < p.real_min || (p.real_min_exclusive && v == p.real_min) || v > p.real_max)
            out_of_range(p, value_text(p, value));
        return;
    }
    case ParamType::AlPa: {
        const auto v = std::get<std::int64_t>(value);
        if (v < 0 || v > 0xFF || !phy::is_valid_al_pa(static_cast<unsigned>(v)))
            throw ConfigError(p.key + ": " + value_text(p, value) +
                              " is not a valid AL_PA (a neutral-disparity byte other than F0, F7, F8, FB, FD, FE, FF)");
        return;
    }
    }
}

std::size_t edit_distance(const std::string& a, const std::string& b)
{
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string format_bytes(std::uint64_t bytes)
{
    // Short numbers read better as they are (2048 is the payload everyone knows); long ones as 64K.
    if (bytes < 10000) return std::to_string(bytes);
    const std::uint64_t ki = kKi, mi = kMi, gi = kGi;
    if (bytes % gi == 0) return std::to_string(bytes / gi) + "G";
    if (bytes % mi == 0) return std::to_string(bytes / mi) + "M";
    if (bytes % ki == 0) return std::to_string(bytes / ki) + "K";
    return std::to_string(bytes);
}

std::string value_text(const Parameter& p, const ParamValue& value)
{
    switch (p.type) {
    case ParamType::Bool: return std::get<bool>(value) ? "true" : "false";
    case ParamType::Integer: return std::to_string(std::get<std::int64_t>(value));
    case ParamType::Real: return real_text(std::get<double>(value));
    case ParamType::Choice: return std::get<std::string>(value);
    case ParamType::Bytes: {
        const auto v = std::get<std::int64_t>(value);
        return v < 0 ? std::to_string(v) : format_bytes(static_cast<std::uint64_t>(v));
    }
    case ParamType::AlPa: {
        const auto v = std::get<std::int64_t>(value);
        return v < 0 ? std::to_string(v) : hex_text(v);
    }
    }
    throw std::logic_error("unknown parameter type");
}

std::string range_text(const Parameter& p)
{
    switch (p.type) {
    case ParamType::Bool: return "true|false";
    case ParamType::AlPa: return "valid AL_PA";
    case ParamType::Choice: {
        std::string text;
        for (const auto& c : p.choices) text += (text.empty() ? "" : "|") + c;
        return text;
    }
    case ParamType::Integer:
    case ParamType::Bytes: {
        const auto show = [&](std::int64_t v) { return value_text(p, ParamValue{v}); };
        const bool low = p.int_min != kInt64Min, high = p.int_max != kInt64Max;
        std::string text = low && high ? show(p.int_min) + ".." + show(p.int_max)
                           : low       ? ">= " + show(p.int_min)
                           : high      ? "<= " + show(p.int_max)
                                       : "";
        if (p.multiple_of > 1) text += ", multiple of " + std::to_string(p.multiple_of);
        return text;
    }
    case ParamType::Real: {
        const bool low = std::isfinite(p.real_min), high = std::isfinite(p.real_max);
        // An excluded lower end cannot be written as "min..max" (loop.al_time_us used to say that 0
        // is out of range 0..1e+07).
        if (low && high && p.real_min_exclusive) return "> " + real_text(p.real_min) + " and <= " + real_text(p.real_max);
        if (low && high) return real_text(p.real_min) + ".." + real_text(p.real_max);
        if (low) return (p.real_min_exclusive ? "> " : ">= ") + real_text(p.real_min);
        if (high) return "<= " + real_text(p.real_max);
        return "";
    }
    }
    throw std::logic_error("unknown parameter type");
}

void ParameterTable::add(Parameter parameter)
{
    if (index_.count(parameter.key)) throw std::logic_error("parameter " + parameter.key + " added twice");
    if (parameter.type == ParamType::Choice && parameter.choices.empty())
        throw std::logic_error("parameter " + parameter.key + " has no choices");
    if (parameter.default_value) {
        try {
            if (parameter.type == ParamType::Choice) parse_text(parameter, std::get<std::string>(*parameter.default_value));
            check_limits(parameter, *parameter.default_value);
        } catch (const std::exception& e) {
            throw std::logic_error(std::string("bad default: ") + e.what());
        }
    } else if (parameter.default_text.empty()) {
        throw std::logic_error("parameter " + parameter.key + " needs a default or a default text");
    }
    index_.emplace(parameter.key, parameters_.size());
    parameters_.push_back(std::move(parameter));
    entries_.emplace_back();
}

const Parameter* ParameterTable::find(const std::string& key) const
{
    const auto it = index_.find(key);
    return it == index_.end() ? nullptr : &parameters_[it->second];
}

std::size_t ParameterTable::index_of(const std::string& key) const
{
    const auto it = index_.find(key);
    if (it != index_.end()) return it->second;
    // A near miss is almost always a typo; naming the intended key saves a trip to --list-params.
    // (Not for a key far longer than any: the distance costs its length times theirs.)
    std::string best;
    std::size_t best_distance = 3;
    for (const auto& p : parameters_) {
        if (key.size() > p.key.size() + best_distance) continue;
        const std::size_t d = edit_distance(key, p.key);
        if (d < best_distance) best_distance = d, best = p.key;
    }
    throw ConfigError(shown_key(key) + ": unknown parameter" +
                      (best.empty() ? " (see --list-params)" : " (did you mean " + best + "?)"));
}

// Disk indices of overrides: a loop holds at most 125 disks (disk.count's limit).
constexpr unsigned kMaxDiskIndex = 124;

std::optional<std::pair<unsigned, Parameter>> ParameterTable::disk_override(const std::string& key) const
{
    const std::string prefix = "disk.";
    if (key.rfind(prefix, 0) != 0) return std::nullopt;
    const auto dot = key.find('.', prefix.size());
    if (dot == std::string::npos || dot == prefix.size()) return std::nullopt;
    const std::string digits = key.substr(prefix.size(), dot - prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
    const Parameter* base = find(prefix + key.substr(dot + 1));
    if (base == nullptr || !base->per_disk) {
        std::string names;
        for (const auto& p : parameters_)
            if (p.per_disk) names += (names.empty() ? "" : ", ") + p.key.substr(prefix.size());
        throw ConfigError(shown_key(key) + ": unknown parameter (a disk.<i>.<name> override takes one of: " + names + ")");
    }
    // The index as a number: "0004" is disk 4, written so it would be given twice under two names.
    const std::string number = digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
    if (number.size() > 3 || std::stoul(number) > kMaxDiskIndex)
        throw ConfigError(shown_key(key) + ": disk index " + shortened(number) + " is out of range 0.." + std::to_string(kMaxDiskIndex));
    if (number != digits)
        throw ConfigError(shown_key(key) + ": a disk index has no leading zeros (disk." + number + key.substr(dot) + ")");
    Parameter p = *base;
    p.key = key;
    return std::make_pair(static_cast<unsigned>(std::stoul(number)), std::move(p));
}

std::vector<unsigned> ParameterTable::override_disks() const
{
    std::vector<unsigned> disks;
    for (const auto& [where, value] : overrides_)
        if (disks.empty() || disks.back() != where.first) disks.push_back(where.first);
    return disks;
}

std::string ParameterTable::first_override_key(unsigned index) const
{
    for (const auto& [where, value] : overrides_)
        if (where.first == index) return "disk." + std::to_string(index) + where.second.substr(4);
    return "disk." + std::to_string(index);
}

ParameterTable ParameterTable::for_disk(unsigned index) const
{
    ParameterTable t = *this;
    t.overrides_.clear();
    for (const auto& [where, value] : overrides_)
        if (where.first == index) t.entries_[index_.at(where.second)].value = value;
    return t;
}

void ParameterTable::set(const std::string& key, const std::string& text)
{
    if (const auto o = disk_override(key)) {
        ParamValue value = parse_text(o->second, text);
        check_limits(o->second, value);
        overrides_[{o->first, "disk." + key.substr(key.find('.', 5) + 1)}] = std::move(value);
        return;
    }
    const std::size_t i = index_of(key);
    ParamValue value = parse_text(parameters_[i], text);
    check_limits(parameters_[i], value);
    entries_[i].value = std::move(value);
}

void ParameterTable::set_assignment(const std::string& assignment)
{
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError("--set: expected KEY=VALUE, got " + quoted_text(assignment));
    set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

void ParameterTable::load_json(const nlohmann::json& object, const std::string& origin)
{
    const std::string prefix = origin.empty() ? "" : origin + ": ";
    if (!object.is_object())
        throw ConfigError(prefix + "expected a JSON object at the top level, got a JSON " + std::string(object.type_name()));

    // Collected first and applied only if every member is good, so a failed load changes nothing.
    std::vector<std::pair<std::size_t, ParamValue>> updates;
    std::vector<std::pair<std::pair<unsigned, std::string>, ParamValue>> disk_updates;
    std::set<std::string> seen;
    const auto walk = [&](const auto& self, const json& members, const std::string& path, unsigned depth) -> void {
        // The recursion is bounded: a configuration has no use for deep nesting (a file's parser
        // refuses it first, load_json_file).
        if (depth > kMaxJsonDepth) throw ConfigError(shown_key(path) + ": " + too_deep());
        for (const auto& member : members.items()) {
            if (member.key().empty())  // {"": {...}} would otherwise vanish into its parent
                throw ConfigError((path.empty() ? "" : shown_key(path) + ".") + "\"\": an empty key names no parameter");
            const std::string key = path.empty() ? member.key() : path + "." + member.key();
            const auto it = index_.find(key);
            if (it == index_.end() && member.value().is_object()) {
                self(self, member.value(), key, depth + 1);
                continue;
            }
            // {"loop":{"speed":..}} and {"loop.speed":..} together would make the winner depend on
            // member order; refuse instead of guessing.
            if (const auto o = disk_override(key)) {
                if (!seen.insert(key).second) throw ConfigError(shown_key(key) + ": given twice");
                ParamValue value = parse_json_value(o->second, member.value());
                check_limits(o->second, value);
                disk_updates.push_back({{o->first, "disk." + key.substr(key.find('.', 5) + 1)}, std::move(value)});
                continue;
            }
            const std::size_t i = index_of(key);
            if (!seen.insert(key).second) throw ConfigError(shown_key(key) + ": given twice");
            ParamValue value = parse_json_value(parameters_[i], member.value());
            check_limits(parameters_[i], value);
            updates.emplace_back(i, std::move(value));
        }
    };
    try {
        walk(walk, object, "", 1);
    } catch (const ConfigError& e) {
        throw ConfigError(prefix + e.what());
    }
    for (auto& [i, value] : updates) entries_[i].value = std::move(value);
    for (auto& [where, value] : disk_updates) overrides_[where] = std::move(value);
}

namespace {

// Watches the parser for what a parsed object no longer shows: a key given twice in one object
// (the parsed object keeps the last one; the user meant one of them), and nesting deeper than a
// configuration can use, refused before the recursive walk could exhaust the stack.
class JsonGuard {
public:
    bool operator()(int depth, json::parse_event_t event, json& parsed)
    {
        switch (event) {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            if (depth + 1 > static_cast<int>(kMaxJsonDepth)) throw ConfigError(too_deep());
            if (event == json::parse_event_t::object_start) objects_.emplace_back();
            break;
        case json::parse_event_t::object_end: objects_.pop_back(); break;
        case json::parse_event_t::key: {
            Object& here = objects_.back();
            here.key = parsed.get<std::string>();
            if (!here.keys.insert(here.key).second) throw ConfigError(shown_key(path()) + ": given twice");
            break;
        }
        default: break;
        }
        return true;
    }

private:
    struct Object {
        std::set<std::string> keys;
        std::string key;  // the member being read
    };
    std::string path() const
    {
        std::string text;
        for (const auto& o : objects_) text += (text.empty() ? "" : ".") + o.key;
        return text;
    }
    std::vector<Object> objects_;
};

}  // namespace

void ParameterTable::load_json_file(const std::string& path)
{
    const std::string name = shortened(path, 4096);
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw ConfigError(name + ": is a directory, not a JSON file");
    std::ifstream in(path);
    if (!in) throw ConfigError(name + ": cannot open (" + std::strerror(errno) + ")");
    json object;
    try {
        object = json::parse(in, JsonGuard());
    } catch (const json::exception& e) {  // parse errors, and numbers too large for a double (found by fuzzing)
        // Drop the library's "[json.exception.parse_error.101] " tag; keep its line and column.
        std::string detail = e.what();
        const auto tag_end = detail.find("] ");
        if (detail.rfind("[json.exception", 0) == 0 && tag_end != std::string::npos) detail = detail.substr(tag_end + 2);
        // The detail quotes what was read (a whole string token, however long).
        throw ConfigError(name + ": malformed JSON: " + shortened(detail, 200));
    } catch (const ConfigError& e) {
        throw ConfigError(name + ": " + e.what());
    }
    if (in.bad()) throw ConfigError(name + ": cannot read (" + std::strerror(errno) + ")");
    load_json(object, name);
}

const ParamValue& ParameterTable::value_of(const std::string& key, ParamType expected) const
{
    const auto it = index_.find(key);
    if (it == index_.end()) throw std::logic_error("no parameter " + key);
    const Parameter& p = parameters_[it->second];
    if (p.type != expected) throw std::logic_error("parameter " + key + " read as the wrong type");
    const auto& given = entries_[it->second].value;
    if (given) return *given;
    if (p.default_value) return *p.default_value;
    throw std::logic_error("parameter " + key + " has no value (default: " + p.default_text + ")");
}

bool ParameterTable::get_bool(const std::string& key) const { return std::get<bool>(value_of(key, ParamType::Bool)); }

std::int64_t ParameterTable::get_int(const std::string& key) const
{
    return std::get<std::int64_t>(value_of(key, ParamType::Integer));
}

double ParameterTable::get_real(const std::string& key) const { return std::get<double>(value_of(key, ParamType::Real)); }

std::string ParameterTable::get_string(const std::string& key) const
{
    return std::get<std::string>(value_of(key, ParamType::Choice));
}

std::uint64_t ParameterTable::get_bytes(const std::string& key) const
{
    return static_cast<std::uint64_t>(std::get<std::int64_t>(value_of(key, ParamType::Bytes)));
}

phy::AlPa ParameterTable::get_al_pa(const std::string& key) const
{
    return static_cast<phy::AlPa>(std::get<std::int64_t>(value_of(key, ParamType::AlPa)));
}

bool ParameterTable::is_set(const std::string& key) const
{
    const auto it = index_.find(key);
    if (it == index_.end()) throw std::logic_error("no parameter " + key);
    return entries_[it->second].value.has_value();
}

bool ParameterTable::has_value(const std::string& key) const
{
    const auto it = index_.find(key);
    if (it == index_.end()) throw std::logic_error("no parameter " + key);
    return entries_[it->second].value.has_value() || parameters_[it->second].default_value.has_value();
}

void ParameterTable::list_json(std::ostream& out) const
{
    static const char* const kTypes[] = {"bool", "integer", "real", "choice", "bytes", "al_pa"};
    json all = json::array();
    for (const auto& p : parameters_)
        all.push_back({{"key", p.key},
                       {"type", kTypes[static_cast<int>(p.type)]},
                       {"default", !p.default_text.empty() ? p.default_text : value_text(p, *p.default_value)},
                       {"unit", p.unit},
                       {"range", range_text(p)},
                       {"description", p.description},
                       {"per_disk", p.per_disk}});
    out << all.dump(2) << '\n';
}

void ParameterTable::list(std::ostream& out) const
{
    struct Row {
        std::string key, fallback, unit, range, description;
    };
    std::vector<Row> rows{{"key", "default", "unit", "range", "description"}};
    for (const auto& p : parameters_) {
        const std::string fallback = !p.default_text.empty() ? p.default_text : value_text(p, *p.default_value);
        rows.push_back({p.key, fallback, p.unit.empty() ? "-" : p.unit, range_text(p).empty() ? "-" : range_text(p),
                        p.description});
    }
    std::size_t w_key = 0, w_default = 0, w_unit = 0, w_range = 0;
    for (const auto& r : rows) {
        w_key = std::max(w_key, r.key.size());
        w_default = std::max(w_default, r.fallback.size());
        w_unit = std::max(w_unit, r.unit.size());
        w_range = std::max(w_range, r.range.size());
    }
    for (const auto& r : rows) {
        out << std::left << std::setw(static_cast<int>(w_key)) << r.key << "  " << std::setw(static_cast<int>(w_default))
            << r.fallback << "  " << std::setw(static_cast<int>(w_unit)) << r.unit << "  "
            << std::setw(static_cast<int>(w_range)) << r.range << "  " << r.description << '\n';
    }
}

// ---------------------------------------------------------------------------------------------
// The table itself.

namespace {

Parameter boolean(std::string key, bool fallback, std::string description)
{
    Parameter p;
    p.key = std::move(key);
    p.type = ParamType::Bool;
    p.default_value = fallback;
    p.description = std::move(description);
    return p;
}

Parameter integer(std::string key, std::optional<std::int64_t> fallback, std::int64_t min, std::int64_t max,
                  std::string unit, std::string description, std::string default_text = "")
{
    Parameter p;
    p.key = std::move(key);
    p.type = ParamType::Integer;
    if (fallback) p.default_value = *fallback;
    p.default_text = std::move(default_text);
    p.int_min = min;
    p.int_max = max;
    p.unit = std::move(unit);
    p.description = std::move(description);
    return p;
}

Parameter bytes(std::string key, std::int64_t fallback, std::int64_t min, std::int64_t max, std::string description,
                std::int64_t multiple_of = 1)
{
    Parameter p = integer(std::move(key), fallback, min, max, "bytes", std::move(description));
    p.type = ParamType::Bytes;
    p.multiple_of = multiple_of;
    return p;
}

Parameter real(std::string key, std::optional<double> fallback, double min, std::string unit, std::string description,
               bool min_exclusive = false, double max = std::numeric_limits<double>::infinity())
{
    Parameter p;
    p.key = std::move(key);
    p.type = ParamType::Real;
    if (fallback) p.default_value = *fallback;
    p.real_min = min;
    p.real_min_exclusive = min_exclusive;
    p.real_max = max;
    p.unit = std::move(unit);
    p.description = std::move(description);
    return p;
}

// Overheads and lengths: zero is allowed (it switches the effect off), negative is not.
Parameter non_negative(std::string key, double fallback, std::string unit, std::string description)
{
    return real(std::move(key), fallback, 0.0, std::move(unit), std::move(description));
}

// Rates divide sizes, so zero is refused.
Parameter positive(std::string key, double fallback, std::string unit, std::string description)
{
    return real(std::move(key), fallback, 0.0, std::move(unit), std::move(description), true);
}

Parameter choice(std::string key, std::string fallback, std::vector<std::string> choices, std::string description)
{
    Parameter p;
    p.key = std::move(key);
    p.type = ParamType::Choice;
    p.default_value = std::move(fallback);
    p.choices = std::move(choices);
    p.description = std::move(description);
    return p;
}

Parameter al_pa(std::string key, phy::AlPa fallback, std::string description)
{
    Parameter p;
    p.key = std::move(key);
    p.type = ParamType::AlPa;
    p.default_value = std::int64_t{fallback};
    p.description = std::move(description);
    return p;
}

constexpr std::int64_t kMaxFramePayload = 2112;  // FC-FS data field limit
constexpr std::int64_t kMaxBuffers = 1024;

}  // namespace

ParameterTable fcal_parameters()
{
    ParameterTable t;

    // Loop (docs/model.md, "The physical layer: line rates and word time", "The loop: timing and
    // round trip").
    t.add(choice("loop.speed", "2GFC", {"1GFC", "2GFC", "4GFC", "8GFC"}, "line rate of every link on the loop"));
    {
        // The thesis's loop ran at exactly 2 Gbaud, not 2GFC's 2.125 (docs/model.md, "The physical layer: line rate override").
        Parameter p = real("loop.baud_gbps", std::nullopt, 0.1, "Gbaud",
                           "line rate in Gbaud of every link; overrides the standard baud of loop.speed", false, 100.0);
        p.default_text = "from loop.speed";
        t.add(std::move(p));
    }
    t.add(integer("loop.nodes", std::nullopt, 2, 127, "ports",
                  "L_Ports on the loop; those beyond the controller and the disks only repeat", "disk.count+1"));
    t.add(non_negative("loop.hop_m", 2.0, "m", "cable length between neighbouring ports"));
    {
        Parameter p = real("loop.length_m", std::nullopt, 0.0, "m",
                           "total cable length round the loop, split evenly over the hops; overrides loop.hop_m");
        p.default_text = "unset";
        t.add(std::move(p));
    }
    t.add(integer("loop.port_delay_words", 6, 1, 1000, "words", "delay of a port that repeats words (retiming buffer)"));
    t.add(non_negative("loop.propagation_ns_per_m", 5.0, "ns/m", "signal propagation delay in the cable"));
    // Faults on the loop (docs/model.md, "Faults and recovery", "The loop").
    t.add(real("loop.ber", 0.0, 0.0, "", "bit error rate of every link (0: no errors)", false, 1e-3));
    t.add(real("loop.al_time_us", 15000.0, 0.0, "us", "AL_TIME: longest wait of a circuit for its peer before it closes or is abandoned",
               true, 1e7));

    // Initiator HBA, the storage controller (docs/model.md, "The HBAs").
    t.add(al_pa("initiator.al_pa", 0x01, "AL_PA of the controller; lower wins arbitration"));
    t.add(boolean("initiator.fair", true, "the controller obeys the access fairness window"));
    t.add(integer("initiator.incoming_buffers", 3, 1, kMaxBuffers, "frames", "receive buffers of the controller"));
    t.add(integer("initiator.login_bb_credit", 0, 0, kMaxBuffers, "frames",
                  "frames others may send right after OPEN before an R_RDY; at most incoming_buffers"));
    t.add(boolean("initiator.full_duplex", false, "the controller opens with OPN(yx) so both directions carry frames"));
    t.add(non_negative("initiator.circuit_hold_us", 0.0, "us",
                       "close timer: an open circuit waits this long after the last word for another frame to the peer (0: close at once)"));
    t.add(bytes("initiator.max_payload", 2048, 4, kMaxFramePayload, "largest data-frame payload the controller sends", 4));
    t.add(non_negative("initiator.cmd_exec_us", 43.9, "us", "main-processor time to execute one I/O command"));
    t.add(non_negative("initiator.xfer_rdy_us", 11.8, "us", "handling of an incoming XFER_RDY before write data moves"));
    t.add(positive("initiator.dma_mbs", 1064.0, "MB/s", "DMA engine bandwidth to host memory (MB = 10^6 bytes)"));
    t.add(non_negative("initiator.dma_sched_us", 15.5, "us", "DMA scheduler overhead per transfer"));
    t.add(choice("initiator.dma_policy", "fcfs", {"fcfs", "round_robin"}, "order in which the DMA scheduler serves transfers"));
    t.add(non_negative("initiator.frame_proc_ns", 400.0, "ns", "processing of each incoming frame"));
    t.add(non_negative("initiator.sft_us", 20.2, "us", "single-frame transfer that delivers an FCP_RSP to host memory"));
    t.add(non_negative("initiator.task_set_full_retry_us", 500.0, "us",
                       "wait before a command a disk answered TASK SET FULL is issued again"));
    // FCP recovery (docs/model.md, "Faults and recovery: FCP recovery").
    t.add(positive("initiator.exchange_timeout_ms", 30000.0, "ms",
                   "an exchange not complete this long after the HBA took its I/O is aborted with ABTS"));
    t.add(positive("initiator.abts_timeout_ms", 20000.0, "ms",
                   "wait for the BA_ACC to an ABTS before the exchange is given up all the same"));
    t.add(integer("initiator.max_outstanding", 255, 1, 65535, "requests",
                  "requests the driver keeps in the HBA at once; the rest wait in the driver"));
    // The outgoing descriptor FIFOs (docs/model.md, "The transmit queue"); the RTL's tags are 8 bits.
    t.add(integer("initiator.tx_fifo_frames", 64, 1, 128, "frames",
                  "depth of the controller's outgoing frame FIFO (every frame; data only with cmdf.fifo=command_queue)"));
    t.add(integer("initiator.cmd_fifo_frames", 16, 1, 128, "frames", "depth of the command FIFO (cmdf.fifo=command_queue only)"));

    // Target HBA, the disk interface (docs/model.md, "The HBAs").
    t.add(boolean("target.fair", true, "the disks obey the access fairness window"));
    t.add(integer("target.incoming_buffers", 2, 1, kMaxBuffers, "frames", "receive buffers of each disk interface"));
    t.add(integer("target.login_bb_credit", 0, 0, kMaxBuffers, "frames",
                  "frames others may send right after OPEN before an R_RDY; at most incoming_buffers"));
    t.add(boolean("target.full_duplex", false, "disks open with OPN(yx) so both directions carry frames"));
    t.add(non_negative("target.circuit_hold_us", 0.0, "us",
                       "close timer: an open circuit waits this long after the last word for another frame to the peer (0: close at once)"));
    t.add(bytes("target.max_payload", 2048, 4, kMaxFramePayload, "largest data-frame payload a disk sends", 4));
    t.add(non_negative("target.cmd_exec_us", 47.4, "us", "time for a disk interface to execute one command"));
    t.add(non_negative("target.rsp_gen_us", 10.3, "us", "generation of the FCP_RSP after the last data"));
    t.add(positive("target.dma_mbs", 1064.0, "MB/s", "DMA engine bandwidth to the disk buffer (MB = 10^6 bytes)"));
    t.add(non_negative("target.dma_sched_us", 15.5, "us", "DMA scheduler overhead per transfer"));
    t.add(non_negative("target.frame_proc_ns", 400.0, "ns", "processing of each incoming frame"));
    t.add(non_negative("target.sft_us", 20.2, "us", "single-frame transfer between the interface and the disk controller"));
    t.add(positive("target.data_timeout_ms", 60000.0, "ms",
                   "a write whose burst has not all come this long after its XFER_RDY is dropped and its disk slot freed"));
    t.add(bytes("target.burst_bytes", 0, 0, kGi,
                "data a disk moves per XFER_RDY or read connection; 0 = the whole transfer at once"));

    // Device driver (docs/model.md, "The device driver and host memory").
    t.add(non_negative("driver.arrival_us", 0.0, "us", "driver processing of each arriving request"));
    t.add(non_negative("driver.completion_us", 0.0, "us", "driver processing of each completion"));
    t.add(integer("driver.retries", 3, 0, 1000, "retries",
                  "times an I/O whose exchange was aborted is issued again before it is reported failed"));

    // Disks (docs/model.md, "The disks").
    t.add(integer("disk.count", 16, 1, 125, "disks", "disks on the loop"));
    t.add(non_negative("disk.access_ms", 2.0, "ms", "access time per command before data moves"));
    t.add(positive("disk.rate_mbs", 50.0, "MB/s", "media transfer rate (MB = 10^6 bytes)"));
    t.add(integer("disk.queue_slots", 16, 1, 1024, "commands",
                  "commands a disk accepts at once; one more is answered TASK SET FULL"));
    // Fixed and zoned disks (docs/model.md, "The disks"); the zoned defaults are the Seagate
    // ST3500630NS of docs/model.md's drive table (configs/disks/).
    t.add(choice("disk.model", "fixed", {"fixed", "zoned"},
                 "fixed: disk.access_ms + size / disk.rate_mbs; zoned: the mechanical model (seek, rotation, zones, buffer)"));
    t.add(choice("disk.access_dist", "constant", {"constant", "uniform", "exponential"},
                 "fixed model: distribution of the access time, mean disk.access_ms (uniform on [0, 2 mean])"));
    t.add(positive("disk.rpm", 7200.0, "rpm", "zoned: spindle speed; one revolution R_max = 60000 / rpm ms"));
    t.add(integer("disk.cylinders", 60801, 3, 10000000, "cylinders", "zoned: cylinders"));
    t.add(integer("disk.heads", 15, 1, 255, "heads", "zoned: recording surfaces (tracks per cylinder)"));
    t.add(bytes("disk.sector_bytes", 512, 256, 65536, "zoned: sector size, the LBA unit"));
    t.add(positive("disk.sector_time_inner_ms", 0.012064, "ms", "zoned: time of one sector on the innermost track (t_max)"));
    t.add(positive("disk.sector_time_outer_ms", 0.005976, "ms", "zoned: time of one sector on the outermost track (t_min)"));
    t.add(non_negative("disk.seek_read_min_ms", 0.8, "ms", "zoned: read seek over one cylinder (track to track)"));
    t.add(non_negative("disk.seek_read_max_ms", 17.0, "ms", "zoned: read seek over every cylinder (full stroke)"));
    t.add(non_negative("disk.seek_write_min_ms", 1.0, "ms", "zoned: write seek over one cylinder (track to track)"));
    t.add(non_negative("disk.seek_write_max_ms", 18.0, "ms", "zoned: write seek over every cylinder (full stroke)"));
    t.add(choice("disk.positioning", "physical", {"physical", "stochastic"},
                 "zoned: physical = head position and spindle phase are state; stochastic = independent draws (f_D)"));
    t.add(choice("disk.scheduler", "fcfs", {"fcfs", "sptf"},
                 "zoned: order of the queued commands; sptf = shortest positioning time first (physical only)"));
    t.add(boolean("disk.write_cache", false, "zoned: write-back (complete once in the buffer) instead of write-through"));
    t.add(integer("disk.buffer_kib", 1024, 8, 4194304, "KiB", "zoned: buffer for read streaming, and the write cache's limit"));
    t.add(real("disk.buffer_full_ratio", 0.25, 0.0, "",
               "zoned: read data go to the HBA when the buffer holds this share of it or the rest of the I/O", true, 1.0));
    t.add(non_negative("disk.command_overhead_us", 0.0, "us", "zoned: controller firmware time per command"));
    // A fixed disk's capacity: what an erase job writes (docs/model.md, "Erasure"); LBAs are 32 bits.
    t.add(real("disk.capacity_gb", 0.0, 0.0, "GB",
               "fixed: capacity (GB = 10^9 bytes, 512-byte blocks) that erase jobs write and LBAs are checked against; 0 = none",
               false, 2199.0));
    // Disks may differ: disk.<i>.<name> overrides these for disk i (docs/model.md, "Erasure").
    for (const char* name : {"access_ms", "rate_mbs", "queue_slots", "access_dist", "rpm", "cylinders", "heads",
                             "sector_time_inner_ms", "sector_time_outer_ms", "seek_read_min_ms", "seek_read_max_ms",
                             "seek_write_min_ms", "seek_write_max_ms", "write_cache", "buffer_kib", "buffer_full_ratio",
                             "command_overhead_us", "capacity_gb"})
        t.allow_per_disk(std::string("disk.") + name);

    // Workload and measurement window (docs/model.md, "The workloads", "Statistics and the
    // measurement window").
    t.add(choice("workload.type", "closed", {"closed", "open", "erase"},
                 "closed: queue_depth I/Os always outstanding per disk; open: Poisson arrivals at rate_iops; erase: erase.*"));
    t.add(integer("workload.queue_depth", 1, 1, 1024, "I/Os", "I/Os outstanding per disk in the closed workload"));
    t.add(bytes("workload.io_size", 64 * kKi, 1, kGi, "bytes moved by each I/O"));
    t.add(real("workload.read_fraction", 1.0, 0.0, "", "probability that an I/O is a read (else a write)", false, 1.0));
    t.add(non_negative("workload.rate_iops", 0.0, "IO/s",
                       "arrival rate of the open workload, over all disks; must be > 0 when workload.type is open"));
    t.add(integer("workload.measured_ios", 2000, 1, kInt64Max, "I/Os", "completions in the measured window"));
    t.add(integer("workload.warmup_ios", std::nullopt, 0, kInt64Max, "I/Os",
                  "completions left out at the start; as many are left out at the end as cool-down",
                  "10*workload.queue_depth*disk.count"));
    t.add(integer("workload.seed", 1, 0, kInt64Max, "", "seed of the random number generators"));

    // The workloads' addresses, the storage controller's volume and the transport below it (docs/model.md,
    // "The workloads", "The storage controller: volumes and RAID", "The ideal transport").
    t.add(choice("workload.lba", "random", {"random", "sequential"},
                 "random: LBAs uniform over the disk or volume; sequential: each I/O right after the previous one"));
    t.add(choice("volume.raid", "none", {"none", "raid0", "raid1", "raid5"},
                 "none: each disk its own volume; else all disks form one volume (raid1: mirrored pairs, even disk.count)"));
    t.add(integer("volume.stripe_kib", 64, 1, 1024 * 1024, "KiB", "stripe unit of the volume"));
    t.add(choice("volume.split_merge", "fork_join", {"fork_join", "strict"},
                 "fork_join: requests' member commands interleave at the disks; strict: one request at a time"));
    // DECODE (docs/model.md, "DECODE").
    t.add(boolean("volume.decode", false, "raid0 only: DECODE write load balancing (a written unit may move to a less loaded disk)"));
    t.add(integer("decode.area_units", 10, 0, 1000000, "units",
                  "equivalent area: rows of stripe units around a unit's original position, on every disk; 0 = never move"));
    t.add(real("decode.threshold", 0.5, 0.0, "",
               "a unit moves only if the chosen disk's load is at most this x the load of the disk holding it", false, 1.0));
    t.add(boolean("decode.own_write", true, "count the write's own estimated service time in both loads of the threshold test"));
    {
        Parameter p = real("decode.free_fraction", std::nullopt, 0.0, "",
                           "share of each stripe group's slots left free (raid0; with volume.decode=false: the same layout unused)",
                           false, 0.5);
        p.default_text = "0.125 with volume.decode, else 0";
        t.add(std::move(p));
    }
    t.add(bytes("workload.io_size_max", 0, 0, kGi,
                "0: every I/O is workload.io_size; else sizes uniform in whole LBA blocks from workload.io_size to this"));
    t.add(bytes("workload.span_bytes", 0, 0, kGi * kMi,
                "0: LBAs over the whole disk or volume; else within its first span_bytes (a file)"));
    // Erasure jobs, workload.type=erase (docs/model.md, "Erasure").
    t.add(choice("erase.command", "write_same", {"write", "write_same"},
                 "erase: WRITE(10) with the data on the wire, or WRITE SAME(10) with one block per range"));
    t.add(choice("erase.strategy", "parallel", {"sequential", "round_robin", "parallel"},
                 "erase: one disk after the other, one command per disk in turn, or one stream per disk"));
    t.add(choice("erase.tl_policy", "fixed", {"fixed", "by_disk_count"},
                 "erase: WRITE transfer length erase.transfer_blocks, or 4096 / erase.disks rounded down to a power of two"));
    t.add(integer("erase.transfer_blocks", 256, 1, 65535, "blocks", "erase: WRITE(10) transfer length (erase.tl_policy=fixed)"));
    t.add(integer("erase.same_blocks", 65535, 1, 65535, "blocks", "erase: blocks per WRITE SAME(10) range (the last one: the rest)"));
    t.add(integer("erase.disks", std::nullopt, 1, 125, "disks", "erase: the first this many disks of the loop are erased",
                  "disk.count"));
    t.add(choice("transport", "loop", {"loop", "ideal"},
                 "loop: driver, HBAs and the FC-AL loop; ideal: the controller reaches the disks directly in zero time"));

    // Frame scheduling (docs/model.md, "Command-First").
    // The default is the baseline's (docs/model.md, "The baseline scenario"), which has CMDF on.
    t.add(choice("schedule", "cmdf", {"normal", "cmdf"},
                 "normal: all cmdf.* off; cmdf: command_queue + arbitration + preempt (cmdf.* keys given override it)"));
    // The three Command-First levels; unset, they follow the schedule.
    auto from_schedule = [](Parameter p) {
        p.default_value.reset();
        p.default_text = "from schedule";
        return p;
    };
    t.add(from_schedule(choice("cmdf.fifo", "off", {"off", "reorder", "command_queue"},
                               "commands ahead of data: reorder = inserted ahead in one FIFO, command_queue = separate FIFO checked first")));
    t.add(from_schedule(boolean("cmdf.arbitration", false, "with a command at the head, arbitrate even when fairness forbids it")));
    t.add(from_schedule(boolean("cmdf.preempt", false, "while OPEN, close and TRANSFER to the disk a waiting command is for")));

    t.add(choice("cmdf.impl", "model", {"model", "rtl"},
                 "the controller's transmit queue: model = the SystemC reference, rtl = the Verilated RTL (rtl/cmdf_top.v)"));
    // Bounded so that clock edges stay representable in picoseconds over any run, and the block keeps
    // up with the loop's push and pop rate closely enough that its time stays near the ports'.
    t.add(real("rtl.clock_mhz", 212.5, 1.0, "MHz", "clock of the RTL transmit queue (cmdf.impl=rtl)", false, 10000.0));
    t.add(boolean("rtl.lockstep", false,
                  "run the SystemC reference beside the RTL, compare every decision, stop at the first divergence (cmdf.impl=rtl)"));

    t.add(positive("sim.time_limit_s", 100.0, "s", "simulated time after which the run stops regardless (safety stop)"));
    return t;
}

}  // namespace fcal::sim
