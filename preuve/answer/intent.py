"""What a question asks for, read from its wording alone (French and English, no model):
a procedure ("how do I…", "comment installer…"), a reason ("why…", "pourquoi…"), a
definition ("what is…", "à quoi sert…"), a number ("how many…", "combien…"), a place ("where…",
"dans quel fichier…"), a name ("which tools…", "quelle option…"), a yes/no answer, or
something else.

The extractive answerer prefers sentences that carry what the kind asks for (a command after
a colon, a "because", a figure, a path); `--explain` shows the kind it read."""

from __future__ import annotations

import re

PROCEDURE, REASON, DEFINITION, AMOUNT, NUMBER, TIME, PLACE, NAME, YESNO, OTHER = (
    "procedure", "reason", "definition", "amount", "number", "time", "place", "name",
    "yesno", "other")
KINDS = (PROCEDURE, REASON, DEFINITION, AMOUNT, NUMBER, TIME, PLACE, NAME, YESNO, OTHER)

_I = re.I | re.U
# The kinds of thing a question asking for a name names ("which option…", "quelle
# commande…"): what is asked for, not its subject
_THINGS_EN = (r"tools?|programs?|utilit(y|ies)|commands?|packages?|options?|flags?|settings?|"
              r"functions?|methods?|modules?|librar(y|ies)|class(es)?|format|variables?|"
              r"fields?|keys?|headers?|parameters?|arguments?|attributes?|propert(y|ies)|"
              r"directives?|keywords?")
_THINGS_FR = (r"outils?|programmes?|utilitaires?|commandes?|paquets?|options?|paramètres?|"
              r"réglages?|fonctions?|méthodes?|modules?|bibliothèques?|classes?|format|"
              r"variables?|champs?|clés?|clefs?|en-têtes?|arguments?|attributs?|"
              r"propriétés?|directives?|mots-clés?")
