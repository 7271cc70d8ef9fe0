#pragma once
// A standard allocator for objects made and dropped at a high rate (the frames: docs/kernel.md,
// "No allocation per frame"): a freed block goes on a free list of its type and is
// handed out again, so that once a run has reached its peak nothing more comes from the heap. An
// empty free list is refilled with a slab of kSlabBlocks blocks at once, so that a run creeping up to
// a new peak a frame at a time goes to the heap once per slab, not once per frame. Blocks are never
// given back (the free lists keep the peak until the program ends). Like the SystemC
// kernel it serves, it is single-threaded.
//
//   std::allocate_shared<Frame>(kernel::PoolAllocator<Frame>(), ...)
//   or a class's own operator new and delete, as loop::LoopFrame's (held by kernel::RefPtr)
#include <cstddef>
#include <new>

namespace fcal::kernel {

template <class T>
class PoolAllocator {
public:
    using value_type = T;

    PoolAllocator() noexcept = default;
    template <class U>
    PoolAllocator(const PoolAllocator<U>&) noexcept  // NOLINT: rebinding, as allocate_shared does
    {
    }

    T* allocate(std::size_t n)
    {
        static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned types are not pooled");
        if (n != 1) return static_cast<T*>(::operator new(n * sizeof(T)));
        Block*& head = free_list();
        if (head == nullptr) head = new_slab();
        Block* block = head;
        head = block->next;
        return reinterpret_cast<T*>(block);
    }

    void deallocate(T* p, std::size_t n) noexcept
    {
        if (n != 1) {
            ::operator delete(p);
            return;
        }
        auto* block = reinterpret_cast<Block*>(p);
        block->next = free_list();
        free_list() = block;
    }

    template <class U>
    bool operator==(const PoolAllocator<U>&) const noexcept
    {
        return true;
    }
    template <class U>
    bool operator!=(const PoolAllocator<U>&) const noexcept
    {
        return false;
    }

private:
    struct Block {
        Block* next;
    };
    static constexpr std::size_t kAlign = __STDCPP_DEFAULT_NEW_ALIGNMENT__;  // each block's, as operator new's
    static constexpr std::size_t kBlockBytes = ((sizeof(T) > sizeof(Block) ? sizeof(T) : sizeof(Block)) + kAlign - 1) / kAlign * kAlign;
    static constexpr std::size_t kSlabBlocks = 32;
    // A slab of blocks chained into a free list (its first block first).
    static Block* new_slab()
    {
        auto* bytes = static_cast<unsigned char*>(::operator new(kSlabBlocks * kBlockBytes));
        for (std::size_t i = 0; i < kSlabBlocks; ++i)
            reinterpret_cast<Block*>(bytes + i * kBlockBytes)->next =
                i + 1 < kSlabBlocks ? reinterpret_cast<Block*>(bytes + (i + 1) * kBlockBytes) : nullptr;
        return reinterpret_cast<Block*>(bytes);
    }
    // One free list per type (allocate_shared rebinds to its control block, one type per payload).
    static Block*& free_list()
    {
        static Block* head = nullptr;
        return head;
    }
};

}  // namespace fcal::kernel
