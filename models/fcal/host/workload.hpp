#pragma once
// What workloads share (docs/host.md, "The workloads"): the I/O mix, a seeded random stream, the pool of
// IoRequests they own, the count of I/Os to issue, and the reporting of completions.
//
// Every I/O draws, in this order, read-or-write, its size (only with io_size_max_bytes) and then its
// LBA, so a seed fixes the whole sequence. Requests come from a pool: a pointer stays valid until the driver reports the I/O
// complete; after the completion callback returns, the object is reused (copy what you keep).
#include <cstdint>
#include <deque>
#include <functional>
#include <iosfwd>
#include <string>
#include <systemc>
#include <vector>

#include <nlohmann/json.hpp>

#include "fcal/hba/io_request.hpp"
#include "fcal/host/io_target.hpp"
#include "fcal/host/split_mix64.hpp"
#include "fcal/phy/al_pa.hpp"

namespace fcal::host {

// Every disk's capacity (64 GiB of 512-byte blocks).
constexpr std::uint64_t kDiskCapacityBlocks = 1ULL << 27;

enum class LbaPattern { Random, Sequential };

// The fields the simulator's parameter table sets (workload.*) have no defaults here; the table holds
// them. The disk geometry is no parameter and keeps its constants.
//
// The I/Os go to "disks": the disks themselves, or (with a RAID volume) the one volume, which is then
// disk 0 with the volume's capacity (its AL_PA is not used).
struct WorkloadParams {
    std::vector<phy::AlPa> disks;              // disk i has AL_PA disks[i]
    LbaPattern lba{};                          // random: uniform; sequential: each disk's I/Os back to back
    double read_fraction{};                    // probability that an I/O is a read
    std::uint32_t io_size_bytes{};
    std::uint32_t io_size_max_bytes{};         // 0: every I/O io_size_bytes; else whole blocks, uniform up to this
    std::uint32_t block_bytes = 512;           // LBA unit
    std::uint64_t disk_capacity_blocks = kDiskCapacityBlocks;  // LBAs uniform over the disk
    std::uint64_t span_blocks{};               // 0: the whole disk; else LBAs within its first span_blocks
    std::uint64_t total_ios{};                 // warm-up + measured + cool-down
    std::uint64_t seed{};
};

// Throws std::invalid_argument naming the offending field.
void validate(const WorkloadParams& params);

class Workload : public sc_core::sc_module {
public:
    using IoCallback = std::function<void(const hba::IoRequest&)>;
    using DoneCallback = std::function<void()>;

    // Every completed I/O, in completion order (the statistics layer records them). A failed I/O
    // (docs/faults.md, "FCP recovery") is not completed: it is counted apart and
    // makes room for the next I/O like a completion.
    void on_completed(IoCallback callback) { on_completed_ = std::move(callback); }
    // Once all total_ios are complete (the simulator stops there).
    void on_done(DoneCallback callback) { on_done_ = std::move(callback); }

    const WorkloadParams& params() const { return params_; }
    std::uint64_t issued() const { return issued_; }
    std::uint64_t completed() const { return completed_; }
    std::uint64_t failed() const { return failed_; }
    // The first kMaxFailuresKept failed I/Os, "I/O <id> (disk <d>, read|write): <reason>".
    const std::vector<std::string>& failures() const { return failures_; }
    static constexpr std::size_t kMaxFailuresKept = 10;
    std::uint64_t outstanding() const { return issued_ - completed_ - failed_; }
    // Requests handed below and not yet back (completed or failed), counted from the pool: for the
    // I/O account (issued = completed + failed + outstanding).
    std::uint64_t requests_out() const { return pool_.size() - free_.size(); }
    std::uint64_t outstanding(unsigned disk) const { return outstanding_per_disk_.at(disk); }
    std::uint64_t reads_issued() const { return reads_issued_; }
    bool finished() const { return completed_ + failed_ == params_.total_ios; }
    // The I/O account of the whole run (issued_ios, completed_ios, outstanding_ios, failed_ios) and
    // the first failures (docs/faults.md, "FCP recovery").
    virtual void report(nlohmann::json& j) const;
    // For a diagnosis: "issued I, completed C, outstanding O".
    void print_state(std::ostream& out) const;

    // The disk failed (docs/faults.md, "Scheduled events"): no more I/Os are issued to it (a closed
    // workload's slots for it end, an open workload's arrivals for it are dropped). With every disk
    // gone nothing more is issued and the run ends once the outstanding I/Os are back.
    void disk_gone(unsigned disk);
    // The disk is back (inserted, or its port enabled): I/Os are issued to it again (a closed workload
    // refills its slots for it up to the queue depth, an open workload's arrivals for it are issued).
    // Once the run has ended (every disk gone and the I/Os out back) it changes nothing.
    void disk_back(unsigned disk);
    bool gone(unsigned disk) const { return gone_.at(disk); }

protected:
    Workload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params);

    // Issues one I/O to `disk` now; false (and nothing issued) once total_ios have been issued.
    bool issue(unsigned disk);
    // Issues `shape` (its disk, direction, bytes, LBA and WRITE SAME range; the rest is filled in) now,
    // drawing nothing; false (and nothing issued) once total_ios have been issued.
    bool issue_shaped(const hba::IoRequest& shape);
    bool all_issued() const { return issued_ >= params_.total_ios || gone_count_ == gone_.size(); }
    // The end of a run with nothing to issue at all.
    void report_done_if_finished();
    SplitMix64& random() { return random_; }
    // Called after the completion has been reported and before the request is reused.
    virtual void after_completion(const hba::IoRequest& /*io*/) {}
    // Called when a gone disk is back.
    virtual void after_disk_back(unsigned /*disk*/) {}

private:
    void complete(hba::IoRequest* io);

    WorkloadParams params_;
    IoTarget& driver_;
    SplitMix64 random_;
    std::uint64_t span_ = 0;  // LBAs drawn from [0, span_)
    std::deque<hba::IoRequest> pool_;  // deque: growing it keeps pointers valid
    std::vector<hba::IoRequest*> free_;
    std::vector<std::uint64_t> outstanding_per_disk_;
    std::vector<std::uint64_t> next_lba_;  // sequential pattern, per disk
    std::vector<bool> gone_;               // per disk: failed, removed or bypassed
    std::size_t gone_count_ = 0;
    std::uint64_t issued_ = 0;
    std::uint64_t completed_ = 0;
    std::uint64_t failed_ = 0;
    std::vector<std::string> failures_;
    std::uint64_t reads_issued_ = 0;
    bool done_reported_ = false;
    IoCallback on_completed_;
    DoneCallback on_done_;
};

}  // namespace fcal::host
