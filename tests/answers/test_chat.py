"""Conversations (issue 4, `chat`): turns stored in the index's SQLite file and resumed by id
from another `Index` object or process; follow-ups made standalone before retrieval (by
carrying the previous question's key words over, by putting the follow-up's own action verb
in the previous question, or by the model when one is configured — a scripted
OpenAI-compatible server on 127.0.0.1); a conversation keeps its audience."""

from __future__ import annotations

import json

import pytest
from conftest import copy_index, rows, run_cli
from llm_server import ScriptedServer, chat_reply

from preuve import Index
from preuve.answer.conversation import carry_over
from preuve.answer.generators import OpenAIGenerator
from preuve.models import ASK_K
from preuve.text import fold

ALLOWANCE = "Quel est le montant de l'indemnité de télétravail ?"
CHAIR = "Et pour une chaise ?"
CHAIR_STANDALONE = "Et pour une chaise ? (montant indemnité télétravail)"
ARMCHAIR = "Et pour un fauteuil ?"
ARMCHAIR_STANDALONE = "Et pour un fauteuil ? (montant indemnité télétravail)"
TELEWORK = "Combien de jours de télétravail par semaine ?"
PAGE_3 = "handbook/teletravail.pdf p. 3"
PAGE_5 = "handbook/teletravail.pdf p. 5"


@pytest.fixture
def chat_index_path(e5_index_path, tmp_path):
    """A private copy of the e5 index (conversations write to it)."""
    return copy_index(e5_index_path, tmp_path / "chat.sqlite")


def labels(hits, n=5) -> list[str]:
    return [h.label for h in hits[:n]]


def test_follow_up_is_made_standalone_and_the_conversation_resumes_from_another_index(
        chat_index_path):
    with Index(chat_index_path, embedder="e5") as first:
        conversation, opening = first.chat(ALLOWANCE, audience="public")
        assert not opening.refused and "2,60 €" in opening.answer
        assert opening.standalone_question == ALLOWANCE
        # on its own, the follow-up retrieves nothing about the telework allowance (the
        # section on equipment, which names a chair, may come up: PDF chunks follow sections)
        alone = first.search(CHAIR, audience="public", k=ASK_K)
        assert not [h for h in alone if "2,60 €" in h.text or "Indemnité" in h.heading], \
            labels(alone)
    (stored,) = rows(chat_index_path, "SELECT * FROM conversations WHERE id = ?",
                     (conversation,))
    assert stored["audience"] == "public"

    with Index(chat_index_path) as second:  # a new object on the same file
        resumed, follow_up = second.chat(CHAIR, conversation=conversation, audience="public")
        assert resumed == conversation
        assert follow_up.standalone_question == CHAIR_STANDALONE
        assert follow_up.hits[0].label == PAGE_3, labels(follow_up.hits)
        assert not follow_up.refused
        assert PAGE_3 in {c["label"] for c in follow_up.citations}
        assert {c["path"] for c in follow_up.citations} == {"handbook/teletravail.pdf"}
        history = second.conversations.history(conversation, audience="public")
    assert [(m["role"], m["content"]) for m in history] == [
        ("user", ALLOWANCE), ("assistant", opening.answer),
        ("user", CHAIR), ("assistant", follow_up.answer)]
    assert [m["standalone"] for m in history if m["role"] == "user"] == [
        ALLOWANCE, CHAIR_STANDALONE]
    assert history[3]["data"]["refused"] is False
    assert history[3]["data"]["citations"][0]["label"] == PAGE_3


@pytest.mark.xfail(strict=True, reason="known miss: with PDF chunks per section, the terms "
                   "carried over from the allowance question (no model) outweigh 'chaise': the "
                   "answer quotes the 2,60 € allowance, not the 150 € chair of section 4")
def test_carried_over_follow_up_answers_the_new_subject(chat_index_path):
    with Index(chat_index_path, embedder="e5") as index:
        conversation, _ = index.chat(ALLOWANCE, audience="public")
        _, follow_up = index.chat(CHAIR, conversation=conversation, audience="public")
    assert "150 €" in follow_up.answer


