#pragma once
// The field a parameter fills, named by a path of member pointers and checked by the compiler:
//   at(&SimConfig::disk, &disk::DiskParams::access_time_s)          a field of a module's config
//   at(&SimConfig::disk, &disk::DiskParams::zoned, &disk::ZonedParams::command_overhead_s)   nested
//   at(&SimConfig::transport)                                        a field of SimConfig itself
// Bools, integers, enums (through a choice's codes), reals and std::optional of any of them (left
// unset unless the key is given). A path that starts at SimConfig::disk also reaches one disk's
// DiskParams, for the per-disk overrides disk.<i>.<name>; one that starts at SimConfig::event reaches
// one scheduled event's keys (event.<n>.<name>).
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "fcal/sim/parameter.hpp"
#include "fcal/sim/sim_config.hpp"

namespace fcal::sim {

namespace binding {

template <class T>
struct Optional : std::false_type {};
template <class T>
struct Optional<std::optional<T>> : std::true_type {};

// The field's type from a FieldValue: enums from their choice's code, reals only into reals.
template <class T>
T cast(const FieldValue& value)
{
    return std::visit(
        [](auto v) -> T {
            if constexpr (std::is_floating_point_v<T> || !std::is_floating_point_v<decltype(v)>)
                return static_cast<T>(v);
            else
                throw std::logic_error("a real value for an integral field");
        },
        value);
}

template <class T>
void assign(T& field, const FieldValue& value)
{
    if constexpr (Optional<T>::value)
        field = cast<typename T::value_type>(value);
    else
        field = cast<T>(value);
}

template <class T>
std::optional<FieldValue> value_of(const T& field)
{
    if constexpr (Optional<T>::value)
        return field ? value_of(*field) : std::nullopt;
    else if constexpr (std::is_same_v<T, bool>)
        return FieldValue{field};
    else if constexpr (std::is_floating_point_v<T>)
        return FieldValue{static_cast<double>(field)};
    else
        return FieldValue{static_cast<std::int64_t>(field)};
}

// Whether a field of type T holds every integer in [low, high] (a real or a bool field holds any).
template <class T>
bool holds(std::int64_t low, std::int64_t high)
{
    if constexpr (Optional<T>::value)
        return holds<typename T::value_type>(low, high);
    else if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool>)
        return true;
    else if constexpr (std::is_unsigned_v<T>)
        return low >= 0 && static_cast<std::uint64_t>(high) <= std::numeric_limits<T>::max();
    else
        return low >= std::numeric_limits<T>::min() && high <= std::numeric_limits<T>::max();
}

// The member a path of member pointers leads to (a member of a base of the object too).
template <class T>
T& walk(T& object)
{
    return object;
}
template <class T, class M, class... Rest>
decltype(auto) walk(T& object, M member, Rest... rest)
{
    return walk(object.*member, rest...);
}

// `first` is a member of SimConfig, `rest` leads from it to the field.
template <class First, class... Rest>
class PathField final : public FieldBinding {
public:
    explicit PathField(First first, Rest... rest) : first_(first), rest_(rest...) {}
    void store(SimConfig& c, const FieldValue& v) const override { assign(field(c.*first_), v); }
    std::optional<FieldValue> load(const SimConfig& c) const override { return value_of(field(c.*first_)); }
    bool in_disk() const override { return kInDisk; }
    bool holds(std::int64_t low, std::int64_t high) const override
    {
        const SimConfig* none = nullptr;  // only for the field's type
        return binding::holds<std::decay_t<decltype(field(none->*first_))>>(low, high);
    }
    void store(disk::DiskParams& d, const FieldValue& v) const override
    {
        if constexpr (kInDisk)
            assign(field(d), v);
        else
            FieldBinding::store(d, v);
    }
    std::optional<FieldValue> load(const disk::DiskParams& d) const override
    {
        if constexpr (kInDisk)
            return value_of(field(d));
        else
            return FieldBinding::load(d);
    }
    bool in_event() const override { return kInEvent; }
    void store(EventKeys& e, const FieldValue& v) const override
    {
        if constexpr (kInEvent)
            assign(field(e), v);
        else
            FieldBinding::store(e, v);
    }
    std::optional<FieldValue> load(const EventKeys& e) const override
    {
        if constexpr (kInEvent)
            return value_of(field(e));
        else
            return FieldBinding::load(e);
    }

private:
    static constexpr bool kInDisk = std::is_same_v<First, disk::DiskParams SimConfig::*>;
    static constexpr bool kInEvent = std::is_same_v<First, EventKeys SimConfig::*>;
    template <class S>
    decltype(auto) field(S& section) const
    {
        return std::apply([&](auto... member) -> decltype(auto) { return walk(section, member...); }, rest_);
    }

    First first_;
    std::tuple<Rest...> rest_;
};

}  // namespace binding

template <class First, class... Rest>
std::shared_ptr<const FieldBinding> at(First first, Rest... rest)
{
    static_assert(std::is_member_object_pointer_v<First>, "a path of members of SimConfig");
    return std::make_shared<binding::PathField<First, Rest...>>(first, rest...);
}

}  // namespace fcal::sim
