#pragma once
// Test-only: a storage controller over FakeDisks on a FakeTime, and the host requests sent to it,
// with an account of every completion (each request must come back exactly once).
#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <string>

#include "fake_disks.hpp"
#include "fake_time.hpp"
#include "fcal/controller/volume_controller.hpp"

namespace fcal::test {

struct VolumeShape {
    controller::RaidLevel level = controller::RaidLevel::Raid5;
    unsigned members = 5;
    unsigned spares = 0;
    std::uint64_t unit_blocks = 128;  // 64 KiB of 512-byte blocks
    std::uint64_t rows = 100;
    controller::RebuildParams rebuild{0.0, 0.0, 128 * 512, 4};
};

inline controller::VolumeParams volume_params(const VolumeShape& s)
{
    controller::VolumeParams p;
    p.geometry = {s.level, s.members, s.unit_blocks, s.unit_blocks * s.rows};
    p.split_merge = controller::SplitMerge::ForkJoin;
    p.block_bytes = 512;
    for (unsigned d = 0; d < s.members + s.spares; ++d)
        (d < s.members ? p.member_al_pas : p.spare_al_pas).push_back(static_cast<phy::AlPa>(0x10 + d));
    p.rebuild = s.rebuild;
    return p;
}

class VolumeBench {
public:
    VolumeBench(const VolumeShape& shape, sc_core::sc_time service, bool unlimited_servers)
        : disks(time, shape.members + shape.spares, service, unlimited_servers), volume(volume_params(shape), disks, time)
    {
        volume.set_completion_callback([this](hba::IoRequest* r) {
            ++completions[r->id];
            if (r->failed()) failures[r->id] = r->failure;
            if (on_done) on_done(*r);
        });
    }

    hba::IoRequest& submit(bool read, std::uint64_t lba, std::uint32_t bytes)
    {
        hba::IoRequest& r = requests.emplace_back();
        r.id = requests.size() - 1;
        r.read = read;
        r.lba = lba;
        r.bytes = bytes;
        r.issued = time.now();
        volume.submit(&r);
        return r;
    }
    // Commands sent since `from` (an index into disks.sent).
    std::vector<FakeDisks::Sent> sent_since(std::size_t from) const { return {disks.sent.begin() + static_cast<long>(from), disks.sent.end()}; }

    // Every request came back exactly once, and nothing is left anywhere.
    void check_account() const
    {
        for (const auto& r : requests) CHECK(completions.count(r.id) == 1);
        for (const auto& [id, n] : completions) CHECK(n == 1);
        CHECK(volume.requests_completed() + volume.requests_failed() == requests.size());
        CHECK(volume.active() == 0);
        CHECK(volume.waiting() == 0);
        CHECK(volume.commands_out() == 0);
        CHECK(volume.lost_commands_out() == 0);
        CHECK(disks.out() == 0);
        CHECK(disks.returned() == disks.sent.size());
    }

    FakeTime time;
    FakeDisks disks;
    controller::VolumeController volume;
    std::deque<hba::IoRequest> requests;  // by id
    std::map<std::uint64_t, int> completions;
    std::map<std::uint64_t, std::string> failures;
    std::function<void(const hba::IoRequest&)> on_done;
};

}  // namespace fcal::test
