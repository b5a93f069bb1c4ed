"""Context never costs a definition its wholeness, and a piece of a split definition says where it
stands: its class header before its own signature, and the module constants it reads itself
(issue 35: requests' SessionRedirectMixin.rebuild_auth, 246 tokens at 256, was cut in two for the
sake of its class header; a late-fee method's continuation lacked the rate it multiplies by)."""

from __future__ import annotations

import pytest

import parsegate
from parsegate.chunkers import ChunkConfig, Chunker

pytest.importorskip("tree_sitter_language_pack")

LEDGER = '''import decimal
from collections import OrderedDict

LATE_FEE_RATE = decimal.Decimal("0.015")


class LedgerWithAVeryDescriptiveNameForReconciliation(OrderedDict):
    """A ledger of invoices, reconciled nightly against the payment processor's settlement files."""

    def reconcile(self, settlements):
        """Match every settlement to its invoice and mark the invoice paid when the amounts agree."""
        for settlement in settlements:
            invoice = self.get(settlement.invoice_number)
            if invoice is not None and invoice.amount == settlement.amount:
                invoice.paid = True

    def late_fee(self, invoice, days_late):
        """The fee owed on an invoice paid late: the rate per month, prorated by day."""
        if days_late <= 0:
            return decimal.Decimal(0)
        monthly = invoice.amount * LATE_FEE_RATE
        daily = monthly / 30
        fee = daily * days_late
        if fee > invoice.amount:
            fee = invoice.amount
        return fee.quantize(decimal.Decimal("0.01"))
'''
SHORT = LEDGER.replace("LedgerWithAVeryDescriptiveNameForReconciliation", "Ledger")
CLASS = "class Ledger(OrderedDict):"
SIGNATURE = "def late_fee(self, invoice, days_late):"
CONSTANT = 'LATE_FEE_RATE = decimal.Decimal("0.015")'


def _method(doc: parsegate.Document, name: str) -> tuple[int, int]:
    (el,) = [e for e in doc.elements if e.kind == "method" and e.data.symbol.endswith("." + name)]
    return el.start, el.end


def test_a_method_that_fits_alone_stays_whole_and_its_context_gives_way() -> None:
    doc = parsegate.parse(text=LEDGER, format="py")
    chunker = Chunker(ChunkConfig(max_tokens=124))
    start, end = _method(doc, "late_fee")
    assert chunker.counter.count(LEDGER[start:end]) == 119  # fits 124 alone, not with the class header
    chunks = chunker.chunk(doc)
    holding = [c for c in chunks if c.start <= start and end <= c.end]
    assert len(holding) == 1
    (whole,) = holding
    assert (whole.start, whole.end) == (start, end)
    assert all(chunker.counter.count(c.embed_text) == c.tokens <= 124 for c in chunks)
    assert whole.embed_text.endswith(LEDGER[start:end])


def test_a_continuation_carries_its_class_header_its_signature_and_the_constant_it_reads() -> None:
    doc = parsegate.parse(text=SHORT, format="py")
    chunker = Chunker(ChunkConfig(max_tokens=100, context_share=0.44))
    start, _ = _method(doc, "late_fee")
    chunks = chunker.chunk(doc)
    (rest,) = [c for c in chunks if c.start > start and "monthly = invoice.amount * LATE_FEE_RATE" in c.text]
    prefix = rest.embed_text[: -len(rest.text)].splitlines()
    assert CLASS in prefix and SIGNATURE in prefix and CONSTANT in prefix
    assert prefix.index(CLASS) < prefix.index(SIGNATURE)
    assert all(chunker.counter.count(c.embed_text) == c.tokens <= 100 for c in chunks)
