"""Makes the committed fixtures in this folder (run once; the tests read the PDFs, not this script).

Producers: fpdf2 2.8 (core Helvetica, compressed), reportlab 5.1 (Helvetica with
WinAnsi accents; an image-only page; RC4 user-password encryption), Chromium headless
(TrueType subset as Type0/Identity-H with ToUnicode), qpdf (empty user password).
"""
import io, subprocess
from fpdf import FPDF
from reportlab.pdfgen import canvas
from reportlab.lib import pdfencrypt
from reportlab.lib.utils import ImageReader
from PIL import Image, ImageDraw

pdf = FPDF(); pdf.set_font('Helvetica', size=12)
pdf.add_page(); pdf.multi_cell(0, 6, "First page of the fpdf2 fixture.\nIt has two lines of text.")
pdf.add_page(); pdf.multi_cell(0, 6, "Second page: numbers 12345 and symbols (a+b)=c.")
pdf.output('fpdf2_two_pages.pdf')

c = canvas.Canvas('reportlab_text.pdf')
c.setFont('Helvetica-Bold', 16); c.drawString(72, 760, "Reportlab fixture")
c.setFont('Helvetica', 11)
c.drawString(72, 730, "Accents from WinAnsi: d\u00e9j\u00e0 vu, na\u00efve, \u00dcbermut.")
c.drawString(72, 715, "A second line, then a gap.")
c.drawString(72, 650, "A paragraph after the gap.")
t = c.beginText(300, 650); t.textOut("Same"); t.moveCursor(40, 0); t.textOut("baseline"); c.drawText(t)
c.showPage()
c.drawString(72, 760, "Page two of reportlab.")
c.showPage(); c.save()

im = Image.new('L', (64, 16), 255); ImageDraw.Draw(im).text((2, 2), "scan", fill=0)
b = io.BytesIO(); im.save(b, format='PNG'); b.seek(0)
c = canvas.Canvas('reportlab_scan.pdf'); c.drawImage(ImageReader(b), 72, 600, width=256, height=64)
c.showPage(); c.drawImage(ImageReader(b), 72, 600, width=256, height=64); c.showPage(); c.save()

enc = pdfencrypt.StandardEncryption("secret", ownerPassword="owner", strength=128)
c = canvas.Canvas('reportlab_encrypted.pdf', encrypt=enc)
c.drawString(72, 720, "Encrypted text needs the password."); c.showPage(); c.save()

subprocess.run(['qpdf', '--allow-weak-crypto', '--encrypt', '', 'owner', '128', '--use-aes=y', '--',
                'fpdf2_two_pages.pdf', 'qpdf_empty_user_password.pdf'], check=True)

data = open('reportlab_text.pdf', 'rb').read()
open('damaged_truncated.pdf', 'wb').write(data[:len(data) * 6 // 10])

open('chromium.html', 'w').write('<!doctype html><meta charset="utf-8"><body style="font-family:DejaVu Sans">'
    '<h1>Chromium fixture</h1><p>Unicode: caf\u00e9, \u03b1\u03b2\u03b3, \u2264 \u221e.</p><p>Second paragraph.</p>')
subprocess.run(['chromium', '--headless', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer',
                '--print-to-pdf=chromium_unicode.pdf', 'chromium.html'], check=True, capture_output=True)

# Text inside a form XObject drawn twice, under two matrices (reportlab's beginForm).
c = canvas.Canvas('reportlab_form.pdf')
c.beginForm('stamp'); c.setFont('Helvetica', 12); c.drawString(0, 0, "Text inside a form"); c.endForm()
c.drawString(72, 760, "Before the form.")
c.saveState(); c.translate(72, 700); c.doForm('stamp'); c.restoreState()
c.saveState(); c.translate(72, 640); c.doForm('stamp'); c.restoreState()
c.drawString(72, 580, "After the form.")
c.showPage(); c.save()
