// The volume controller against a scripted layer below (no SystemC kernel needed): RAID 5 writes wait
// for their reads, a request completes with its last member command, strict split-merge starts the
// next request only after the previous one has merged, RAID 1 reads follow the outstanding counts.
#include <catch2/catch.hpp>

#include <vector>

#include "fcal/controller/volume_controller.hpp"

using namespace fcal;
using controller::RaidLevel;

namespace {

struct ScriptedMembers : host::IoTarget {
    std::vector<hba::IoRequest*> out;  // sent, not yet completed
    CompletionCallback done;

    void submit(hba::IoRequest* io) override { out.push_back(io); }
    void set_completion_callback(CompletionCallback callback) override { done = std::move(callback); }
    void complete(std::size_t i)
    {
        hba::IoRequest* io = out.at(i);
        out.erase(out.begin() + static_cast<long>(i));
        done(io);
    }
};

controller::VolumeParams params(RaidLevel level, unsigned disks, controller::SplitMerge discipline)
{
    controller::VolumeParams p;
    p.geometry = {level, disks, 128, 128 * 1000};  // 64 KiB units of 512-byte blocks
    p.split_merge = discipline;
    p.block_bytes = 512;
    for (unsigned d = 0; d < disks; ++d) p.member_al_pas.push_back(static_cast<phy::AlPa>(0xE0 + d));
    return p;
}

hba::IoRequest request(std::uint64_t id, bool read, std::uint64_t lba, std::uint32_t bytes)
{
    hba::IoRequest r;
    r.id = id;
    r.read = read;
    r.lba = lba;
    r.bytes = bytes;
    return r;
}

}  // namespace

TEST_CASE("volume: a RAID 5 small write sends its writes only after both reads, completes after both writes")
{
    ScriptedMembers members;
    controller::VolumeController volume(params(RaidLevel::Raid5, 5, controller::SplitMerge::ForkJoin), members);
    std::vector<std::uint64_t> done;
    volume.set_completion_callback([&](hba::IoRequest* r) { done.push_back(r->id); });

    hba::IoRequest w = request(7, false, 0, 64 * 1024);  // unit 0: row 0, data on disk 0, parity on disk 4
    volume.submit(&w);
    REQUIRE(members.out.size() == 2);
    CHECK((members.out[0]->read && members.out[0]->disk == 0 && members.out[0]->lba == 0 && members.out[0]->bytes == 65536));
    CHECK((members.out[1]->read && members.out[1]->disk == 4 && members.out[1]->target == 0xE4));
    members.complete(0);
    CHECK(members.out.size() == 1);  // no write before the second read is in
    members.complete(0);
    REQUIRE(members.out.size() == 2);
    CHECK((!members.out[0]->read && members.out[0]->disk == 0));
    CHECK((!members.out[1]->read && members.out[1]->disk == 4));
    CHECK(volume.outstanding(0) == 1);
    members.complete(1);
    CHECK(done.empty());
    members.complete(0);
    CHECK(done == std::vector<std::uint64_t>{7});
    CHECK(volume.active() == 0);
    CHECK(volume.read_modify_writes() == 1);
    CHECK(volume.member_ios() == 4);
}

TEST_CASE("volume: strict split-merge starts the next request when the previous one has merged")
{
    ScriptedMembers members;
    controller::VolumeController volume(params(RaidLevel::Raid0, 3, controller::SplitMerge::Strict), members);
    std::vector<std::uint64_t> done;
    volume.set_completion_callback([&](hba::IoRequest* r) { done.push_back(r->id); });

    hba::IoRequest a = request(1, true, 0, 3 * 64 * 1024), b = request(2, true, 0, 64 * 1024), c = request(3, false, 128, 512);
    volume.submit(&a);
    volume.submit(&b);
    volume.submit(&c);
    CHECK(members.out.size() == 3);  // a's three units, nothing of b or c
    CHECK(volume.waiting() == 2);
    members.complete(2);
    members.complete(0);
    CHECK(members.out.size() == 1);
    members.complete(0);
    CHECK(done == std::vector<std::uint64_t>{1});
    REQUIRE(members.out.size() == 1);  // b, alone
    CHECK(members.out[0]->disk == 0);
    members.complete(0);
    REQUIRE(members.out.size() == 1);  // then c: one block on disk 1
    CHECK((members.out[0]->disk == 1 && !members.out[0]->read && members.out[0]->bytes == 512));
    members.complete(0);
    CHECK(done == std::vector<std::uint64_t>{1, 2, 3});
}

TEST_CASE("volume: fork-join sends every request at once; RAID 1 reads go to the less busy copy")
{
    ScriptedMembers members;
    controller::VolumeController volume(params(RaidLevel::Raid1, 2, controller::SplitMerge::ForkJoin), members);
    volume.set_completion_callback([](hba::IoRequest*) {});
    hba::IoRequest r[4] = {request(1, true, 0, 4096), request(2, true, 0, 4096), request(3, true, 0, 4096),
                           request(4, false, 0, 4096)};
    for (auto& x : r) volume.submit(&x);
    REQUIRE(members.out.size() == 5);
    CHECK(members.out[0]->disk == 0);  // 0:0 -> copy 0
    CHECK(members.out[1]->disk == 1);  // 1:0 -> copy 1
    CHECK(members.out[2]->disk == 0);  // 1:1 tie -> the lower index
    CHECK((!members.out[3]->read && members.out[3]->disk == 0));  // the write, to both
    CHECK((!members.out[4]->read && members.out[4]->disk == 1));
    CHECK(volume.active() == 4);
}
