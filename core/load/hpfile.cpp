#include "core/load/hpfile.h"

#include "core/load/hpfilereader.h"

namespace hecscope {

bool looksLikeHeapProfile(std::span<const uint8_t> head)
{
    const std::string_view s(reinterpret_cast<const char*>(head.data()), head.size());
    return s.starts_with("JOB ") || s.starts_with("JOB\t");
}

std::unique_ptr<LogIndex> parseHeapProfile(std::string_view text)
{
    HpFileReader reader;
    reader.feed(text);
    return reader.finish();
}

} // namespace hecscope
