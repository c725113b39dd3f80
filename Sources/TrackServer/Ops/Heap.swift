#if canImport(Glibc)
    import Glibc
#endif

/// The process's heap.
public enum Heap {
    /// Returns the heap's free memory to the system where the C library can (glibc's
    /// `malloc_trim`, looked up at run time: `<malloc.h>` is not in Swift's Glibc module, and musl
    /// has no such function); else nothing. The connection guard calls it when a large burst of
    /// connections is over, the read limiter when the last heavy read of a burst ends.
    public static let trim: @Sendable () -> Void = {
        guard let mallocTrim else { return }
        _ = mallocTrim(0)
    }

    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
            return nil
        #endif
    }()
}