def test_abroad_follow_up_after_a_telework_question(chat_index_path):
    with Index(chat_index_path, embedder="e5") as index:
        conversation, _ = index.chat(TELEWORK, audience="public")
        _, answer = index.chat("et à l'étranger ?", conversation=conversation,
                               audience="public")
    assert answer.standalone_question.startswith("et à l'étranger ? (")
    assert "télétravail" in answer.standalone_question
    assert PAGE_5 in labels(answer.hits, 3), labels(answer.hits)
    assert not answer.refused and "10 jours" in answer.answer, answer.explain
    assert PAGE_5 in {c["label"] for c in answer.citations}


def test_with_a_model_the_follow_up_is_rewritten_by_the_model_from_the_history(
        chat_index_path, corpus):
    # (a rewrite in the words of the question and the policy: "chaise ... à la maison"
    # sits at the default judgment's word-coverage threshold, where a list more or less
    # among the passages tips it into a refusal, which is not what this test is about)
    rewritten = "L'entreprise rembourse-t-elle une chaise de bureau pour le télétravail ?"
    reply = "Oui, jusqu'à 150 € [handbook/teletravail.pdf p. 3]."
    usage = {"prompt_tokens": 900, "completion_tokens": 15, "total_tokens": 915}
    with Index(chat_index_path, embedder="e5") as index:
        conversation, opening = index.chat(ALLOWANCE, audience="public")  # extractive
        script = [chat_reply(rewritten + "\n", usage={"prompt_tokens": 120,
                                                      "completion_tokens": 20,
                                                      "total_tokens": 140}),
                  chat_reply(reply, usage=usage)]
        with ScriptedServer(script) as server:
            generator = OpenAIGenerator(server.base_url, "test-model", timeout=10,
                                        max_retries=0)
            _, answer = index.chat(CHAIR, conversation=conversation, audience="public",
                                   generator=generator)
        history = index.conversations.history(conversation, audience="public")
        by_rewrite = index.search(rewritten, audience="public", k=ASK_K)
        by_carry_over = index.search(CHAIR_STANDALONE, audience="public", k=ASK_K)
    rewrite_request, answer_request = server.requests
    # the rewrite call saw the whole history and the follow-up
    rewrite_prompt = rewrite_request.body["messages"][-1]["content"]
    assert f"user: {ALLOWANCE}" in rewrite_prompt
    assert f"assistant: {opening.answer}" in rewrite_prompt
    assert rewrite_prompt.rstrip().endswith(f"user: {CHAIR}")
    assert "Rewrite" in rewrite_request.body["messages"][0]["content"]
    # retrieval used the model's standalone question: exactly its hits, not those the
    # key-word carry-over (used without a model) would give, and the page with the answer
    # among the first three. Not "first": on its hybrid ranking page 3 ties in RRF with
    # handbook/mobilite.md:16-20 (BM25 rank 4 + dense rank 1 against 1 + 4), whose dense
    # rank hangs on a 0.0004 cosine gap that int8 inference moves across CPUs.
    assert answer.standalone_question == rewritten
    assert [h.chunk_id for h in answer.hits] == [h.chunk_id for h in by_rewrite]
    assert [h.chunk_id for h in answer.hits] != [h.chunk_id for h in by_carry_over]
    assert PAGE_3 in labels(answer.hits, 3), labels(answer.hits)
    # the answer call got the earlier turns as chat history, then the passages
    messages = answer_request.body["messages"]
    assert [(m["role"], m["content"]) for m in messages[1:3]] == [
        ("user", ALLOWANCE), ("assistant", opening.answer)]
    assert f"--- {PAGE_3}" in messages[-1]["content"]
    assert messages[-1]["content"].rstrip().endswith(f"Question: {CHAIR}")
    # shown with its link; both calls accounted for
    link = (corpus / "handbook" / "teletravail.pdf").as_uri() + "#page=3"
    assert not answer.refused and answer.answer == \
        f"Oui, jusqu'à 150 € [{PAGE_3} (printed 2)]({link})."
    stages = answer.usage["calls"]
    assert stages[0]["stage"] == "rewrite" and stages[0]["prompt_tokens"] == 120
    assert len(stages) == 2 and answer.usage["tokens_in"] == 900
    assert history[2]["standalone"] == rewritten


