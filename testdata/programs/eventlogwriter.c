/* eventlogwriter.c: serves a GHC program's eventlog on a Unix socket, the
 * way ghc-eventlog-socket does, with the RTS's own API (rts/EventLogWriter.h):
 * wait for one client, then end the eventlog the RTS was writing (+RTS -l,
 * to /dev/null) and start it again with a writer that sends every byte to
 * the client. The RTS writes the header and start-up events again; event
 * times keep counting from the program's start. Used by Hecscope's live
 * tests (testdata/programs/live.hs). */
#include <Rts.h>

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int client = -1;
/* The RTS may write from several capabilities at once: one block at a time. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void writer_init(void) {}

static bool writer_write(void *data, size_t size)
{
    const char *p = data;
    pthread_mutex_lock(&lock);
    while (client >= 0 && size > 0) {
        ssize_t w = send(client, p, size, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) { /* the client went away: drop the rest */
            close(client);
            client = -1;
            break;
        }
        p += w;
        size -= (size_t)w;
    }
    pthread_mutex_unlock(&lock);
    return true;
}

static void writer_flush(void) {}

static void writer_stop(void)
{
    pthread_mutex_lock(&lock);
    if (client >= 0)
        close(client);
    client = -1;
    pthread_mutex_unlock(&lock);
}

static const EventLogWriter socket_writer = {
    .initEventLogWriter = writer_init,
    .writeEventLog = writer_write,
    .flushEventLog = writer_flush,
    .stopEventLogWriter = writer_stop,
};

void hecscope_serve_eventlog(const char *path)
{
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    strncpy(sa.sun_path, path, sizeof sa.sun_path - 1);
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    unlink(path);
    if (listener < 0 || bind(listener, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(listener, 1) != 0)
        return;
    client = accept(listener, NULL, NULL);
    close(listener);
    unlink(path);
    if (client < 0)
        return;
    endEventLogging();
    startEventLogging(&socket_writer);
}
