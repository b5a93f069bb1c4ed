"""Pictures in DOCX, PPTX and web pages: their alt text at their place in reading order
(``image_text``), decorative ones saying nothing; the gate's reference holding that alt text;
and, when asked (``ocr_office_images``), the words OCR reads in a DOCX's embedded image with
its confidence."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from lxml import etree
from PIL import Image, ImageDraw, ImageFont

from parsegate import api
from parsegate.parsers.model import Document
from parsegate.parsers.ocr import parser_name
from parsegate.parsers.office.images import alt_text, image_kind, vml_picture
from parsegate.parsers.options import DEFAULTS, ParseOptions
from parsegate.parsers.registry import parse_data
from parsegate.quality_gates.checks.ocr_confidence import CHECK as OCR_CHECK
from parsegate.quality_gates.references.alt_text import alt_texts
from tests.parsers.test_ocr import _tesseract

DECORATIVE = "http://schemas.microsoft.com/office/drawing/2017/decorative"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"


def _png(text: str = "", size: tuple[int, int] = (900, 160)) -> io.BytesIO:
    image = Image.new("RGB", size, "white")
    if not text:  # a blank image is a layout spacer to docling (its invisible layer): draw a bar
        ImageDraw.Draw(image).rectangle((10, 10, size[0] // 2, size[1] - 10), fill=(40, 90, 160))
    else:
        font = ImageFont.load_default(size=56)
        ImageDraw.Draw(image).text((24, 40), text, fill="black", font=font)
    out = io.BytesIO()
    image.save(out, format="PNG")
    out.seek(0)
    return out


def _docx(pictures: list[tuple[io.BytesIO, dict[str, str], bool]]) -> bytes:
    """A report: a heading, a paragraph, then each picture (its docPr attributes, decorative or
    not) followed by a paragraph."""
    from docx import Document as Docx
    from docx.shared import Inches

    doc = Docx()
    doc.add_heading("Results", 1)
    doc.add_paragraph("Before the pictures.")
    for n, (png, attributes, decorative) in enumerate(pictures):
        doc.add_picture(png, width=Inches(4))
        props = doc.inline_shapes[-1]._inline.docPr
        for name, value in attributes.items():
            props.set(name, value)
        if decorative:
            ext_list = etree.SubElement(props, f"{{{A}}}extLst")
            ext = etree.SubElement(ext_list, f"{{{A}}}ext", uri="{C183D7F6-B498-43B3-948B-1728B52AA6E4}")
            etree.SubElement(ext, f"{{{DECORATIVE}}}decorative", val="1")
        doc.add_paragraph(f"After picture {n + 1}.")
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def _images(doc: Document) -> list[tuple[str, int, int, tuple[str, ...], str | None]]:
    return [
        (doc.text[e.start : e.end], e.start, e.end, e.section_path, e.data.source)
        for e in doc.elements
        if e.kind == "image_text"
    ]


def test_a_docx_pictures_alt_text_stands_at_its_place_and_a_decorative_one_says_nothing() -> None:
    data = _docx(
        [
            (
                _png(),
                {"title": "Revenue chart", "descr": "Revenue by quarter\n\nDescription automatically generated"},
                False,
            ),
            (_png(), {"descr": "a blue divider"}, True),
            (_png(), {"descr": ""}, False),
        ]
    )
    doc = parse_data(data, Path("report.docx"), "report.docx")
    assert doc.text == (
        "Results\n\nBefore the pictures.\n\nRevenue chart\nRevenue by quarter\n\n"
        "After picture 1.\n\nAfter picture 2.\n\nAfter picture 3."
    )
    assert _images(doc) == [("Revenue chart\nRevenue by quarter", 31, 63, ("Results",), "alt")]
    assert [e.kind for e in doc.elements] == [
        "heading",
        "paragraph",
        "image_text",
        "paragraph",
        "paragraph",
        "paragraph",
    ]
    assert doc.elements[2].data.image == "PNG" and doc.parser.startswith("office ") and "ocr" not in doc.parser


def test_a_slides_picture_alt_text_follows_the_slide_title_on_its_page() -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Architecture"
    picture = slide.shapes.add_picture(_png(), Inches(1), Inches(2), Inches(6))
    picture._element.nvPicPr.cNvPr.set("descr", "Two servers behind a load balancer")
    out = io.BytesIO()
    deck.save(out)
    doc = parse_data(out.getvalue(), Path("deck.pptx"), "deck.pptx")
    assert _images(doc) == [("Two servers behind a load balancer", 14, 48, ("Architecture",), "alt")]
    assert doc.elements[-1].page == 1


def test_alt_text_of_legacy_pictures_and_image_formats_by_their_bytes() -> None:
    shape = etree.fromstring(
        '<v:shape xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"'
        ' alt="Site plan"><v:imagedata o:title="Campus map"/></v:shape>'
    )
    picture = vml_picture(shape[0], b"\xd7\xcd\xc6\x9a" + bytes(40))
    assert (picture.alt, picture.kind, picture.raster) == ("Campus map\nSite plan", "WMF", False)
    assert alt_text("Logo", "Logo of the bank") == "Logo of the bank"
    emf = b"\x01\x00\x00\x00" + bytes(36) + b" EMF" + bytes(20)
    kinds = [image_kind(d) for d in (_png().getvalue(), b"\xff\xd8\xff\xe0", emf, b"<svg xmlns='x'/>", b"II*\x00")]
    assert kinds == ["PNG", "JPEG", "EMF", "SVG", "TIFF"]


def test_the_gates_reference_holds_the_alt_text_so_localization_passes() -> None:
    data = _docx([(_png(), {"descr": "Quarterly revenue by region"}, False)])
    assert alt_texts(data, "docx") == ["Quarterly revenue by region"]
    doc = api.parse(data, format="docx", doc_id="report.docx")
    chunks = api.chunk(doc, max_tokens=64)
    verdict = api.gate(doc, chunks, source=data, max_tokens=64)
    localization = next(c for c in verdict.checks if c.metric == "localization")
    assert (localization.value, localization.passed) == (1.0, True)


def test_ocr_of_a_docx_image_reads_its_words_with_their_confidence() -> None:
    _tesseract()
    data = _docx([(_png("Quarterly revenue grew"), {}, False), (_png("tiny", (300, 20)), {}, False)])
    options = replace(DEFAULTS, ocr_office_images=True)
    doc = parse_data(data, Path("report.docx"), "report.docx", options)
    (image,) = [e for e in doc.elements if e.kind == "image_text"]
    assert (doc.text[image.start : image.end], image.start, image.data.source) == ("Quarterly revenue grew", 31, "ocr")
    assert image.data.ocr_confidence is not None and image.data.ocr_confidence > 0.8
    assert doc.metadata["ocr"]["images"] == 1 and doc.metadata["ocr"]["skipped"] == {"under 32 px high": 1}
    assert doc.parser == parser_name("office", _office_version(), options)
    assert doc.parser.endswith(" images") and " ocr tesseract/" in doc.parser
    chunks = api.chunk(doc, max_tokens=64)
    held = [c for c in chunks if "ocr" in c.metadata]
    assert [c.metadata["ocr"]["confidence"] for c in held] == [image.data.ocr_confidence]
    verdict = api.gate(doc, chunks, source=data, max_tokens=64, thresholds={"min_ocr_confidence": 0.99})
    ocr_check = next(c for c in verdict.checks if c.metric == "ocr_confidence")
    assert ocr_check.passed is False  # the check applies to a DOCX's OCR text
    assert ocr_check.value == image.data.ocr_confidence and doc.format in OCR_CHECK.formats  # as it declares


def _office_version() -> str:
    from parsegate.parsers.office import VERSION

    return VERSION


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("yes", True), ("0", False), ("", False)])
def test_the_option_is_read_from_the_environment(value: str, expected: bool) -> None:
    assert ParseOptions.from_env({"PARSEGATE_OCR_OFFICE_IMAGES": value}).ocr_office_images is expected


def test_a_flag_that_is_no_yes_or_no_is_refused_naming_the_variable() -> None:
    with pytest.raises(ValueError, match="PARSEGATE_OCR_OFFICE_IMAGES='maybe'"):
        ParseOptions.from_env({"PARSEGATE_OCR_OFFICE_IMAGES": "maybe"})