# ---------------------------------------------------- a follow-up with its own action verb
# Two documents each: installing and removing a .deb package (dpkg -i, dpkg -r / apt
# remove), and cleaning the downloaded archives (apt clean / aptitude clean). "et pour le
# supprimer ?" after installing a downloaded .deb asks how to remove the package, not how
# to delete what was downloaded.

DEB_DOCS = {
    "fr": {
        "paquets-deb.md": """---
language: fr
---
# Paquets .deb

## Installer un paquet .deb téléchargé

Pour installer un paquet .deb téléchargé depuis le site d'un éditeur, lancez
`sudo dpkg -i fichier.deb`, puis `sudo apt -f install` pour ajouter les dépendances qui
manquent.

## Supprimer un paquet

Pour supprimer un paquet installé, lancez `sudo apt remove nom-du-paquet` ou
`sudo dpkg -r nom-du-paquet`. Avec `apt purge`, ses fichiers de configuration sont
supprimés aussi.
""",
        "archives.md": """---
language: fr
---
# Nettoyer le cache d'apt

Les paquets .deb téléchargés par apt restent dans `/var/cache/apt/archives`. Pour
supprimer ces archives téléchargées et libérer de la place, lancez `sudo apt clean` ou
`sudo aptitude clean` ; `apt autoclean` ne supprime que les archives des versions
périmées.
""",
    },
    "en": {
        "deb-packages.md": """---
language: en
---
# .deb packages

## Installing a downloaded .deb package

To install a .deb package downloaded from a vendor's site, run `sudo dpkg -i file.deb`,
then `sudo apt -f install` to add the missing dependencies.

## Removing a package

To remove an installed package, run `sudo apt remove package-name` or
`sudo dpkg -r package-name`. With `apt purge`, its configuration files are removed too.
""",
        "archives.md": """---
language: en
---
# Cleaning apt's cache

The .deb packages apt downloads stay in `/var/cache/apt/archives`. To delete these
downloaded archives and free disk space, run `sudo apt clean` or `sudo aptitude clean`;
`apt autoclean` only removes the archives of outdated versions.
""",
    },
}
DEB_TURNS = {  # opening, follow-up, words the standalone question must and must not hold
    "fr": ("Comment installer un paquet .deb téléchargé ?", "et pour le supprimer ?",
           ("paquet", ".deb", "supprimer"), ("installer", "telecharge")),
    "en": ("How do I install a downloaded .deb package?", "and to remove it?",
           ("package", ".deb", "remove"), ("install", "download")),
}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_follow_up_with_its_own_verb_asks_it_of_the_previous_subject(
        fresh_index, tmp_path, language):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DEB_DOCS[language].items():
        (docs / name).write_text(text, encoding="utf-8")
    opening_question, follow_up_question, wanted, unwanted = DEB_TURNS[language]
    with Index(fresh_index, embedder="e5") as index:
        assert index.ingest([docs]).ok
        conversation, opening = index.chat(opening_question)
        _, follow_up = index.chat(follow_up_question, conversation=conversation)
    assert not opening.refused and "dpkg -i" in opening.answer
    standalone = fold(follow_up.standalone_question)
    for word in wanted:
        assert word in standalone, follow_up.standalone_question
    for word in unwanted:
        assert word not in standalone, follow_up.standalone_question
    # the answer is the removal passage, not the installation nor the archive cleaning
    (removal,) = [h for h in follow_up.hits if "dpkg -r" in h.text]
    assert follow_up.hits[0].chunk_id == removal.chunk_id, labels(follow_up.hits)
    assert not follow_up.refused, follow_up.reason
    assert {c["chunk_id"] for c in follow_up.citations} == {removal.chunk_id}
    assert "dpkg -r" in follow_up.answer and "clean" not in follow_up.answer
    assert "dpkg -i" not in follow_up.answer


DEB = "Comment installer un paquet .deb téléchargé ?"


