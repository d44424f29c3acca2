"""Numérotation des factures.

Les numéros ont la forme ``FAC-AAAA-NNNN`` : le préfixe, l'année d'émission et un compteur
sur quatre chiffres. Le compteur repart de 1 au début de chaque année civile. La loi
impose une numérotation continue, sans trou : un numéro attribué n'est jamais réutilisé,
même si la facture est ensuite annulée (on émet alors un avoir).
"""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

PREFIXE = "FAC"
LARGEUR_COMPTEUR = 4
MOTIF_NUMERO = re.compile(r"^FAC-(\d{4})-(\d{4})$")


class NumeroInvalide(ValueError):
    """Le texte fourni n'est pas un numéro de facture au format FAC-AAAA-NNNN."""


class Numeroteur:
    """Attribue les numéros de facture, un compteur par année civile.

    L'état des compteurs peut être conservé dans un fichier JSON pour survivre à un
    redémarrage ; sans fichier, les compteurs vivent en mémoire.
    """

    def __init__(self, chemin_etat: Path | None = None) -> None:
        self.chemin_etat = chemin_etat
        self._compteurs: dict[int, int] = {}
        if chemin_etat is not None and chemin_etat.exists():
            self._charger()

    def _charger(self) -> None:
        brut = json.loads(self.chemin_etat.read_text(encoding="utf-8"))
        self._compteurs = {int(annee): int(n) for annee, n in brut.items()}

    def _sauvegarder(self) -> None:
        if self.chemin_etat is None:
            return
        contenu = json.dumps({str(a): n for a, n in sorted(self._compteurs.items())})
        temporaire = self.chemin_etat.with_suffix(".tmp")
        temporaire.write_text(contenu, encoding="utf-8")
        temporaire.replace(self.chemin_etat)

    def dernier_numero(self, annee: int) -> str | None:
        compteur = self._compteurs.get(annee, 0)
        return self.formater(annee, compteur) if compteur else None

    def prochain_numero(self, date_emission: date | None = None) -> str:
        """Réserve et renvoie le numéro suivant pour l'année de ``date_emission``."""
        annee = (date_emission or date.today()).year
        compteur = self._compteurs.get(annee, 0) + 1
        if compteur >= 10**LARGEUR_COMPTEUR:
            raise OverflowError(f"plus de numéros disponibles pour {annee}")
        self._compteurs[annee] = compteur
        self._sauvegarder()
        return self.formater(annee, compteur)

    @staticmethod
    def formater(annee: int, compteur: int) -> str:
        return f"{PREFIXE}-{annee:04d}-{compteur:0{LARGEUR_COMPTEUR}d}"

    @staticmethod
    def analyser(numero: str) -> tuple[int, int]:
        """Découpe ``FAC-2026-0042`` en ``(2026, 42)``."""
        correspondance = MOTIF_NUMERO.match(numero)
        if correspondance is None:
            raise NumeroInvalide(numero)
        return int(correspondance.group(1)), int(correspondance.group(2))


_numeroteur_par_defaut = Numeroteur()


def prochain_numero(date_emission: date | None = None) -> str:
    """Raccourci : numéro suivant du numéroteur en mémoire du processus."""
    return _numeroteur_par_defaut.prochain_numero(date_emission)
