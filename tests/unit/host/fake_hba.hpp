#pragma once
// Stand-ins for the initiator HBA in the host tests. FakeHba completes each request a fixed latency
// after it was handed over (the latency may depend on the disk), and keeps a record of what it saw;
// HoldingHba keeps what it is given until the test takes it back to report it.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <systemc>
#include <vector>

#include "fcal/hba/io_request.hpp"

namespace fcal::test {

class FakeHba : public sc_core::sc_module, public hba::HbaFrontEnd {
public:
    struct Seen {
        std::uint64_t id;
        unsigned disk;
        phy::AlPa target;
        bool read;
        std::uint64_t lba;
        sc_core::sc_time issued;
        sc_core::sc_time to_hba;
    };

    SC_HAS_PROCESS(FakeHba);
    FakeHba(sc_core::sc_module_name name, hba::HbaCompletion& driver,
            std::function<sc_core::sc_time(const hba::IoRequest&)> latency)
        : sc_module(name), driver_(driver), latency_(std::move(latency))
    {
        SC_METHOD(complete_due);
        sensitive << due_event_;
        dont_initialize();
    }

    void submit(hba::IoRequest* io) override
    {
        seen.push_back(Seen{io->id, io->disk, io->target, io->read, io->lba, io->issued, io->to_hba});
        if (in_flight_per_disk.size() <= io->disk) {
            in_flight_per_disk.resize(io->disk + 1, 0);
            max_in_flight_per_disk.resize(io->disk + 1, 0);
        }
        ++in_flight;
        max_in_flight = std::max(max_in_flight, in_flight);
        ++in_flight_per_disk[io->disk];
        max_in_flight_per_disk[io->disk] = std::max(max_in_flight_per_disk[io->disk], in_flight_per_disk[io->disk]);
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        pending_.emplace(now + latency_(*io), io);  // equal times stay in submission order
        due_event_.notify(pending_.begin()->first - now);  // an earlier notification wins
    }

    std::vector<Seen> seen;
    std::size_t in_flight = 0;
    std::size_t max_in_flight = 0;
    std::vector<std::size_t> in_flight_per_disk;
    std::vector<std::size_t> max_in_flight_per_disk;
    // When set and true for a request, the HBA reports it aborted (reason "test abort") instead of
    // complete.
    std::function<bool(const hba::IoRequest&)> abort_if;

private:
    void complete_due()
    {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        // A notification made for an entry already taken may fire early: re-arm for the real one.
        if (pending_.empty()) return;
        if (pending_.begin()->first > now) {
            due_event_.notify(pending_.begin()->first - now);
            return;
        }
        auto first = pending_.begin();
        hba::IoRequest* io = first->second;
        pending_.erase(first);
        if (!pending_.empty()) due_event_.notify(pending_.begin()->first - now);
        --in_flight;
        --in_flight_per_disk[io->disk];
        if (abort_if && abort_if(*io))
            driver_.io_aborted(io, "test abort");
        else
            driver_.io_complete(io);
    }

    hba::HbaCompletion& driver_;
    std::function<sc_core::sc_time(const hba::IoRequest&)> latency_;
    std::multimap<sc_core::sc_time, hba::IoRequest*> pending_;
    sc_core::sc_event due_event_;
};

struct HoldingHba : hba::HbaFrontEnd {
    std::vector<hba::IoRequest*> held;
    std::vector<std::uint64_t> given;  // ids, in order
    void submit(hba::IoRequest* io) override
    {
        held.push_back(io);
        given.push_back(io->id);
    }
    hba::IoRequest* take(std::uint64_t id)
    {
        for (auto it = held.begin(); it != held.end(); ++it)
            if ((*it)->id == id) {
                hba::IoRequest* io = *it;
                held.erase(it);
                return io;
            }
        FAIL("the HBA does not hold I/O " << id);
        return nullptr;
    }
};

inline std::function<sc_core::sc_time(const hba::IoRequest&)> fixed_latency(sc_core::sc_time t)
{
    return [t](const hba::IoRequest&) { return t; };
}

}  // namespace fcal::test