@pytest.mark.parametrize("previous, follow_up, standalone", [
    # the follow-up's verb replaces the previous one; its pronoun is the previous subject;
    # "téléchargé" / "downloaded" / "new" went with the old action and are dropped
    (DEB, "et pour le supprimer ?", "Comment supprimer un paquet .deb ?"),
    ("How do I install a package?", "and to remove it?", "How do I remove a package?"),
    ("How do I install a downloaded package?", "what about removing it?",
     "How do I remove a package?"),
    (DEB, "et pour le mettre à jour ?", "Comment mettre à jour un paquet .deb ?"),
    ("Comment créer un nouvel utilisateur ?", "et pour le supprimer ?",
     "Comment supprimer un utilisateur ?"),
    ("How do I create a new account?", "and to delete it?", "How do I delete an account?"),
    ("How to install a package on Debian?", "and to upgrade it?",
     "How to upgrade a package on Debian?"),
    ("Pour installer un paquet .deb, que faut-il faire ?", "et pour le supprimer ?",
     "Pour supprimer un paquet .deb, que faut-il faire ?"),
    # the follow-up's modifiers are added, its own object replaces the old one, its own
    # question word replaces the old frame, "faire" / "do" keeps the old action
    (DEB, "et pour l'enlever avec apt ?", "Comment enlever un paquet .deb avec apt ?"),
    ("How do I install a package?", "and to remove it completely?",
     "How do I remove a package completely?"),
    (DEB, "et pour configurer le proxy ?", "Comment configurer le proxy ?"),
    (DEB, "et pourquoi le supprimer ?", "Pourquoi supprimer un paquet .deb ?"),
    (DEB, "et pour le faire avec apt ?", "Comment installer un paquet .deb téléchargé avec apt ?"),
])
def test_a_follow_up_verb_replaces_the_previous_one(previous, follow_up, standalone):
    assert carry_over(follow_up, previous) == standalone


@pytest.mark.parametrize("previous, follow_up, standalone", [
    # no verb in the follow-up, or none in the previous question, or another language:
    # the previous question's key words are carried over, as before
    (TELEWORK, "et pour les cadres ?", "et pour les cadres ? (Combien jours télétravail semaine)"),
    ("What is the return period?", "what about exchanges?",
     "what about exchanges? (return period)"),
    (ALLOWANCE, CHAIR, CHAIR_STANDALONE),
    ("Quel est le délai de retour ?", "et comment le prolonger ?",
     "et comment le prolonger ? (délai retour)"),
    ("Comment installer un paquet ?", "and to remove it?", "and to remove it? (installer paquet)"),
    # not a follow-up, or no previous question: unchanged
    (DEB, "Comment configurer le proxy d'apt quand le réseau de l'entreprise en impose un ?",
     "Comment configurer le proxy d'apt quand le réseau de l'entreprise en impose un ?"),
    ("", "et pour le supprimer ?", "et pour le supprimer ?"),
])
def test_follow_ups_without_a_verb_to_replace_carry_the_key_words_over(
        previous, follow_up, standalone):
    assert carry_over(follow_up, previous) == standalone


def test_a_chain_of_follow_ups_keeps_the_first_subject():
    second = carry_over("et pour le supprimer ?", DEB)
    assert carry_over("et pour le réinstaller ?", second) == "Comment réinstaller un paquet .deb ?"
    assert carry_over("et avec apt ?", second) == "et avec apt ? (supprimer paquet deb)"


# ------------------------------------------------------------------------------ audience


def test_a_staff_conversation_cannot_be_resumed_or_read_by_another_audience(
        chat_index_path):
    with Index(chat_index_path, embedder="e5") as index:
        conversation, opening = index.chat(
            "Jusqu'à quel montant un conseiller peut-il rembourser sans validation ?",
            audience="staff")
        assert opening.hits[0].access == "staff" and "300 €" in opening.answer
        missing = "0123456789ab"
        assert len(missing) == len(conversation)
        with pytest.raises(KeyError) as unknown:
            index.conversations.history(missing, audience="staff")
        expected = str(unknown.value).replace(missing, "ID")
        for audience in ("public", None, "all", "rh"):
            with pytest.raises(KeyError) as refused:
                index.chat("Et au-delà ?", conversation=conversation, audience=audience)
            assert str(refused.value).replace(conversation, "ID") == expected, audience
            with pytest.raises(KeyError) as hidden:
                index.conversations.history(conversation, audience=audience)
            assert str(hidden.value).replace(conversation, "ID") == expected, audience
            assert opening.answer not in str(hidden.value)
        # nothing was written by the refused attempts; staff still resumes it
        assert len(index.conversations.history(conversation, audience="staff")) == 2
        _, follow_up = index.chat("Et au-delà de 1 500 € ?", conversation=conversation,
                                  audience="staff")
        assert len(index.conversations.history(conversation, audience="staff")) == 4
    assert follow_up.standalone_question != "Et au-delà de 1 500 € ?"


