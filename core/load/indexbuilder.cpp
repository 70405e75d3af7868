#include "core/load/indexbuilder.h"

#include "core/index/indexdispatcher.h"
#include "core/load/preparefordrawing.h"

#include <algorithm>

namespace hecscope {

// The decoder feeds the piece collector (time-order index of the raw
// events), which passes every event on to the dispatcher and its builders.
struct IndexBuilder::Impl {
    Impl()
        : index(std::make_unique<LogIndex>())
        , dispatcher(*index)
        , pieces(index->scan, &dispatcher, IndexDispatcher::startupTags())
        , decoder(pieces)
    {
    }
    std::unique_ptr<LogIndex> index;
    IndexDispatcher dispatcher;
    PieceCollector pieces;
    StreamDecoder decoder;
    uint64_t bytes = 0;
    bool ended = false;
};

IndexBuilder::IndexBuilder()
    : m_impl(std::make_unique<Impl>())
{
}
IndexBuilder::~IndexBuilder() = default;

void IndexBuilder::keepInstants()
{
    m_impl->dispatcher.keepInstants();
}

void IndexBuilder::keepThreadSegments()
{
    m_impl->dispatcher.keepThreadSegments();
}

void IndexBuilder::settleThreadEventsEvery(size_t n, size_t minEventsPerThread, size_t runEvents, size_t slice)
{
    m_impl->dispatcher.settleThreadEventsEvery(n, minEventsPerThread, runEvents, slice);
}

uint64_t IndexBuilder::threadEventsInRuns() const
{
    return m_impl->dispatcher.threadEventsInRuns();
}

uint64_t IndexBuilder::threadEventsMostWaiting() const
{
    return m_impl->dispatcher.threadEventsMostWaiting();
}

uint64_t IndexBuilder::threadEventsMostPacked() const
{
    return m_impl->dispatcher.threadEventsMostPacked();
}

size_t IndexBuilder::threadRawEventBytes() const
{
    return m_impl->dispatcher.threadRawEventBytes();
}

void IndexBuilder::deferThreadCountsFrom(size_t threads)
{
    m_impl->dispatcher.deferThreadCountsFrom(threads);
}

uint64_t IndexBuilder::threadRunBytes() const
{
    return m_impl->dispatcher.threadRunBytes();
}

uint64_t IndexBuilder::threadsBinnedAsMerged() const
{
    return m_impl->dispatcher.threadsBinnedAsMerged();
}

bool IndexBuilder::threadEventsMergedFromInsurance() const
{
    return m_impl->dispatcher.threadEventsMergedFromInsurance();
}

bool IndexBuilder::threadSettlingDeclined() const
{
    return m_impl->dispatcher.threadSettlingDeclined();
}

uint64_t IndexBuilder::threadSegmentsSpilled() const
{
    return m_impl->dispatcher.threadSegmentsSpilled();
}

void IndexBuilder::keepSpansInMemory()
{
    m_impl->dispatcher.keepSpansInMemory();
}

void IndexBuilder::releaseSettledThreadEvents()
{
    m_impl->dispatcher.releaseSettledThreadEvents();
}

bool IndexBuilder::threadEventsLost() const
{
    return m_impl->dispatcher.threadEventsLost();
}

bool IndexBuilder::feed(std::span<const uint8_t> bytes)
{
    Impl& d = *m_impl;
    if (d.ended)
        return false;
    d.dispatcher.unseal();
    d.bytes += bytes.size();
    return d.decoder.feed(bytes);
}

const LogIndex& IndexBuilder::publish(bool endOfInput)
{
    publish(endOfInput, nullptr);
    return *m_impl->index;
}

bool IndexBuilder::publish(bool endOfInput, const LoadObserver* observer)
{
    Impl& d = *m_impl;
    if (d.ended)
        return true;
    if (endOfInput) {
        d.decoder.finish();
        d.ended = true;
    }
    LogScan& scan = d.index->scan;
    scan.format = d.decoder.format();
    scan.diagnostics = d.decoder.diagnostics();
    scan.events = d.decoder.eventCount();
    scan.hasError = d.decoder.hasError();
    scan.truncated = d.decoder.truncated();
    scan.bytes = d.bytes;
    if (!d.dispatcher.seal(endOfInput, observer) || isCancelled(observer))
        return false;
    return prepareForDrawing(*d.index, observer);
}

bool IndexBuilder::skipTo(uint64_t offset)
{
    Impl& d = *m_impl;
    if (d.ended || offset < d.bytes || !d.decoder.skipTo(offset))
        return false;
    d.bytes = offset;
    return true;
}

uint64_t IndexBuilder::breakConnection()
{
    Impl& d = *m_impl;
    if (d.ended || !headerRead())
        return d.bytes;
    d.dispatcher.unseal();
    d.bytes = d.decoder.breakConnection();
    return d.bytes;
}

uint64_t IndexBuilder::eventsDecoded() const
{
    return m_impl->decoder.eventCount();
}

uint64_t IndexBuilder::bytesPending() const
{
    return m_impl->bytes - std::min(m_impl->bytes, m_impl->decoder.decodedBytes());
}

bool IndexBuilder::headerRead() const
{
    return m_impl->decoder.format() != nullptr;
}

bool IndexBuilder::failed() const
{
    return m_impl->decoder.state() == StreamDecoder::State::Failed;
}

const LogIndex& IndexBuilder::index() const
{
    return *m_impl->index;
}

std::unique_ptr<LogIndex> IndexBuilder::take()
{
    return std::move(m_impl->index);
}

} // namespace hecscope
