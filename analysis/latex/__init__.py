"""The LaTeX draft: projects, includes, citations, structure, abstract and the claims it makes."""
