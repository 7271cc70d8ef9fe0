#include "fcal/sim/parameter_table.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ios>
#include <iomanip>
#include <limits>
#include <ostream>
#include <set>
#include <sstream>

#include "fcal/sim/sim_config.hpp"
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

std::string expectation(const Parameter& p)
{
    switch (p.type) {
    case ParamType::Bool: return "true or false";
    case ParamType::Integer: return "an integer";
    case ParamType::Real: return "a number";
    case ParamType::Choice: return "one of " + range_text(p);
    case ParamType::Bytes: return "a byte size (e.g. 2048, 64K or 64KiB; K, M, G are powers of 1024)";
    case ParamType::AlPa: return "an AL_PA (e.g. 0x01)";
    }
    throw std::logic_error("unknown parameter type");
}

// `hint`: what the user probably meant (a near miss), or "".
[[noreturn]] void wrong_type(const Parameter& p, const std::string& got, const std::string& hint = "")
{
    throw ConfigError(p.key + ": expected " + expectation(p) + ", got " + got + (hint.empty() ? "" : " (did you mean " + hint + "?)"));
}

[[noreturn]] void out_of_range(const Parameter& p, const std::string& value)
{
    const std::string range = range_text(p);
    // Two-sided ranges read naturally as "1..125"; one-sided ones need "must be".
    if (range.find("..") != std::string::npos)
        throw ConfigError(p.key + ": " + value + " is out of range " + range);
    throw ConfigError(p.key + ": " + value + " is out of range (must be " + range + ")");
}

// A value too large for 64 bits. The text of a range open above ("must be >= 0") would be true of
// it, so the message names the limit it passes: the largest value the key's integer holds.
[[noreturn]] void too_large(const Parameter& p, const std::string& value)
{
    const std::string range = range_text(p);
    if (p.int_max != kInt64Max || p.type == ParamType::AlPa) out_of_range(p, value);
    throw ConfigError(p.key + ": " + value + " is out of range (must be " + (range.empty() ? "" : range + " and ") +
                      "<= " + std::to_string(kInt64Max) + ")");
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

// Whole-string integer; nullopt when the text is not one, overflow reported as out of range.
std::optional<std::int64_t> parse_integer(const Parameter& p, const std::string& text, int base = 10)
{
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, value, base);
    if (text.empty() || result.ptr != end) return std::nullopt;
    if (result.ec == std::errc::result_out_of_range) {
        if (text[0] == '-') out_of_range(p, shortened(text));
        too_large(p, shortened(text));
    }
    if (result.ec != std::errc()) return std::nullopt;
    return value;
}

std::string lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// Whole bytes: digits, then optionally K, M or G (either case) for 1024, 1024^2, 1024^3, which may be
// written KiB, MiB, GiB (the "iB" as IEC writes it). A "KB" or "kib" is refused rather than read as
// either 1000 or 1024 (docs/cli.md, "Values"); a fraction ("1.5K") because a size is whole bytes.
std::int64_t parse_bytes_text(const Parameter& p, const std::string& text)
{
    const std::size_t digits_end = std::min(text.find_first_not_of("0123456789"), text.size());
    const std::string digits = text.substr(0, digits_end), suffix = text.substr(digits_end);
    std::int64_t multiplier = 1;
    if (!suffix.empty()) {
        switch (suffix[0]) {
        case 'K': case 'k': multiplier = kKi; break;
        case 'M': case 'm': multiplier = kMi; break;
        case 'G': case 'g': multiplier = kGi; break;
        default: break;
        }
        if (multiplier == 1 || (suffix.size() > 1 && suffix.substr(1) != "iB")) {
            // A unit spelt another way ("32kb", "32KIB"): name the spelling that is taken.
            const std::string unit = lower(suffix);
            const bool near = !digits.empty() && multiplier != 1 && (unit.substr(1) == "b" || unit.substr(1) == "ib");
            wrong_type(p, quoted_text(text), near ? digits + static_cast<char>(std::toupper(unit[0])) + "iB" : "");
        }
    }
    if (digits.empty()) wrong_type(p, quoted_text(text));
    const auto value = parse_integer(p, digits);
    if (!value) wrong_type(p, quoted_text(text));
    if (*value > kInt64Max / multiplier) too_large(p, shortened(text));
    return *value * multiplier;
}

