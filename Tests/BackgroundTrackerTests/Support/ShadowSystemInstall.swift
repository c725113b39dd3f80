import AppleShadow

enum ShadowSystemInstall {
    /// Installs the fake as the system behind every shadow object. The suites that use it are
    /// serialized (`ShellSuite`), since the shadow, like iOS, has one system per process.
    static func install(_ system: FakeSystem) {
        ShadowSystem.backend = system
    }
}
