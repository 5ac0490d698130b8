"""Makes the minimal PDFs of what the text reader takes from beyond a font's own encoding
(run once; the tests read the PDFs, not this script): predefined CJK CMaps, form fields
and annotations, ActualText, right-to-left text drawn as seen, a space encoded as
`.notdef`, Type 3 glyphs named for their shapes, a file whose user password is not empty
with its /Encrypt written into the trailer, and one whose attachments alone are encrypted,
under a password; then what poppler reads and lopdf alone does not (glyphs past the page
edge, streams without /Length, tolerated content, Unicode CIDs, fake bold, a lost xref
entry, encryption lopdf does not undo, vertical writing, forms with unbalanced q, CIDs of
an embedded CMap, indirect appearance boxes, inline image data, a page as page tree, word
breaks). Each file is written byte by byte. Needs python3 and qpdf (for the
trailer one); the last starts from make_decoder_fixtures.py's enc_attachments_only.pdf.
"""
import re, subprocess

from pdf_parts import pdf, stream


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

# 9. Glyphs past the page's edge are dropped, as pdftotext drops them: 40 W's of 24-point
#    Helvetica from x = 72 on a page 612 wide (the 25th starts past the edge), and a line
#    drawn above the page.
one_page('page_edge.pdf', {'F1': 5}, (
    "BT /F1 24 Tf 72 720 Td (%s) Tj ET\n"
    "BT /F1 12 Tf 72 800 Td (Above the page) Tj ET\n"
    "BT /F1 12 Tf 72 690 Td (Inside) Tj ET" % ("W" * 40)), [HELV])

# 10. A content stream whose dictionary has no /Length: read up to its `endstream`.
pdf('stream_without_length.pdf', [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
    "/Contents 4 0 R >>",
    "<< >>\nstream\nBT /F1 12 Tf 72 700 Td (A stream without a length) Tj ET\nendstream",
    HELV])

# 11. Content lopdf's parser stops at: a minus sign with no digits in a TJ array (a 0), an
#     operator inside a TJ array (dropped from it), a stray `]`.
one_page('content_tolerated.pdf', {'F1': 5}, (
    "BT /F1 12 Tf 72 700 Td [(ext)-(ensively)] TJ ET\n"
    "BT /F1 12 Tf 72 680 Td [(Grandes) 0.0 Tc -250 (Clients)] TJ ] ET\n"
    "BT /F1 12 Tf 72 660 Td (Last line) Tj ET"), [HELV])

# 12. A composite font without ToUnicode whose CIDs are the text's code points, mapped to
#     glyphs by a CIDToGIDMap stream (as TCPDF writes them): poppler reads the CIDs as
#     Unicode. "Výbava na přání".
text = "Výbava na přání"
one_page('cid_unicode.pdf', {'F1': 5}, "BT /F1 12 Tf 72 700 Td <%s> Tj ET" % "".join(
    "%04X" % ord(c) for c in text), [
    "<< /Type /Font /Subtype /Type0 /BaseFont /Sans /Encoding /Identity-H /DescendantFonts [6 0 R] >>",
    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Sans /CIDSystemInfo << /Registry (Adobe) "
    "/Ordering (Identity) /Supplement 0 >> /DW 500 /CIDToGIDMap 7 0 R >>",
    stream(bytes(2 * 0x200))])

# 13. Fake bold: every glyph drawn twice a fraction of a point apart, and a word drawn again
#     over itself as a shadow; poppler keeps one of each.
x, bold = 72.0, ""
for c, width in zip("Bold", [667, 556, 222, 556]):
    bold += "BT /F1 12 Tf %.3f 700 Td (%s) Tj ET BT /F1 12 Tf %.3f 700.2 Td (%s) Tj ET\n" % (x, c, x + 0.05, c)
    x += width * 12 / 1000
one_page('fake_bold.pdf', {'F1': 5}, bold + (
    "BT /F1 12 Tf 72 680 Td (Shadow) Tj ET BT /F1 12 Tf 72.5 679.5 Td (Shadow) Tj ET\n"
    "BT /F1 12 Tf 72 660 Td (all) Tj ET"), [HELV])

# 14. A cross-reference entry that points past its object (the content stream's): read
#     after rebuilding the table from the objects themselves, as poppler does.
one_page('xref_offset_wrong.pdf', {'F1': 5}, "BT /F1 12 Tf 72 700 Td (Found by the rebuilt table) Tj ET",
         [HELV])
