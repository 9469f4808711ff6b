"""Rigged Table: a tiny game whose balance is known, for the balance lab's tests."""
