"""Makes the minimal PDFs of the decoder fixes in this folder (run once; the tests read the PDFs,
not this script). Each file is written byte by byte, so it shows one fault alone.
Needs python3 and qpdf (the encrypted files).
"""
import subprocess, zlib

from pdf_parts import pdf, stream


def one_page(path, fonts, content, extra_objects=()):
    """A catalog, one page with the given font resources (name -> object number) and content."""
    font_res = " ".join("/%s %d 0 R" % (name, num) for name, num in fonts.items())
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << %s >> >> /Contents 4 0 R >>" % font_res,
        stream(content),
    ]
    objects += list(extra_objects)
    pdf(path, objects)


def tounicode(body, header=None):
    header = header if header is not None else (
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
        "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n")
    return stream(header + body + "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n")


W500 = "/FirstChar 0 /LastChar 255 /Widths [%s]" % " ".join(["500"] * 256)

# 1. pdfTeX's Differences: /.notdef entries, ligature glyphs.
one_page('tex_notdef_ligatures.pdf', {'F1': 5}, (
    "BT /F1 10 Tf 72 700 Td (\\002rst \\003ow e\\014ort o\\016ce ba\\017e) Tj ET"),
    ["<< /Type /Font /Subtype /Type1 /BaseFont /CMR10 %s /Encoding 6 0 R >>" % W500,
     "<< /Type /Encoding /Differences [0 /.notdef 1 /dotaccent /fi /fl 7 /.notdef 12 /ff 14 /ffi /ffl 32 /space 97 /a /b /c /d /e /f /g /h /i /j /k /l /m /n /o /p /q /r /s /t /u /v /w /x /y /z] >>"])

# 2. A LuaTeX-style ToUnicode with tokens split over lines, a name without its slash and
#    a CMap name with two slashes; the bfchar and bfrange sections must still be read.
IDENTITY_FONT = ("<< /Type /Font /Subtype /Type0 /BaseFont /ABCDEF+Test /Encoding /Identity-H "
                 "/DescendantFonts [6 0 R] /ToUnicode 7 0 R >>")
CID_FONT = ("<< /Type /Font /Subtype /CIDFontType2 /BaseFont /ABCDEF+Test /CIDSystemInfo "
            "<< /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /DW 500 /FontDescriptor 8 0 R >>")
DESCRIPTOR = ("<< /Type /FontDescriptor /FontName /ABCDEF+Test /Flags 4 /FontBBox [0 0 1000 1000] "
              "/ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>")
one_page('cmap_luatex_tokens.pdf', {'F1': 5}, (
    "BT /F1 10 Tf 72 700 Td <0001000200030004> Tj ( ) Tj 0 -14 Td <00050006> Tj ET"),
    [IDENTITY_FONT, CID_FONT, tounicode(
        "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
        "2 beginbfchar\n<0001> <0054>\n<0002> <0065>\nendbfchar\n"
        "1 beginbfrange\n<0003> <0004>\n<0078>\nendbfrange\n"
        "1 beginbfrange\n<0005> <0006> [<004F> <004B>]\nendbfrange\n",
        header="%!PS-Adobe-3.0 Resource-CMap\n/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
               "CIDSystemInfo\n<< /Registry (Adobe)\n/Ordering (UCS)\n/Supplement 0\n>> def\n"
               "/CMapName //usr/local/texlive/fonts/Test.otf,000-UTF16 def\n"
               "/CMapType\n2\ndef\n/WMode 0 def weird [ unknown ] tokens } { def\n"), DESCRIPTOR])

# 3. Codes split by the font's encoding (Identity-H: 2 bytes), not by a codespacerange
#    that starts at <0003>; the codes of "Group" below 0x0100 and one above.
one_page('cmap_codespace_identity.pdf', {'F1': 5}, (
    "BT /F1 10 Tf 72 700 Td <002A005500520058005301A0> Tj ET"),
    [IDENTITY_FONT, CID_FONT, tounicode(
        "1 begincodespacerange\n<0003> <1A08>\nendcodespacerange\n"
        "6 beginbfchar\n<002A> <0047>\n<0055> <0072>\n<0052> <006F>\n<0058> <0075>\n<0053> <0070>\n<01A0> <0073>\nendbfchar\n"),
        DESCRIPTOR])

