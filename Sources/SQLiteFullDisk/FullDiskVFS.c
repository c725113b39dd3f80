// See include/SQLiteFullDisk.h. One global mutex guards the disks' free space: this code serves
// tests, where simplicity beats speed.

#include "SQLiteFullDisk.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// One simulated disk: the files under `directory`. Slots are never reused, so an open file's
// index stays valid after its directory is forgotten.
typedef struct Disk {
    char *directory;
    long long freeBytes;  // negative: unlimited
    long long refused;
    int watched;
    int othersTakeFreedSpace;  // a full disk stays full: what a file gives back, other apps take
    int locked;                // its files' class key is gone (before the first unlock): no I/O
    long long lockedRefusals;
} Disk;

typedef struct DiskFile {
    sqlite3_file base;   // must come first: SQLite sees this
    sqlite3_file *real;  // the underlying VFS's file, right after this struct
    int disk;
} DiskFile;

enum { maxDisks = 256 };

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static sqlite3_vfs *underlying;
static sqlite3_vfs fullDiskVFS;
static int installed;
static Disk disks[maxDisks];
static int diskCount;

// The newest watched disk whose directory starts `path`, or -1. Called with the mutex held.
static int diskFor(const char *path) {
    if (!path) return -1;
    for (int i = diskCount - 1; i >= 0; i--) {
        if (disks[i].watched && strncmp(path, disks[i].directory, strlen(disks[i].directory)) == 0) return i;
    }
    return -1;
}

// Whether `file`'s disk is locked now; counts the refusal. Takes the mutex.
static int refusedWhileLocked(const DiskFile *file) {
    pthread_mutex_lock(&mutex);
    Disk *disk = &disks[file->disk];
    int locked = disk->locked;
    if (locked) disk->lockedRefusals++;
    pthread_mutex_unlock(&mutex);
    return locked;
}

static int diskClose(sqlite3_file *base) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xClose(file->real);
}

static int diskRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset) {
    DiskFile *file = (DiskFile *)base;
    if (refusedWhileLocked(file)) return SQLITE_IOERR_READ;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int diskWrite(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    DiskFile *file = (DiskFile *)base;
    if (refusedWhileLocked(file)) return SQLITE_IOERR_WRITE;
    sqlite3_int64 size = 0;
    int rc = file->real->pMethods->xFileSize(file->real, &size);
    if (rc != SQLITE_OK) return rc;
    sqlite3_int64 growth = offset + amount - size;
    if (growth > 0) {
        pthread_mutex_lock(&mutex);
        Disk *disk = &disks[file->disk];
        if (disk->freeBytes >= 0 && disk->freeBytes < growth) {
            disk->refused++;
            pthread_mutex_unlock(&mutex);
            return SQLITE_FULL;
        }
        if (disk->freeBytes >= 0) disk->freeBytes -= growth;
        pthread_mutex_unlock(&mutex);
    }
    rc = file->real->pMethods->xWrite(file->real, data, amount, offset);
    if (rc != SQLITE_OK && growth > 0) {
        pthread_mutex_lock(&mutex);
        if (disks[file->disk].freeBytes >= 0) disks[file->disk].freeBytes += growth;
        pthread_mutex_unlock(&mutex);
    }
    return rc;
}

static int diskTruncate(sqlite3_file *base, sqlite3_int64 newSize) {
    DiskFile *file = (DiskFile *)base;
    if (refusedWhileLocked(file)) return SQLITE_IOERR_TRUNCATE;
    sqlite3_int64 size = 0;
    int rc = file->real->pMethods->xFileSize(file->real, &size);
    if (rc != SQLITE_OK) return rc;
    if (newSize > size) {
        // Growing by truncation takes space as a write does.
        pthread_mutex_lock(&mutex);
        Disk *disk = &disks[file->disk];
        if (disk->freeBytes >= 0 && disk->freeBytes < newSize - size) {
            disk->refused++;
            pthread_mutex_unlock(&mutex);
            return SQLITE_FULL;
        }
        pthread_mutex_unlock(&mutex);
    }
    rc = file->real->pMethods->xTruncate(file->real, newSize);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&mutex);
        Disk *disk = &disks[file->disk];
        if (disk->freeBytes >= 0 && !disk->othersTakeFreedSpace) disk->freeBytes += size - newSize;
        pthread_mutex_unlock(&mutex);
    }
    return rc;
}

static int diskSync(sqlite3_file *base, int flags) {
    DiskFile *file = (DiskFile *)base;
    if (refusedWhileLocked(file)) return SQLITE_IOERR_FSYNC;
    return file->real->pMethods->xSync(file->real, flags);
}

