"""The tokenizer shared by documents, code and questions (preuve.text)."""

from __future__ import annotations

import pytest

from preuve.text import detect_language, fold, query_terms, tokens


def test_snake_case_is_kept_whole_and_split():
    out = tokens("prochain_numero", "")
    assert "prochain_numero" in out
    assert "prochain" in out and "numero" in out
    upper = tokens("PALIERS_RELANCE", "")
    assert "paliers_relance" in upper and "paliers" in upper and "relance" in upper


@pytest.mark.parametrize(
    ("identifier", "parts"),
    [
        ("NumeroInvalide", ["numero", "invalide"]),
        ("prochainNumero", ["prochain", "numero"]),
        ("HTTPServer", ["http", "server"]),
        ("getHTTPResponse", ["get", "http", "response"]),
        ("parseXML2Json", ["parse", "xml", "json"]),
    ],
)
def test_camel_case_is_split(identifier, parts):
    out = tokens(identifier, "")
    for part in parts:
        assert part in out, (identifier, out)
    assert identifier.lower() in out  # the whole identifier stays findable


def test_lower_case_and_accents_removed():
    out = tokens("Numérotation ÉLÈVE Côté Noël", "")
    assert out == ["numerotation", "eleve", "cote", "noel"]
    assert fold("Ça Déménage") == "ca demenage"
    # accents removed after stemming too
    for token in tokens("Les congés payés et la sécurité des données", "fr"):
        assert token.isascii(), token


@pytest.mark.parametrize("apostrophe", ["'", "\u2019"])
def test_french_elisions_are_dropped(apostrophe):
    sentence = "l'entreprise d'accueil qu'elle jusqu'à l'atelier".replace("'", apostrophe)
    out = tokens(sentence, "fr")
    for elided in ("l", "d", "qu", "jusqu"):
        assert elided not in out, out
    assert not any(apostrophe in t or "'" in t for t in out)
    assert tokens("entreprise", "fr")[0] in out
    assert tokens("atelier", "fr")[0] in out
    assert tokens("accueil", "fr")[0] in out
    # the same word with and without its elided article gives the same token
    assert tokens(f"l{apostrophe}organisation", "fr") == tokens("organisation", "fr")


@pytest.mark.parametrize("code", ["LB-1", "PK-2200-07", "SH-20"])
def test_product_codes_are_kept_whole(code):
    out = tokens(f"Le kit {code}, livré avec la base.", "fr")
    assert code.lower() in out
    assert code.lower() in query_terms(code)
    assert code.lower() in query_terms(code.lower())  # typed in lower case


def test_codes_do_not_collide():
    assert "lb-1" not in tokens("LB-2 clamp base", "en")
    assert "pk-2200-07" not in tokens("PK-2200-05 wall kit", "en")


@pytest.mark.parametrize(
    ("language", "plural", "singular"),
    [
        ("fr", "factures", "facture"),
        ("fr", "remboursements", "remboursement"),
        ("fr", "congés", "congé"),
        ("fr", "numérotations", "numérotation"),
        ("en", "invoices", "invoice"),
        ("en", "policies", "policy"),
        ("en", "reminders", "reminder"),
    ],
)
def test_stemming_makes_plural_and_singular_meet(language, plural, singular):
    assert tokens(plural, language) == tokens(singular, language)
    assert len(tokens(plural, language)) == 1


def test_query_terms_cover_both_languages():
    for question in ["congés", "HTTPServer", "paliers de relance", "invoices"]:
        terms = set(query_terms(question))
        assert set(tokens(question, "fr")) <= terms
        assert set(tokens(question, "en")) <= terms
    # a word the two stemmers treat differently yields both stems
    assert tokens("congés", "fr") != tokens("congés", "en")
    # and both forms meet the document side: a French and an English document
    assert tokens("factures", "fr")[0] in query_terms("facture")
    assert tokens("invoices", "en")[0] in query_terms("invoice")


def test_query_terms_are_distinct_and_ordered():
    terms = query_terms("facture factures FACTURE")
    assert len(terms) == len(set(terms))
    assert terms[0] == tokens("facture", "fr")[0]


def test_stop_words_are_dropped():
    assert tokens("le la les des the of and", "fr") == []
    assert query_terms("où est la") == ()


def test_detect_language():
    assert detect_language("Les salariés peuvent poser des congés pour la fin de l'année.") == "fr"
    assert detect_language("The employees may take their leave at the end of the year.") == "en"
    assert detect_language("LB-1") == ""


def test_code_abbreviations_give_the_short_forms_code_writes():
    from preuve.text import code_abbreviations

    assert code_abbreviations("the arguments of the request") == "arg args req"
    assert set(code_abbreviations("Configuration directory").split()) == {
        "config", "cfg", "conf", "dir"}
    assert code_abbreviations("télétravail à l'étranger") == ""


@pytest.mark.parametrize("plural, word", [("PDFs", "pdf"), ("URLs", "url"), ("IDs", "id")])
def test_an_acronym_s_plural_is_one_word(plural, word):
    """"PDFs" was cut as CamelCase into "pd" and "fs", terms no passage about PDF holds."""
    assert tokens(plural, "en") == [word] and tokens(plural, "fr") == [word]


def test_a_short_option_is_a_term_as_written():
    """"what does grep -v do?": the letter alone is no word (dropped as too short), so the
    entry of `-v` could not be searched for. The option is a term of its own, its case
    kept (`-V` is grep's --version); a hyphen inside a word or a French inversion is
    none."""
    found = tokens("Use -v, or -V for the version; the e-mail x-y, peut-on, -1", "en")
    assert "-v" in found and "-V" in found
    assert not [t for t in found if t.startswith("-") and t not in ("-v", "-V")]
    assert "-v" in query_terms("What does grep -v do?")
    assert "-C" in query_terms("à quoi sert l'option -C de tar ?")
