// The zoned disk against its analytic model (docs/model.md, "The disks: the zoned model"). Every
// expected number is computed here from the formulas, by numerical integration where needed; the
// analytic functions live in this test, not in the model.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "fcal/disk/disk.hpp"
#include "fcal/disk/seek_curve.hpp"
#include "fcal/disk/zoned_mechanism.hpp"
#include "queueing.hpp"

using namespace fcal;

namespace {

// The Seagate ST3500630NS of the drive table: 60 801 cylinders, 7 200 rpm, 0.012064 / 0.005976 ms per
// sector inside / outside, read seek 0.8 / 17 ms, write seek 1.0 / 18 ms.
constexpr double kCyl = 60801;
constexpr double kHeads = 15;
constexpr double kRev = 60.0 / 7200;
constexpr double kSecIn = kRev / 0.012064e-3;
constexpr double kSecOut = kRev / 0.005976e-3;

disk::ZonedParams drive(disk::PositioningMode mode)
{
    disk::ZonedParams p;
    p.geometry.cylinders = static_cast<unsigned>(kCyl);
    p.geometry.heads = static_cast<unsigned>(kHeads);
    p.geometry.sector_bytes = 512;
    p.geometry.revolution_s = kRev;
    p.geometry.sector_time_inner_s = 0.012064e-3;
    p.geometry.sector_time_outer_s = 0.005976e-3;
    p.seek_read_min_s = 0.8e-3;
    p.seek_read_max_s = 17e-3;
    p.seek_write_min_s = 1.0e-3;
    p.seek_write_max_s = 18e-3;
    p.positioning = mode;
    p.command_overhead_s = 0;
    return p;
}

// Composite Simpson on [a, b] with n (even) intervals.
double integrate(const std::function<double(double)>& f, double a, double b, int n = 20000)
{
    const double h = (b - a) / n;
    double s = f(a) + f(b);
    for (int i = 1; i < n; ++i) s += f(a + i * h) * (i % 2 ? 4 : 2);
    return s * h / 3;
}

// Sectors per track and the seek curve, from their definitions.
double sec(double x) { return kSecIn + (kSecOut - kSecIn) * x / (kCyl - 1); }
double seek_s(double d, double min_s, double max_s)
{
    const double r = std::sqrt(kCyl - 1);
    const double a = (min_s * r - max_s) / (r - 1), b = (max_s - min_s) / (r - 1);
    return d > 0 ? a + b * std::sqrt(d) : 0;
}

// The seek-distance density f_D of uniformly random sectors (spb = 1).
double f_d(double x)
{
    const double c1 = kCyl - 1;
    const double alpha = kSecIn, beta = (kSecOut - kSecIn) / c1;
    const double g = alpha * c1 + beta / 2 * c1 * c1;
    const double v = 6 * alpha * alpha + 6 * alpha * beta * c1 + 2 * beta * beta * c1 * c1;
    const double a = v * c1 / (3 * g * g), gg = -(v + beta * beta * c1 * c1) / (3 * g * g), e = beta * beta / (3 * g * g);
    return a + gg * x + e * x * x * x;
}

// E[S(D)^power] over f_D; x = u^2 takes the square root's kink at 0 out of the integrand.
double seek_moment(int power, double min_s, double max_s)
{
    const double top = std::sqrt(kCyl - 1);
    return integrate([&](double u) { return std::pow(seek_s(u * u, min_s, max_s), power) * f_d(u * u) * 2 * u; }, 0, top);
}

// Transfer of k sectors at radius x takes k R / SEC(x); the radius of a uniformly random sector has
// density SEC(x) / integral of SEC over [0, C).
double transfer_moment(int power, double sectors)
{
    const double total = integrate(sec, 0, kCyl);
    return integrate([&](double x) { return std::pow(sectors * kRev / sec(x), power) * sec(x) / total; }, 0, kCyl);
}

}  // namespace

TEST_CASE("Seek curve: coefficients from the formula, S(1) = minseek, S(C-1) = maxseek", "[disk][validation]")
{
    const double r = std::sqrt(kCyl - 1);
    const disk::SeekCurve read(static_cast<unsigned>(kCyl), 0.8e-3, 17e-3);
    REQUIRE(read.a() == Approx((0.8e-3 * r - 17e-3) / (r - 1)));
    REQUIRE(read.b() == Approx((17e-3 - 0.8e-3) / (r - 1)));
    REQUIRE(read.seconds(0) == 0);
    REQUIRE(read.seconds(1) == Approx(0.8e-3));
    REQUIRE(read.seconds(kCyl - 1) == Approx(17e-3));
    const disk::SeekCurve write(static_cast<unsigned>(kCyl), 1.0e-3, 18e-3);
    REQUIRE(write.seconds(1) == Approx(1.0e-3));
    REQUIRE(write.seconds(kCyl - 1) == Approx(18e-3));
}

