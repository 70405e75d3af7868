#include "ui/profile/profilecolours.h"

#include <cstdint>

namespace hecscope {

QColor moduleColour(const std::string& module)
{
    uint32_t h = 2166136261u; // FNV-1a: stable across runs, unlike std::hash
    for (unsigned char c : module)
        h = (h ^ c) * 16777619u;
    // Hues from red through orange to yellow-green, light enough for black text.
    const int hue = int(h % 70);
    const int saturation = 150 + int((h >> 8) % 80);
    const int value = 215 + int((h >> 16) % 40);
    return QColor::fromHsv(hue, saturation, value);
}

QColor costCentreColour(const ProfileCostCentre& cc)
{
    if (cc.rts)
        return QColor(0xb8, 0xb8, 0xb8);
    return moduleColour(cc.module);
}

} // namespace hecscope
