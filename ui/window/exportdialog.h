#pragma once

#include "ui/timeline/exportchoices.h"

#include <QDialog>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace hecscope {

// What the window shows when File ▸ Export Image… opens: the dialog's
// defaults.
struct ExportDefaults {
    std::shared_ptr<const LogIndex> index;
    std::vector<QString> shown; // the window's tracks, top to bottom
    ViewRange visible;
    std::optional<ViewRange> selection;
    QSize timeline;                           // the window's timeline, px; empty: none
    std::shared_ptr<const HeapView> heapView; // the Heap Profile pane's bands and mode
    QString logPath;                          // names the picture
};

// File ▸ Export Image…: the choices of `hecscope export` for the timeline —
// the tracks (ticked and dragged into order; at first the window's), the
// range (the whole run, the visible range, the selection, or START:END
// typed as for --range), the size, the file (its suffix picks PNG, SVG or
// PDF) and, for a log with a heap profile, its bands and mode. A bad
// choice is said below it and disables Export. The last size, range kind,
// format and folder are remembered in the settings.
class ExportDialog : public QDialog {
    Q_OBJECT
public:
    explicit ExportDialog(ExportDefaults defaults, QWidget* parent = nullptr);

    ExportChoices choices() const;
    // Why Export is disabled; empty when it is not.
    QString problem() const;
    void accept() override; // remembers the choices

    // For tests.
    QListWidget* trackList() const { return m_tracks; }
    QComboBox* rangeBox() const { return m_range; }
    QLineEdit* customRange() const { return m_custom; }
    QLabel* message() const { return m_message; }
    QComboBox* sizeBox() const { return m_sizes; }
    QSpinBox* widthBox() const { return m_width; }
    QSpinBox* heightBox() const { return m_height; }
    QLineEdit* pathField() const { return m_path; }
    QComboBox* formatBox() const { return m_format; }
    QGroupBox* heapGroup() const { return m_heap; }
    QSpinBox* bandsBox() const { return m_bands; }
    QComboBox* orderBox() const { return m_order; }
    QCheckBox* reverseBox() const { return m_reverse; }
    QComboBox* modeBox() const { return m_mode; }
    QPushButton* exportButton() const { return m_ok; }

    enum RangeKind { Whole,
                     Visible,
                     Selection,
                     Custom };

private:
    QWidget* makeTracks();
    QWidget* makeRange();
    QWidget* makeSize();
    QWidget* makeFile();
    QWidget* makeHeap();
    void restore();
    std::optional<ViewRange> chosenRange(QString* error) const;
    bool hasWindowSize() const { return m_defaults.timeline.width() >= 200 && m_defaults.timeline.height() >= 50; }
    void rangeChosen();
    void validate();
    void pathEdited();
    void formatChosen();
    void sizeChosen();
    void sizeEdited();

    ExportDefaults m_defaults;
    ViewRange m_bounds;
    QListWidget* m_tracks = nullptr;
    QComboBox* m_range = nullptr;
    QLineEdit* m_custom = nullptr;
    QComboBox* m_sizes = nullptr;
    QSpinBox *m_width = nullptr, *m_height = nullptr;
    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QGroupBox* m_heap = nullptr;
    QSpinBox* m_bands = nullptr;
    QComboBox *m_order = nullptr, *m_mode = nullptr;
    QCheckBox* m_reverse = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_ok = nullptr;
};

// What an export from the window draws besides the choices: the window's
// bookmarks, selection (unless it is the range), thread rows and heap
// view; not the pointer's cursor or a search hit; colours for paper, as
// `hecscope export`.
RenderOptions exportBaseOptions(RenderOptions window, const ExportChoices& choices);

// A time as parseTime reads it back exactly, in the largest unit it
// reaches: "1.5s", "120.25ms", "830ns".
QString exactTimeText(uint64_t ns);

} // namespace hecscope