TEST_CASE("f_D is a density and is the distance between two independent uniformly random sectors", "[disk][validation]")
{
    REQUIRE(integrate(f_d, 0, kCyl - 1) == Approx(1).epsilon(1e-6));
    const double total = integrate(sec, 0, kCyl - 1);
    for (double d : {0.0, 100.0, 5000.0, 20000.0, 45000.0, 60000.0}) {
        // 2 * integral of p(x) p(x + d), p the radius density of a random sector.
        const double conv = 2 * integrate([&](double x) { return sec(x) * sec(x + d) / (total * total); }, 0, kCyl - 1 - d);
        REQUIRE(f_d(d) == Approx(conv).epsilon(1e-6));
    }
}

namespace {

struct Means {
    double seek = 0, rotation = 0, transfer = 0;
};

// Many accesses of `sectors` sectors at uniformly random LBAs, starting at uniformly random times.
Means run_accesses(disk::PositioningMode mode, bool read, std::uint32_t sectors, int n)
{
    disk::ZonedMechanism m(drive(mode), 99);
    std::mt19937_64 random(12345);
    std::uniform_int_distribution<std::uint64_t> lba(0, m.capacity_sectors() - sectors);
    std::uniform_real_distribution<double> start(0, 1000 * kRev);
    Means sum;
    for (int i = 0; i < n; ++i) {
        const disk::Positioning p = m.position(disk::Access{read, lba(random), sectors * 512}, start(random));
        sum.seek += p.seek_s;
        sum.rotation += p.rotation_s;
        sum.transfer += sectors * 512 / p.media_bytes_per_s;
    }
    return {sum.seek / n, sum.rotation / n, sum.transfer / n};
}

void check_means(disk::PositioningMode mode)
{
    for (const bool read : {true, false}) {
        const Means m = run_accesses(mode, read, 256, 200000);
        const double expected_seek = read ? seek_moment(1, 0.8e-3, 17e-3) : seek_moment(1, 1.0e-3, 18e-3);
        REQUIRE(m.seek == Approx(expected_seek).epsilon(0.01));
        REQUIRE(m.rotation == Approx(kRev / 2).epsilon(0.01));
        REQUIRE(m.transfer == Approx(transfer_moment(1, 256)).epsilon(0.01));
    }
}

}  // namespace

TEST_CASE("Stochastic positioning: mean seek, rotational wait and transfer match the analytic model", "[disk][validation]")
{
    check_means(disk::PositioningMode::Stochastic);
}

TEST_CASE("Physical positioning: mean seek, rotational wait and transfer match the analytic model", "[disk][validation]")
{
    check_means(disk::PositioningMode::Physical);
}

namespace {

// Poisson arrivals of reads straight into one disk (no loop: an ideal transport); read data is taken
// from the buffer as soon as it is announced. Records each read's response (arrival to disk_ready).
struct PoissonBench : sc_core::sc_module, disk::DiskReady {
    tlm_utils::simple_initiator_socket<PoissonBench> out;
    disk::Disk disk;
    std::mt19937_64 random{2024};
    double rate_per_s;
    std::uint32_t bytes;
    std::uint64_t capacity;
    int to_issue;
    std::uint64_t next_tag = 1;
    std::map<std::uint64_t, sc_core::sc_time> arrival;
    std::map<std::uint64_t, std::uint32_t> taken;
    std::vector<double> response_s;
    bool started_ = false;

    SC_HAS_PROCESS(PoissonBench);
    PoissonBench(sc_core::sc_module_name name, const disk::DiskParams& params, double rate, std::uint32_t io_bytes, int count)
        : sc_module(name), out("out"), disk("disk", params), rate_per_s(rate), bytes(io_bytes), to_issue(count)
    {
        out.bind(disk.socket);
        capacity = disk.capacity_sectors();
        SC_METHOD(arrive);
    }

    void arrive()
    {
        // The first activation (t = 0) only draws the first gap.
        if (started_) {
            issue();
            if (--to_issue == 0) return;
        }
        started_ = true;
        std::exponential_distribution<double> gap(rate_per_s);
        next_trigger(sc_core::sc_time(gap(random), sc_core::SC_SEC));
    }

