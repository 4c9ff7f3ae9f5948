"""The event report's figures and SVG charts, as pure functions of plain records."""
