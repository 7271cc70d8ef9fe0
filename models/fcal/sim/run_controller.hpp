#pragma once
// A run of a built system: it runs to its end (the workload done, the time limit, a deadlock, an RTL
// failure or a request to stop), keeps the I/O account, gathers the results from every component
// and says which exit code fcal-sim returns for it (docs/cli.md, "fcal-sim").
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "fcal/sim/storage_system.hpp"

namespace fcal::sim {

// RtlError: the RTL failed a check (cmdf.impl=rtl); Interrupted: the caller asked the run to stop.
enum class RunEnd { Completed, TimeLimit, Deadlock, RtlError, Interrupted };
std::string to_string(RunEnd end);  // "completed", "time_limit", "deadlock", "rtl_error", "interrupted"

struct RunResult {
    RunEnd end = RunEnd::Completed;
    std::string diagnosis;  // time limit or deadlock: what every port and queue was doing; divergence: the report
};

// fcal-sim's exit codes (apps/simulator_cli.cpp's comment says when each is returned).
namespace exit_code {
constexpr int kCompleted = 0;
constexpr int kTimeLimit = 1;
constexpr int kBadInput = 2;
constexpr int kDeadlock = 3;
constexpr int kRtlError = 4;
constexpr int kInternalError = 5;
constexpr int kWriteError = 6;
constexpr int kInterruptedBase = 128;  // + the signal's number, as shells report it: 130 SIGINT, 143 SIGTERM
}  // namespace exit_code

class RunController {
public:
    explicit RunController(StorageSystem& system);

    // Runs to the end: the workload done, the time limit, a deadlock or an RTL failure. With
    // `stop_requested`, asks it between slices of kRunSliceSeconds simulated time (nothing per event,
    // and slicing changes no result) and ends Interrupted when it says so. Closes the traces.
    static constexpr double kRunSliceSeconds = 1e-3;
    RunResult run(const std::function<bool()>& stop_requested = nullptr);

    // Statistics plus every component's counters (no wall-clock fields).
    nlohmann::json results() const;
    // The I/O account (docs/faults.md, "FCP recovery"): every issued I/O is
    // completed, failed or outstanding, and the outstanding ones are held by the layer below the
    // workload (the volume, or the device driver). Empty when it balances, else what does not.
    std::string account_violation() const;
    // What the workload and every queue and port are doing now, as each component states it.
    std::string diagnosis() const;
    void report_loops(nlohmann::json& j) const;

    // The exit code of a run that ended as `result` (not interrupted: the caller knows the signal)
    // and what goes to stderr for it ("" for none). `results`: as results() gave them.
    struct Outcome {
        int exit_code = exit_code::kCompleted;
        std::string message;
    };
    Outcome outcome(const RunResult& result, const nlohmann::json& results) const;

private:
    void report_initializations(nlohmann::json& j) const;

    StorageSystem& system_;
    bool workload_done_ = false;
};

}  // namespace fcal::sim