THINGS = re.compile(rf"\b(?:{_THINGS_EN}|{_THINGS_FR})\b", _I)
# First match wins: "how many" is a number before "how" is a procedure, "what command" a
# procedure before "what is" a definition.
_ASKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (REASON, re.compile(r"^\W*(why|how come|for what reason|what is the reason|pourquoi|"
                        r"pour quelle raison|comment se fait-il|quelle est la raison)\b", _I)),
    # a sum of money: "how much are engineers paid…", "combien coûte…", "quel est le
    # montant…"
    # ("how much memory will it cost" asks a quantity of what is named, not money)
    (AMOUNT, re.compile(r"\bhow much\b(?! (memory|ram|disk|space|storage|time|cpu|bandwidth|"
                        r"power|energy|traffic|data)\b)"
                        r".*\b(cost|costs|charge|charged|earn|earns|worth|money|"
                        r"reimburs\w*|refund\w*)\b|\bhow much (do|does|did|will|would)\b.*"
                        r"\bpay\b|\bhow much (is|are|am|was|were|will|would)\b.*\bpaid\b|"
                        r"\b(what|which) (is|are) the (price|cost|fee|fees|salary|wage|"
                        r"allowance|amount)\b|\bcombien (co[uû]te\w*|(est|sont) (pay|rembours)"
                        r"\w*|pai\w*|touche\w*|gagne\w*|rembours\w*)\b|\bcombien d['’](argent|"
                        r"euros?)\b|\bquel(le)?s? (est|sont) (le |la |les )?(montant|prix|"
                        r"co[uû]t|tarif|salaire)s?\b", _I)),
    # ("what's the longest name…", "what is the maximum length…", "quel est le plus gros…": a
    # superlative of a measure; "the biggest difference" is none)
    (NUMBER, re.compile(r"\b(how (many|much|long|often|big|old|fast|large|high|hot)|combien|"
                        r"(what|which)('s| is| are| was| were)? the (default )?(maximum|minimum|"
                        r"max|min|longest|shortest|largest|smallest|highest|lowest|biggest|"
                        r"greatest)"
                        r"(?!-| (difference|problem|issue|advantage|benefit|drawback|risk|"
                        r"change|mistake|reason|challenge|limitation|thing|deal)s?\b)|"
                        r"quel(le)?s? (est|sont) (le |la |les |l['’])?(\w+ )?plus "
                        r"(grand|gros|petit|long|court|lourd|haut|bas)(e|s|es)?\b|"
                        r"quel(le)?s? (est|sont) (le |la |les |l['’])?\w+ (maximale?s?|"
                        r"minimale?s?|maximum|minimum)|"
                        r"(what|which)(('s| is| are| was| were) the)? (default )?(percentage|"
                        r"size|number|version|voltage|frequency|"
                        r"temperature|speed|resolution|bandwidth|length|width|height|weight|"
                        r"amperage|period|precision|timeout|delay|interval|depth|range)"
                        r"(?! (options?|flags?|settings?|parameters?|arguments?|"
                        r"fields?|columns?|keys?)\b)|"
                        r"(quel(le)?s? (est |sont )?|c['’]est quoi )(le |la |les )?(nombre|"
                        r"montant|taille|durée|délai|pourcentage|version|prix|numéro|tension|"
                        r"fréquence|température|vitesse|résolution|puissance|intensité|débit|"
                        r"longueur|largeur|hauteur|poids|profondeur|période|précision|"
                        r"intervalle|plage)|"
                        # a port is a number: "which TCP port does it listen on?"
                        r"(what|which|on which|on what) ((tcp|udp|default|network) )?ports?\b|"
                        r"(quel|sur quel) ((numéro de|n° de) )?port( tcp| udp)?\b)\b", _I)),
    # "when do I have to…", "when should I…", "when am I supposed to…", "quand faut-il…" ask
    # in which case, not a date
    (TIME, re.compile(r"^\W*((when(?! (do|does|should|must|can|could|would|shall|need|am i|"
                      r"are (?:you|we)|is it (?:ok|okay|safe|fine|better|best|necessary|"
                      r"needed|required|useful))\b)|quand"
                      r"(?! (dois|doit|doivent|faut|peut|peux|devrais|devrait|faudrait)\b|"
                      r" est-ce (que|qu['’]) ?(je|j['’]|il faut|on|tu)\b))|since when|"
                      r"depuis quand|((in|on|at|en|à|a|au|depuis|"
                      r"since|from|until|jusqu['’]à) )?(what|which|quel(le)?) (year|date|day|"
                      r"time|année|jour|heure)|à quelle (date|heure))\b", _I)),
    (PLACE, re.compile(r"^\W*(where|où|d['’]où|par où|in which (file|directory|folder|"
                       r"section)|which (file|directory|folder)|dans quel(le)?s? (fichier|"
                       r"répertoire|dossier|section)|quel(le)?s? (fichier|répertoire|"
                       r"dossier))\b|"
                       # asked last, after its subject ("Le nom de la machine, il est lu dans
                       # quel fichier ?", "…is read from which file?")
                       r"\b(dans|depuis|in|from|into) (quel(le)?s?|which|what) (fichier|"
                       r"répertoire|dossier|file|directory|folder)\W*$", _I)),
    (PROCEDURE, re.compile(r"(\bhow (do|can|should|would|could|does|did) (i|you|we|one)\b|"
                           r"\bhow to\b|\b(what|which)( is the)?( \w+)? command (should|do|must|"
                           r"can|to)\b|\b(what|which)(['’]s the| is the)? command|"
                           r"\bquelle commande|"
                           r"\bcomment (?!se fait|s['’]appell|se nomm|on appelle)|"
                           r"\b(que (dois-je|faut-il|doit-on)|qu['’]est-ce (que|qu['’]) ?(je dois|"
                           r"il faut|on doit|je peux|on peut)) (faire|mettre|ajouter|écrire|"
                           r"taper|lancer|passer|modifier|changer|configurer|installer|"
                           r"utiliser)|"
                           # "Qu'est-ce que je mets dans la config ?", "qu'est-ce que
                           # j'ajoute…": what to write or run, asked in the first person
                           r"\bqu['’]est-ce (que|qu['’]) ?(je |j['’]|on )(mets|fais|tape|"
                           r"écris|ajoute|lance|change|modifie|configure|règle|installe|"
                           r"utilise|active|passe)\b|"
                           # "What do I put in ~/.zshrc…?": what to write or run
                           r"\bwhat (do|should|must|can|would) (i|we|you|one) (put|add|write|"
                           r"type|run|enter|pass|change|edit|set|configure|install|execute|"
                           r"call|invoke|launch)\b|"
                           r"\bwhat (am i supposed to|should i|must i|do i have to|do i need "
                           r"to) do\b|"
                           r"\bsteps? (to|for)\b|\bétapes\b|\bla marche à suivre|"
                           r"\b(what|which)('s| is)? the (best |easiest |right |simplest |"
                           r"quickest )?(way|tool|program) to\b|\bavec quel(le)? (outil|"
                           r"commande|programme)|\bquel(le)? (outil|programme) (pour|permet))",
                           _I)),
    # the name of a tool, an option, a package, a function: what to type or look for
    (NAME, re.compile(rf"\b(which|what)( \w+)? ({_THINGS_EN})\b|\bquel(le)?s? "
                      rf"(\w+ )?({_THINGS_FR})\b|"
                      # "Il y a une commande pour ça ?", "is there an option for that?"
                      r"\b(il y a|y a-t-il|existe-t-il|is there|are there) (une?|des|an?|any|"
                      r"some) (\w+ )?(commandes?|options?|outils?|fonctions?|réglages?|"
                      r"paramètres?|variables?|commands?|flags?|tools?|functions?|settings?)\b",
                      _I)),
    # ("qu'est-ce qu'il manque", "qu'est-ce que je vois": a person acts, nothing is defined)
    (DEFINITION, re.compile(r"^\W*(what('s| is| are| was| does| do)\b|qu['’]est-ce (que|qu['’])"
                            r"(?! ?(je|j['’]|tu|il|elle|on|nous|vous|ils|elles)\b)|"
                            r"c['’]est quoi|(à|a) quoi (sert|servent)|que (fait|font|signifie|"
                            r"veut dire)|define\b|définition|explain\b|expliquez?\b)|"
                            # its subject first: "dpkg-name, ça sert à quoi ?", "et ce
                            # fichier, c'est quoi ?"
                            r",\s*(ça|ca|cela|ce truc|il|elle)\s+(sert|sers|fait)\s+(à|a)?\s*"
                            r"quoi\b|\b(sert|servent)\s+(à|a)\s+quoi\b|,\s*c['’]est quoi\b", _I)),
    (YESNO, re.compile(r"^\W*(is|are|can|could|do|does|did|should|will|would|may|must|has|have|"
                       r"est-ce|peut-on|puis-je|dois-je|faut-il|y a-t-il|existe-t-il|"
                       r"\w+-t-(il|elle|on)|\w+-(je|tu|il|elle|on|nous|vous|ils|elles))\b|"
                       # its subject first: "le répertoire personnel est-il créé ?", "mes
                       # fichiers seront-ils écrasés ?" (no word that asks comes before)
                       r"^\W*((?!(comment|pourquoi|quel\w*|lequel|laquelle|lesquel\w*|où|"
                       r"combien|quand|qui|que|qu['’]\w*|à|a)\b)[\w'’]+\s+){1,5}"
                       r"\w+-(t-)?(il|elle|on|ils|elles)\b", _I)),
)