data = open('xref_offset_wrong.pdf', 'rb').read()
entry = b"%010d 00000 n \n" % data.index(b"4 0 obj")
open('xref_offset_wrong.pdf', 'wb').write(data.replace(entry, b"%010d 00000 n \n" % (data.index(b"4 0 obj") + 7)))

# 15. Encryption lopdf does not undo as it loads the file, all with the empty user password:
#     - V4 with a 40-bit RC4 key (/Length 40, crypt filters /V2), which lopdf refuses;
#     - crypt filters written as references (/CF 7 0 R), which lopdf does not follow;
#     - an /Encrypt that is no dictionary (a damaged file): no encryption, as poppler reads it.
import hashlib, struct

from pdf_parts import PAD, rc4


def encrypted(path, n, encrypt, extra_objects=()):
    """One page whose content is RC4-encrypted with an n-byte key for the empty user
    password (algorithms 2 and 5, revision 4); `encrypt` is the dictionary with %s for
    its /O and /U."""
    owner = hashlib.md5(b"any owner value").digest() * 2
    perms = -3904
    file_id = hashlib.md5(path.encode()).digest()
    key = hashlib.md5(PAD + owner + struct.pack('<i', perms) + file_id).digest()[:n]
    for _ in range(50):
        key = hashlib.md5(key).digest()[:n]
    u = rc4(key, hashlib.md5(PAD + file_id).digest())
    for i in range(1, 20):
        u = rc4(bytes(k ^ i for k in key), u)
    object_key = hashlib.md5(key + (4).to_bytes(3, 'little') + bytes(2)).digest()[:min(n + 5, 16)]
    content = b"BT /F1 12 Tf 72 700 Td (Secret text of the encrypted fixtures) Tj ET"
    pdf(path, [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
        "/Contents 4 0 R >>",
        stream(rc4(object_key, content)),
        HELV,
        encrypt % ("<%s>" % owner.hex(), "<%s>" % (u + bytes(16)).hex()),
    ] + list(extra_objects), b"/Encrypt 6 0 R /ID [<%s> <%s>] " % (file_id.hex().encode(), file_id.hex().encode()))


encrypted('enc_v4_rc4_40.pdf', 5,
          "<< /Filter /Standard /V 4 /R 4 /Length 40 /P -3904 /O %s /U %s /CF << /StdCF << /Type /CryptFilter "
          "/CFM /V2 /Length 5 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF >>")
encrypted('enc_indirect_crypt_filters.pdf', 16,
          "<< /Filter /Standard /V 4 /R 4 /Length 128 /P -3904 /O %s /U %s /CF 7 0 R /StmF /StdCF /StrF /StdCF >>",
          ["<< /StdCF 8 0 R >>", "<< /Type /CryptFilter /CFM /V2 /Length 16 /AuthEvent /DocOpen >>"])
one_page('enc_not_a_dictionary.pdf', {'F1': 5},
         "BT /F1 12 Tf 72 700 Td (Secret text of the encrypted fixtures) Tj ET", [HELV, "[/Standard 4]"])
data = open('enc_not_a_dictionary.pdf', 'rb').read()
open('enc_not_a_dictionary.pdf', 'wb').write(data.replace(b"/Root 1 0 R ", b"/Root 1 0 R /Encrypt 6 0 R "))

# 16. Vertical writing (Identity-V): glyphs advance down the page, and a column is a line;
#     the pen ends below the column, so the text after it is where the page puts it.
letters = "ABCDEF"
bfchar = "".join("<%04X> <%04X>\n" % (i + 1, ord(c)) for i, c in enumerate(letters))
one_page('vertical_writing.pdf', {'F1': 5, 'F2': 6}, (
    "BT /F2 20 Tf 1 0 0 1 300 700 Tm <0001000200030004> Tj ET\n"
    "BT /F2 20 Tf 1 0 0 1 270 700 Tm <00050006> Tj ET\n"
    "BT /F2 20 Tf 1 0 0 1 500 100 Tm <0001> Tj /F1 12 Tf (after) Tj ET"), [
    HELV,
    "<< /Type /Font /Subtype /Type0 /BaseFont /Tate /Encoding /Identity-V /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
    "<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Tate /CIDSystemInfo << /Registry (Adobe) "
    "/Ordering (Identity) /Supplement 0 >> /DW 1000 >>",
    stream("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
           "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n"
           "%d beginbfchar\n%sendbfchar\nendcmap\nend\nend\n" % (len(letters), bfchar)),
])

