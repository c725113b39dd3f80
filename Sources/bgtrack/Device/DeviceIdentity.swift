import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
    // On Linux URLSession lives in FoundationNetworking; Foundation re-exports it on Apple platforms.
    import FoundationNetworking
#endif

/// Which device a token uploads for (`bgtrack device run`, issue 41 item 4): the server answers
/// `GET /v1/devices` with the token's own device only, so the name comes from the token and a
/// device never starts uploading under a name its token is refused for (403s and paused uploads).
enum DeviceIdentity {
    /// Asks `server` which device `token` belongs to and checks `requested` (`--name`) against it.
    ///
    /// - Returns: the name to upload as.
    /// - Throws: a `ValidationError` saying what is wrong and what to do: the server refused the
    ///   token, it is an operator's, it belongs to another device than `--name`, or the server
    ///   cannot be asked and no `--name` was given.
    static func resolve(server: URL, token: String, requested: String?) async throws -> String {
        // Operator tokens are minted `bgo_…`: with one device registered the list alone cannot tell.
        if token.hasPrefix("bgo_") {
            throw ValidationError(
                "--token is an operator token (bgo_…), which reads every device and uploads for none; pass the token "
                    + "`bgtrack device add NAME` printed (bgd_…)")
        }
        var request = URLRequest(url: server.appendingPathComponent("v1/devices"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 15
        let status: Int
        let body: Data
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            body = data
        } catch {
            guard let requested else {
                throw ValidationError(
                    "cannot ask \(server.absoluteString) which device the token belongs to (\(error.localizedDescription)); "
                        + "start the server, or pass --name with the device's name to start without it")
            }
            print(
                "WARNING: cannot reach \(server.absoluteString) to check the token's device; uploading as \(requested)")
            return requested
        }
        return try decide(status: status, body: body, requested: requested, server: server.absoluteString)
    }

    /// The decision on the server's answer, apart from the network (tested alone).
    static func decide(status: Int, body: Data, requested: String?, server: String) throws -> String {
        switch status {
        case 200: break
        case 401, 403:
            throw ValidationError(
                "\(server) refused the token (\(status)): it is unknown or revoked; pass the token "
                    + "`bgtrack device add` printed for this device")
        default:
            throw ValidationError(
                "\(server) answered \(status) to GET /v1/devices, not a bgtrack server's answer; check --server "
                    + "(for another kind of server, pass --name and a --server with its upload path)")
        }
        struct Summary: Decodable { var name: String }
        guard let devices = try? JSONDecoder().decode([Summary].self, from: body) else {
            throw ValidationError(
                "\(server) answered GET /v1/devices with something that is not a device list; check --server")
        }
        guard devices.count == 1, let own = devices.first?.name else {
            throw ValidationError(
                "the token is not a device token (the server lists \(devices.count) devices for it: an operator's?); "
                    + "pass the token `bgtrack device add NAME` printed")
        }
        if let requested, requested != own {
            throw ValidationError(
                "--name \(requested), but the token belongs to device \(own); drop --name (the device is named from "
                    + "its token) or pass \(requested)'s token")
        }
        return own
    }
}
