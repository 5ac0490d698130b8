"""Makes the minimal PDFs of what the text reader takes from beyond a font's own encoding
(run once; the tests read the PDFs, not this script): predefined CJK CMaps, form fields
and annotations, ActualText, right-to-left text drawn as seen, a space encoded as
`.notdef`, Type 3 glyphs named for their shapes, a file whose user password is not empty
with its /Encrypt written into the trailer, and one whose attachments alone are encrypted,
under a password. Each file is written byte by byte. Needs python3 and qpdf (for the
trailer one); the last starts from make_decoder_fixtures.py's enc_attachments_only.pdf.
"""
import re, subprocess


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


def one_page(path, fonts, content, extra_objects=(), page_extra="", catalog_extra=""):
    """A catalog, one page with the given font resources (name -> object number) and
    content; extra objects are numbered from 5."""
    font_res = " ".join("/%s %d 0 R" % (name, num) for name, num in fonts.items())
    objects = [
        "<< /Type /Catalog /Pages 2 0 R %s >>" % catalog_extra,
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << %s >> >> "
        "/Contents 4 0 R %s >>" % (font_res, page_extra),
        stream(content),
    ]
    pdf(path, objects + list(extra_objects))


HELV = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"

# 1. Composite fonts without ToUnicode on predefined CMaps: GBK-EUC-H (one byte for ASCII,
#    two for GBK; 中文 is D6D0 CEC4) and 90ms-RKSJ-H (Shift-JIS; 日本語 is 93FA 967B 8CEA).
one_page('cjk_predefined_cmaps.pdf', {'F1': 5, 'F2': 7}, (
    "BT /F1 12 Tf 72 700 Td <D6D0CEC4> Tj ( GBK) Tj ET\n"
    "BT /F2 12 Tf 72 680 Td <93FA967B8CEA> Tj ( SJIS) Tj ET"), [
    "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /GBK-EUC-H /DescendantFonts [6 0 R] >>",
    "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo "
    "<< /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /DW 1000 /W [1 95 500] >>",
    "<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /90ms-RKSJ-H /DescendantFonts [8 0 R] >>",
    "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo "
    "<< /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /DW 1000 /W [231 632 500] >>"])

# 2. Form fields and annotations: a text field whose appearance stream shows its value, a
#    text field without an appearance (its /V is shown), a FreeText note without one (its
#    /Contents), and a hidden annotation whose appearance is not shown.
appearance = "/Tx BMC BT /Helv 10 Tf 2 4 Td (Filled in value) Tj ET EMC"
hidden = "BT /Helv 10 Tf 2 4 Td (Never shown) Tj ET"
one_page('form_fields.pdf', {'F1': 5}, "BT /F1 12 Tf 72 700 Td (Page text) Tj ET", [
    HELV,
    "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Filled in value) /Rect [72 640 272 660] "
    "/AP << /N 9 0 R >> /F 4 >>",
    "<< /Type /Annot /Subtype /Widget /FT /Tx /T (city) /V (Value without appearance) "
    "/DA (/Helv 10 Tf 0 g) /Rect [72 600 272 620] /F 4 >>",
    "<< /Type /Annot /Subtype /FreeText /Contents (A free text note) /DA (/Helv 10 Tf) "
    "/Rect [72 560 272 580] >>",
    stream(appearance, "/Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /Helv 5 0 R >> >>"),
    "<< /Type /Annot /Subtype /Widget /FT /Tx /T (secret) /V (Never shown) /Rect [72 520 272 540] "
    "/AP << /N 11 0 R >> /F 6 >>",
    stream(hidden, "/Type /XObject /Subtype /Form /BBox [0 0 200 20] /Resources << /Font << /Helv 5 0 R >> >>"),
], page_extra="/Annots [6 0 R 7 0 R 8 0 R 10 0 R]", catalog_extra="/AcroForm << /Fields [6 0 R 7 0 R 10 0 R] >>")

# 3. ActualText: glyphs with no text of their own (codes the font's encoding leaves
#    unnamed) replaced by the text of their marked-content sequence when its property list
#    is inline; one named in the page's /Properties is not read (as pdftotext).
one_page('actual_text.pdf', {'F1': 5, 'F2': 6}, (
    "BT /F1 12 Tf 72 700 Td (Before ) Tj "
    "/Span << /ActualText <FEFFD83DDE00> >> BDC /F2 12 Tf (\\001\\002) Tj EMC "
    "/F1 12 Tf ( after) Tj ET\n"
    "BT /F1 12 Tf 72 680 Td /Span /P1 BDC /F2 12 Tf (\\001) Tj EMC /F1 12 Tf (second line) Tj ET"), [
    HELV,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Pictures /FirstChar 1 /LastChar 2 /Widths [1000 1000] "
    "/Encoding << /Type /Encoding /Differences [1 /g1 /g2] >> >>",
], page_extra="/Resources << /Font << /F1 5 0 R /F2 6 0 R >> /Properties << /P1 << /ActualText (Word: ) >> >> >>")
# The page's /Resources above replaces the one one_page writes: keep the last one.
data = open('actual_text.pdf', 'rb').read()
data = data.replace(b"/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents", b"/Contents")
open('actual_text.pdf', 'wb').write(data)

