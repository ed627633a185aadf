"""Build the browser table's card faces (src/skat/web/static/cards/) from KDE's SVG card decks.

The decks come from Debian's package ``kdegames-card-data-kf5`` (GPL-2+, see
src/skat/web/static/cards/LICENSE.md): the Paris pattern (``svg-gm-paris``) for the French deck, XSkat's
German deck (``svg-xskat-german``, by Gunter Gerhardt) for the German one, and the four-colour tournament deck
made from the Paris one (spades green, diamonds orange; the suit marks only, the court pictures keep their
colours). Each of the 32 Skat cards and the back becomes one standalone SVG file, named in ISS notation
(``CJ.svg``, ``HT.svg``, ``back.svg``; the German deck's suit signs as ``suit-C.svg`` ...) with the card's own ``viewBox`` (measured by Chromium), only the
definitions it uses, no editor metadata and coordinates rounded to two decimals.

    python tools/build_card_faces.py            # downloads the package with apt-get download
    python tools/build_card_faces.py --deb FILE # or takes a downloaded .deb

Needs Playwright for Python and Debian's chromium (as the browser tests do). The output is committed; the
project never runs this at test or run time.
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)
HREF = f"{{{XLINK}}}href"

OUT = Path(__file__).resolve().parent.parent / "src" / "skat" / "web" / "static" / "cards"
SUITS = {"C": "club", "S": "spade", "H": "heart", "D": "diamond"}
RANKS = {"7": "7", "8": "8", "9": "9", "T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "1"}
DECKS = {"french": "svg-gm-paris/paris.svgz", "german": "svg-xskat-german/german.svgz"}
GERMAN_SIGNS = {"C": "acorn", "S": "leaf", "H": "heart", "D": "bell"}
# the four-colour deck: the Paris deck with the suit marks of spades and diamonds recoloured
FOUR_COLOURS = {"S": ("#000000", "#1e7d32"), "D": ("#df0000", "#e08a00")}
KEEP_NS = (SVG, XLINK)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def _refs(element: ET.Element) -> set[str]:
    """The ids an element and its descendants refer to (``href="#id"``, ``url(#id)``)."""
    out: set[str] = set()
    for node in element.iter():
        for key, value in node.attrib.items():
            if key in (HREF, "href") and value.startswith("#"):
                out.add(value[1:])
            out.update(re.findall(r"url\(#([^)]+)\)", value))
    return out


def _clean(element: ET.Element) -> None:
    """Drop editor attributes (Inkscape, Sodipodi) and round long decimals to two places."""
    for node in element.iter():
        for key in list(node.attrib):
            ns = key[1:].split("}")[0] if key.startswith("{") else None
            if ns is not None and ns not in KEEP_NS:
                del node.attrib[key]
            elif key in ("transform", "gradientTransform"):  # scales: four places keep the parts aligned
                node.attrib[key] = re.sub(r"(-?\d+\.\d{4})\d+", r"\1", node.attrib[key])
            elif key in ("d", "points", "x", "y", "width", "height", "cx", "cy", "r", "rx", "ry",
                         "x1", "y1", "x2", "y2", "fx", "fy", "style", "offset"):
                node.attrib[key] = re.sub(r"(-?\d+\.\d\d)\d+", r"\1", node.attrib[key])
    for child in list(element):
        tag = child.tag.split("}")[-1] if isinstance(child.tag, str) else ""
        if not child.tag.startswith(f"{{{SVG}}}") or tag in ("metadata", "title", "desc"):
            element.remove(child)
        else:
            _clean(child)


def standalone(root: ET.Element, card_id: str) -> ET.Element:
    """One card of a deck as its own SVG document: the card (with the transforms of the groups around it
    outside ``defs``) and, in ``defs``, everything it uses."""
    by_id = {node.get("id"): node for node in root.iter() if node.get("id")}
    parent = {child: node for node in root.iter() for child in node}
    card = by_id[card_id]
    needed: list[str] = []
    todo = sorted(_refs(card))
    while todo:
        ref = todo.pop()
        if ref in needed or ref not in by_id or ref == card_id:
            continue
        needed.append(ref)
        todo.extend(sorted(_refs(by_id[ref])))
    doc = ET.Element(f"{{{SVG}}}svg", {"version": "1.1"})
    defs = ET.SubElement(doc, f"{{{SVG}}}defs")
    for ref in needed:  # a used element that is itself inside another used one is there already
        node, inside = by_id[ref], False
        up = parent.get(by_id[ref])
        while up is not None:
            if up.get("id") in needed:
                inside = True
            up = parent.get(up)
        if not inside:
            defs.append(node)
    holder = ET.SubElement(doc, f"{{{SVG}}}g", {"id": "card"})
    chain, up = [], parent.get(card)
    while up is not None and up is not root:
        if up.tag == f"{{{SVG}}}defs":
            chain = []  # a card defined in defs is drawn where it is used: no outer transforms
            break
        if up.get("transform"):
            chain.append(up.get("transform"))
        up = parent.get(up)
    inner = holder
    for transform in reversed(chain):
        inner = ET.SubElement(inner, f"{{{SVG}}}g", {"transform": transform})
    inner.append(card)
    _clean(doc)
    return doc


def recolour_pips(text: str, colours: tuple[str, str]) -> str:
    """A pip card of the four-colour deck from the Paris one: the suit colour changes everywhere but in the
    card's frame (``#cf``)."""
    old, new = colours
    frame = re.search(r'<path[^>]*id="cf"[^>]*/>', text)
    keep = frame.group(0) if frame else ""
    return re.sub(old, new, text.replace(keep, "\0"), flags=re.I).replace("\0", keep)


# A court card of the four-colour deck: only the corner marks (index and suit sign) change colour, found by
# where they lie; the picture keeps its colours.
RECOLOUR_CORNERS = """([oldRgb, newColour]) => {
  const card = document.getElementById('card'); const box = card.getBBox();
  const inv = card.getScreenCTM().inverse();
  let n = 0;
  const paint = (el) => {
    const cs = getComputedStyle(el);
    if (cs.fill === oldRgb) el.style.fill = newColour;
    if (cs.stroke === oldRgb) el.style.stroke = newColour;
  };
  for (const el of card.querySelectorAll('path, polygon, polyline, line, circle, ellipse, rect, use')) {
    const cs = getComputedStyle(el);
    const fill = cs.fill === oldRgb, stroke = cs.stroke === oldRgb;
    if (!fill && !stroke && el.tagName !== 'use') continue;
    const r = el.getBoundingClientRect();
    const a = new DOMPoint(r.left, r.top).matrixTransform(inv), b = new DOMPoint(r.right, r.bottom).matrixTransform(inv);
    const x1 = (Math.min(a.x, b.x) - box.x) / box.width, x2 = (Math.max(a.x, b.x) - box.x) / box.width;
    const y1 = (Math.min(a.y, b.y) - box.y) / box.height, y2 = (Math.max(a.y, b.y) - box.y) / box.height;
    if (!((x2 < 0.2 && y2 < 0.3) || (x1 > 0.8 && y1 > 0.7))) continue;
    if (el.tagName === 'use') {  // a suit sign drawn from a definition: a court uses it in its corners only
      const ref = document.getElementById((el.getAttribute('href') || el.getAttribute('xlink:href')).slice(1));
      if (!ref || ref.id === 'cf') continue;
      [ref, ...ref.querySelectorAll('*')].forEach(paint);
    } else {
      paint(el);
    }
    n++;
  }
  return [n, new XMLSerializer().serializeToString(document.documentElement)];
}"""


def _rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*(int(colour[i:i + 2], 16) for i in (1, 3, 5)))


def measure(files: list[Path], corners: dict[Path, tuple[str, str]]) -> dict[Path, tuple[float, ...]]:
    """The bounding box of each file's ``#card`` group, as Chromium draws it; the files in ``corners`` get
    their corner marks recoloured (``RECOLOUR_CORNERS``) on the way."""
    from playwright.sync_api import sync_playwright

    boxes = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page()
        for file in files:
            page.goto(file.as_uri())
            if file in corners:
                old, new = corners[file]
                n, text = page.evaluate(RECOLOUR_CORNERS, [_rgb(old), new])
                assert n >= 2, (file, n)  # the two corner marks at least
                file.write_text(text)
            box = page.evaluate("() => { const b = document.getElementById('card').getBBox();"
                                " return [b.x, b.y, b.width, b.height]; }")
            boxes[file] = tuple(box)
        browser.close()
    return boxes


def build(carddecks: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="faces-"))
    pending: list[tuple[Path, Path]] = []
    corners: dict[Path, tuple[str, str]] = {}
    for deck, source in DECKS.items():
        root = ET.fromstring(gzip.decompress((carddecks / source).read_bytes()))
        names = {s + r: f"{RANKS[r]}_{SUITS[s]}" for s in SUITS for r in RANKS} | {"back": "back"}
        if deck == "german":  # the deck's own suit signs, for the page's small marks (told apart at 24 px)
            names |= {f"suit-{s}": sign for s, sign in GERMAN_SIGNS.items()}
        for name, card_id in names.items():
            text = ET.tostring(standalone(root, card_id), encoding="unicode")
            if deck == "german" and name == "back":
                continue  # XSkat's back carries the KDE logo: every deck takes the Paris back
            targets = [(deck, text)]
            if deck == "french" and not name.startswith("suit-"):
                targets.append(("four", text))
                if name == "back":
                    targets.append(("german", text))
            for target, body in targets:
                court = name[1:] in ("J", "Q", "K")
                if target == "four" and name[0] in FOUR_COLOURS and not court:
                    body = recolour_pips(body, FOUR_COLOURS[name[0]])
                tmp = work / target / f"{name}.svg"
                tmp.parent.mkdir(parents=True, exist_ok=True)
                tmp.write_text(body)
                if target == "four" and name[0] in FOUR_COLOURS and court:
                    corners[tmp] = FOUR_COLOURS[name[0]]
                pending.append((tmp, OUT / target / f"{name}.svg"))
    boxes = measure([tmp for tmp, _ in pending], corners)
    for tmp, out in pending:
        x, y, w, h = boxes[tmp]
        pad = 0.5
        text = tmp.read_text().replace(
            "<svg ", f'<svg viewBox="{x - pad:.2f} {y - pad:.2f} {w + 2 * pad:.2f} {h + 2 * pad:.2f}" ', 1)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text)
    print(f"wrote {len(pending)} faces under {OUT}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deb", type=Path, help="kdegames-card-data-kf5 .deb (else apt-get download)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="carddecks-"))
    deb = args.deb
    if deb is None:
        subprocess.run(["apt-get", "download", "kdegames-card-data-kf5"], cwd=work, check=True)
        deb = next(work.glob("kdegames-card-data-kf5_*.deb"))
    subprocess.run(["dpkg-deb", "-x", str(deb), str(work / "x")], check=True)
    build(work / "x" / "usr" / "share" / "carddecks")


if __name__ == "__main__":
    main()
