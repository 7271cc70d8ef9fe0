#pragma once
// A shared handle to an object that counts its handles itself, in a plain integer (docs/kernel.md,
// "Frame handles"): the simulation runs on one thread, so a copy is one increment and a release one
// decrement, and a handle is one pointer. For the frames, which every word, queue and HBA on their
// way holds: std::shared_ptr keeps its counts in a control block beside the object and checks at
// every copy and release whether the process has started a second thread.
//
//   struct Frame : kernel::RefCounted { ... };
//   kernel::RefPtr<const Frame> f = kernel::make_ref<Frame>(...);
//
// The object is deleted (with its own operator delete: a pooled type returns to its pool) when its
// last handle goes. No weak handles, no custom deleters, no handles across threads.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace fcal::kernel {

template <class T>
class RefPtr;

// The count a RefPtr keeps in the object it points to. A copied object is a new object: it starts
// with no handles of its own.
class RefCounted {
protected:
    RefCounted() noexcept = default;
    RefCounted(const RefCounted&) noexcept {}
    RefCounted& operator=(const RefCounted&) noexcept { return *this; }
    ~RefCounted() = default;

private:
    template <class T>
    friend class RefPtr;
    mutable std::uint32_t handles_ = 0;
};

template <class T>
class RefPtr {
public:
    RefPtr() noexcept = default;
    RefPtr(std::nullptr_t) noexcept {}  // NOLINT: as a pointer converts
    // Takes a new object (make_ref), or adds a handle to one that has some already.
    explicit RefPtr(T* p) noexcept : p_(p) { acquire(); }
    RefPtr(const RefPtr& o) noexcept : p_(o.p_) { acquire(); }
    RefPtr(RefPtr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
    // RefPtr<Frame> to RefPtr<const Frame> only: the object is deleted as the type it was made, with
    // no virtual destructor, so a handle never names it by a base class.
    template <class U, class = std::enable_if_t<std::is_same_v<const U, T>>>
    RefPtr(const RefPtr<U>& o) noexcept : p_(o.get())  // NOLINT: as a pointer converts
    {
        acquire();
    }
    template <class U, class = std::enable_if_t<std::is_same_v<const U, T>>>
    RefPtr(RefPtr<U>&& o) noexcept : p_(std::exchange(o.p_, nullptr))  // NOLINT: as a pointer converts
    {
    }
    ~RefPtr() { release(p_); }

    // Both assignments read the new object before they let the old one go: `o` may be held only
    // through the old one (head = head->next), and go with it.
    RefPtr& operator=(const RefPtr& o) noexcept
    {
        T* const n = o.p_;
        if (n) ++n->handles_;
        release(std::exchange(p_, n));
        return *this;
    }
    RefPtr& operator=(RefPtr&& o) noexcept
    {
        T* const n = std::exchange(o.p_, nullptr);
        release(std::exchange(p_, n));
        return *this;
    }
    RefPtr& operator=(std::nullptr_t) noexcept
    {
        reset();
        return *this;
    }

    // The handle is empty before the object goes, so that nothing its destructor reaches finds it.
    void reset() noexcept { release(std::exchange(p_, nullptr)); }
    T* get() const noexcept { return p_; }
    T& operator*() const noexcept { return *p_; }
    T* operator->() const noexcept { return p_; }
    explicit operator bool() const noexcept { return p_ != nullptr; }
    // How many handles the object has (0 without one): for tests and checks.
    std::uint32_t use_count() const noexcept { return p_ ? p_->handles_ : 0; }

    template <class U>
    bool operator==(const RefPtr<U>& o) const noexcept
    {
        return p_ == o.get();
    }
    template <class U>
    bool operator!=(const RefPtr<U>& o) const noexcept
    {
        return p_ != o.get();
    }
    bool operator==(std::nullptr_t) const noexcept { return p_ == nullptr; }
    bool operator!=(std::nullptr_t) const noexcept { return p_ != nullptr; }

private:
    template <class U>
    friend class RefPtr;

    void acquire() const noexcept
    {
        if (p_) ++p_->handles_;
    }
    static void release(T* p) noexcept
    {
        if (p && --p->handles_ == 0) destroy(p);
    }
    // The last handle went: out of line, so that release() stays small enough to inline everywhere.
    // Every handle's destructor reaches it, so its check covers every use; it is here rather than at
    // the class because a type may hold handles to its own kind (incomplete at the class).
    [[gnu::noinline]] static void destroy(T* p) noexcept
    {
        static_assert(std::is_base_of_v<RefCounted, std::remove_const_t<T>>, "RefPtr<T>: T must derive from kernel::RefCounted");
        delete p;
    }

    T* p_ = nullptr;
};

template <class T, class... Args>
RefPtr<T> make_ref(Args&&... args)
{
    return RefPtr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace fcal::kernel