# What a sentence carries, for each kind it can serve.
_CARRIES: dict[str, re.Pattern[str]] = {
    REASON: re.compile(r"\b(because|since|due to|as a result|the reason|so that|caused by|"
                       r"this means|that is why|which means|cannot|can['’]t|parce (que|qu['’])|"
                       r"for (this|that) reason|(this|which|that['’]s) (is )?why|"
                       r"pour (cette|cela|ces) raisons?|raisons? pour laquelle|voilà pourquoi|"
                       r"c['’]est la raison|ce qui explique|"
                       r"car|puisque|en raison|à cause|afin|c['’]est pourquoi|ce qui signifie|"
                       r"ne peut pas|ne peuvent pas|comes? from|named after|vient d[eu']|"
                       r"nommée? d['’]après|doit son nom|in order to|so as to|"
                       # a means and what it brings: "By doing the upgrade in two steps, we
                       # ease the job of…", "En procédant ainsi, on évite…"
                       r"^\W*by \w+ing\b[^,.;]*,\s*(we|you|it|this|they|one)|"
                       r"^\W*en \w+ant\b[^,.;]*,\s*(on|nous|vous|il|elle|cela|ceci))\b", _I),
    # ("one" as a figure only before a unit: "one of", "no one", "one primary location" count
    # nothing)
    # A figure stands alone: not a section's number ("Section 5.3.2"), nor part of a name
    # or a setting ("ext2", "sda1", "lowmem=1"); "780MB", "3.11", "2,5 %" are figures, and so
    # are a release's and an address's dotted parts ("version 14.0.0", "to 10.0.0.1")
    # (nor a manual page's section: "getaddrinfo(3)", "fork(2)"; nor a release series,
    # "Apache 2.x", nor a reference's index, "master@{2}", nor a kind of value, "a 2-tuple")
    # (a release the text dates from is no quantity: "Since 3.4, Unix domain sockets…";
    # "since 3 days" is one)
    NUMBER: re.compile(r"(?<![\w=/.:#{-])(?<!section )(?<!chapter )(?<!chapitre )(?<!§ )(?<!\w\()"
                       r"(?!(?<=since )\d+\.\d|(?<=depuis )\d+\.\d)"
                       r"\d+(?:[.,]\d+)?(?![.,]?\d|[=/_-]?[^\W\d_]*\d|\.x\b|-tuples?\b)|"
                       # (in three or four dotted parts after a word, not a section's number
                       # opening a heading: "3.1.13 Cela reste confus pour moi.")
                       r"(?<=[^\W\d_] )(?<!section )(?<!chapter )(?<!chapitre )(?<!since )"
                       r"(?<!depuis )\d+\.\d+\.\d+(?:\.\d+)?(?![\w-]|\.\d)|"
                       r"\bone (day|week|month|year|hour|minute|second|time|byte|per|or two)s?\b|"
                       # a count of one: "At most one handler will be executed", "un seul"
                       r"\b(at most|at least|only|exactly|no more than|more than|just) one\b|"
                       r"\b(une? seule?|au plus une?|au moins une?|une? et une? seule?)\b|"
                       # ("the two values", "les deux fichiers" point back: no figure)
                       r"(?<!\bthe )(?<!\bles )(?<!\bces )(?<!\bthese )(?<!\bthose )"
                       r"\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                       r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|"
                       r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|"
                       r"hundred|thousand|million|twice|dozen|half|"
                       r"deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize|"
                       r"quatorze|quinze|seize|vingt|trente|quarante|cinquante|soixante|"
                       r"cent|cents|mille|million|douzaine|"
                       r"dizaine|moitié)\b|"
                       # a count given by the machine's: "Defaults to the number of CPUs"
                       # (not "a small number of cores": no count of them)
                       r"(?<!small )(?<!large )(?<!great )(?<!high )(?<!low )(?<!certain )"
                       r"\b(number of (available |online )?(cpus?|cpu cores|cores|processors|"
                       r"hardware threads)|nombre de (processeurs|c(œ|oe)urs|cpu)|as many (\w+ )?"
                       r"as (there are )?(cpus?|cores|processors))\b|"
                       # no bound is a quantity too: "the queue size is infinite"
                       r"\b(infinite|unlimited|unbounded|no (upper )?limit|infinie?s?|"
                       r"illimitée?s?|sans limite|aucune limite)\b|"
                       # a rate answers "how often": "on an hourly basis", "quotidiennement"
                       r"\b(hourly|daily|nightly|weekly|monthly|yearly|annually|"
                       r"quotidien(ne)?(ment)?|hebdomadaire(ment)?|mensuel(le)?(ment)?)\b|"
                       # ... and so does "every hour", "once a day", "toutes les heures"
                       r"\b((every|each|once an?|twice an?|once per|per) (minute|hour|day|"
                       r"night|week|month|year)|(toutes les|chaque|une fois par) (minutes?|"
                       r"heures?|nuits?|semaines?|années?)|(tous les|chaque|une fois par) "
                       r"(jours?|soirs?|matins?|mois|ans))\b|"
                       # ... "toutes les deux secondes" (where "les deux" points back)
                       r"\b(?:toutes|tous) les (?:deux|trois|quatre|cinq|six|dix|quinze|vingt|"
                       r"trente) (?:secondes|minutes|heures|jours|semaines|mois|ans)\b|"
                       # ... and a span said in words answers "how long": "only last for the
                       # duration of the current database session"
                       r"\b(for the (whole |entire )?(duration|lifetime|life) of|for as long "
                       r"as|pendant (toute )?la durée d|durant toute la durée d|jusqu['’]à la "
                       r"fin d)", _I),
    # a date: a year, a month, a day of the week, or a time of day
    # ("may" is a month only as "May 2" or "2 May": "this may be given" is no date; a
    # duration, "after 30 days", says when as well)
    TIME: re.compile(r"\b(1[5-9]\d\d|20\d\d)\b|(?-i:\bMay\b)(?= \d)|(?<=\d )(?-i:May\b)|"
                     r"\b\d+(?:[.,]\d+)? ?(?:seconds?|minutes?|hours?|days?|weeks?|months?|"
                     r"years?|secondes?|heures?|jours?|semaines?|mois|ans|années?)\b|"
                     r"\b(january|february|march|april|june|july|"
                     r"august|september|october|november|december|janvier|février|mars|avril|"
                     r"mai|juin|juillet|août|septembre|octobre|novembre|décembre|monday|"
                     r"tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|"
                     r"jeudi|vendredi|samedi|dimanche|daily|weekly|monthly|yearly|"
                     r"quotidien\w*|hebdomadaire\w*|mensuel\w*|annuel\w*)\b|\d{1,2}[:h]\d\d|"
                     r"\b(le|the|on)\s+\d{1,2}(er|st|nd|rd|th)?\b|\b\d{1,2}(st|nd|rd|th)\b",
                     _I),
    PLACE: re.compile(r"(?:^|[\s(«\"'`])(?:/|~/|\./|\$\{?[A-Z_]+\}?/)[\w.-]|\b[\w-]+\.(?:conf|py|"
                      r"txt|html?|cfg|list|ini|ya?ml|json|sh|deb|gz|toml|log|out)\b|https?://|"
                      r"\b(in|under|dans|sous) "
                      r"(the |le |la |les )?(file|directory|folder|fichier|répertoire|dossier)\b",
                      _I),
    PROCEDURE: re.compile(r"(\b(run|type|execute|use|invoke|install|enter|call|exécutez|lancez|"
                          r"tapez|utilisez|saisissez|installez|invoquez|appelez)\b|`|(?:^|\s)\$ |"
                          r"(?:^|\s)--?[a-z]|:$)", _I),
    # a sum: a figure with its currency ("150 €", "€15", "2,60 euros", "$20")
    AMOUNT: re.compile(r"\d[\d\s  .,]*\s?(€|euros?\b|eur\b|\$|usd\b|£|chf\b)|"
                       r"[€$£]\s?\d", _I),
    # a command, an option, a variable or a function as written: `dput(1)`, `--purge`,
    # `$DEBEMAIL`, `APT::Periodic::AutocleanInterval`, `os.path.splitext`, `code`
    NAME: re.compile(r"`|\b[\w.-]+\(\d\)|(?:^|\s)--?[a-z]|\$\w|\b[a-z]\w*(?:[_.]|::)\w{2,}|"
                     r"\b[a-z]+[A-Z]\w*|\b[A-Z]\w*::\w|\b[A-Z][A-Z_]{3,}\b"),
    DEFINITION: re.compile(r"\b(is|are|means|refers to|stands for|provides|contains|creates|"
                           r"allows|lets you|est|sont|désigne|signifie|permet|permettent|sert|"
                           r"servent|contient|fournit|crée)\b", _I),
}


