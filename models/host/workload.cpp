#include "host/workload.hpp"

#include <stdexcept>
#include <string>

namespace fcal::host {

void validate(const WorkloadParams& params)
{
    if (params.disks.empty()) throw std::invalid_argument("workload disks must not be empty");
    if (!(params.read_fraction >= 0 && params.read_fraction <= 1))
        throw std::invalid_argument("workload read_fraction must be in [0, 1], got " +
                                    std::to_string(params.read_fraction));
    if (params.io_size_bytes == 0) throw std::invalid_argument("workload io_size_bytes must be >= 1");
    if (params.block_bytes == 0) throw std::invalid_argument("workload block_bytes must be >= 1");
    const std::uint64_t io_blocks = (params.io_size_bytes + params.block_bytes - 1) / params.block_bytes;
    if (params.disk_capacity_blocks < io_blocks)
        throw std::invalid_argument("workload disk_capacity_blocks must hold one I/O (" + std::to_string(io_blocks) +
                                    " blocks), got " + std::to_string(params.disk_capacity_blocks));
}

Workload::Workload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params)
    : sc_module(name), params_(params), driver_(driver), random_(params.seed),
      outstanding_per_disk_(params.disks.size(), 0), next_lba_(params.disks.size(), 0)
{
    validate(params_);
    const std::uint64_t io_blocks = (params_.io_size_bytes + params_.block_bytes - 1) / params_.block_bytes;
    lba_choices_ = params_.disk_capacity_blocks - io_blocks + 1;
    driver_.set_completion_callback([this](hba::IoRequest* io) { complete(io); });
}

bool Workload::issue(unsigned disk)
{
    if (all_issued()) return false;
    hba::IoRequest shape;
    shape.disk = disk;
    shape.read = random_.bernoulli(params_.read_fraction);
    shape.bytes = params_.io_size_bytes;
    if (params_.lba == LbaPattern::Random) {
        shape.lba = random_.below(lba_choices_);
    } else {
        // Back to back from LBA 0, starting over when the next I/O would not fit.
        shape.lba = next_lba_[disk];
        const std::uint64_t next = shape.lba + (params_.io_size_bytes + params_.block_bytes - 1) / params_.block_bytes;
        next_lba_[disk] = next < lba_choices_ ? next : 0;
    }
    return issue_shaped(shape);
}

bool Workload::issue_shaped(const hba::IoRequest& shape)
{
    if (all_issued()) return false;
    hba::IoRequest* io;
    if (free_.empty()) {
        pool_.emplace_back();
        io = &pool_.back();
    } else {
        io = free_.back();
        free_.pop_back();
    }
    *io = hba::IoRequest{};
    io->id = issued_;
    io->disk = shape.disk;
    io->target = params_.disks.at(shape.disk);
    io->read = shape.read;
    io->bytes = shape.bytes;
    io->lba = shape.lba;
    io->same_blocks = shape.same_blocks;
    io->issued = sc_core::sc_time_stamp();
    ++issued_;
    if (io->read) ++reads_issued_;
    ++outstanding_per_disk_[shape.disk];
    driver_.submit(io);
    return true;
}

void Workload::complete(hba::IoRequest* io)
{
    ++completed_;
    --outstanding_per_disk_.at(io->disk);
    if (on_completed_) on_completed_(*io);
    after_completion(*io);
    free_.push_back(io);
    report_done_if_finished();
}

void Workload::report_done_if_finished()
{
    if (done_reported_ || !all_issued() || completed_ < issued_) return;
    done_reported_ = true;
    if (on_done_) on_done_();
}

}  // namespace fcal::host
