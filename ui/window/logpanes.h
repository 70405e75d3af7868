#pragma once

#include "core/stats/stats.h"
#include "ui/jobs/jobrunner.h"

#include <QListWidget>
#include <QPlainTextEdit>

#include <memory>

namespace hecscope {

class CapabilityTableModel;
class LogDocument;
class SpansPane;
class ViewController;
struct LogIndex;
struct UserSpans;

// The Statistics pane: the +RTS -s table and the rest of `info`'s figures
// for the whole run, or for the selection (computed on a worker while the
// user drags; a newer selection drops an older result), then the user
// spans' figures. It gives the Capabilities table the same figures.
class StatisticsPane : public QPlainTextEdit {
    Q_OBJECT
public:
    StatisticsPane(const ViewController* view, const SpansPane* spans, CapabilityTableModel* capabilities,
                   QWidget* parent = nullptr);
    void follow(const LogDocument* doc);
    // Writes the figures again (the time format changed).
    void refresh();

private:
    const LogDocument* m_doc = nullptr;
    const ViewController* m_view;
    const SpansPane* m_spans;
    CapabilityTableModel* m_capabilities;
    JobRunner m_runner; // last member: destroyed (and waited for) first
};

// The Process pane: when the run began, its capsets (RTS, command,
// process ids, capabilities, environment) and the log's size.
class ProcessPane : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit ProcessPane(QWidget* parent = nullptr);
    void follow(const LogDocument* doc);
    void describe(const LogIndex& index);
};

// The Diagnostics pane: the decoder's problems with the file (each with
// its byte offset), then the unmatched START and STOP messages of the
// user spans shown (their prefixes may change after the load).
class DiagnosticsPane : public QListWidget {
    Q_OBJECT
public:
    explicit DiagnosticsPane(QWidget* parent = nullptr);
    void follow(const LogDocument* doc);
    void showSpanIssues(const std::shared_ptr<const UserSpans>& spans);
    QStringList lines() const;

private:
    const LogDocument* m_doc = nullptr;
};

// The Details pane: what the item clicked on the timeline (or the event
// chosen in the list) is; brought forward when it says something.
class DetailsPane : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit DetailsPane(QWidget* parent = nullptr);
    void follow(const LogDocument* doc); // a new log's items are not the old one's
    void describe(const QString& details);
};

} // namespace hecscope
