"""Export du journal des ventes au format CSV pour le cabinet comptable.

Le cabinet importe un fichier par mois, séparé par des points-virgules, encodé en UTF-8
avec BOM pour que le tableur l'ouvre correctement, montants avec une virgule décimale.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from pathlib import Path

from .modeles import Facture

SEPARATEUR = ";"
ENCODAGE = "utf-8-sig"
COLONNES = (
    "numero",
    "date",
    "client",
    "pays",
    "total_ht",
    "total_tva",
    "total_ttc",
    "payee",
)


def formater_montant(montant: Decimal) -> str:
    """1234.5 -> '1234,50' : virgule décimale, deux chiffres après la virgule."""
    return f"{montant:.2f}".replace(".", ",")


def ligne_journal(facture: Facture) -> dict[str, str]:
    """Une ligne du journal des ventes pour une facture."""
    return {
        "numero": facture.numero,
        "date": facture.date_emission.isoformat(),
        "client": facture.client.raison_sociale,
        "pays": facture.client.pays,
        "total_ht": formater_montant(facture.total_ht),
        "total_tva": formater_montant(facture.total_tva),
        "total_ttc": formater_montant(facture.total_ttc),
        "payee": "oui" if facture.est_payee else "non",
    }


def exporter_journal_ventes(
    factures: Iterable[Facture], chemin: Path, mois: date | None = None
) -> int:
    """Écrit le journal des ventes dans ``chemin`` et renvoie le nombre de factures.

    Si ``mois`` est donné, seules les factures émises ce mois-là sont exportées.
    """
    retenues = [
        f
        for f in factures
        if mois is None or (f.date_emission.year, f.date_emission.month) == (mois.year, mois.month)
    ]
    retenues.sort(key=lambda f: f.numero)
    with chemin.open("w", encoding=ENCODAGE, newline="") as sortie:
        ecrivain = csv.DictWriter(sortie, fieldnames=COLONNES, delimiter=SEPARATEUR)
        ecrivain.writeheader()
        for facture in retenues:
            ecrivain.writerow(ligne_journal(facture))
    return len(retenues)