static int diskFileSize(sqlite3_file *base, sqlite3_int64 *size) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int diskLock(sqlite3_file *base, int level) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xLock(file->real, level);
}

static int diskUnlock(sqlite3_file *base, int level) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int diskCheckReservedLock(sqlite3_file *base, int *result) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, result);
}

static int diskFileControl(sqlite3_file *base, int op, void *argument) {
    DiskFile *file = (DiskFile *)base;
    // Size hints and chunk sizes would make the underlying VFS grow the file behind our back.
    if (op == SQLITE_FCNTL_SIZE_HINT || op == SQLITE_FCNTL_CHUNK_SIZE) return SQLITE_OK;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int diskSectorSize(sqlite3_file *base) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int diskDeviceCharacteristics(sqlite3_file *base) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

// The WAL index (-shm) is shared memory SQLite rebuilds at will; it takes no space here.
static int diskShmMap(sqlite3_file *base, int page, int pageSize, int extend, void volatile **pointer) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xShmMap(file->real, page, pageSize, extend, pointer);
}

static int diskShmLock(sqlite3_file *base, int offset, int count, int flags) {
    DiskFile *file = (DiskFile *)base;
    // Every transaction in WAL mode takes these: refusing them refuses reads served from the
    // page cache too. Releasing always works, so SQLite can clean up after a refusal.
    if ((flags & SQLITE_SHM_LOCK) && refusedWhileLocked(file)) return SQLITE_IOERR_SHMLOCK;
    return file->real->pMethods->xShmLock(file->real, offset, count, flags);
}

static void diskShmBarrier(sqlite3_file *base) {
    DiskFile *file = (DiskFile *)base;
    file->real->pMethods->xShmBarrier(file->real);
}

static int diskShmUnmap(sqlite3_file *base, int deleteFlag) {
    DiskFile *file = (DiskFile *)base;
    return file->real->pMethods->xShmUnmap(file->real, deleteFlag);
}

// Version 2: no xFetch, so SQLite never memory-maps a watched file and every write comes here.
static const sqlite3_io_methods diskMethods = {
    2,
    diskClose,
    diskRead,
    diskWrite,
    diskTruncate,
    diskSync,
    diskFileSize,
    diskLock,
    diskUnlock,
    diskCheckReservedLock,
    diskFileControl,
    diskSectorSize,
    diskDeviceCharacteristics,
    diskShmMap,
    diskShmLock,
    diskShmBarrier,
    diskShmUnmap,
    NULL,
    NULL,
};

static int fullDiskOpen(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *base, int flags, int *outFlags) {
    (void)vfs;
    pthread_mutex_lock(&mutex);
    int disk = diskFor(name);
    int locked = disk >= 0 && disks[disk].locked;
    if (locked) disks[disk].lockedRefusals++;
    pthread_mutex_unlock(&mutex);
    if (disk < 0) return underlying->xOpen(underlying, name, base, flags, outFlags);
    if (locked) {
        base->pMethods = NULL;
        return SQLITE_CANTOPEN;
    }
    DiskFile *file = (DiskFile *)base;
    memset(file, 0, sizeof(DiskFile));
    file->real = (sqlite3_file *)(file + 1);
    file->disk = disk;
    int rc = underlying->xOpen(underlying, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK || file->real->pMethods == NULL) {
        base->pMethods = NULL;
        return rc == SQLITE_OK ? SQLITE_CANTOPEN : rc;
    }
    base->pMethods = &diskMethods;
    return SQLITE_OK;
}

static int fullDiskDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory) {
    (void)vfs;
    struct stat status;
    long long size = name && stat(name, &status) == 0 ? (long long)status.st_size : 0;
    int rc = underlying->xDelete(underlying, name, syncDirectory);
    if (rc == SQLITE_OK) {
        pthread_mutex_lock(&mutex);
        int disk = diskFor(name);
        if (disk >= 0 && disks[disk].freeBytes >= 0 && !disks[disk].othersTakeFreedSpace) disks[disk].freeBytes += size;
        pthread_mutex_unlock(&mutex);
    }
    return rc;
}

static int fullDiskAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    (void)vfs;
    return underlying->xAccess(underlying, name, flags, result);
}

static int fullDiskFullPathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return underlying->xFullPathname(underlying, name, size, out);
}

static void *fullDiskDlOpen(sqlite3_vfs *vfs, const char *name) {
    (void)vfs;
    return underlying->xDlOpen(underlying, name);
}

static void fullDiskDlError(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    underlying->xDlError(underlying, size, message);
}

static void (*fullDiskDlSym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return underlying->xDlSym(underlying, handle, symbol);
}

static void fullDiskDlClose(sqlite3_vfs *vfs, void *handle) {
    (void)vfs;
    underlying->xDlClose(underlying, handle);
}

