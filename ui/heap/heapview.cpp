#include "ui/heap/heapview.h"

#include <QObject>
#include <QString>

#include <algorithm>

namespace hecscope {

QString heapChartModeName(HeapChartMode m)
{
    switch (m) {
    case HeapChartMode::Stacked: return QObject::tr("Stacked");
    case HeapChartMode::Normalised: return QObject::tr("Normalised (100 %)");
    case HeapChartMode::Lines: return QObject::tr("Lines (each to its peak)");
    }
    return {};
}

bool HeapView::anyEmphasised() const
{
    return std::any_of(emphasised.begin(), emphasised.end(), [](char c) { return c != 0; });
}

QColor bandColour(uint32_t sizeRank)
{
    // Tableau 20, dark shades first: neighbours in size differ in hue.
    static const QRgb kColours[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
                                    0xbcbd22, 0x17becf, 0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896, 0xc5b0d5,
                                    0xc49c94, 0xf7b6d2, 0xdbdb8d, 0x9edae5, 0x393b79, 0x637939};
    constexpr uint32_t n = sizeof kColours / sizeof kColours[0];
    if (sizeRank < n)
        return QColor(kColours[sizeRank]);
    // Beyond twenty, hues spread by the golden angle.
    return QColor::fromHsv(int((sizeRank * 137u) % 360u), 140 + int(sizeRank % 3) * 40, 200);
}

QColor columnColour(const BandSelection& sel, const HeapBands& bands, size_t column)
{
    if (column >= sel.labels.size())
        return kOtherBandColour;
    return bandColour(bands.sizeRank[sel.labels[column]]);
}

QString columnName(const BandSelection& sel, const HeapBands& bands, size_t column)
{
    if (column >= sel.labels.size())
        return QObject::tr("OTHER (%n bands)", nullptr, int(sel.otherCount));
    return QString::fromStdString(bands.names[sel.labels[column]]);
}

} // namespace hecscope
