import ArgumentParser
import BackgroundCore
import Foundation
import LocationLog
import TrackServer

/// `bgtrack share create|list|revoke`: read-only links to a device's live position or a time range.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a device's live position or a time range through a read-only link that expires.",
        subcommands: [ShareCreate.self, ShareList.self, ShareRevoke.self])
}

/// `bgtrack share create --device NAME (--live | --from T --to T) [--expires 7d]`.
struct ShareCreate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create a share link and print its URL (shown only this once).")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "The device to share.") var device: String
    @Flag(help: "Share the device's newest position (the page shows how old it is).") var live = false
    @Option(help: "Start of the shared range: 2024-11-22 (UTC midnight) or 2024-11-22T08:00:00Z.") var from: String?
    @Option(help: "End of the shared range (exclusive), same forms as --from.") var to: String?
    @Option(help: "When the link stops working: 30m, 12h, 7d, 2w (at most 365d).") var expires = "7d"
    @Option(help: "The server's public base URL, for the printed link.") var url = "http://127.0.0.1:8080"

    func validate() throws {
        _ = try request()
    }

    /// What the flags ask for, or a ValidationError saying what is wrong.
    func request() throws -> (kind: ShareKind, expiresIn: Duration) {
        let kind: ShareKind
        switch (live, from, to) {
        case (true, nil, nil): kind = .live
        case (false, .some(let from), .some(let to)):
            kind = .range(from: try Self.instant(from, flag: "--from"), to: try Self.instant(to, flag: "--to"))
        default: throw ValidationError("give either --live or both --from and --to")
        }
        guard let seconds = LongDurationArgument.seconds(expires, in: 60...(365 * 86_400)) else {
            throw ValidationError("--expires '\(expires.prefix(20))' must be like 30m, 12h, 7d or 2w, from 1m to 365d")
        }
        do {
            try SharePolicy.check(kind: kind, expiresIn: .seconds(seconds))
        } catch {
            throw ValidationError(error.description)
        }
        return (kind, .seconds(seconds))
    }

    static func instant(_ text: String, flag: String) throws -> Instant {
        let full = text.count == 10 ? text + "T00:00:00Z" : text
        guard text.count <= 40, let date = ISO8601DateFormatter().date(from: full) else {
            throw ValidationError("\(flag) '\(text.prefix(40))' must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ")
        }
        return Instant(milliseconds: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    func run() async throws {
        let (kind, expiresIn) = try request()
        let secret = ShareSecret.mint()
        let now = ServerClock.system.now
        let user = ProcessInfo.processInfo.environment["USER"].map { "cli \($0)" } ?? "cli"
        let link: ShareLink
        do {
            link = try await database.withStore { store in
                try await store.createShare(
                    NewShareLink(
                        device: device, kind: kind, secretHash: Tokens.hash(secret), expiresAt: now + expiresIn,
                        createdBy: user),
                    at: now)
            }
        } catch let error as TrackStoreError {
            throw ValidationError(error.description)
        }
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        print("share \(link.id) for \(device), expires \(link.expiresAt.iso8601)")
        print("\(base)/s/\(secret)")
        print("The link is shown only now (only its hash is stored); revoke it with `bgtrack share revoke \(link.id)`.")
    }
}

/// `bgtrack share list [--device NAME]`.
struct ShareList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List share links with their state, views, expiry and staleness.")

    @OptionGroup var database: DatabaseOptions
    @Option(help: "Only this device's links.") var device: String?

    func run() async throws {
        let now = ServerClock.system.now
        let rows: [String] = try await database.withStore { store in
            var rows: [String] = []
            for link in try await store.shares(device: device) {
                let newest = try await store.device(named: link.device)?.lastSeenAt
                rows.append(Self.line(link, newest: newest, now: now))
            }
            return rows
        }
        guard !rows.isEmpty else {
            print("no share links; create one with `bgtrack share create --device NAME --live`")
            return
        }
        print("id\tdevice\tshows\tstate\tviews\texpires\tnewest")
        rows.forEach { print($0) }
    }

    static func line(_ link: ShareLink, newest: Instant?, now: Instant) -> String {
        let shows =
            switch link.kind {
            case .live: "live"
            case .range(let from, let to): "\(from.iso8601)…\(to.iso8601)"
            }
        let seen = newest.map { "heard \(Int((now - $0).seconds / 60)) min ago" } ?? "never heard"
        return [
            "\(link.id)", link.device, shows, link.state(at: now).rawValue, "\(link.views)", link.expiresAt.iso8601,
            seen,
        ].joined(separator: "\t")
    }
}

/// `bgtrack share revoke ID`.
struct ShareRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a share link: its page answers 410 from now on.")

    @OptionGroup var database: DatabaseOptions
    @Argument(help: "The link's id, as `bgtrack share list` shows it.") var id: Int64

    func run() async throws {
        guard try await database.withStore({ try await $0.revokeShare(id: id, at: ServerClock.system.now) }) else {
            throw ValidationError("no active share link has id \(id); see `bgtrack share list`")
        }
        print("share \(id) revoked")
    }
}
