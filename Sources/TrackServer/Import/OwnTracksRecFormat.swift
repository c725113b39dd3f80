import BackgroundCore

/// The OwnTracks Recorder's `.rec` files (one month of one device): one message a line,
/// `2015-03-08T11:53:42Z<TAB>*                 <TAB>{"_type":"location",…}` (the Recorder's
/// storage format; the middle column is the topic or `*`). Locations become points through the
/// same field rules as OwnTracks HTTP ingest; other `_type`s (transitions, waypoints, cards) are
/// no points and no error.
struct OwnTracksRecFormat: LineFormat {
    static let name = "OwnTracks .rec"
    static let notALine = "not a .rec line"

    mutating func decode(_ line: ArraySlice<UInt8>, number: Int) -> Result<[TrackSample], SampleProblem>? {
        Self.decode(line)
    }

    static func decode(_ line: ArraySlice<UInt8>) -> Result<[TrackSample], SampleProblem> {
        // The JSON starts at the first "{" after the second tab; the columns before are the time
        // the Recorder stored it and the topic.
        guard let firstTab = line.firstIndex(of: 0x09),
            let secondTab = line[(firstTab + 1)...].firstIndex(of: 0x09)
        else {
            return .failure(
                SampleProblem(message: "is not \"TIME<TAB>TOPIC<TAB>JSON\" (a .rec line of the OwnTracks Recorder)"))
        }
        let json = Array(line[(secondTab + 1)...])
        let value: JSONValue
        do {
            try JSONBody.checkDepth(json)
            value = try JSONParser.parse(json)
        } catch let error as JSONParser.Failure {
            return .failure(
                SampleProblem(message: "is not valid JSON after the second tab (\(error.message) of the JSON)"))
        } catch {
            return .failure(SampleProblem(message: "its JSON is nested more than \(JSONBody.maxDepth) levels deep"))
        }
        guard case .string(let type) = value["_type"] else {
            return .failure(SampleProblem(message: "field \"_type\" must be a string such as \"location\""))
        }
        guard type == "location" else { return .success([]) }
        do throws(SampleProblem) {
            var sample = try OwnTracksParser.fields(of: value)
            sample.source = .imported
            return .success([sample])
        } catch {
            return .failure(error)
        }
    }
}
