"""What PDF/UA-1 asks of the PDF beyond the tags WeasyPrint 70 writes.

WeasyPrint tags the document (a structure tree of headings, paragraphs, lists,
tables and figures; a figure's ``/Alt`` from its SVG ``<title>``), but writes one
variant: PDF/A-3b here, for the attachments. Its finisher hook (``pdf._finish``)
calls :func:`accessible`, which adds

* a ``/Scope`` (``/Column``, ``/Row``) on every table header cell's ``/A``
  attributes, from the ``th``'s ``scope`` attribute;
* the page margins' content (running title, date, page number) marked as
  artifacts instead of tagged to structure elements outside the tree;
* ``pdfuaid:part`` on the XMP description that carries ``pdfaid:part``, with the
  PDF/A extension schema that declares the ``pdfuaid`` namespace.

Both are pure edits of the objects before the file is written: the same input
gives the same bytes.
"""

from __future__ import annotations

from ..errors import RenderError

__all__ = ["accessible"]


def accessible(document, pdf, *, ua_part: int = 1) -> None:
    """What PDF/UA-1 asks beyond WeasyPrint 70's tags: a ``/Scope`` on every table
    header cell, the running headers and footers as artifacts, and the PDF/UA
    identification in the XMP."""
    _header_scopes(document, pdf)
    _margins_as_artifacts(pdf)
    _claim_pdf_ua(pdf, ua_part)


def _number(reference) -> int | None:
    """``b"12 0 R"`` -> 12."""
    try:
        text = reference.decode() if isinstance(reference, (bytes, bytearray)) else str(reference)
        return int(text.split()[0]) if text.endswith("R") else None
    except (ValueError, IndexError, UnicodeDecodeError):
        return None


def _margins_as_artifacts(pdf) -> None:
    """Mark the page margins' content (the running title, date and "page X of Y")
    as artifacts: pagination, not the document's content.

    WeasyPrint 70 marks it as tagged content whose structure elements it leaves out
    of the structure tree ("could be included in tree as Artifact, but that's only
    allowed in PDF 2.0"): content tagged to nothing. Each such marked sequence
    (``/Span <</MCID n>> BDC``) becomes ``/Artifact BMC``; its ``EMC`` stays."""
    import pydyf

    root = _number(pdf.catalog.get("StructTreeRoot"))
    if root is None:
        return
    reached, todo = set(), [root]
    while todo:  # the structure tree's elements, from its root down its /K
        number = todo.pop()
        if number in reached or not 0 < number < len(pdf.objects):
            continue
        reached.add(number)
        kids = pdf.objects[number].get("K") if isinstance(pdf.objects[number], dict) else None
        for kid in kids if isinstance(kids, list) else [kids]:
            if (n := _number(kid)) is not None:
                todo.append(n)
    orphaned: dict[int, set[int]] = {}  # page object number -> MCIDs tagged to nothing
    for obj in pdf.objects:
        if (isinstance(obj, dict) and obj.get("Type") == "/StructElem"
                and getattr(obj, "number", None) not in reached):
            page = _number(obj.get("Pg"))
            for kid in obj.get("K") or []:
                if isinstance(kid, int) and page is not None:
                    orphaned.setdefault(page, set()).add(kid)
    for page, mcids in orphaned.items():
        contents = _number(pdf.objects[page].get("Contents"))
        stream = pdf.objects[contents] if contents is not None else None
        if not isinstance(stream, pydyf.Stream):
            continue
        ops = stream.stream
        for i in range(1, len(ops) - 1):
            item = ops[i]
            if (isinstance(item, dict) and item.get("MCID") in mcids and ops[i + 1] == b"BDC"
                    and isinstance(ops[i - 1], str) and ops[i - 1].startswith("/")):
                ops[i - 1], ops[i], ops[i + 1] = "/Artifact", b"BMC", b""


# HTML's th scope -> PDF's /Scope (a row group's header heads rows, a column group's columns)
_SCOPES = {"col": "/Column", "colgroup": "/Column", "row": "/Row", "rowgroup": "/Row"}


