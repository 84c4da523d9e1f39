"""BibTeX: reading .bib files as biber does, entries, identities, caches and edits."""
