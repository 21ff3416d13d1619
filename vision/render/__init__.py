"""The renderer: card decks, training scenes and whole table videos with their truth.

Never imported by inference. :mod:`vision.render.decks` (aisleriot) and
:mod:`~vision.render.kdedecks` render Debian's SVG decks, :mod:`~vision.render.fontcards`
draws procedural decks, :mod:`~vision.render.textures` tables; :mod:`~vision.render.synth`
makes the classifier's training samples, :mod:`~vision.render.scene` table scenes with exact
outlines for detection tests; :mod:`~vision.render.handstage` stages lawful hands and
:mod:`~vision.render.tablevideo` films them being played; :mod:`~vision.render.deckreader`
reads a rendered deck by heart (checks the pipeline apart from the classifier).
"""
