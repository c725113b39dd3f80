import Crypto
import Foundation
import TrackServer

/// What identifies a file for resuming: SHA-256 of every byte, so an import resumes only the
/// very file it stopped in and any other file, however alike in size and first bytes, is read
/// from its start.
///
/// Hashing reads the file once before the import (from the page cache on a second read; about
/// 3 s per GB here), and the import hashes what it reads again: a file that changed meanwhile is
/// never marked finished (``ImportFile``).
enum ImportFingerprint {
    static func of(_ handle: FileHandle) throws -> String {
        var hasher = SHA256()
        while let data = try handle.read(upToCount: ImportFile.chunkSize), !data.isEmpty {
            hasher.update(data: data)
        }
        try handle.seek(toOffset: 0)
        return text(hasher)
    }

    /// `sha256 <64 hex digits>`: the checkpoint's name for a file.
    static func text(_ hasher: SHA256) -> String {
        "sha256 " + hasher.finalize().hex
    }
}
