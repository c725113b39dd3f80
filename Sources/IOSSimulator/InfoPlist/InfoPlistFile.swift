public import Foundation

/// Why an `Info.plist` could not be read, with what to do about it.
public struct InfoPlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The key the problem is on: `(file)` for the file itself, `(root)` for its top level.
    public var key: String
    public var message: String

    public var description: String { "\(key): \(message)" }
}

/// Reads an app's `Info.plist` (XML or binary) into its top-level dictionary: the one reader
/// `bgtrack lint-plist` and the simulated iPhone (`--plist`) share.
public enum InfoPlistFile {
    /// Larger files are not Info.plists; reading them would only cost memory.
    public static let maximumBytes = 4 << 20

    /// Reads the file at `path`.
    ///
    /// - Throws: ``InfoPlistError`` when the file is missing, unreadable, too large or not a
    ///   property list with a dictionary at the top.
    public static func read(path: String) throws(InfoPlistError) -> [String: Any] {
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
                    + "app's Info.plist")
        }
        return try parse(data)
    }

    /// Parses the bytes of a plist file.
    ///
    /// - Throws: ``InfoPlistError`` when the bytes are too many or not a property list whose top
    ///   level is a dictionary.
    public static func parse(_ data: Data) throws(InfoPlistError) -> [String: Any] {
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