# "what is a soft limit in quotas?", "c'est quoi une limite soft pour les quotas ?",
# "qu'est-ce que le fichier debian/control ?": the term asked about, up to the words that
# place it ("in", "pour", "de la"...)
_DEFINED = re.compile(r"^\W*(?:what(?:['’]s| is| are)|qu['’]est-ce (?:que|qu['’])|c['’]est quoi)"
                      r"\s*(?:(?:an|a|the|une|un|les|le|la|des|du)\s+|l['’])?"
                      r"(?P<term>.+?)(?=\s+(?:in|on|for|of|with|when|used|dans|pour|sur|avec|"
                      r"en|exactement|exactly|au juste)\b|\s*[?.!,;:]|$)", _I)


# ... or the state it asks the meaning of: "what does it mean when people say a datetime
# object is naive?", "qu'est-ce que ça veut dire quand un paquet est orphelin ?"
_DEFINED_STATE = re.compile(r"^\W*(?:what does it mean|qu['’]est-ce que (?:ça|cela) veut dire|"
                            r"que veut dire|ça veut dire quoi)\s+(?:when|if|that|quand|si|"
                            r"qu['’]|que)\b.*?\s(?:is|are|to be|gets?|est|sont|soit|être)\s+"
                            r"(?P<term>[^\W\d_][\w-]*)\W*$", _I)