    void issue()
    {
        std::uniform_int_distribution<std::uint64_t> lba(0, capacity - bytes / 512);
        const std::uint64_t tag = next_tag++;
        tlm::tlm_generic_payload trans;
        disk::DiskCommand cmd;
        cmd.read = true;
        cmd.bytes = bytes;
        cmd.tag = tag;
        cmd.lba = lba(random);
        cmd.done = this;
        trans.set_command(tlm::TLM_WRITE_COMMAND);
        trans.set_address(disk::kDiskCommandAddress);
        trans.set_data_length(0);
        trans.set_extension(&cmd);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        out->b_transport(trans, delay);
        trans.clear_extension(&cmd);
        REQUIRE(cmd.status == disk::CommandStatus::Accepted);
        arrival[tag] = sc_core::sc_time_stamp();
    }

    void take(std::uint64_t tag, std::uint32_t upto)
    {
        std::uint32_t& from = taken[tag];
        if (upto <= from) return;
        tlm::tlm_generic_payload trans;
        trans.set_command(tlm::TLM_READ_COMMAND);
        trans.set_address(disk::buffer_address(tag, from));
        trans.set_data_ptr(nullptr);
        trans.set_data_length(upto - from);
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        out->b_transport(trans, delay);
        REQUIRE(trans.get_response_status() == tlm::TLM_OK_RESPONSE);
        from = upto;
    }

    void read_data(std::uint64_t tag, std::uint32_t upto) override { take(tag, upto); }
    void disk_ready(std::uint64_t tag) override
    {
        take(tag, bytes);
        taken.erase(tag);
        response_s.push_back((sc_core::sc_time_stamp() - arrival.at(tag)).to_seconds());
        arrival.erase(tag);
    }
};

void check_pollaczek_khinchine(disk::PositioningMode mode, double tolerance)
{
    // 128 KiB reads (k = 256 sectors) at 20 per second (the analytic model's 0.02 requests/ms).
    const std::uint32_t sectors = 256;
    const double lambda = 20;
    disk::DiskParams p;
    p.model = disk::DiskModel::Zoned;
    p.queue_slots = 1024;
    p.seed = 5;
    p.zoned = drive(mode);
    p.scheduler = disk::Scheduler::Fcfs;
    p.buffer_bytes = 16 << 20;
    p.buffer_full_ratio = 1;
    const int n = 30000;
    PoissonBench bench("bench", p, lambda, sectors * 512, n);
    sc_core::sc_start(n / lambda * 2, sc_core::SC_SEC);
    REQUIRE(bench.response_s.size() == static_cast<std::size_t>(n));

    // Service B = S + R + T with independent parts.
    const double es = seek_moment(1, 0.8e-3, 17e-3), es2 = seek_moment(2, 0.8e-3, 17e-3);
    const double er = kRev / 2, er2 = kRev * kRev / 3;
    const double et = transfer_moment(1, sectors), et2 = transfer_moment(2, sectors);
    const double eb = es + er + et;
    const double eb2 = es2 + er2 + et2 + 2 * (es * er + es * et + er * et);
    const double rho = lambda * eb;
    REQUIRE(rho < 0.5);
    const double expected = test::pollaczek_khinchine_response(eb, eb2, lambda);
    // Leave out the first tenth (the queue starts empty).
    double sum = 0;
    for (std::size_t i = n / 10; i < bench.response_s.size(); ++i) sum += bench.response_s[i];
    const double measured = sum / static_cast<double>(bench.response_s.size() - n / 10);
    INFO("E[B] = " << eb * 1e3 << " ms, rho = " << rho << ", P-K mean response " << expected * 1e3 << " ms, measured "
                   << measured * 1e3 << " ms");
    REQUIRE(measured == Approx(expected).epsilon(tolerance));
}

}  // namespace

TEST_CASE("One zoned disk, Poisson arrivals, stochastic positioning: mean response is Pollaczek-Khinchine's", "[disk][validation]")
{
    check_pollaczek_khinchine(disk::PositioningMode::Stochastic, 0.03);
}

TEST_CASE("One zoned disk, Poisson arrivals, physical positioning: mean response is Pollaczek-Khinchine's", "[disk][validation]")
{
    check_pollaczek_khinchine(disk::PositioningMode::Physical, 0.05);
}
