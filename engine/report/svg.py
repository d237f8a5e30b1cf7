"""Just enough SVG by hand for the report's charts: no plotting library is a dependency of genplan."""

from __future__ import annotations

from xml.sax.saxutils import escape


class Svg:
    """Just enough SVG: rectangles, lines, circles and text."""

    def __init__(self, width: float, height: float) -> None:
        self.width, self.height = width, height
        self.items: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **extra: str) -> None:
        self.items.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" fill="{fill}"{_attrs(extra)}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000", width: float = 1, **extra: str) -> None:
        self.items.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{stroke}" stroke-width="{width}"{_attrs(extra)}/>'
        )

    def circle(self, x: float, y: float, r: float, fill: str, **extra: str) -> None:
        self.items.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{fill}"{_attrs(extra)}/>')

    def text(self, x: float, y: float, content: str, size: int = 12, anchor: str = "start", **extra: str) -> None:
        self.items.append(
            f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{_attrs(extra)}>{escape(content)}</text>'
        )

    def render(self) -> str:
        body = "\n  ".join(self.items)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:.0f}" height="{self.height:.0f}" '
            f'viewBox="0 0 {self.width:.0f} {self.height:.0f}" font-family="sans-serif">\n'
            f'  <rect x="0" y="0" width="{self.width:.0f}" height="{self.height:.0f}" fill="#fff"/>\n  {body}\n</svg>\n'
        )


def _attrs(extra: dict[str, str]) -> str:
    return "".join(f' {key.replace("_", "-")}="{escape(str(value))}"' for key, value in extra.items())
