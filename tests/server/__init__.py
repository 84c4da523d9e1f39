"""End-to-end tests of the language server."""
