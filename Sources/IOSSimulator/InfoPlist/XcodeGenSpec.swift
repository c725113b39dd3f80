package import Foundation

/// The `Info.plist` XcodeGen writes from a project spec (`project.yml`): an application target's
/// `info.properties` over the keys XcodeGen always generates. XcodeGen rewrites the file at
/// `info.path` on every `xcodegen generate` (it does not edit an existing one), so these
/// properties, not a checked-in Info.plist, are what the app ships with.
///
/// ```swift
/// let info = try XcodeGenSpec.info(from: Data(contentsOf: url), target: nil)
/// let findings = PlistLinter(strategy: .adaptive).lint(info.plist)
/// ```
package enum XcodeGenSpec {
    package struct Info {
        package var target: String
        /// `info.path`: where XcodeGen writes the file, relative to the spec.
        package var path: String
        package var plist: [String: Any]
    }

    /// Whether a file is a project spec rather than a plist: its name, else its first bytes.
    package static func isSpec(path: String, data: Data) -> Bool {
        let name = (path as NSString).lastPathComponent.lowercased()
        if name.hasSuffix(".yml") || name.hasSuffix(".yaml") { return true }
        let head = String(decoding: data.prefix(4_096), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if head.hasPrefix("<") || head.hasPrefix("bplist") || head.hasPrefix("{") { return false }
        let keys = ["name:", "targets:", "options:", "packages:", "include:"]
        return head.split(whereSeparator: \.isNewline).contains { line in keys.contains { line.hasPrefix($0) } }
    }

    /// Reads the application target's `info` from a project spec.
    ///
    /// - Parameters:
    ///   - target: the target to read; `nil` picks the only `type: application` target.
    /// - Throws: ``InfoPlistError`` when the YAML is not read (the line and what to write instead),
    ///   the target is missing or ambiguous, it has no `info`, or a property has no plist value.
    package static func info(from data: Data, target: String?) throws(InfoPlistError) -> Info {
        let root = try SpecYAML.parse(data)
        guard case .mapping(let targets, _)? = root["targets"], !targets.isEmpty else {
            throw InfoPlistError(
                key: "targets",
                message: "the spec has no `targets:` mapping (are they in an `include:`d file?); lint that file or "
                    + "the generated Info.plist")
        }
        let name = try pick(target, among: targets)
        guard let node = targets.first(where: { $0.key == name })?.value, case .mapping = node else {
            throw InfoPlistError(key: "targets.\(name)", message: "is not a mapping of target settings")
        }
        guard let info = node["info"] else {
            let templates = node["templates"] == nil ? "" : " (its `templates:` may set one: they are not read here)"
            throw InfoPlistError(
                key: "targets.\(name).info",
                message: "missing\(templates); without it XcodeGen uses an Info.plist from the sources or "
                    + "INFOPLIST_FILE: add `info: {path: Info.plist, properties: …}` or lint that file")
        }
        guard case .scalar(let path, _, _)? = info["path"] else {
            throw InfoPlistError(
                key: "targets.\(name).info.path", message: "missing; XcodeGen needs where to write the Info.plist")
        }
        var plist = defaults(type: scalar(node["type"]) ?? "")
        switch info["properties"] {
        case nil, .empty?: break
        case .mapping(let entries, _)?:
            for (key, value) in entries {
                plist[key] = try plistValue(value, at: "targets.\(name).info.properties.\(key)")
            }
        case let other?:
            throw InfoPlistError(
                key: "targets.\(name).info.properties", message: "line \(other.line): must be a mapping of plist keys")
        }
        return Info(target: name, path: path, plist: plist)
    }

    /// The keys XcodeGen writes for every target before its properties (XcodeGen's
    /// `InfoPlistGenerator`); the properties override them.
    static func defaults(type: String) -> [String: Any] {
        var plist: [String: Any] = [
            "CFBundleIdentifier": "$(PRODUCT_BUNDLE_IDENTIFIER)", "CFBundleInfoDictionaryVersion": "6.0",
            "CFBundleName": "$(PRODUCT_NAME)", "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)",
            "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
        ]
        if type != "bundle" { plist["CFBundleExecutable"] = "$(EXECUTABLE_NAME)" }
        let packageTypes = [
            "application": "APPL", "watch2-app": "APPL", "framework": "FMWK", "bundle": "BNDL",
            "bundle.unit-test": "BNDL", "bundle.ui-testing": "BNDL", "xpc-service": "XPC!", "app-extension": "XPC!",
        ]
        if let packageType = packageTypes[type] { plist["CFBundlePackageType"] = packageType }
        return plist
    }

    private static func pick(
        _ requested: String?, among targets: [(key: String, value: SpecNode)]
    ) throws(InfoPlistError) -> String {
        let names = targets.map(\.key)
        if let requested {
            guard names.contains(requested) else {
                throw InfoPlistError(
                    key: "targets",
                    message: "no target \"\(requested.prefix(60))\"; the spec has \(names.joined(separator: ", "))")
            }
            return requested
        }
        let apps = targets.filter { scalar($0.value["type"]) == "application" }.map(\.key)
        guard apps.count == 1, let app = apps.first else {
            throw InfoPlistError(
                key: "targets",
                message: apps.isEmpty
                    ? "no target has `type: application`; name one with --target (targets: \(names.joined(separator: ", ")))"
                    : "several application targets (\(apps.joined(separator: ", "))); name one with --target")
        }
        return app
    }

    private static func scalar(_ node: SpecNode?) -> String? {
        guard case .scalar(let text, _, _)? = node else { return nil }
        return text
    }
}
