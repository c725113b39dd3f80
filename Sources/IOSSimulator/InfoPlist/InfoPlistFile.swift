package import Foundation

/// Why an `Info.plist` could not be read, with what to do about it.
package struct InfoPlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key the problem is on: `(file)` for the file itself, `(root)` for its top level.
    package var key: String
    package var message: String

    package var description: String { "\(key): \(message)" }
}

/// Reads an app's `Info.plist` (XML or binary) into its top-level dictionary: the one reader
/// `bgtrack lint-plist` and the simulated iPhone (`--plist`) share.
package enum InfoPlistFile {
    /// Larger files are not Info.plists; reading them would only cost memory.
    package static let maximumBytes = 4 << 20

    /// Reads the file at `path`: an Info.plist, or a project.yml whose application target's
    /// `info.properties` are read as the Info.plist XcodeGen writes (``XcodeGenSpec``).
    ///
    /// - Parameters:
    ///   - target: the project.yml's target to read; `nil` picks its only application target.
    /// - Throws: ``InfoPlistError`` when the file is missing, unreadable, too large or not a
    ///   property list with a dictionary at the top, or a project.yml that cannot be read.
    package static func read(path: String, target: String? = nil) throws(InfoPlistError) -> [String: Any] {
        try load(path: path, target: target).plist
    }

    /// ``read(path:target:)`` with where the keys came from, for a report: the path, or the
    /// project.yml's target and the path XcodeGen writes its Info.plist to.
    package static func load(
        path: String, target: String? = nil
    ) throws(InfoPlistError) -> (plist: [String: Any], origin: String) {
        let data = try contents(path)
        guard XcodeGenSpec.isSpec(path: path, data: data) else {
            if let target {
                throw InfoPlistError(
                    key: "(file)",
                    message: "--target \(target.prefix(60)) names a target of a project.yml, but \(path) is an "
                        + "Info.plist; drop --target")
            }
            return (try parse(data), path)
        }
        let info = try XcodeGenSpec.info(from: data, target: target)
        return (info.plist, "\(path), target \(info.target): the Info.plist XcodeGen writes to \(info.path)")
    }

    private static func contents(_ path: String) throws(InfoPlistError) -> Data {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > maximumBytes {
                throw InfoPlistError(
                    key: "(file)", message: "\(path) is \(size) bytes; an Info.plist is a few kilobytes, check the path"
                )
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as InfoPlistError {
            throw error
        } catch {
            throw InfoPlistError(
                key: "(file)",
                message: "cannot read \(path): \((error as NSError).localizedDescription); give the path of the "
                    + "app's Info.plist or project.yml")
        }
        return data
    }

    /// Parses the bytes of a plist file.
    ///
    /// - Throws: ``InfoPlistError`` when the bytes are too many or not a property list whose top
    ///   level is a dictionary.
    package static func parse(_ data: Data) throws(InfoPlistError) -> [String: Any] {
        guard data.count <= maximumBytes else {
            throw InfoPlistError(
                key: "(file)",
                message: "the file is \(data.count) bytes; an Info.plist is a few kilobytes, check the path")
        }
        let root: Any
        do {
            var format = PropertyListSerialization.PropertyListFormat.xml
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            throw InfoPlistError(
                key: "(file)",
                message: "not a property list (XML or binary) that can be read: \(reason(error)); "
                    + "check it with `plutil -lint` and fix the syntax")
        }
        guard let plist = root as? [String: Any] else {
            throw InfoPlistError(
                key: "(root)", message: "the top level is not a dictionary; an Info.plist is a <dict> of keys")
        }
        return plist
    }

    private static func reason(_ error: any Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
        return String(text.prefix(200))
    }
}
