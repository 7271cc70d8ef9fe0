#pragma once
// An erasure job (docs/erasure.md, "Erasure"): it writes every block of each chosen disk once, with
// WRITE(10) of `transfer_blocks` blocks (the transfer length; the data cross the loop) or WRITE
// SAME(10) of ranges of `same_blocks` blocks (one block of data per command crosses the loop, the
// disk writes the range). The last command of a disk covers what is left.
//
// Strategies, each with at most one command outstanding per disk:
// - sequential: disk 0 from its first block to its last, then disk 1, ...;
// - round robin: one command to each disk that has blocks left, in turn, each waiting for the
//   previous command's completion;
// - parallel: every disk its own stream, one command outstanding each.
//
// It is a Workload whose I/Os are all writes, one per command, so the statistics, the end of the run
// and the diagnosis treat it like any other; total_ios is the number of commands.
#include <cstdint>
#include <functional>
#include <systemc>
#include <vector>

#include "fcal/host/workload.hpp"

namespace fcal::host {

enum class EraseCommand { Write, WriteSame };
enum class EraseStrategy { Sequential, RoundRobin, Parallel };
const char* to_string(EraseCommand command);    // "write", "write_same"
const char* to_string(EraseStrategy strategy);  // "sequential", "round_robin", "parallel"

// No defaults of their own: the simulator's parameter table holds them (erase.*).
struct EraseParams {
    std::vector<phy::AlPa> disks;                // the disks to erase; disk i has AL_PA disks[i]
    std::vector<std::uint64_t> capacity_blocks;  // each one's capacity in blocks
    EraseCommand command{};
    EraseStrategy strategy{};
    std::uint32_t transfer_blocks{};             // WRITE: transfer length (1..65535)
    std::uint32_t same_blocks{};                 // WRITE SAME: range (1..65535)
    std::uint32_t block_bytes{};

    std::uint32_t blocks_per_command() const { return command == EraseCommand::WriteSame ? same_blocks : transfer_blocks; }
};

// Throws std::invalid_argument naming the offending field.
void validate(const EraseParams& params);

// Commands the job sends to a disk of `capacity_blocks`: ceil(capacity / blocks per command).
std::uint64_t erase_commands(std::uint64_t capacity_blocks, std::uint32_t blocks_per_command);

// What the job did to one disk.
struct EraseProgress {
    std::uint64_t next_lba = 0;            // first block not yet sent
    std::uint64_t commands = 0;            // completed
    std::uint64_t wire_bytes = 0;          // see count_wire()
    sc_core::sc_time first_issued;         // its first command
    sc_core::sc_time finished;             // its last completion (when done)
    bool done = false;
};

class EraseJob : public Workload {
public:
    using ProgressCallback = std::function<void(std::uint64_t completed, std::uint64_t total)>;

    SC_HAS_PROCESS(EraseJob);
    EraseJob(sc_core::sc_module_name name, IoTarget& driver, const EraseParams& erase);

    const EraseParams& erase_params() const { return erase_; }
    const std::vector<EraseProgress>& progress() const { return disks_; }
    // The disks the first kOrderKept commands went to, in issue order (for checking the strategies).
    static constexpr std::size_t kOrderKept = 4096;
    const std::vector<unsigned>& issue_order() const { return order_; }
    // A frame of an erase command's exchange crossed the loop: `words` transmission words of 4
    // bytes, SOF to EOF (the ordered sets between frames are not counted).
    void count_wire(const hba::IoRequest& io, std::uint32_t words) { disks_.at(io.disk).wire_bytes += 4ull * words; }
    // Called at every tenth of the commands completed (10 %, 20 %, ... 100 %).
    void on_progress(ProgressCallback callback) { on_progress_ = std::move(callback); }
    // The whole job: from time 0 to the last completion.
    sc_core::sc_time erase_time() const { return finished_; }
    // The I/O account, and the job's figures (docs/erasure.md, "Erasure"): the whole job's time
    // (erase_time_s), what it did to each disk, merged into that disk's entry of "disks" (erase_time_s,
    // commands, wire_bytes, capacity_bytes), and "erase" (command, strategy, blocks_per_command,
    // disks, commands, wire_bytes). What the disks wrote is theirs to tell.
    void report(nlohmann::json& j) const override;

private:
    void start();  // SC_METHOD, runs once at time 0
    void after_completion(const hba::IoRequest& io) override;
    bool has_blocks(unsigned disk) const { return disks_[disk].next_lba < erase_.capacity_blocks[disk]; }
    void issue_next(unsigned disk);

    EraseParams erase_;
    std::vector<EraseProgress> disks_;
    std::vector<unsigned> order_;
    sc_core::sc_time finished_;
    ProgressCallback on_progress_;
};

}  // namespace fcal::host
