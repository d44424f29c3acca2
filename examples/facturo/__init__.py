"""Facturo : la facturation maison de Lucarne.

Ce paquet regroupe tout ce qu'il faut pour émettre et suivre les factures de la boutique
et des clients professionnels :

- ``modeles`` : les objets métier (client, facture, ligne de facture) ;
- ``numerotation`` : l'attribution des numéros FAC-AAAA-NNNN, sans trou ni doublon ;
- ``tva`` : les taux de TVA et les calculs HT / TTC ;
- ``relances`` : le calendrier des relances de paiement et les pénalités de retard ;
- ``export`` : l'export CSV du journal des ventes pour le cabinet comptable.

Les montants sont toujours des ``Decimal`` arrondis au centime, jamais des ``float``.
"""

from .modeles import Client, Facture, LigneFacture
from .numerotation import Numeroteur, prochain_numero
from .relances import PALIERS_RELANCE, factures_en_retard, planifier_relances
from .tva import montant_ttc, taux_tva

__version__ = "0.4.2"

__all__ = [
    "PALIERS_RELANCE",
    "Client",
    "Facture",
    "LigneFacture",
    "Numeroteur",
    "factures_en_retard",
    "montant_ttc",
    "planifier_relances",
    "prochain_numero",
    "taux_tva",
]
