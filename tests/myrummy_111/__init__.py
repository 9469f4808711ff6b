"""Tests of MyRummy 111; names cite the rules of shared/spec/myrummy-111.md."""
