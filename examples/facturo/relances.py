"""Relances de paiement des factures échues.

Une facture impayée est relancée 7, 15 puis 30 jours après son échéance : d'abord un
courriel aimable, puis une relance ferme, enfin une mise en demeure qui mentionne les
pénalités de retard et l'indemnité forfaitaire de recouvrement.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from .modeles import Facture
from .tva import arrondir

PALIERS_RELANCE = (7, 15, 30)  # jours après l'échéance

MODELES_COURRIEL = {
    7: "relance_aimable",
    15: "relance_ferme",
    30: "mise_en_demeure",
}

TAUX_PENALITES_ANNUEL = Decimal("0.12")
INDEMNITE_FORFAITAIRE_RECOUVREMENT = Decimal("40.00")


@dataclass(frozen=True)
class Relance:
    """Une relance prévue pour une facture à une date donnée."""

    numero_facture: str
    date_envoi: date
    palier: int
    modele: str


def factures_en_retard(factures: Iterable[Facture], aujourd_hui: date) -> list[Facture]:
    """Factures non payées dont l'échéance est dépassée, la plus ancienne en premier."""
    en_retard = [f for f in factures if f.jours_de_retard(aujourd_hui) > 0]
    return sorted(en_retard, key=lambda f: f.echeance)


def planifier_relances(
    facture: Facture, paliers: tuple[int, ...] = PALIERS_RELANCE
) -> list[Relance]:
    """Calendrier complet des relances d'une facture, calculé depuis son échéance."""
    if facture.est_payee:
        return []
    return [
        Relance(
            numero_facture=facture.numero,
            date_envoi=facture.echeance + timedelta(days=palier),
            palier=palier,
            modele=MODELES_COURRIEL.get(palier, "relance_ferme"),
        )
        for palier in sorted(paliers)
    ]


def relances_du_jour(factures: Iterable[Facture], aujourd_hui: date) -> list[Relance]:
    """Relances à envoyer aujourd'hui, pour le traitement quotidien de 8 h."""
    a_envoyer = []
    for facture in factures_en_retard(factures, aujourd_hui):
        for relance in planifier_relances(facture):
            if relance.date_envoi == aujourd_hui:
                a_envoyer.append(relance)
    return a_envoyer


def penalites_de_retard(facture: Facture, aujourd_hui: date) -> Decimal:
    """Pénalités dues sur une facture professionnelle impayée.

    Intérêts au taux annuel ``TAUX_PENALITES_ANNUEL`` sur le montant TTC, au prorata des
    jours de retard, plus l'indemnité forfaitaire de 40 € due dès le premier jour.
    """
    jours = facture.jours_de_retard(aujourd_hui)
    if jours == 0 or not facture.client.est_professionnel:
        return Decimal("0.00")
    interets = facture.total_ttc * TAUX_PENALITES_ANNUEL * jours / 365
    return arrondir(interets) + INDEMNITE_FORFAITAIRE_RECOUVREMENT
