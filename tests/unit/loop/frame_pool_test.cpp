// A loop frame's memory comes from its pool and goes back there with the frame's last handle
// (docs/kernel.md, "Frame handles" and "No allocation per frame").
#include <catch2/catch.hpp>

#include "fcal/kernel/pool_allocator.hpp"
#include "fcal/loop/loop_frame.hpp"

using namespace fcal;

TEST_CASE("A loop frame's memory goes back to its pool with its last handle", "[loop][frame_pool]")
{
    loop::FrameRef f = kernel::make_ref<loop::LoopFrame>();
    const loop::LoopFrame* const where = f.get();
    loop::FrameRef g = f;
    f.reset();
    CHECK(g.get() == where);  // still held
    g.reset();
    // The block is on the pool's free list, the first it hands out (not the heap's).
    kernel::PoolAllocator<loop::LoopFrame> pool;
    loop::LoopFrame* const block = pool.allocate(1);
    CHECK(block == where);
    pool.deallocate(block, 1);
    // And a new frame takes it from there.
    kernel::RefPtr<loop::LoopFrame> h = kernel::make_ref<loop::LoopFrame>();
    CHECK(h.get() == where);
    CHECK(h.use_count() == 1);
}
