"""The tournaments floor: tournaments driving their tables."""
