#include "ui/window/exportdialog.h"

#include "ui/formatting.h"
#include "ui/jobs/settings.h"
#include "ui/timeline/tracks/trackregistry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace hecscope {

namespace {

const QString kGroup = QStringLiteral("export/");
const char* const kRangeNames[] = {"whole", "visible", "selection", "custom"};
const QSize kPresets[] = {{1600, 1000}, {1280, 800}, {1920, 1080}, {2560, 1440}, {3840, 2160}};

QString sizeText(QSize s)
{
    return QStringLiteral("%1 × %2").arg(s.width()).arg(s.height());
}

QString rangeText(ViewRange r)
{
    return QStringLiteral("%1 – %2").arg(durationText(r.start), durationText(r.end));
}

} // namespace

QString exactTimeText(uint64_t ns)
{
    struct Unit {
        uint64_t scale;
        const char* name;
        int decimals;
    };
    static const Unit units[] = {{1'000'000'000, "s", 9}, {1'000'000, "ms", 6}, {1'000, "us", 3}};
    for (const Unit& u : units)
        if (ns >= u.scale) {
            QString fraction = QString::number(ns % u.scale).rightJustified(u.decimals, QLatin1Char('0'));
            while (fraction.endsWith(QLatin1Char('0')))
                fraction.chop(1);
            return QString::number(ns / u.scale) + (fraction.isEmpty() ? QString() : QLatin1Char('.') + fraction)
                + QLatin1String(u.name);
        }
    return ns == 0 ? QStringLiteral("0") : QString::number(ns) + QLatin1String("ns");
}

RenderOptions exportBaseOptions(RenderOptions o, const ExportChoices& choices)
{
    o.palette = exportPalette();
    o.cursor.reset();
    o.highlight.reset();
    o.selected.reset();
    o.placeholder.clear();
    o.waitForDetail = true; // a picture holds everything it shows (read on the export's worker)
    if (choices.range && choices.range == o.selection)
        o.selection.reset(); // a picture of the selection, not tinted all over
    return o;
}

