-- wrk script: one OwnTracks location or one OsmAnd point per request, each with its own time, so
-- no request is a duplicate of another (issue 23's single-point comparison; BENCHMARKS.md).
--
--   wrk -t1 -c16 -d10s --latency -s scripts/wrk-single-point.lua http://127.0.0.1:8080 -- owntracks DEVICE TOKEN
--   wrk … -s scripts/wrk-single-point.lua http://127.0.0.1:8080 -- osmand DEVICE TOKEN
--   wrk … -s scripts/wrk-single-point.lua http://127.0.0.1:8083 -- recorder USER DEVICE
--
-- One thread (-t1) for one device: each wrk thread numbers its own points, so with two threads
-- the device's points arrive as two interleaved streams that drift apart by hundreds of seconds
-- of point time (8 s a request), which no phone sends; our timeline then rebuilds from the late
-- stream once a second. One thread keeps 16 connections busy on two cores and sends the
-- device's points in time order, as a phone's queue does.
--
-- owntracks posts to /ingest/owntracks with Basic credentials (user DEVICE, password TOKEN);
-- recorder posts the same body to the OwnTracks Recorder's /pub with X-Limit-U/X-Limit-D, as the
-- OwnTracks app does in HTTP mode; osmand sends a Traccar Client GET to /ingest/osmand.

local threads = {}
local counter = 1

function setup(thread)
    thread:set("id", counter)
    table.insert(threads, thread)
    counter = counter + 1
end

local function base64(data)
    local alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return ((data:gsub(".", function(x)
        local r, b = "", x:byte()
        for i = 8, 1, -1 do r = r .. (b % 2 ^ i - b % 2 ^ (i - 1) > 0 and "1" or "0") end
        return r
    end) .. "0000"):gsub("%d%d%d?%d?%d?%d?", function(x)
        if #x < 6 then return "" end
        local c = 0
        for i = 1, 6 do c = c + (x:sub(i, i) == "1" and 2 ^ (6 - i) or 0) end
        return alphabet:sub(c + 1, c + 1)
    end) .. ({ "", "==", "=" })[#data % 3 + 1])
end

function init(args)
    mode = args[1] or "owntracks"
    first = args[2] or "bench"
    second = args[3] or ""
    index = 0
    -- From 60 days ago, a separate second per thread and request: every point has its own time,
    -- and the threads' points interleave in time as one phone's would arrive (a thread 11 days
    -- behind another would make every other point a straggler, which the timeline rebuilds from
    -- the store). At most 8 threads (-t8); a run stays in the past for 600,000 requests a thread.
    start = os.time() - 60 * 86400 + (id or 1)
    latitude = 10 + (id or 1) / 100
    -- A longitude per run (and protocol), so no run repeats an earlier run's points.
    longitude = 20 + (os.time() % 100000) / 100000 + (mode == "osmand" and 1 or 0)
    if mode == "owntracks" then
        path = "/ingest/owntracks"
        headers = {
            ["Authorization"] = "Basic " .. base64(first .. ":" .. second),
            ["X-Limit-U"] = first, ["X-Limit-D"] = "load", ["Content-Type"] = "application/json",
        }
    elseif mode == "recorder" then
        path = "/pub"
        headers = { ["X-Limit-U"] = first, ["X-Limit-D"] = second, ["Content-Type"] = "application/json" }
    end
end

function request()
    index = index + 1
    local tst = start + index * 8
    if mode == "osmand" then
        return wrk.format("GET", string.format(
            "/ingest/osmand?id=%s&token=%s&timestamp=%d&lat=%.5f&lon=%.5f&speed=2&bearing=90&altitude=30"
                .. "&accuracy=8&batt=80", first, second, tst, latitude, longitude))
    end
    local body = string.format(
        '{"_type":"location","lat":%.5f,"lon":%.5f,"tst":%d,"acc":8,"alt":30,"vel":5,"batt":80,"bs":1,'
            .. '"tid":"ld","t":"p","conn":"w"}', latitude, longitude, tst)
    return wrk.format("POST", path, headers, body)
end
