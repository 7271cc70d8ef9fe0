// The frames' handles (docs/kernel.md, "Frame handles"): a handle counts, the object goes when its
// last handle goes and not before, also when the handle assigned (copied or moved) was held only
// through the object it replaces; a handle is empty by the time its object's destructor runs; a
// copied object starts without handles.
#include <catch2/catch.hpp>

#include <utility>

#include "fcal/kernel/ref_ptr.hpp"

using namespace fcal;

namespace {

int g_deleted = 0;
// A handle a node's destructor looks at, and what it found there.
const void* g_watched = nullptr;
bool g_watched_was_empty = false;

struct Node : kernel::RefCounted {
    int value = 0;
    kernel::RefPtr<Node> next;
    explicit Node(int v) : value(v) {}
    Node(const Node&) = default;
    ~Node()
    {
        ++g_deleted;
        if (g_watched) g_watched_was_empty = !*static_cast<const kernel::RefPtr<Node>*>(g_watched);
    }
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
    for (const bool move : {false, true}) {
        INFO((move ? "moved" : "copied"));
        g_deleted = 0;
        kernel::RefPtr<Node> head = kernel::make_ref<Node>(1);
        head->next = kernel::make_ref<Node>(2);
        head->next->next = kernel::make_ref<Node>(3);
        // The first node goes, and with it its handle to the second.
        if (move)
            head = std::move(head->next);
        else
            head = head->next;
        CHECK(g_deleted == 1);
        REQUIRE(head);
        CHECK(head->value == 2);
        CHECK(head.use_count() == 1);
        REQUIRE(head->next);
        CHECK(head->next->value == 3);
        head.reset();
        CHECK(g_deleted == 3);
    }
}

TEST_CASE("A handle is empty when its object's destructor runs", "[kernel][ref_ptr]")
{
    g_deleted = 0;
    kernel::RefPtr<Node> a = kernel::make_ref<Node>(4);
    g_watched = &a;
    a.reset();
    g_watched = nullptr;
    CHECK(g_deleted == 1);
    CHECK(g_watched_was_empty);
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