ExportDialog::ExportDialog(ExportDefaults defaults, QWidget* parent)
    : QDialog(parent)
    , m_defaults(std::move(defaults))
    , m_bounds(TimelineRenderer::boundsOf(m_defaults.index.get()))
{
    setWindowTitle(tr("Export Image"));
    auto* form = new QFormLayout;
    form->addRow(tr("Range:"), makeRange());
    form->addRow(tr("Size:"), makeSize());
    form->addRow(tr("File:"), makeFile());
    if (m_defaults.index && !m_defaults.index->heapBands.empty())
        form->addRow(makeHeap());
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #c0392b"));
    form->addRow(m_message);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_ok = buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* columns = new QHBoxLayout;
    columns->addWidget(makeTracks());
    columns->addLayout(form, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addWidget(buttons);
    restore();
    validate();
    m_ok->setDefault(true); // Return exports (once in the dialog: a button outside one cannot be its default)
}

// The window's tracks ticked, in its order; the others below.
QWidget* ExportDialog::makeTracks()
{
    auto* box = new QGroupBox(tr("Tracks (drag to reorder)"));
    m_tracks = new QListWidget;
    m_tracks->setDragDropMode(QAbstractItemView::InternalMove);
    auto fill = [this](const std::vector<QString>& shown) {
        const QSignalBlocker block(m_tracks);
        m_tracks->clear();
        auto add = [&](const TimelineTrack* t, bool on) {
            auto* item = new QListWidgetItem(t->title(), m_tracks);
            item->setData(Qt::UserRole, t->id());
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
            item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        };
        for (const QString& id : shown)
            if (const TimelineTrack* t = findTrack(id))
                add(t, true);
        for (const TimelineTrack* t : timelineTracks())
            if (std::find(shown.begin(), shown.end(), t->id()) == shown.end())
                add(t, false);
    };
    fill(m_defaults.shown);
    connect(m_tracks, &QListWidget::itemChanged, this, &ExportDialog::validate);
    auto* window = new QPushButton(tr("As in the window"));
    auto* all = new QPushButton(tr("All"));
    connect(window, &QPushButton::clicked, this, [this, fill] {
        fill(m_defaults.shown);
        validate();
    });
    connect(all, &QPushButton::clicked, this, [this] {
        for (int i = 0; i < m_tracks->count(); ++i)
            m_tracks->item(i)->setCheckState(Qt::Checked);
    });
    window->setAutoDefault(false); // Return exports
    all->setAutoDefault(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(window);
    buttons->addWidget(all);
    auto* layout = new QVBoxLayout(box);
    layout->addWidget(m_tracks);
    layout->addLayout(buttons);
    return box;
}

QWidget* ExportDialog::makeRange()
{
    auto* w = new QWidget;
    m_range = new QComboBox;
    m_range->addItem(tr("Whole run (%1)").arg(rangeText(m_bounds)), Whole);
    m_range->addItem(tr("Visible range (%1)").arg(rangeText(m_defaults.visible)), Visible);
    if (m_defaults.selection)
        m_range->addItem(tr("Selection (%1)").arg(rangeText(*m_defaults.selection)), Selection);
    m_range->addItem(tr("Custom"), Custom);
    m_custom = new QLineEdit;
    m_custom->setPlaceholderText(tr("START:END, as hecscope export --range: 100ms:250ms, 1.5s:, :2s"));
    connect(m_range, &QComboBox::currentIndexChanged, this, &ExportDialog::rangeChosen);
    connect(m_custom, &QLineEdit::textEdited, this, [this] {
        const QSignalBlocker block(m_range);
        m_range->setCurrentIndex(m_range->findData(Custom));
        validate();
    });
    auto* layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_range);
    layout->addWidget(m_custom);
    return w;
}

// Another kind shows its range as text to start from; typing makes it custom.
void ExportDialog::rangeChosen()
{
    const int kind = m_range->currentData().toInt();
    const ViewRange r = kind == Visible             ? m_defaults.visible
        : kind == Selection && m_defaults.selection ? *m_defaults.selection
                                                    : m_bounds;
    if (kind != Custom)
        m_custom->setText(exactTimeText(r.start) + QLatin1Char(':') + exactTimeText(r.end));
    validate();
}

QWidget* ExportDialog::makeSize()
{
    auto* w = new QWidget;
    m_sizes = new QComboBox;
    if (hasWindowSize())
        m_sizes->addItem(tr("The window's timeline (%1)").arg(sizeText(m_defaults.timeline)), m_defaults.timeline);
    for (QSize s : kPresets)
        m_sizes->addItem(sizeText(s), s);
    m_sizes->addItem(tr("Custom"), QSize());
    m_width = new QSpinBox;
    m_height = new QSpinBox;
    m_width->setRange(200, 20000);
    m_height->setRange(50, 20000);
    m_width->setSuffix(tr(" px"));
    m_height->setSuffix(tr(" px"));
    connect(m_sizes, &QComboBox::currentIndexChanged, this, &ExportDialog::sizeChosen);
    connect(m_width, &QSpinBox::valueChanged, this, &ExportDialog::sizeEdited);
    connect(m_height, &QSpinBox::valueChanged, this, &ExportDialog::sizeEdited);
    auto* layout = new QHBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_sizes, 1);
    layout->addWidget(m_width);
    layout->addWidget(new QLabel(QStringLiteral("×")));
    layout->addWidget(m_height);
    return w;
}

void ExportDialog::sizeChosen()
{
    const QSize s = m_sizes->currentData().toSize();
    if (s.isEmpty())
        return; // custom: the boxes as they are
    const QSignalBlocker bw(m_width), bh(m_height);
    m_width->setValue(s.width());
    m_height->setValue(s.height());
}

void ExportDialog::sizeEdited()
{
    const int i = m_sizes->findData(QSize(m_width->value(), m_height->value()));
    const QSignalBlocker block(m_sizes);
    m_sizes->setCurrentIndex(i >= 0 ? i : m_sizes->findData(QSize()));
}