// A choice as its table spells it: the text given, or the one choice that matches it ignoring case
// ("4gfc" is 4GFC; docs/cli.md, "Values"). Several matches, or none, are refused; a near miss is named.
std::string canonical_choice(const Parameter& p, const std::string& text)
{
    std::vector<const Choice*> matches;
    for (const Choice& c : p.choices) {
        if (c.text == text) return text;
        if (lower(c.text) == lower(text)) matches.push_back(&c);
    }
    if (matches.size() == 1) return matches.front()->text;
    if (!matches.empty()) wrong_type(p, quoted_text(text) + " (which matches several choices, differing only in case)");
    // A unique nearest choice within two edits ("round-robin"), else no guess ("3GFC" is as near 2GFC as 4GFC).
    const Choice* best = nullptr;
    std::size_t best_distance = 3;
    bool tie = false;
    if (text.size() <= kShownBytes)
        for (const Choice& c : p.choices) {
            const std::size_t d = edit_distance(lower(text), lower(c.text));
            if (d < best_distance) best = &c, best_distance = d, tie = false;
            else if (d == best_distance) tie = true;
        }
    wrong_type(p, quoted_text(text), best && !tie ? best->text : "");
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
    case ParamType::Choice: return canonical_choice(p, text);
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
            if (value.get<std::uint64_t>() > static_cast<std::uint64_t>(kInt64Max)) too_large(p, shown(value));
            return static_cast<std::int64_t>(value.get<std::uint64_t>());
        }
        if (value.is_number_integer()) return value.get<std::int64_t>();
        // A whole number beyond 64 bits reaches here as a double (1e30, or 99999999999999999999):
        // too large, not "not an integer".
        if (value.is_number_float() && std::isfinite(value.get<double>()) &&
            std::abs(value.get<double>()) >= 0x1p63 && std::floor(value.get<double>()) == value.get<double>()) {
            if (value.get<double>() < 0) out_of_range(p, shown(value));
            too_large(p, shown(value));
        }
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

}  // namespace

