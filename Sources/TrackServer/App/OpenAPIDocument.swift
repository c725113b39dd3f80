/// `GET /openapi.yaml`: every route, its credentials and every status it can answer.
///
/// Kept by hand next to the routes; `ReadingRouteTests` checks every route is listed and
/// schemathesis (`.ci/schemathesis.sh`) checks live responses against it.
enum OpenAPIDocument {
    static let yaml = """
        openapi: 3.0.3
        info:
          title: bgtrack track server
          version: "1.0"
          description: >
            Receives location samples from our phone client (native batches), Overland, OwnTracks
            (HTTP mode) and OsmAnd/Traccar Client, stores them (SQLite), and draws tracks. Every
            ingest route acknowledges only what is committed. Errors are {"error": "..."}.
        servers:
          - url: http://127.0.0.1:8080
        components:
          securitySchemes:
            bearer:
              type: http
              scheme: bearer
            basic:
              type: http
              scheme: basic
            tokenQuery:
              type: apiKey
              in: query
              name: token
          schemas:
            Error:
              type: object
              required: [error]
              properties:
                error: {type: string}
            NativeSample:
              type: object
              required: [id, seq, t, lat, lon]
              properties:
                id: {type: string, format: uuid}
                seq: {type: integer, minimum: 1}
                t: {type: integer, description: Unix epoch milliseconds}
                lat: {type: number, minimum: -90, maximum: 90}
                lon: {type: number, minimum: -180, maximum: 180}
                acc: {type: number, nullable: true}
                alt: {type: number, nullable: true}
                speed: {type: number, nullable: true}
                course: {type: number, nullable: true}
                battery: {type: number, nullable: true}
                charging: {type: boolean, nullable: true}
                trigger:
                  type: string
                  nullable: true
                  enum: [timer, significant, visit, region, foreground, refresh, push, manual]
                state: {type: string, nullable: true, enum: [foreground, background]}
            BatchRequest:
              type: object
              required: [samples]
              properties:
                batch: {type: string}
                device: {type: string}
                samples:
                  type: array
                  items: {$ref: '#/components/schemas/NativeSample'}
            BatchResponse:
              type: object
              required: [result, accepted, duplicates, rejected]
              properties:
                result: {type: string, enum: [ok]}
                accepted: {type: array, items: {type: string}}
                duplicates: {type: array, items: {type: string}}
                rejected:
                  type: array
                  items:
                    type: object
                    required: [id, reason]
                    properties:
                      id: {type: string}
                      reason: {type: string}
            OverlandRequest:
              type: object
              required: [locations]
              properties:
                locations:
                  type: array
                  items: {type: object}
                current: {type: object}
                trip: {type: object}
            OverlandResponse:
              type: object
              required: [result]
              properties:
                result: {type: string, enum: [ok]}
                saved: {type: integer}
                skipped:
                  type: array
                  items:
                    type: object
                    properties:
                      index: {type: integer}
                      reason: {type: string}
            OwnTracksMessage:
              type: object
              required: [_type]
              properties:
                _type: {type: string}
                lat: {type: number}
                lon: {type: number}
                tst: {type: integer}
                data: {type: string, description: "_type encrypted: base64 of a libsodium secretbox (nonce, MAC, ciphertext)"}
            OsmAndJSON:
              type: object
              required: [device_id, location]
              properties:
                device_id: {type: string}
                location: {type: object}
            Session:
              type: object
              required: [status, device, token, expires_at]
              properties:
                status: {type: string, enum: [active]}
                device: {type: string}
                token: {type: string}
                expires_at: {type: integer}
            Heartbeat:
              type: object
              required: [status, expires_at]
              properties:
                status: {type: string, enum: [active]}
                expires_at: {type: integer}
            Device:
              type: object
              required: [name, samples, offline, revoked]
              properties:
                name: {type: string}
                samples: {type: integer}
                last_seen: {type: integer, nullable: true}
                offline: {type: boolean}
                revoked: {type: boolean}
          responses:
            BadRequest:
              description: The request is unreadable as a whole; nothing was written.
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Error'}
            Unauthorized:
              description: No token, or a token that is unknown, revoked or expired.
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Error'}
            Forbidden:
              description: The token may not act on this device.
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Error'}
            NotFound:
              description: No such device or route.
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Error'}
            TooLarge:
              description: Body, inflated body or sample count over the limit; split the batch.
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Error'}
            QueueFull:
              description: The write queue is full; nothing was stored. Retry after Retry-After seconds.
              headers:
                Retry-After: {schema: {type: integer}}
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Error'}
            UnsupportedEncoding:
              description: A Content-Encoding other than gzip.
              content:
                application/json:
                  schema: {$ref: '#/components/schemas/Error'}
        paths:
          /healthz:
            get:
              summary: Liveness and database check.
              responses:
                "200":
                  description: Healthy.
                  content:
                    application/json:
                      schema: {type: object, properties: {status: {type: string}}}
                "503":
                  description: The database does not answer.
                  content:
                    application/json:
                      schema: {type: object, properties: {status: {type: string}}}
          /metrics:
            get:
              summary: Prometheus text exposition.
              responses:
                "200":
                  description: Counters and gauges.
                  content:
                    text/plain:
                      schema: {type: string}
          /openapi.yaml:
            get:
              summary: This document.
              responses:
                "200":
                  description: OpenAPI 3.0 YAML.
                  content:
                    application/yaml:
                      schema: {type: string}
          /v1/batches:
            post:
              summary: Native batch upload (protocols.md section 1). Optional Content-Encoding gzip.
              security: [{bearer: []}]
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/BatchRequest'}
              responses:
                "200":
                  description: Committed; accepted + duplicates may be deleted on the phone.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/BatchResponse'}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "413": {$ref: '#/components/responses/TooLarge'}
                "415": {$ref: '#/components/responses/UnsupportedEncoding'}
                "503": {$ref: '#/components/responses/QueueFull'}
          /ingest/overland:
            post:
              summary: Overland batch (protocols.md section 2).
              security: [{bearer: []}, {tokenQuery: []}]
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/OverlandRequest'}
              responses:
                "200":
                  description: Committed; bogus points are listed in skipped.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/OverlandResponse'}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "413": {$ref: '#/components/responses/TooLarge'}
                "415": {$ref: '#/components/responses/UnsupportedEncoding'}
                "503": {$ref: '#/components/responses/QueueFull'}
          /ingest/owntracks:
            post:
              summary: OwnTracks HTTP mode (protocols.md section 3); user = device name, password = token.
              security: [{basic: []}]
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/OwnTracksMessage'}
              responses:
                "200":
                  description: Committed; always an empty JSON array.
                  content:
                    application/json:
                      schema: {type: array, items: {}}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "413": {$ref: '#/components/responses/TooLarge'}
                "415": {$ref: '#/components/responses/UnsupportedEncoding'}
                "503":
                  description: >-
                    The write queue is full, or an encrypted message (_type encrypted) for which the
                    device has no OwnTracks key, or one that does not open it: kept in the quarantine,
                    nothing stored; OwnTracks keeps the message and sends it again.
                  headers:
                    Retry-After: {schema: {type: integer}}
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
          /ingest/osmand:
            parameters:
              - {name: id, in: query, schema: {type: string}, description: Device name (or deviceid).}
              - {name: deviceid, in: query, schema: {type: string}}
              - {name: token, in: query, schema: {type: string}}
              - {name: timestamp, in: query, schema: {type: string}}
              - {name: lat, in: query, schema: {type: number}}
              - {name: lon, in: query, schema: {type: number}}
              - {name: location, in: query, schema: {type: string}, description: "lat,lon"}
              - {name: speed, in: query, schema: {type: number}, description: knots}
              - {name: bearing, in: query, schema: {type: number}}
              - {name: heading, in: query, schema: {type: number}}
              - {name: altitude, in: query, schema: {type: number}}
              - {name: accuracy, in: query, schema: {type: number}}
              - {name: hdop, in: query, schema: {type: number}}
              - {name: batt, in: query, schema: {type: number}}
              - {name: charge, in: query, schema: {type: boolean}}
            get:
              summary: OsmAnd / Traccar Client, query parameters (protocols.md section 4).
              responses:
                "200": {description: Committed (empty body).}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "503": {$ref: '#/components/responses/QueueFull'}
            post:
              summary: OsmAnd / Traccar Client, form or JSON body.
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema: {type: object}
                  application/json:
                    schema: {$ref: '#/components/schemas/OsmAndJSON'}
              responses:
                "200": {description: Committed (empty body).}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "413": {$ref: '#/components/responses/TooLarge'}
                "415": {$ref: '#/components/responses/UnsupportedEncoding'}
                "503": {$ref: '#/components/responses/QueueFull'}
          /v1/sessions:
            post:
              summary: Log in with the device name and its token; returns a session token with a TTL.
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [device, token]
                      properties:
                        device: {type: string}
                        token: {type: string}
              responses:
                "201":
                  description: Session created.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Session'}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "413": {$ref: '#/components/responses/TooLarge'}
                "415": {$ref: '#/components/responses/UnsupportedEncoding'}
            delete:
              summary: Log out (revoke this session).
              security: [{bearer: []}]
              responses:
                "204": {description: Revoked.}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
          /v1/sessions/heartbeat:
            post:
              summary: Extend a live session (protocols.md section 5); 401 once expired or revoked.
              security: [{bearer: []}]
              responses:
                "200":
                  description: Extended.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Heartbeat'}
                "401": {$ref: '#/components/responses/Unauthorized'}
          /v1/devices:
            get:
              summary: Devices this token may read (all for an operator).
              security: [{bearer: []}, {tokenQuery: []}]
              responses:
                "200":
                  description: Devices with last-seen time and offline status.
                  content:
                    application/json:
                      schema:
                        type: array
                        items: {$ref: '#/components/schemas/Device'}
                "401": {$ref: '#/components/responses/Unauthorized'}
          /v1/devices/{id}/track:
            get:
              summary: A device's track (protocols.md section 6), cut at gaps, streamed (chunked) a page of rows at a time; 400 when the range holds more samples than the server returns at once (counted before any row is read); 503 with Retry-After when the server already runs its most concurrent track reads.
              security: [{bearer: []}, {tokenQuery: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
                - {name: from, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
                - {name: to, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
                - name: format
                  in: query
                  schema: {type: string, enum: [geojson, gpx, csv, polyline]}
                - {name: simplify, in: query, schema: {type: number, minimum: 0, maximum: 100000}}
              responses:
                "200":
                  description: The track in the asked format.
                  content:
                    application/geo+json:
                      schema: {type: object}
                    application/gpx+xml:
                      schema: {type: string}
                    text/csv:
                      schema: {type: string}
                    application/json:
                      schema:
                        type: object
                        properties:
                          segments: {type: array, items: {type: string}}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}
                "503":
                  description: The server runs its most track reads at once (serve --max-concurrent-reads); nothing was read. Retry after Retry-After seconds.
                  headers:
                    Retry-After: {schema: {type: integer}}
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
          /v1/devices/{id}/rejected:
            get:
              summary: Points kept aside instead of stored (an authenticated client's unreadable point, answered 2xx so its queue moves on), newest first.
              security: [{bearer: []}, {tokenQuery: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
              responses:
                "200":
                  description: The quarantined points with their reasons.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [device, rejected]
                        properties:
                          device: {type: string}
                          rejected:
                            type: array
                            items:
                              type: object
                              required: [source, reason, raw, received_at]
                              properties:
                                source: {type: string}
                                reason: {type: string}
                                raw: {type: string}
                                received_at: {type: integer}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}
          /v1/devices/{id}/timeline:
            get:
              summary: "A device's timeline: stays (at least the server's stay minutes within its stay radius), trips between them (distance, duration, mean speed, a mode guessed from speed) and gaps (no sample for longer than the gap threshold, never drawn as a trip; explained false and reasons empty when the client gave no reason), computed as samples arrive. Entries overlapping from..to (default the last 24 h, at most 31 days), in time order; the last stay or trip may be open (still growing)."
              security: [{bearer: []}, {tokenQuery: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
                - {name: from, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
                - {name: to, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
              responses:
                "200":
                  description: The entries with the settings they were computed with.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [device, from, to, stay_radius_m, stay_minimum_s, gap_threshold_s, entries]
                        properties:
                          device: {type: string}
                          from: {type: integer}
                          to: {type: integer}
                          stay_radius_m: {type: number}
                          stay_minimum_s: {type: number}
                          gap_threshold_s: {type: number}
                          entries:
                            type: array
                            items:
                              type: object
                              required: [type, start, end, open]
                              properties:
                                type: {type: string, enum: [stay, trip, gap]}
                                start: {type: integer, description: epoch ms}
                                end: {type: integer, description: epoch ms}
                                open: {type: boolean, description: the last stay or trip, still growing}
                                lat: {type: number, description: stay centre}
                                lon: {type: number, description: stay centre}
                                radius_m: {type: number, description: the stay's furthest sample from its centre}
                                inferred: {type: boolean, description: the stay spans a gap with the same position at both ends}
                                samples: {type: integer}
                                from: {type: array, items: {type: number}, description: "trip start [lat, lon]"}
                                to: {type: array, items: {type: number}, description: "trip end [lat, lon]"}
                                distance_m: {type: number}
                                duration_s: {type: number}
                                mean_speed_mps: {type: number}
                                mode: {type: string, enum: [still, walking, cycling, vehicle]}
                                explained: {type: boolean, description: a gap the client gave a reason for}
                                reasons:
                                  type: array
                                  items:
                                    type: object
                                    required: [start, end, reason]
                                    properties:
                                      start: {type: integer}
                                      end: {type: integer}
                                      reason: {type: string}
                                      detail: {type: string}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}
          /devices/{id}:
            get:
              summary: The map page of one UTC day (no external resources unless a tile URL is configured).
              security: [{bearer: []}, {tokenQuery: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
                - {name: day, in: query, schema: {type: string, format: date}}
              responses:
                "200":
                  description: HTML page.
                  content:
                    text/html:
                      schema: {type: string}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}
                "503":
                  description: The server runs its most track reads at once (serve --max-concurrent-reads). Retry after Retry-After seconds.
                  headers:
                    Retry-After: {schema: {type: integer}}
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
          /:
            get:
              summary: Index of devices with last-seen times.
              security: [{bearer: []}, {tokenQuery: []}]
              responses:
                "200":
                  description: HTML page.
                  content:
                    text/html:
                      schema: {type: string}
                "401": {$ref: '#/components/responses/Unauthorized'}

        """
}
