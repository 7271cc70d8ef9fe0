#include "fcal/host/erase_job.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fcal::host {

const char* to_string(EraseCommand command) { return command == EraseCommand::WriteSame ? "write_same" : "write"; }

const char* to_string(EraseStrategy strategy)
{
    static const char* const names[] = {"sequential", "round_robin", "parallel"};  // in the enum's order
    return names[static_cast<int>(strategy)];
}

void validate(const EraseParams& p)
{
    if (p.disks.empty()) throw std::invalid_argument("erase disks must not be empty");
    if (p.capacity_blocks.size() != p.disks.size())
        throw std::invalid_argument("erase capacity_blocks must give one capacity per disk");
    for (std::uint64_t c : p.capacity_blocks)
        if (c == 0) throw std::invalid_argument("erase capacity_blocks must be >= 1");
    // READ(10)/WRITE(10)/WRITE SAME(10) count blocks in 16 bits.
    if (p.blocks_per_command() == 0 || p.blocks_per_command() > 65535)
        throw std::invalid_argument(std::string("erase ") + (p.command == EraseCommand::WriteSame ? "same_blocks" : "transfer_blocks") +
                                    " must be in 1..65535, got " + std::to_string(p.blocks_per_command()));
    if (p.block_bytes == 0) throw std::invalid_argument("erase block_bytes must be >= 1");
}

std::uint64_t erase_commands(std::uint64_t capacity_blocks, std::uint32_t blocks_per_command)
{
    return (capacity_blocks + blocks_per_command - 1) / blocks_per_command;
}

namespace {

WorkloadParams workload_params(const EraseParams& e)
{
    validate(e);
    WorkloadParams w;
    w.disks = e.disks;
    w.lba = LbaPattern::Sequential;
    w.read_fraction = 0;
    w.io_size_bytes = e.block_bytes;  // unused: the job shapes its own I/Os
    w.block_bytes = e.block_bytes;
    w.disk_capacity_blocks = *std::min_element(e.capacity_blocks.begin(), e.capacity_blocks.end());
    w.total_ios = 0;
    for (std::uint64_t c : e.capacity_blocks) w.total_ios += erase_commands(c, e.blocks_per_command());
    w.seed = 0;
    return w;
}

}  // namespace

EraseJob::EraseJob(sc_core::sc_module_name name, IoTarget& driver, const EraseParams& erase)
    : Workload(name, driver, workload_params(erase)), erase_(erase), disks_(erase.disks.size())
{
    // No sensitivity and no dont_initialize: runs once, in the initialization phase.
    SC_METHOD(start);
}

void EraseJob::start()
{
    const auto n = static_cast<unsigned>(disks_.size());
    if (erase_.strategy == EraseStrategy::Parallel)
        for (unsigned d = 0; d < n; ++d) issue_next(d);
    else
        issue_next(0);  // sequential and round robin both begin with disk 0
}

void EraseJob::issue_next(unsigned disk)
{
    EraseProgress& p = disks_[disk];
    const std::uint64_t left = erase_.capacity_blocks[disk] - p.next_lba;
    const auto blocks = static_cast<std::uint32_t>(std::min<std::uint64_t>(left, erase_.blocks_per_command()));
    hba::IoRequest shape;
    shape.disk = disk;
    shape.read = false;
    shape.lba = p.next_lba;
    if (erase_.command == EraseCommand::WriteSame) {
        shape.bytes = erase_.block_bytes;
        shape.same_blocks = blocks;
    } else {
        shape.bytes = blocks * erase_.block_bytes;
    }
    if (p.next_lba == 0) p.first_issued = sc_core::sc_time_stamp();
    p.next_lba += blocks;
    if (order_.size() < kOrderKept) order_.push_back(disk);
    issue_shaped(shape);
}

void EraseJob::after_completion(const hba::IoRequest& io)
{
    const unsigned d = io.disk;
    EraseProgress& p = disks_[d];
    ++p.commands;
    if (!has_blocks(d)) {
        p.done = true;
        p.finished = sc_core::sc_time_stamp();
        finished_ = p.finished;
    }
    const auto n = static_cast<unsigned>(disks_.size());
    switch (erase_.strategy) {
    case EraseStrategy::Parallel:
        if (has_blocks(d)) issue_next(d);
        break;
    case EraseStrategy::Sequential:
        if (has_blocks(d))
            issue_next(d);
        else if (d + 1 < n)
            issue_next(d + 1);
        break;
    case EraseStrategy::RoundRobin:
        // The next disk in turn that still has blocks (this one again when it is the only one).
        for (unsigned k = 1; k <= n; ++k) {
            const unsigned next = (d + k) % n;
            if (has_blocks(next)) {
                issue_next(next);
                break;
            }
        }
        break;
    }
    // At the completion that reaches a tenth; a failed command completes nothing, so it reports
    // nothing (it repeated the last line, or "0 %" before any completion).
    const std::uint64_t total = params().total_ios, now = completed();
    if (on_progress_ && !io.failed() && now * 10 / total != (now - 1) * 10 / total) on_progress_(now, total);
}

void EraseJob::report(nlohmann::json& j) const
{
    Workload::report(j);
    j["erase_time_s"] = finished_.to_seconds();
    std::uint64_t wire = 0;
    for (std::size_t d = 0; d < disks_.size(); ++d) {
        const EraseProgress& p = disks_[d];
        auto& e = j["disks"][d];
        e["erase_time_s"] = p.done ? (p.finished - p.first_issued).to_seconds() : 0.0;
        e["commands"] = p.commands;
        e["wire_bytes"] = p.wire_bytes;
        e["capacity_bytes"] = erase_.capacity_blocks[d] * erase_.block_bytes;
        wire += p.wire_bytes;
    }
    j["erase"] = {{"command", to_string(erase_.command)},
                  {"strategy", to_string(erase_.strategy)},
                  {"blocks_per_command", erase_.blocks_per_command()},
                  {"disks", erase_.disks.size()},
                  {"commands", completed()},
                  {"wire_bytes", wire}};
}

}  // namespace fcal::host
