"""Regenerate the binary files of the sample corpus (examples/handbook/).

    python examples/build_examples.py [--check]

Writes, deterministically (same bytes on every run, given the same fpdf2, python-docx
and font file):

- handbook/teletravail.pdf         French telework policy, 5 pages, printed page labels
                                   "i" (cover) then "1".."4"; the PDF page index is the
                                   label + 1 for pages 2-5.
- handbook/teletravail.pdf.meta.yaml
- handbook/expenses.docx           English travel and expense policy (Heading 1/2 styles)
- handbook/expenses.docx.meta.yaml

All the text lives in this script. The other files of the corpus (Markdown, HTML, text,
the `facturo` package) are plain text and are edited directly.

With --check, nothing is written: the script exits 1 if a regenerated file differs from
the one on disk.

Needs fpdf2 >= 2.8 and python-docx >= 1.1 (both in the project's dev dependencies). The
PDF uses DejaVu Sans when it is installed (full accents, including the French "oe"
ligature); otherwise it falls back to the core Helvetica font, which only covers latin-1,
so the ligature is then spelt out.
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
HANDBOOK = HERE / "handbook"

FIXED_DATE = dt.datetime(2025, 3, 1, 9, 0, 0, tzinfo=dt.UTC)

# --------------------------------------------------------------------------------------
# teletravail.pdf
# --------------------------------------------------------------------------------------

PDF_TITLE = "Politique de télétravail"
PDF_FOOTER = "Lucarne SAS - Politique de télétravail - version 2.1"

# Each page: list of blocks. ("h1", text) section title, ("h2", text) sub-title,
# ("p", text) paragraph, ("li", text) list item.
PDF_COVER = [
    ("title", "Lucarne SAS"),
    ("subtitle", PDF_TITLE),
    ("p", "Accord d'entreprise relatif au télétravail - version 2.1"),
    ("p", "En vigueur à compter du 1er mars 2025"),
    ("h1", "Préambule"),
    (
        "p",
        "Le travail hybride est au cœur de l'organisation de Lucarne depuis 2021. Ce document "
        "met en œuvre l'accord signé avec le comité social et économique (CSE) le 12 février "
        "2025. Il fixe un cadre commun, pour que chacun sache ce qui est possible, ce qui est "
        "pris en charge et à qui s'adresser. Il remplace la charte de télétravail de 2022.",
    ),
    ("h1", "Sommaire"),
    ("toc", "1. Objet et champ d'application|1"),
    ("toc", "2. Éligibilité|1"),
    ("toc", "3. Organisation du travail à distance|1"),
    ("toc", "4. Équipement fourni|2"),
    ("toc", "5. Frais et indemnités|2"),
    ("toc", "6. Sécurité des données|3"),
    ("toc", "7. Santé, horaires et droit à la déconnexion|3"),
    ("toc", "8. Assurance et accident du travail|4"),
    ("toc", "9. Télétravail depuis l'étranger|4"),
    ("toc", "10. Réversibilité et contacts|4"),
]

PDF_PAGES = [
    # page index 2, label "1"
    [
        ("h1", "1. Objet et champ d'application"),
        (
            "p",
            "La présente politique définit les conditions dans lesquelles les salariés de "
            "Lucarne peuvent exercer leur activité depuis leur domicile ou un tiers-lieu. Elle "
            "s'applique à tous les salariés en CDI et en CDD, à temps plein ou à temps partiel, "
            "ainsi qu'aux alternants à partir de leur troisième mois. Les stagiaires en sont "
            "exclus, sauf accord écrit de leur tuteur.",
        ),
        ("h1", "2. Éligibilité"),
        (
            "p",
            "Le télétravail est ouvert aux postes dont les tâches peuvent être réalisées à "
            "distance. Les postes de l'atelier de montage et de l'entrepôt d'expédition, qui "
            "exigent une présence physique, n'y sont pas éligibles ; leurs titulaires "
            "bénéficient en contrepartie d'une journée de récupération supplémentaire par "
            "trimestre.",
        ),
        (
            "p",
            "Aucun télétravail n'est possible pendant le premier mois qui suit l'embauche : "
            "cette période est consacrée à l'intégration sur site, aux côtés de l'équipe.",
        ),
        ("h1", "3. Organisation du travail à distance"),
        ("h2", "3.1 Nombre de jours"),
        (
            "p",
            "Chaque salarié éligible peut télétravailler jusqu'à 2 jours par semaine. Ces "
            "2 jours de télétravail par semaine ne sont pas reportables d'une semaine sur "
            "l'autre et ne peuvent pas être cumulés en fin de mois. Pour un salarié à temps "
            "partiel (80 % ou moins), la limite est d'un jour par semaine.",
        ),
        ("h2", "3.2 Journée d'équipe"),
        (
            "p",
            "Le mardi est la journée d'équipe : tout le monde est présent au bureau de Nantes, "
            "sauf déplacement professionnel ou absence autorisée. Aucun jour de télétravail ne "
            "peut donc être posé le mardi.",
        ),
        ("h2", "3.3 Planification"),
        (
            "p",
            "Les jours de télétravail sont déclarés dans l'outil Horaire au plus tard le "
            "vendredi précédent. Un changement ponctuel reste possible avec un délai de "
            "prévenance de 48 heures, sauf urgence. Le responsable peut demander la présence "
            "d'un salarié sur site pour une réunion importante, en respectant le même délai.",
        ),
        ("h2", "3.4 Lieu de travail"),
        (
            "p",
            "Le télétravail s'exerce au domicile déclaré ou dans un espace de coworking situé "
            "en France. Un café, une gare ou un train ne sont pas des lieux de télétravail "
            "habituels.",
        ),
    ],
    # page index 3, label "2"
    [
        ("h1", "4. Équipement fourni"),
        (
            "p",
            "Lucarne fournit à chaque télétravailleur un ordinateur portable et un casque avec "
            "micro, ainsi que, sur demande, un écran de 24 pouces, un clavier et une souris. Ce "
            "matériel reste la propriété de l'entreprise et doit être restitué au départ du "
            "salarié.",
        ),
        (
            "p",
            "En cas de panne, le salarié contacte le support informatique, qui organise un "
            "échange sous 3 jours ouvrés ; un ordinateur de prêt peut être retiré au bureau le "
            "jour même.",
        ),
        (
            "p",
            "Un fauteuil ergonomique peut être remboursé sur justificatif jusqu'à 150 €, une "
            "fois tous les cinq ans.",
        ),
        ("h1", "5. Frais et indemnités"),
        ("h2", "5.1 Indemnité forfaitaire"),
        (
            "p",
            "Chaque jour de télétravail donne droit à une indemnité forfaitaire de 2,60 €, "
            "plafonnée à 26 € par mois. Elle est versée automatiquement avec le salaire du mois "
            "suivant, à partir des jours déclarés dans Horaire ; aucun justificatif n'est "
            "demandé.",
        ),
        ("h2", "5.2 Connexion internet"),
        (
            "p",
            "La connexion internet personnelle reste à la charge du salarié : l'indemnité "
            "forfaitaire est réputée la couvrir. Si le débit est insuffisant (moins de "
            "10 Mbit/s), le salarié peut demander une clé 4G professionnelle.",
        ),
        ("h2", "5.3 Frais non remboursés"),
        (
            "p",
            "Le chauffage, l'électricité et l'assurance habitation ne donnent lieu à aucun "
            "remboursement complémentaire. Les repas pris à domicile un jour de télétravail "
            "ouvrent droit au titre-restaurant dans les mêmes conditions qu'au bureau.",
        ),
    ],
    # page index 4, label "3"
    [
        ("h1", "6. Sécurité des données"),
        (
            "p",
            "Le salarié applique à domicile les mêmes règles de sécurité qu'au bureau. En "
            "particulier :",
        ),
        ("li", "la connexion au réseau de l'entreprise passe obligatoirement par le VPN ;"),
        ("li", "l'écran est verrouillé à chaque absence, même brève ;"),
        ("li", "les documents papier confidentiels ne sortent pas des locaux ;"),
        (
            "li",
            "les appels portant sur des informations sensibles se tiennent à l'abri des "
            "oreilles et du coup d'œil de tiers.",
        ),
        (
            "p",
            "L'utilisation d'un réseau wifi public sans VPN est interdite. Tout incident "
            "(perte, vol, message suspect) est signalé sans délai au support informatique.",
        ),
        ("h1", "7. Santé, horaires et droit à la déconnexion"),
        ("h2", "7.1 Plages de joignabilité"),
        (
            "p",
            "Le télétravailleur est joignable de 9 h 30 à 12 h et de 14 h à 16 h 30. En dehors "
            "de ces plages, il organise librement ses horaires, dans le respect des durées "
            "maximales de travail et des temps de repos.",
        ),
        ("h2", "7.2 Droit à la déconnexion"),
        (
            "p",
            "Aucun message n'est envoyé ni attendu entre 20 h et 8 h, ni le week-end. Les "
            "outils de messagerie proposent un envoi différé : utilisez-le. Il ne peut être "
            "reproché à personne de ne pas répondre en dehors de ces horaires.",
        ),
        ("h2", "7.3 Ergonomie du poste"),
        (
            "p",
            "Un poste de travail adapté (écran à hauteur des yeux, lumière naturelle latérale, "
            "pauses régulières) est recommandé. Chaque année, le médecin du travail anime un "
            "atelier d'ergonomie ouvert à tous.",
        ),
    ],
    # page index 5, label "4"
    [
        ("h1", "8. Assurance et accident du travail"),
        (
            "p",
            "Un accident survenu au domicile pendant les heures de télétravail est présumé être "
            "un accident du travail. Le salarié le déclare à son responsable et aux RH dans les "
            "24 heures.",
        ),
        (
            "p",
            "Le salarié informe son assureur habitation de son activité de télétravail et "
            "transmet une attestation aux RH lors de sa première demande.",
        ),
        ("h1", "9. Télétravail depuis l'étranger"),
        (
            "p",
            "Le télétravail depuis l'étranger est limité à 10 jours par année civile, et "
            "uniquement depuis un pays de l'Union européenne ou la Suisse. Chaque séjour doit "
            "être validé par les RH au moins 3 semaines à l'avance, afin de vérifier les règles "
            "de sécurité sociale applicables. Le télétravail depuis un pays situé hors de "
            "l'Union européenne n'est pas autorisé.",
        ),
        ("h1", "10. Réversibilité et contacts"),
        (
            "p",
            "Le salarié comme l'entreprise peuvent mettre fin au télétravail régulier avec un "
            "préavis d'un mois. Pendant les 3 premiers mois (période d'adaptation), ce préavis "
            "est réduit à une semaine.",
        ),
        (
            "p",
            "Questions : rh@lucarne.example. Référente télétravail : Maëlle Kergoat, équipe "
            "RH. Support informatique : poste 4000.",
        ),
    ],
]

PDF_META = """\
id: teletravail
title: Politique de télétravail
language: fr
access: public
version: "2.1"
effective_from: 2025-03-01
"""

DEJAVU_DIRS = [
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/share/fonts/dejavu"),
    Path("/Library/Fonts"),
]


def _find_dejavu() -> tuple[Path, Path] | None:
    for d in DEJAVU_DIRS:
        regular, bold = d / "DejaVuSans.ttf", d / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return regular, bold
    return None


def build_pdf() -> bytes:
    from fpdf import FPDF

    fonts = _find_dejavu()

    class TeleworkPDF(FPDF):
        def footer(self) -> None:
            self.set_y(-15)
            self.set_font(family, "", 8)
            label = "i" if self.page_no() == 1 else str(self.page_no() - 1)
            self.cell(0, 5, fix(PDF_FOOTER), align="L")
            self.set_x(self.l_margin)
            self.cell(0, 5, label, align="R")

    pdf = TeleworkPDF(format="A4")
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title(PDF_TITLE)
    pdf.set_author("Lucarne SAS - ressources humaines")
    pdf.set_lang("fr-FR")
    pdf.set_margins(22, 20, 22)
    pdf.set_auto_page_break(True, margin=22)

    if fonts:
        family = "DejaVu"
        pdf.add_font(family, "", str(fonts[0]))
        pdf.add_font(family, "B", str(fonts[1]))

        def fix(s: str) -> str:
            return s

    else:  # core font: latin-1 only
        family = "Helvetica"

        def fix(s: str) -> str:
            return s.replace("œ", "oe").replace("€", "EUR")

    def render(blocks) -> None:
        for kind, text in blocks:
            if kind == "title":
                pdf.ln(30)
                pdf.set_font(family, "B", 24)
                pdf.multi_cell(0, 12, fix(text), align="C", new_x="LMARGIN", new_y="NEXT")
            elif kind == "subtitle":
                pdf.set_font(family, "B", 18)
                pdf.multi_cell(0, 10, fix(text), align="C", new_x="LMARGIN", new_y="NEXT")
                pdf.ln(6)
            elif kind == "h1":
                pdf.ln(4)
                pdf.set_font(family, "B", 13)
                pdf.multi_cell(0, 7, fix(text), new_x="LMARGIN", new_y="NEXT")
                pdf.ln(1)
            elif kind == "h2":
                pdf.ln(1)
                pdf.set_font(family, "B", 11)
                pdf.multi_cell(0, 6, fix(text), new_x="LMARGIN", new_y="NEXT")
            elif kind == "p":
                pdf.set_font(family, "", 10.5)
                pdf.multi_cell(0, 5.5, fix(text), new_x="LMARGIN", new_y="NEXT")
                pdf.ln(2)
            elif kind == "li":
                pdf.set_font(family, "", 10.5)
                pdf.set_x(pdf.l_margin + 6)
                pdf.multi_cell(0, 5.5, fix("- " + text), new_x="LMARGIN", new_y="NEXT")
                pdf.ln(0.5)
            elif kind == "toc":
                title, page = text.split("|")
                pdf.set_font(family, "", 10.5)
                pdf.cell(140, 6, fix(title))
                pdf.cell(0, 6, page, align="R", new_x="LMARGIN", new_y="NEXT")
            else:
                raise ValueError(kind)

    pdf.add_page()
    pdf.set_page_label("r")  # i, ii, ... (only one front page)
    render(PDF_COVER)
    for i, page in enumerate(PDF_PAGES):
        pdf.add_page()
        if i == 0:
            pdf.set_page_label("D", label_start=1)  # 1, 2, 3, 4
        render(page)
        if pdf.page_no() != i + 2:
            raise RuntimeError(f"page {i + 2} overflowed onto a new page; shorten its text")
    # fpdf2's default /ID is a hash of the document, so it is reproducible too.
    return bytes(pdf.output())


# --------------------------------------------------------------------------------------
# expenses.docx
# --------------------------------------------------------------------------------------

DOCX_TITLE = "Travel and expense policy"

# ("title"|"h1"|"h2"|"p"|"li", text)
DOCX_BLOCKS = [
    ("title", DOCX_TITLE),
    (
        "p",
        "This policy explains which costs Lucarne pays when you travel or spend money on its "
        "behalf, and how to claim them back. It applies to all employees and interns. Home-to-"
        "office commuting is covered by the mobility policy, and home-office costs by the "
        "telework policy; neither is an expense claim.",
    ),
    ("h1", "1. Principles"),
    (
        "p",
        "Spend company money as you would spend your own: choose the cheapest option that "
        "lets you work properly, book early, and ask your manager before any unusual cost. "
        "Every trip must be approved by your manager in the expense tool before it is booked.",
    ),
    ("h1", "2. Travel"),
    ("h2", "2.1 Trains"),
    (
        "p",
        "The train is the default for journeys within France and to neighbouring countries. "
        "Travel in second class; first class is allowed when the journey lasts more than "
        "three hours each way. Tickets are booked through the travel desk, which holds "
        "flexible fares.",
    ),
    ("h2", "2.2 Flights"),
    (
        "p",
        "Flying is only allowed when the same journey by train takes more than five hours. "
        "Book economy class, with one checked bag when you carry demonstration lamps.",
    ),
    ("h2", "2.3 Car and mileage"),
    (
        "p",
        "When you use your own car for a business trip, the distance is paid at the official "
        "French mileage rates for your car's rated power. Tolls and parking are reimbursed on "
        "receipts. Traffic and parking fines are never reimbursed.",
    ),
    ("h2", "2.4 Accommodation"),
    (
        "p",
        "Hotel rooms are capped per night, breakfast included: 130 euros in Paris, 95 euros "
        "in other French cities and 150 euros abroad. If a trade fair makes prices jump, ask "
        "the travel desk for an exception before booking.",
    ),
    ("h1", "3. Meals"),
    ("h2", "3.1 Meals while travelling"),
    (
        "p",
        "Lunch and dinner on a business trip are reimbursed up to 22 euros per meal. Alcohol "
        "is not reimbursed, except wine at a client meal. Breakfast is only reimbursed when it "
        "is not included in the hotel price.",
    ),
    ("h2", "3.2 Client meals"),
    (
        "p",
        "Meals with customers, suppliers or candidates are reimbursed up to 45 euros per "
        "person. Write the names and companies of all guests on the claim.",
    ),
    ("h1", "4. Submitting a claim"),
    ("h2", "4.1 Deadline"),
    (
        "p",
        "Enter your expenses in the expense tool by the 10th of the following month. Claims "
        "for expenses more than three months old are refused, except for long trips approved "
        "in advance.",
    ),
    ("h2", "4.2 Receipts"),
    (
        "p",
        "A clear photo of each receipt is enough; you do not need to keep the paper original. "
        "If a receipt is lost, fill in the missing-receipt form, accepted up to 25 euros per "
        "claim.",
    ),
    ("h2", "4.3 Reimbursement"),
    (
        "p",
        "Claims approved by your manager before the 20th are paid with that month's salary; "
        "later ones are paid the following month.",
    ),
    ("h1", "5. Company payment card"),
    (
        "p",
        "Employees who travel more than four times a month may ask for a company payment "
        "card, with a monthly limit of 2,000 euros. Card expenses still need a receipt in the "
        "expense tool.",
    ),
    ("h1", "6. What is never reimbursed"),
    ("li", "minibar, pay-TV and personal entertainment;"),
    ("li", "upgrades to a higher class of travel or hotel room;"),
    ("li", "costs of a partner or family member travelling with you;"),
    ("li", "loss or theft of personal belongings during a trip."),
]

DOCX_META = """\
id: expenses
title: Travel and expense policy
language: en
access: public
version: "2025.2"
effective_from: 2025-07-01
"""

ZIP_DATE = (1980, 1, 1, 0, 0, 0)


def _normalise_zip(data: bytes) -> bytes:
    """Rewrite a zip (docx) with fixed timestamps so that its bytes are reproducible."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=ZIP_DATE)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            dst.writestr(zi, src.read(info.filename))
    return out.getvalue()


