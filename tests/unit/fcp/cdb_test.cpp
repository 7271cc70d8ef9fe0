// SCSI CDBs of READ(10), WRITE(10) and WRITE SAME(10). The expected bytes are typed from the SBC-3
// CDB tables (opcode, flags, 4-byte big-endian LBA at bytes 2-5, group number at 6, 2-byte
// big-endian length at 7-8, CONTROL at 9), not produced by the encoder.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "fcal/fcp/cdb.hpp"

using namespace fcal::fcp;

TEST_CASE("cdb: READ(10) encodes to the SBC byte layout")
{
    // LBA 0x12345678, 128 blocks (0x0080), FUA (bit 3 of byte 1), group 5, CONTROL 0.
    const Cdb cdb(ScsiOpcode::Read10, 0x12345678, 128, 0x08, 5, 0);
    const Cdb::Bytes expected{0x28, 0x08, 0x12, 0x34, 0x56, 0x78, 0x05, 0x00, 0x80, 0x00};
    CHECK(cdb.encode() == expected);
}

TEST_CASE("cdb: WRITE(10) encodes to the SBC byte layout")
{
    // LBA 1 000 000 = 0x000F4240, 65 535 blocks = 0xFFFF, CONTROL 0x04 (NACA).
    const Cdb cdb(ScsiOpcode::Write10, 1000000, 65535, 0, 0, 0x04);
    const Cdb::Bytes expected{0x2A, 0x00, 0x00, 0x0F, 0x42, 0x40, 0x00, 0xFF, 0xFF, 0x04};
    CHECK(cdb.encode() == expected);
}

TEST_CASE("cdb: WRITE SAME(10) encodes to the SBC byte layout")
{
    // LBA 0xFFFFFFFF (largest), 256 blocks = 0x0100.
    const Cdb cdb(ScsiOpcode::WriteSame10, 0xFFFFFFFFull, 256);
    const Cdb::Bytes expected{0x41, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01, 0x00, 0x00};
    CHECK(cdb.encode() == expected);
}

TEST_CASE("cdb: decode reads every field from hand-typed bytes")
{
    const Cdb::Bytes bytes{0x2A, 0x10, 0xA1, 0xB2, 0xC3, 0xD4, 0x1F, 0x12, 0x34, 0x80};
    const Cdb cdb = Cdb::decode(bytes);
    CHECK(cdb.opcode() == ScsiOpcode::Write10);
    CHECK(cdb.flags() == 0x10);
    CHECK(cdb.lba() == 0xA1B2C3D4u);
    CHECK(cdb.group_number() == 0x1F);
    CHECK(cdb.blocks() == 0x1234);
    CHECK(cdb.control() == 0x80);

    const Cdb same = Cdb::decode({0x41, 0, 0, 0, 0, 7, 0, 0, 1, 0});
    CHECK(same.opcode() == ScsiOpcode::WriteSame10);
    CHECK(same.lba() == 7);
    CHECK(same.blocks() == 1);
}

TEST_CASE("cdb: encode and decode round trip for all three opcodes and edge values")
{
    for (ScsiOpcode op : {ScsiOpcode::Read10, ScsiOpcode::Write10, ScsiOpcode::WriteSame10})
        for (std::uint64_t lba : {0ull, 1ull, 0x00FF00FFull, 0x80000000ull, 0xFFFFFFFFull})
            for (std::uint64_t blocks : {0ull, 1ull, 255ull, 256ull, 65535ull}) {
                const Cdb cdb(op, lba, blocks, 0x02, 3, 0);
                const Cdb back = Cdb::decode(cdb.encode());
                CHECK(back == cdb);
                CHECK(back.opcode() == op);
                CHECK(back.lba() == lba);
                CHECK(back.blocks() == blocks);
            }
}

TEST_CASE("cdb: an unknown operation code is an error naming it")
{
    // 88h is READ(16): a real opcode, but not one the model issues.
    try {
        Cdb::decode({0x88, 0, 0, 0, 0, 0, 0, 0, 1, 0});
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("0x88") != std::string::npos);
    }
    CHECK_THROWS_AS(Cdb::decode({0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0}), std::invalid_argument);
}

TEST_CASE("cdb: an LBA beyond 32 bits or a length beyond 16 bits is an error, never a wrap")
{
    CHECK_NOTHROW(Cdb(ScsiOpcode::Read10, 0xFFFFFFFFull, 65535));
    try {
        Cdb(ScsiOpcode::Read10, 0x100000000ull, 1);
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("LOGICAL BLOCK ADDRESS 4294967296") != std::string::npos);
    }
    try {
        Cdb(ScsiOpcode::Write10, 0, 65536);
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("TRANSFER LENGTH 65536") != std::string::npos);
    }
    try {
        Cdb(ScsiOpcode::WriteSame10, 0, 65536);
        FAIL("no exception");
    } catch (const std::invalid_argument& e) {
        CHECK(std::string(e.what()).find("NUMBER OF LOGICAL BLOCKS 65536") != std::string::npos);
    }
    CHECK_THROWS_AS(Cdb(ScsiOpcode::Read10, 0, 1, 0, 0x20), std::invalid_argument);
}

TEST_CASE("cdb: operation names")
{
    CHECK(std::string(to_string(ScsiOpcode::Read10)) == "READ(10)");
    CHECK(std::string(to_string(ScsiOpcode::Write10)) == "WRITE(10)");
    CHECK(std::string(to_string(ScsiOpcode::WriteSame10)) == "WRITE SAME(10)");
}
