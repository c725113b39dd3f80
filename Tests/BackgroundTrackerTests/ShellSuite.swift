import Testing

/// Every suite that installs the fake system lives under this one, serialized: the shadow, like
/// iOS, has one system per process.
@Suite(.serialized)
@MainActor
enum ShellSuite {}
