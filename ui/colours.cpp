#include "ui/colours.h"

#include <cmath>

namespace hecscope {

QColor threadColor(uint32_t thread)
{
    const double hue = std::fmod(double(thread) * 0.6180339887, 1.0);
    return QColor::fromHsvF(float(hue), 0.55f, 0.80f);
}

QColor spanColor(SpanKind kind)
{
    // Okabe–Ito hues, told apart with the common colour-vision
    // deficiencies: GC (vermillion) and GC work (orange) differ in hue and
    // lightness, the sync wait is purple, idle a pale tint, parked after a
    // collection sky blue (both drawn thin: not collecting).
    switch (kind) {
    case SpanKind::Running: return QColor(0x00, 0x9e, 0x73);
    case SpanKind::Gc: return QColor(0xd5, 0x5e, 0x00);
    case SpanKind::GcSync: return QColor(0xcc, 0x79, 0xa7);
    case SpanKind::GcWork: return QColor(0xe6, 0x9f, 0x00);
    case SpanKind::GcIdle: return QColor(0xf5, 0xd3, 0xb8);
    case SpanKind::GcDone: return QColor(0x95, 0xa5, 0xa6);
    case SpanKind::GcParked: return QColor(0x56, 0xb4, 0xe9);
    }
    return Qt::gray;
}

} // namespace hecscope
