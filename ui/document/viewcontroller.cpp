#include "ui/document/viewcontroller.h"

namespace hecscope {

namespace {
constexpr size_t kHistoryLimit = 200;
}

ViewController::ViewController(QObject* parent)
    : QObject(parent)
{
}

void ViewController::setBounds(ViewRange bounds)
{
    m_bounds = bounds;
    m_range = bounds;
    m_back.clear();
    m_forward.clear();
    m_selection.reset();
    emit historyChanged();
    emit selectionChanged(m_selection);
    emit viewChanged(m_range);
}

void ViewController::extendBounds(ViewRange bounds)
{
    // A view of everything goes on showing everything.
    const bool all = m_range == m_bounds;
    m_bounds = bounds;
    const ViewRange r = all ? bounds : fitInto(m_range, m_bounds);
    if (r != m_range) {
        m_range = r;
        emit viewChanged(m_range);
    }
}

void ViewController::setRange(ViewRange r, bool remember)
{
    r = fitInto(r, m_bounds);
    if (r == m_range)
        return;
    if (remember) {
        m_back.push_back(m_range);
        if (m_back.size() > kHistoryLimit)
            m_back.erase(m_back.begin());
        m_forward.clear();
        emit historyChanged();
    }
    m_range = r;
    emit viewChanged(m_range);
}

void ViewController::zoom(double factor, uint64_t anchor, bool remember)
{
    setRange(zoomAround(m_range, anchor, factor, m_bounds), remember);
}

void ViewController::pan(double deltaNs)
{
    setRange(panBy(m_range, deltaNs, m_bounds), false);
}

void ViewController::fitAll()
{
    setRange(m_bounds);
}

void ViewController::zoomToSelection()
{
    if (m_selection)
        setRange(*m_selection);
}

void ViewController::centreOn(uint64_t t)
{
    const uint64_t half = m_range.duration() / 2;
    const uint64_t start = t > half ? t - half : 0;
    setRange({start, start + m_range.duration()});
}

void ViewController::setSelection(std::optional<ViewRange> s)
{
    if (s)
        s = ViewRange{std::max(s->start, m_bounds.start),
                      std::min(s->end, m_bounds.end)};
    if (s && s->end <= s->start)
        s.reset();
    if (s == m_selection)
        return;
    m_selection = s;
    emit selectionChanged(m_selection);
}

void ViewController::back()
{
    if (m_back.empty())
        return;
    m_forward.push_back(m_range);
    m_range = m_back.back();
    m_back.pop_back();
    emit historyChanged();
    emit viewChanged(m_range);
}

void ViewController::forward()
{
    if (m_forward.empty())
        return;
    m_back.push_back(m_range);
    m_range = m_forward.back();
    m_forward.pop_back();
    emit historyChanged();
    emit viewChanged(m_range);
}

} // namespace hecscope
