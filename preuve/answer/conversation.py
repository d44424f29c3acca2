"""Follow-up questions made standalone before retrieval.

"Et pour la version 4 ?" retrieves nothing useful on its own. With a model, the model
rewrites it from the history; without one, the previous question's key words are carried
over, which is enough for keyword and dense retrieval to find the topic again."""

from __future__ import annotations

import re

from preuve.text import STOPWORDS, fold

_FOLLOW_UP_START = re.compile(
    r"^\s*(et|mais|alors|and|but|what about|how about|and for|et pour|et si|et en|et à|"
    r"pareil|same|idem|also|aussi)\b", re.I)
_PRONOUNS = re.compile(r"\b(il|elle|ils|elles|ça|cela|celui|celle|ceux|it|they|that|this|"
                       r"those|these|them|its|their|le même|la même)\b", re.I)


def looks_like_follow_up(question: str) -> bool:
    words = question.split()
    return (len(words) <= 6 or bool(_FOLLOW_UP_START.match(question))
            or (len(words) <= 10 and bool(_PRONOUNS.search(question))))


def key_terms(question: str) -> list[str]:
    """Content words of a question, in order, as written (no stop words, no punctuation)."""
    words = re.findall(r"[\w'’-]+", question)
    out = []
    for word in words:
        bare = re.sub(r"^(?:[ldjmnstc]|qu)['’]", "", word, flags=re.I)
        if len(bare) > 2 and fold(bare) not in STOPWORDS and bare.lower() not in out:
            out.append(bare)
    return out


def carry_over(question: str, previous: str) -> str:
    """The follow-up plus the previous question's key words it does not already hold."""
    if not previous or not looks_like_follow_up(question):
        return question
    have = {fold(w) for w in key_terms(question)}
    extra = [w for w in key_terms(previous) if fold(w) not in have]
    return f"{question.strip()} ({' '.join(extra)})" if extra else question


REWRITE_PROMPT = (
    "Rewrite the user's last question so that it can be understood without the "
    "conversation: keep its language, resolve references to earlier turns, add nothing "
    "else. Reply with the rewritten question only."
)


def rewrite_with_model(generator, question: str, history: list[dict]) -> tuple[str, dict]:
    """A standalone question written by the model, and the call's usage."""
    turns = "\n".join(f"{m['role']}: {m.get('standalone') or m['content']}" for m in history[-6:])
    messages = [{"role": "system", "content": REWRITE_PROMPT},
                {"role": "user", "content": f"{turns}\nuser: {question}"}]
    generation = generator.generate(messages)
    text = generation.text.strip().splitlines()[0].strip() if generation.text.strip() else ""
    return (text or question), {"model": generation.model, **generation.usage}
