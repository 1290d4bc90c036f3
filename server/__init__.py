"""Guildhall: a self-hosted server for rules-enforced Norenberc and Strasbourg."""