def _header_scopes(document, pdf) -> None:
    """Give every ``/TH`` structure element a ``/Scope`` in its ``/A`` attributes.

    WeasyPrint keeps each table cell's structure element on its layout box
    (``box.mark``), so the ``th``'s own ``scope`` is read there. A ``th`` without
    one, or a ``/TH`` reached only through the structure tree, heads its column
    inside a ``thead`` and its row elsewhere (HTML's ``auto`` scope, as browsers
    read it)."""
    import pydyf

    for page in document.pages:
        stack = [(getattr(page, "_page_box", None), False)]
        while stack:
            box, in_head = stack.pop()
            if box is None:
                continue
            box = getattr(box, "_box", box)  # an absolute placeholder: its box
            tag = getattr(box, "element_tag", None)
            mark = getattr(box, "mark", None)
            if tag == "th" and isinstance(mark, dict):
                scope = str(box.element.attrib.get("scope", "")).lower() if box.element is not None else ""
                attributes = mark.setdefault("A", pydyf.Dictionary({"O": "/Table"}))
                attributes["Scope"] = _SCOPES.get(scope, "/Column" if in_head else "/Row")
            in_head = in_head or tag == "thead"
            stack.extend((child, in_head) for child in getattr(box, "children", ()))
    # any /TH left without (a WeasyPrint that keeps no marks): from the tree
    for obj in pdf.objects:
        if isinstance(obj, dict) and obj.get("S") == "/TH":
            attributes = obj.setdefault("A", pydyf.Dictionary({"O": "/Table"}))
            if "Scope" not in attributes:
                attributes["Scope"] = "/Column" if _under(pdf, obj, "/THead") else "/Row"


def _under(pdf, element, kind: str) -> bool:
    """Whether a structure element lies inside one of ``kind`` (``/THead``)."""
    seen = 0
    while isinstance(element, dict) and seen < 64:
        parent = element.get("P")
        try:
            number = int(bytes(parent).split()[0]) if isinstance(parent, (bytes, bytearray)) else int(str(parent).split()[0])
            element = pdf.objects[number]
        except (ValueError, IndexError, TypeError):
            return False
        if isinstance(element, dict) and element.get("S") == kind:
            return True
        seen += 1
    return False


_XMP = {
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
    "pdfuaid": "http://www.aiim.org/pdfua/ns/id/",
    "pdfaExtension": "http://www.aiim.org/pdfa/ns/extension/",
    "pdfaSchema": "http://www.aiim.org/pdfa/ns/schema#",
    "pdfaProperty": "http://www.aiim.org/pdfa/ns/property#",
}

# PDF/A admits only the XMP schemas it predefines, or those the file describes in
# an extension schema: the PDF/UA identification is not among the first.
_PDFUA_EXTENSION = f"""<rdf:Description xmlns:rdf="{_XMP['rdf']}" xmlns:pdfaExtension="{_XMP['pdfaExtension']}"
 xmlns:pdfaSchema="{_XMP['pdfaSchema']}" xmlns:pdfaProperty="{_XMP['pdfaProperty']}" rdf:about="">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>PDF/UA Universal Accessibility Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>{_XMP['pdfuaid']}</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType="Resource">
<pdfaProperty:name>part</pdfaProperty:name>
<pdfaProperty:valueType>Integer</pdfaProperty:valueType>
<pdfaProperty:category>internal</pdfaProperty:category>
<pdfaProperty:description>Indicates, which part of ISO 14289 standard is followed</pdfaProperty:description>
</rdf:li></rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>"""


def _claim_pdf_ua(pdf, part: int) -> None:
    """Add ``pdfuaid:part`` to the XMP description that carries ``pdfaid:part``,
    and the extension schema that declares it (the same bytes each time)."""
    import xml.etree.ElementTree as ET

    import pydyf

    for prefix, uri in _XMP.items():
        ET.register_namespace(prefix, uri)
    for obj in pdf.objects:
        if not (isinstance(obj, pydyf.Stream) and obj.extra.get("Type") == "/Metadata"):
            continue
        data = b"".join(bytes(item) if not isinstance(item, str) else item.encode() for item in obj.stream)
        start, end = data.find(b"<rdf:RDF"), data.rfind(b"</rdf:RDF>")
        if start < 0 or end < 0:
            raise RenderError("PDF: the XMP metadata has no rdf:RDF element to claim PDF/UA in")
        end += len(b"</rdf:RDF>")
        rdf = ET.fromstring(data[start:end])
        described = [d for d in rdf.iter(f"{{{_XMP['rdf']}}}Description")
                     if f"{{{_XMP['pdfaid']}}}part" in d.attrib]
        if not described:
            raise RenderError("PDF: the XMP metadata does not claim PDF/A; no PDF/UA claim added")
        described[0].set(f"{{{_XMP['pdfuaid']}}}part", str(part))
        rdf.append(ET.fromstring(_PDFUA_EXTENSION))
        obj.stream = [data[:start] + ET.tostring(rdf, encoding="utf-8", xml_declaration=False) + data[end:]]
