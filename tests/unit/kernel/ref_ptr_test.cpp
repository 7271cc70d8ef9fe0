// The frames' handles (docs/kernel.md, "Frame handles"): a handle counts, the object goes when its
// last handle goes and not before, also when the handle assigned was held only through the object it
// replaces; a copied object starts without handles; a loop frame's memory goes back to its pool.
#include <catch2/catch.hpp>

#include <utility>

#include "fcal/kernel/ref_ptr.hpp"
#include "fcal/loop/loop_frame.hpp"

using namespace fcal;

namespace {

int g_deleted = 0;

struct Node : kernel::RefCounted {
    int value = 0;
    kernel::RefPtr<Node> next;
    explicit Node(int v) : value(v) {}
    Node(const Node&) = default;
    ~Node() { ++g_deleted; }
};

}  // namespace

TEST_CASE("A handle counts its copies and the object goes with the last one", "[kernel][ref_ptr]")
{
    g_deleted = 0;
    kernel::RefPtr<Node> a = kernel::make_ref<Node>(7);
    CHECK(a.use_count() == 1);
    {
        kernel::RefPtr<Node> b = a;
        kernel::RefPtr<const Node> c = b;  // to const: the same object
        CHECK(a.use_count() == 3);
        CHECK(c == a);
        CHECK(c->value == 7);
        kernel::RefPtr<Node> d = std::move(b);  // a move hands the handle over
        CHECK(!b);
        CHECK(a.use_count() == 3);
        kernel::RefPtr<const Node> e = std::move(d);
        CHECK(!d);
        CHECK(a.use_count() == 3);
    }
    CHECK(a.use_count() == 1);
    CHECK(g_deleted == 0);
    kernel::RefPtr<Node> same = a;
    const kernel::RefPtr<Node>& alias = same;
    same = alias;  // assigned itself: keeps the object
    CHECK(a.use_count() == 2);
    same = nullptr;
    CHECK(same == nullptr);
    CHECK(a.use_count() == 1);
    a.reset();
    CHECK(g_deleted == 1);
    CHECK(a.use_count() == 0);
}

TEST_CASE("Assigning a handle held only through the object it replaces keeps the new object", "[kernel][ref_ptr]")
{
    g_deleted = 0;
    kernel::RefPtr<Node> head = kernel::make_ref<Node>(1);
    head->next = kernel::make_ref<Node>(2);
    head = head->next;  // the first node goes, and with it its handle to the second
    CHECK(g_deleted == 1);
    REQUIRE(head);
    CHECK(head->value == 2);
    CHECK(head.use_count() == 1);
    head.reset();
    CHECK(g_deleted == 2);
}

TEST_CASE("A copied object starts without handles", "[kernel][ref_ptr]")
{
    g_deleted = 0;
    kernel::RefPtr<Node> a = kernel::make_ref<Node>(3);
    kernel::RefPtr<Node> twin = kernel::make_ref<Node>(*a);
    CHECK(a.use_count() == 1);
    CHECK(twin.use_count() == 1);
    CHECK(twin != a);
    CHECK(twin->value == 3);
    twin.reset();
    CHECK(g_deleted == 1);
    CHECK(a.use_count() == 1);
}

TEST_CASE("A loop frame's memory goes back to its pool with its last handle", "[kernel][ref_ptr]")
{
    loop::FrameRef f = kernel::make_ref<loop::LoopFrame>();
    const loop::LoopFrame* where = f.get();
    loop::FrameRef g = f;
    f.reset();
    CHECK(g.get() == where);  // still held
    g.reset();
    // The pool hands the freed block out first.
    kernel::RefPtr<loop::LoopFrame> h = kernel::make_ref<loop::LoopFrame>();
    CHECK(h.get() == where);
    CHECK(h.use_count() == 1);
}