# ---------------------------------------------------------------------------------- CLI


def test_cli_chat_json_then_follow_up_in_another_process(index_path, tmp_path):
    """Two `preuve chat` processes on one index file (keyword-only: fast, no model). The
    follow-up names the fauteuil the page says: on a keyword-only index "chaise" is a
    paraphrase no word of the page matches, and the default judgment rightly refuses it
    (coverage 0.40 against 0.50; "fauteuil" gives 0.71)."""
    path = copy_index(index_path, tmp_path / "chat.sqlite")
    first = run_cli("chat", ALLOWANCE, "--json", "--audience", "public", "--index", str(path))
    assert first.returncode == 0, first.stderr
    opening = json.loads(first.stdout)
    conversation = opening["conversation"]
    assert opening["question"] == ALLOWANCE and not opening["refused"]
    assert {"answer", "reason", "citations", "hits", "usage", "standalone_question"} <= set(
        opening)
    second = run_cli("chat", ARMCHAIR, "--conversation", conversation, "--json", "--audience",
                     "public", "--index", str(path))
    assert second.returncode == 0, second.stderr
    follow_up = json.loads(second.stdout)
    assert follow_up["conversation"] == conversation
    assert follow_up["standalone_question"] == ARMCHAIR_STANDALONE
    assert follow_up["hits"][0]["label"] == PAGE_3
    assert not follow_up["refused"]
    assert PAGE_3 in {c["label"] for c in follow_up["citations"]}
    stored = rows(path, "SELECT role, content, standalone FROM messages "
                        "WHERE conversation_id = ? ORDER BY id", (conversation,))
    assert [(m["role"], m["standalone"]) for m in stored] == [
        ("user", ALLOWANCE), ("assistant", None), ("user", ARMCHAIR_STANDALONE),
        ("assistant", None)]
    # the conversation was opened as public: the operator cannot resume it, and the error
    # is the one for an id that does not exist
    for conv in (conversation, "ffffffffffff"):
        denied = run_cli("chat", CHAIR, "--conversation", conv, "--json", "--index", str(path))
        assert denied.returncode != 0 and denied.stdout == ""
        assert denied.stderr.strip() == f"Error: no conversation '{conv}'"
    assert len(rows(path, "SELECT id FROM messages WHERE conversation_id = ?",
                    (conversation,))) == 4


@pytest.mark.parametrize("ending", ["exit\nNever asked ?\n", "QUIT\n", ""])
def test_cli_chat_without_a_question_is_an_interactive_session(index_path, tmp_path, ending):
    """`preuve chat` alone, as `llm chat`: a prompt per question, the conversation kept from
    turn to turn (the follow-up is made standalone from the first question), a blank line
    skipped, `exit` / `quit` / end of input ends it and nothing after it is asked."""
    path = copy_index(index_path, tmp_path / "chat.sqlite")
    session = run_cli("chat", "--audience", "public", "--index", str(path),
                      stdin=f"{ALLOWANCE}\n\n{ARMCHAIR}\n{ending}")
    assert session.returncode == 0, session.stderr
    assert "Traceback" not in session.stderr
    assert session.stderr.count("> ") == 4  # two questions, the blank line, the ending
    assert f"(searched: {ARMCHAIR_STANDALONE})" in session.stdout
    assert PAGE_3 in session.stdout.split(f"(searched: {ARMCHAIR_STANDALONE})")[1]
    conversations = rows(path, "SELECT DISTINCT conversation_id AS id FROM messages")
    assert len(conversations) == 1
    conversation = conversations[0]["id"]
    stored = rows(path, "SELECT role, content, standalone FROM messages "
                        "WHERE conversation_id = ? ORDER BY id", (conversation,))
    assert [(m["role"], m["standalone"]) for m in stored] == [
        ("user", ALLOWANCE), ("assistant", None), ("user", ARMCHAIR_STANDALONE),
        ("assistant", None)]
    assert session.stderr.strip().endswith(
        f"conversation: {conversation} (resume: preuve chat --conversation {conversation})")
