# -*- coding: utf-8 -*-
"""Localised messages. 🌍 Non-ASCII identifiers are legal Python 3 — and a good test. 🚀

Greetings are looked up by language code; unknown codes fall back to English.
"""

# Shown once when the development server starts. 🎉🎉
STARTUP_BANNER = "🚀 tinyserve läuft auf {host}:{port} — Strg+C beendet"

GRÜSSE = {
    "de": "Grüß Gott, {name}!",
    "en": "Hello, {name}!",
    "ja": "こんにちは、{name}さん！",
    "fr": "Bonjour, {name} ☕",
}


def grüße(name, sprache="en"):
    """Return the greeting for ``name`` in language ``sprache`` (falls back to English)."""
    vorlage = GRÜSSE.get(sprache, GRÜSSE["en"])
    return vorlage.format(name=name)


def größe_in_worten(anzahl_bytes):
    """Describe a byte count for humans: 'klein' below 1 KiB, 'mittel' below 1 MiB, else 'groß' 🐘."""
    if anzahl_bytes < 1024:
        return "klein"
    if anzahl_bytes < 1024 * 1024:
        return "mittel"
    return "groß"
