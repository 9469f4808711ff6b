"""Tests of Marshmallow Test (rules, codec, properties, bot)."""
