"""Claim support: judging whether a cited paper supports a sentence, and the evidence for it."""