# 4. Hebrew drawn as it is seen (left to right on the page): שלום עולם 2024, drawn as
#    "2024 םלוע םולש" with a ToUnicode map of an Identity-H font.
letters = {'ש': 1, 'ל': 2, 'ו': 3, 'ם': 4, 'ע': 5, ' ': 6, '2': 7, '0': 8, '4': 9}
drawn = "2024 םלוע םולש"
hexcodes = "".join("%04X" % letters[c] for c in drawn)
bfchar = "".join("<%04X> <%04X>\n" % (code, ord(c)) for c, code in letters.items())
one_page('rtl_visual_order.pdf', {'F1': 5}, "BT /F1 12 Tf 72 700 Td <%s> Tj ET" % hexcodes, [
    "<< /Type /Font /Subtype /Type0 /BaseFont /Hebrew /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Hebrew /CIDSystemInfo << /Registry (Adobe) "
    "/Ordering (Identity) /Supplement 0 >> /DW 500 >>",
    stream("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
           "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
           "%d beginbfchar\n%sendbfchar\nendcmap\nend\nend\n" % (len(letters), bfchar)),
])

# 5. A standard-14 font without /Widths whose /Differences call code 32 `.notdef`: the
#    space still has its width, so the words stay apart.
one_page('notdef_space.pdf', {'F1': 5}, "BT /F1 10 Tf 72 700 Td (Words that have spaces.) Tj ET", [
    "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding 6 0 R >>",
    "<< /Type /Encoding /Differences [32 /.notdef 39 /quotesingle] >>"])

# 6. A user password ("user"), with the /Encrypt dictionary written into the trailer
#    rather than as an object of its own (lopdf then loads the file without decrypting it).
one_page('plain_for_trailer_encryption.pdf', {'F1': 5},
         "BT /F1 12 Tf 72 700 Td (Secret text of the encrypted fixtures) Tj ET", [HELV])
subprocess.run(['qpdf', '--static-id', '--object-streams=disable', '--encrypt', 'user', 'owner', '128',
                '--use-aes=y', '--', 'plain_for_trailer_encryption.pdf', 'enc_user_trailer_dict.pdf'], check=True)
data = open('enc_user_trailer_dict.pdf', 'rb').read()
number = re.search(rb"/Encrypt (\d+) 0 R", data).group(1)
body = re.search(rb"\n" + number + rb" 0 obj\n(<<.*?>>)\nendobj", data, re.S).group(1)
open('enc_user_trailer_dict.pdf', 'wb').write(data.replace(b"/Encrypt " + number + b" 0 R", b"/Encrypt " + body))

# 7. A Type 3 font whose glyphs are named for their shapes: as poppler, a name with no
#    Unicode meaning stands for its code's character.
one_page('type3_shape_names.pdf', {'F1': 5}, "BT /F1 12 Tf 72 700 Td (abba) Tj ET", [
    "<< /Type /Font /Subtype /Type3 /FontBBox [0 0 750 750] /FontMatrix [0.001 0 0 0.001 0 0] "
    "/CharProcs << /square 6 0 R /triangle 7 0 R >> /Encoding << /Type /Encoding /Differences [97 /square /triangle] >> "
    "/FirstChar 97 /LastChar 98 /Widths [1000 1000] /Resources << >> >>",
    stream("1000 0 0 0 750 750 d1 0 0 750 750 re f"),
    stream("1000 0 0 0 750 750 d1 0 0 m 375 750 l 750 0 l f"),
])

# 8. Only the attachments encrypted (/StmF and /StrF /Identity), under a password that is
#    not empty: enc_attachments_only.pdf (make_decoder_fixtures.py) with another /U, which
#    the empty password does not open. The pages are in the clear, and are read.
data = open('enc_attachments_only.pdf', 'rb').read()
u = re.search(rb"/U <([0-9a-f]+)>", data)
other = bytes(0xFF - b for b in bytes.fromhex(u.group(1).decode())).hex().encode()
open('enc_attachments_password.pdf', 'wb').write(data.replace(u.group(1), other))
