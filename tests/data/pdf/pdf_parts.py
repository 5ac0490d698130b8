"""What the PDF fixture generators share: a writer of small PDFs with a correct
cross-reference table, stream objects, and RC4 with the password pad of the standard
security handler (PDF 32000-1 7.6.3.3)."""

def pdf(path, objects, trailer_extra=b""):
    """Writes objects (numbered from 1; object 1 is the catalog, 2 the page tree) with a
    correct cross-reference table."""
    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        if isinstance(body, str):
            body = body.encode('latin-1')
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, trailer_extra, xref)
    open(path, 'wb').write(out)


def stream(data, extra=""):
    if isinstance(data, str):
        data = data.encode('latin-1')
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra.encode()) + data + b"\nendstream"


PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


def rc4(key, data):
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out, i, j = bytearray(), 0, 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)
