// The allocation-free building blocks of docs/kernel.md, "No allocation per frame":
// the ring queue keeps first-in first-out order through wrap-round, growth and erasure, and lets go
// of what a popped element held; the pool allocator hands a freed block out again.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <set>
#include <vector>

#include "fcal/kernel/pool_allocator.hpp"
#include "fcal/kernel/ring_queue.hpp"

using namespace fcal;

namespace {

std::vector<int> drain(kernel::RingQueue<int>& q)
{
    std::vector<int> out;
    while (!q.empty()) {
        out.push_back(q.front());
        q.pop_front();
    }
    return out;
}

}  // namespace

TEST_CASE("The ring queue is first in, first out through wrap-round and growth", "[kernel][ring_queue]")
{
    kernel::RingQueue<int> q;
    int next = 0, expected = 0;
    // Keep 5 in the ring of 8 while 100 pass, so that head and tail wrap round many times.
    for (; next < 5; ++next) q.push_back(next);
    for (int i = 0; i < 100; ++i) {
        CHECK(q.front() == expected++);
        q.pop_front();
        q.push_back(next++);
    }
    CHECK(q.size() == 5);
    CHECK(q.back() == next - 1);
    // Grow while wrapped: 20 more, order kept.
    for (int i = 0; i < 20; ++i) q.push_back(next++);
    std::vector<int> want;
    for (int v = expected; v < next; ++v) want.push_back(v);
    CHECK(drain(q) == want);
}

TEST_CASE("The ring queue erases by predicate and keeps the rest in order", "[kernel][ring_queue]")
{
    kernel::RingQueue<int> q;
    for (int v = 0; v < 6; ++v) q.push_back(v);
    q.pop_front();
    q.pop_front();
    for (int v = 6; v < 12; ++v) q.push_back(v);  // wrapped: 2..11
    CHECK(q.erase_if([](int v) { return v % 3 == 0; }) == 3);
    CHECK(q[0] == 2);
    CHECK(drain(q) == std::vector<int>{2, 4, 5, 7, 8, 10, 11});
}

TEST_CASE("The ring queue erases one element by position and keeps the rest in order", "[kernel][ring_queue]")
{
    kernel::RingQueue<int> q;
    for (int v = 0; v < 8; ++v) q.push_back(v);
    for (int i = 0; i < 5; ++i) q.pop_front();
    for (int v = 8; v < 12; ++v) q.push_back(v);  // wrapped: 5..11 in a ring of 8
    q.erase(2);                                   // 7
    q.erase(0);                                   // 5, from the front
    q.erase(q.size() - 1);                        // 11, from the back
    CHECK(q.size() == 4);
    q.push_back(12);
    q.push_back(13);
    q.pop_back();  // 13, across the wrap
    CHECK(q.back() == 12);
    CHECK(drain(q) == std::vector<int>{6, 8, 9, 10, 12});
}

TEST_CASE("The ring queue inserts one element by position and keeps the rest in order", "[kernel][ring_queue]")
{
    kernel::RingQueue<int> q;
    for (int v = 0; v < 8; ++v) q.push_back(v);
    for (int i = 0; i < 5; ++i) q.pop_front();
    for (int v = 8; v < 12; ++v) q.push_back(v);  // wrapped: 5..11 in a ring of 8
    q.insert(0, 100);                              // at the front, across the wrap
    q.insert(3, 101);                              // in the middle of a full ring: it grows first
    q.insert(q.size(), 102);                       // at the back
    CHECK(q.size() == 10);
    CHECK(drain(q) == std::vector<int>{100, 5, 6, 101, 7, 8, 9, 10, 11, 102});
}

TEST_CASE("A popped element's resources are let go at once", "[kernel][ring_queue]")
{
    kernel::RingQueue<std::shared_ptr<int>> q;
    auto held = std::make_shared<int>(7);
    q.push_back(held);
    CHECK(held.use_count() == 2);
    q.pop_front();
    CHECK(held.use_count() == 1);
    q.push_back(held);
    q.push_back(nullptr);
    q.pop_back();  // the newest, nullptr
    CHECK(held.use_count() == 2);
    q.pop_back();  // held, from the back
    CHECK(held.use_count() == 1);
    CHECK(q.empty());
}

TEST_CASE("An element taken from the front takes its resources with it and keeps the order", "[kernel][ring_queue]")
{
    kernel::RingQueue<std::shared_ptr<int>> q;
    auto first = std::make_shared<int>(1), second = std::make_shared<int>(2);
    q.push_back(first);
    q.push_back(second);
    auto taken = q.take_front();
    CHECK(taken == first);
    CHECK(first.use_count() == 2);  // here and in `taken`: the queue's slot holds nothing
    CHECK(q.size() == 1);
    CHECK(q.front() == second);
    taken.reset();
    CHECK(first.use_count() == 1);
    for (int i = 0; i < 20; ++i) q.push_back(std::make_shared<int>(10 + i));  // wraps and grows over the slot
    CHECK(*q.take_front() == 2);
    CHECK(second.use_count() == 1);
    CHECK(*q.take_front() == 10);
    CHECK(q.size() == 19);
}

TEST_CASE("The pool allocator hands a freed block out again", "[kernel][pool]")
{
    struct Frame {
        int words[20];
    };
    kernel::PoolAllocator<Frame> pool;
    auto first = std::allocate_shared<Frame>(pool);
    const void* where = first.get();
    first.reset();
    auto second = std::allocate_shared<Frame>(pool);
    CHECK(static_cast<const void*>(second.get()) == where);
    auto third = std::allocate_shared<Frame>(pool);  // none free: another block (of the same slab)
    CHECK(static_cast<const void*>(third.get()) != where);
}

TEST_CASE("The pool allocator hands out distinct aligned blocks from slabs and takes them all back", "[kernel][pool]")
{
    struct Payload {
        char bytes[40];  // not a multiple of the alignment
    };
    kernel::PoolAllocator<Payload> pool;
    std::vector<Payload*> taken;
    for (int i = 0; i < 100; ++i) taken.push_back(pool.allocate(1));  // several slabs
    std::set<Payload*> distinct(taken.begin(), taken.end());
    CHECK(distinct.size() == taken.size());
    for (Payload* p : taken) CHECK(reinterpret_cast<std::uintptr_t>(p) % __STDCPP_DEFAULT_NEW_ALIGNMENT__ == 0);
    for (Payload* p : taken) pool.deallocate(p, 1);
    std::set<Payload*> again;
    for (int i = 0; i < 100; ++i) again.insert(pool.allocate(1));
    CHECK(again == distinct);  // the same blocks, none new
    for (Payload* p : again) pool.deallocate(p, 1);
}