def defined_term(question: str) -> str:
    """The term a definition question asks about ("limite soft" for "C'est quoi une
    limite soft pour les quotas disque ?"), '' when none is found."""
    match = _DEFINED_STATE.match(question) or _DEFINED.match(question)
    return match.group("term").strip(" \"'«»“”`") if match else ""


# Context a user gives before asking: the sentences before the question ("We pay by the
# minute. How do I…?") and a clause that sets the scene ("When I sponsor a package, why…?",
# "Si je crée une file sans taille, combien…?"): the kind is read from what is left first
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[\"'«¿¡]?[A-ZÀ-Ý])")
_SCENE_CLAUSE = re.compile(r"^\W*(when|whenever|if|once|after|before|while|since|"
                           r"quand|lorsqu['’]?\w*|si|s['’]il|s['’]ils|une fois|après|avant|"
                           r"pendant)\b[^,?]*,\s*(?=\S)", _I)


# "Je copie une image disque avec dd et ça prend une éternité : comment voir où en est la
# copie ?": a scene of a few words, then a colon and what is asked ("Docker: how do I…?"
# names its subject, not a scene); a dash likewise ("vim feels laggy inside tmux — how
# long…"), and a comma before the words that ask how, why or whether ("my log file keeps
# the old messages, how do I…", not "…a file, which is open?")
_SCENE_COLON = re.compile(r"\s*(?:[:;]|\s[—–-])\s+(?=(?:how|what|which|where|why|when|is there|"
                          r"can i|comment|que|quel(?:le)?s?|où|pourquoi|quand|est-ce|y a-t-il|"
                          r"peut-on|puis-je|dois-je|faut-il)\b)|"
                          r",\s+(?=(?:how (?:do|can|should|could) (?:i|you|we)|how come|why|"
                          r"what should|is there|can i|comment|pourquoi|est-ce que|y a-t-il|"
                          r"peut-on|puis-je|dois-je|faut-il|que faire)\b)", _I)
