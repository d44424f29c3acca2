"""What a question asks for, read from its wording alone (French and English, no model):
a procedure ("how do I…", "comment installer…"), a reason ("why…", "pourquoi…"), a
definition ("what is…", "à quoi sert…"), a number ("how many…", "combien…"), a place ("where…",
"dans quel fichier…"), a yes/no answer, or something else.

The extractive answerer prefers sentences that carry what the kind asks for (a command after
a colon, a "because", a figure, a path); `--explain` shows the kind it read."""

from __future__ import annotations

import re

PROCEDURE, REASON, DEFINITION, NUMBER, PLACE, YESNO, OTHER = (
    "procedure", "reason", "definition", "number", "place", "yesno", "other")
KINDS = (PROCEDURE, REASON, DEFINITION, NUMBER, PLACE, YESNO, OTHER)

_I = re.I | re.U
# First match wins: "how many" is a number before "how" is a procedure, "what command" a
# procedure before "what is" a definition.
_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (REASON, re.compile(r"^\W*(why|how come|for what reason|what is the reason|pourquoi|"
                        r"pour quelle raison|comment se fait-il|quelle est la raison)\b", _I)),
    (NUMBER, re.compile(r"\b(how (many|much|long|often|big|old)|combien|what (percentage|size|"
                        r"number|version)|quel(le)?s? (est |sont )?(le |la |les )?(nombre|"
                        r"montant|taille|durée|délai|pourcentage|version|prix))\b", _I)),
    (PLACE, re.compile(r"^\W*(where|où|in which (file|directory|folder|section)|which (file|"
                       r"directory|folder)|dans quel(le)?s? (fichier|répertoire|dossier|"
                       r"section)|quel(le)?s? (fichier|répertoire|dossier))\b", _I)),
    (PROCEDURE, re.compile(r"(\bhow (do|can|should|would|could|does|did) (i|you|we|one)\b|"
                           r"\bhow to\b|\b(what|which)( is the)? command|\bquelle commande|"
                           r"\bcomment (?!se fait)|\bque (dois-je|faut-il|doit-on) faire|"
                           r"\bsteps? (to|for)\b|\bétapes\b|\bla marche à suivre|"
                           r"\b(what|which)('s| is)? the (best |easiest |right |simplest |"
                           r"quickest )?(way|tool|program) to\b|\bavec quel(le)? (outil|"
                           r"commande|programme)|\bquel(le)? (outil|programme) (pour|permet))",
                           _I)),
    (DEFINITION, re.compile(r"^\W*(what('s| is| are| was| does| do)\b|qu['’]est-ce (que|qu['’])|"
                            r"c['’]est quoi|(à|a) quoi (sert|servent)|que (fait|font|signifie|"
                            r"veut dire)|define\b|définition|explain\b|expliquez?\b)", _I)),
    (YESNO, re.compile(r"^\W*(is|are|can|could|do|does|did|should|will|would|may|must|has|have|"
                       r"est-ce|peut-on|puis-je|dois-je|faut-il|y a-t-il|existe-t-il|"
                       r"\w+-t-(il|elle|on)|\w+-(je|tu|il|elle|on|nous|vous|ils|elles))\b", _I)),
)

# What a sentence carries, for each kind it can serve.
_CARRIES: dict[str, re.Pattern[str]] = {
    REASON: re.compile(r"\b(because|since|due to|as a result|the reason|so that|caused by|"
                       r"this means|that is why|which means|cannot|can['’]t|parce (que|qu['’])|"
                       r"car|puisque|en raison|à cause|afin|c['’]est pourquoi|ce qui signifie|"
                       r"ne peut pas|ne peuvent pas)\b", _I),
    NUMBER: re.compile(r"\d"),
    PLACE: re.compile(r"(?:^|[\s(«\"'`])(?:/|~/|\./)[\w.-]|\b[\w-]+\.(?:conf|py|txt|html?|cfg|"
                      r"list|ini|ya?ml|json|sh|deb|gz|toml)\b|https?://|\b(in|under|dans|sous) "
                      r"(the |le |la |les )?(file|directory|folder|fichier|répertoire|dossier)\b",
                      _I),
    PROCEDURE: re.compile(r"(\b(run|type|execute|use|invoke|install|enter|call|exécutez|lancez|"
                          r"tapez|utilisez|saisissez|installez|invoquez|appelez)\b|`|\$ |"
                          r"\s--?[a-z]|:$)", _I),
    DEFINITION: re.compile(r"\b(is|are|means|refers to|stands for|provides|contains|creates|"
                           r"allows|lets you|est|sont|désigne|signifie|permet|permettent|sert|"
                           r"servent|contient|fournit|crée)\b", _I),
}


def question_kind(question: str) -> str:
    """One of KINDS: what `question` asks for, from its wording."""
    text = " ".join(question.split())
    for kind, pattern in _ASKS:
        if pattern.search(text):
            return kind
    return OTHER


def carries(kind: str, sentence: str) -> bool:
    """Whether `sentence` holds the sort of thing a question of `kind` asks for."""
    pattern = _CARRIES.get(kind)
    return bool(pattern and pattern.search(sentence))
