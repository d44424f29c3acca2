"""Objets métier de la facturation : clients, factures et lignes de facture."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

from .tva import arrondir, montant_tva, taux_tva

DELAI_PAIEMENT_DEFAUT = 30  # jours, délai légal usuel entre professionnels


@dataclass
class Client:
    """Un client de Lucarne, particulier ou professionnel."""

    code: str
    raison_sociale: str
    email: str
    pays: str = "FR"
    assujetti_tva: bool = False
    delai_paiement_jours: int = DELAI_PAIEMENT_DEFAUT

    @property
    def est_professionnel(self) -> bool:
        return self.assujetti_tva


@dataclass
class LigneFacture:
    """Une ligne de facture : un article, une quantité, un prix unitaire hors taxe."""

    designation: str
    quantite: int
    prix_unitaire_ht: Decimal
    categorie_tva: str = "standard"
    remise: Decimal = Decimal("0")  # taux de remise, 0.10 pour 10 %

    def total_ht(self) -> Decimal:
        brut = self.prix_unitaire_ht * self.quantite
        return arrondir(brut * (1 - self.remise))

    def total_tva(self, client: Client) -> Decimal:
        taux = taux_tva(self.categorie_tva, client.pays, client.assujetti_tva)
        return montant_tva(self.total_ht(), taux)


@dataclass
class Facture:
    """Une facture émise, avec ses lignes et son éventuelle date de paiement."""

    numero: str
    client: Client
    date_emission: date
    lignes: list[LigneFacture] = field(default_factory=list)
    date_paiement: date | None = None

    def ajouter_ligne(self, ligne: LigneFacture) -> None:
        if self.est_payee:
            raise ValueError(f"la facture {self.numero} est déjà payée")
        self.lignes.append(ligne)

    @property
    def total_ht(self) -> Decimal:
        return sum((ligne.total_ht() for ligne in self.lignes), Decimal("0"))

    @property
    def total_tva(self) -> Decimal:
        return sum((ligne.total_tva(self.client) for ligne in self.lignes), Decimal("0"))

    @property
    def total_ttc(self) -> Decimal:
        """Montant à payer : total HT plus TVA, calculée ligne par ligne."""
        return self.total_ht + self.total_tva

    @property
    def echeance(self) -> date:
        return self.date_emission + timedelta(days=self.client.delai_paiement_jours)

    @property
    def est_payee(self) -> bool:
        return self.date_paiement is not None

    def marquer_payee(self, le: date) -> None:
        if le < self.date_emission:
            raise ValueError("un paiement ne peut précéder l'émission de la facture")
        self.date_paiement = le

    def jours_de_retard(self, aujourd_hui: date) -> int:
        """Nombre de jours écoulés depuis l'échéance (0 si payée ou pas encore échue)."""
        if self.est_payee:
            return 0
        return max(0, (aujourd_hui - self.echeance).days)

    @classmethod
    def depuis_dict(cls, donnees: dict, client: Client) -> Facture:
        """Reconstruit une facture à partir d'un export JSON de la boutique."""
        lignes = [
            LigneFacture(
                designation=ligne["designation"],
                quantite=int(ligne["quantite"]),
                prix_unitaire_ht=Decimal(str(ligne["prix_unitaire_ht"])),
                categorie_tva=ligne.get("categorie_tva", "standard"),
            )
            for ligne in donnees.get("lignes", [])
        ]
        paiement = donnees.get("date_paiement")
        return cls(
            numero=donnees["numero"],
            client=client,
            date_emission=date.fromisoformat(donnees["date_emission"]),
            lignes=lignes,
            date_paiement=date.fromisoformat(paiement) if paiement else None,
        )