SCENE_WORDS = 5


def asking_sentence(question: str) -> str:
    """The last sentence that asks (ends with "?"; else the last sentence), whole: its
    "if my program ends with os._exit()…," is part of what it asks; after a scene of
    SCENE_WORDS words or more and a colon, what follows the colon."""
    text = " ".join(question.split())
    sentences = _SENTENCE_END.split(text)
    asking = [s for s in sentences if s.rstrip().endswith("?")] or sentences
    last = asking[-1]
    parts = _SCENE_COLON.split(last, maxsplit=1)
    if len(parts) == 2 and len(parts[0].split()) >= SCENE_WORDS:
        last = parts[1]
    return last.rstrip(" ?!.…") or text


def asked_after_scene(question: str) -> str:
    """The asking sentence when sentences come before it ("On my machine… How can I make
    it use sudo instead?"), else ""."""
    asking = asking_sentence(question)
    return "" if asking == " ".join(question.split()).rstrip(" ?!.…") else asking


def asked_part(question: str) -> str:
    """The words that ask, without the context around them: the asking sentence without
    a leading "when/if/quand/si …," clause."""
    last = asking_sentence(question)
    return _SCENE_CLAUSE.sub("", last) or last


def sets_scene(question: str) -> bool:
    """The question gives context before what it asks (sentences, a "when/if …,"
    clause): its asked part is not the whole of it."""
    return asked_part(question) != " ".join(question.split()).rstrip(" ?!.…")


