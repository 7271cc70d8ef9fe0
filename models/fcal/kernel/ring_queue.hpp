#pragma once
// A first-in first-out queue in one ring of slots that grows to its peak and stays there, so that a
// queue that fills and drains all run long (a DMA engine's jobs, a processor's work) allocates
// nothing in steady state, unlike std::deque, which gives back and takes again a block every few
// elements (docs/kernel.md, "No allocation per frame").
#include <cstddef>
#include <utility>
#include <vector>

namespace fcal::kernel {

template <class T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    std::size_t size() const { return size_; }
    T& front() { return slots_[head_]; }
    const T& front() const { return slots_[head_]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }
    // The i-th element from the front.
    T& operator[](std::size_t i) { return slots_[(head_ + i) & (slots_.size() - 1)]; }
    const T& operator[](std::size_t i) const { return slots_[(head_ + i) & (slots_.size() - 1)]; }

    void push_back(T&& value)
    {
        if (size_ == slots_.size()) grow();
        (*this)[size_] = std::move(value);
        ++size_;
    }
    void push_back(const T& value) { push_back(T(value)); }

    // The slot is reset, so that what the element holds (a frame) is let go at once.
    void pop_front()
    {
        slots_[head_] = T{};
        head_ = (head_ + 1) & (slots_.size() - 1);
        --size_;
    }

    // The front element, moved out: what it held goes with it, and the slot is left as moved from
    // (for the elements queued here, holding nothing), without the reset pop_front() does.
    T take_front()
    {
        T out = std::move(slots_[head_]);
        head_ = (head_ + 1) & (slots_.size() - 1);
        --size_;
        return out;
    }

    void pop_back()
    {
        back() = T{};
        --size_;
    }

    // Removes the i-th element from the front, keeping the others in order (a FIFO that serves one
    // destination out of turn).
    void erase(std::size_t i)
    {
        if (i == 0) {
            pop_front();
            return;
        }
        for (; i + 1 < size_; ++i) (*this)[i] = std::move((*this)[i + 1]);
        (*this)[size_ - 1] = T{};
        --size_;
    }

    // Puts `value` in at the i-th place from the front (i <= size()), the elements from there on one
    // place further back (a FIFO that lets one class of entries go ahead of another).
    void insert(std::size_t i, T&& value)
    {
        push_back(std::move(value));
        for (std::size_t j = size_ - 1; j > i; --j) std::swap((*this)[j], (*this)[j - 1]);
    }

    // Removes the elements for which `pred` holds, keeping the others in order; returns how many went.
    template <class Pred>
    std::size_t erase_if(Pred pred)
    {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < size_; ++i) {
            if (pred((*this)[i])) continue;
            if (kept != i) (*this)[kept] = std::move((*this)[i]);
            ++kept;
        }
        for (std::size_t i = kept; i < size_; ++i) (*this)[i] = T{};
        const std::size_t erased = size_ - kept;
        size_ = kept;
        return erased;
    }

private:
    void grow()
    {
        std::vector<T> bigger(slots_.empty() ? 8 : 2 * slots_.size());  // a power of two, for the mask
        for (std::size_t i = 0; i < size_; ++i) bigger[i] = std::move((*this)[i]);
        slots_.swap(bigger);
        head_ = 0;
    }

    std::vector<T> slots_;
    std::size_t head_ = 0;
    std::size_t size_ = 0;
};

}  // namespace fcal::kernel