QWidget* ExportDialog::makeFile()
{
    auto* w = new QWidget;
    m_path = new QLineEdit;
    m_format = new QComboBox;
    m_format->addItem(tr("PNG image"), QStringLiteral("png"));
    m_format->addItem(tr("SVG drawing"), QStringLiteral("svg"));
    m_format->addItem(tr("PDF"), QStringLiteral("pdf"));
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setAutoDefault(false);
    connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::pathEdited);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChosen);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export Image"), m_path->text(),
                                                          tr("PNG image (*.png);;SVG drawing (*.svg);;PDF (*.pdf)"));
        if (!path.isEmpty())
            m_path->setText(path);
    });
    auto* layout = new QHBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_path, 1);
    layout->addWidget(m_format);
    layout->addWidget(browse);
    return w;
}

// The suffix picks the format; the format changes the suffix.
void ExportDialog::pathEdited()
{
    const int i = m_format->findData(QFileInfo(m_path->text()).suffix().toLower());
    if (i >= 0) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(i);
    }
    validate();
}

void ExportDialog::formatChosen()
{
    const QString path = m_path->text(), suffix = m_format->currentData().toString();
    const QFileInfo info(path);
    const QString base = info.suffix().isEmpty() ? path : path.left(path.size() - info.suffix().size() - 1);
    m_path->setText(base + QLatin1Char('.') + suffix);
}

QWidget* ExportDialog::makeHeap()
{
    m_heap = new QGroupBox(tr("Heap profile bands (as hecscope heap)"));
    m_bands = new QSpinBox;
    m_bands->setRange(0, 9999);
    m_bands->setSpecialValueText(tr("all"));
    m_order = new QComboBox;
    for (BandOrder o : kBandOrders)
        m_order->addItem(QString::fromLatin1(bandOrderName(o)), int(o));
    m_reverse = new QCheckBox(tr("Reversed"));
    m_mode = new QComboBox;
    for (HeapChartMode m : {HeapChartMode::Stacked, HeapChartMode::Normalised, HeapChartMode::Lines})
        m_mode->addItem(heapChartModeName(m), int(m));
    // The Heap Profile pane's choice.
    const auto& v = m_defaults.heapView;
    const bool known = v && v->selection && m_defaults.index && v->indexSerial == m_defaults.index->serial;
    m_bands->setValue(int(known ? v->selection->n : kDefaultBands));
    m_order->setCurrentIndex(m_order->findData(int(known ? v->selection->order : BandOrder::Size)));
    m_reverse->setChecked(known && v->selection->reversed);
    m_mode->setCurrentIndex(m_mode->findData(int(known ? v->mode : HeapChartMode::Stacked)));
    auto* order = new QHBoxLayout;
    order->addWidget(m_order, 1);
    order->addWidget(m_reverse);
    auto* form = new QFormLayout(m_heap);
    form->addRow(tr("Bands:"), m_bands);
    form->addRow(tr("Order:"), order);
    form->addRow(tr("Chart:"), m_mode);
    return m_heap;
}

void ExportDialog::restore()
{
    // Size: the last one, else the window's timeline, else 1600 × 1000.
    const QString size = Settings::value(kGroup + QStringLiteral("size")).toString();
    const QStringList wh = size.split(QLatin1Char('x'));
    if (wh.size() == 2) {
        m_width->setValue(wh[0].toInt());
        m_height->setValue(wh[1].toInt());
        sizeEdited();
    } else { // "window", or nothing yet
        m_sizes->setCurrentIndex(0);
        sizeChosen();
    }
    // Range: the last kind when it is there to choose, else the selection
    // when there is one, else the visible range.
    const QString kind = Settings::value(kGroup + QStringLiteral("range")).toString();
    int chosen = -1;
    for (int k = Whole; k <= Custom; ++k)
        if (kind == QLatin1String(kRangeNames[k]))
            chosen = m_range->findData(k);
    if (chosen < 0)
        chosen = m_range->findData(m_defaults.selection ? Selection : Visible);
    {
        const QSignalBlocker block(m_range);
        m_range->setCurrentIndex(chosen);
    }
    if (m_range->currentData().toInt() == Custom)
        m_custom->setText(Settings::value(kGroup + QStringLiteral("customRange")).toString());
    else
        rangeChosen(); // its text in the field
    // File: the log's name in the last folder (else the log's), the last format.
    const QString format = Settings::value(kGroup + QStringLiteral("format"), QStringLiteral("png")).toString();
    const QFileInfo log(m_defaults.logPath);
    QString folder = Settings::value(kGroup + QStringLiteral("folder")).toString();
    if (folder.isEmpty() || !QFileInfo(folder).isDir())
        folder = m_defaults.logPath.isEmpty() ? QDir::homePath() : log.absolutePath();
    const QString name = m_defaults.logPath.isEmpty() ? QStringLiteral("timeline") : log.completeBaseName();
    m_path->setText(QDir(folder).filePath(name + QLatin1Char('.') + (m_format->findData(format) >= 0 ? format : QStringLiteral("png"))));
}

