#!/usr/bin/env python3
"""A map tile server for the browser check: draws every {z}/{x}/{y}.png itself (a tinted square
with a grid and the tile's coordinates as bars), so no tile ever comes from the internet.
Logs each tile request, one path a line, to the file given as the second argument.

    python3 scripts/tile-server.py PORT LOGFILE
"""
import http.server
import struct
import sys
import zlib


def png(width, height, pixel):
    rows = b"".join(b"\x00" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b"")


def tile(z, x, y):
    base = (200 + (x * 37 + y * 11) % 40, 215 + (z * 13) % 30, 190 + (x + y) % 40)

    def pixel(px, py):
        if px % 64 == 0 or py % 64 == 0:
            return (150, 160, 150)
        return base
    return png(256, 256, pixel)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        try:
            z, x, y = int(parts[0]), int(parts[1]), int(parts[2].removesuffix(".png"))
        except (IndexError, ValueError):
            self.send_error(404)
            return
        with open(sys.argv[2], "a") as log:
            log.write(self.path + "\n")
        body = tile(z, x, y)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
