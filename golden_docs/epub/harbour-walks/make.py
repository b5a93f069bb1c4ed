"""Writes input.epub beside this file: a small EPUB 3 book (with an EPUB 2 NCX too) of three
chapters, a navigation document in the spine, an image and a table. Deterministic: fixed zip
dates, so the file (and its content_version) is the same each time. Run:
    .venv/bin/python golden_docs/epub/harbour-walks/make.py
"""

from __future__ import annotations

import zipfile
from pathlib import Path

TITLE = "Harbour Walks of Port Ellery"
XHTML = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en">
<head><title>{title}</title><link rel="stylesheet" type="text/css" href="../css/book.css"/></head>
<body>
{body}
</body>
</html>
"""

CHAPTERS = {
    "nav.xhtml": ("Contents", """<nav epub:type="toc" id="toc"><h1>Contents</h1>
<ol>
  <li><a href="text/ch01.xhtml">The Old Quay</a></li>
  <li><a href="text/ch02.xhtml">Tides and Timetables</a></li>
  <li><a href="text/ch03.xhtml">Planning a Walk</a></li>
</ol></nav>"""),
    "text/ch01.xhtml": ("The Old Quay", """<section epub:type="chapter">
<h1>The Old Quay</h1>
<p>The walk begins at the <em>Old Quay</em>, where the ferry from Saltmarsh has landed since 1871.
The granite setts are uneven, so wear shoes with a firm sole.</p>
<p><img src="../images/quay.jpg" alt="The Old Quay at low tide, looking east"/></p>
<p>Before you set off, pick up three things from the harbour office:</p>
<ul>
  <li>a tide table for the current month,</li>
  <li>the free map of the coastal path,</li>
  <li>a permit if you plan to cross the breakwater.</li>
</ul>
<h2>The Harbour Office</h2>
<p>The office opens at eight in summer and at nine from October. Staff can tell you which
stretches of the path are closed for nesting terns.</p>
</section>"""),
    "text/ch02.xhtml": ("Tides and Timetables", """<section epub:type="chapter">
<h1>Tides and Timetables</h1>
<p>Two of the walks cross the sands and can only be done within three hours of low water.</p>
<table>
  <thead><tr><th>Walk</th><th>Distance</th><th>Safe window</th></tr></thead>
  <tbody>
    <tr><td>Breakwater loop</td><td>4 km</td><td>any tide</td></tr>
    <tr><td>Gull Island crossing</td><td>6 km</td><td>low water plus or minus 3 h</td></tr>
    <tr><td>Saltmarsh sands</td><td>9 km</td><td>low water plus or minus 2 h</td></tr>
  </tbody>
</table>
<h2>Reading the Tide Table</h2>
<p>Heights are given in metres above chart datum. A spring tide below 0.5 m uncovers the old
oyster beds east of Gull Island.</p>
<blockquote><p>Never start a crossing on a rising tide, however close the island looks.</p></blockquote>
</section>"""),
    "text/ch03.xhtml": ("Planning a Walk", """<section epub:type="chapter">
<h1>Planning a Walk</h1>
<p>The harbour office publishes its tide predictions as a plain text file. This short script
prints the safe window for a crossing from the time of low water:</p>
<pre><code class="language-python">from datetime import datetime, timedelta

def safe_window(low_water: datetime, hours: float = 3.0):
    margin = timedelta(hours=hours)
    return low_water - margin, low_water + margin
</code></pre>
<p>Allow an hour more than the script says for the Saltmarsh sands: the channel there fills first.</p>
</section>"""),
}

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""

OPF = f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="bookid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="bookid">urn:uuid:6f1c2a6e-2d6b-4c1e-9a57-3f0d7c2b9e41</dc:identifier>
    <dc:title>{TITLE}</dc:title>
    <dc:creator>Morwenna Tregear</dc:creator>
    <dc:language>en</dc:language>
    <meta property="dcterms:modified">2026-11-02T09:00:00Z</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="css" href="css/book.css" media-type="text/css"/>
    <item id="quay" href="images/quay.jpg" media-type="image/jpeg"/>
    <item id="ch01" href="text/ch01.xhtml" media-type="application/xhtml+xml"/>
    <item id="ch02" href="text/ch02.xhtml" media-type="application/xhtml+xml"/>
    <item id="ch03" href="text/ch03.xhtml" media-type="application/xhtml+xml"/>
  </manifest>
  <spine toc="ncx">
    <itemref idref="nav"/>
    <itemref idref="ch01"/>
    <itemref idref="ch02"/>
    <itemref idref="ch03"/>
  </spine>
</package>
"""

NCX = f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd">
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <head><meta name="dtb:uid" content="urn:uuid:6f1c2a6e-2d6b-4c1e-9a57-3f0d7c2b9e41"/></head>
  <docTitle><text>{TITLE}</text></docTitle>
  <navMap>
    <navPoint id="n1" playOrder="1"><navLabel><text>The Old Quay</text></navLabel><content src="text/ch01.xhtml"/></navPoint>
    <navPoint id="n2" playOrder="2"><navLabel><text>Tides and Timetables</text></navLabel><content src="text/ch02.xhtml"/></navPoint>
    <navPoint id="n3" playOrder="3"><navLabel><text>Planning a Walk</text></navLabel><content src="text/ch03.xhtml"/></navPoint>
  </navMap>
</ncx>
"""


def _add(archive: zipfile.ZipFile, name: str, data: str | bytes, stored: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2026, 11, 2, 9, 0, 0))
    info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def write(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        _add(archive, "mimetype", "application/epub+zip", stored=True)  # first and stored, as EPUB asks
        _add(archive, "META-INF/container.xml", CONTAINER)
        _add(archive, "OEBPS/content.opf", OPF)
        _add(archive, "OEBPS/toc.ncx", NCX)
        _add(archive, "OEBPS/css/book.css", "body { font-family: serif; }\n")
        _add(archive, "OEBPS/images/quay.jpg", b"\xff\xd8\xff\xe0" + bytes(64) + b"\xff\xd9")
        for name, (title, body) in CHAPTERS.items():
            _add(archive, f"OEBPS/{name}", XHTML.format(title=title, body=body))


if __name__ == "__main__":
    write(Path(__file__).with_name("input.epub"))
