/// Request bodies written from the formats in docs/protocol.md, one per client.
enum Fixtures {
    /// docs/protocol.md §Batches: two samples, every field of the first set (2024-11-22 around 03:00 UTC).
    static let nativeBatch = """
        { "batch": "6f1c2a44-8d0e-4a52-9d39-0a0d7c1e2b11", "device": "iphone-42",
          "samples": [
            { "id": "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e01", "seq": 1042, "t": 1732240000123, "lat": 31.2304,
              "lon": 121.4737, "acc": 12.5, "alt": 4.0, "speed": 1.2, "course": 90.0, "battery": 0.83,
              "charging": false, "trigger": "timer", "state": "background" },
            { "id": "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e02", "seq": 1043, "t": 1732240150000, "lat": 31.2310,
              "lon": 121.4745, "acc": null, "trigger": "significant", "state": "foreground" } ] }
        """

    /// docs/protocol.md §Batches, with one sample out of range: that one is rejected by id, the other accepted.
    static let nativeWithBadSample = """
        { "batch": "b2", "device": "iphone-42", "samples": [
            { "id": "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e03", "seq": 1044, "t": 1732240300000, "lat": 91.2, "lon": 1.0 },
            { "id": "0b9c3a1e-4f59-4d7e-8a51-6f7a0a3c9e04", "seq": 1045, "t": 1732240300000, "lat": 31.2, "lon": 121.4 } ] }
        """

    /// docs/protocol.md §Overland: batch with two locations, `current` and `trip`.
    static let overland = """
        {"locations":[
          {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.6302,45.5113]},
           "properties":{"timestamp":"2024-11-22T02:00:00Z","altitude":50,"speed":4.2,"course":180,
             "horizontal_accuracy":10,"vertical_accuracy":5,"motion":["driving"],"battery_state":"charging",
             "battery_level":0.8,"wifi":"home","device_id":"iphone-42","unique_id":"ABC"}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[-122.6310,45.5120]},
           "properties":{"timestamp":"2024-11-22T02:01:00Z","speed":-1,"course":-1,"horizontal_accuracy":8,
             "motion":["walking"],"battery_state":"unplugged","battery_level":0.79}}],
         "current":{"type":"Feature","geometry":{"type":"Point","coordinates":[-122.6320,45.5130]},
           "properties":{"timestamp":"2024-11-22T02:02:00Z","horizontal_accuracy":5,"battery_state":"full"}},
         "trip":{"mode":"bicycle","start":"2024-11-22T01:30:00Z","distance":2450.3,"current_location":{
           "type":"Feature","geometry":{"type":"Point","coordinates":[-122.6320,45.5130]},"properties":{}}}}
        """

    /// docs/protocol.md §OwnTracks: location with every documented field.
    static let ownTracksLocation = """
        {"_type":"location","lat":48.8566,"lon":2.3522,"tst":1732240000,"acc":15,"alt":35,"vac":3,"vel":36,
         "cog":270,"batt":64,"bs":2,"t":"u","tid":"ip","conn":"w","m":1,"created_at":1732240005}
        """

    /// docs/protocol.md §OwnTracks: a non-location message; stored as an event, answered `[]`.
    static let ownTracksTransition = """
        {"_type":"transition","wtst":1732239000,"lat":48.8566,"lon":2.3522,"tst":1732240000,"acc":10,
         "tid":"ip","event":"enter","desc":"Home","t":"c"}
        """

    /// docs/protocol.md §OsmAnd: query (GET), 10 knots.
    static let osmAndQuery =
        "id=iphone-42&token=bgd_phone-token&timestamp=1732240000&lat=52.5200&lon=13.4050&speed=10"
        + "&bearing=45&altitude=34&accuracy=6&hdop=0.9&batt=77&charge=true"

    /// docs/protocol.md §OsmAnd: form POST with `location=lat,lon` and a `yyyy-MM-dd HH:mm:ss` timestamp.
    static let osmAndForm =
        "deviceid=iphone-42&token=bgd_phone-token&timestamp=2024-11-22+02%3A30%3A00&location=52.5210%2C13.4060"
        + "&speed=0&heading=90&batt=76"

    /// docs/protocol.md §OsmAnd: the JSON form of newer Traccar clients, an array of locations.
    static let osmAndJSON = """
        {"device_id":"iphone-42","location":[
          {"timestamp":"2024-11-22T02:40:00.000Z","coords":{"latitude":52.5220,"longitude":13.4070,"accuracy":5,
           "speed":1.5,"heading":10,"altitude":30},"is_moving":true,"odometer":1200,
           "battery":{"level":0.75,"is_charging":false},"activity":{"type":"walking"}},
          {"timestamp":"2024-11-22T02:41:00Z","coords":{"latitude":52.5230,"longitude":13.4080}}]}
        """
}