void ParameterTable::add(Parameter parameter)
{
    const auto wrong = [&](const std::string& what) { throw std::logic_error("parameter " + parameter.key + " " + what); };
    if (index_.count(parameter.key)) wrong("added twice");
    if (parameter.type == ParamType::Choice && parameter.choices.empty()) wrong("has no choices");
    if (!parameter.field) wrong("fills no field");
    if (parameter.per_disk && (!parameter.field->in_disk() || parameter.key.rfind("disk.", 0) != 0))
        wrong("is per disk but not a disk.* key of SimConfig::disk");
    if (parameter.per_event && (!parameter.field->in_event() || parameter.key.rfind("event.<n>.", 0) != 0))
        wrong("is per event but not an event.<n>.* key of SimConfig::event");
    if (parameter.type == ParamType::Integer || parameter.type == ParamType::Bytes) {
        // Scaled to the field's unit, the key's whole range must fit the field's integer type.
        const auto scale = static_cast<std::int64_t>(parameter.field_scale);
        constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max(), least = std::numeric_limits<std::int64_t>::min();
        if (scale < 1 || parameter.int_max > most / scale || parameter.int_min < least / scale ||
            !parameter.field->holds(parameter.int_min * scale, parameter.int_max * scale))
            wrong("has a range its field's type cannot hold");
    }
    if (parameter.default_value) {
        try {
            if (parameter.type == ParamType::Choice) parse_text(parameter, std::get<std::string>(*parameter.default_value));
            check_limits(parameter, *parameter.default_value);
        } catch (const std::exception& e) {
            throw std::logic_error(std::string("bad default: ") + e.what());
        }
    } else if (parameter.default_text.empty()) {
        wrong("needs a default or a default text");
    }
    // An event's key is given only with its number (indexed_key), never as declared.
    if (!parameter.per_event) index_.emplace(parameter.key, parameters_.size());
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

// Disk indices of overrides: a loop holds at most 125 disks (disk.count's limit). Events are numbered
// from 0 up to kMaxEventIndex.
constexpr unsigned kMaxDiskIndex = 124;
constexpr unsigned kMaxEventIndex = 999;

std::optional<std::pair<unsigned, Parameter>> ParameterTable::indexed_key(const std::string& key, bool per_event) const
{
    const std::string family = per_event ? "event" : "disk";
    const std::string prefix = family + ".";
    // Where the declarations write the index: disk.<name> for disk.<i>.<name>, event.<n>.<name> as it is.
    const std::string declared_prefix = per_event ? "event.<n>." : prefix;
    const unsigned max_index = per_event ? kMaxEventIndex : kMaxDiskIndex;
    if (key.rfind(prefix, 0) != 0) return std::nullopt;
    const auto dot = key.find('.', prefix.size());
    if (dot == std::string::npos || dot == prefix.size()) return std::nullopt;
    const std::string digits = key.substr(prefix.size(), dot - prefix.size());
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
    const auto belongs = [&](const Parameter& p) { return per_event ? p.per_event : p.per_disk; };
    const Parameter* base = nullptr;
    for (const auto& p : parameters_)
        if (belongs(p) && p.key == declared_prefix + key.substr(dot + 1)) base = &p;
    if (base == nullptr) {
        std::string names;
        for (const auto& p : parameters_)
            if (belongs(p)) names += (names.empty() ? "" : ", ") + p.key.substr(declared_prefix.size());
        throw ConfigError(shown_key(key) + ": unknown parameter (" +
                          (per_event ? "an event.<n>.<name> key" : "a disk.<i>.<name> override") + " takes one of: " + names + ")");
    }
    // The index as a number: "0004" is disk 4, written so it would be given twice under two names.
    const std::string what = per_event ? "an event number" : "a disk index";
    const std::string number = digits.substr(std::min(digits.find_first_not_of('0'), digits.size() - 1));
    if (number.size() > 3 || std::stoul(number) > max_index)
        throw ConfigError(shown_key(key) + ": " + what.substr(what.find(' ') + 1) + " " + shortened(number) + " is out of range 0.." +
                          std::to_string(max_index));
    if (number != digits)
        throw ConfigError(shown_key(key) + ": " + what + " has no leading zeros (" + family + "." + number + key.substr(dot) + ")");
    Parameter p = *base;
    p.key = key;
    return std::make_pair(static_cast<unsigned>(std::stoul(number)), std::move(p));
}

std::string ParameterTable::declared_event_key(const std::string& key)
{
    return "event.<n>" + key.substr(key.find('.', 6));
}

const Parameter& ParameterTable::event_parameter(const std::string& declared) const
{
    for (const auto& p : parameters_)
        if (p.per_event && p.key == declared) return p;
    throw std::logic_error("no event parameter " + declared);
}

std::vector<unsigned> ParameterTable::override_disks() const
{
    std::vector<unsigned> disks;
    for (const auto& [where, value] : overrides_)
        if (disks.empty() || disks.back() != where.first) disks.push_back(where.first);
    return disks;
}

void ParameterTable::set(const std::string& key, const std::string& text)
{
    if (const auto o = disk_override(key)) {
        ParamValue value = parse_text(o->second, text);
        check_limits(o->second, value);
        overrides_[{o->first, "disk." + key.substr(key.find('.', 5) + 1)}] = std::move(value);
        return;
    }
    if (const auto e = event_key(key)) {
        ParamValue value = parse_text(e->second, text);
        check_limits(e->second, value);
        events_[{e->first, declared_event_key(key)}] = std::move(value);
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
    std::vector<std::pair<std::pair<unsigned, std::string>, ParamValue>> event_updates;
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
            if (const auto e = event_key(key)) {
                if (!seen.insert(key).second) throw ConfigError(shown_key(key) + ": given twice");
                ParamValue value = parse_json_value(e->second, member.value());
                check_limits(e->second, value);
                event_updates.push_back({{e->first, declared_event_key(key)}, std::move(value)});
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
    for (auto& [where, value] : event_updates) events_[where] = std::move(value);
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
    } catch (const std::ios_base::failure& e) {  // a read error the stream throws (/proc/self/mem: I/O error)
        throw ConfigError(name + ": cannot read (" + e.code().message() + ")");
    }
    if (in.bad()) throw ConfigError(name + ": cannot read (" + std::strerror(errno) + ")");
    // The parser takes a NUL byte for the end of its input (as a C string's) and stops there, so
    // whatever follows one would be ignored; a stream it read to its end has eofbit set.
    if (!in.eof()) throw ConfigError(name + ": a NUL byte after the JSON value (JSON text holds none)");
    // fcal-sim's stats JSON ({"config": ..., "results": ...}): its config block, every resolved value
    // of the run, so that the file reproduces the run (docs/cli.md, "fcal-sim"). No configuration has
    // these two members: neither names a parameter. Nor has a stats JSON any other member: one more
    // (a key meant for the run, given beside the config block) is refused rather than ignored.
    if (object.is_object() && object.contains("config") && object.contains("results") && object["config"].is_object()) {
        for (const auto& member : object.items())
            if (member.key() != "config" && member.key() != "results")
                throw ConfigError(name + ": " + shown_key(member.key()) +
                                  ": not a member of a stats JSON (it has only config and results)");
        load_json(object["config"], name + ": config");
        return;
    }
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

namespace {

// disk.<index>.<name> for the per-disk key disk.<name>.
std::string disk_key(unsigned index, const std::string& key) { return "disk." + std::to_string(index) + key.substr(4); }

// event.<n>.<name> for the declared key event.<n>.<name> (with "<n>" as written).
std::string event_key_of(unsigned n, const std::string& declared) { return "event." + std::to_string(n) + declared.substr(9); }

}  // namespace

void ParameterTable::fill(SimConfig& config) const
{
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
        const Parameter& p = parameters_[i];
        const auto& value = entries_[i].value ? entries_[i].value : p.default_value;
        if (!value) continue;
        p.field->store(config, p.field_value(*value));
        if (p.type == ParamType::Real && p.scaled()) config.given[p.key] = std::get<double>(*value);
    }
    // Derived defaults read only fields of keys with plain defaults, all filled by now.
    for (std::size_t i = 0; i < parameters_.size(); ++i)
        if (!entries_[i].value && !parameters_[i].default_value && parameters_[i].derive) parameters_[i].derive(config);

    config.disks.assign(config.disk_count, config.disk);
    for (const auto& [where, value] : overrides_) {
        const auto& [disk, key] = where;
        if (disk >= config.disk_count)
            throw ConfigError(disk_key(disk, key) + ": disk " + std::to_string(disk) +
                              " does not exist (disk.count = " + std::to_string(config.disk_count) + ", disks 0.." +
                              std::to_string(config.disk_count - 1) + ")");
        const Parameter& p = parameters_[index_.at(key)];
        p.field->store(config.disks[disk], p.field_value(value));
        if (p.type == ParamType::Real && p.scaled()) config.given[disk_key(disk, key)] = std::get<double>(value);
    }
    // Scheduled events: each event's keys as given (ScheduledEvents checks them, build_config).
    for (const auto& [where, value] : events_) {
        const auto& [n, key] = where;
        const Parameter& p = event_parameter(key);
        p.field->store(config.events[n], p.field_value(value));
        if (p.type == ParamType::Real && p.scaled()) config.given[event_key_of(n, key)] = std::get<double>(value);
    }
}

namespace {

// Sets the member of `j` a dotted key names, creating the objects on its way.
void put(json& j, const std::string& key, json value)
{
    json* at = &j;
    std::size_t start = 0;
    for (std::size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1) at = &(*at)[key.substr(start, dot - start)];
    (*at)[key.substr(start)] = std::move(value);
}

// A field's value as the key `key` shows it: a scaled real as it was given when the field still
// holds what that value gives (SimConfig::given), else converted back from the field.
ParamValue shown(const Parameter& p, const FieldValue& field, const SimConfig& config, const std::string& key)
{
    if (p.type == ParamType::Real && p.scaled())
        if (const auto it = config.given.find(key); it != config.given.end() && p.field_value(it->second) == field) return it->second;
    return p.param_value(field);
}

}  // namespace

json ParameterTable::echo(const SimConfig& config) const
{
    json j = json::object();
    for (const Parameter& p : parameters_)
        if (!p.per_event)
            if (const auto value = p.field->load(config)) put(j, p.key, json_value(p, shown(p, *value, config, p.key)));
    for (const auto& [n, keys] : config.events)
        for (const Parameter& p : parameters_)
            if (p.per_event)
                if (const auto value = p.field->load(keys)) {
                    const std::string key = event_key_of(n, p.key);
                    put(j, key, json_value(p, shown(p, *value, config, key)));
                }
    // Per-disk overrides: the values in which a disk differs from disk.*.
    for (std::size_t d = 0; d < config.disks.size(); ++d)
        for (const Parameter& p : parameters_) {
            if (!p.per_disk) continue;
            const auto mine = p.field->load(config.disks[d]);
            if (!mine || mine == p.field->load(config.disk)) continue;
            const std::string key = disk_key(static_cast<unsigned>(d), p.key);
            put(j, key, json_value(p, shown(p, *mine, config, key)));
        }
    return j;
}

void ParameterTable::list_json(std::ostream& out) const
{
    static const char* const kTypes[] = {"bool", "integer", "real", "choice", "bytes", "al_pa"};
    json all = json::array();
    for (const auto& p : parameters_) {
        json entry = {{"key", p.key},
                      {"type", kTypes[static_cast<int>(p.type)]},
                      {"unit", p.unit},
                      {"default", p.default_value ? json_value(p, *p.default_value) : json(nullptr)},
                      {"default_text", !p.default_text.empty() ? p.default_text : value_text(p, *p.default_value)},
                      {"range", range_text(p)},
                      {"per_disk", p.per_disk},
                      {"description", p.description}};
        switch (p.type) {
        case ParamType::Integer:
        case ParamType::Bytes:
            if (p.int_min != std::numeric_limits<std::int64_t>::min()) entry["min"] = p.int_min;
            if (p.int_max != std::numeric_limits<std::int64_t>::max()) entry["max"] = p.int_max;
            if (p.multiple_of > 1) entry["multiple_of"] = p.multiple_of;
            break;
        case ParamType::Real:
            if (std::isfinite(p.real_min)) entry["min"] = p.real_min;
            if (std::isfinite(p.real_max)) entry["max"] = p.real_max;
            if (std::isfinite(p.real_min)) entry["min_exclusive"] = p.real_min_exclusive;
            break;
        case ParamType::Choice: entry["choices"] = p.choice_texts(); break;
        case ParamType::Bool:
        case ParamType::AlPa: break;
        }
        all.push_back(std::move(entry));
    }
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

}  // namespace fcal::sim
