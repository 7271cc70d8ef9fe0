#pragma once
// The test-only hooks of fcal-sim-test, the test variant of fcal-sim (tb/fcal_sim_test.cpp; the
// installed fcal-sim has none of them). Used by tools/tests/cli/test_fcal_sim_bad_input.py and
// tools/tests/cli/test_fcal_sim_recovery.py. They sit in the program, not in the model: no configuration
// reaches what they provoke.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>

#include "fcal/fcp/fc_frame.hpp"
#include "fcal/hba/io_request.hpp"
#include "fcal/loop/lport.hpp"
#include "fcal/loop/port_user.hpp"
#include "simulator_cli.hpp"

namespace fcal::tb {

// Test-only hooks on the path from the HBA to the device driver. No valid
// configuration reaches the deadlock path (exit 3) or lets an exception escape the model (exit 5);
// tools/tests/cli/test_fcal_sim_bad_input.py reaches both through these:
//   --test-lose-io N:  the N-th completion the HBA reports never reaches the driver, so one I/O stays
//                      outstanding with nothing left to happen (deadlock);
//   --test-throw-io N: the N-th completion throws inside the running simulation (internal error).
class CompletionHook : public hba::HbaCompletion {
public:
    CompletionHook(hba::HbaCompletion& next, std::uint64_t lose, std::uint64_t fail) : next_(next), lose_(lose), fail_(fail) {}
    void io_complete(hba::IoRequest* io) override
    {
        ++seen_;
        if (seen_ == fail_) throw std::runtime_error("--test-throw-io: completion " + std::to_string(seen_));
        if (seen_ == lose_) return;
        next_.io_complete(io);
    }
    void io_aborted(hba::IoRequest* io, const std::string& reason) override { next_.io_aborted(io, reason); }

private:
    hba::HbaCompletion& next_;
    std::uint64_t lose_, fail_;
    std::uint64_t seen_ = 0;
};

// Test-only frame loss between the loop and the HBAs, for the recovery tests
// (tools/tests/cli/test_fcal_sim_recovery.py): a dropped frame is lost as one failing its CRC would be — its
// buffer is freed at once (one delta later, outside the port's own processing) and the HBA never
// sees it.
//   --test-drop-frame KIND:N  drops the N-th frame of KIND (FCP_CMND, FCP_XFER_RDY, FCP_DATA, FCP_RSP,
//                             ABTS, BA_ACC, or any) delivered to any HBA; repeatable;
//   --test-drop-disk D        drops every frame delivered to disk D's HBA (0-based).
class FrameDrop {
public:
    // "KIND:N"; throws sim::ConfigError naming the option.
    void add_rule(const std::string& text);
    // Counts the frame; true when a rule asks for it to be dropped.
    bool wanted(const fcp::FcFrame& f);

private:
    std::vector<std::pair<std::string, std::uint64_t>> rules_;
    std::map<std::string, std::uint64_t> seen_;
};

class DroppingPortUser : public sc_core::sc_module, public loop::PortUser {
public:
    SC_HAS_PROCESS(DroppingPortUser);
    DroppingPortUser(sc_core::sc_module_name name, loop::LPort& port, loop::PortUser& next, FrameDrop& drop, bool drop_all)
        : sc_module(name), port_(port), next_(next), drop_(drop), drop_all_(drop_all)
    {
        port_.set_user(this);
        SC_METHOD(release);
        sensitive << release_event_;
        dont_initialize();
    }
    void frame_received(loop::FrameRef frame) override
    {
        if (!drop_.wanted(fcp::fc_frame_of(*frame)) && !drop_all_) {
            next_.frame_received(std::move(frame));
            return;
        }
        ++to_release_;
        release_event_.notify(sc_core::SC_ZERO_TIME);
    }
    void frame_sent(const loop::LoopFrame& frame) override { next_.frame_sent(frame); }
    void state_changed(loop::LpsmState from, loop::LpsmState to) override { next_.state_changed(from, to); }

private:
    void release()
    {
        for (; to_release_ > 0; --to_release_) port_.release_buffer();
    }
    loop::LPort& port_;
    loop::PortUser& next_;
    FrameDrop& drop_;
    bool drop_all_;
    unsigned to_release_ = 0;
    sc_core::sc_event release_event_;
};

// The options of all the hooks above, their checks, and the hooks put into the built system.
class TestHooks : public apps::CliExtension {
public:
    void add_options(CLI::App& app) override;
    void check(const sim::SimConfig& config) override;
    void attach(sim::StorageSystem& system) override;

private:
    std::uint64_t lose_io_ = 0, throw_io_ = 0;
    std::vector<std::string> drop_frames_;
    long long drop_disk_ = -1;
    FrameDrop drop_;
    std::unique_ptr<CompletionHook> completion_;
    std::vector<std::unique_ptr<DroppingPortUser>> droppers_;
};

}  // namespace fcal::tb
