#pragma once
// Basic link service frames that abort an exchange (docs/faults.md, "FCP recovery"): ABTS
// from the exchange's originator (the initiator), BA_ACC from its responder (the
// target). They travel over the loop like any frame; FC-FS gives them R_CTL 0x81 and 0x84 and TYPE 0
// (basic link service). ABTS carries no payload; BA_ACC's 12 bytes name the exchange (SEQ_ID
// validity, SEQ_ID, OX_ID, RX_ID, SEQ_CNT range), of which the model uses the IDs, in the header.
#include <cstdint>
#include <memory>

#include "fcal/fcp/exchange.hpp"

namespace fcal::fcp {

constexpr std::uint8_t kTypeBasicLinkService = 0x00;
constexpr std::uint32_t kAbtsPayloadBytes = 0;
constexpr std::uint32_t kBaAccPayloadBytes = 12;

// ABTS for the initiator's exchange `spec`: its OX_ID, and the RX_ID if the initiator has learnt one
// (kUnassignedId otherwise, e.g. when no reply came back at all).
kernel::RefPtr<loop::LoopFrame> make_abts(const ExchangeSpec& spec);

// The target's BA_ACC answering `abts` (addresses swapped, the same OX_ID and RX_ID).
kernel::RefPtr<loop::LoopFrame> make_ba_acc(const FcFrame& abts);

}  // namespace fcal::fcp