std::optional<ViewRange> ExportDialog::chosenRange(QString* error) const
{
    switch (m_range->currentData().toInt()) {
    case Whole:
        return std::nullopt;
    case Visible:
        return m_defaults.visible;
    case Selection:
        return m_defaults.selection;
    default:
        return parseExportRange(m_custom->text(), m_bounds, error);
    }
}

QString ExportDialog::problem() const
{
    bool anyTrack = false;
    for (int i = 0; i < m_tracks->count(); ++i)
        anyTrack = anyTrack || m_tracks->item(i)->checkState() == Qt::Checked;
    if (!anyTrack)
        return tr("Tick at least one track.");
    QString error;
    if (m_range->currentData().toInt() == Custom && !chosenRange(&error))
        return tr("Range: %1").arg(error);
    const QFileInfo file(m_path->text().trimmed());
    if (m_path->text().trimmed().isEmpty())
        return tr("Name the file to write.");
    if (!isExportFormat(file.filePath()))
        return tr("The file must end in .png, .svg or .pdf.");
    if (!file.absoluteDir().exists())
        return tr("There is no folder %1.").arg(file.absolutePath());
    return {};
}

void ExportDialog::validate()
{
    const QString why = problem();
    m_message->setText(why);
    m_message->setVisible(!why.isEmpty());
    m_ok->setEnabled(why.isEmpty());
    if (m_heap) {
        std::vector<QString> checked;
        for (int i = 0; i < m_tracks->count(); ++i)
            if (m_tracks->item(i)->checkState() == Qt::Checked)
                checked.push_back(m_tracks->item(i)->data(Qt::UserRole).toString());
        m_heap->setEnabled(anyTrackDraws<HeapView>(checked));
    }
}

ExportChoices ExportDialog::choices() const
{
    ExportChoices c;
    c.path = m_path->text().trimmed();
    c.size = QSize(m_width->value(), m_height->value());
    QString error;
    c.range = chosenRange(&error);
    c.tracks.clear();
    for (int i = 0; i < m_tracks->count(); ++i)
        if (m_tracks->item(i)->checkState() == Qt::Checked)
            c.tracks.push_back(m_tracks->item(i)->data(Qt::UserRole).toString());
    if (m_heap) {
        c.bands = size_t(m_bands->value());
        c.order = BandOrder(m_order->currentData().toInt());
        c.reversed = m_reverse->isChecked();
        c.heapMode = HeapChartMode(m_mode->currentData().toInt());
    }
    return c;
}

void ExportDialog::accept()
{
    if (!problem().isEmpty())
        return;
    const bool windowSize = hasWindowSize() && m_sizes->currentIndex() == 0; // follows the window next time
    Settings::setValue(kGroup + QStringLiteral("size"), windowSize ? QStringLiteral("window") : QStringLiteral("%1x%2").arg(m_width->value()).arg(m_height->value()));
    const int kind = m_range->currentData().toInt();
    Settings::setValue(kGroup + QStringLiteral("range"), QLatin1String(kRangeNames[kind]));
    if (kind == Custom)
        Settings::setValue(kGroup + QStringLiteral("customRange"), m_custom->text());
    Settings::setValue(kGroup + QStringLiteral("format"), m_format->currentData());
    Settings::setValue(kGroup + QStringLiteral("folder"), QFileInfo(m_path->text().trimmed()).absolutePath());
    QDialog::accept();
}

} // namespace hecscope
