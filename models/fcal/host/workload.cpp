#include "fcal/host/workload.hpp"

#include <algorithm>
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
    if (params.io_size_max_bytes != 0 &&
        (params.io_size_max_bytes < params.io_size_bytes || params.io_size_bytes % params.block_bytes != 0 ||
         params.io_size_max_bytes % params.block_bytes != 0))
        throw std::invalid_argument("workload io_size_max_bytes must be >= io_size_bytes, both whole blocks");
    const std::uint64_t io_blocks =
        (std::max(params.io_size_bytes, params.io_size_max_bytes) + params.block_bytes - 1) / params.block_bytes;
    if (params.span_blocks > params.disk_capacity_blocks)
        throw std::invalid_argument("workload span_blocks (" + std::to_string(params.span_blocks) + ") exceeds the capacity of " +
                                    std::to_string(params.disk_capacity_blocks) + " blocks");
    if (params.span_blocks != 0 && params.span_blocks < io_blocks)
        throw std::invalid_argument("workload span_blocks must hold one I/O (" + std::to_string(io_blocks) + " blocks), got " +
                                    std::to_string(params.span_blocks));
    if (params.disk_capacity_blocks < io_blocks)
        throw std::invalid_argument("workload disk_capacity_blocks must hold one I/O (" + std::to_string(io_blocks) +
                                    " blocks), got " + std::to_string(params.disk_capacity_blocks));
}

Workload::Workload(sc_core::sc_module_name name, IoTarget& driver, const WorkloadParams& params)
    : sc_module(name), params_(params), driver_(driver), random_(params.seed),
      outstanding_per_disk_(params.disks.size(), 0), next_lba_(params.disks.size(), 0), gone_(params.disks.size(), false)
{
    validate(params_);
    span_ = params_.span_blocks != 0 ? params_.span_blocks : params_.disk_capacity_blocks;
    driver_.set_completion_callback([this](hba::IoRequest* io) { complete(io); });
}

// (A disk the workload does not use — an erase of the first erase.disks disks — changes nothing.)
void Workload::disk_gone(unsigned disk)
{
    if (disk >= gone_.size() || gone_[disk]) return;
    gone_[disk] = true;
    ++gone_count_;
    report_done_if_finished();
}

void Workload::disk_back(unsigned disk)
{
    if (disk >= gone_.size() || !gone_[disk] || done_reported_) return;
    gone_[disk] = false;
    --gone_count_;
    after_disk_back(disk);
}

bool Workload::issue(unsigned disk)
{
    if (all_issued() || gone_.at(disk)) return false;
    hba::IoRequest shape;
    shape.disk = disk;
    shape.read = random_.bernoulli(params_.read_fraction);
    shape.bytes = params_.io_size_bytes;
    if (params_.io_size_max_bytes != 0) {
        const std::uint64_t b = params_.block_bytes, low = params_.io_size_bytes / b, high = params_.io_size_max_bytes / b;
        shape.bytes = static_cast<std::uint32_t>((low + random_.below(high - low + 1)) * b);
    }
    const std::uint64_t io_blocks = (shape.bytes + params_.block_bytes - 1) / params_.block_bytes;
    const std::uint64_t lba_choices = span_ - io_blocks + 1;
    if (params_.lba == LbaPattern::Random) {
        shape.lba = random_.below(lba_choices);
    } else {
        // Back to back from LBA 0, starting over when this I/O would not fit.
        if (next_lba_[disk] >= lba_choices) next_lba_[disk] = 0;
        shape.lba = next_lba_[disk];
        next_lba_[disk] = shape.lba + io_blocks;
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
    --outstanding_per_disk_.at(io->disk);
    if (io->failed()) {
        ++failed_;
        if (failures_.size() < kMaxFailuresKept)
            failures_.push_back("I/O " + std::to_string(io->id) + " (disk " + std::to_string(io->disk) + ", " +
                                (io->read ? "read" : "write") + "): " + io->failure);
    } else {
        ++completed_;
        if (on_completed_) on_completed_(*io);
    }
    after_completion(*io);
    free_.push_back(io);
    report_done_if_finished();
}

void Workload::report_done_if_finished()
{
    if (done_reported_ || !all_issued() || completed_ + failed_ < issued_) return;
    done_reported_ = true;
    if (on_done_) on_done_();
}

void Workload::report(nlohmann::json& j) const
{
    j["issued_ios"] = issued_;
    j["completed_ios"] = completed_;
    j["outstanding_ios"] = outstanding();
    j["failed_ios"] = failed_;
    j["failures"] = failures_;
}

void Workload::print_state(std::ostream& out) const
{
    out << "issued " << issued_ << ", completed " << completed_ << ", outstanding " << outstanding();
}

}  // namespace fcal::host
