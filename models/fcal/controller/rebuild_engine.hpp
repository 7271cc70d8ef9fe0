#pragma once
// Rebuilds one member at a time onto a spare (docs/controller.md, "Degraded mode and rebuild"),
// round by round as RebuildPlan lays them out: a round's reads first, then, when all
// are back, its write. Up to `rounds_in_flight` rounds are under way at once, so that the survivors'
// reads of later rounds overlap the spare's write of earlier ones and an idle rebuild runs at the
// rate of its bottleneck (on a loop only if the rounds in flight hide their latency:
// docs/controller.md, "The loop-bound rebuild"). With a rate cap, rounds start at least round bytes / rate apart (a token
// bucket one round deep: time lost is not caught up).
//
// The rows of the rounds under way, and a row only part rebuilt, are locked: the controller holds back
// host writes that touch them, and a round does not start while a host write is under way on its
// rows (it waits, its rows already locked, so it cannot be starved). The watermark (rows wholly
// rebuilt) only moves over rounds done in order.
//
// It sends commands and hears of them through the controller (hooks), and times its start delay and
// its rate cap with the controller's VolumeTimer.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "fcal/controller/rebuild_plan.hpp"
#include "fcal/controller/volume_timer.hpp"

namespace fcal::controller {

// In SI units, with no defaults: the simulator's parameter table holds them (volume.rebuild_*) and
// binds its keys straight to these fields.
struct RebuildParams {
    double delay_s{};                 // from a member's failure (or a spare's arrival) to the start
    double rate_bytes_per_s{};        // cap on the bytes rebuilt per second; 0: as fast as it goes
    std::uint64_t io_bytes{};         // bytes per rebuild command (whole member blocks, at least one)
    unsigned rounds_in_flight{};      // rounds under way at once
};

class RebuildEngine {
public:
    struct Hooks {
        std::function<void(std::uint64_t round, const std::vector<MemberIo>& ios)> send;  // to members, by index
        std::function<bool(std::uint64_t first_row, std::uint64_t last_row)> host_writing;  // under way on these rows?
        std::function<void(std::uint64_t rows)> progress;  // the rows below `rows` are rebuilt
        std::function<void()> finished;                    // every row is rebuilt
        std::function<void(const std::string& why)> failed;  // a command failed: the rebuild has stopped
    };

    RebuildEngine(const VolumeGeometry& geometry, const RebuildParams& params, std::uint32_t block_bytes, VolumeTimer& timer,
                  Hooks hooks);

    // Calls `ready` once the start delay has passed (instead of any call pending).
    void wait_delay(std::function<void()> ready);
    bool delaying() const { return delaying_; }
    void start(unsigned member);
    // Forgets the rebuild (or the delay): later completions of its commands are ignored.
    void stop();
    bool running() const { return plan_.has_value(); }
    std::optional<unsigned> member() const;

    // Host writes touching rows [first_row, last_row] must wait.
    bool locks(std::uint64_t first_row, std::uint64_t last_row) const;
    // Some host write has ended: a round waiting for the host's writes may start.
    void host_write_ended();
    // One of a round's commands is back.
    void completed(std::uint64_t round, bool ok, const std::string& failure);

    std::uint64_t bytes_written() const { return bytes_; }     // to spares, every rebuild
    std::uint64_t commands_sent() const { return commands_; }
    unsigned rebuilds_completed() const { return completed_; }
    sc_core::sc_time time_of_completed() const { return time_; }  // summed over the completed rebuilds
    double progress() const;  // of the rebuild under way (0 when none)
    // rebuild_time_s, rebuild_bytes, rebuilds_completed, rebuild_commands, rebuild_progress.
    void report(nlohmann::json& volume) const;

private:
    struct Flight {
        RebuildRound round;
        std::size_t reads_left = 0;
        bool writing = false, done = false;
    };
    void pump();  // starts the rounds that may start
    void finish();
    sc_core::sc_time interval(std::uint64_t blocks) const;
    std::uint64_t io_blocks() const { return params_.io_bytes / block_bytes_; }

    VolumeGeometry geometry_;
    RebuildParams params_;
    std::uint32_t block_bytes_;
    VolumeTimer& timer_;
    Hooks hooks_;

    std::optional<RebuildPlan> plan_;
    std::uint64_t next_round_ = 0;
    std::uint64_t done_blocks_ = 0;   // the watermark: rounds done in order
    std::uint64_t locked_end_ = 0;    // end of the last round started or waiting to start
    std::map<std::uint64_t, Flight> flights_;  // by round key
    std::deque<std::uint64_t> order_;          // keys in round order
    std::uint64_t next_key_ = 0;               // unique over every rebuild
    sc_core::sc_time next_start_;              // rate cap: the earliest the next round may start
    sc_core::sc_time started_;
    bool delaying_ = false, pacing_ = false, waiting_writes_ = false;

    std::uint64_t bytes_ = 0, commands_ = 0;
    unsigned completed_ = 0;
    sc_core::sc_time time_;
};

}  // namespace fcal::controller
