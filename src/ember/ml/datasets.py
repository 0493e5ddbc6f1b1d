"""A generated text-classification dataset that ships with ember (nothing is downloaded).

``make_topic_documents`` writes short documents from topic vocabularies (sports, technology, cooking,
finance) mixed with shared filler words, so that the class is learnable from words but not trivially.
Deterministic for a given ``random_state``.
"""

from __future__ import annotations

import numpy as np

TOPICS: dict[str, list[str]] = {
    "sports": "match goal team score league coach player season stadium referee tournament champion "
    "striker defender penalty Olympic medal sprint marathon racket".split(),
    "tech": "software hardware network server cloud database algorithm compiler kernel processor "
    "GPU memory cache startup developer Python encryption protocol robot sensor".split(),
    "cooking": "recipe oven flour sugar butter garlic onion simmer roast bake spice sauce pasta "
    "kitchen chef dessert soup grill café crème".split(),
    "finance": "market stock bond equity dividend interest inflation bank loan credit investor "
    "portfolio currency budget profit revenue tax fund €uro".split(),
}
FILLER = (
    "the a of and to in is was for on with as by at from this that it be are were "
    "today yesterday new report people year week city many some more most"
).split()


def make_topic_documents(
    n_documents: int = 2000,
    n_topics: int = 2,
    *,
    words_per_document: int = 30,
    topic_share: float = 0.25,
    random_state: int = 0,
) -> tuple[list[str], np.ndarray]:
    """(documents, labels): ``n_topics`` of the built-in topics, labels are topic names."""
    rng = np.random.default_rng(random_state)
    names = list(TOPICS)[:n_topics]
    labels = rng.integers(0, n_topics, n_documents)
    all_topic_words = [w for n in names for w in TOPICS[n]]
    docs = []
    for lab in labels:  # generation of a fixture dataset, not a data path
        n_topic = rng.binomial(words_per_document, topic_share)
        words = list(rng.choice(TOPICS[names[lab]], n_topic)) + list(
            rng.choice(FILLER + all_topic_words, words_per_document - n_topic)
        )
        rng.shuffle(words)
        doc = " ".join(words)
        docs.append(doc[0].upper() + doc[1:] + ".")
    return docs, np.asarray(names, dtype=object)[labels]
