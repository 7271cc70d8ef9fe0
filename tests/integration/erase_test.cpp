// Erasure jobs through the whole system (docs/erasure.md, "Erasure"): command counts, wire bytes and
// media bytes of tiny zoned disks, computed here from the capacity, the transfer length and the
// FCP frame sizes.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "fcal/sim/sim_config.hpp"
#include "fcal/sim/run_controller.hpp"
#include "sim_fixture.hpp"

using namespace fcal;
using fcal::test::configure;

namespace {

// 3 cylinders x 1 head at 6000 rpm, 100 sectors per track inside and 200 outside: the tracks hold
// 125, 175 and 225 sectors (N(x) = 100 x + 25 x^2), so the disk 525 sectors of 512 bytes.
constexpr std::uint64_t kCapacity = 525;

std::vector<std::pair<std::string, std::string>> tiny_disks(std::vector<std::pair<std::string, std::string>> more)
{
    std::vector<std::pair<std::string, std::string>> sets{
        {"disk.count", "2"},           {"disk.model", "zoned"},          {"disk.cylinders", "3"},
        {"disk.heads", "1"},           {"disk.rpm", "6000"},             {"disk.sector_time_inner_ms", "0.1"},
        {"disk.sector_time_outer_ms", "0.05"}, {"disk.seek_write_min_ms", "1"}, {"disk.seek_write_max_ms", "3"},
        {"workload.type", "erase"}};
    sets.insert(sets.end(), more.begin(), more.end());
    return sets;
}

// Words on the wire of a frame with `payload` bytes: SOF, 6 header words, the payload, CRC, EOF.
std::uint64_t frame_words(std::uint64_t payload) { return (payload + 3) / 4 + 9; }

// Wire bytes of one write exchange moving `bytes` of data in 2048-byte frames: FCP_CMND (32-byte
// payload), one FCP_XFER_RDY (12), the data frames, FCP_RSP (24); 4 bytes per word.
std::uint64_t write_exchange_bytes(std::uint64_t bytes)
{
    std::uint64_t words = frame_words(32) + frame_words(12) + frame_words(24);
    for (std::uint64_t off = 0; off < bytes; off += 2048) words += frame_words(std::min<std::uint64_t>(2048, bytes - off));
    return 4 * words;
}

nlohmann::json run(const std::vector<std::pair<std::string, std::string>>& sets)
{
    sim::StorageSystem system("system", configure(tiny_disks(sets)));
    sim::RunController controller(system);
    REQUIRE(controller.run().end == sim::RunEnd::Completed);
    return controller.results();
}

}  // namespace

TEST_CASE("Erase with WRITE(10): ceil(capacity / TL) commands and all data on the wire", "[integration][erase]")
{
    const std::uint32_t tl = 8;
    const nlohmann::json r = run({{"erase.command", "write"}, {"erase.transfer_blocks", std::to_string(tl)}});
    const std::uint64_t commands = (kCapacity + tl - 1) / tl;  // 66: 65 of 8 blocks and one of 5
    std::uint64_t wire = 0;
    for (std::uint64_t lba = 0; lba < kCapacity; lba += tl) wire += write_exchange_bytes(std::min<std::uint64_t>(tl, kCapacity - lba) * 512);
    REQUIRE(r["erase"]["commands"] == 2 * commands);
    for (int d = 0; d < 2; ++d) {
        const auto& disk = r["disks"][d];
        REQUIRE(disk["commands"] == commands);
        REQUIRE(disk["wire_bytes"] == wire);
        REQUIRE(disk["media_bytes"] == kCapacity * 512);
        REQUIRE(disk["capacity_bytes"] == kCapacity * 512);
        REQUIRE(disk["erase_time_s"].get<double>() > 0);
        REQUIRE(disk["erase_time_s"].get<double>() <= r["erase_time_s"].get<double>());
    }
    // Parallel (the default): both streams start at time 0, the job ends with the slower one.
    REQUIRE(r["erase_time_s"].get<double>() ==
            std::max(r["disks"][0]["erase_time_s"].get<double>(), r["disks"][1]["erase_time_s"].get<double>()));
    REQUIRE(r["measured_ios"] == 2 * commands);  // the window is the whole job
    REQUIRE(r["warmup_ios"] == 0);
}

TEST_CASE("Erase with WRITE SAME(10): one block per command on the wire and the whole disk on the medium", "[integration][erase]")
{
    const std::uint32_t range = 100;
    const nlohmann::json r = run({{"erase.command", "write_same"}, {"erase.same_blocks", std::to_string(range)},
                                  {"erase.disks", "1"}});
    const std::uint64_t commands = (kCapacity + range - 1) / range;  // 6
    REQUIRE(r["erase"]["commands"] == commands);
    REQUIRE(r["disks"][0]["commands"] == commands);
    REQUIRE(r["disks"][0]["wire_bytes"] == commands * write_exchange_bytes(512));
    REQUIRE(r["disks"][0]["media_bytes"] == kCapacity * 512);
    REQUIRE(r["erase"]["media_bytes"] == kCapacity * 512);
    REQUIRE_FALSE(r["disks"][1].contains("erase_time_s"));  // disk 1 is left alone
}

TEST_CASE("Erase with one WRITE SAME over the whole disk: its three tracks plus at most a revolution", "[integration][erase]")
{
    // The command reaches the disk after the HBAs' overheads (well under a revolution), then waits
    // for LBA 0 to come round (less than one revolution), passes 3 tracks in 3 revolutions, and the
    // response goes back (tens of microseconds).
    const nlohmann::json r = run({{"erase.command", "write_same"}, {"erase.same_blocks", "65535"}, {"erase.disks", "1"}});
    const double revolution = 0.01;
    REQUIRE(r["disks"][0]["commands"] == 1);
    REQUIRE(r["erase_time_s"].get<double>() > 3 * revolution);
    REQUIRE(r["erase_time_s"].get<double>() < 4 * revolution + 1e-3);
    REQUIRE(r["disk_mechanics"]["mean_transfer_us"].get<double>() == Approx(3 * revolution * 1e6));
}

TEST_CASE("Erase of the first disks: a disk outside them failing or pulled changes nothing of the job", "[integration][erase]")
{
    // Three disks, the job erases the first two; the third fails, then is pulled. The job must run
    // as without those events (it used to end on an internal error: the workload looked the disk up
    // among its own two).
    const std::vector<std::pair<std::string, std::string>> job{{"disk.count", "3"}, {"erase.disks", "2"}, {"erase.command", "write"},
                                                              {"erase.transfer_blocks", "8"}};
    std::vector<std::pair<std::string, std::string>> events = job;
    for (const auto& e : std::vector<std::pair<std::string, std::string>>{{"event.1.kind", "fail"}, {"event.1.at_ms", "1"},
                                                                          {"event.1.disk", "2"}, {"event.2.kind", "remove"},
                                                                          {"event.2.at_ms", "2"}, {"event.2.disk", "2"}})
        events.push_back(e);
    const nlohmann::json r = run(events);
    REQUIRE(r["erase"]["commands"] == 2 * ((kCapacity + 7) / 8));
    REQUIRE(r["failed_ios"] == 0);
    REQUIRE(r["disks"][0]["media_bytes"] == kCapacity * 512);
    REQUIRE(r["disks"][1]["media_bytes"] == kCapacity * 512);
}
