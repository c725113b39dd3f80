// See include/SQLitePowerCut.h. One global mutex guards the watched files' pending writes: this
// code serves tests, where simplicity beats speed.

#include "SQLitePowerCut.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct PendingOp {
    int isTruncate;
    sqlite3_int64 offset;  // write offset, or the new size of a truncation
    int amount;
    unsigned char *data;
    struct PendingOp *next;
} PendingOp;

// What the kernel holds for one file (one path): its unsynced writes, shared by every handle
// open on it, as the page cache is shared by every descriptor of a file.
typedef struct Node {
    char *path;
    sqlite3_int64 logicalSize;
    PendingOp *head, *tail;
    int references;
    struct Node *next;
} Node;

typedef struct WatchedFile {
    sqlite3_file base;     // must come first: SQLite sees this
    sqlite3_file *real;    // the system VFS's file, right after this struct
    Node *node;
} WatchedFile;

enum { maxWatched = 32 };

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static sqlite3_vfs *systemVFS;
static sqlite3_vfs powerCutVFS;
static int installed;
static char *watched[maxWatched];
static int isDead;
static Node *nodes;
static long long syncCount;

static void freeOps(Node *file) {
    PendingOp *op = file->head;
    while (op) {
        PendingOp *next = op->next;
        free(op->data);
        free(op);
        op = next;
    }
    file->head = file->tail = NULL;
}

static long long pendingBytes(Node *file) {
    long long total = 0;
    for (PendingOp *op = file->head; op; op = op->next) total += op->isTruncate ? 0 : op->amount;
    return total;
}

static int isWatchedPath(const char *path) {
    if (!path) return 0;
    for (int i = 0; i < maxWatched; i++) {
        if (watched[i] && strncmp(path, watched[i], strlen(watched[i])) == 0) return 1;
    }
    return 0;
}

// Applies the pending operations to the real file, in order. Called with the mutex held.
static int flushOps(Node *node, sqlite3_file *real) {
    int rc = SQLITE_OK;
    for (PendingOp *op = node->head; op && rc == SQLITE_OK; op = op->next) {
        if (op->isTruncate) {
            rc = real->pMethods->xTruncate(real, op->offset);
        } else {
            rc = real->pMethods->xWrite(real, op->data, op->amount, op->offset);
        }
    }
    freeOps(node);
    return rc;
}

static int appendOp(Node *file, int isTruncate, sqlite3_int64 offset, const void *data, int amount) {
    PendingOp *op = calloc(1, sizeof(PendingOp));
    if (!op) return SQLITE_NOMEM;
    op->isTruncate = isTruncate;
    op->offset = offset;
    op->amount = amount;
    if (!isTruncate) {
        op->data = malloc((size_t)amount);
        if (!op->data) {
            free(op);
            return SQLITE_NOMEM;
        }
        memcpy(op->data, data, (size_t)amount);
    }
    if (file->tail) file->tail->next = op; else file->head = op;
    file->tail = op;
    return SQLITE_OK;
}

static int watchedClose(sqlite3_file *base) {
    WatchedFile *file = (WatchedFile *)base;
    Node *node = file->node;
    pthread_mutex_lock(&mutex);
    if (--node->references == 0) {
        // The last handle on a file closed before any cut: its writes are in the page cache, which
        // the kernel writes back in time. (Optimistic; the tests cut while the database is open.)
        if (!isDead) flushOps(node, file->real); else freeOps(node);
        Node **link = &nodes;
        while (*link != node) link = &(*link)->next;
        *link = node->next;
        free(node->path);
        free(node);
    }
    pthread_mutex_unlock(&mutex);
    return file->real->pMethods->xClose(file->real);
}

