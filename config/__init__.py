"""relatex's settings: one typed object, the bottom layer every other package may import."""