static int fullDiskRandomness(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return underlying->xRandomness(underlying, size, out);
}

static int fullDiskSleep(sqlite3_vfs *vfs, int microseconds) {
    (void)vfs;
    return underlying->xSleep(underlying, microseconds);
}

static int fullDiskCurrentTime(sqlite3_vfs *vfs, double *now) {
    (void)vfs;
    return underlying->xCurrentTime(underlying, now);
}

static int fullDiskGetLastError(sqlite3_vfs *vfs, int size, char *message) {
    (void)vfs;
    return underlying->xGetLastError(underlying, size, message);
}

static int fullDiskCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    (void)vfs;
    return underlying->xCurrentTimeInt64(underlying, now);
}

int bgt_fulldisk_install(void) {
    pthread_mutex_lock(&mutex);
    if (installed) {
        pthread_mutex_unlock(&mutex);
        return SQLITE_OK;
    }
    int rc = sqlite3_initialize();
    underlying = sqlite3_vfs_find(NULL);
    if (rc != SQLITE_OK || underlying == NULL || underlying->iVersion < 2) {
        pthread_mutex_unlock(&mutex);
        return rc != SQLITE_OK ? rc : SQLITE_ERROR;
    }
    fullDiskVFS = (sqlite3_vfs){
        .iVersion = 2,
        .szOsFile = (int)sizeof(DiskFile) + underlying->szOsFile,
        .mxPathname = underlying->mxPathname,
        .zName = "bgt-fulldisk",
        .xOpen = fullDiskOpen,
        .xDelete = fullDiskDelete,
        .xAccess = fullDiskAccess,
        .xFullPathname = fullDiskFullPathname,
        .xDlOpen = fullDiskDlOpen,
        .xDlError = fullDiskDlError,
        .xDlSym = fullDiskDlSym,
        .xDlClose = fullDiskDlClose,
        .xRandomness = fullDiskRandomness,
        .xSleep = fullDiskSleep,
        .xCurrentTime = fullDiskCurrentTime,
        .xGetLastError = fullDiskGetLastError,
        .xCurrentTimeInt64 = fullDiskCurrentTimeInt64,
    };
    rc = sqlite3_vfs_register(&fullDiskVFS, 1);
    if (rc == SQLITE_OK) installed = 1;
    pthread_mutex_unlock(&mutex);
    return rc;
}

static void setDisk(const char *directory, long long freeBytes, int othersTakeFreedSpace) {
    pthread_mutex_lock(&mutex);
    int disk = diskFor(directory);
    if (disk >= 0 && strcmp(disks[disk].directory, directory) == 0) {
        disks[disk].freeBytes = freeBytes;
        disks[disk].othersTakeFreedSpace = othersTakeFreedSpace;
    } else if (diskCount < maxDisks) {
        disks[diskCount] = (Disk){
            .directory = strdup(directory),
            .freeBytes = freeBytes,
            .watched = 1,
            .othersTakeFreedSpace = othersTakeFreedSpace,
        };
        diskCount++;
    }
    pthread_mutex_unlock(&mutex);
}

void bgt_fulldisk_set(const char *directory, long long freeBytes) { setDisk(directory, freeBytes, 0); }

void bgt_fulldisk_fill(const char *directory) { setDisk(directory, 0, 1); }

// The `long long` field at `offset` of `directory`'s disk, or `missing` when it is not watched.
static long long diskField(const char *directory, size_t offset, long long missing) {
    pthread_mutex_lock(&mutex);
    int disk = diskFor(directory);
    long long result = disk >= 0 ? *(const long long *)((const char *)&disks[disk] + offset) : missing;
    pthread_mutex_unlock(&mutex);
    return result;
}

long long bgt_fulldisk_free(const char *directory) { return diskField(directory, offsetof(Disk, freeBytes), -1); }

long long bgt_fulldisk_refused(const char *directory) { return diskField(directory, offsetof(Disk, refused), 0); }

void bgt_fulldisk_unwatch(const char *directory) {
    pthread_mutex_lock(&mutex);
    for (int i = 0; i < diskCount; i++) {
        if (disks[i].watched && strcmp(disks[i].directory, directory) == 0) disks[i].watched = 0;
    }
    pthread_mutex_unlock(&mutex);
}

void bgt_fulldisk_lock(const char *directory, int locked) {
    pthread_mutex_lock(&mutex);
    int disk = diskFor(directory);
    if (disk >= 0) disks[disk].locked = locked;
    pthread_mutex_unlock(&mutex);
}

long long bgt_fulldisk_locked_refusals(const char *directory) {
    return diskField(directory, offsetof(Disk, lockedRefusals), 0);
}