# 4. A ToUnicode without (or with only some) mappings: the font's encoding decides the rest.
one_page('tounicode_empty.pdf', {'F1': 5, 'F2': 7}, (
    "BT /F1 12 Tf 72 700 Td (Caf\\351 cr\\350me) Tj ET\n"
    "BT /F2 12 Tf 72 680 Td (Partial map) Tj ET"),
    ["<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica %s /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>" % W500,
     tounicode("1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"),
     "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica %s /Encoding /WinAnsiEncoding /ToUnicode 8 0 R >>" % W500,
     tounicode("1 begincodespacerange\n<00> <FF>\nendcodespacerange\n1 beginbfchar\n<50> <0051>\nendbfchar\n")])

# 5. An indirect /Filter, and an indirect /DecodeParms (PNG predictors).
def png_rows(data, columns):
    data += b" " * (-len(data) % columns)
    return b"".join(b"\x00" + data[i:i + columns] for i in range(0, len(data), columns))

content1 = zlib.compress(b"BT /F1 12 Tf 72 700 Td (Indirect filter text) Tj ET")
content2 = zlib.compress(png_rows(b"BT /F1 12 Tf 72 700 Td (Indirect parameters text) Tj ET", 8))
pdf('indirect_filter.pdf', [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 6 0 R >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 7 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    b"<< /Length %d /Filter 8 0 R >>\nstream\n" % len(content1) + content1 + b"\nendstream",
    b"<< /Length %d /Filter 9 0 R /DecodeParms 10 0 R >>\nstream\n" % len(content2) + content2 + b"\nendstream",
    "/FlateDecode",
    "/FlateDecode",
    "<< /Predictor 12 /Columns 8 >>",
])

# 6. Rotated text: at 90 degrees a word drawn in pieces (as Word does) and a second line; at
#    180 degrees words drawn one string each with the gap between them.
HELV = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
one_page('rotated_text.pdf', {'F1': 5}, (
    "BT /F1 20 Tf 0 1 -1 0 100 300 Tm (D) Tj (O) Tj (C) Tj (U) Tj (ME) Tj (N) Tj (T) Tj ( ) Tj (TITLE) Tj\n"
    "0 1 -1 0 124 300 Tm (Second) Tj 0 1 -1 0 124 400 Tm (line) Tj ET\n"
    "BT /F1 12 Tf -1 0 0 -1 500 500 Tm (Upside) Tj -1 0 0 -1 450 500 Tm (down) Tj -1 0 0 -1 415 500 Tm (words) Tj\n"
    "-1 0 0 -1 500 514 Tm (next) Tj -1 0 0 -1 470 514 Tm (line) Tj ET\n"
    "BT /F1 12 Tf 72 100 Td (Upright footer) Tj ET"), [HELV])

# 7. Standard-14 fonts without /Widths: their metrics place the next string, so a 12 pt
#    gap at 10 pt is a space. Each gap is measured from the real end of the word.
def std14(name):
    return "<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>" % name

# "efficient" is 3446/1000 em in Helvetica, "Narrow" 3056 in Times-Roman, Courier 600 a glyph.
one_page('standard14_no_widths.pdf', {'F1': 5, 'F2': 6, 'F3': 7}, (
    "BT /F1 10 Tf 72 700 Td (efficient) Tj ET BT /F1 10 Tf %.2f 700 Td (r1c1) Tj ET\n"
    "BT /F2 10 Tf 72 680 Td (Narrow) Tj ET BT /F2 10 Tf %.2f 680 Td (gap) Tj ET\n"
    "BT /F3 10 Tf 72 660 Td (mono) Tj ET BT /F3 10 Tf %.2f 660 Td (space) Tj ET\n"
    "BT /F1 10 Tf 72 640 Td (kern) Tj ET BT /F1 10 Tf %.2f 640 Td (ed) Tj ET"
    % (72 + 34.46 + 12, 72 + 30.56 + 12, 72 + 24 + 12, 72 + 19.45 + 0.3)),
    [std14('Helvetica'), std14('Times-Roman'), std14('Courier')])

# 8. Symbol and ZapfDingbats read through their built-in encodings.
one_page('symbol_zapf.pdf', {'F1': 5, 'F2': 6}, (
    "BT /F1 12 Tf 72 700 Td (W\\243\\345abp) Tj ET\n"
    "BT /F2 12 Tf 72 680 Td (34n) Tj ET"),
    ["<< /Type /Font /Subtype /Type1 /BaseFont /Symbol >>",
     "<< /Type /Font /Subtype /Type1 /BaseFont /ZapfDingbats >>"])

# 9. Encryption: files that need a password, files that open with the empty one.
one_page('plain_for_encryption.pdf', {'F1': 5},
         "BT /F1 12 Tf 72 700 Td (Secret text of the encrypted fixtures) Tj ET", [HELV])