_HOW_TO = re.compile(r"^\W*(how (do|can|should|could) (i|you|we|one)|comment (puis-je|peut-on|"
                     r"faire pour|dois-je|je peux|on peut|faut-il|je|on|savoir|voir|conna[iî]tre|"
                     r"afficher|obtenir|trouver|v[ée]rifier|regarder)(?!\w)|comment j['’])", _I)


# "Quelle colonne dois-je regarder pour savoir combien de mémoire…", "which option shows
# how many…": the question asks for the thing named first, the number is what it shows
_THING_FIRST = re.compile(r"\b(?:quel(?:le)?s?|which|what)\s+(?!(?:is|are|was|were|est|sont|"
                          r"do|does|did|can|should)\b)\w+", _I)


# "Can I cap how fast it sends data?", "limiter combien de…": the figure is what the user
# wants to act on, and the question asks how
# ("how does it decide how many loops to run?" asks the rule, a figure)
_ACTS_ON = re.compile(r"\b(?:cap|limit|restrict|throttle|reduce|lower|raise|increase|set|"
                      r"change|control|adjust|configure|specify|slow down|limiter|réduire|"
                      r"régler|changer|contrôler|augmenter|diminuer|fixer|plafonner|brider)"
                      r"\s+$", _I)


def _number_behind_a_thing(text: str, pattern: re.Pattern[str]) -> bool:
    match = pattern.search(text)
    return bool(match and (_THING_FIRST.search(text[:match.start()])
                           or _ACTS_ON.search(text[:match.start()])))


# "what's the default port?", "c'est quoi la branche par défaut ?": the value a setting
# takes, no definition ("what is a default route?" is one)
_DEFAULT_VALUE = re.compile(r"^\W*(?:what(?:['’]s| is| are) the default\b|(?:c['’]est quoi|"
                            r"qu['’]est-ce (?:que|qu['’])) ?(?:le|la|les|l['’]) ?\S+(?: \S+)? "
                            r"par défaut\b)", _I)


def question_kind(question: str) -> str:
    """One of KINDS: what `question` asks for, from its wording: from the words that ask
    (`asked_part`), then from the whole question by the patterns that look anywhere in it
    ("how many", "comment"), not those that read its first words (the context's "Quand
    j'ajoute un masque…, … . Lequel garde…?" asks no date)."""
    text = " ".join(question.split())
    asked = asked_part(text)
    for kind, pattern in _ASKS:
        if pattern.search(asked):
            if (kind == NUMBER and _number_behind_a_thing(asked, pattern)) \
                    or (kind == DEFINITION and _DEFAULT_VALUE.match(asked)):
                continue
            # "How can I make psql display how long each statement takes?": a way to do
            # it, not a figure
            return PROCEDURE if kind == NUMBER and _HOW_TO.match(asked) else kind
    context = sets_scene(text)
    for kind, pattern in _ASKS:
        if (not context or not pattern.pattern.startswith("^")) and pattern.search(text) \
                and not (kind == NUMBER and _number_behind_a_thing(text, pattern)) \
                and not (kind == DEFINITION and _DEFAULT_VALUE.match(text)):
            return kind
    return OTHER


# Kinds whose answer must hold what they ask for (a figure, a date): a quote without one
# answers something else, and the answer is refused
MUST_CARRY = (AMOUNT, NUMBER, TIME)


def carries(kind: str, sentence: str) -> bool:
    """Whether `sentence` holds the sort of thing a question of `kind` asks for."""
    pattern = _CARRIES.get(kind)
    return bool(pattern and pattern.search(sentence))