# 17. A form that leaves states saved (two `q`s, one after a `cm` that moves everything
#     off the page): the page's own `Q` after it restores the page's state, not the form's.
one_page('form_unbalanced_q.pdf', {'F1': 5}, (
    "q 1 0 0 1 10 0 cm /Fx1 Do Q BT /F1 12 Tf 72 650 Td (After the form) Tj ET"), [
    HELV,
    stream("q 1 0 0 1 0 -800 cm q BT /F1 12 Tf 72 1500 Td (In the form) Tj ET",
           "/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >>"),
], page_extra="/Resources << /Font << /F1 5 0 R >> /XObject << /Fx1 6 0 R >> >>")
data = open('form_unbalanced_q.pdf', 'rb').read()
data = data.replace(b"/Resources << /Font << /F1 5 0 R >> >> /Contents", b"/Contents")
open('form_unbalanced_q.pdf', 'wb').write(data)

# 18. An embedded encoding CMap that maps one-byte codes to CIDs (cidrange): widths are the
#     CIDs' (500), not the codes' (the default, 1000), so the line fits on the page.
line = "An embedded CMap maps codes to CIDs, and widths follow the CIDs."
bfrange = "<20> <7E> <0020>\n"
one_page('cmap_cid_widths.pdf', {'F1': 5}, "BT /F1 12 Tf 72 700 Td <%s> Tj ET" % line.encode().hex(), [
    "<< /Type /Font /Subtype /Type0 /BaseFont /Sans /Encoding 6 0 R /DescendantFonts [7 0 R] /ToUnicode 8 0 R >>",
    stream("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CMapType 1 def\n"
           "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
           "1 begincidrange\n<20> <7E> 1\nendcidrange\nendcmap\nend\nend\n", "/Type /CMap /CMapName /Custom"),
    "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /Sans /CIDSystemInfo << /Registry (Adobe) "
    "/Ordering (Identity) /Supplement 0 >> /DW 1000 /W [1 [250] 2 95 500] >>",
    stream("/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
           "1 begincodespacerange\n<00> <FF>\nendcodespacerange\n"
           "1 beginbfrange\n%sendbfrange\nendcmap\nend\nend\n" % bfrange),
])

# 19. An annotation's appearance whose /BBox is written as a reference: the box is mapped
#     onto the annotation's rectangle (here the text sits left of the box's origin).
one_page('annotation_indirect_bbox.pdf', {'F1': 5}, "BT /F1 12 Tf 72 700 Td (Page text) Tj ET", [
    HELV,
    "<< /Type /Annot /Subtype /Stamp /Rect [100 600 300 620] /AP << /N 7 0 R >> >>",
    stream("BT /F1 12 Tf -198 5 Td (Stamp text) Tj ET",
           "/Type /XObject /Subtype /Form /BBox 8 0 R /Resources << /Font << /F1 5 0 R >> >>"),
    "[-200 0 0 20]",
], page_extra="/Annots [6 0 R]")

# 20. Inline image data that runs into its `EI` (no white space before it).
one_page('inline_image_glued_ei.pdf', {'F1': 5}, (
    b"q 2 0 0 1 72 720 cm BI /W 2 /H 1 /BPC 8 /CS /G ID \x00\xffEI Q "
    b"BT /F1 12 Tf 72 700 Td (After the image) Tj ET"), [HELV])

# 21. A page tree whose root is itself a page (no /Pages node at all).
pdf('pages_root_is_page.pdf', [
    "<< /Type /Catalog /Pages 3 0 R >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Page /MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >> /Contents 4 0 R >>",
    stream("BT /F1 12 Tf 72 700 Td (The only page) Tj ET")])

# 22. Gaps of an eighth of the font size part words (poppler breaks at a tenth): the dots
#     of a leader; a kerning of a twentieth does not.
one_page('word_break.pdf', {'F1': 5}, (
    "BT /F1 10 Tf 72 700 Td [(Contents) -400 (.) -125 (.) -125 (.) -125 (1)] TJ ET\n"
    "BT /F1 10 Tf 72 680 Td [(ke) 50 (rn) -125 (x)] TJ ET"), [HELV])
