#pragma once

#include <QApplication>
#include <QPointer>
#include <QWidget>

namespace hecscope {

// Gives the keyboard back when a modal dialog closes (accepted or not): the
// window that opened it active again and the widget that had the focus
// focused again, so the window's shortcuts (Ctrl+E again) work at once. Qt
// leaves that to the platform, and without a window manager (or offscreen)
// no window is active after the dialog: every key is dropped until a click.
class FocusReturn {
public:
    explicit FocusReturn(QWidget* opener)
        : m_window(opener->window())
        , m_focus(QApplication::focusWidget())
    {
    }
    ~FocusReturn()
    {
        if (!m_window || !m_window->isVisible())
            return;
        m_window->activateWindow();
        if (m_focus && m_focus->window() == m_window)
            m_focus->setFocus(Qt::ActiveWindowFocusReason);
    }
    FocusReturn(const FocusReturn&) = delete;
    FocusReturn& operator=(const FocusReturn&) = delete;

private:
    QPointer<QWidget> m_window;
    QPointer<QWidget> m_focus;
};

} // namespace hecscope
