// Keeping only the latest stretch of a live session (LiveOptions::keepNs),
// and reading its recording again into a builder that keeps every thread
// event: the parts of LiveSession::Impl that read the recording.
#include "core/live/livesessionimpl.h"

#include <algorithm>

namespace hecscope {

using livesessiondetail::kReadSize;

namespace {

// Feeds `builder` the recording's bytes [from, to) in chunks; false once
// cancelled or on a short read (`error` says which).
bool feedRange(ByteSource& recording, IndexBuilder& builder, uint64_t from, uint64_t to,
               const std::atomic<bool>* cancel, std::string& error)
{
    std::vector<uint8_t> buf(std::min<uint64_t>(kReadSize, std::max<uint64_t>(to - from, 1)));
    while (from < to) {
        if (cancel && *cancel)
            return false;
        const size_t want = size_t(std::min<uint64_t>(buf.size(), to - from));
        const size_t got = recording.read(from, buf.data(), want);
        if (got != want) {
            error = "the recording could not be read again at byte offset " + std::to_string(from);
            return false;
        }
        builder.feed({buf.data(), got});
        from += got;
    }
    return true;
}

// The index of a stretch of the recording: its header (`header` bytes),
// the start-up records before the stretch at their own offsets, then the
// bytes [from, to). False once cancelled or on a short read (`error` says
// which).
bool feedStretch(ByteSource& recording, IndexBuilder& builder, uint64_t header,
                 const std::vector<std::pair<uint64_t, uint32_t>>& startup, uint64_t from, uint64_t to,
                 const std::atomic<bool>* cancel, std::string& error)
{
    std::vector<uint8_t> head(header);
    if (recording.read(0, head.data(), header) != header) {
        error = "the recording's header could not be read again";
        return false;
    }
    builder.feed(head);
    for (const auto& [offset, size] : startup) {
        if (cancel && *cancel)
            return false;
        std::vector<uint8_t> record(size);
        if (recording.read(offset, record.data(), size) != size || !builder.skipTo(offset))
            continue;
        builder.feed(record);
    }
    if (cancel && *cancel)
        return false;
    if (!builder.skipTo(from)) {
        error = "the stretch to keep could not be read from byte offset " + std::to_string(from);
        return false;
    }
    return feedRange(recording, builder, from, to, cancel, error);
}

} // namespace

// Once the index spans half as much again as the stretch to keep: a new
// one from the first block that ends at or after (newest - keep), built on
// a thread of its own while this one goes on. (Building it reads the
// stretch again: at a byte rate R and a decoding speed D that costs about
// 2R/D of a core, and memory holds up to two and a half stretches then.)
void LiveSession::Impl::maybeRebuild(const LogIndex& index)
{
    const uint64_t keep = keepNs;
    if (!keep || rebuild || !builder->headerRead() || index.lastTime == 0)
        return;
    const uint64_t start = std::max(index.firstTime == kNoTime ? 0 : index.firstTime, dropped.before);
    if (index.lastTime - std::min(index.lastTime, start) <= keep + keep / 2)
        return;
    const uint64_t before = index.lastTime - keep;
    const auto& blocks = index.scan.blocks;
    const auto block = std::find_if(blocks.begin(), blocks.end(), [&](const LogScan::Block& b) {
        return b.offset >= dropped.fromByte && b.endTime >= before;
    });
    if (block == blocks.end() || block->offset <= std::max(dropped.fromByte, headerSize))
        return;
    if (!headerSize) {
        // The recording's header: the bytes up to its first record.
        std::vector<uint8_t> bytes(std::min<uint64_t>(written, 1 << 20));
        const size_t got = s.m_recording->read(0, bytes.data(), bytes.size());
        const HeaderParse h = parseHeader(bytes.data(), got);
        if (h.status != HeaderParse::Complete)
            return;
        headerSize = h.consumed;
    }
    auto r = std::make_unique<Rebuild>();
    r->from = block->offset;
    r->before = before;
    r->fedTo = written;
    // The start-up records before the stretch: the index has them all
    // (those of earlier stretches it was given again, at their offsets).
    for (const auto& record : index.scan.startupRecords)
        if (record.first < r->from)
            r->startup.push_back(record);
    Rebuild& job = *r;
    const uint64_t header = headerSize;
    ByteSource& recording = *s.m_recording;
    job.builder = newBuilder(keepThreadEvents);
    job.thread = std::thread([&job, &recording, header] {
        feedStretch(recording, *job.builder, header, job.startup, job.from, job.fedTo, &job.cancel, job.error);
        job.done = true;
    });
    rebuild = std::move(r);
}

// A builder lost thread events it had let go (a capability's events came
// earlier than those it walked for good): the index of the same stretch,
// read again from the recording into one that keeps them. On the session
// thread (this is rare, and the index is wrong until it is done); false
// if the recording could not be read (said in the status).
bool LiveSession::Impl::readAgainKeepingThreadEvents()
{
    keepThreadEvents = true;
    cancelRebuild();
    auto fresh = newBuilder(true);
    std::string error;
    bool read = false;
    if (dropped.fromByte == 0) {
        read = feedRange(*s.m_recording, *fresh, 0, written, &cancelled, error);
    } else {
        std::vector<std::pair<uint64_t, uint32_t>> startup;
        for (const auto& record : builder->index().scan.startupRecords)
            if (record.first < dropped.fromByte)
                startup.push_back(record);
        read = feedStretch(*s.m_recording, *fresh, headerSize, startup, dropped.fromByte, written, &cancelled, error);
    }
    if (!read) {
        if (!error.empty())
            status.message = "could not read the recording again (thread events came out of order): " + error;
        return false;
    }
    builder = std::move(fresh);
    return true;
}

// The new index catches up with the bytes received meanwhile and takes
// the current one's place; what the stretch leaves out is counted.
void LiveSession::Impl::finishRebuild()
{
    std::unique_ptr<Rebuild> r = std::move(rebuild);
    r->thread.join();
    if (!r->cancel && r->builder && r->error.empty())
        feedRange(*s.m_recording, *r->builder, r->fedTo, written, nullptr, r->error);
    if (r->cancel || !r->builder || !r->error.empty()) {
        // Said, and tried again at the next publish; the index goes on.
        if (!r->error.empty())
            status.message = "could not keep only the latest stretch: " + r->error;
        return;
    }
    const std::vector<uint64_t>& now = builder->index().tagCounts;
    const std::vector<uint64_t>& kept = r->builder->index().tagCounts;
    LogIndex::Dropped next;
    next.fromByte = r->from;
    next.before = r->before;
    next.tagCounts.assign(now.size(), 0);
    for (size_t t = 0; t < now.size() && t < kept.size(); ++t) {
        const uint64_t whole = now[t] + (t < dropped.tagCounts.size() ? dropped.tagCounts[t] : 0);
        next.tagCounts[t] = whole - std::min(whole, kept[t]);
    }
    const uint64_t wholeEvents = builder->eventsDecoded() + dropped.events;
    next.events = wholeEvents - std::min(wholeEvents, r->builder->eventsDecoded());
    builder = std::move(r->builder);
    dropped = std::move(next);
    dirty = true;
}

void LiveSession::Impl::cancelRebuild()
{
    if (!rebuild)
        return;
    rebuild->cancel = true;
    rebuild->thread.join();
    rebuild.reset();
}

} // namespace hecscope
