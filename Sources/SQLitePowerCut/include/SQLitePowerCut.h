// A test-only SQLite VFS that simulates a power cut, in the manner of SQLite's own crash tests
// (test6.c, "crash simulation"): every write to a watched file is held in memory until the file
// is synced; a power cut throws away whatever was not synced. After a cut, writes to watched
// files are ignored until `bgt_powercut_revive`, so closing the dead connections cannot save them.
//
// Only files under a watched directory are affected. Other files are opened by the system VFS
// directly (their methods are the system's own), so installing this as the default VFS in a test
// process that runs other SQLite tests in parallel changes nothing for them.

#ifndef BGT_SQLITE_POWERCUT_H
#define BGT_SQLITE_POWERCUT_H

/// Registers the VFS as SQLite's default (once; later calls do nothing). Returns an SQLite result code.
int bgt_powercut_install(void);

/// Watches every database, journal and WAL file whose path starts with `directory`.
void bgt_powercut_watch(const char *directory);

/// Stops watching `directory` (files already open stay as they were opened).
void bgt_powercut_unwatch(const char *directory);

/// The power cut: discards every unsynced write of every open watched file, then ignores all
/// writes, truncations, syncs and deletions of watched files until `bgt_powercut_revive`.
/// Returns the number of unsynced bytes thrown away.
long long bgt_powercut_cut(void);

/// Power is back: watched files behave normally again (open them anew).
void bgt_powercut_revive(void);

/// How many syncs reached the disk, for the test's own sanity checks.
long long bgt_powercut_sync_count(void);

#endif
