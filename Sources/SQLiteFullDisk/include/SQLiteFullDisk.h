// A test-only SQLite VFS that simulates a disk with little free space: a write that makes a
// watched file longer takes the new bytes from its disk's free space, and fails with SQLITE_FULL
// (as the system VFS does for ENOSPC) when there is not enough; truncating or deleting a file gives
// its bytes back. Overwriting bytes a file already has needs no space, as on a real file system.
// Unlike `PRAGMA max_page_count` it also refuses the write-ahead log's growth, so a DELETE or a
// one-row UPDATE fails on a full disk as it does on a phone.
//
// Only files under a watched directory are affected; every other file goes to the VFS that was the
// default before, untouched, so tests running in parallel see no change.

#ifndef BGT_SQLITE_FULLDISK_H
#define BGT_SQLITE_FULLDISK_H

/// Registers the VFS as SQLite's default (once; later calls do nothing). Returns an SQLite result code.
int bgt_fulldisk_install(void);

/// Files under `directory` (opened from now on) live on a disk with `freeBytes` free; a negative
/// value is an unlimited disk. Calling it again for the same directory sets its free space anew.
void bgt_fulldisk_set(const char *directory, long long freeBytes);

/// `directory`'s disk is full and stays full: no byte is free, and what a file gives back
/// (truncated or deleted) other apps take at once, as on a phone whose storage they fill. Ends
/// with `bgt_fulldisk_set`.
void bgt_fulldisk_fill(const char *directory);

/// The free bytes left on `directory`'s disk (negative: unlimited, or not watched).
long long bgt_fulldisk_free(const char *directory);

/// How many writes of files under `directory` were refused for lack of space.
long long bgt_fulldisk_refused(const char *directory);

/// Forgets `directory` (files already open keep their disk until closed).
void bgt_fulldisk_unwatch(const char *directory);

/// `directory`'s files are locked (`locked` 1) as files of iOS's `completeUntilFirstUserAuthentication`
/// class are after a reboot until the first unlock: opening one fails with SQLITE_CANTOPEN and every
/// read, write, truncation, sync and shared-memory lock with an SQLITE_IOERR code, as the system VFS
/// reports the EPERM a phone gives; `locked` 0 is the first unlock.
void bgt_fulldisk_lock(const char *directory, int locked);

/// How many operations on `directory`'s files were refused while it was locked.
long long bgt_fulldisk_locked_refusals(const char *directory);

#endif
