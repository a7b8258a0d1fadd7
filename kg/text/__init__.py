"""Text rules every stage shares, one home each: word lists (``words``), name shapes (``names``),
acronym definitions (``acronyms``) and the normalised key of a surface form (``normalize``).

The lowest layer of kg after the records: it imports nothing of kg's stages, so extraction,
the concept stage and the analyses can all read it.
"""