static int watchedRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    WatchedFile *file = (WatchedFile *)base;
    unsigned char *bytes = buffer;
    pthread_mutex_lock(&mutex);
    memset(buffer, 0, (size_t)amount);
    int rc = file->real->pMethods->xRead(file->real, buffer, amount, offset);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) {
        pthread_mutex_unlock(&mutex);
        return rc;
    }
    sqlite3_int64 end = offset + amount;
    Node *node = file->node;
    for (PendingOp *op = node->head; op; op = op->next) {
        if (op->isTruncate) {
            if (op->offset < end) {
                sqlite3_int64 from = op->offset > offset ? op->offset : offset;
                memset(bytes + (from - offset), 0, (size_t)(end - from));
            }
            continue;
        }
        sqlite3_int64 opEnd = op->offset + op->amount;
        sqlite3_int64 from = op->offset > offset ? op->offset : offset;
        sqlite3_int64 to = opEnd < end ? opEnd : end;
        if (from < to) memcpy(bytes + (from - offset), op->data + (from - op->offset), (size_t)(to - from));
    }
    rc = SQLITE_OK;
    if (end > node->logicalSize) {
        sqlite3_int64 from = node->logicalSize > offset ? node->logicalSize : offset;
        memset(bytes + (from - offset), 0, (size_t)(end - from));
        rc = SQLITE_IOERR_SHORT_READ;
    }
    pthread_mutex_unlock(&mutex);
    return rc;
}

static int watchedWrite(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    WatchedFile *file = (WatchedFile *)base;
    pthread_mutex_lock(&mutex);
    int rc = SQLITE_OK;
    if (!isDead) {
        Node *node = file->node;
        rc = appendOp(node, 0, offset, data, amount);
        if (rc == SQLITE_OK && offset + amount > node->logicalSize) node->logicalSize = offset + amount;
    }
    pthread_mutex_unlock(&mutex);
    return rc;
}

static int watchedTruncate(sqlite3_file *base, sqlite3_int64 size) {
    WatchedFile *file = (WatchedFile *)base;
    pthread_mutex_lock(&mutex);
    int rc = SQLITE_OK;
    if (!isDead) {
        rc = appendOp(file->node, 1, size, NULL, 0);
        if (rc == SQLITE_OK) file->node->logicalSize = size;
    }
    pthread_mutex_unlock(&mutex);
    return rc;
}

static int watchedSync(sqlite3_file *base, int flags) {
    WatchedFile *file = (WatchedFile *)base;
    pthread_mutex_lock(&mutex);
    int rc = SQLITE_OK;
    if (!isDead) {
        rc = flushOps(file->node, file->real);
        if (rc == SQLITE_OK) rc = file->real->pMethods->xSync(file->real, flags);
        if (rc == SQLITE_OK) syncCount++;
    }
    pthread_mutex_unlock(&mutex);
    return rc;
}

static int watchedFileSize(sqlite3_file *base, sqlite3_int64 *size) {
    WatchedFile *file = (WatchedFile *)base;
    pthread_mutex_lock(&mutex);
    *size = file->node->logicalSize;
    pthread_mutex_unlock(&mutex);
    return SQLITE_OK;
}

static int watchedLock(sqlite3_file *base, int level) {
    WatchedFile *file = (WatchedFile *)base;
    return file->real->pMethods->xLock(file->real, level);
}