for out, args in [
    ('enc_user_aes256.pdf', ['user', 'owner', '256']),
    ('enc_user_aes128.pdf', ['user', 'owner', '128', '--use-aes=y']),
    ('enc_user_rc4_128.pdf', ['user', 'owner', '128', '--use-aes=n']),
    ('enc_user_rc4_40.pdf', ['user', 'owner', '40']),
    ('enc_empty_aes256_restricted.pdf', ['', 'owner', '256', '--print=none', '--modify=none', '--extract=n']),
    ('enc_empty_rc4_40.pdf', ['', 'owner', '40']),
]:
    subprocess.run(['qpdf', '--allow-weak-crypto', '--object-streams=disable', '--encrypt', *args, '--',
                    'plain_for_encryption.pdf', out], check=True)

# AES-256 (R6) does not use the /ID in its key: a file without one opens with the empty password.
data = bytearray(open('enc_empty_aes256_restricted.pdf', 'rb').read())
start = data.rindex(b"/ID [")
end = data.index(b"]", start) + 1
data[start:end] = b" " * (end - start)
open('enc_empty_aes256_no_id.pdf', 'wb').write(data)

# Standard security handler by hand (PDF 32000-1 §7.6.3), for what qpdf does not write:
# RC4 (R3) without an /ID (poppler takes the ID as empty), and a file whose streams and
# strings are in the clear and only its attachments would be encrypted (/EFF).
import hashlib, struct

from pdf_parts import PAD, rc4


def file_key(owner_value, permissions, file_id):
    """Algorithm 2 for the empty user password, 128-bit key, revision 3 or 4."""
    h = hashlib.md5(PAD + owner_value + struct.pack('<i', permissions) + file_id).digest()
    for _ in range(50):
        h = hashlib.md5(h[:16]).digest()
    return h[:16]


def user_value(key, file_id):
    """Algorithm 5."""
    x = rc4(key, hashlib.md5(PAD + file_id).digest())
    for i in range(1, 20):
        x = rc4(bytes(k ^ i for k in key), x)
    return x + bytes(16)


def hexstr(data):
    return "<" + data.hex() + ">"


OWNER = hashlib.md5(b"any owner value").digest() * 2
PERMS = -3904
CONTENT = b"BT /F1 12 Tf 72 700 Td (Secret text of the encrypted fixtures) Tj ET"

# RC4-128 (V2 R3) with the empty user password and no /ID: the key is made with an empty ID.
key = file_key(OWNER, PERMS, b"")
object_key = hashlib.md5(key + (4).to_bytes(3, 'little') + (0).to_bytes(2, 'little')).digest()[:16]
one_page('enc_empty_rc4_no_id.pdf', {'F1': 5}, b"", [HELV])
data = open('enc_empty_rc4_no_id.pdf', 'rb').read()
# Rewritten whole: the content stream encrypted, an /Encrypt dictionary, a trailer without /ID.
objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    stream(rc4(object_key, CONTENT)),
    HELV,
    "<< /Filter /Standard /V 2 /R 3 /Length 128 /P %d /O %s /U %s >>" % (PERMS, hexstr(OWNER), hexstr(user_value(key, b""))),
]
pdf('enc_empty_rc4_no_id.pdf', objects)
data = open('enc_empty_rc4_no_id.pdf', 'rb').read()
open('enc_empty_rc4_no_id.pdf', 'wb').write(data.replace(b"/Root 1 0 R >>", b"/Root 1 0 R /Encrypt 6 0 R >>"))

# Only attachments encrypted (V4 R4, /StmF and /StrF /Identity, /EFF /StdCF): all in the clear.
file_id = hashlib.md5(b"attachments only").digest()
key = file_key(OWNER, PERMS, file_id)
objects[3] = stream(CONTENT)
objects[5] = ("<< /Filter /Standard /V 4 /R 4 /Length 128 /P %d /O %s /U %s "
              "/CF << /StdCF << /Type /CryptFilter /CFM /AESV2 /AuthEvent /EFOpen /Length 16 >> >> "
              "/StmF /Identity /StrF /Identity /EFF /StdCF >>" % (PERMS, hexstr(OWNER), hexstr(user_value(key, file_id))))
pdf('enc_attachments_only.pdf', objects)
data = open('enc_attachments_only.pdf', 'rb').read()
open('enc_attachments_only.pdf', 'wb').write(data.replace(
    b"/Root 1 0 R >>", b"/Root 1 0 R /Encrypt 6 0 R /ID [%s %s] >>" % (hexstr(file_id).encode(), hexstr(file_id).encode())))
