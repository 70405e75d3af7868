#include "ui/window/helpmenu.h"

#include "ui/window/focusreturn.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace hecscope {

HelpMenu::HelpMenu(QMainWindow* window) : QObject(window), m_window(window)
{
    QMenu* help = window->menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keys and Mouse"), this, &HelpMenu::showKeys);
    keys->setShortcut(QKeySequence::HelpContents);
    help->addSeparator();
    help->addAction(tr("&About Hecscope"), this, &HelpMenu::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

namespace {

QString row(const QString& what, const QString& how)
{
    return QStringLiteral("<tr><td style='padding-right:18px'>%1</td><td>%2</td></tr>").arg(what.toHtmlEscaped(), how);
}

QString keyText(const QList<QKeySequence>& keys)
{
    QStringList parts;
    for (const QKeySequence& k : keys)
        parts << QStringLiteral("<b>%1</b>").arg(k.toString(QKeySequence::NativeText).toHtmlEscaped());
    return parts.join(QStringLiteral(", "));
}

// Each menu's actions with a shortcut, submenus followed ("File ▸ Open…").
void menuKeys(const QMenu* menu, const QString& path, QString& out)
{
    for (QAction* a : menu->actions()) {
        if (a->isSeparator())
            continue;
        const QString name = path + QStringLiteral(" ▸ ") + QString(a->text()).remove(QLatin1Char('&'));
        if (a->menu())
            menuKeys(a->menu(), name, out);
        else if (!a->shortcuts().isEmpty())
            out += row(name, keyText(a->shortcuts()));
    }
}

} // namespace

QString HelpMenu::keysText() const
{
    QString out = QStringLiteral("<h3>%1</h3><table>").arg(tr("Timeline: mouse"));
    const std::pair<QString, QString> mouse[] = {
        {tr("Zoom in or out at the pointer"), tr("<b>Wheel</b>")},
        {tr("Pan"), tr("<b>Drag</b>, or <b>Shift+Wheel</b>")},
        {tr("Select a range (its statistics replace the whole run's)"), tr("<b>Shift+Drag</b> or <b>Right-drag</b>")},
        {tr("Zoom in on a point"), tr("<b>Double-click</b>")},
        {tr("Tooltip: what is under the pointer"), tr("<b>Hover</b>")},
        {tr("Select an item and read it in Details; the event list follows"), tr("<b>Click</b>")},
        {tr("Make a track's rows taller or shorter"), tr("<b>Drag a row's bottom edge</b>")},
        {tr("Scroll the Threads track's rows"), tr("<b>Wheel over the thread names</b>")},
        {tr("Choose, pin or sort threads; collapse the track"), tr("<b>Click / Right-click the thread names</b>")},
    };
    for (const auto& [what, how] : mouse)
        out += row(what, how);
    out += QStringLiteral("</table><h3>%1</h3><table>").arg(tr("Timeline: keys"));
    const std::pair<QString, QString> keys[] = {
        {tr("Zoom in, out (at the cursor)"), QStringLiteral("<b>+</b>, <b>-</b>")},
        {tr("Pan"), tr("<b>Left</b>, <b>Right</b>")},
        {tr("Fit the whole run"), tr("<b>Home</b>")},
        {tr("Clear the selection"), tr("<b>Escape</b>")},
        {tr("Live: follow the newest events again"), QStringLiteral("<b>F</b>")},
    };
    for (const auto& [what, how] : keys)
        out += row(what, how);
    out += QStringLiteral("</table><h3>%1</h3><table>").arg(tr("Menus"));
    for (QAction* a : m_window->menuBar()->actions())
        if (a->menu())
            menuKeys(a->menu(), QString(a->text()).remove(QLatin1Char('&')), out);
    out += QStringLiteral("</table>");
    return out;
}

void HelpMenu::showKeys()
{
    const FocusReturn focus(m_window); // F1 and the rest work again once it closes
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Keys and Mouse"));
    auto* text = new QTextBrowser;
    text->setHtml(keysText());
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog.resize(640, 640);
    dialog.exec();
}

void HelpMenu::showAbout()
{
    const FocusReturn focus(m_window);
    QMessageBox::about(m_window, tr("About Hecscope"),
                       tr("<h3>Hecscope %1</h3>"
                          "<p>A viewer for GHC eventlogs: what each capability, collection, thread and "
                          "cost centre of a Haskell program did, on one zoomable time axis.</p>"
                          "<p>Open a log made with <tt>+RTS -l</tt> (add <tt>-hT</tt>, <tt>-p</tt>, … for "
                          "profiles), a <tt>.hp</tt> heap profile or a <tt>.prof</tt> report, or follow a "
                          "running program's eventlog (File ▸ Connect…).</p>"
                          "<p>Built with Qt %2 and QCustomPlot. Licensed under the GNU GPL, version 3 or later.</p>")
                           .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

} // namespace hecscope
