#pragma once

#include <cstddef>
#include <iterator>

namespace hecscope {

// A forward iterator over a packed table (CollectionList, ThreadTable)
// that decodes each entry once, in order, into a copy of its own (the
// reference is valid until the iterator moves). The table gives
// `Cursor` (where decoding is), `size()`, `seek(cursor, i, value)`
// (decodes entry i, from where it must start) and `next(cursor, i, value)`
// (decodes entry i, the one after the cursor's).
template <class Table, class Value>
class PackedIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Value;
    using difference_type = ptrdiff_t;
    using pointer = const Value*;
    using reference = const Value&;
    PackedIterator() = default;
    PackedIterator(const Table* table, size_t i)
        : m_table(table)
        , m_i(i)
    {
        if (m_i < m_table->size())
            m_table->seek(m_cursor, m_i, m_current);
    }
    const Value& operator*() const { return m_current; }
    const Value* operator->() const { return &m_current; }
    PackedIterator& operator++()
    {
        if (++m_i < m_table->size())
            m_table->next(m_cursor, m_i, m_current);
        return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(const PackedIterator& o) const { return m_i == o.m_i; }

private:
    const Table* m_table = nullptr;
    size_t m_i = 0;
    typename Table::Cursor m_cursor{};
    Value m_current{};
};

} // namespace hecscope