static int watchedUnlock(sqlite3_file *base, int level) {
    WatchedFile *file = (WatchedFile *)base;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int watchedCheckReservedLock(sqlite3_file *base, int *result) {
    WatchedFile *file = (WatchedFile *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int watchedFileControl(sqlite3_file *base, int op, void *argument) {
    WatchedFile *file = (WatchedFile *)base;
    // Size hints and chunk sizes would make the system VFS grow the real file behind our back.
    if (op == SQLITE_FCNTL_SIZE_HINT || op == SQLITE_FCNTL_CHUNK_SIZE) return SQLITE_OK;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int watchedSectorSize(sqlite3_file *base) {
    WatchedFile *file = (WatchedFile *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int watchedDeviceCharacteristics(sqlite3_file *base) {
    WatchedFile *file = (WatchedFile *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

// The WAL index (-shm) is shared memory that SQLite rebuilds from the WAL after a crash; it is
// passed through. After a cut it is never deleted, as a dead machine deletes nothing.
static int watchedShmMap(sqlite3_file *base, int page, int pageSize, int extend, void volatile **pointer) {
    WatchedFile *file = (WatchedFile *)base;
    return file->real->pMethods->xShmMap(file->real, page, pageSize, extend, pointer);
}

static int watchedShmLock(sqlite3_file *base, int offset, int count, int flags) {
    WatchedFile *file = (WatchedFile *)base;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void watchedShmBarrier(sqlite3_file *base) {
    WatchedFile *file = (WatchedFile *)base;
    file->real->pMethods->xShmBarrier(file->real);
}

static int watchedShmUnmap(sqlite3_file *base, int deleteFlag) {
    WatchedFile *file = (WatchedFile *)base;
    pthread_mutex_lock(&mutex);
    int dead = isDead;
    pthread_mutex_unlock(&mutex);
    return file->real->pMethods->xShmUnmap(file->real, dead ? 0 : deleteFlag);
}

// Version 2: no xFetch, so SQLite never memory-maps a watched file and every read comes here.
static const sqlite3_io_methods watchedMethods = {
    2,
    watchedClose,
    watchedRead,
    watchedWrite,
    watchedTruncate,
    watchedSync,
    watchedFileSize,
    watchedLock,
    watchedUnlock,
    watchedCheckReservedLock,
    watchedFileControl,
    watchedSectorSize,
    watchedDeviceCharacteristics,
    watchedShmMap,
    watchedShmLock,
    watchedShmBarrier,
    watchedShmUnmap,
    NULL,
    NULL,
};

static int powerCutOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *outFlags) {
    (void)vfs;
    const int durableKinds = SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL;
    pthread_mutex_lock(&mutex);
    int watch = (flags & durableKinds) && isWatchedPath(name);
    pthread_mutex_unlock(&mutex);
    if (!watch) {
        // The system VFS fills our buffer with its own file and methods: untouched pass-through.
        return systemVFS->xOpen(systemVFS, name, base, flags, outFlags);
    }
    WatchedFile *file = (WatchedFile *)base;
    memset(file, 0, sizeof(WatchedFile));
    file->real = (sqlite3_file *)(file + 1);
    int rc = systemVFS->xOpen(systemVFS, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK || file->real->pMethods == NULL) {
        base->pMethods = NULL;
        return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
    }
    pthread_mutex_lock(&mutex);
    Node *node = nodes;
    while (node && strcmp(node->path, name) != 0) node = node->next;
    if (!node) {
        node = calloc(1, sizeof(Node));
        char *path = strdup(name);
        sqlite3_int64 size = 0;
        rc = node && path ? file->real->pMethods->xFileSize(file->real, &size) : SQLITE_NOMEM;
        if (rc != SQLITE_OK) {
            free(node);
            free(path);
            pthread_mutex_unlock(&mutex);
            file->real->pMethods->xClose(file->real);
            base->pMethods = NULL;
            return rc;
        }
        node->path = path;
        node->logicalSize = size;
        node->next = nodes;
        nodes = node;
    }
    node->references++;
    file->node = node;
    pthread_mutex_unlock(&mutex);
    base->pMethods = &watchedMethods;
    return SQLITE_OK;
}

static int powerCutDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    pthread_mutex_lock(&mutex);
    int ignore = isDead && isWatchedPath(name);
    pthread_mutex_unlock(&mutex);
    if (ignore) return SQLITE_OK;
    return systemVFS->xDelete(systemVFS, name, syncDirectory);
}

static int powerCutAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return systemVFS->xAccess(systemVFS, name, flags, result);
}

static int powerCutFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return systemVFS->xFullPathname(systemVFS, name, size, out);
}

static void *powerCutDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return systemVFS->xDlOpen(systemVFS, name);
}

static void powerCutDlError(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    systemVFS->xDlError(systemVFS, size, message);
}

static void (*powerCutDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return systemVFS->xDlSym(systemVFS, handle, symbol);
}

static void powerCutDlClose(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    systemVFS->xDlClose(systemVFS, handle);
}

static int powerCutRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return systemVFS->xRandomness(systemVFS, size, out);
}

static int powerCutSleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return systemVFS->xSleep(systemVFS, microseconds);
}

static int powerCutCurrentTime(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return systemVFS->xCurrentTime(systemVFS, now);
}

static int powerCutGetLastError(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    return systemVFS->xGetLastError(systemVFS, size, message);
}

static int powerCutCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return systemVFS->xCurrentTimeInt64(systemVFS, now);
}

int bgt_powercut_install(void) {
    pthread_mutex_lock(&mutex);
    if (installed) {
        pthread_mutex_unlock(&mutex);
        return SQLITE_OK;
    }
    int rc = sqlite3_initialize();
    systemVFS = sqlite3_vfs_find(NULL);
    if (rc != SQLITE_OK || systemVFS == NULL || systemVFS->iVersion < 2) {
        pthread_mutex_unlock(&mutex);
        return rc != SQLITE_OK ? rc : SQLITE_ERROR;
    }
    powerCutVFS = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(WatchedFile) + systemVFS->szOsFile,
        .mxPathname = systemVFS->mxPathname,
        .zName = "bgt-powercut",
        .xOpen = powerCutOpen,
        .xDelete = powerCutDelete,
        .xAccess = powerCutAccess,
        .xFullPathname = powerCutFullPathname,
        .xDlOpen = powerCutDlOpen,
        .xDlError = powerCutDlError,
        .xDlSym = powerCutDlSym,
        .xDlClose = powerCutDlClose,
        .xRandomness = powerCutRandomness,
        .xSleep = powerCutSleep,
        .xCurrentTime = powerCutCurrentTime,
        .xGetLastError = powerCutGetLastError,
        .xCurrentTimeInt64 = powerCutCurrentTimeInt64,
    };
    rc = sqlite3_vfs_register(&powerCutVFS, 1);
    if (rc == SQLITE_OK) installed = 1;
    pthread_mutex_unlock(&mutex);
    return rc;
}

