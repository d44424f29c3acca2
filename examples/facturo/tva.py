"""Taux de TVA et calculs HT / TTC.

Les taux sont ceux applicables en France métropolitaine. Les ventes à un client
professionnel assujetti établi dans un autre pays de l'Union européenne sont facturées
hors taxe (autoliquidation par le client).
"""

from decimal import ROUND_HALF_UP, Decimal

TAUX_NORMAL = Decimal("0.20")
TAUX_INTERMEDIAIRE = Decimal("0.10")
TAUX_REDUIT = Decimal("0.055")
TAUX_PARTICULIER = Decimal("0.021")
TAUX_NUL = Decimal("0")

TAUX_PAR_CATEGORIE = {
    "standard": TAUX_NORMAL,
    "reparation": TAUX_INTERMEDIAIRE,
    "livre": TAUX_REDUIT,
    "presse": TAUX_PARTICULIER,
}

PAYS_UNION_EUROPEENNE = frozenset(
    {"AT", "BE", "DE", "DK", "ES", "FI", "FR", "IE", "IT", "LU", "NL", "PL", "PT", "SE"}
)

CENTIME = Decimal("0.01")


class CategorieInconnue(ValueError):
    """La catégorie de TVA demandée n'existe pas dans ``TAUX_PAR_CATEGORIE``."""


def arrondir(montant: Decimal) -> Decimal:
    """Arrondit un montant au centime, à la demi-unité supérieure (règle comptable)."""
    return Decimal(montant).quantize(CENTIME, rounding=ROUND_HALF_UP)


def taux_tva(categorie: str = "standard", pays: str = "FR", assujetti: bool = False) -> Decimal:
    """Renvoie le taux de TVA à appliquer à une ligne de facture.

    Un client assujetti établi dans un autre pays de l'UE est facturé sans TVA
    (autoliquidation). Hors de l'UE, l'exportation est exonérée.
    """
    if categorie not in TAUX_PAR_CATEGORIE:
        raise CategorieInconnue(f"catégorie de TVA inconnue : {categorie!r}")
    pays = pays.upper()
    if pays != "FR":
        if pays not in PAYS_UNION_EUROPEENNE:
            return TAUX_NUL
        if assujetti:
            return TAUX_NUL
    return TAUX_PAR_CATEGORIE[categorie]


def montant_tva(montant_ht: Decimal, taux: Decimal) -> Decimal:
    """Montant de la TVA pour un montant hors taxe donné."""
    return arrondir(Decimal(montant_ht) * taux)


def montant_ttc(montant_ht: Decimal, taux: Decimal) -> Decimal:
    """Montant toutes taxes comprises : HT + TVA, chacun arrondi au centime."""
    return arrondir(montant_ht) + montant_tva(montant_ht, taux)


def montant_ht_depuis_ttc(montant: Decimal, taux: Decimal) -> Decimal:
    """Retrouve le montant HT à partir d'un prix TTC affiché en boutique."""
    return arrondir(Decimal(montant) / (1 + taux))