def build_docx() -> bytes:
    import docx

    document = docx.Document()
    props = document.core_properties
    props.title = DOCX_TITLE
    props.author = "Lucarne SAS - finance"
    props.last_modified_by = "Lucarne SAS - finance"
    props.language = "en-GB"
    props.revision = 1
    naive = FIXED_DATE.replace(tzinfo=None)
    props.created = naive
    props.modified = naive
    props.last_printed = naive
    props.comments = ""
    props.keywords = "expenses, travel"

    for kind, text in DOCX_BLOCKS:
        if kind == "title":
            document.add_heading(text, level=0)
        elif kind == "h1":
            document.add_heading(text, level=1)
        elif kind == "h2":
            document.add_heading(text, level=2)
        elif kind == "p":
            document.add_paragraph(text)
        elif kind == "li":
            document.add_paragraph(text, style="List Bullet")
        else:
            raise ValueError(kind)

    buf = io.BytesIO()
    document.save(buf)
    return _normalise_zip(buf.getvalue())


# --------------------------------------------------------------------------------------


def outputs() -> dict[Path, bytes]:
    return {
        HANDBOOK / "teletravail.pdf": build_pdf(),
        HANDBOOK / "teletravail.pdf.meta.yaml": PDF_META.encode("utf-8"),
        HANDBOOK / "expenses.docx": build_docx(),
        HANDBOOK / "expenses.docx.meta.yaml": DOCX_META.encode("utf-8"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare with files on disk")
    args = parser.parse_args(argv)
    stale = []
    for path, data in outputs().items():
        rel = path.relative_to(HERE)
        if args.check:
            if not path.is_file() or path.read_bytes() != data:
                stale.append(rel)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {rel} ({len(data):,} bytes)")
    if stale:
        print("out of date: " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