void bgt_powercut_watch(const char *directory) {
    pthread_mutex_lock(&mutex);
    for (int i = 0; i < maxWatched; i++) {
        if (!watched[i]) {
            watched[i] = strdup(directory);
            break;
        }
    }
    pthread_mutex_unlock(&mutex);
}

void bgt_powercut_unwatch(const char *directory) {
    pthread_mutex_lock(&mutex);
    for (int i = 0; i < maxWatched; i++) {
        if (watched[i] && strcmp(watched[i], directory) == 0) {
            free(watched[i]);
            watched[i] = NULL;
        }
    }
    pthread_mutex_unlock(&mutex);
}

long long bgt_powercut_cut(void) {
    pthread_mutex_lock(&mutex);
    long long discarded = 0;
    for (Node *node = nodes; node; node = node->next) {
        discarded += pendingBytes(node);
        freeOps(node);
        // What the disk holds is all there is now.
        struct stat status;
        node->logicalSize = stat(node->path, &status) == 0 ? (sqlite3_int64)status.st_size : 0;
    }
    isDead = 1;
    pthread_mutex_unlock(&mutex);
    return discarded;
}

void bgt_powercut_revive(void) {
    pthread_mutex_lock(&mutex);
    isDead = 0;
    pthread_mutex_unlock(&mutex);
}

long long bgt_powercut_sync_count(void) {
    pthread_mutex_lock(&mutex);
    long long count = syncCount;
    pthread_mutex_unlock(&mutex);
    return count;
}
