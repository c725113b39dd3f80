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
            ShareLink:
              type: object
              required: [id, device, kind, created_by, created_at, expires_at, views]
              properties:
                id: {type: integer}
                device: {type: string}
                kind: {type: string, enum: [live, range]}
                from: {type: integer}
                to: {type: integer}
                created_by: {type: string}
                created_at: {type: integer}
                expires_at: {type: integer}
                revoked_at: {type: integer, nullable: true}
                views: {type: integer}
                last_viewed_at: {type: integer, nullable: true}
            ImportAnswer:
              type: object
              required: [format, points, added, duplicates, rejected, finished, problems]
              properties:
                format: {type: string, example: Google Takeout Records.json}
                points: {type: integer}
                added: {type: integer}
                duplicates: {type: integer}
                rejected: {type: integer}
                finished: {type: boolean}
                problems: {type: array, maxItems: 100, items: {type: string}}
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
                v:
                  type: integer
                  minimum: 1
                  description: Batch version; absent means 1. Version 2 may carry gaps; fields this server does not know are ignored.
                gaps:
                  type: array
                  maxItems: 1000
                  description: Version 2. Why the phone took no samples; each gap is stored once by id.
                  items: {$ref: '#/components/schemas/NativeGap'}
            NativeGap:
              type: object
              required: [id, start, end, reason]
              properties:
                id: {type: string, format: uuid}
                start: {type: integer, description: Unix epoch milliseconds}
                end: {type: integer, description: Unix epoch milliseconds, not before start}
                reason:
                  type: string
                  description: A reason this server does not know refuses that gap alone (gapsRejected).
                  enum: [suspended, terminated-by-system, force-quit, location-services-off, authorization-lowered, precise-off, low-power-mode, no-network, storage-full, tracking-stopped]
                detail: {type: string, maxLength: 200, nullable: true}
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
                gapsStored:
                  type: array
                  description: Only when the batch had gaps. Gap ids stored now or before; the phone deletes them.
                  items: {type: string}
                gapsRejected:
                  type: array
                  description: Only when the batch had gaps. Gaps refused for good, with the reason; the phone deletes them too.
                  items:
                    type: object
                    required: [id, reason]
                    properties:
                      id: {type: string}
                      reason: {type: string}
            GapInterval:
              type: object
              required: [start, end, reason, no_samples, label]
              properties:
                start: {type: integer, description: Unix epoch milliseconds}
                end: {type: integer, description: Unix epoch milliseconds}
                reason: {type: string, description: One of NativeGap's reasons}
                detail: {type: string, nullable: true}
                no_samples: {type: boolean, description: The phone took no samples then (else it sampled less or could not upload).}
                label: {type: string, description: 'The words the map shows, e.g. "10:30–11:00: no samples, the app was force-quit; the user reopened it"'}
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
          /v1/devices/{id}/gaps:
            get:
              summary: Why the phone took no samples, as it reported (gap intervals overlapping from..to, by start).
              security: [{bearer: []}, {tokenQuery: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
                - {name: from, in: query, schema: {type: string}, description: Epoch ms or ISO-8601; default 24 h before to}
                - {name: to, in: query, schema: {type: string}, description: Epoch ms or ISO-8601; default now}
              responses:
                "200":
                  description: The gap intervals with their reasons and words.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [device, from, to, gaps]
                        properties:
                          device: {type: string}
                          from: {type: integer}
                          to: {type: integer}
                          gaps:
                            type: array
                            items: {$ref: '#/components/schemas/GapInterval'}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}
          /v1/devices/{id}/map:
            get:
              summary: Any range of a device's track at a bounded cost (issue 25), for a map at a zoom. The finest detail level not above zoom whose points fit in points (levels kept per sample, gap ends at every level), one encoded polyline per segment, and the points the clean-up rules exclude; 400 when not even zoom 0 fits.
              security: [{bearer: []}, {tokenQuery: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
                - {name: from, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
                - {name: to, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
                - {name: zoom, in: query, schema: {type: integer, minimum: 0, maximum: 20}, description: the map's zoom; 20 (default) is every point}
                - {name: points, in: query, schema: {type: integer, minimum: 1, maximum: 100000}, description: the most points to send (default 20000)}
              responses:
                "200":
                  description: The track at one detail level.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [device, from, to, zoom, exact, points, segments, excluded, excludedTruncated]
                        properties:
                          device: {type: string}
                          from: {type: integer}
                          to: {type: integer}
                          zoom: {type: integer}
                          requestedZoom: {type: integer}
                          exact: {type: boolean}
                          points: {type: integer}
                          segments:
                            type: array
                            items:
                              type: object
                              required: [start, end, line]
                              properties:
                                start: {type: integer}
                                end: {type: integer}
                                line: {type: string}
                          excluded:
                            type: array
                            items:
                              type: object
                              required: [lat, lon, t, rule]
                              properties:
                                lat: {type: number}
                                lon: {type: number}
                                t: {type: integer}
                                acc: {type: number}
                                rule: {type: string, enum: [null-island, inaccurate, speed-jump]}
                          excludedTruncated: {type: boolean}
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
          /devices/{id}/map:
            get:
              summary: The map page of a year (or any from…to) at a bounded cost, with the excluded points behind a checkbox; needs Leaflet (libjs-leaflet).
              security: [{bearer: []}, {tokenQuery: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
                - {name: year, in: query, schema: {type: integer, minimum: 1970, maximum: 9999}}
                - {name: from, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
                - {name: to, in: query, schema: {type: string}, description: epoch ms or ISO-8601}
                - {name: points, in: query, schema: {type: integer, minimum: 1, maximum: 100000}}
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
                "501":
                  description: The server has no Leaflet to draw the page with (install libjs-leaflet).
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
                "503":
                  description: The server runs its most track reads at once (serve --max-concurrent-reads). Retry after Retry-After seconds.
                  headers:
                    Retry-After: {schema: {type: integer}}
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
          /v1/devices/{id}/imports:
            post:
              summary: Imports a file of the device's history (GPX, KML, GeoJSON, OwnTracks .rec, Google Takeout Records.json or the Timeline export), streamed through the same pipeline as `bgtrack import`. Only the device's own token (or session) may import into it.
              description: >
                The body is the file itself, uncompressed, at most 4,000,000,000 bytes; it is read as it
                arrives and committed in batches, so memory does not grow with it. A point the device
                already has is counted as a duplicate (importing a file twice adds nothing). A bad record
                is listed in `problems` with its position and the rest are imported. The same file sent
                again with the same Content-Length after a dropped connection goes on where it stopped.
              security: [{bearer: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}, example: iphone-42}
                - name: format
                  in: query
                  description: When the first bytes do not tell ({ or [ is JSON, < is GPX/KML, a digit an OwnTracks .rec line).
                  schema: {type: string, enum: [gpx, kml, geojson, takeout, timeline, owntracks-rec, json, xml, rec]}
              requestBody:
                required: true
                content:
                  application/octet-stream:
                    schema: {type: string, format: binary}
              responses:
                "200":
                  description: The whole file was read; its counts.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/ImportAnswer'}
                "422":
                  description: The file's structure broke (truncated, not JSON/XML); what was read before it is stored and counted, `error` says where.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/ImportAnswer'}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "413":
                  description: Content-Length is over 4,000,000,000 bytes; nothing was read.
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
                "415":
                  description: A Content-Encoding (send the file uncompressed), or a body whose format cannot be told (add ?format=).
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Error'}
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
          /s/{secret}:
            get:
              summary: A share link's read-only page (its range, or the live position with a staleness note). No credentials; the secret is the URL. Never logged; Referrer-Policy no-referrer, Cache-Control no-store.
              parameters:
                - {name: secret, in: path, required: true, schema: {type: string, pattern: '^shr_[0-9a-f]{64}$'}}
              responses:
                "200": {description: HTML page., content: {text/html: {schema: {type: string}}}}
                "404": {description: No such link (unknown or malformed secret)., content: {text/html: {schema: {type: string}}}}
                "410": {description: The link expired or was revoked., content: {text/html: {schema: {type: string}}}}
                "429":
                  description: Too many requests for this link or from this address (serve's share limits). Retry after Retry-After seconds.
                  headers:
                    Retry-After: {schema: {type: integer}}
                  content: {text/html: {schema: {type: string}}}
          /v1/shares:
            get:
              summary: Every share link (of one device with ?device=), with state, views and expiry. Operator token.
              security: [{bearer: []}]
              parameters:
                - {name: device, in: query, schema: {type: string}}
              responses:
                "200":
                  description: The links, newest first.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [shares]
                        properties:
                          shares: {type: array, items: {$ref: '#/components/schemas/ShareLink'}}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
            post:
              summary: Creates a share link; the answer's path holds the secret, shown only this once. Operator token.
              security: [{bearer: []}]
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [device, kind]
                      properties:
                        device: {type: string}
                        kind: {type: string, enum: [live, range]}
                        from: {type: integer, description: Epoch ms, range only}
                        to: {type: integer, description: Epoch ms (exclusive), range only}
                        expires_in: {type: integer, minimum: 60, maximum: 31536000, description: Seconds; 7 days by default}
              responses:
                "201":
                  description: The link and its path /s/{secret}.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [share, path]
                        properties:
                          share: {$ref: '#/components/schemas/ShareLink'}
                          path: {type: string}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}
          /v1/shares/{id}:
            delete:
              summary: Revokes a share link; its page answers 410 from now on. Operator token.
              security: [{bearer: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                "204": {description: Revoked.}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}
          /v1/devices/{id}:
            delete:
              summary: Erases the device and all its data (samples, events, quarantine, sessions, alerts, share links) in one transaction. Needs data=true and confirm repeating the name. Operator token.
              security: [{bearer: []}]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
                - {name: data, in: query, required: true, schema: {type: string, enum: ["true"]}}
                - {name: confirm, in: query, required: true, schema: {type: string}}
              responses:
                "200":
                  description: Rows deleted per table.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [device, deleted]
                        properties:
                          device: {type: string}
                          deleted: {type: object, additionalProperties: {type: integer}}
                "400": {$ref: '#/components/responses/BadRequest'}
                "401": {$ref: '#/components/responses/Unauthorized'}
                "403": {$ref: '#/components/responses/Forbidden'}
                "404": {$ref: '#/components/responses/NotFound'}

        """
}
