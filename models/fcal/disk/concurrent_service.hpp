#pragma once
// The commands a fixed disk serves at once when disk.max_concurrent is above 1 (docs/disk.md,
// "Concurrent commands"): up to `places` commands are in service together, each in an access
// of its own; a command whose access ended waits for the one medium, which moves one command's bytes
// at a time, in the order the accesses ended; a command keeps its place until its transfer ends.
//
// The disk times the accesses and transfers and reports their ends here. Each service has a number
// of its own, so that the end of an access or transfer whose command was aborted meanwhile (a tag may
// be reused at once) is recognised and leads nowhere. SystemC-free; a template over the disk's
// command record.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "fcal/kernel/ring_queue.hpp"

namespace fcal::disk {

template <class Command>
class ConcurrentService {
public:
    explicit ConcurrentService(unsigned places) : places_(places) {}

    bool has_place() const { return in_service_.size() < places_; }
    bool idle() const { return in_service_.empty(); }
    std::size_t in_service() const { return in_service_.size(); }

    // `command` takes a free place and begins its access; its transfer will take `media_s` seconds.
    // Returns the service's number.
    std::uint64_t begin(const Command& command, double media_s)
    {
        in_service_.push_back({++last_id_, command, media_s});
        return last_id_;
    }

    // The access of service `id` ended: it waits for the medium (nothing if it was aborted).
    void accessed(std::uint64_t id)
    {
        if (find(id) != in_service_.end()) media_queue_.push_back(id);
    }

    struct Transfer {
        std::uint64_t id = 0;
        double media_s = 0;
    };
    // The transfer to start now, if the medium is free and an accessed command waits for it.
    std::optional<Transfer> next_transfer()
    {
        if (medium_busy_ || media_queue_.empty()) return std::nullopt;
        const std::uint64_t id = media_queue_.front();
        media_queue_.pop_front();
        medium_busy_ = true;
        return Transfer{id, find(id)->media_s};
    }

    // The transfer of service `id` ended and the medium is free. Returns its command, whose place is
    // free now, or nothing if the command was aborted meanwhile.
    std::optional<Command> transferred(std::uint64_t id)
    {
        medium_busy_ = false;
        const auto it = find(id);
        if (it == in_service_.end()) return std::nullopt;
        const Command done = it->command;
        in_service_.erase(it);
        return done;
    }

    // Aborts the command in service that `match` holds for: false if there is none. Its place is free
    // at once; its access or transfer under way runs on to its end and leads nowhere (the medium is
    // not stopped midway).
    template <class Match>
    bool abort(Match&& match)
    {
        const auto it = std::find_if(in_service_.begin(), in_service_.end(), [&](const Entry& e) { return match(e.command); });
        if (it == in_service_.end()) return false;
        const std::uint64_t id = it->id;
        in_service_.erase(it);
        media_queue_.erase_if([id](std::uint64_t queued) { return queued == id; });
        return true;
    }

private:
    struct Entry {
        std::uint64_t id = 0;
        Command command;
        double media_s = 0;
    };
    typename std::vector<Entry>::iterator find(std::uint64_t id)
    {
        return std::find_if(in_service_.begin(), in_service_.end(), [id](const Entry& e) { return e.id == id; });
    }

    unsigned places_;
    std::vector<Entry> in_service_;            // at most places_, in the order they began
    kernel::RingQueue<std::uint64_t> media_queue_;  // accessed, waiting for the medium, in the order the accesses ended
    bool medium_busy_ = false;
    std::uint64_t last_id_ = 0;
};

}  // namespace fcal::disk
