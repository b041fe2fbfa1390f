"""A game's view drawn as SVG: the board of the web pages and of the learning interface's frames.

`ludoteca.drawing.svg` turns a `ludoteca.core.view.Drawing` into SVG markup and
`ludoteca.drawing.styles` makes the style sheet of the colours each game declares. Both depend
only on `ludoteca.core`, so the web pages (`ludoteca.web`) and the renderer of the learning
environments (`ludoteca.rl.rendering`) share them without one importing the other.
"""
