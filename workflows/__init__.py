"""The application layer: each use case written once, called by both front ends (LSP and CLI)."""
