"""Italian words the docs put in quotation marks are a seed's own, word for word (docs/seeds/).

A quotation is Italian when it has a common Italian word and no common English
one; English quotations ("origin empty", "Flashing the Pico") are not checked. Line breaks and runs of spaces
count as one space, as Markdown wraps lines; everything else must match.
"""

import glob
import os
import re

import pytest

DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
ITALIAN = set("il lo la le gli un una di del della dei delle che non per con nel nella dal dalla "
              "si se è già sua suo questa quando ancora sulla sono fra tra anche senza comunque".split())
ENGLISH = set("the of to and is it on from their that this with be as or by for at an".split())


def _prose(text):
    """The text without code blocks and code spans, whitespace runs as one space."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    return re.sub(r"\s+", " ", text)


def italian_quotations(text):
    found = []
    for quoted in re.findall(r'"([^"]+)"|«([^»]+)»|“([^”]+)”', _prose(text)):
        q = "".join(quoted).strip()
        words = re.findall(r"[a-zàèéìòù]+", q.lower())
        if any(w in ITALIAN for w in words) and not any(w in ENGLISH for w in words):
            found.append(q)
    return found


def _seeds():
    return [re.sub(r"\s+", " ", open(p, encoding="utf-8").read())
            for p in sorted(glob.glob(os.path.join(DOCS, "seeds", "*.txt")))]


def _quotations():
    out = []
    for path in sorted(glob.glob(os.path.join(DOCS, "*.md"))):
        with open(path, encoding="utf-8") as f:
            out += [(os.path.basename(path), q) for q in italian_quotations(f.read())]
    return out


def test_the_seeds_are_in_the_tree():
    assert len(_seeds()) == 5


@pytest.mark.parametrize("doc, quotation", _quotations())
def test_an_italian_quotation_is_in_a_seed_word_for_word(doc, quotation):
    assert any(quotation in seed for seed in _seeds()), "%s quotes words no seed has: %r" % (doc, quotation)


def test_the_quotations_are_found():
    # Else the test above would pass on nothing.
    quotations = _quotations()
    assert len(quotations) >= 10, quotations
    assert ("rules.md", "50 mosse fra i due giocatori") in quotations
    # The words issue 10 found in sprint.md, quoted from no seed, are recognised as a quotation.
    assert italian_quotations('material ("il materiale ancora in mano o nel\n  mazzo conta"): all') == [
        "il materiale ancora in mano o nel mazzo conta"]
    assert italian_quotations('the "origin empty" rule, `"il la"`') == []
