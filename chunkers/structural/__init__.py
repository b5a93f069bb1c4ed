"""The default strategy's steps, in data-flow order: units (one per leaf element) -> boundaries and
sentences (where a unit alone over budget may be cut) -> packing (section by section) -> context
(budgeted prefixes) -> finalize (embed_text counted, drafts to records); ``strategy`` runs them."""
