// The timeline's tracks in their default order, top to bottom: one line
// per track. A track `Name` is a TimelineTrack in tracks/<name>track.cpp that
// defines `std::unique_ptr<TimelineTrack> makeNameTrack()`. (No include
// guard: read by trackregistry.cpp with HECSCOPE_TRACK defined.)
HECSCOPE_TRACK(Activity)
HECSCOPE_TRACK(Capability)
HECSCOPE_TRACK(PinnedThreads)
HECSCOPE_TRACK(Gc)
HECSCOPE_TRACK(Nonmoving)
HECSCOPE_TRACK(Sparks)
HECSCOPE_TRACK(Heap)
HECSCOPE_TRACK(NonmovingHeap)
HECSCOPE_TRACK(HeapProfile)
HECSCOPE_TRACK(TimeProfile)
HECSCOPE_TRACK(Markers)
HECSCOPE_TRACK(Spans)
HECSCOPE_TRACK(Threads)
