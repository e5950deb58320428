#!/usr/bin/env python3
"""Rewrites little-endian TIFF/DNG files with their directories first, as cameras write them
(header, every directory and its values, then the strips: the preview, then the raw data):
the layout docs/guide/camera.md measures RAW preview cards on. DIR/dng/X.dng -> DIR/cam/X.dng.

    python3 Benchmarks/raw/relayout_tiff.py DIR/dng/*.dng
"""
import struct, sys
SIZES = {1:1,2:1,3:2,4:4,5:8,6:1,7:1,8:2,9:4,10:8,11:4,12:8,13:4}
def parse(data):
    assert data[:4] == b'II*\x00'

    def read_ifd(off):
        n = struct.unpack_from('<H', data, off)[0]
        entries = []
        for i in range(n):
            tag, typ, count, val = struct.unpack_from('<HHII', data, off + 2 + 12 * i)
            size = SIZES[typ] * count
            raw = data[off + 10 + 12 * i: off + 14 + 12 * i][:size] if size <= 4 else data[val:val + size]
            entries.append([tag, typ, count, bytearray(raw)])
        nxt = struct.unpack_from('<I', data, off + 2 + 12 * n)[0]
        return entries, nxt
    return read_ifd
def main(src, dst):
    data = open(src, 'rb').read()
    read_ifd = parse(data)
    first = struct.unpack_from('<I', data, 4)[0]
    # Directories: IFD0 chain and SubIFDs (one level).
    order = []
    def visit(off):
        entries, nxt = read_ifd(off)
        node = {'entries': entries, 'next': None, 'subs': []}
        order.append(node)
        for e in entries:
            if e[0] == 330:
                for k in range(e[2]):
                    node['subs'].append(visit(struct.unpack_from('<I', e[3], 4 * k)[0]))
        if nxt:
            node['next'] = visit(nxt)
        return node
    root = visit(first)
    # Layout: directories and their out-of-line values first.
    pos = 8
    for node in order:
        node['at'] = pos
        pos += 2 + 12 * len(node['entries']) + 4
        for e in node['entries']:
            size = SIZES[e[1]] * e[2]
            if size > 4:
                if pos % 2: pos += 1
                e.append(pos)
                pos += size
            else:
                e.append(None)
    if pos % 2: pos += 1
    # Strips after.
    strips = []
    for node in order:
        ent = {e[0]: e for e in node['entries']}
        if 273 in ent:
            offs = struct.unpack('<%dI' % ent[273][2], bytes(ent[273][3])) if ent[273][1] == 4 else struct.unpack('<%dH' % ent[273][2], bytes(ent[273][3]))
            cnts = struct.unpack('<%dI' % ent[279][2], bytes(ent[279][3])) if ent[279][1] == 4 else struct.unpack('<%dH' % ent[279][2], bytes(ent[279][3]))
            new = []
            for o, c in zip(offs, cnts):
                strips.append((pos, data[o:o + c]))
                new.append(pos)
                pos += c
            assert ent[273][1] == 4
            ent[273][3] = bytearray(struct.pack('<%dI' % len(new), *new))
    for node in order:
        for e in node['entries']:
            if e[0] == 330:
                e[3] = bytearray(struct.pack('<%dI' % len(node['subs']), *[s['at'] for s in node['subs']]))
    out = bytearray(pos)
    out[:8] = b'II*\x00' + struct.pack('<I', root['at'])
    for node in order:
        at = node['at']
        struct.pack_into('<H', out, at, len(node['entries']))
        for i, e in enumerate(node['entries']):
            tag, typ, count, raw, where = e
            if where is None:
                val = bytes(raw) + b'\0' * (4 - len(raw))
            else:
                val = struct.pack('<I', where)
                out[where:where + len(raw)] = raw
            struct.pack_into('<HHI', out, at + 2 + 12 * i, tag, typ, count)
            out[at + 10 + 12 * i: at + 14 + 12 * i] = val
        struct.pack_into('<I', out, at + 2 + 12 * len(node['entries']), node['next']['at'] if node['next'] else 0)
    for at, b in strips:
        out[at:at + len(b)] = b
    open(dst, 'wb').write(out)
for a in sys.argv[1:]:
    main(a, a.replace('/dng/', '/cam/'))
