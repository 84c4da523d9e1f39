"""Checking a project: citations against its .bib files, and entries against an authority."""
