"""Interface text of the web page, in French and English, and the language of a request."""

LANGS = ("fr", "en")

TEXT = {
    "en": {
        "title": "preuve — answers with evidence",
        "tagline": "Answers from your documents, every claim cited and checked.",
        "key": "API key", "save": "Save", "forget_key": "Forget",
        "key_saved": "Key saved", "no_key": "No key: enter one to ask",
        "anonymous": "Anonymous access (public)",
        "question": "Your question", "ask": "Ask", "compare": "Compare methods",
        "method": "Method", "default": "default",
        "answer": "Answer", "sources": "Sources", "score": "score",
        "refused": "No answer: the documents you may read do not support one.",
        "reason": "Reason", "thinking": "Searching…", "error": "Error",
        "passage": "Cited passage", "close": "Close",
        "no_vectors": "This index has no vectors (keyword search only): dense and "
                      "hybrid are not available.",
        "no_results": "no results", "language": "Français", "other_lang": "fr",
        "verified": "verified citations",
    },
    "fr": {
        "title": "preuve — des réponses avec leurs preuves",
        "tagline": "Des réponses tirées de vos documents, chaque affirmation citée et "
                   "vérifiée.",
        "key": "Clé d'API", "save": "Enregistrer", "forget_key": "Oublier",
        "key_saved": "Clé enregistrée", "no_key": "Pas de clé : saisissez-en une",
        "anonymous": "Accès anonyme (public)",
        "question": "Votre question", "ask": "Demander", "compare": "Comparer les méthodes",
        "method": "Méthode", "default": "par défaut",
        "answer": "Réponse", "sources": "Sources", "score": "score",
        "refused": "Pas de réponse : les documents que vous pouvez lire n'en appuient "
                   "aucune.",
        "reason": "Motif", "thinking": "Recherche…", "error": "Erreur",
        "passage": "Passage cité", "close": "Fermer",
        "no_vectors": "Cet index n'a pas de vecteurs (recherche par mots-clés "
                      "seulement) : dense et hybride ne sont pas disponibles.",
        "no_results": "aucun résultat", "language": "English", "other_lang": "en",
        "verified": "citations vérifiées",
    },
}


def language(request) -> str:
    """`?lang=`, else the `preuve_lang` cookie, else Accept-Language; English by default."""
    asked = request.query_params.get("lang") or request.cookies.get("preuve_lang")
    if asked in LANGS:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"
